//! The command line: every command, flag and help text, and the flag groups commands share.
//!
//! One vocabulary: a level is `FILE [-l N|NAME] [--game G]` with the game's parameters as
//! flags (`--rules`, `--k`, `--dynamic`, or `--param NAME=VALUE`), refused by one rule when the
//! game has no such parameter; limits are `--max-states N` and `--timeout 30s`; files written
//! are `-o/--out`; seeds default to 1; machine output is `--json`.

//!
//! - this file: the command list and the flag groups every command shares (the game, a level,
//!   a board, limits);
//! - [`level`]: the commands on a level of any game;
//! - [`ice`]: the commands of ice blocks only (reach, profile, patterns, tables, pictures,
//!   generation);
//! - [`study`]: the studies of one game each (PushPush census and learning, the solitaire
//!   experiments, the Zelda demo).

mod hardest;
mod ice;
mod level;
pub(crate) mod op;
mod rules;
mod serve;
mod study;

pub use hardest::*;
pub use ice::*;
pub use level::*;
pub use serve::*;
pub use study::*;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// The version and the sources it was built from (a digest of them, `build.rs`): what
/// `floe --version` says and what the processes of a shared run compare, so that two builds
/// of one version from other sources are told apart.
pub(crate) const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (sources ",
    env!("FLOE_SOURCES"),
    ")"
);

/// Solve, generate and analyse sliding-block puzzles.
#[derive(Parser, Debug)]
#[command(name = "floe", version = VERSION, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The library's operations, one command each (`floe::operations!`): solve, verify,
    /// space, analyze, bench-solvers, graph.
    #[command(flatten)]
    Op(op::OpCommand),
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
    Reach(SharedJobArgs),
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
    /// The hardest levels of a size: the longest optimal solution over every placement up
    /// to symmetry (--exact), or found by simulated annealing (--anneal); ice path, ice blocks
    /// and PushPush. Every level is verified by the exact solver.
    Hardest(HardestArgs),
    /// PushPush: learned predictors (datasets, training, evaluation).
    #[command(subcommand)]
    Learn(LearnCommand),
    /// PushPush: predict a board's solvability, fewest pushes and difficulty with a model.
    Predict(PredictArgs),
    /// Solve every bundled Zelda room and print the figures (no files needed).
    Demo(DemoArgs),
    /// Play, draw, solve and generate puzzles in the browser: a local web server with the
    /// page and a JSON API (docs/web.md).
    Serve(ServeArgs),
}

/// The game and its parameters (the library's request).
pub use floe::request::GameArgs;

/// Resource limits (the library's request).
pub use floe::request::LimitArgs;

/// A level from a file.
#[derive(Args, Debug, Clone)]
pub struct LevelArgs {
    /// Level file (`-` reads standard input).
    pub file: PathBuf,
    /// Which level, the game and its parameters.
    #[command(flatten)]
    pub pick: floe::request::LevelPick,
}

/// A level from a file, or an empty ice board.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// Level file; or give --rows, --cols and --blocks for an empty ice board.
    #[arg(required_unless_present_all = ["rows", "cols", "blocks"])]
    pub file: Option<PathBuf>,
    /// The empty board's size, or which level of the file.
    #[command(flatten)]
    pub empty: floe::request::EmptyBoard,
    /// The game and its parameters.
    #[command(flatten)]
    pub game: GameArgs,
}

