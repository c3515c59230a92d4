//! SVG pictures: plots (and, later, boards and solutions).

pub mod plot;
