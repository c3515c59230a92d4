//! Generic search algorithms. Nothing here knows any game.
//!
//! A game implements [`Puzzle`] (start state, successors, goal test, optionally an admissible
//! lower bound and a perfect hash); every algorithm works on every game:
//!
//! | function | finds | notes |
//! |---|---|---|
//! | [`bfs`] | a solution with the fewest moves | goal tested when a state is generated |
//! | [`dijkstra`] | a solution of least cost under a [`CostModel`] | e.g. [`ChangePenalty`] for Kluiver's difficulty |
//! | [`astar`] | like [`dijkstra`], guided by [`Puzzle::lower_bound`] | reopens states, so an inconsistent bound stays exact |
//! | [`astar_proving`] | a solution with the fewest moves, or the lower bound it proved when stopped | A* over buckets of `f = g + h` |
//! | [`astar_learning`] | the same, guided by and teaching the bounds earlier searches of the level proved ([`Learned`]) | repeated questions about one level: the verdict in play |
//! | [`ida_star`] | a solution with the fewest moves, in memory linear in its length (plus an optional transposition table) | |
//! | [`dfs_first`] | the first solution found depth-first, or a proof that there is none | shortest only when every solution has one length |
//! | [`iterative_deepening`] | the fewest moves, remembering no position | exponential: a reference to check the others against |
//! | [`beam`] | a solution through layers cut to the `width` most promising positions | no proof; its length bounds the optimum |
//! | [`run`] | any exact search named by a [`Method`], with the lower bound it proved | one entry point for the front ends |
//! | [`enumerate`] | every reachable state: count, depth histogram, a visitor per state | perfect hashing when the puzzle offers it |
//! | [`enumerate_par`] | the same on every core, folding states into per-thread accumulators | needs the perfect hash; [`worth_parallel`] says when it pays |
//! | [`graph::build_graph`] | every reachable state with every move between them, as a [`graph::StateGraph`] | then strongly connected components, states that can reach a goal |
//! | [`graph::build_graph_with`] | the same graph, keeping a label mapped from each move | a unit label keeps only the graph's shape |
//! | [`playout::random_play`] | one random game from the start (Kluiver's random algorithm) | random *attempts*, up to a cap |
//! | [`playout::random_play_with`] | the same from any position, under a timeout | |
//! | [`playout::playout_solves`] | whether (and after how many attempts) a random game reaches a goal | the allocation-free playout of Monte Carlo search |
//! | [`playout::random_walk`] | one random game and how it ended: solved, stuck, back on a position it visited, or out of moves | Goadrich and Droscha's random player gives up at the first revisit |
//! | [`playout::basic_mc`] | a solution by Monte Carlo search (Kluiver's BasicMC) | parallel, repeatable with a seeded generator |
//!
//! Every search takes [`Limits`] (`max_states`, `timeout`, a progress callback) and stops
//! cleanly with [`Outcome::Limit`] and the statistics of what it explored.

mod best_first;
mod bfs;
mod bounds;
mod closures;
mod cost;
mod dfs;
pub mod dist;
mod estimate;
pub mod graph;
mod ida;
mod iddfs;
mod learned;
mod limits;
mod method;
mod par;
pub mod playout;
pub mod push_tree;
mod random_walk;
mod store;

pub use best_first::{astar, dijkstra};
pub use bfs::{bfs, enumerate, Enumeration};
pub use bounds::{
    astar_learning, astar_proving, astar_proving_par, astar_proving_upto, beam, Proving,
    PARALLEL_BATCH,
};
pub use closures::{from_fn, FnPuzzle};
pub use cost::{count_changes, ChangePenalty, CostModel, Lex, UnitCost};
pub use dfs::dfs_first;
pub use estimate::{count_words, estimate, rough_time, Estimate, POSITIONS_PER_CORE_SECOND};
pub use ida::ida_star;
pub use iddfs::iterative_deepening;
pub use learned::{Informed, Learned, UNSOLVABLE};
pub use limits::{
    clear_interrupt, interrupt, interrupted, note_terminated, parse_duration, stopped_by,
    terminated, Budget, LimitKind, Limits, Progress, ProgressFn, Tally, MAX_DURATION, MAX_STORED,
};
pub use method::{run, worth_parallel, Found, Method};
pub use par::{count_par, enumerate_par, start_threads};
pub use store::DENSE_LIMIT;