/// A level or an empty ice board, limits and `--json`: `floe reach`.
#[derive(Args, Debug)]
pub struct BoardJobArgs {
    /// The level.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Limits of the enumeration (of the building of the state graph, for `analyze`).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// A job that can be shared by workers, processes and machines, out of core and resumable:
/// `floe reach` (and `floe space`, an operation of the library's list: `args::op`).
#[derive(Args, Debug)]
pub struct SharedJobArgs {
    /// The level, the limits, `--json`.
    #[command(flatten)]
    pub job: BoardJobArgs,
    /// Workers, processes, work directory.
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// Sharing an enumeration between worker threads, processes and machines (timely
/// dataflow's -w/-n/-p/-h), with its layers on disk and checkpoints (see docs/cluster.md).
/// Any of these flags runs the shared enumeration; it needs a game whose positions have a
/// perfect hash (ice blocks under `free`, the ice path).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Sharing the work (docs/cluster.md)")]
pub struct ClusterArgs {
    /// Workers and processes.
    #[command(flatten)]
    pub peers: PeersArgs,
    /// Keep the layers and checkpoints here (out of core; each process its own workers'
    /// folders), so that a stopped run can be resumed.
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<std::path::PathBuf>,
    /// Take up the run checkpointed in --work-dir (same level, same processes and workers).
    #[arg(long, requires = "work_dir")]
    pub resume: bool,
}

impl ClusterArgs {
    /// Whether any flag asks for a shared run.
    pub fn active(&self) -> bool {
        self.peers.active() || self.work_dir.is_some()
    }
}

/// The workers and processes of a shared run (timely dataflow's -w/-n/-p/-h).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Sharing the work (docs/cluster.md)")]
pub struct PeersArgs {
    /// Worker threads in this process [default: the cores divided by the most processes
    /// the addresses put on one host (every loopback name is this machine), at least 1].
    #[arg(long, value_name = "W", value_parser = within(1, 1024), allow_negative_numbers = true)]
    pub workers: Option<usize>,
    /// Processes in the run, each started with the same flags and its own --process.
    #[arg(long, value_name = "N", value_parser = within(1, 4096), allow_negative_numbers = true)]
    pub processes: Option<usize>,
    /// This process's number, 0 to N−1 (process 0 prints the answer).
    #[arg(long, value_name = "I", value_parser = within(0, 4095), allow_negative_numbers = true)]
    pub process: Option<usize>,
    /// The processes' addresses, one host:port a line in order of --process [default:
    /// 127.0.0.1, ports 2101 up].
    #[arg(long, value_name = "FILE")]
    pub hostfile: Option<std::path::PathBuf>,
}

impl PeersArgs {
    /// Whether any flag asks for workers or processes.
    pub fn active(&self) -> bool {
        self.workers.is_some()
            || self.processes.is_some()
            || self.process.is_some()
            || self.hostfile.is_some()
    }
}

/// Parses the program's arguments, then checks the rules every command's flags obey
/// (`rules`: no empty range, no flag of another game); a broken rule is a usage error (exit
/// code 2) that names what the user wrote.
pub fn parse() -> Result<Cli, clap::Error> {
    parse_from(std::env::args_os())
}

/// [`parse`] of the given arguments (the program's name first), for front ends that build a
/// command line (the web server's endpoints).
pub fn parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    let mut cmd = Cli::command();
    let matches = cmd.try_get_matches_from_mut(args)?;
    if let Err(broken) = rules::check(&cmd, &matches) {
        let (mut leaf, msg) = *broken;
        return Err(leaf.error(clap::error::ErrorKind::ArgumentConflict, msg));
    }
    Cli::from_arg_matches(&matches)
}

/// The parser of a `usize` flag with a documented range: a value outside `lo..=hi` (or one
/// that does not fit a number) is refused at the door, with the flag and the range named.
pub(crate) fn within(lo: u64, hi: u64) -> impl clap::builder::TypedValueParser<Value = usize> {
    use clap::builder::TypedValueParser;
    // a negative or a word is said as what it is, not as a "digit" the parser did not expect
    clap::builder::StringValueParser::new().try_map(move |s| {
        s.trim()
            .parse::<u64>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .map(|n| n as usize)
            .ok_or_else(|| format!("'{s}' is not a whole number from {lo} to {hi}"))
    })
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
    fn the_requests_defaults_are_the_flags_defaults() {
        let cli = |line: &str| parse_from(line.split_whitespace()).unwrap().command;
        let Command::Op(op::OpCommand::Solve(a)) = cli("floe solve x.txt") else {
            panic!("solve")
        };
        assert_eq!(a.request, floe::request::Solve::default());
        assert_eq!(a.request.limits, LimitArgs::default());
        let Command::Op(op::OpCommand::BenchSolvers(a)) = cli("floe bench-solvers x.txt") else {
            panic!("bench-solvers")
        };
        assert_eq!(a.request, floe::request::BenchSolvers::default());
        let Command::Generate(a) = cli("floe generate --rows 5 --cols 6") else {
            panic!("generate")
        };
        let want = floe::request::Generate {
            rows: Some(5),
            cols: Some(6),
            ..Default::default()
        };
        assert_eq!(a.levels, want);
        assert_eq!(a.budget, floe::request::GenerateBudget::default());
        let Command::Experiment(a) = cli("floe experiment pretzel") else {
            panic!("experiment")
        };
        let want = floe::request::Experiment {
            game: "pretzel".into(),
            ..Default::default()
        };
        assert_eq!(a.run, want);
        let Command::Render(a) = cli("floe render x.txt") else {
            panic!("render")
        };
        assert_eq!(a.render, floe::request::Render::default());
    }

    #[test]
    fn game_flags_become_parameters() {
        let g = GameArgs {
            params: vec!["x=1".into()],
            ..GameArgs::default()
        }
        .with("rules", "walk")
        .with("k", "2")
        .with("dynamic", "true");
        let p = g.params().unwrap();
        assert_eq!(p.get("rules"), Some("walk"));
        assert_eq!(p.get("k"), Some("2"));
        assert_eq!(p.get("dynamic"), Some("true"));
        assert_eq!(p.get("x"), Some("1"));
    }
}
