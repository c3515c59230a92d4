//! Levels for the integration tests (`mod common;`) and the benchmarks
//! (`#[path = "../tests/common/mod.rs"] mod common;`) of the library: the bundled Zelda rooms
//! and the qits Ice Tower maps of the shared reference levels (`../shared/levels/`).
#![allow(dead_code)]

use floe::games::ice::{format, Level};
use floe::games::icetower::{parse, Tower};
use floe::grid::{Pos, Push};
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

/// h49's best known solution (docs/icetower.md): 23 pushes.
pub const H49_23: &str = "2 5 r,4 5 r,5 5 r,3 5 d,5 5 r,11 10 u,11 12 u,11 14 u,11 11 l,11 13 l,\
11 11 u,7 5 r,11 8 u,11 9 u,6 5 d,7 5 r,11 10 r,11 6 u,11 7 r,11 14 u,11 5 r,11 12 u,11 13 u";

/// [`H49_23`] as pushes.
pub fn h49_best() -> Vec<Push> {
    H49_23
        .split(',')
        .map(|m| {
            let v: Vec<&str> = m.split(' ').collect();
            let dir = v[2].parse().unwrap();
            Push::new(Pos::new(v[0].parse().unwrap(), v[1].parse().unwrap()), dir)
        })
        .collect()
}
