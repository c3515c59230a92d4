//! Two searches for hard levels, over any [`Puzzle`] with small integer bounds:
//!
//! - [`astar_proving`]: A* with one bucket per value of `f = g + h`. Besides the optimal
//!   solution it reports, when a limit stops it, the bound it has *proved*: the smallest `f`
//!   still open. (At any time some node of an optimal path is open with its optimal `g`, so
//!   the smallest open `f` never exceeds the optimum, even with an inconsistent bound, as
//!   nodes found again more cheaply are reopened.) Nodes cost a state, a parent index, a
//!   move and two bytes of `g` (solutions of up to 65,535 moves).
//! - [`beam`]: breadth-first layers cut to the `width` most promising positions (fewest
//!   fires, then lowest bound): no proof, but solutions of levels far beyond exhaustive
//!   search. Its length is an upper bound on the optimum.

use super::learned::{Informed, Learned, UNSOLVABLE};
use super::limits::Budget;
use super::{LimitKind, Limits, Outcome, Puzzle, Stats};
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// The answer of [`astar_proving`].
#[derive(Clone, Debug)]
pub struct Proving<M> {
    /// Solved (fewest moves), unsolvable, or stopped by a limit.
    pub outcome: Outcome<M>,
    /// A lower bound on the fewest moves, proved by what was searched (on a solution: its
    /// length).
    pub proved: u32,
    /// What was explored.
    pub stats: Stats,
}

/// The deepest `g` [`astar_proving`] stores.
const MAX_G: usize = u16::MAX as usize;

/// A* over f-buckets that proves a lower bound when it cannot finish; see the module notes.
/// `max_states` limits the stored positions; `Stats::depth` is the deepest `g` expanded. A
/// solution longer than 65,535 moves is beyond it: the search then ends with the
/// `max-states` limit rather than claim that there is none.
///
/// ```
/// use floe::search::{astar_proving, from_fn, Limits};
/// // from 1 to 10 by +1 or ×2, never past 10; "1 while not there" is an admissible bound
/// let p = from_fn(
///     1u32,
///     |&x| [('+', x + 1), ('*', 2 * x)].into_iter().filter(|&(_, y)| y <= 10),
///     |&x| x == 10,
/// )
/// .with_bound(|&x| u32::from(x != 10));
/// let r = astar_proving(&p, &Limits::none());
/// assert_eq!(r.outcome.solution().map(|m| m.len()), Some(4)); // 1 → 2 → 4 → 5 → 10
/// assert_eq!(r.proved, 4);
/// ```
pub fn astar_proving<P: Puzzle>(p: &P, limits: &Limits) -> Proving<P::Move>
where
    P::Move: Copy,
{
    proving(p, limits, None).0
}

/// [`astar_proving`] that looks only for solutions of at most `cap` moves: a position whose
/// `f = g + h` exceeds `cap` is not stored, so the memory goes to the positions that matter
/// for the proof (A* without a cap stores every position it generates, most of them beyond
/// the bound it ends up proving). The answer is a solution of at most `cap` moves (the
/// fewest), [`Outcome::Unsolvable`] when nothing was left out, or
/// [`LimitKind::MaxMoves`] with `proved` at least `cap + 1`: no solution of at most `cap`
/// moves exists. Other limits stop it as they stop [`astar_proving`], with the bound proved
/// so far.
///
/// ```
/// use floe::search::{astar_proving_upto, from_fn, LimitKind, Limits, Outcome};
/// // from 1 to 10 by +1 or ×2: four moves at least (1 → 2 → 4 → 5 → 10)
/// let p = from_fn(
///     1u32,
///     |&x| [('+', x + 1), ('*', 2 * x)].into_iter().filter(|&(_, y)| y <= 10),
///     |&x| x == 10,
/// );
/// let r = astar_proving_upto(&p, &Limits::none(), 3);
/// assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxMoves));
/// assert_eq!(r.proved, 4);
/// let r = astar_proving_upto(&p, &Limits::none(), 4);
/// assert_eq!(r.outcome.solution().map(|m| m.len()), Some(4));
/// ```
pub fn astar_proving_upto<P: Puzzle>(p: &P, limits: &Limits, cap: u32) -> Proving<P::Move>
where
    P::Move: Copy,
{
    proving(p, limits, Some(cap)).0
}

