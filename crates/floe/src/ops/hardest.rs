//! The hardest levels of a game named by a spec (`floe hardest`): the options every game
//! shares checked once, then the game's own search
//! ([`Game::hardest`](crate::game::Game::hardest)), which reads its counts by name into its
//! typed options.

use crate::error::Error;
use crate::game::hardest::{Counts, HardestOptions, HardestReport};

/// The hardest levels of the game `spec` (a name, or a name with parameters such as
/// `pushpush(k=2)`), with the game's `counts` by name (`blocks`, `rocks`…; a count of
/// another game is refused). A program that knows its game can call the game's search with
/// its typed options instead (`floe::generate::hardest::ice::hardest` with an `IceHardest`).
///
/// ```
/// use floe::game::hardest::{Counts, HardestOptions};
/// use floe::ops::hardest;
/// let o = HardestOptions::new(3, 3);
/// let r = hardest("ice", &o, &Counts::new().with("blocks", 1)).unwrap();
/// assert!(r.exhaustive && r.levels[0].length >= 2);
/// let e = hardest("pushpush", &o, &Counts::new().with("rocks", 1)).unwrap_err();
/// assert!(e.to_string().starts_with("--rocks does not apply to PushPush"));
/// ```
pub fn hardest(spec: &str, o: &HardestOptions, counts: &Counts) -> Result<HardestReport, Error> {
    let (g, p) = crate::games::spec(spec)?;
    let mut o = o.clone();
    o.params = p.or(&o.params);
    o.check(g.info())?;
    g.hardest(&o, counts)
}
