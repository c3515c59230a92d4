//! The commands, one file each; none knows a game beyond the ones it is about. What they
//! share: a request resolved from the arguments, counts in words, progress.

pub mod census;
pub mod convert;
pub mod demo;
pub(crate) mod distributed;
pub mod experiment;
pub mod games;
pub mod generate;
pub mod hardest;
pub mod image;
#[cfg(feature = "learn")]
pub mod learn;
pub mod levels;
pub(crate) mod op;
pub mod patterns;
pub mod play;
#[cfg(feature = "learn")]
pub mod predict;
pub mod profile;
pub mod reach;
pub mod render;
pub mod space;
pub mod table;

use crate::args::{BoardArgs, GameArgs, LevelArgs};
use crate::out::thousands;
use floe::games::ice::{self, Ice, WalkRule};
use floe::ops::{Level, Request, Source};
use floe::request::{EmptyBoard, Naming};
use floe::Error;
use std::path::Path;

/// The first keys of a command's JSON about one level: `game`, `level`, `params`.
#[derive(serde::Serialize)]
pub(crate) struct Head<'a> {
    game: &'static str,
    level: &'a str,
    params: floe::game::ParamValues,
}

impl<'a> Head<'a> {
    /// The head of `req`'s level, named `level`.
    pub(crate) fn of(req: &Request, level: &'a str) -> Head<'a> {
        Head {
            game: req.game.info().name,
            level,
            params: req.level.params(),
        }
    }
}

/// The level a command names: the file read once, its game detected, the level picked, the
/// game's parameters applied and checked.
pub(crate) fn request(a: &LevelArgs) -> Result<Request, Error> {
    source(&a.file, &a.pick.game)?
        .level(a.pick.level.as_deref())
        .resolve()
}

/// A file with the game flags applied.
pub(crate) fn source(file: &Path, g: &GameArgs) -> Result<Source, Error> {
    Ok(Request::from_path(file)
        .game(g.game.as_deref())
        .format(g.format.as_deref())
        .with_params(g.params()?))
}

/// The level of a command that takes a file or an empty ice board.
pub(crate) fn board_request(a: &BoardArgs) -> Result<Request, Error> {
    match &a.file {
        Some(file) => request(&LevelArgs {
            file: file.clone(),
            pick: floe::request::LevelPick {
                level: a.empty.level.clone(),
                game: a.game.clone(),
            },
        }),
        None => empty_board(&a.empty, &a.game, Naming::Flags),
    }
}

/// The empty ice block board of `b` (rows, columns and blocks), with the parameters of `g`
/// (its rules); messages name the parameters as `naming` writes them.
pub(crate) fn empty_board(b: &EmptyBoard, g: &GameArgs, naming: Naming) -> Result<Request, Error> {
    let (r, c, k) = b.size().map_err(|_| {
        Error::invalid(format!(
            "give a level file, or {}, {} and {}",
            naming.of("rows"),
            naming.of("cols"),
            naming.of("blocks")
        ))
    })?;
    if g.game.is_some() || g.format.is_some() {
        return Err(Error::invalid(format!(
            "{}, {} and {} make an empty ice block board: no {} or {}",
            naming.of("rows"),
            naming.of("cols"),
            naming.of("blocks"),
            naming.of("game"),
            naming.of("format")
        )));
    }
    let board = ice::Level::empty_board(r, c, k)?;
    let name = board.title.clone().unwrap_or_default();
    let level = Level::new(Ice, board, name).configure(&g.params_named(naming)?)?;
    Ok(Request {
        game: level.game(),
        file: "empty board".into(),
        index: 0,
        level,
    })
}

/// The ice block level of a request and its walking rule, for the commands that are about
/// ice blocks only; a level of another game gets a clear refusal.
pub(crate) fn ice_level(req: &Request, what: &str) -> Result<(ice::Level, WalkRule), Error> {
    let l = req.level.typed::<Ice>().ok_or_else(|| {
        Error::invalid(format!(
            "{what} are computed for ice blocks; {} is a {} level",
            req.level.name(),
            req.game.info().title
        ))
    })?;
    Ok((l.clone(), l.rules.unwrap_or_default()))
}

/// `1 push`, `2 pushes`, with thousands separators.
pub(crate) fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// Before an enumeration: announces a large one (on standard error) and refuses one whose
/// estimate does not fit the memory budget, unless the user insists: `--force`, or a
/// `--timeout` or `--max-states` that bounds the run anyway.
pub(crate) fn judge(
    what: &str,
    estimate: Option<floe::search::Estimate>,
    limits: &crate::args::LimitArgs,
) -> Result<(), Error> {
    if let Some(e) = limits.judge(what, estimate, Naming::Flags)? {
        eprintln!("floe: {what}: {e} (an estimate before the run)");
    }
    Ok(())
}

/// [`judge`] for a table whose largest cell is the empty `rows`×`cols` ice board with
/// `blocks` blocks (the other cells need less).
pub(crate) fn judge_table(
    rows: usize,
    cols: usize,
    blocks: usize,
    limits: &crate::args::LimitArgs,
) -> Result<(), Error> {
    let Some((blocks, board)) = largest_cell(rows, cols, blocks) else {
        return Ok(());
    };
    let level = Level::new(Ice, board, "");
    judge(
        &format!("the table's largest cell, {rows}×{cols} with {blocks} blocks"),
        level.estimate(),
        limits,
    )
}

/// The table's largest cell of boards up to `rows`×`cols` with up to `blocks` blocks: the
/// blocks nearest half the cells that still fit along the edge, and its board.
pub(crate) fn largest_cell(rows: usize, cols: usize, blocks: usize) -> Option<(usize, ice::Level)> {
    let edge = if rows < 2 || cols < 2 {
        rows * cols
    } else {
        2 * (rows + cols) - 4
    };
    let top = blocks.min(rows * cols / 2).min(edge);
    (0..=top)
        .rev()
        .find_map(|k| ice::Level::empty_board(rows, cols, k).ok().map(|b| (k, b)))
}

/// The answer of `floe learn` and `floe predict` in a binary built without the learned
/// predictors (the `learn` feature).
#[cfg(not(feature = "learn"))]
pub(crate) fn without_learn() -> Error {
    Error::invalid(
        "this floe was built without the learned predictors (floe learn, floe predict): \
         build it with them: cargo install --path crates/floe-cli --features learn (or \
         cargo run --release --features learn -- …)",
    )
}

/// Names the level in a message about it (e.g. a board too large for the engine).
pub(crate) fn in_level(name: &str, e: Error) -> Error {
    e.in_level(name)
}

/// Lines indented by four spaces.
pub(crate) fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// Reports each finished table cell on standard error when it is a terminal.
pub(crate) fn cell_progress(what: String) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[2K{what}");
    }
}

/// Clears the line of [`cell_progress`].
pub(crate) fn clear_progress() {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[2K");
    }
}
