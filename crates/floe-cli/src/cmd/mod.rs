//! The commands: each loads its input, calls the library and prints.
//!
//! - [`solving`]: solving and basic measurements (solve, space, reach, verify, convert, levels,
//!   demo);
//! - [`tables`]: the theses' tables (table space, reach, strip, patterns);
//! - [`analysis`]: analyze, profile, patterns, bench-solvers.
//! - [`pushpush`], [`icetower`], [`solitaire`]: solving the other games (`solve --game`),
//!   the PushPush census and the solitaire experiments.
//! - [`play`]: `floe play`, in the terminal or from a key script.
//! - [`pictures`]: `floe render` and the solution pictures of `floe solve --svg`.
//! - [`learn`]: datasets, training, evaluation and prediction with floe-learn.

mod analysis;
pub mod create;
pub mod icetower;
pub mod learn;
pub mod pictures;
pub mod play;
pub mod pushpush;
pub mod solitaire;
mod solving;
mod tables;

pub use analysis::{analyze, bench_solvers, patterns, profile};
pub use solving::{convert, demo, levels, reach, solve, space, verify};
pub use tables::{table_patterns, table_reach, table_space, table_strip};

use crate::out::{self, human_bytes, human_time, thousands, Spinner};
use crate::{
    AnalyzeArgs, BenchSolversArgs, BoardArgs, ConvertArgs, DemoArgs, Done, LevelArgs, LevelsArgs,
    PatternsArgs, ProfileArgs, ReachArgs, SolveAlgo, SolveArgs, SpaceArgs, TablePatternsArgs,
    TableReachArgs, TableSpaceArgs, TableStripArgs, VerifyArgs,
};
use floe::analysis::patterns::{annotate, hardest_use, solve_and_annotate, Annotated, HardestUse};
use floe::analysis::profile::{profile as difficulty_profile, FactorProfile, Profile};
use floe::analysis::reach::{reach as reach_table, Reach};
use floe::analysis::reversibility::{analyze_level, Reversibility};
use floe::analysis::solvers::{bench_solvers as run_bench, run_once, SolverBench, SolverSpec};
use floe::analysis::tables::{
    fit_quasi_linear, reach_cell, reach_table as reach_tables, space_table, space_table_markdown,
    QuasiLinear, ReachCell, SpaceCell,
};
use floe::games::ice::{
    self, format, replay, Algorithm, Format, Level, SolveOptions, SolveReport, Status, WalkRule,
};
use floe::grid::{parse_pushes, Push};
use floe::search::{Enumeration, Limits};
use floe::Error;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// The bundled Zelda rooms, compiled in so that `floe demo` needs no files.
const ZELDA: &str = include_str!("../../../../levels/zelda.txt");

/// A level picked from a file, with its display name and the walking rule in force.
struct Picked {
    level: Level,
    name: String,
    rule: WalkRule,
}

fn pick(levels: &[Level], sel: Option<&str>, file: &Path) -> Result<(usize, Level), Error> {
    match sel {
        Some(s) => format::select(levels, s).map(|(i, l)| (i, l.clone())),
        None if levels.len() == 1 => Ok((0, levels[0].clone())),
        None => {
            let names: Vec<String> = levels
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{} {}", i + 1, l.display_name(i)))
                .collect();
            Err(Error::invalid(format!(
                "{} holds {} levels; pick one with --level N or --level NAME ({})",
                file.display(),
                levels.len(),
                names.join(", ")
            )))
        }
    }
}

fn load_one(a: &LevelArgs) -> Result<Picked, Error> {
    let levels = format::load(&a.file, a.format)?;
    let (i, level) = pick(&levels, a.level.as_deref(), &a.file)?;
    let rule = a.rules.or(level.rules).unwrap_or_default();
    Ok(Picked {
        name: level.display_name(i),
        level,
        rule,
    })
}

/// The level of a command that takes a file or an empty board.
fn load_board(a: &BoardArgs) -> Result<Picked, Error> {
    match (&a.file, a.rows, a.cols, a.blocks) {
        (Some(file), _, _, _) => load_one(&LevelArgs {
            file: file.clone(),
            level: a.level.clone(),
            format: a.format,
            rules: a.rules,
        }),
        (None, Some(r), Some(c), Some(k)) => Ok(Picked {
            level: Level::empty_board(r, c, k)?,
            name: "empty board".to_string(),
            rule: a.rules.unwrap_or_default(),
        }),
        _ => Err(Error::invalid(
            "give a level file, or --rows, --cols and --blocks",
        )),
    }
}

fn describe(p: &Picked) -> String {
    format!(
        "{}: {}×{} board, {} block{}, {} target{}, rules {}",
        p.name,
        p.level.rows(),
        p.level.cols(),
        p.level.block_count(),
        plural(p.level.block_count()),
        p.level.target_count(),
        plural(p.level.target_count()),
        p.rule
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Names the level in a message about it (e.g. a board too large for the engine).
fn in_level(name: &str, e: Error) -> Error {
    match e {
        Error::Invalid(m) => Error::Invalid(format!("{name}: {m}")),
        other => other,
    }
}

/// `1 push`, `2 pushes`, with thousands separators.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A text file (`-`: standard input, read once), UTF-8 checked.
fn read_text(path: &Path) -> Result<(String, String), Error> {
    floe::input::read_text(path)
}

/// Reports each finished table cell on standard error when it is a terminal.
fn cell_progress(what: String) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[2K{what}");
    }
}

fn clear_progress() {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[2K");
    }
}
