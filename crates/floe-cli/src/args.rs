//! The command line: every command, flag and help text, and the flag groups commands share.
//!
//! One vocabulary: a level is `FILE [-l N|NAME] [--game G]` with the game's parameters as
//! flags (`--rules`, `--k`, `--dynamic`, or `--param NAME=VALUE`), refused by one rule when the
//! game has no such parameter; limits are `--max-states N` and `--timeout 30s`; files written
//! are `-o/--out`; seeds default to 1; machine output is `--json`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use floe::analysis::solvers::CapCount;
use floe::game::Params;
use floe::search::{parse_duration, Limits};
use std::path::PathBuf;
use std::time::Duration;

/// Solve, generate and analyse sliding-block puzzles.
#[derive(Parser, Debug)]
#[command(name = "floe", version, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a level of any game: fewest moves (bfs, astar, idastar, the game's default),
    /// least difficulty (ice blocks), or Kluiver's randomised solvers (random, mc).
    Solve(SolveArgs),
    /// Check a move list against a level and say which move is illegal and why.
    Verify(VerifyArgs),
    /// Count the positions reachable from a level's start (any game, or an empty ice board).
    Space(SpaceArgs),
    /// Reversibility and dead ends: components of the state graph, positions with no move,
    /// positions that can no longer be solved, moves that cannot be undone (any game).
    Analyze(AnalyzeArgs),
    /// Run a randomised solver many times and compare its solutions with the optimum (any
    /// game).
    BenchSolvers(BenchSolversArgs),
    /// List the levels of a file.
    Levels(LevelsArgs),
    /// List the games floe knows: parameters, algorithms, file formats, what each can do.
    Games(GamesArgs),
    /// Draw a level of any game as an SVG picture.
    Render(RenderArgs),
    /// Play a level of any game in the terminal, with undo, redo, a hint from the solver and
    /// whether the position can still be solved. With --keys, play a key script without a
    /// terminal and print the end state.
    Play(PlayArgs),
    /// Convert level files between formats (ice blocks: the floe format and Kluiver's).
    Convert(ConvertArgs),
    /// Ice blocks: fewest pushes after which some block rests on each cell.
    Reach(ReachArgs),
    /// Ice blocks: the least difficulty of every reachable position per block-change factor
    /// (Kluiver's Figures 19–27).
    Profile(ProfileArgs),
    /// Ice blocks: annotate a solution with its movement patterns (trains and zigzags).
    Patterns(PatternsArgs),
    /// Ice blocks: the theses' tables, computed exactly.
    #[command(subcommand)]
    Table(TableCommand),
    /// Classify every board of one size (PushPush).
    #[command(subcommand)]
    Census(CensusCommand),
    /// Monte Carlo experiments on challenge setups of the physical solitaire puzzles.
    Experiment(ExperimentArgs),
    /// Ice blocks: can a black-and-white picture be drawn with ice blocks (van den Akker,
    /// section 5)? The drawing order, the complete push sequence, or why not.
    Image(ImageArgs),
    /// Ice blocks: generate levels with Kluiver's retrograde generator, each verified by
    /// exact search.
    Generate(GenerateArgs),
    /// PushPush: learned predictors (datasets, training, evaluation).
    #[command(subcommand)]
    Learn(LearnCommand),
    /// PushPush: predict a board's solvability, fewest pushes and difficulty with a model.
    Predict(PredictArgs),
    /// Solve every bundled Zelda room and print the figures (no files needed).
    Demo(DemoArgs),
}

/// Parses a duration: seconds, or a number with ms, s, m or h.
fn duration(s: &str) -> Result<Duration, String> {
    parse_duration(s)
}

