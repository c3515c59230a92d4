//! Measurements built on the generic search.
//!
//! The modules at this level are generic over the game: they take a [`Puzzle`] or a
//! [`Game`](crate::game::Game) and name none. What only makes sense for one game sits in a
//! module named after it: [`ice`] (reach tables, the theses' tables, movement patterns,
//! difficulty profiles) and [`solitaire`] (the challenge experiments of the physical
//! solitaire puzzles).
//!
//! [`Puzzle`]: crate::search::Puzzle

pub mod ice;
/// The tree of move sequences (the search's, for any puzzle), where it was first used.
pub use crate::search::push_tree;
pub mod reversibility;
pub mod solitaire;
pub mod solvers;
pub mod stats;
