//! floe: solve, generate and analyse sliding-block puzzles.
//!
//! - [`game`]: the game interface: [`game::Game`], its engine and tasks, parameters, moves,
//!   the replay on a game's rules, the requests and reports; it imports nothing above it.
//! - [`games`]: one folder per game (ice blocks, PushPush, Ice Tower, BoxOff, Pretzel,
//!   Fujisan, ice path): level and format, fast engine, independent validator, scene; one
//!   registry line each, and the registry's look-ups ([`games::find`], [`games::spec`]).
//! - [`ops`]: the operations written once for every game: a level of any game
//!   ([`ops::Level`], [`ops::AnyGame`]), one resolved [`ops::Request`], solve with any
//!   algorithm, verify, space, analyze, verdicts in play, bench-solvers, hardest.
//! - [`search`]: generic algorithms (BFS, Dijkstra, A*, IDA*, depth-first, beam, enumeration,
//!   state graphs, random play) over the [`search::Puzzle`] interface; they know no game.
//! - [`analysis`]: measurements built on the search: reversibility and randomised solvers for
//!   every game; [`analysis::ice`] (reach tables, the theses' tables, profiles, patterns) and
//!   [`analysis::solitaire`] (the Monte Carlo experiments) for the games they are about.
//! - [`generate`]: creation: Kluiver's retrograde generator, pictures drawn with ice blocks,
//!   challenge setups of the solitaire puzzles.
//! - [`scene`]: the one cell model that pictures, play and the web page draw.
//! - [`render`]: SVG pictures of scenes and solutions, and plots.
//! - [`request`]: the typed requests of the operations front ends offer (solve, verify,
//!   render, space, generate, experiment), with their defaults, ranges and messages, read from
//!   query strings, JSON, or (feature `cli`) command-line flags.
//! - [`play`]: playing a level of any game: undo, redo, hints and solvability, with no drawing.
//! - [`bits`]: fixed-width bit sets used as compact states.
//! - [`grid`]: directions, positions and pushes shared by the sliding games.
//! - [`input`]: reading level files (UTF-8 checked, `-` for standard input).
//! - [`mem`]: memory held and available, the default budget, files written whole.
//! - [`say`]: numbers and words as people read them (`1,234,567`, `3 blocks`).

#![warn(missing_docs)]

/// `Display` for a type that has a `name(self) -> &'static str`: it is written as its name
/// (a direction, a limit, a setup, a walking rule, a solitaire game).
macro_rules! display_by_name {
    ($t:ty) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub mod analysis;
pub mod bits;
mod error;
pub mod game;
pub mod games;
pub mod generate;
pub mod grid;
pub mod input;
pub mod mem;
pub mod ops;
pub mod play;
pub mod render;
pub mod request;
pub mod say;
pub mod scene;
pub mod search;

pub use error::{Error, ParseError};
