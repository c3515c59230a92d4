//! Analyses of ice block levels only: they need what only that game has (blocks that rest on
//! cells of a board, block changes, empty boards of any size).
//!
//! - [`reach`]: reach tables, the fewest pushes after which some block rests on each cell;
//! - [`tables`]: the theses' tables on empty boards (search spaces, reach, strips);
//! - [`patterns`]: trains and zigzags in solutions;
//! - [`profile`]: the least difficulty of every reachable position per block-change factor.

pub mod patterns;
pub mod profile;
pub mod reach;
pub mod tables;
