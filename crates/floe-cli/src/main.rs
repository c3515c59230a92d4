//! `floe`: the command-line front end. Parses arguments, calls the library, prints.
//!
//! Exit codes (every command): 0 = answered (a solution, or a proof that there is none),
//! 1 = no answer within the limits, 2 = bad input or usage.

/// `println!` to standard output that ends the program quietly when the reader has gone
/// (`floe … | head`) instead of panicking.
macro_rules! outln {
    () => {
        $crate::out::emit(format_args!("\n"))
    };
    ($($t:tt)*) => {
        $crate::out::emit(format_args!("{}\n", format_args!($($t)*)))
    };
}

/// `print!` with the same care as [`outln!`].
macro_rules! outp {
    ($($t:tt)*) => {
        $crate::out::emit(format_args!($($t)*))
    };
}

mod cmd;
mod out;

use clap::{Args, Parser, Subcommand};
use floe::games::ice::{Algorithm, Format, WalkRule};
use floe::search::Limits;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Solve, generate and analyse sliding-block puzzles.
#[derive(Parser, Debug)]
#[command(name = "floe", version, about, long_about = None, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a level: fewest pushes (bfs, astar, idastar) or least difficulty. Ice blocks by
    /// default; other games with --game or a `Game:` line in the file.
    Solve(SolveArgs),
    /// Count the positions reachable from a level's start.
    Space(SpaceArgs),
    /// Fewest pushes after which some block rests on each cell.
    Reach(ReachArgs),
    /// Check a move list against a level and say which push is illegal and why.
    Verify(VerifyArgs),
    /// Convert level files between the floe format and Kluiver's.
    Convert(ConvertArgs),
    /// List the levels of a file.
    Levels(LevelsArgs),
    /// Solve every bundled Zelda room and print the figures (no files needed).
    Demo(DemoArgs),
    /// The theses' tables, computed exactly: search-space sizes, reach tables, strips.
    #[command(subcommand)]
    Table(TableCommand),
    /// Annotate a solution with its movement patterns (trains and zigzags).
    Patterns(PatternsArgs),
    /// Reversibility and dead ends: components of the state graph, positions with no move,
    /// positions that can no longer be solved, moves that cannot be undone.
    Analyze(AnalyzeArgs),
    /// Run a randomised solver many times and compare its solutions with the optimum.
    BenchSolvers(BenchSolversArgs),
    /// The least difficulty of every reachable position, per block-change factor, with the
    /// cumulative curves of Kluiver's Figures 19–27.
    Profile(ProfileArgs),
    /// Classify every board of one size: PushPush census with equivalence classes and
    /// difficulty.
    #[command(subcommand)]
    Census(CensusCommand),
    /// Monte Carlo experiments on challenge setups of the physical solitaire puzzles.
    Experiment(cmd::solitaire::ExperimentArgs),
    /// Can a black-and-white picture be drawn with ice blocks (van den Akker, section 5)?
    /// The drawing order, the complete push sequence, or why not.
    Image(cmd::create::ImageArgs),
    /// Generate ice block levels with Kluiver's retrograde generator; every level verified
    /// by exact search (fewest pushes, least difficulty, optimal solutions, reachable states).
    Generate(cmd::create::GenerateArgs),
    /// Play a level in the terminal: ice blocks, PushPush or Ice Tower, with undo, redo, a
    /// hint from the solver and whether the position can still be solved (each solver
    /// question limited to 2,000,000 positions and 2 s unless --max-states/--timeout say
    /// otherwise). With --keys, play a key script without a terminal and print the end state.
    Play(PlayArgs),
    /// Draw a level of any game as an SVG picture.
    Render(cmd::pictures::RenderArgs),
    /// Learned predictors for PushPush boards: datasets, training, evaluation.
    #[command(subcommand)]
    Learn(cmd::learn::LearnCommand),
    /// Predict a PushPush board's solvability, fewest pushes and difficulty with a trained
    /// model.
    Predict(cmd::learn::PredictArgs),
}

#[derive(Subcommand, Debug)]
enum CensusCommand {
    /// Every PushPush board of one size: fewest pushes, unsolvable boards, hardest boards,
    /// equivalence classes.
    Pushpush(CensusArgs),
}