/// [`astar_proving`] guided by, and teaching, what earlier searches of the same puzzle's
/// goals proved (see [`Learned`]): the search runs on [`Informed`], then files for each
/// position it stored the bound its answer proves there. The answer is
/// [`astar_proving`]'s (the fewest moves, unsolvable, or the bound proved by a limit), found
/// by expanding fewer positions when earlier searches covered the ground.
///
/// ```
/// use floe::search::{astar_learning, from_fn, Learned, Limits, Puzzle};
/// // from x to 20 by +1 or ×2 (never past 20)
/// let from = |x: u32| {
///     from_fn(
///         x,
///         |&x| [('+', x + 1), ('*', 2 * x)].into_iter().filter(|&(_, y)| y <= 20),
///         |&x| x == 20,
///     )
/// };
/// let mut learned = Learned::new(1000);
/// let first = astar_learning(&from(1), &Limits::none(), &mut learned);
/// assert_eq!(first.proved, 5); // 1 2 4 5 10 20
/// assert_eq!(learned.exact(&4), Some(3)); // on that solution: 4 5 10 20
/// // a later question from 3, helped by what was learned
/// let later = astar_learning(&from(3), &Limits::none(), &mut learned);
/// assert_eq!(later.outcome.solution().map(|m| m.len()), Some(4)); // 3 4 5 10 20
/// ```
pub fn astar_learning<P: Puzzle>(
    p: &P,
    limits: &Limits,
    learned: &mut Learned<P::State>,
) -> Proving<P::Move>
where
    P::Move: Copy,
{
    // the table keeps canonical positions (see `Informed`)
    let s0 = p.canonical(&p.start());
    if learned.get(&s0) == Some(UNSOLVABLE) {
        let mut stats = Stats {
            states: 1,
            ..Stats::default()
        };
        stats.elapsed = std::time::Duration::ZERO;
        return Proving {
            outcome: Outcome::Unsolvable,
            proved: UNSOLVABLE,
            stats,
        };
    }
    if let Some(r) = replay_exact(p, learned) {
        return r;
    }
    let (r, nodes) = proving(&Informed { puzzle: p, learned }, limits, None);
    let Nodes { states, g, path } = nodes;
    match &r.outcome {
        Outcome::Unsolvable => {
            for s in &states {
                learned.learn(s, UNSOLVABLE);
            }
        }
        // solved: `proved` is the optimum; stopped by a limit: the bound proved at the start
        Outcome::Solved(_) | Outcome::Limit(_) => {
            let bound = |i: usize| r.proved.saturating_sub(g[i] as u32);
            // the solution's positions first: their bounds are exact, and the table may fill
            for &i in &path {
                learned.learn_exact(&states[i as usize], bound(i as usize));
            }
            for (i, s) in states.iter().enumerate() {
                let b = bound(i);
                if b > p.lower_bound(s) && learned.get(s).is_none_or(|l| l < b) {
                    learned.learn(s, b);
                }
            }
        }
    }
    r
}

/// The solution of a start on a path proved optimal before: from each position, the move to a
/// successor filed exact with one move fewer. `None` when the start is not such a position.
fn replay_exact<P: Puzzle>(p: &P, learned: &Learned<P::State>) -> Option<Proving<P::Move>>
where
    P::Move: Copy,
{
    let began = std::time::Instant::now();
    let mut s = p.start();
    let total = learned.exact(&p.canonical(&s))?;
    let mut path = Vec::new();
    let mut buf = Vec::new();
    let mut stats = Stats::default();
    for left in (0..total).rev() {
        buf.clear();
        p.successors(&s, &mut buf);
        stats.expanded += 1;
        stats.generated += buf.len() as u64;
        let (m, t) = buf
            .drain(..)
            .find(|(_, t)| learned.exact(&p.canonical(t)) == Some(left))?;
        path.push(m);
        s = t;
    }
    if !p.is_goal(&s) {
        return None;
    }
    stats.states = path.len() as u64 + 1;
    stats.depth = total;
    stats.elapsed = began.elapsed();
    Some(Proving {
        outcome: Outcome::Solved(path),
        proved: total,
        stats,
    })
}