use std::hash::Hash;
use std::time::Duration;

/// The small interface every game implements.
///
/// Four items are required; the rest have defaults. A puzzle written by hand:
///
/// ```
/// use floe::search::{bfs, Limits, Puzzle};
/// // a token on cells 0..=4 that steps left or right; the goal is cell 4
/// struct Corridor;
/// impl Puzzle for Corridor {
///     type State = u8;
///     type Move = char;
///     fn start(&self) -> u8 {
///         0
///     }
///     fn successors(&self, &x: &u8, out: &mut Vec<(char, u8)>) {
///         if x > 0 {
///             out.push(('L', x - 1));
///         }
///         if x < 4 {
///             out.push(('R', x + 1));
///         }
///     }
///     fn is_goal(&self, &x: &u8) -> bool {
///         x == 4
///     }
/// }
/// let r = bfs(&Corridor, &Limits::none());
/// assert_eq!(r.outcome.solution(), Some(&['R'; 4][..]));
/// ```
///
/// For a quick experiment, [`from_fn`] makes a puzzle from closures.
pub trait Puzzle {
    /// A position. Keep it small: it is hashed and stored once per reachable position.
    type State: Clone + Eq + Hash;
    /// A move, as the game reports it.
    type Move: Clone;

    /// The start position.
    fn start(&self) -> Self::State;
    /// Appends every legal move from `state` with the position it leads to. `out` is empty
    /// when called.
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Move, Self::State)>);
    /// Calls `f` with every successor state, for searches that need no moves (enumeration).
    /// The default collects [`Puzzle::successors`]; games override it to skip the list.
    fn for_each_next<F: FnMut(Self::State)>(&self, state: &Self::State, mut f: F)
    where
        Self: Sized,
    {
        let mut buf = Vec::new();
        self.successors(state, &mut buf);
        for (_, s) in buf {
            f(s);
        }
    }
    /// Calls `f(rank, successor)` with every successor of each state whose rank is in
    /// `ranks` (increasing), as [`Puzzle::for_each_next_ranked`] does for one state. The
    /// default rebuilds each state with [`Puzzle::unrank`]; games override it to rebuild a
    /// state from the one before.
    fn for_each_next_of_ranks<F: FnMut(u64, Self::State)>(&self, ranks: &[u64], mut f: F)
    where
        Self: Sized,
    {
        for &r in ranks {
            let s = self.unrank(r).expect("a state's rank gives the state back");
            self.for_each_next_ranked(&s, r, &mut f);
        }
    }
    /// Appends to `out` the rank of every successor of each state whose rank is in `ranks`
    /// (increasing): [`Puzzle::for_each_next_of_ranks`] for the enumerations that keep
    /// ranks only. A game may override it where the ranks alone come cheaper; the default
    /// drops the states.
    fn next_ranks_of_ranks(&self, ranks: &[u64], out: &mut Vec<u64>)
    where
        Self: Sized,
    {
        self.for_each_next_of_ranks(ranks, |r, _| out.push(r));
    }
    /// Whether `state` solves the puzzle.
    fn is_goal(&self, state: &Self::State) -> bool;
    /// An admissible lower bound on the number of moves from `state` to a goal (never more
    /// than the true distance). The default, 0, is always admissible.
    fn lower_bound(&self, _state: &Self::State) -> u32 {
        0
    }
    /// A second test, costlier than [`Puzzle::lower_bound`] and asked only where it pays:
    /// whether `state` certainly needs more than `need` moves to a goal. `true` must be a
    /// proof; `false` may mean "cannot tell". A* with a cap asks it of each position it is
    /// about to expand, with `need` the moves left under the cap, and does not expand the
    /// positions it clears. The default tells nothing.
    fn exceeds(&self, _state: &Self::State, _need: u32) -> bool {
        false
    }
    /// The size of a perfect hash of the states, when the game has one: [`Puzzle::rank`]
    /// then maps every reachable state injectively into `0..rank_space()`.
    fn rank_space(&self) -> Option<u64> {
        None
    }
    /// The perfect hash of `state` (see [`Puzzle::rank_space`]).
    fn rank(&self, _state: &Self::State) -> Option<u64> {
        None
    }
    /// Calls `f(rank, successor)` with every successor state of `state` (whose rank is
    /// `rank`) and the successor's rank, for puzzles with a perfect hash. The default ranks
    /// each successor afresh; games whose moves change little of a state override it to
    /// update `rank` instead.
    fn for_each_next_ranked<F: FnMut(u64, Self::State)>(
        &self,
        state: &Self::State,
        rank: u64,
        mut f: F,
    ) where
        Self: Sized,
    {
        let _ = rank;
        self.for_each_next(state, |t| {
            let r = self
                .rank(&t)
                .expect("a puzzle with a rank space ranks every state");
            f(r, t)
        });
    }
    /// At most how many states there are, when the game bounds them, even beyond 2^64 where
    /// it has no perfect hash (the estimate made before an enumeration). By default the
    /// size of the perfect hash.
    fn state_bound(&self) -> Option<f64> {
        self.rank_space().map(|n| n as f64)
    }
    /// The state of perfect hash `rank`, the inverse of [`Puzzle::rank`], when the game can
    /// rebuild a state from its rank (distributed and out-of-core enumerations exchange and
    /// store ranks only). `None` when it cannot, or when no state has this rank.
    fn unrank(&self, _rank: u64) -> Option<Self::State> {
        None
    }
    /// The piece a move displaces, as the cell it leaves and the cell it rests on (any
    /// game-specific numbering), for cost models that count changes of piece
    /// ([`ChangePenalty`]). `None` (the default) when moves do not displace one piece.
    fn piece_moved(&self, _m: &Self::Move) -> Option<(u32, u32)> {
        None
    }
    /// One uniformly random *attempt* in the game's action space from `state`, for the
    /// random algorithm and Monte Carlo search ([`playout`]): the move and the state it leads
    /// to, or `None` when the attempt is impossible (the state then stays as it is).
    ///
    /// The default draws one of [`Puzzle::successors`] uniformly (one `random_range` draw),
    /// so every attempt is a legal move and `None` means that there is none
    /// ([`Puzzle::NONE_MEANS_STUCK`]). A game whose action space is larger than its legal
    /// moves overrides both (ice blocks: every (block, direction) pair, legal or not). This
    /// is the hot path of Monte Carlo search: overrides should not allocate.
    fn random_move<G: rand::Rng + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut G,
    ) -> Option<(Self::Move, Self::State)>
    where
        Self: Sized,
    {
        let mut all = Vec::new();
        self.successors(state, &mut all);
        if all.is_empty() {
            return None;
        }
        let i = rand::RngExt::random_range(rng, 0..all.len());
        Some(all.swap_remove(i))
    }
    /// How many symmetries the puzzle folds in [`Puzzle::canonical`] and
    /// [`Puzzle::canonical_successors`]: 1 (the default) when it folds none. A symmetry maps
    /// every position to one as far from a goal (goals to goals, moves to moves), so a search
    /// for the fewest moves may store one position of each class; A* does
    /// ([`astar_proving`]), and rebuilds its solution's moves from the start.
    fn symmetries(&self) -> usize {
        1
    }
    /// The representative of the class of `state` under the puzzle's symmetries (see
    /// [`Puzzle::symmetries`]): the same for every position of a class. The default is
    /// `state` itself.
    fn canonical(&self, state: &Self::State) -> Self::State {
        state.clone()
    }
    /// [`Puzzle::successors`] with each successor replaced by [`Puzzle::canonical`] of it
    /// (the moves as they are: from `state` to the successor before it was replaced). The
    /// default folds nothing.
    fn canonical_successors(&self, state: &Self::State, out: &mut Vec<(Self::Move, Self::State)>) {
        self.successors(state, out)
    }
    /// Bytes of a state packed by [`Puzzle::pack`], when the puzzle packs its states
    /// (0, the default, when it does not): a search that keeps many states, A*, then keeps
    /// them packed, which can take a fraction of the memory of the state itself.
    fn packed_len(&self) -> usize {
        0
    }
    /// Writes `state` into `out` ([`Puzzle::packed_len`] bytes, zeroed when called). Equal
    /// states pack to equal bytes, different ones to different bytes.
    fn pack(&self, _state: &Self::State, _out: &mut [u8]) {}
    /// The state [`Puzzle::pack`] wrote into `bytes`, when the puzzle packs its states.
    fn unpack(&self, _bytes: &[u8]) -> Option<Self::State> {
        None
    }
    /// Whether `None` from [`Puzzle::random_move`] means that the position has no legal move
    /// at all: a random game then ends at once instead of drawing on to its cap, which changes
    /// no outcome (the position can never change) but saves the futile draws.
    const NONE_MEANS_STUCK: bool = true;
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<M> {
    /// A solution: the moves from the start.
    Solved(Vec<M>),
    /// Every reachable state was explored and none is a goal: a proof that there is none.
    Unsolvable,
    /// A limit stopped the search before it could answer.
    Limit(LimitKind),
}

