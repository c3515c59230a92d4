//! The hardest levels of a game named by a spec (`floe hardest`): the options checked once for
//! every game, then the game's own search ([`Game::hardest`](crate::game::Game::hardest)).

use crate::error::Error;
use crate::game::hardest::{HardestOptions, HardestReport, Method};

/// The hardest levels of the game `spec` (a name, or a name with parameters such as
/// `pushpush(k=2)`).
///
/// ```
/// use floe::game::hardest::HardestOptions;
/// use floe::ops::hardest;
/// let mut o = HardestOptions::new(3, 3);
/// o.blocks = Some(1);
/// let r = hardest("ice", &o).unwrap();
/// assert!(r.exhaustive && r.levels[0].length >= 2);
/// ```
pub fn hardest(spec: &str, o: &HardestOptions) -> Result<HardestReport, Error> {
    let (g, p) = crate::games::spec(spec)?;
    let mut o = o.clone();
    o.params = p.or(&o.params);
    o.params.check(g.info())?;
    if o.top == 0 {
        return Err(Error::invalid("--top must list at least one level"));
    }
    if o.method == Method::Anneal && (o.restarts == 0 || o.steps == 0) {
        return Err(Error::invalid(
            "the annealing needs at least one restart and one step",
        ));
    }
    g.hardest(&o)
}
