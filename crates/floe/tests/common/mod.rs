//! Levels for the integration tests (`mod common;`) and the benchmarks
//! (`#[path = "../tests/common/mod.rs"] mod common;`) of the library: the bundled Zelda rooms
//! and the qits Ice Tower maps of the shared reference levels (`../shared/levels/`).
#![allow(dead_code)]

use floe::games::ice::{format, Level};
use floe::games::icetower::{parse, Tower};
use std::path::PathBuf;

/// `levels/zelda.txt`: the fourteen Zelda rooms of the spec.
pub const ZELDA: &str = include_str!("../../../../levels/zelda.txt");

/// The Zelda room `name` (its title or number).
pub fn zelda(name: &str) -> Level {
    let levels = format::parse_floe(ZELDA, "levels/zelda.txt").unwrap();
    format::select(&levels, name).unwrap().1.clone()
}

/// The path of the qits Ice Tower map `name`.
pub fn qits_path(name: &str) -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/levels/qits-icetower"
    ))
    .join(name)
}

/// The qits Ice Tower map `name`.
pub fn qits(name: &str) -> Tower {
    let path = qits_path(name);
    let text = std::fs::read_to_string(&path).unwrap();
    parse(&text, &path.display().to_string(), name).unwrap()
}
