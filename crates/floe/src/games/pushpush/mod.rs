//! PushPush (spec `pushpush.md`): a robot walks freely and pushes blocks, which slide until
//! they hit something; it wants to reach the target.
//!
//! - [`board`]: the board as data and its text format.
//! - [`engine`]: the rules compiled to bit sets, PushPush-1, -k and -* ([`Variant`]);
//!   implements [`Puzzle`](crate::search::Puzzle).
//! - [`validate`]: an independent replay that names the first illegal push.
//! - [`solve`](mod@solve): fewest pushes (checked by the replay) and the thesis's difficulty.
//! - [`census`]: every board of a size classified at once.
//! - [`labels`]: one board's exact labels (fewest pushes, difficulty) and its equivalence
//!   class, for learning.

pub mod board;
pub mod census;
pub mod engine;
pub mod labels;
pub mod solve;
pub mod validate;

pub use board::Board;
pub use engine::{PushMove, PushPuzzle, PushState, Variant};
pub use solve::{difficulty, solve, Difficulty, Search, SolveOptions, SolveReport};
pub use validate::{replay, Illegal, IllegalMove, Replay};