/// What [`proving`] stored.
struct Nodes<S> {
    /// The positions.
    states: Vec<S>,
    /// The length of the path each was reached by.
    g: Vec<u16>,
    /// On a solution, its positions (indices), from the goal back to the start.
    path: Vec<u32>,
}

impl<S> Nodes<S> {
    fn new(states: Vec<S>, g: Vec<u16>) -> Nodes<S> {
        Nodes {
            states,
            g,
            path: Vec::new(),
        }
    }
}

/// [`astar_proving`], also handing back the stored positions; one position expanded at a
/// time.
fn proving<P: Puzzle>(
    p: &P,
    limits: &Limits,
    cap: Option<u32>,
) -> (Proving<P::Move>, Nodes<P::State>)
where
    P::Move: Copy,
{
    proving_in_batches(p, limits, cap, 1, |states, needs, out, cleared| {
        cleared[0] = screen(p, &states[0], needs[0]);
        if !cleared[0] {
            p.canonical_successors(&states[0], &mut out[0]);
        }
    })
}

/// [`astar_proving`] and [`astar_proving_upto`] with the positions of each batch expanded
/// by `threads` worker threads (the current rayon pool's when `threads` is 0).
///
/// The batch is up to [`PARALLEL_BATCH`] positions of the smallest open `f`, taken in the
/// order the search takes them one at a time; their successors are generated at once (by
/// every worker: in a game whose successors are judged, as Ice Tower's, that is most of the
/// work), then filed one position after the other. The answer is the same as with one
/// worker: the fewest moves, the same proof that there is no solution within the cap (the
/// same positions stored), or the same bound proved; only which of several shortest
/// solutions is found, and how often a position is expanded again when it is found by a
/// shorter path, may differ. The results do not depend on the number of workers.
///
/// ```
/// use floe::search::{astar_proving_par, from_fn, Limits};
/// let p = from_fn(
///     1u32,
///     |&x| [('+', x + 1), ('*', 2 * x)].into_iter().filter(|&(_, y)| y <= 100),
///     |&x| x == 100,
/// )
/// .with_bound(|&x| u32::from(x != 100));
/// let r = astar_proving_par(&p, &Limits::none(), None, 2);
/// assert_eq!(r.proved, 8); // 1 2 3 6 12 24 25 50 100
/// ```
pub fn astar_proving_par<P>(
    p: &P,
    limits: &Limits,
    cap: Option<u32>,
    threads: usize,
) -> Proving<P::Move>
where
    P: Puzzle + Sync,
    P::State: Send + Sync,
    P::Move: Copy + Send,
{
    use rayon::prelude::*;
    let run = || {
        proving_in_batches(
            p,
            limits,
            cap,
            PARALLEL_BATCH,
            |states, needs, out, cleared| {
                states
                    .par_iter()
                    .zip(needs)
                    .zip(out.par_iter_mut().zip(cleared.par_iter_mut()))
                    // a position screened against the cap may cost a search of its own
                    .with_min_len(if cap.is_some() { 1 } else { 64 })
                    .for_each(|((s, &need), (out, cleared))| {
                        *cleared = screen(p, s, need);
                        if !*cleared {
                            p.canonical_successors(s, out);
                        }
                    });
            },
        )
        .0
    };
    if threads == 0 || threads == rayon::current_num_threads() {
        return run();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        // no threads to be had: one at a time, with the same answer
        Err(_) => run(),
    }
}

/// Whether a position about to be expanded with at most `need` moves left under the cap
/// ([`NO_CAP`]: no cap) is cleared by the puzzle's costlier test ([`Puzzle::exceeds`]).
fn screen<P: Puzzle>(p: &P, s: &P::State, need: u32) -> bool {
    need != NO_CAP && p.exceeds(s, need)
}

/// The moves left of a search without a cap.
const NO_CAP: u32 = u32::MAX;

/// Positions expanded at once by [`astar_proving_par`].
pub const PARALLEL_BATCH: usize = 512;

/// Where A* keeps its states: as they are, or packed by the puzzle ([`Puzzle::pack`]).
enum Arena<S> {
    Plain(Vec<S>),
    Packed {
        bytes: Vec<u8>,
        /// Bytes a state.
        len: usize,
    },
}

