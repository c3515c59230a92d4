//! PushPush (spec `pushpush.md`): a robot walks freely and pushes blocks, which slide until
//! they hit something; it wants to reach the target.
//!
//! - [`board`]: the board as data and its text format.
//! - [`engine`]: the rules compiled to bit sets, PushPush-1, -k and -* ([`Variant`]);
//!   implements [`Puzzle`](crate::search::Puzzle).
//! - [`validate`]: an independent replay that names the first illegal push.
//! - [`solve`](mod@solve): the thesis's difficulty (equation 3).
//! - [`census`]: every board of a size classified at once.
//! - [`labels`]: one board's exact labels (fewest pushes, difficulty) and its equivalence
//!   class, for learning.
//! - [`sample`]: samples of labelled boards for learning (`floe learn data`, `floe.dataset`).
//! - [`level`]: the game ([`PushPush`]) and its level (a board and its variant).
//! - [`game`](mod@game): the game face (the rules behind [`PushPush`]).

pub mod board;
pub mod census;
pub mod engine;
pub mod game;
pub mod labels;
pub mod level;
pub mod sample;
pub mod solve;
pub mod validate;

pub use board::Board;
pub use engine::{PushMove, PushPuzzle, PushState, Variant};
pub use level::{Level, PushPush};
pub use solve::{difficulty, Difficulty};
pub use validate::{replay, Illegal, IllegalMove, Replay};