#[derive(Args, Debug)]
struct CensusArgs {
    /// Board rows.
    #[arg(long, value_name = "R")]
    rows: usize,
    /// Board columns.
    #[arg(long, value_name = "C")]
    cols: usize,
    /// PushPush-k: the robot pushes rows of up to K blocks (0 = no limit, PushPush-*).
    #[arg(long, value_name = "K", default_value_t = 1)]
    k: usize,
    /// Also compute every solvable board's difficulty (thesis equation 3) and its histograms.
    #[arg(long)]
    difficulty: bool,
    /// Write the histograms as an SVG picture (with --difficulty also the difficulty plots).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// How many classes of the hardest boards to list, each with a solution.
    #[arg(long, value_name = "N", default_value_t = 10)]
    hardest: usize,
    /// Memory the census tables may use, in GiB; with --difficulty, less memory means more
    /// passes over the positions (one per batch of targets).
    #[arg(long, value_name = "GIB", default_value_t = 16.0)]
    max_memory: f64,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct ProfileArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Block-change factors (comma-separated).
    #[arg(long, default_value = "0,1,2,3,4,5,100", value_delimiter = ',')]
    factors: Vec<u64>,
    /// Draw the cumulative curves into this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Write `factor,difficulty,normalised,positions,cumulative` rows to this CSV file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct AnalyzeArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PatternsArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Annotate these pushes instead of a fewest-pushes solution (JSON or `row col dir` text;
    /// `-` reads standard input).
    #[arg(long, value_name = "FILE")]
    moves: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand, Debug)]
