//! floe: solve, generate and analyse sliding-block puzzles.
//!
//! - [`search`]: generic algorithms (BFS, Dijkstra, A*, IDA*, enumeration) over the
//!   [`search::Puzzle`] interface; they know no game.
//! - [`games`]: one module per game: rules, text formats, fast engines.
//! - [`analysis`]: measurements built on the search (reach tables).
//! - [`generate`]: creation: challenge setups of the solitaire puzzles, pictures drawn with ice
//!   blocks.
//! - [`bits`]: fixed-width bit sets used as compact states.
//! - [`grid`]: directions, positions and pushes shared by the sliding games.
//! - [`play`]: playing a level: undo, redo, hints and solvability, with no drawing.
//! - [`input`]: reading level files (UTF-8 checked, `-` for standard input).
//! - [`render`]: SVG pictures and plots.

#![warn(missing_docs)]

pub mod analysis;
pub mod bits;
mod error;
pub mod game;
pub mod games;
pub mod generate;
pub mod grid;
pub mod input;
pub mod play;
pub mod render;
pub mod scene;
pub mod search;

pub use error::{Error, ParseError};
