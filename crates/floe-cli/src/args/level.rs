//! The commands on a level of any game: solve, verify, space, analyze, bench-solvers,
//! levels, games, render, play, convert.

use super::{GameArgs, LevelArgs, LimitArgs};
use clap::Args;
use floe::analysis::solvers::CapCount;
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

/// Parameters of the randomised solvers.
#[derive(Args, Debug, Clone)]
pub struct RandomArgs {
    /// Move cap of the random algorithm (default: the game's, 1,000,000 for the sliding
    /// games) or of BasicMC (default 15). With `--algo astar`: look only for solutions of at
    /// most M moves, keeping only the positions that could lie on one; when there is none,
    /// the answer is the proof that the fewest moves exceed M (`"limit": "max-moves"`).
    #[arg(long, value_name = "M")]
    pub max_moves: Option<u32>,
    /// BasicMC's random games per candidate move and step.
    #[arg(long, default_value_t = floe::search::playout::KLUIVER_PLAYOUTS, value_name = "N")]
    pub playouts: u32,
    /// Seed of the random generator (the same seed gives the same run).
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// What a random game's cap counts: moves made (impossible draws are drawn again) or
    /// every draw, possible or not.
    #[arg(long, default_value = "pushes", value_name = "pushes|attempts")]
    pub count: CapCount,
}

/// `floe solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// The algorithm: the game's exact searches (bfs, astar, idastar; ice blocks also
    /// difficulty: least pushes + factor × block changes; BoxOff dfs) or Kluiver's
    /// randomised solvers random and mc (BasicMC), which may fail and prove nothing.
    /// Default: the game's fastest exact search.
    #[arg(long, value_name = "ALGO")]
    pub algo: Option<String>,
    /// Parameters of random and mc.
    #[command(flatten)]
    pub random: RandomArgs,
    /// Ice blocks: block-change factor of the difficulty (0 to 1,000,000,000; default 5).
    #[arg(long, value_name = "F")]
    pub factor: Option<u64>,
    /// Worker threads of A* (astar), 1 to 256: each batch of positions is expanded by all
    /// of them. The answer (fewest moves, or the bound proved) does not depend on it.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
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
    /// Ice blocks: block-change factor for the reported difficulty (default 5).
    #[arg(long, value_name = "F")]
    pub factor: Option<u64>,
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
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
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
    /// Draw row and column numbers (the coordinates moves use).
    #[arg(long)]
    pub coords: bool,
    /// Cell size in pixels (4 to 200; default: chosen from the board's size).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(4..=200))]
    pub cell: Option<u32>,
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
