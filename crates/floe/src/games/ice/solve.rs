//! Solving ice block levels with any of the generic algorithms, and measuring their state
//! spaces. Every solution is replayed by the independent [`validate`](super::validate) module
//! before it is returned.

use super::engine::{with_puzzle, IceMove, IcePuzzle, IceTask, Walking};
use super::level::{Level, WalkRule};
use super::validate::{replay, Replay};
use crate::bits::Bits;
use crate::grid::Push;
use crate::search::{self, ChangePenalty, Enumeration, Limits, Outcome, Puzzle, Stats, UnitCost};
use crate::Error;
use std::fmt;
use std::str::FromStr;

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Breadth-first search: fewest pushes.
    #[default]
    Bfs,
    /// Dijkstra over Kluiver's difficulty (pushes + factor × block changes), ties broken by
    /// fewer pushes.
    Difficulty,
    /// A* with the bound "uncovered targets": fewest pushes.
    AStar,
    /// IDA* with the same bound and a transposition table: fewest pushes.
    IdaStar,
}

impl Algorithm {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::Difficulty => "difficulty",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Algorithm, String> {
        match s.to_ascii_lowercase().as_str() {
            "bfs" => Ok(Algorithm::Bfs),
            "difficulty" | "least-difficulty" | "dijkstra" | "p-bfs" | "pbfs" => {
                Ok(Algorithm::Difficulty)
            }
            "astar" | "a*" => Ok(Algorithm::AStar),
            "idastar" | "ida*" | "ida" => Ok(Algorithm::IdaStar),
            _ => Err(format!(
                "unknown algorithm '{s}': expected bfs, difficulty, astar or idastar"
            )),
        }
    }
}

/// Largest block-change factor [`solve`] accepts: difficulties stay far from overflow.
pub const MAX_FACTOR: u64 = 1_000_000_000;

/// Options of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The search.
    pub algorithm: Algorithm,
    /// The walking rule.
    pub rule: WalkRule,
    /// Block-change factor of the difficulty (spec default 5), at most [`MAX_FACTOR`].
    pub factor: u64,
    /// Limits of the search.
    pub limits: Limits,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::Bfs,
            rule: WalkRule::Free,
            factor: 5,
            limits: Limits::none(),
        }
    }
}

pub use crate::search::Status;

/// The answer of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Solved, unsolvable or stopped.
    pub status: Status,
    /// The pushes (empty unless solved).
    pub moves: Vec<Push>,
    /// The replay of the solution by the validator.
    pub replay: Option<Replay>,
    /// What the search explored.
    pub stats: Stats,
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// The factor used for `difficulty`.
    pub factor: u64,
}

impl SolveReport {
    /// Number of pushes of the solution.
    pub fn pushes(&self) -> Option<u64> {
        self.replay.as_ref().map(Replay::pushes)
    }
    /// Block changes of the solution.
    pub fn block_changes(&self) -> Option<u64> {
        self.replay.as_ref().map(Replay::block_changes)
    }
    /// Difficulty of the solution at the report's factor.
    pub fn difficulty(&self) -> Option<u64> {
        self.replay.as_ref().map(|r| r.difficulty(self.factor))
    }
}

struct SolveTask<'a>(&'a SolveOptions);

impl IceTask for SolveTask<'_> {
    type Output = (Outcome<Push>, Option<u64>, Stats);
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
        let o = self.0;
        let (outcome, cost, stats) = match o.algorithm {
            Algorithm::Bfs => {
                let r = search::bfs(p, &o.limits);
                (r.outcome, r.cost, r.stats)
            }
            Algorithm::AStar => {
                let r = search::astar(p, &UnitCost, &o.limits);
                (r.outcome, r.cost, r.stats)
            }
            Algorithm::IdaStar => {
                let r = search::ida_star(p, &o.limits, 1 << 22);
                (r.outcome, r.cost, r.stats)
            }
            Algorithm::Difficulty => {
                let r = search::dijkstra(p, &ChangePenalty { factor: o.factor }, &o.limits);
                (r.outcome, r.cost.map(|c| c.0), r.stats)
            }
        };
        let outcome = match outcome {
            Outcome::Solved(m) => Outcome::Solved(m.iter().map(|m: &IceMove| p.push(m)).collect()),
            Outcome::Unsolvable => Outcome::Unsolvable,
            Outcome::Limit(l) => Outcome::Limit(l),
        };
        (outcome, cost, stats)
    }
}

/// Solves `level` as `options` say. A solution is replayed by the validator before it is
/// returned; if the replay disagrees with the search, the result is [`Error::Internal`], never
/// a wrong answer.
pub fn solve(level: &Level, options: &SolveOptions) -> Result<SolveReport, Error> {
    if options.factor > MAX_FACTOR {
        return Err(Error::invalid(format!(
            "the block-change factor {} is above the largest accepted, {MAX_FACTOR}",
            options.factor
        )));
    }
    let (outcome, cost, stats) = with_puzzle(level, options.rule, SolveTask(options))?;
    let mut report = SolveReport {
        status: Status::Unsolvable,
        moves: Vec::new(),
        replay: None,
        stats,
        algorithm: options.algorithm,
        factor: options.factor,
    };
    match outcome {
        Outcome::Solved(moves) => {
            let r = replay(level, options.rule, &moves).map_err(|e| {
                Error::Internal(format!(
                    "the {} solution does not replay: {e}",
                    options.algorithm
                ))
            })?;
            if !r.solved {
                return Err(Error::Internal(format!(
                    "the {} solution replays but leaves a target empty",
                    options.algorithm
                )));
            }
            let check = match options.algorithm {
                Algorithm::Difficulty => r.difficulty(options.factor),
                _ => r.pushes(),
            };
            if cost != Some(check) {
                return Err(Error::Internal(format!(
                    "the {} search reported cost {cost:?}, the replay gives {check}",
                    options.algorithm
                )));
            }
            report.status = Status::Solved;
            report.moves = moves;
            report.replay = Some(r);
        }
        Outcome::Unsolvable => {}
        Outcome::Limit(l) => report.status = Status::Limit(l),
    }
    Ok(report)
}

struct SpaceTask<'a>(&'a Limits);

/// Whether an enumeration of `p` is worth running on every core: it needs the perfect hash
/// with a space small enough for a bit array (see [`search::enumerate_par`]), and below about
/// 100,000 possible positions the threads cost more than they save.
pub fn worth_parallel<P: Puzzle>(p: &P) -> bool {
    matches!(p.rank_space(), Some(n) if (100_000..=search::DENSE_LIMIT).contains(&n))
}

impl IceTask for SpaceTask<'_> {
    type Output = Enumeration;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Enumeration {
        if worth_parallel(p) {
            let (e, ()) = search::enumerate_par(p, self.0, || (), |_, _, _| {}, |_, _| ())
                .expect("worth_parallel checks for a rank");
            e
        } else {
            search::enumerate(p, self.0, |_, _| {})
        }
    }
}

/// Enumerates every position reachable from the start of `level` (blocks indistinguishable;
/// under `walk`, positions differ also by the player's region), on every core when the
/// space is large and has a perfect hash (the `free` rule).
pub fn space(level: &Level, rule: WalkRule, limits: &Limits) -> Result<Enumeration, Error> {
    with_puzzle(level, rule, SpaceTask(limits))
}
