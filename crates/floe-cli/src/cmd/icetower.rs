//! Ice Tower (氷塔): `floe solve --game icetower`.

use super::*;

/// `floe solve` on an Ice Tower level.
pub fn solve(_a: &SolveArgs) -> Result<Done, Error> {
    Err(Error::invalid("Ice Tower levels cannot be solved yet"))
}
