//! `floe hardest`: the levels of a size whose optimal solution is the longest.

use clap::Args;
use floe::request::ranges::{HARDEST_SIDE, RESTARTS, STEPS, TOP};
use floe::search::parse_duration;
use std::path::PathBuf;
use std::time::Duration;

/// `floe hardest GAME --rows R --cols C …`.
#[derive(Args, Debug)]
pub struct HardestArgs {
    /// The game: icepath (the sliding player: --rocks), ice (ice blocks: --blocks, --targets,
    /// --walls, --floor) or pushpush (from its census; --blocks for one number of blocks).
    pub game: String,
    /// Board rows.
    #[arg(long, value_name = "R", value_parser = HARDEST_SIDE.usize())]
    pub rows: usize,
    /// Board columns.
    #[arg(long, value_name = "C", value_parser = HARDEST_SIDE.usize())]
    pub cols: usize,
    /// Ice path: rocks on the board (default 0).
    #[arg(long, value_name = "K")]
    pub rocks: Option<usize>,
    /// Ice blocks and PushPush: blocks (ice blocks: in the room, default 1; PushPush: only
    /// the boards with exactly K blocks, default every number of blocks).
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub blocks: Option<usize>,
    /// Ice blocks: targets (default 1; at most the blocks).
    #[arg(long, value_name = "T")]
    pub targets: Option<usize>,
    /// Ice blocks: at most this many walls inside the room (default 0).
    #[arg(long, value_name = "N")]
    pub walls: Option<usize>,
    /// Ice blocks: at most this many normal floor cells inside the room (default 0).
    #[arg(long, value_name = "N")]
    pub floor: Option<usize>,
    /// The game's parameters (`--rules walk`: the player then starts outside; `--k`), from
    /// the registry.
    #[command(flatten)]
    pub params: floe::request::GameParams,
    /// What is maximised: length (fewest moves) or difficulty (ice blocks: least
    /// pushes + factor × block changes).
    #[arg(long, value_name = "length|difficulty", default_value = "length")]
    pub by: String,
    /// The block-change factor of the difficulty (default 5).
    #[arg(long, value_name = "F")]
    pub factor: Option<u64>,
    /// Every placement up to symmetry (the default): the answer is the hardest there is.
    #[arg(long, conflicts_with = "anneal")]
    pub exact: bool,
    /// Simulated annealing from seeded restarts, for boards too large for --exact.
    #[arg(long)]
    pub anneal: bool,
    /// Seed of the annealing (the same seed, restarts and steps give the same levels; with
    /// --time, the same levels as far as the run got).
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// Annealing restarts, each from its own seed (with --time, the ice path's tempering
    /// replicas, at least 2).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = RESTARTS.usize())]
    pub restarts: usize,
    /// Annealing steps per restart (with --time, the ice path's replicas trade boards every
    /// N/20 steps).
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = STEPS.u64())]
    pub steps: u64,
    /// Stop after this long (seconds, or a number with ms, s, m or h): the annealing reports
    /// its best so far; an exact search stopped so is not exhaustive (exit code 1).
    #[arg(long, value_name = "TIME", value_parser = parse_duration, allow_negative_numbers = true)]
    pub time: Option<Duration>,
    /// How many levels to list, hardest first.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = TOP.usize())]
    pub top: usize,
    /// Write each level as a file in this folder (hardest-GAME-RxC-N.txt).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
    /// Raised by someone else to stop the work.
    #[arg(skip)]
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}
