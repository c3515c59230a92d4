//! PushPush: `floe solve --game pushpush` and `floe census pushpush`.

use super::*;
use crate::CensusArgs;

/// `floe solve` on a PushPush level.
pub fn solve(_a: &SolveArgs) -> Result<Done, Error> {
    Err(Error::invalid("PushPush levels cannot be solved yet"))
}

/// `floe census pushpush`.
pub fn census(_a: CensusArgs) -> Result<Done, Error> {
    Err(Error::invalid("the PushPush census is not available yet"))
}
