//! Zelda-style ice block puzzles (spec: `ice-blocks.md`).
//!
//! - [`level`]: the level as data ([`Level`], [`Cell`], [`WalkRule`]) and the game ([`Ice`]).
//! - [`format`]: the project's text format and Kluiver's, detection, selection of a level.
//! - [`engine`]: the level compiled to bitboard slide tables and Kluiver's random attempt
//!   (the random moves); implements [`Puzzle`](crate::search::Puzzle) for every generic
//!   algorithm.
//! - [`validate`]: an independent replay of a move list that names the first illegal push.
//! - [`game`](mod@game): the game face ([`Ice`]): everything generic (solving with every
//!   algorithm, spaces, analyses, pictures, play) reaches ice blocks through it.

pub mod engine;
pub mod format;
pub mod game;
pub mod level;
#[cfg(test)]
mod playout;
pub mod validate;

pub use engine::{with_puzzle, Free, IceMove, IcePuzzle, IceState, IceTask, Walk, Walking};
pub use format::{load, parse, select, Format};
pub use level::{Cell, Ice, Level, WalkRule};
pub use validate::{replay, Illegal, IllegalMove, Position, Replay, Step};

use crate::error::Error;
use crate::game::SolveReport;
use crate::ops::{solve_typed, SolveOptions};
use crate::search::{Enumeration, Limits};

/// Solves `level` under `rule` with `algorithm` (`bfs`, `difficulty`, `astar`, `idastar`) at
/// block-change factor `factor`: the game face's solve, for ice-only library code that holds
/// a [`Level`] (the typed pushes are `report.moves_of::<Push>()`).
pub fn solve(
    level: &Level,
    rule: WalkRule,
    algorithm: &str,
    factor: u64,
    limits: &Limits,
) -> Result<SolveReport, Error> {
    let mut l = level.clone();
    l.rules = Some(rule);
    let o = SolveOptions {
        algorithm: Some(algorithm.to_string()),
        factor: Some(factor),
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    solve_typed(Ice, &l, &o)
}

/// Every position reachable from the start of `level` under `rule` (see
/// [`Level::space`](crate::ops::Level::space)).
pub fn space(level: &Level, rule: WalkRule, limits: &Limits) -> Result<Enumeration, Error> {
    let mut l = level.clone();
    l.rules = Some(rule);
    crate::ops::enumerate_typed(Ice, &l, limits)
}

/// [`space`] shared by the workers that `ex` links ([`crate::search::dist`]); rule `free`
/// only (the positions need an invertible perfect hash).
pub fn space_on(
    level: &Level,
    rule: WalkRule,
    ex: &mut dyn crate::search::dist::Exchange,
    o: &crate::search::dist::DistOptions,
) -> Result<crate::search::dist::DistEnumeration<()>, Error> {
    struct Shared<'a>(
        &'a mut dyn crate::search::dist::Exchange,
        &'a crate::search::dist::DistOptions,
    );
    impl IceTask for Shared<'_> {
        type Output = Result<crate::search::dist::DistEnumeration<()>, Error>;
        fn run<B: crate::bits::Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
            crate::search::dist::enumerate_dist(p, self.0, self.1, || ())
        }
    }
    with_puzzle(level, rule, Shared(ex, o))?
}