enum TableCommand {
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

#[derive(Args, Debug)]
struct TablePatternsArgs {
    /// Smallest square side.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=32))]
    min_size: u16,
    /// Largest square side.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=32))]
    max_size: u16,
    /// Block counts (comma-separated).
    #[arg(long, default_value = "3,4,5", value_delimiter = ',')]
    blocks: Vec<usize>,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct TableSpaceArgs {
    /// Largest number of rows (boards m×n with 2 ≤ m ≤ n).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u16).range(2..=16))]
    max_rows: u16,
    /// Largest number of columns.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u16).range(2..=16))]
    max_cols: u16,
    /// Largest number of blocks (rows of the table: 1 up to this).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
    max_blocks: u16,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct TableReachArgs {
    /// Smallest square side.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=32))]
    min_size: u16,
    /// Largest square side.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=32))]
    max_size: u16,
    /// Block counts (comma-separated).
    #[arg(long, default_value = "3,4,5", value_delimiter = ',')]
    blocks: Vec<usize>,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct TableStripArgs {
    /// Board heights (comma-separated).
    #[arg(long, default_value = "2,3", value_delimiter = ',')]
    heights: Vec<usize>,
    /// Largest width n.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u16).range(3..=64))]
    max_width: u16,
    /// Block counts (comma-separated).
    #[arg(long, default_value = "3,4,5,6", value_delimiter = ',')]
    blocks: Vec<usize>,
    /// Width of the block-count comparison (van den Akker's Table 13 uses 15).
    #[arg(long, default_value_t = 15)]
    compare_width: usize,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

/// Picking a level from a file.
#[derive(Args, Debug, Clone)]
struct LevelArgs {
    /// Level file (floe or Kluiver format; `-` reads standard input).
    file: PathBuf,
    /// Which level: a 1-based number or a title. Default: the file's only level.
    #[arg(long, short = 'l', value_name = "N|NAME")]
    level: Option<String>,
    /// Force the file format instead of detecting it from the first line.
    #[arg(long, value_name = "floe|kluiver")]
    format: Option<Format>,
    /// Walking rule; overrides the level's `Rules:` line (default: free).
    #[arg(long, value_name = "free|walk")]
    rules: Option<WalkRule>,
}

/// Resource limits.
#[derive(Args, Debug, Clone)]
struct LimitArgs {
    /// Stop after storing this many states.
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
    /// Stop after this long: seconds, or a number with ms, s, m or h.
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    timeout: Option<Duration>,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits {
            max_states: self.max_states,
            timeout: self.timeout,
            progress: None,
        }
    }
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    level: LevelArgs,
    /// Search: bfs (fewest pushes), difficulty (least pushes + factor × block changes),
    /// astar or idastar (fewest pushes, guided by a lower bound); or Kluiver's randomised
    /// solvers random and mc (BasicMC), which may fail and give no proof. Default: bfs; for
    /// Ice Tower astar.
    #[arg(long, value_name = "ALGO")]
    algo: Option<SolveAlgo>,
    #[command(flatten)]
    random: RandomArgs,
    /// Block-change factor of the difficulty (0 to 1,000,000,000).
    #[arg(long, default_value_t = 5, value_name = "F", allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(..=floe::games::ice::MAX_FACTOR))]
    factor: u64,
    /// Print the board after every push.
    #[arg(long)]
    boards: bool,
    /// The game: ice (default), pushpush, icetower, boxoff, pretzel or fujisan. Without it a
    /// `Game:` line in the file decides.
    #[arg(long, value_name = "GAME")]
    game: Option<floe::games::Game>,
    /// PushPush-k: the robot pushes rows of up to K blocks (0 = no limit, PushPush-*).
    #[arg(long, value_name = "K")]
    k: Option<usize>,
    /// Ice Tower: accept arrows and dispensers, with floe's documented semantics.
    #[arg(long)]
    dynamic: bool,
    #[command(flatten)]
    picture: cmd::pictures::SolutionPictureArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

/// Which solver `floe solve` runs.
#[derive(Clone, Copy, Debug)]
enum SolveAlgo {
    /// An exact search.
    Exact(Algorithm),
    /// Kluiver's random algorithm.
    Random,
    /// Kluiver's BasicMC.
    Mc,
}

impl std::str::FromStr for SolveAlgo {
    type Err = String;
    fn from_str(s: &str) -> Result<SolveAlgo, String> {
        match s.to_ascii_lowercase().as_str() {
            "random" => Ok(SolveAlgo::Random),
            "mc" | "basicmc" | "monte-carlo" => Ok(SolveAlgo::Mc),
            other => other.parse().map(SolveAlgo::Exact).map_err(|_| {
                format!(
                    "unknown algorithm '{s}': expected bfs, difficulty, astar, idastar, random or mc"
                )
            }),
        }
    }
}

/// Parameters of the randomised solvers.
#[derive(Args, Debug, Clone)]
struct RandomArgs {
    /// Move cap of the random algorithm (default 1,000,000) or of BasicMC (default 15).
    #[arg(long, value_name = "M")]
    max_moves: Option<u32>,
    /// BasicMC's random games per candidate move and step.
    #[arg(long, default_value_t = floe::search::playout::KLUIVER_PLAYOUTS, value_name = "N")]
    playouts: u32,
    /// Seed of the random generator (the same seed gives the same run).
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// What a random game's cap counts: pushes made (impossible draws are drawn again) or
    /// every draw, possible or not.
    #[arg(long, default_value = "pushes", value_name = "pushes|attempts")]
    count: floe::analysis::solvers::CapCount,
}

impl RandomArgs {
    fn spec(&self, mc: bool) -> floe::analysis::solvers::SolverSpec {
        use floe::analysis::solvers::{SolverSpec, DEFAULT_RANDOM_MAX_MOVES};
        if mc {
            SolverSpec::Mc {
                playouts: self.playouts,
                max_moves: self
                    .max_moves
                    .unwrap_or(floe::search::playout::KLUIVER_MAX_MOVES),
                count: self.count,
            }
        } else {
            SolverSpec::Random {
                max_moves: self.max_moves.unwrap_or(DEFAULT_RANDOM_MAX_MOVES),
                count: self.count,
            }
        }
    }
}

#[derive(Args, Debug)]
struct BenchSolversArgs {
    #[command(flatten)]
    level: LevelArgs,
    /// The randomised solver: random or mc.
    #[arg(long, default_value = "mc", value_name = "random|mc")]
    algo: SolveAlgo,
    #[command(flatten)]
    random: RandomArgs,
    /// Runs (run i uses seed S + i).
    #[arg(long, default_value_t = 100, value_name = "R")]
    runs: u32,
    /// Block-change factor of the difficulty.
    #[arg(long, default_value_t = 5, value_name = "F", allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(..=floe::games::ice::MAX_FACTOR))]
    factor: u64,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

/// A level from a file, or an empty board.
#[derive(Args, Debug, Clone)]
struct BoardArgs {
    /// Level file; or give --rows, --cols and --blocks for an empty board.
    #[arg(required_unless_present_all = ["rows", "cols", "blocks"])]
    file: Option<PathBuf>,
    /// Rows of an empty board.
    #[arg(long, conflicts_with = "file", requires_all = ["cols", "blocks"])]
    rows: Option<usize>,
    /// Columns of an empty board.
    #[arg(long, conflicts_with = "file", requires_all = ["rows", "blocks"])]
    cols: Option<usize>,
    /// Blocks of an empty board, starting in the top row from the left, then clockwise
    /// along the edge.
    #[arg(long, conflicts_with = "file", requires_all = ["rows", "cols"])]
    blocks: Option<usize>,
    /// Which level of the file: a 1-based number or a title.
    #[arg(long, short = 'l', value_name = "N|NAME", requires = "file")]
    level: Option<String>,
    /// Force the file format.
    #[arg(long, value_name = "floe|kluiver", requires = "file")]
    format: Option<Format>,
    /// Walking rule (default: the level's, else free).
    #[arg(long, value_name = "free|walk")]
    rules: Option<WalkRule>,
}

#[derive(Args, Debug)]
struct SpaceArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct ReachArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    #[command(flatten)]
    level: LevelArgs,
    /// The moves: a JSON list of {"row","col","dir"}, a `floe solve --json` document, or
    /// text with one `row col dir` per push; `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    moves: PathBuf,
    /// The game: ice (default) or pushpush. Without it a `Game:` line in the file decides.
    #[arg(long, value_name = "GAME")]
    game: Option<floe::games::Game>,
    /// PushPush-k: the robot pushes rows of up to K blocks (0 = no limit, PushPush-*).
    #[arg(long, value_name = "K")]
    k: Option<usize>,
    /// Block-change factor for the reported difficulty (0 to 1,000,000,000).
    #[arg(long, default_value_t = 5, value_name = "F", allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(..=floe::games::ice::MAX_FACTOR))]
    factor: u64,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct ConvertArgs {
    /// Input level file (`-`: standard input).
    file: PathBuf,
    /// Force the input format.
    #[arg(long, value_name = "floe|kluiver")]
    format: Option<Format>,
    /// Output format.
    #[arg(long, default_value = "floe", value_name = "floe|kluiver")]
    to: Format,
    /// Convert only this level (number or title).
    #[arg(long, short = 'l', value_name = "N|NAME")]
    level: Option<String>,
    /// Write here instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct LevelsArgs {
    /// Level file.
    file: PathBuf,
    /// Force the file format.
    #[arg(long, value_name = "floe|kluiver")]
    format: Option<Format>,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    level: LevelArgs,
    /// The game (default: the file's `Game:` line, else ice blocks).
    #[arg(long, value_name = "GAME")]
    game: Option<floe::games::Game>,
    /// PushPush-k: the robot pushes rows of up to K blocks (0 = no limit).
    #[arg(long, value_name = "K")]
    k: Option<usize>,
    /// Ice Tower: accept arrows and dispensers, with floe's semantics (docs/icetower.md).
    #[arg(long)]
    dynamic: bool,
    /// Play these keys without a terminal and print the end state, e.g. "tab right u h"
    /// (names: up down left right tab backtab space enter u ctrl-z r ctrl-y R h H q).
    #[arg(long, value_name = "KEYS", conflicts_with = "script")]
    keys: Option<String>,
    /// Like --keys, with the keys read from a file (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// With --keys or --script: one JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct DemoArgs {
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

/// Parses `1.5`, `30s`, `500ms`, `2m`, `1h`.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let x: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a duration (e.g. 30, 30s, 500ms, 2m)"))?;
    let secs = match unit {
        "ms" => x / 1000.0,
        "s" => x,
        "m" | "min" => x * 60.0,
        "h" => x * 3600.0,
        _ => return Err(format!("unknown time unit '{unit}': use ms, s, m or h")),
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("'{s}' is not a duration"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Outcome of a command: the exit code is derived from it.
pub enum Done {
    /// An answer was printed.
    Answered,
    /// A limit stopped the work; what was explored has been printed.
    NoAnswer,
}

fn main() -> ExitCode {
    floe_learn::settle_threads();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Solve(a) => cmd::solve(a),
        Command::Space(a) => cmd::space(a),
        Command::Reach(a) => cmd::reach(a),
        Command::Verify(a) => cmd::verify(a),
        Command::Convert(a) => cmd::convert(a),
        Command::Levels(a) => cmd::levels(a),
        Command::Demo(a) => cmd::demo(a),
        Command::Table(TableCommand::Space(a)) => cmd::table_space(a),
        Command::Table(TableCommand::Reach(a)) => cmd::table_reach(a),
        Command::Table(TableCommand::Strip(a)) => cmd::table_strip(a),
        Command::Table(TableCommand::Patterns(a)) => cmd::table_patterns(a),
        Command::Patterns(a) => cmd::patterns(a),
        Command::Analyze(a) => cmd::analyze(a),
        Command::BenchSolvers(a) => cmd::bench_solvers(a),
        Command::Profile(a) => cmd::profile(a),
        Command::Census(CensusCommand::Pushpush(a)) => cmd::pushpush::census(a),
        Command::Experiment(a) => cmd::solitaire::experiment(a),
        Command::Image(a) => cmd::create::image(a),
        Command::Generate(a) => cmd::create::generate(a),
        Command::Play(a) => cmd::play::play(a),
        Command::Render(a) => cmd::pictures::render(a),
        Command::Learn(cmd::learn::LearnCommand::Data(a)) => cmd::learn::data(a),
        Command::Learn(cmd::learn::LearnCommand::Train(a)) => cmd::learn::train(a),
        Command::Learn(cmd::learn::LearnCommand::Eval(a)) => cmd::learn::eval(a),
        Command::Predict(a) => cmd::learn::predict(a),
    };
    match result {
        Ok(Done::Answered) => ExitCode::SUCCESS,
        Ok(Done::NoAnswer) => ExitCode::from(1),
        Err(e) => {
            eprintln!("floe: {e}");
            ExitCode::from(match e {
                floe::Error::Internal(_) => 1,
                _ => 2,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("3 weeks").is_err());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