impl<M> Outcome<M> {
    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&[M]> {
        match self {
            Outcome::Solved(m) => Some(m),
            _ => None,
        }
    }
}

/// How a solve ended, as the games report it: solved (the solution replayed), proved
/// unsolvable (everything reachable explored), or stopped by a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A solution was found.
    Solved,
    /// Every reachable state was explored: there is no solution.
    Unsolvable,
    /// A limit stopped the search.
    Limit(LimitKind),
}

impl Status {
    /// `solved`, `unsolvable` or `limit`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit(_) => "limit",
        }
    }
}

impl<M> From<&Outcome<M>> for Status {
    fn from(o: &Outcome<M>) -> Status {
        match o {
            Outcome::Solved(_) => Status::Solved,
            Outcome::Unsolvable => Status::Unsolvable,
            Outcome::Limit(l) => Status::Limit(*l),
        }
    }
}

/// A puzzle searched from another position than its start: every search then answers for
/// that position (the player's hint, "can this position still be solved").
///
/// ```
/// use floe::search::{bfs, from_fn, Limits, StartAt};
/// // reach 10 from 1 by adding one or doubling: 4 moves from the start
/// let p = from_fn(1u32, |&x| [('+', x + 1), ('*', 2 * x)], |&x| x == 10);
/// // from 5, one doubling is enough
/// let r = bfs(&StartAt { puzzle: &p, start: 5 }, &Limits::none());
/// assert_eq!(r.outcome.solution(), Some(&['*'][..]));
/// ```
pub struct StartAt<'a, P: Puzzle> {
    /// The puzzle.
    pub puzzle: &'a P,
    /// The position to start from.
    pub start: P::State,
}