impl<S: Clone + Eq + std::hash::Hash> Arena<S> {
    fn new<P: Puzzle<State = S>>(p: &P) -> Arena<S> {
        match p.packed_len() {
            0 => Arena::Plain(Vec::new()),
            len => Arena::Packed {
                bytes: Vec::new(),
                len,
            },
        }
    }
    fn len(&self) -> usize {
        match self {
            Arena::Plain(v) => v.len(),
            Arena::Packed { bytes, len } => bytes.len() / len,
        }
    }
    /// Bytes a state takes.
    fn state_bytes(&self) -> usize {
        match self {
            Arena::Plain(_) => std::mem::size_of::<S>(),
            Arena::Packed { len, .. } => *len,
        }
    }
    /// `s` as it is kept (its packed bytes in `key`, for a packed arena) and its hash.
    fn key<P: Puzzle<State = S>>(&self, p: &P, s: &S, key: &mut Vec<u8>) -> u64 {
        match self {
            Arena::Plain(_) => FxBuildHasher.hash_one(s),
            Arena::Packed { len, .. } => {
                key.clear();
                key.resize(*len, 0);
                p.pack(s, key);
                FxBuildHasher.hash_one(&key[..])
            }
        }
    }
    /// The hash of state `i`, as [`Arena::key`] gave it.
    fn hash_of(&self, i: usize) -> u64 {
        match self {
            Arena::Plain(v) => FxBuildHasher.hash_one(&v[i]),
            Arena::Packed { bytes, len } => FxBuildHasher.hash_one(&bytes[i * len..(i + 1) * len]),
        }
    }
    /// Whether state `i` is `s` (packed as `key`).
    #[inline]
    fn is(&self, i: usize, s: &S, key: &[u8]) -> bool {
        match self {
            Arena::Plain(v) => v[i] == *s,
            Arena::Packed { bytes, len } => same(&bytes[i * len..(i + 1) * len], key),
        }
    }
    fn get<P: Puzzle<State = S>>(&self, p: &P, i: usize) -> S {
        match self {
            Arena::Plain(v) => v[i].clone(),
            Arena::Packed { bytes, len } => p
                .unpack(&bytes[i * len..(i + 1) * len])
                .expect("a puzzle that packs its states unpacks them"),
        }
    }
    fn push(&mut self, s: S, key: &[u8]) {
        match self {
            Arena::Plain(v) => v.push(s),
            Arena::Packed { bytes, .. } => bytes.extend_from_slice(key),
        }
    }
    fn try_reserve_exact(&mut self, more: usize) -> bool {
        match self {
            Arena::Plain(v) => v.try_reserve_exact(more).is_ok(),
            Arena::Packed { bytes, len } => bytes.try_reserve_exact(more * *len).is_ok(),
        }
    }
    fn into_states<P: Puzzle<State = S>>(self, p: &P) -> Vec<S> {
        match self {
            Arena::Plain(v) => v,
            Arena::Packed { .. } => (0..self.len()).map(|i| self.get(p, i)).collect(),
        }
    }
}

/// Whether two packed states of the same length are equal, eight bytes at a time.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("eight bytes"));
    let (x, y) = (a.chunks_exact(8), b.chunks_exact(8));
    let (rx, ry) = (x.remainder(), y.remainder());
    x.zip(y).all(|(p, q)| word(p) == word(q)) && rx == ry
}

/// The moves of a solution whose positions (`path`, from the start) are the canonical ones
/// of [`Puzzle::canonical`]: from the start, each time the move to a successor whose
/// canonical position is the next. `None` if some step has no such move (the positions are
/// not a path of `p`).
fn moves_through<P: Puzzle>(p: &P, path: &[P::State]) -> Option<Vec<P::Move>> {
    let mut at = p.start();
    let mut moves = Vec::with_capacity(path.len());
    let mut buf = Vec::new();
    for next in path.iter().skip(1) {
        buf.clear();
        p.successors(&at, &mut buf);
        let (m, t) = buf.drain(..).find(|(_, t)| p.canonical(t) == *next)?;
        moves.push(m);
        at = t;
    }
    Some(moves)
}

