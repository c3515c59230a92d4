//! SVG pictures: plots, board pictures and solutions drawn on boards.

pub mod board;
pub mod plot;
pub mod svg;