/// The methods of [`Puzzle`] that a puzzle wrapping another (in its field `$inner`) hands to
/// it unchanged, named one by one: a wrapper states which it forwards, and a method it does
/// not name keeps the trait's default (so a forgotten one is seen in the list, not lost).
macro_rules! forward_puzzle {
    ($inner:ident: $($m:ident),* $(,)?) => { $( forward_puzzle!(@ $inner $m); )* };
    (@ $i:ident start) => { fn start(&self) -> Self::State { self.$i.start() } };
    (@ $i:ident successors) => {
        fn successors(&self, s: &Self::State, out: &mut Vec<(Self::Move, Self::State)>) {
            self.$i.successors(s, out)
        }
    };
    (@ $i:ident for_each_next) => {
        fn for_each_next<F: FnMut(Self::State)>(&self, s: &Self::State, f: F) {
            self.$i.for_each_next(s, f)
        }
    };
    (@ $i:ident is_goal) => { fn is_goal(&self, s: &Self::State) -> bool { self.$i.is_goal(s) } };
    (@ $i:ident lower_bound) => {
        fn lower_bound(&self, s: &Self::State) -> u32 { self.$i.lower_bound(s) }
    };
    (@ $i:ident exceeds) => {
        fn exceeds(&self, s: &Self::State, need: u32) -> bool { self.$i.exceeds(s, need) }
    };
    (@ $i:ident rank_space) => { fn rank_space(&self) -> Option<u64> { self.$i.rank_space() } };
    (@ $i:ident rank) => { fn rank(&self, s: &Self::State) -> Option<u64> { self.$i.rank(s) } };
    (@ $i:ident for_each_next_of_ranks) => {
        fn for_each_next_of_ranks<F: FnMut(u64, Self::State)>(&self, r: &[u64], f: F) {
            self.$i.for_each_next_of_ranks(r, f)
        }
    };
    (@ $i:ident next_ranks_of_ranks) => {
        fn next_ranks_of_ranks(&self, r: &[u64], out: &mut Vec<u64>) {
            self.$i.next_ranks_of_ranks(r, out)
        }
    };
    (@ $i:ident for_each_next_ranked) => {
        fn for_each_next_ranked<F: FnMut(u64, Self::State)>(&self, s: &Self::State, r: u64, f: F) {
            self.$i.for_each_next_ranked(s, r, f)
        }
    };
    (@ $i:ident state_bound) => { fn state_bound(&self) -> Option<f64> { self.$i.state_bound() } };
    (@ $i:ident unrank) => { fn unrank(&self, r: u64) -> Option<Self::State> { self.$i.unrank(r) } };
    (@ $i:ident piece_moved) => {
        fn piece_moved(&self, m: &Self::Move) -> Option<(u32, u32)> { self.$i.piece_moved(m) }
    };
    (@ $i:ident random_move) => {
        fn random_move<G: rand::Rng + ?Sized>(
            &self,
            state: &Self::State,
            rng: &mut G,
        ) -> Option<(Self::Move, Self::State)> {
            self.$i.random_move(state, rng)
        }
    };
    (@ $i:ident symmetries) => { fn symmetries(&self) -> usize { self.$i.symmetries() } };
    (@ $i:ident canonical) => {
        fn canonical(&self, s: &Self::State) -> Self::State { self.$i.canonical(s) }
    };
    (@ $i:ident canonical_successors) => {
        fn canonical_successors(&self, s: &Self::State, out: &mut Vec<(Self::Move, Self::State)>) {
            self.$i.canonical_successors(s, out)
        }
    };
    (@ $i:ident packed_len) => { fn packed_len(&self) -> usize { self.$i.packed_len() } };
    (@ $i:ident pack) => {
        fn pack(&self, s: &Self::State, out: &mut [u8]) { self.$i.pack(s, out) }
    };
    (@ $i:ident unpack) => {
        fn unpack(&self, bytes: &[u8]) -> Option<Self::State> { self.$i.unpack(bytes) }
    };
}
pub(crate) use forward_puzzle;