/// The search of [`astar_proving`]: positions taken `batch` at a time from the bucket of the
/// smallest open `f` (deepest `g` first), their successors made by `expand(states, out)` into
/// `out[i]` for the `i`-th position of the batch (each empty when called; the puzzle's
/// [`Puzzle::canonical_successors`]), then filed in the batch's order. The positions are
/// kept packed when the puzzle packs them ([`Puzzle::pack`]), one of each class of its
/// symmetries ([`Puzzle::symmetries`]).
fn proving_in_batches<P: Puzzle>(
    p: &P,
    limits: &Limits,
    cap: Option<u32>,
    batch_size: usize,
    mut expand: impl FnMut(&[P::State], &[u32], &mut [Vec<(P::Move, P::State)>], &mut [bool]),
) -> (Proving<P::Move>, Nodes<P::State>)
where
    P::Move: Copy,
{
    let mut a = Astar::new(p, limits, cap, batch_size);
    let s0 = p.canonical(&p.start());
    let h0 = p.lower_bound(&s0);
    if h0 as usize > a.cap {
        return a.beyond_cap(s0, h0);
    }
    a.open_start(s0, h0);
    loop {
        if !a.open_bucket() {
            return a.exhausted();
        }
        // the batch: positions of bucket f, deepest first, goals answered at once
        match a.take_batch() {
            Ok(()) => {}
            Err(Stop::Goal(n)) => return a.solved(n),
            Err(Stop::Limit(l)) => return a.stopped(l),
        }
        if a.batch.is_empty() {
            continue;
        }
        let n = a.batch.len();
        expand(
            &a.batch_states,
            &a.needs,
            &mut a.made[..n],
            &mut a.cleared[..n],
        );
        if let Err(l) = a.file_batch() {
            return a.stopped(l);
        }
    }
}

/// What [`proving_in_batches`] answers: the proof, and the positions stored.
type Answer<P> = (Proving<<P as Puzzle>::Move>, Nodes<<P as Puzzle>::State>);

/// Why [`Astar::take_batch`] stopped before its batch was full: a goal (its node), or a limit.
enum Stop {
    Goal(usize),
    Limit(LimitKind),
}

/// The state of [`proving_in_batches`]: the positions stored (in `arena`, found by their
/// hash in `index`, with the length `g` of their path, its last move and their parent), the
/// buckets of the open ones, and the batch being expanded.
struct Astar<'a, P: Puzzle> {
    p: &'a P,
    arena: Arena<P::State>,
    budget: Budget<'a>,
    stats: Stats,
    index: HashTable<u32>,
    g: Vec<u16>,
    parent: Vec<u32>,
    moves: Vec<Option<P::Move>>,
    /// Whether a position stands for its class of symmetries.
    folded: bool,
    /// buckets[f][g]: nodes with that f, popped deepest g first (ties go to the deeper node)
    buckets: Vec<Vec<Vec<u32>>>,
    cap: usize,
    /// the least f of a position left out for passing `cap`
    over_cap: usize,
    /// The packed bytes of the position looked up.
    key: Vec<u8>,
    /// The bucket the batches are taken from: no smaller one is open.
    f: usize,
    batch_size: usize,
    batch: Vec<u32>,
    batch_states: Vec<P::State>,
    made: Vec<Vec<(P::Move, P::State)>>,
    /// The moves left under the cap to each position of the batch ([`NO_CAP`]: no cap).
    needs: Vec<u32>,
    /// Whether [`Puzzle::exceeds`] cleared it: it needs more than those moves.
    cleared: Vec<bool>,
    /// some node was left out for being deeper than MAX_G: "unsolvable" would be unproved
    truncated: bool,
}