/// The game and its parameters.
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// The game (ice, pushpush, icetower, boxoff, pretzel, fujisan, icepath: see `floe games`), or a game with its
    /// parameters such as pushpush(k=2). Default: the file's `Game:` line, else ice blocks.
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// Read the file in this format instead of detecting it (ice blocks: floe or kluiver).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// Ice blocks: the walking rule, free or walk (default: the level's `Rules:` line, else
    /// free).
    #[arg(long, value_name = "free|walk")]
    pub rules: Option<String>,
    /// PushPush-k: the robot pushes rows of up to K blocks (0: any row, PushPush-*).
    #[arg(long, value_name = "K")]
    pub k: Option<String>,
    /// Ice Tower: accept arrows and dispensers, with floe's semantics (docs/icetower.md).
    #[arg(long)]
    pub dynamic: bool,
    /// Any parameter of the game, NAME=VALUE (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

impl GameArgs {
    /// The parameters given, named after their flags for messages.
    pub fn params(&self) -> Result<Params, floe::Error> {
        let mut p = Params::new();
        if let Some(r) = &self.rules {
            p.set("rules", r.clone(), "--rules");
        }
        if let Some(k) = &self.k {
            p.set("k", k.clone(), "--k");
        }
        if self.dynamic {
            p.set("dynamic", "true", "--dynamic");
        }
        for kv in &self.params {
            let (name, value) = kv.split_once('=').unwrap_or((kv.as_str(), "true"));
            p.set(
                name.trim(),
                value.trim(),
                format!("--param {}", name.trim()),
            );
        }
        Ok(p)
    }
}

/// A level from a file.
#[derive(Args, Debug, Clone)]
pub struct LevelArgs {
    /// Level file (`-` reads standard input).
    pub file: PathBuf,
    /// Which level: a 1-based number or a title. Default: the file's only level.
    #[arg(long, short = 'l', value_name = "N|NAME")]
    pub level: Option<String>,
    /// The game and its parameters.
    #[command(flatten)]
    pub game: GameArgs,
}

/// A level from a file, or an empty ice board.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// Level file; or give --rows, --cols and --blocks for an empty ice board.
    #[arg(required_unless_present_all = ["rows", "cols", "blocks"])]
    pub file: Option<PathBuf>,
    /// Rows of an empty board.
    #[arg(long, conflicts_with = "file", requires_all = ["cols", "blocks"])]
    pub rows: Option<usize>,
    /// Columns of an empty board.
    #[arg(long, conflicts_with = "file", requires_all = ["rows", "blocks"])]
    pub cols: Option<usize>,
    /// Blocks of an empty board, starting in the top row from the left, then clockwise
    /// along the edge.
    #[arg(long, conflicts_with = "file", requires_all = ["rows", "cols"])]
    pub blocks: Option<usize>,
    /// Which level of the file: a 1-based number or a title.
    #[arg(long, short = 'l', value_name = "N|NAME", requires = "file")]
    pub level: Option<String>,
    /// The game and its parameters.
    #[command(flatten)]
    pub game: GameArgs,
}

/// Resource limits.
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Stop after storing this many states (then exit code 1: no answer).
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// Stop after this long: seconds, or a number with ms, s, m or h (then exit code 1).
    #[arg(long, value_name = "TIME", value_parser = duration)]
    pub timeout: Option<Duration>,
}

impl LimitArgs {
    /// The limits.
    pub fn limits(&self) -> Limits {
        Limits {
            max_states: self.max_states,
            timeout: self.timeout,
            progress: None,
        }
    }
}

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
    /// games) or of BasicMC (default 15).
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