impl<P: Puzzle> Puzzle for StartAt<'_, P> {
    type State = P::State;
    type Move = P::Move;
    fn start(&self) -> P::State {
        self.start.clone()
    }
    const NONE_MEANS_STUCK: bool = P::NONE_MEANS_STUCK;
    forward_puzzle!(puzzle: successors, for_each_next, is_goal, lower_bound, exceeds, rank_space, rank,
        for_each_next_ranked, for_each_next_of_ranks, next_ranks_of_ranks, state_bound, unrank, piece_moved, random_move, symmetries, canonical,
        canonical_successors, packed_len, pack, unpack);
}

/// What a search explored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Distinct search nodes stored (states; for [`dijkstra`] and [`astar`] with a cost model
    /// that remembers something, pairs of state and memory).
    pub states: u64,
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// Successors generated, duplicates included.
    pub generated: u64,
    /// Deepest move count reached.
    pub depth: u32,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// The answer of a search: outcome, cost of the solution (if any) and statistics.
#[derive(Clone, Debug)]
pub struct SearchResult<M, C> {
    /// Solved, unsolvable, or stopped by a limit.
    pub outcome: Outcome<M>,
    /// Cost of the solution under the search's cost model.
    pub cost: Option<C>,
    /// What was explored.
    pub stats: Stats,
}