impl<'a, P: Puzzle> Astar<'a, P>
where
    P::Move: Copy,
{
    /// The search with nothing stored yet.
    fn new(p: &'a P, limits: &'a Limits, cap: Option<u32>, batch_size: usize) -> Astar<'a, P> {
        let arena = Arena::new(p);
        let budget = Budget::new(limits).storing_bytes(arena.state_bytes());
        Astar {
            p,
            arena,
            budget,
            stats: Stats::default(),
            index: HashTable::new(),
            g: Vec::new(),
            parent: Vec::new(),
            moves: Vec::new(),
            folded: p.symmetries() > 1,
            buckets: Vec::new(),
            cap: cap.map_or(usize::MAX, |c| c as usize),
            over_cap: usize::MAX,
            key: Vec::new(),
            f: 0,
            batch_size,
            batch: Vec::with_capacity(batch_size),
            batch_states: Vec::with_capacity(batch_size),
            made: Vec::new(),
            needs: Vec::with_capacity(batch_size),
            cleared: Vec::new(),
            truncated: false,
        }
    }

    /// The answer when the bound `h0` of the start `s0` passes the cap: nothing is searched.
    fn beyond_cap(self, s0: P::State, h0: u32) -> Answer<P> {
        let r = Proving {
            outcome: Outcome::Limit(LimitKind::MaxMoves),
            proved: h0,
            stats: Stats {
                states: 1,
                elapsed: self.budget.elapsed(),
                ..Stats::default()
            },
        };
        (r, Nodes::new(vec![s0], vec![0]))
    }

    /// Stores the start `s0` (its bound `h0`) and opens it.
    fn open_start(&mut self, s0: P::State, h0: u32) {
        let p = self.p;
        let h = self.arena.key(p, &s0, &mut self.key);
        self.index.insert_unique(h, 0, |_| 0);
        self.arena.push(s0, &self.key);
        self.g.push(0);
        self.parent.push(0);
        self.moves.push(None);
        self.stats.states = 1;
        push_bucket(&mut self.buckets, h0 as usize, 0, 0);
        self.f = h0 as usize;
        self.made.resize_with(self.batch_size, Vec::new);
        self.cleared.resize(self.batch_size, false);
    }

    /// Moves `f` to the smallest bucket with an open node; false when there is none.
    fn open_bucket(&mut self) -> bool {
        let (buckets, f) = (&self.buckets, &mut self.f);
        while *f < buckets.len() && buckets[*f].iter().all(Vec::is_empty) {
            *f += 1;
        }
        *f < buckets.len()
    }

    /// The batch: up to `batch_size` positions of bucket `f` to expand, deepest `g` first,
    /// each counted as expanded. Stops at a goal, or at a limit.
    fn take_batch(&mut self) -> Result<(), Stop> {
        let (p, g, stats) = (self.p, &self.g, &mut self.stats);
        let (batch, batch_states) = (&mut self.batch, &mut self.batch_states);
        batch.clear();
        batch_states.clear();
        self.needs.clear();
        let b = &mut self.buckets[self.f];
        while batch.len() < self.batch_size {
            while b.last().is_some_and(Vec::is_empty) {
                b.pop();
            }
            if b.is_empty() {
                break;
            }
            let pushed_g = (b.len() - 1) as u16;
            let n = b[pushed_g as usize].pop().expect("non-empty bucket") as usize;
            if g[n] != pushed_g {
                continue; // stale: found again more cheaply since
            }
            let gn = g[n] as usize;
            let sn = self.arena.get(p, n);
            if p.is_goal(&sn) {
                return Err(Stop::Goal(n));
            }
            stats.expanded += 1;
            stats.depth = stats.depth.max(gn as u32);
            if let Some(l) = self.budget.tick(stats) {
                return Err(Stop::Limit(l));
            }
            if gn + 1 > MAX_G {
                self.truncated = true;
                continue;
            }
            batch.push(n as u32);
            batch_states.push(sn);
            self.needs.push(match self.cap {
                usize::MAX => NO_CAP,
                cap => cap.saturating_sub(gn) as u32,
            });
        }
        Ok(())
    }

    /// Files the successors the batch's positions made: a position stored before is
    /// reopened when found by a shorter path, a new one stored and opened unless its bound
    /// passes `cap`. Stops at a limit on the stored positions.
    fn file_batch(&mut self) -> Result<(), LimitKind> {
        let (p, f, cap) = (self.p, self.f, self.cap);
        let (arena, index) = (&mut self.arena, &mut self.index);
        let (key, stats) = (&mut self.key, &mut self.stats);
        let (g, parent, moves) = (&mut self.g, &mut self.parent, &mut self.moves);
        for (k, &n) in self.batch.iter().enumerate() {
            if self.cleared[k] {
                // proved to need more than the cap allows
                self.over_cap = self.over_cap.min(cap + 1);
                continue;
            }
            let n = n as usize;
            let gt = g[n] as usize + 1;
            stats.generated += self.made[k].len() as u64;
            for (m, t) in self.made[k].drain(..) {
                let h = arena.key(p, &t, key);
                if let Some(&i) = index.find(h, |&i| arena.is(i as usize, &t, key)) {
                    let i = i as usize;
                    if (g[i] as usize) > gt {
                        g[i] = gt as u16;
                        parent[i] = n as u32;
                        moves[i] = Some(m);
                        let ft = gt + p.lower_bound(&t) as usize;
                        push_bucket(&mut self.buckets, ft.max(f), i as u32, gt as u16);
                    }
                    continue;
                }
                let ft = gt + p.lower_bound(&t) as usize;
                if ft > cap {
                    self.over_cap = self.over_cap.min(ft);
                    continue;
                }
                // a long search: room for every node the budget allows, at once
                self.budget.make_room(stats.states, |more| {
                    arena.try_reserve_exact(more)
                        && g.try_reserve_exact(more).is_ok()
                        && parent.try_reserve_exact(more).is_ok()
                        && moves.try_reserve_exact(more).is_ok()
                });
                if let Some(l) = self.budget.store_limit(stats.states) {
                    return Err(l);
                }
                let id = arena.len() as u32;
                index.insert_unique(h, id, |&i| arena.hash_of(i as usize));
                arena.push(t, key);
                g.push(gt as u16);
                parent.push(n as u32);
                moves.push(Some(m));
                stats.states += 1;
                // a bound below f (inconsistent) is still searched now: it cannot be later
                push_bucket(&mut self.buckets, ft.max(f), id, gt as u16);
            }
        }
        Ok(())
    }

    /// The answer when no node is open: no solution within `cap`, or none at all (unless
    /// nodes were left out for their depth).
    fn exhausted(self) -> Answer<P> {
        let f = self.f;
        let (outcome, proved) = if self.over_cap < usize::MAX {
            (Outcome::Limit(LimitKind::MaxMoves), self.over_cap as u32)
        } else if self.truncated {
            (Outcome::Limit(LimitKind::MaxStates), f as u32)
        } else {
            (Outcome::Unsolvable, f as u32)
        };
        self.end(outcome, proved)
    }

    /// The answer when limit `l` stopped the search: the bound `f` is proved.
    fn stopped(self, l: LimitKind) -> Answer<P> {
        let f = self.f;
        self.end(Outcome::Limit(l), f as u32)
    }

    /// The answer, with the positions stored.
    fn end(mut self, outcome: Outcome<P::Move>, proved: u32) -> Answer<P> {
        self.stats.elapsed = self.budget.elapsed();
        let r = Proving {
            outcome,
            proved,
            stats: self.stats,
        };
        (r, Nodes::new(self.arena.into_states(self.p), self.g))
    }

    /// The answer at goal `n`: the moves of its path (through the canonical positions when
    /// they are folded by symmetry), the fewest.
    fn solved(self, n: usize) -> Answer<P> {
        let (p, arena, g, parent, moves) = (self.p, self.arena, self.g, self.parent, self.moves);
        let mut stats = self.stats;
        let gn = g[n] as usize;
        let mut nodes = vec![n as u32];
        let mut at = n;
        while moves[at].is_some() {
            at = parent[at] as usize;
            nodes.push(at as u32);
        }
        let path = if self.folded {
            let states: Vec<P::State> = nodes
                .iter()
                .rev()
                .map(|&i| arena.get(p, i as usize))
                .collect();
            moves_through(p, &states).expect("the positions A* stored are a path of the puzzle")
        } else {
            let mut path: Vec<P::Move> = nodes.iter().filter_map(|&i| moves[i as usize]).collect();
            path.reverse();
            path
        };
        stats.depth = stats.depth.max(gn as u32);
        stats.elapsed = self.budget.elapsed();
        let r = Proving {
            outcome: Outcome::Solved(path),
            proved: gn as u32,
            stats,
        };
        (
            r,
            Nodes {
                states: arena.into_states(p),
                g,
                path: nodes,
            },
        )
    }
}

