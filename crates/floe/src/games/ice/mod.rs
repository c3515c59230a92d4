//! Zelda-style ice block puzzles (spec: `ice-blocks.md`).
//!
//! - [`level`]: the level as data ([`Level`], [`Cell`], [`WalkRule`]).
//! - [`format`]: the project's text format and Kluiver's, detection, selection of a level.
//! - [`engine`]: the level compiled to bitboard slide tables; implements
//!   [`Puzzle`](crate::search::Puzzle) for every generic algorithm.
//! - [`validate`]: an independent replay of a move list that names the first illegal push.
//! - [`solve`](mod@solve): solving with a chosen algorithm, every answer replayed before it is
//!   returned; state-space size.

pub mod engine;
pub mod format;
pub mod level;
pub mod playout;
pub mod solve;
pub mod validate;

pub use engine::{with_puzzle, Free, IceMove, IcePuzzle, IceState, IceTask, Walk, Walking};
pub use format::{load, parse, select, Format};
pub use level::{Cell, Level, WalkRule};
pub use solve::{solve, space, Algorithm, SolveOptions, SolveReport, Status, MAX_FACTOR};
pub use validate::{replay, Illegal, IllegalMove, Replay, Step};