/// `floe space`.
#[derive(Args, Debug)]
pub struct SpaceArgs {
    /// The level.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Limits of the enumeration.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The level.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Limits of the building of the state graph.
    #[command(flatten)]
    pub limits: LimitArgs,
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

/// `floe reach`.
#[derive(Args, Debug)]
pub struct ReachArgs {
    /// The level.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Limits of the enumeration.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe profile`.
#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// The level.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Block-change factors (comma-separated).
    #[arg(long, default_value = "0,1,2,3,4,5,100", value_delimiter = ',')]
    pub factors: Vec<u64>,
    /// Draw the cumulative curves into this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write `factor,difficulty,normalised,positions,cumulative` rows to this CSV file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Limits of the building of the state graph.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe patterns`.
#[derive(Args, Debug)]
pub struct PatternsArgs {
    /// The level.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Annotate these pushes instead of a fewest-pushes solution (JSON or `row col dir`
    /// text; `-` reads standard input).
    #[arg(long, value_name = "FILE")]
    pub moves: Option<PathBuf>,
    /// Limits of the search.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe table`.
#[derive(Subcommand, Debug)]
pub enum TableCommand {
    /// Reachable positions on empty boards (Kluiver's Table 1) with his closed forms checked.
    Space(TableSpaceArgs),
    /// Reach tables of empty square boards (van den Akker's Tables 1–8, 10 and 11).
    Reach(TableReachArgs),
    /// Hardest cells of 2×n and 3×n boards (van den Akker's Tables 12 and 13), with closed
    /// forms fitted and checked.
    Strip(TableStripArgs),
    /// Whether trains (and zigzags) are part of fastest ways to the hardest cells (van den
    /// Akker's Table 9).
    Patterns(TablePatternsArgs),
}

/// `floe table space`.
#[derive(Args, Debug)]
pub struct TableSpaceArgs {
    /// Largest number of rows (boards m×n with 2 ≤ m ≤ n).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u16).range(2..=16))]
    pub max_rows: u16,
    /// Largest number of columns.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u16).range(2..=16))]
    pub max_cols: u16,
    /// Largest number of blocks (rows of the table: 1 up to this).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub max_blocks: u16,
    /// Limits of each cell.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe table reach`.
#[derive(Args, Debug)]
pub struct TableReachArgs {
    /// Smallest square side.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub min_size: u16,
    /// Largest square side.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub max_size: u16,
    /// Block counts (comma-separated).
    #[arg(long, default_value = "3,4,5", value_delimiter = ',')]
    pub blocks: Vec<usize>,
    /// Limits of each cell.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe table strip`.
#[derive(Args, Debug)]
pub struct TableStripArgs {
    /// Board heights (comma-separated).
    #[arg(long, default_value = "2,3", value_delimiter = ',')]
    pub heights: Vec<usize>,
    /// Largest width n.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u16).range(3..=64))]
    pub max_width: u16,
    /// Block counts (comma-separated).
    #[arg(long, default_value = "3,4,5,6", value_delimiter = ',')]
    pub blocks: Vec<usize>,
    /// Width of the block-count comparison (van den Akker's Table 13 uses 15).
    #[arg(long, default_value_t = 15)]
    pub compare_width: usize,
    /// Limits of each cell.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe table patterns`.
#[derive(Args, Debug)]
pub struct TablePatternsArgs {
    /// Smallest square side.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub min_size: u16,
    /// Largest square side.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub max_size: u16,
    /// Block counts (comma-separated).
    #[arg(long, default_value = "3,4,5", value_delimiter = ',')]
    pub blocks: Vec<usize>,
    /// Limits of each cell.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe census`.
#[derive(Subcommand, Debug)]
pub enum CensusCommand {
    /// Every PushPush board of one size: fewest pushes, unsolvable boards, hardest boards,
    /// equivalence classes.
    Pushpush(CensusArgs),
}

/// `floe census pushpush`.
#[derive(Args, Debug)]
pub struct CensusArgs {
    /// Board rows.
    #[arg(long, value_name = "R")]
    pub rows: usize,
    /// Board columns.
    #[arg(long, value_name = "C")]
    pub cols: usize,
    /// PushPush-k: the robot pushes rows of up to K blocks (0 = no limit, PushPush-*).
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub k: usize,
    /// Also compute every solvable board's difficulty (thesis equation 3) and its histograms.
    #[arg(long)]
    pub difficulty: bool,
    /// Write the histograms as SVG pictures: FILE and FILE-… siblings (the thesis's
    /// Figures 11 and 13–15).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// How many classes of the hardest boards to list, each with a solution.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub hardest: usize,
    /// Memory the census tables may use, in GiB; with --difficulty, less memory means more
    /// passes over the positions (one per batch of targets).
    #[arg(long, value_name = "GIB", default_value_t = 16.0)]
    pub max_memory: f64,
    /// Limits of the census.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe experiment GAME …`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// The game: boxoff, pretzel or fujisan.
    pub game: String,
    /// BoxOff: rows h.
    #[arg(long, value_name = "H", default_value_t = 4)]
    pub rows: usize,
    /// BoxOff: columns w.
    #[arg(long, value_name = "W", default_value_t = 6)]
    pub cols: usize,
    /// BoxOff: colours c.
    #[arg(long, visible_alias = "colours", value_name = "C", default_value_t = 4)]
    pub colors: usize,
    /// Pretzel: suits k.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub suits: usize,
    /// Pretzel: ranks n: one number, a list (4,6,8) or a range (2-9) for a sweep.
    #[arg(long, value_name = "N", default_value = "4", value_parser = parse_ranks)]
    pub ranks: Ranks,
    /// The setup: shuffled, ltiles (BoxOff), sequential, banded (Pretzel), piecepack,
    /// piecepack-paired, engraved, dominoes (Fujisan).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "shuffled",
        conflicts_with = "compare"
    )]
    pub setup: floe::generate::Setup,
    /// Run several setups and test them against each other (t-tests on the trials,
    /// Kruskal–Wallis on solution lengths); `all` for every setup of the game.
    #[arg(long, value_name = "A,B,…", value_parser = parse_setups)]
    pub compare: Option<SetupList>,
    /// Challenges per setup and size.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub challenges: u64,
    /// Trials: groups of consecutive challenges for the spread and the t-tests.
    #[arg(long, value_name = "T", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub trials: u32,
    /// Seed: the same seed gives the same challenges and the same numbers.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Most moves of a random playout (Pretzel and Fujisan positions can repeat).
    #[arg(long, value_name = "M", default_value_t = floe::analysis::solitaire::DEFAULT_PLAYOUT_CAP)]
    pub playout_cap: u32,
    /// Enumerate every deal instead of sampling (Pretzel with few cards): the exact
    /// solvable fraction.
    #[arg(long, conflicts_with_all = ["challenges", "trials", "svg"])]
    pub exact: bool,
    /// Only generate: print the first N challenges of the run (the ones it would solve) in
    /// the text format, or write them as files into the directory -o DIR.
    #[arg(long, value_name = "N", conflicts_with_all = ["compare", "exact", "svg"])]
    pub generate: Option<u64>,
    /// With --generate: a directory for one file per challenge.
    #[arg(long, short = 'o', value_name = "DIR", requires = "generate")]
    pub out: Option<PathBuf>,
    /// Write the paper's figures (box plots, histograms, sweeps) as SVG files into DIR.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Limits of each challenge's search (a challenge stopped by one counts as not solvable
    /// and is reported under limit hits).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// Ranks of a Pretzel run.
#[derive(Clone, Debug)]
pub struct Ranks(pub Vec<usize>);

/// Parses `4`, `4,6,8` or `2-9`.
pub fn parse_ranks(s: &str) -> Result<Ranks, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || format!("'{part}' is not a number of ranks or a range like 2-9");
        if let Some((a, b)) = part.split_once(['-', '.']) {
            let a: usize = a.trim().parse().map_err(|_| bad())?;
            let b: usize = b
                .trim_start_matches('.')
                .trim()
                .parse()
                .map_err(|_| bad())?;
            if a > b {
                return Err(bad());
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| bad())?);
        }
    }
    if out.is_empty() {
        return Err("no ranks given".into());
    }
    out.dedup();
    Ok(Ranks(out))
}

/// Setups of `--compare`: `None` for all.
#[derive(Clone, Debug)]
pub struct SetupList(pub Option<Vec<floe::generate::Setup>>);

/// Parses `all` or a comma-separated list of setups.
pub fn parse_setups(s: &str) -> Result<SetupList, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(SetupList(None));
    }
    let v: Vec<floe::generate::Setup> = s
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    if v.is_empty() {
        return Err("no setups given".into());
    }
    Ok(SetupList(Some(v)))
}

/// `floe image FILE`.
#[derive(Args, Debug)]
pub struct ImageArgs {
    /// The picture: PBM (P1 or P4) or ASCII art (`#` black, `.` white); `-` for standard
    /// input. Not needed with --census.
    #[arg(value_name = "FILE", required_unless_present = "census")]
    pub file: Option<PathBuf>,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
    /// Draw the finished board as an SVG picture.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Give up after this long (exit code 1): seconds, or a number with ms, s, m or h.
    #[arg(long, value_name = "TIME", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// Give up after this many placement searches (exit code 1).
    #[arg(long, value_name = "N")]
    pub max_searches: Option<u64>,
    /// Instead of a file: decide every picture of every size up to N×N (N ≤ 4) and check
    /// them against the Figure 21 configurations.
    #[arg(long, value_name = "N", conflicts_with = "file")]
    pub census: Option<usize>,
}

/// `floe generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Board rows.
    #[arg(long, value_name = "R", required_unless_present = "report")]
    pub rows: Option<usize>,
    /// Board columns.
    #[arg(long, value_name = "C", required_unless_present = "report")]
    pub cols: Option<usize>,
    /// Targets (each starts the generation with a block on it; default 1).
    #[arg(long, value_name = "T")]
    pub targets: Option<usize>,
    /// Most blocks on the board: the targets' blocks plus stopper blocks (default: targets + 2).
    #[arg(long, value_name = "B")]
    pub max_blocks: Option<usize>,
    /// Keep levels whose fewest pushes are at least P.
    #[arg(long, value_name = "P", default_value_t = 3)]
    pub min_pushes: u64,
    /// Keep levels whose fewest pushes are at most Q; the intended solutions have P to Q
    /// pushes (default: P to 2P, no upper bound on the fewest).
    #[arg(long, value_name = "Q")]
    pub max_pushes: Option<u64>,
    /// Keep levels whose least difficulty (at --factor) is at least D.
    #[arg(long, value_name = "D")]
    pub min_difficulty: Option<u64>,
    /// Block-change factor of the difficulty.
    #[arg(long, value_name = "F", default_value_t = 5)]
    pub factor: u64,
    /// Keep only levels whose optimal solution is unique up to move order.
    #[arg(long)]
    pub unique: bool,
    /// Stoppers may also be walls.
    #[arg(long)]
    pub walls: bool,
    /// Levels wanted.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub count: usize,
    /// Seed: the same seed gives the same file.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write the levels here (floe format) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Give up after this long (exit code 1 with fewer levels than asked): seconds, or a
    /// number with ms, s, m or h.
    #[arg(long, value_name = "TIME", value_parser = duration)]
    pub timeout: Option<Duration>,
    /// Positions one candidate's verification may store; a candidate that needs more is
    /// dropped (not the run).
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub candidate_states: u64,
    /// One JSON document (the figures of every level) on standard output.
    #[arg(long)]
    pub json: bool,
    /// Instead of levels: how often the fewest pushes equal the intended pushes, before and
    /// after the shortcut repair, for sizes 5×5, 6×6, 7×7, 1–3 targets and 4, 6, 8 pushes
    /// (or the --rows/--cols, --targets, and --min-pushes or --min-pushes to --max-pushes
    /// given).
    #[arg(long)]
    pub report: bool,
    /// Levels per setting of --report.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub samples: u64,
}

