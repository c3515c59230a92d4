//! Solving: fewest pushes with BFS, A* or IDA* on the fast engine (static levels) or on the
//! plain rules (levels with arrows or dispensers, `dynamic`). Every solution is replayed by
//! [`rules::replay`](super::rules::replay) before it is returned.

use super::engine::{with_tower, TMove, TowerPuzzle, TowerTask};
use super::hunt::astar_proving;
use super::level::{parse, Tower};
use super::prune::Dead;
use super::rules::{replay, PlainPuzzle, Replay};
use crate::bits::Bits;
use crate::error::ParseError;
use crate::grid::Push;
use crate::search::{self, Limits, Outcome, Puzzle, SearchResult, Stats};
use crate::Error;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// Which search to run. All three find the fewest pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// A* with the bound of [`prune`](super::prune), over f-buckets
    /// ([`astar_proving`](super::hunt::astar_proving)): the fastest, and when a limit stops
    /// it, it still proves a lower bound.
    #[default]
    AStar,
    /// Breadth-first search (dead positions pruned all the same).
    Bfs,
    /// IDA* with a transposition table of 4 million positions.
    IdaStar,
}

impl Algorithm {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::Bfs => "bfs",
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
            "astar" | "a*" => Ok(Algorithm::AStar),
            "bfs" => Ok(Algorithm::Bfs),
            "idastar" | "ida*" | "ida" => Ok(Algorithm::IdaStar),
            _ => Err(format!(
                "unknown algorithm '{s}': Ice Tower takes astar, bfs or idastar"
            )),
        }
    }
}

/// Options of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The search.
    pub algorithm: Algorithm,
    /// Dead-position pruning and the lower bound (off: a plain exhaustive search).
    pub prune: bool,
    /// Accept arrows and dispensers, with floe's semantics (plain-rules search).
    pub dynamic: bool,
    /// Limits of the search.
    pub limits: Limits,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::AStar,
            prune: true,
            dynamic: false,
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
    /// The validator's replay of the solution.
    pub replay: Option<Replay>,
    /// What the search explored.
    pub stats: Stats,
    /// The search that ran.
    pub algorithm: Algorithm,
    /// `fast` (static levels) or `plain` (the rules engine, for arrows and dispensers).
    pub engine: &'static str,
    /// The lower bound at the start (0 without pruning or on the plain engine).
    pub start_bound: u32,
    /// The fewest pushes are at least this many: the solution's length, or what the search
    /// proved before a limit stopped it (A*: the smallest open f; otherwise the start bound,
    /// or for BFS the depth it completed).
    pub proved: u32,
    /// Why the start position is dead, when it is (then nothing was searched).
    pub dead_start: Option<Dead>,
}

impl SolveReport {
    /// Number of pushes of the solution.
    pub fn pushes(&self) -> Option<u64> {
        self.replay.as_ref().map(|r| r.steps.len() as u64)
    }
}

/// Reads one level from `path` (`-`: standard input), named after the file.
pub fn load(path: &Path) -> Result<Tower, Error> {
    let (text, file) = crate::input::read_text(path)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|_| path.as_os_str() != "-")
        .unwrap_or_else(|| "<stdin>".to_string());
    Ok(parse(&text, &file, &name)?)
}

/// Runs the chosen search; also returns the bound it proved.
fn run<P: Puzzle>(p: &P, o: &SolveOptions) -> (SearchResult<P::Move, u64>, u32)
where
    P::Move: Copy,
{
    let start = p.lower_bound(&p.start());
    match o.algorithm {
        Algorithm::Bfs => {
            let r = search::bfs(p, &o.limits);
            // every position at depth < stats.depth was expanded without reaching a goal
            let proved = r.stats.depth.max(start);
            (r, proved)
        }
        Algorithm::AStar => {
            let r = astar_proving(p, &o.limits);
            let cost = r.outcome.solution().map(|m| m.len() as u64);
            let proved = r.proved;
            (
                SearchResult {
                    outcome: r.outcome,
                    cost,
                    stats: r.stats,
                },
                proved,
            )
        }
        Algorithm::IdaStar => (search::ida_star(p, &o.limits, 1 << 22), start),
    }
}

struct Task<'a>(&'a SolveOptions);

type Found = (Outcome<Push>, Option<u64>, Stats, u32, u32, Option<Dead>);

impl TowerTask for Task<'_> {
    type Output = Found;
    fn run<B: Bits>(self, p: &TowerPuzzle<B>) -> Found {
        if let Some(d) = p.start_dead() {
            let stats = Stats {
                states: 1,
                ..Stats::default()
            };
            return (Outcome::Unsolvable, None, stats, 0, 0, Some(d));
        }
        let bound = p.lower_bound(&p.start());
        let (r, proved) = run(p, self.0);
        let outcome = match r.outcome {
            Outcome::Solved(m) => Outcome::Solved(m.iter().map(|m: &TMove| p.push(m)).collect()),
            Outcome::Unsolvable => Outcome::Unsolvable,
            Outcome::Limit(l) => Outcome::Limit(l),
        };
        (outcome, r.cost, r.stats, bound, proved, None)
    }
}

