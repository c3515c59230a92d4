//! The operations written once for every game, over the game interface ([`crate::game`]) and
//! the analyses: solving with every algorithm (each answer replayed by the game's rules),
//! verifying a move list, enumerating and analysing the positions, the solver's verdicts in
//! play, randomised solvers against the optimum, the hardest levels of a size; and a level
//! of any game as front ends hold it ([`AnyGame`], [`Level`]), read through one [`Request`].
//!
//! - [`level`](mod@level): [`AnyGame`] (a game of the registry as a trait object) and
//!   [`Level`] (a level of any game), with [`LevelEntry`] (`floe levels`).
//! - [`request`]: [`Request`], [`Source`], [`LevelFile`]: a file read once, its game
//!   detected, its level picked, the parameters applied.
//! - [`solve`](mod@solve): [`SolveOptions`] and the solve of every algorithm.
//! - [`verify`](mod@verify): a move list replayed and judged.
//! - [`space`](mod@space): reachable positions ([`enumerate_typed`]), reversibility
//!   ([`AnalyzeReport`]).
//! - [`verdict`](mod@verdict): the solver's answers in play ([`Verdict`]).
//! - [`bench`]: [`bench_solvers`], randomised solvers against the optimum.
//! - [`experiment`](mod@experiment): the solitaire puzzles' Monte Carlo experiments from
//!   their request ([`experiment()`]).
//! - [`hardest`](mod@hardest): [`hardest`], the hardest levels of a game named by a spec.
//! - [`explain`](mod@explain): why a position is lost: the move that lost it and a dead
//!   core ([`explain::Explained`]).
//! - [`graph`]: the whole state graph as arrays (the work of [`crate::request::Graph`]).
//! - [`step`](mod@step): a level played one move at a time ([`step::State`]).
//! - [`env`]: learning environments: a level's tables ([`env::Table`]) and environments
//!   stepped together ([`env::Envs`]).

pub mod bench;
pub mod conformance;
pub mod env;
pub mod explain;
pub mod graph;
pub mod hardest;
pub mod level;
mod level_ops;
pub mod request;
pub mod solve;
pub mod space;
pub mod step;
pub mod verdict;
pub mod verify;

pub use bench::bench_solvers;
pub use hardest::hardest;
pub use level::{AnyGame, Level, LevelEntry};
pub use request::{LevelFile, Request, Source};
pub use solve::{solve_typed, SolveOptions, MAX_THREADS};
pub use space::{enumerate_typed, AnalyzeReport};
pub use verdict::Verdict;

#[cfg(test)]
pub(crate) use request::level_of;