/// Opens node `n`, reached by a path of `g` moves, in bucket `f`.
#[inline]
fn push_bucket(buckets: &mut Vec<Vec<Vec<u32>>>, f: usize, n: u32, g: u16) {
    if buckets.len() <= f {
        buckets.resize_with(f + 1, Vec::new);
    }
    let b = &mut buckets[f];
    if b.len() <= g as usize {
        b.resize_with(g as usize + 1, Vec::new);
    }
    b[g as usize].push(n);
}

/// Beam search: layers of at most `width` positions, ordered by `key` (smaller first). Returns
/// a solution if one is found, with the statistics. No proof: "unsolvable" only means that
/// the beam emptied, and a solution need not be shortest (its length bounds the optimum).
///
/// ```
/// use floe::search::{beam, from_fn, Limits};
/// let p = from_fn(
///     1u32,
///     |&x| [('+', x + 1), ('*', 2 * x)].into_iter().filter(|&(_, y)| y <= 40),
///     |&x| x == 40,
/// );
/// // keep the two positions closest to 40 in each layer
/// let (outcome, _) = beam(&p, 2, &Limits::none(), |&x: &u32| 40u32.abs_diff(x));
/// assert!(outcome.solution().is_some());
/// ```
pub fn beam<P: Puzzle, K: Ord>(
    p: &P,
    width: usize,
    limits: &Limits,
    key: impl Fn(&P::State) -> K,
) -> (Outcome<P::Move>, Stats)
where
    P::Move: Copy,
{
    let mut budget = Budget::new(limits).storing::<P::State>();
    let hasher = FxBuildHasher;
    let mut stats = Stats::default();
    let mut seen: HashTable<u32> = HashTable::new();
    let mut states: Vec<P::State> = vec![p.start()];
    let mut parent: Vec<u32> = vec![0];
    let mut moves: Vec<Option<P::Move>> = vec![None];
    seen.insert_unique(hasher.hash_one(&states[0]), 0, |_| 0);
    stats.states = 1;
    let path_to = |mut at: usize, parent: &[u32], moves: &[Option<P::Move>]| {
        let mut path = Vec::new();
        while let Some(m) = moves[at] {
            path.push(m);
            at = parent[at] as usize;
        }
        path.reverse();
        path
    };
    if p.is_goal(&states[0]) {
        return (Outcome::Solved(Vec::new()), stats);
    }
    let mut layer: Vec<u32> = vec![0];
    let mut buf = Vec::new();
    while !layer.is_empty() {
        stats.depth += 1;
        let mut next: Vec<u32> = Vec::new();
        for &n in &layer {
            stats.expanded += 1;
            if let Some(l) = budget.tick(&stats) {
                stats.elapsed = budget.elapsed();
                return (Outcome::Limit(l), stats);
            }
            buf.clear();
            p.successors(&states[n as usize], &mut buf);
            stats.generated += buf.len() as u64;
            for (m, t) in buf.drain(..) {
                let h = hasher.hash_one(&t);
                if seen.find(h, |&i| states[i as usize] == t).is_some() {
                    continue;
                }
                if let Some(l) = budget.store_limit(stats.states) {
                    stats.elapsed = budget.elapsed();
                    return (Outcome::Limit(l), stats);
                }
                let id = states.len() as u32;
                seen.insert_unique(h, id, |&i| hasher.hash_one(&states[i as usize]));
                let goal = p.is_goal(&t);
                states.push(t);
                parent.push(n);
                moves.push(Some(m));
                stats.states += 1;
                if goal {
                    stats.elapsed = budget.elapsed();
                    return (
                        Outcome::Solved(path_to(id as usize, &parent, &moves)),
                        stats,
                    );
                }
                next.push(id);
            }
        }
        if next.len() > width {
            next.sort_by_cached_key(|&i| key(&states[i as usize]));
            next.truncate(width);
        }
        layer = next;
    }
    stats.elapsed = budget.elapsed();
    (Outcome::Unsolvable, stats)
}

#[cfg(test)]
#[path = "bounds_tests.rs"]
mod tests;
