//! Every exact search behind one name: [`Method`] says which, [`run`] runs it and reports
//! what it found and what it proved.

use super::{
    astar, astar_proving, astar_proving_upto, bfs, dfs_first, dijkstra, ida_star, ChangePenalty,
    LimitKind, Limits, Outcome, Puzzle, Stats, UnitCost, DENSE_LIMIT,
};
use std::fmt;

/// An exact search. Each finds a solution with the fewest moves (or, for
/// [`Method::LeastChanges`], the least cost) or proves that there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Breadth-first search ([`bfs`]).
    Bfs,
    /// A* over a cost model, reopening states ([`astar`]).
    AStar,
    /// A* over f-buckets that proves a lower bound when stopped ([`astar_proving`]).
    AStarProving,
    /// [`Method::AStarProving`] looking only for solutions of at most `moves` moves
    /// ([`astar_proving_upto`]): when there is none, the proof that the fewest moves exceed
    /// `moves`, made storing only the positions it needs.
    AStarUpTo {
        /// The longest solution looked for.
        moves: u32,
    },
    /// IDA* with a transposition table of at most this many states ([`ida_star`]).
    IdaStar {
        /// Capacity of the transposition table.
        table: usize,
    },
    /// Dijkstra over moves + `factor` × changes of piece ([`ChangePenalty`]): Kluiver's
    /// least difficulty, ties broken by fewer moves.
    LeastChanges {
        /// Extra cost of a change of piece.
        factor: u64,
    },
    /// Depth-first search for the first solution with a dead-position table
    /// ([`dfs_first`]): exact only in puzzles whose solutions all have one length.
    DepthFirst,
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Bfs => f.write_str("breadth-first search"),
            Method::AStar => f.write_str("A*"),
            Method::AStarProving => f.write_str("A* (f-buckets)"),
            Method::AStarUpTo { moves } => write!(f, "A* (f-buckets, at most {moves} moves)"),
            Method::IdaStar { .. } => f.write_str("IDA*"),
            Method::LeastChanges { .. } => f.write_str("Dijkstra"),
            Method::DepthFirst => f.write_str("depth-first search"),
        }
    }
}

/// What [`run`] found.
#[derive(Clone, Debug)]
pub struct Found<M> {
    /// Solved, unsolvable, or stopped by a limit.
    pub outcome: Outcome<M>,
    /// The solution's cost under the method's measure: its length, or for
    /// [`Method::LeastChanges`] its difficulty.
    pub cost: Option<u64>,
    /// A lower bound on the fewest moves that the search proved: the solution's length when
    /// solved; otherwise the deepest completed layer (BFS), the smallest open `f`
    /// ([`Method::AStarProving`]) or the start's lower bound.
    pub proved: u32,
    /// What was explored.
    pub stats: Stats,
}

/// Runs `method` on `p` within `limits`.
///
/// ```
/// use floe::search::{from_fn, run, Limits, Method};
/// let p = from_fn(1u32, |&x| [('+', x + 1), ('*', 2 * x)], |&x| x == 10);
/// for m in [Method::Bfs, Method::AStar, Method::AStarProving, Method::IdaStar { table: 1000 }] {
///     assert_eq!(run(&p, m, &Limits::none()).cost, Some(4), "{m}");
/// }
/// ```
pub fn run<P: Puzzle>(p: &P, method: Method, limits: &Limits) -> Found<P::Move>
where
    P::Move: Copy,
{
    let start_bound = p.lower_bound(&p.start());
    let (outcome, cost, stats, proved) = match method {
        Method::Bfs => {
            let r = bfs(p, limits);
            // every position at depth < stats.depth was expanded without reaching a goal
            let proved = r.stats.depth.max(start_bound);
            (r.outcome, r.cost, r.stats, proved)
        }
        Method::AStar => {
            let r = astar(p, &UnitCost, limits);
            (r.outcome, r.cost, r.stats, start_bound)
        }
        Method::AStarProving => {
            let r = astar_proving(p, limits);
            let cost = r.outcome.solution().map(|m| m.len() as u64);
            (r.outcome, cost, r.stats, r.proved)
        }
        Method::AStarUpTo { moves } => {
            let r = astar_proving_upto(p, limits, moves);
            let cost = r.outcome.solution().map(|m| m.len() as u64);
            (r.outcome, cost, r.stats, r.proved)
        }
        Method::IdaStar { table } => {
            let r = ida_star(p, limits, table);
            (r.outcome, r.cost, r.stats, start_bound)
        }
        Method::LeastChanges { factor } => {
            let r = dijkstra(p, &ChangePenalty { factor }, limits);
            (r.outcome, r.cost.map(|c| c.0), r.stats, start_bound)
        }
        Method::DepthFirst => {
            let r = dfs_first(p, limits);
            (r.outcome, r.cost, r.stats, start_bound)
        }
    };
    let proved = match &outcome {
        Outcome::Solved(m) => m.len() as u32,
        _ => proved,
    };
    Found {
        outcome,
        cost,
        proved,
        stats,
    }
}

/// Whether an enumeration of `p` is worth running on every core: it needs the perfect hash
/// with a space small enough for a bit array (see [`enumerate_par`](super::enumerate_par)),
/// and below about 100,000 possible positions the threads cost more than they save.
///
/// ```
/// use floe::search::{from_fn, worth_parallel, Puzzle};
/// // counting from 0 up to `self.0 - 1`, with the count as its perfect hash
/// struct Count(u64);
/// impl Puzzle for Count {
///     type State = u64;
///     type Move = ();
///     fn start(&self) -> u64 {
///         0
///     }
///     fn successors(&self, &x: &u64, out: &mut Vec<((), u64)>) {
///         out.extend((x + 1 < self.0).then_some(((), x + 1)));
///     }
///     fn is_goal(&self, _: &u64) -> bool {
///         false
///     }
///     fn rank_space(&self) -> Option<u64> {
///         Some(self.0)
///     }
///     fn rank(&self, &x: &u64) -> Option<u64> {
///         Some(x)
///     }
/// }
/// assert!(worth_parallel(&Count(1_000_000)));
/// assert!(!worth_parallel(&Count(1_000))); // too small to pay for the threads
/// // no perfect hash at all
/// assert!(!worth_parallel(&from_fn(0u64, |&x| [((), x + 1)], |_| false)));
/// ```
pub fn worth_parallel<P: Puzzle>(p: &P) -> bool {
    matches!(p.rank_space(), Some(n) if (100_000..=DENSE_LIMIT).contains(&n))
}

impl<M> Found<M> {
    /// The limit that stopped the search, if one did.
    pub fn limit(&self) -> Option<LimitKind> {
        match self.outcome {
            Outcome::Limit(l) => Some(l),
            _ => None,
        }
    }
}
