//! Creation.
//!
//! - [`setups`]: the challenge setups of the physical solitaire puzzles (shuffles and entangled
//!   components of BoxOff, Pretzel and Fujisan), seeded.
//! - [`picture`]: black-and-white pictures (PBM `P1`/`P4`, ASCII art).
//! - [`image`]: van den Akker's drawing board, the placement search, the recursion that
//!   decides a picture, the push sequence that draws it, and the census of small pictures.
//! - [`retrograde`]: Kluiver's retrograde generator of ice block levels, the shortcut repair,
//!   exact verification (fewest pushes, least difficulty, optimal solutions, reachable
//!   states) and the report on intended versus fewest pushes.
//! - [`hardest`]: the hardest levels of a size (`floe hardest`): exact search up to
//!   symmetry, simulated annealing, every level verified by the exact solver.

pub mod hardest;
pub mod image;
pub mod picture;
pub mod retrograde;
pub mod setups;

pub use image::{census, draw, Census, DrawLimits, DrawingBoard, ImageReport, Placement, Witness};
pub use picture::Picture;
pub use setups::*;