/// `floe learn`.
#[derive(Subcommand, Debug)]
pub enum LearnCommand {
    /// Sample boards, label them exactly, split them 80/10/10 by equivalence class and write
    /// the dataset file.
    Data(DataArgs),
    /// Train a model (the thesis's FNN or CNN, or the symmetry-aware FCN) and save it.
    Train(TrainArgs),
    /// Score a model on a split: accuracy, confusion matrices, calibration.
    Eval(EvalArgs),
}

/// Where the boards come from: a dataset file, or a fresh sample.
#[derive(Args, Debug)]
pub struct Source {
    /// A dataset file written by `floe learn data`.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// Board rows of a fresh sample (without --data).
    #[arg(long, value_name = "R", default_value_t = 4)]
    pub rows: usize,
    /// Board columns of a fresh sample.
    #[arg(long, value_name = "C", default_value_t = 4)]
    pub cols: usize,
    /// Boards in a fresh sample (distinct, drawn uniformly).
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub count: u64,
    /// Seed of a fresh sample.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Seed of the split of a fresh sample (classes are hashed with it).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub split_seed: u64,
}

/// `floe learn data`.
#[derive(Args, Debug)]
pub struct DataArgs {
    /// The boards.
    #[command(flatten)]
    pub source: Source,
    /// The dataset file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// The architectures on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ArchArg {
    /// The thesis's feed-forward network on 18 numbers.
    Fnn,
    /// The thesis's convolutional network.
    Cnn,
    /// Fully convolutional, symmetry-aware, any board size.
    Fcn,
}

