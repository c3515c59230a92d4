//! SVG pictures: plots, board pictures and solutions drawn on boards.

pub mod board;
pub mod marked;
pub mod plot;
pub mod svg;

/// Counts and words as reports print them (`say`, in the ground layer).
pub use crate::say::{plural, thousands};

pub use crate::mem::human_bytes;
