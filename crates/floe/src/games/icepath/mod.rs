//! The ice path puzzle: the sliding-player puzzle of the Pokémon ice caves and of Simon
//! Tatham's *Inertia*.
//!
//! The player moves up, down, left or right. On ice he slides until the next cell is a rock
//! or outside the board, or until he enters normal floor, where he stops; from normal floor a
//! move takes one step (and slides on if that step is onto ice). A move that cannot take him
//! anywhere is illegal. The level is solved when he enters the exit (a slide ends there).
//!
//! # Text format
//!
//! ```text
//! Game: icepath
//! Title: a cave
//! @---#
//! -#---
//! ---=.
//! ```
//!
//! `-` ice, `=` normal floor, `#` rock, `@` the player on ice (`&` on normal floor), `.` the
//! exit. One player and one exit per level; every row of a level has the same length. Levels
//! are separated by blank lines; `Title:` and `Game:` headers come before a level's rows,
//! lines starting with `;` are comments.
//!
//! # Moves
//!
//! A move is a direction: JSON `{"dir": "up"}`, text `up` (or `u`, `n`), one or more per line.
//!
//! - [`level`]: the level as data and its text format; the game ([`IcePath`]), its moves and
//!   slides.
//! - [`engine`]: the slides precomputed per cell and direction; a position is one cell.
//! - [`game`](mod@game): the rules on plain coordinates and the game face.
//! - `hardest`: the hardest levels of a size (`floe hardest`), reached through the game face,
//!   or called with its typed options: [`hardest()`] with an [`IcePathHardest`].
//! - `reach`: the annealing's search over a board's stops, by bit masks per row on boards of
//!   up to 64 rows and 64 columns.

pub mod engine;
pub mod game;
mod hardest;
pub mod level;
mod reach;

pub use hardest::{hardest, IcePathHardest};
pub use level::{Cell, IcePath, Level, Move, Slide};