/// The tasks on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TaskArg {
    /// Solvable or not.
    Solvable,
    /// Fewest pushes (−1 = unsolvable).
    Pushes,
    /// The rounded difficulty 0–5 (solvable boards).
    Difficulty,
    /// Fewest pushes and difficulty, two heads on one network.
    All,
}

/// `floe learn train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The boards.
    #[command(flatten)]
    pub source: Source,
    /// The architecture.
    #[arg(long, value_enum, default_value = "fcn")]
    pub arch: ArchArg,
    /// What to predict.
    #[arg(long, value_enum, default_value = "all")]
    pub task: TaskArg,
    /// Passes over the training split.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub epochs: usize,
    /// Examples per step.
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub batch: usize,
    /// Peak learning rate (AdamW, cosine decay).
    #[arg(long, value_name = "LR", default_value_t = 2e-3)]
    pub lr: f64,
    /// Hidden units (FNN) or channels (CNN, FCN) instead of the architecture's default.
    #[arg(long, value_name = "N")]
    pub width: Option<usize>,
    /// Dense layers (FNN) or convolutions (CNN, FCN) instead of the default.
    #[arg(long, value_name = "N")]
    pub depth: Option<usize>,
    /// Random symmetric images while training (default: on for fcn, off for the thesis's
    /// models).
    #[arg(long, value_name = "BOOL")]
    pub augment: Option<bool>,
    /// Seed of the weights and the shuffling.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub train_seed: u64,
    /// The model file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// Which part of the data to score.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SplitArg {
    /// The training split.
    Train,
    /// The validation split.
    Val,
    /// The test split.
    Test,
    /// Every board (for sizes the model never saw).
    All,
}

