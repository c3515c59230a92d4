//! Measurements built on the generic search.

pub mod reach;
