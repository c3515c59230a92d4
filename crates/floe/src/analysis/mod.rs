//! Measurements built on the generic search.

pub mod experiment;
pub mod patterns;
pub mod profile;
pub mod push_tree;
pub mod reach;
pub mod reversibility;
pub mod solvers;
pub mod stats;
pub mod tables;
