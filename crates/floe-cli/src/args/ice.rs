//! The commands of ice blocks only: reach, profile, patterns, the theses' tables, pictures
//! drawn with ice blocks, level generation.

use super::{BoardArgs, LimitArgs};
use clap::{Args, Subcommand};
use floe::request::ranges::{SAMPLES, SQUARE_SIDE, STRIP_WIDTH, TABLE_BLOCKS, TABLE_SIDE};
use floe::search::parse_duration;
use std::path::PathBuf;
use std::time::Duration;

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
    #[arg(long, default_value_t = 7, value_parser = TABLE_SIDE.u16())]
    pub max_rows: u16,
    /// Largest number of columns.
    #[arg(long, default_value_t = 7, value_parser = TABLE_SIDE.u16())]
    pub max_cols: u16,
    /// Largest number of blocks (rows of the table: 1 up to this).
    #[arg(long, default_value_t = 8, value_parser = TABLE_BLOCKS.u16())]
    pub max_blocks: u16,
    /// Limits of each cell.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
    /// Each cell shared by workers, processes and machines (in a folder of its own under
    /// --work-dir).
    #[command(flatten)]
    pub cluster: super::ClusterArgs,
}

/// `floe table reach`.
#[derive(Args, Debug)]
pub struct TableReachArgs {
    /// The boards, the block counts, the limits.
    #[command(flatten)]
    pub table: SquareTableArgs<10>,
    /// Each table shared by workers, processes and machines (in a folder of its own under
    /// --work-dir).
    #[command(flatten)]
    pub cluster: super::ClusterArgs,
}

/// `floe table reach` and `floe table patterns`: a table over empty square boards, with
/// sides up to `MAX_SIZE` by default.
#[derive(Args, Debug)]
pub struct SquareTableArgs<const MAX_SIZE: u16> {
    /// Smallest square side.
    #[arg(long, default_value_t = 3, value_parser = SQUARE_SIDE.u16())]
    pub min_size: u16,
    /// Largest square side.
    // (not `default_value_t`, which keeps the first default it renders for every `MAX_SIZE`)
    #[arg(
        long,
        default_value = MAX_SIZE.to_string(),
        value_parser = SQUARE_SIDE.u16()
    )]
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
    #[arg(long, default_value_t = 20, value_parser = STRIP_WIDTH.u16())]
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
pub type TablePatternsArgs = SquareTableArgs<8>;

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
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Give up after this many placement searches (exit code 1).
    #[arg(long, value_name = "N")]
    pub max_searches: Option<u64>,
    /// Give up once floe holds this much memory (exit code 1): GiB, or a number with K, M,
    /// G or T. Default: three quarters of what the machine lets floe have at the start (the
    /// memory available, the cgroup's limit, ulimit -v).
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = floe::mem::parse_memory,
        allow_hyphen_values = true
    )]
    pub max_memory: Option<u64>,
    /// Instead of a file: decide every picture of every size up to N×N (N ≤ 4) and check
    /// them against the Figure 21 configurations.
    #[arg(long, value_name = "N", conflicts_with = "file")]
    pub census: Option<usize>,
}

/// `floe generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The levels wanted.
    #[command(flatten)]
    pub levels: floe::request::Generate,
    /// Write the levels here (floe format) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// How long it may take, what a candidate may store.
    #[command(flatten)]
    pub budget: floe::request::GenerateBudget,
    /// One JSON document (the figures of every level) on standard output.
    #[arg(long)]
    pub json: bool,
    /// Instead of levels: how often the fewest pushes equal the intended pushes, before and
    /// after the shortcut repair, for sizes 5×5, 6×6, 7×7, 1–3 targets and 4, 6, 8 pushes
    /// (or the --rows/--cols, --targets, and --min-pushes or --min-pushes to --max-pushes
    /// given).
    #[arg(long)]
    pub report: bool,
    /// Levels per setting of --report (1 to 1,000,000).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = SAMPLES.u64())]
    pub samples: u64,
}
