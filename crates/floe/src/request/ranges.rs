//! The ranges of the numbers that the front ends check before they call the library: the
//! command line's flags (clap's parsers made from these constants) and Python's keywords
//! (`floe._floe.ranges()`, read by the module's checks) take them from here, so each range is
//! written once. The ranges of the typed requests' own fields ([`super::Generate`],
//! [`super::Experiment`], …) live beside those requests and are listed here too.

use super::experiment::{CHALLENGES, HORIZON, TRIALS};
use super::explain::SUBSETS_RANGE;
use super::generate::{BLOCKS, COUNT, SIDE};
use super::solve::CELL;
use super::Range;

/// Rows and columns of `floe hardest`.
pub const HARDEST_SIDE: Range = Range::new(1, 256);
/// Restarts of `floe hardest --anneal`.
pub const RESTARTS: Range = Range::new(1, 1_000_000);
/// Annealing steps per restart of `floe hardest --anneal` (a thousand million: hours of a
/// restart; `--time` bounds a longer search).
pub const STEPS: Range = Range::new(1, 1_000_000_000);
/// Levels listed by `floe hardest`.
pub const TOP: Range = Range::new(1, 10_000);
/// Runs of `floe bench-solvers`.
pub const RUNS: Range = Range::new(1, 1_000_000);
/// Levels per setting of `floe generate --report`.
pub const SAMPLES: Range = Range::new(1, 1_000_000);
/// Threads of `floe experiment`.
pub const THREADS: Range = Range::new(1, 256);
/// Rows and columns of the PushPush census.
pub const CENSUS_SIDE: Range = Range::new(1, 32);
/// The census's `k` (the PushPush variant).
pub const CENSUS_K: Range = Range::new(0, 1024);
/// Largest rows and columns of `floe table space`.
pub const TABLE_SIDE: Range = Range::new(2, 16);
/// Most blocks of `floe table space`.
pub const TABLE_BLOCKS: Range = Range::new(1, 64);
/// Sizes of the square boards of `floe table reach` and `floe table patterns`.
pub const SQUARE_SIDE: Range = Range::new(1, 32);
/// Widest board of `floe table strip`.
pub const STRIP_WIDTH: Range = Range::new(3, 64);

/// Every range by `call.keyword`, as Python names them (the command line's flags are the same
/// words with `-`).
pub const RANGES: &[(&str, Range)] = &[
    ("hardest.rows", HARDEST_SIDE),
    ("hardest.cols", HARDEST_SIDE),
    ("hardest.restarts", RESTARTS),
    ("hardest.steps", STEPS),
    ("hardest.top", TOP),
    ("bench_solvers.runs", RUNS),
    ("generate_report.samples", SAMPLES),
    ("experiment.threads", THREADS),
    ("experiment.challenges", CHALLENGES),
    ("experiment.trials", TRIALS),
    ("experiment.random_horizon", HORIZON),
    ("census.rows", CENSUS_SIDE),
    ("census.cols", CENSUS_SIDE),
    ("census.k", CENSUS_K),
    ("space_table.max_rows", TABLE_SIDE),
    ("space_table.max_cols", TABLE_SIDE),
    ("space_table.max_blocks", TABLE_BLOCKS),
    ("reach_table.min_size", SQUARE_SIDE),
    ("reach_table.max_size", SQUARE_SIDE),
    ("patterns_table.min_size", SQUARE_SIDE),
    ("patterns_table.max_size", SQUARE_SIDE),
    ("strip_table.max_width", STRIP_WIDTH),
    ("generate.rows", SIDE),
    ("generate.cols", SIDE),
    ("generate.targets", BLOCKS),
    ("generate.max_blocks", BLOCKS),
    ("generate.count", COUNT),
    ("solve.cell", CELL),
    ("explain.subsets", SUBSETS_RANGE),
];

/// The range of `key` (`call.keyword`) in [`RANGES`].
///
/// ```
/// use floe::request::ranges::range;
/// let r = range("hardest.restarts").unwrap();
/// assert_eq!((r.lo, r.hi), (1, 1_000_000));
/// assert!(range("hardest.nothing").is_none());
/// ```
pub fn range(key: &str) -> Option<Range> {
    RANGES.iter().find(|(k, _)| *k == key).map(|&(_, r)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_range_is_named_once_and_not_empty() {
        for (i, (k, r)) in RANGES.iter().enumerate() {
            assert!(r.lo <= r.hi, "{k}");
            assert!(k.contains('.'), "{k}");
            assert!(RANGES[i + 1..].iter().all(|(o, _)| o != k), "{k} twice");
        }
    }
}