/// `floe learn eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The model file.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// The boards.
    #[command(flatten)]
    pub source: Source,
    /// The part of the data to score.
    #[arg(long, value_enum, default_value = "test")]
    pub split: SplitArg,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe predict`.
#[derive(Args, Debug)]
pub struct PredictArgs {
    /// A PushPush level file.
    pub file: PathBuf,
    /// The model file (`floe learn train`).
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// Which board of the file (number from 1 or title).
    #[arg(long, short = 'l', value_name = "N|NAME")]
    pub level: Option<String>,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn rank_lists() {
        assert_eq!(parse_ranks("2-9").unwrap().0, (2..=9).collect::<Vec<_>>());
        assert_eq!(parse_ranks("4,6,8").unwrap().0, vec![4, 6, 8]);
        assert_eq!(parse_ranks("3..5").unwrap().0, vec![3, 4, 5]);
        assert!(parse_ranks("9-2").is_err());
        assert!(parse_ranks("x").is_err());
        assert!(parse_setups("shuffled,ltiles").is_ok());
        assert!(parse_setups("shuffled,nope").is_err());
    }

    #[test]
    fn game_flags_become_parameters() {
        let g = GameArgs {
            rules: Some("walk".into()),
            k: Some("2".into()),
            dynamic: true,
            params: vec!["x=1".into()],
            ..GameArgs::default()
        };
        let p = g.params().unwrap();
        assert_eq!(p.get("rules"), Some("walk"));
        assert_eq!(p.get("k"), Some("2"));
        assert_eq!(p.get("dynamic"), Some("true"));
        assert_eq!(p.get("x"), Some("1"));
    }
}