/// Solves `tower` with the fewest pushes. A level with arrows or dispensers needs
/// `options.dynamic` (else: an error at the first such cell). A solution is replayed by the
/// plain rules before it is returned; a disagreement is [`Error::Internal`].
pub fn solve(tower: &Tower, options: &SolveOptions) -> Result<SolveReport, Error> {
    let dynamic = tower.first_dynamic();
    if let (Some((p, t)), false) = (dynamic, options.dynamic) {
        let (line, col) = tower.source_position(p);
        return Err(Error::Parse(ParseError {
            file: tower.file.clone(),
            line,
            col,
            message: format!(
                "{} ({}) is a dynamic element: floe solves levels with arrows and dispensers \
                 only with --dynamic, under the semantics of docs/icetower.md",
                t.name(),
                t.symbol()
            ),
        }));
    }
    let (outcome, cost, stats, start_bound, proved, dead_start, engine) = if dynamic.is_some() {
        let (r, proved) = run(&PlainPuzzle::new(tower), options);
        (r.outcome, r.cost, r.stats, 0, proved, None, "plain")
    } else {
        let (o, c, s, b, pr, d) = with_tower(tower, options.prune, Task(options))?;
        (o, c, s, b, pr, d, "fast")
    };
    let mut report = SolveReport {
        status: Status::Unsolvable,
        moves: Vec::new(),
        replay: None,
        stats,
        algorithm: options.algorithm,
        engine,
        start_bound,
        proved,
        dead_start,
    };
    match outcome {
        Outcome::Solved(moves) => {
            let r = replay(tower, &moves).map_err(|e| {
                Error::Internal(format!(
                    "the {} solution does not replay: {e}",
                    options.algorithm
                ))
            })?;
            if !r.solved {
                return Err(Error::Internal(format!(
                    "the {} solution replays but leaves a fire burning",
                    options.algorithm
                )));
            }
            if cost != Some(moves.len() as u64) {
                return Err(Error::Internal(format!(
                    "the search reported {cost:?} pushes for a solution of {}",
                    moves.len()
                )));
            }
            report.status = Status::Solved;
            report.proved = moves.len() as u32;
            report.moves = moves;
            report.replay = Some(r);
        }
        Outcome::Unsolvable => {}
        Outcome::Limit(l) => report.status = Status::Limit(l),
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::LimitKind;

    fn solve_text(text: &str, algorithm: Algorithm, prune: bool) -> SolveReport {
        let t = parse(text, "t", "t").unwrap();
        let o = SolveOptions {
            algorithm,
            prune,
            ..SolveOptions::default()
        };
        solve(&t, &o).unwrap()
    }

    #[test]
    fn algorithms_agree() {
        let text = "#######\n#@% **#\n#  %  #\n#$ -  #\n#######\n";
        let mut lens = Vec::new();
        for a in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
            for prune in [false, true] {
                let r = solve_text(text, a, prune);
                assert_eq!(r.status, Status::Solved, "{a} {prune}");
                lens.push(r.pushes().unwrap());
            }
        }
        assert!(lens.iter().all(|&l| l == lens[0]), "{lens:?}");
    }

    #[test]
    fn unsolvable_and_dead_starts() {
        // walled in by fire: the magician cannot reach his block's far side
        let r = solve_text("#####\n#@*%#\n#####\n", Algorithm::AStar, true);
        assert_eq!(r.status, Status::Unsolvable);
        assert!(r.dead_start.is_none() || r.stats.states == 1);
        let r = solve_text("#####\n#@*%#\n#####\n", Algorithm::Bfs, false);
        assert_eq!(r.status, Status::Unsolvable);
        assert_eq!(r.stats.states, 1);
        // no fires: solved with no push
        let r = solve_text("###\n#@#\n###\n", Algorithm::AStar, true);
        assert_eq!((r.status, r.pushes()), (Status::Solved, Some(0)));
    }

    #[test]
    fn dynamic_levels_need_the_flag() {
        let t = parse("Game: icetower\n@% v\n   *\n", "lvl.txt", "lvl").unwrap();
        let e = solve(&t, &SolveOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("lvl.txt:2:4: an arrow (v) is a dynamic element"),
            "{e}"
        );
        let o = SolveOptions {
            dynamic: true,
            algorithm: Algorithm::Bfs,
            ..SolveOptions::default()
        };
        let r = solve(&t, &o).unwrap();
        assert_eq!(r.pushes(), Some(1));
        assert_eq!(r.engine, "plain");
    }

    #[test]
    fn limits_stop_cleanly() {
        let text = "####################\n#*################*#\n#                  #\n#     %      %     #\n##    *      *    ##\n##      *  *      ##\n##     %    %     ##\n##                ##\n##  %     @    %  ##\n##                ##\n####################\n";
        let t = parse(text, "t", "w21").unwrap();
        let o = SolveOptions {
            limits: Limits::none().max_states(1000),
            ..SolveOptions::default()
        };
        let r = solve(&t, &o).unwrap();
        assert_eq!(r.status, Status::Limit(LimitKind::MaxStates));
        assert!(r.moves.is_empty());
    }
}