impl<M> SearchResult<M, u64> {
    /// The result of a search whose cost is the number of moves.
    pub(crate) fn counting_moves(outcome: Outcome<M>, stats: Stats) -> Self {
        let cost = outcome.solution().map(|m| m.len() as u64);
        SearchResult {
            outcome,
            cost,
            stats,
        }
    }
}

/// Follows parent links from node `at` back to the root, returning the moves in order.
fn trace_back<M: Clone>(parents: &[u32], moves: &[Option<M>], mut at: usize) -> Vec<M> {
    let mut path = Vec::new();
    while let Some(m) = &moves[at] {
        path.push(m.clone());
        at = parents[at] as usize;
    }
    path.reverse();
    path
}

#[cfg(test)]
pub(crate) mod testing {
    //! Tiny puzzles for testing the algorithms without any game.
    use super::Puzzle;

    /// Walk on the integers from `start` to `goal`; moves +1, -1 and ×2 (a move is its label).
    /// States are limited to `0..=limit`.
    pub struct Line {
        pub start: i64,
        pub goal: i64,
        pub limit: i64,
    }

    impl Line {
        /// The walk from `start` to `goal` on `0..=limit`.
        pub fn new(start: i64, goal: i64, limit: i64) -> Line {
            Line { start, goal, limit }
        }
    }

    impl Puzzle for Line {
        type State = i64;
        type Move = char;
        fn start(&self) -> i64 {
            self.start
        }
        fn successors(&self, s: &i64, out: &mut Vec<(char, i64)>) {
            for (m, t) in [('+', s + 1), ('-', s - 1), ('*', s * 2)] {
                if (0..=self.limit).contains(&t) && t != *s {
                    out.push((m, t));
                }
            }
        }
        fn is_goal(&self, s: &i64) -> bool {
            *s == self.goal
        }
        fn lower_bound(&self, s: &i64) -> u32 {
            // each move at most doubles, so reaching goal from s needs at least
            // log2(goal/s) moves when below it; 1 when not at the goal otherwise.
            if *s == self.goal {
                0
            } else if *s > 0 && *s < self.goal {
                let mut k = 0;
                let mut x = *s;
                while x < self.goal {
                    x *= 2;
                    k += 1;
                }
                k
            } else {
                1
            }
        }
        fn rank_space(&self) -> Option<u64> {
            Some(self.limit as u64 + 1)
        }
        fn rank(&self, s: &i64) -> Option<u64> {
            Some(*s as u64)
        }
        fn unrank(&self, r: u64) -> Option<i64> {
            (r <= self.limit as u64).then_some(r as i64)
        }
    }

    /// Applies moves of [`Line`] from a start value.
    pub fn replay_line(start: i64, moves: &[char]) -> i64 {
        moves.iter().fold(start, |x, m| match m {
            '+' => x + 1,
            '-' => x - 1,
            _ => x * 2,
        })
    }
}
