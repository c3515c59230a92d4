//! The physical solitaire puzzles (BoxOff, Pretzel, Fujisan): `floe solve --game …` and
//! `floe experiment`.

use super::*;
use clap::Args;
use floe::games::Game;

/// `floe experiment GAME …`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// The game: boxoff, pretzel or fujisan.
    game: Game,
}

/// `floe solve` on a solitaire challenge.
pub fn solve(_a: &SolveArgs, game: Game) -> Result<Done, Error> {
    Err(Error::invalid(format!(
        "{game} challenges cannot be solved yet"
    )))
}

/// `floe experiment`.
pub fn experiment(a: ExperimentArgs) -> Result<Done, Error> {
    Err(Error::invalid(format!(
        "{} experiments are not available yet",
        a.game
    )))
}
