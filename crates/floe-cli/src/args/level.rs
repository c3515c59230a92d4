//! The commands on a level of any game: solve, verify, space, analyze, bench-solvers,
//! levels, games, render, play, convert.

use super::{GameArgs, LevelArgs, LimitArgs};
use clap::Args;
use floe::request::ranges::RUNS;
use std::path::PathBuf;

/// The picture options of `floe solve`.
#[derive(Args, Debug, Clone)]
pub struct SolutionPictureArgs {
    /// Draw the solution as an SVG picture: the start with each move as a numbered arrow.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// With --svg: one small board per move (before it, with its arrow) and the end, in rows.
    #[arg(long, requires = "svg", conflicts_with = "animate")]
    pub frames: bool,
    /// With --svg: an animated SVG that plays the solution in a loop in a browser.
    #[arg(long, requires = "svg")]
    pub animate: bool,
    /// With --svg: draw row and column numbers.
    #[arg(long, requires = "svg")]
    pub coords: bool,
}

/// Parameters of the randomised solvers (the library's request).
pub use floe::request::Random as RandomArgs;

/// `floe solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// The algorithm and its parameters.
    #[command(flatten)]
    pub solve: floe::request::Solve,
    /// Print the board after every move.
    #[arg(long)]
    pub boards: bool,
    /// Pictures of the solution.
    #[command(flatten)]
    pub picture: SolutionPictureArgs,
    /// Limits of the search.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// The moves: a JSON list, a `floe solve --json` document, or the game's text form with
    /// one move per line; `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub moves: PathBuf,
    /// How the difficulty is reported.
    #[command(flatten)]
    pub verify: floe::request::Verify,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe bench-solvers`.
#[derive(Args, Debug)]
pub struct BenchSolversArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// The randomised solver: random or mc.
    #[arg(long, default_value = "mc", value_name = "random|mc")]
    pub algo: String,
    /// Its parameters.
    #[command(flatten)]
    pub random: RandomArgs,
    /// Runs (run i uses seed S + i).
    #[arg(long, default_value_t = 100, value_name = "R",
          value_parser = RUNS.u32())]
    pub runs: u32,
    /// Ice blocks: block-change factor of the difficulty (default 5).
    #[arg(long, value_name = "F")]
    pub factor: Option<u64>,
    /// Limits of each exact search and each run.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe levels`.
#[derive(Args, Debug)]
pub struct LevelsArgs {
    /// Level file (`-` reads standard input).
    pub file: PathBuf,
    /// The game and its parameters.
    #[command(flatten)]
    pub game: GameArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe games`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Only this game (a name or an alias).
    pub game: Option<String>,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// Where to write the SVG (default: standard output).
    #[arg(long, short = 'o', alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// How it is drawn.
    #[command(flatten)]
    pub render: floe::request::Render,
    /// One JSON document on standard output (needs -o).
    #[arg(long)]
    pub json: bool,
}

/// `floe play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// Play these keys without a terminal and print the end state, e.g. "tab right u h"
    /// (names: up down left right tab backtab space enter u ctrl-z r ctrl-y R h H q).
    #[arg(long, value_name = "KEYS", conflicts_with = "script")]
    pub keys: Option<String>,
    /// Like --keys, with the keys read from a file (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Limits of each solver question (default 2,000,000 positions and 2 s).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// With --keys or --script: one JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Input level file (`-`: standard input).
    pub file: PathBuf,
    /// The game and its parameters (and the input format).
    #[command(flatten)]
    pub game: GameArgs,
    /// Output format (ice blocks: floe or kluiver; default: the game's own).
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Convert only this level (number or title).
    #[arg(long, short = 'l', value_name = "N|NAME")]
    pub level: Option<String>,
    /// Write here instead of standard output.
    #[arg(long, short = 'o', alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
}
