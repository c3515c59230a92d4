//! Explicit state graphs: every reachable state indexed, edges in compressed rows,
//! strongly connected components.
//!
//! [`build_graph`] runs a breadth-first search from [`Puzzle::start`] and keeps everything it
//! sees: each reachable state once (in BFS order, so state 0 is the start and distances from
//! the start never decrease along the numbering), a hash index from states to their numbers,
//! and every edge `u → v` with its move, in the order [`Puzzle::successors`] produced them.
//! [`build_graph_with`] keeps a mapped label instead of the move; with `|_| ()` the labels
//! take no memory at all, which is what whole-graph analyses that only need the shape use.
//!
//! On the graph:
//!
//! - [`StateGraph::components`]: strongly connected components (sets of mutually reachable
//!   states), by an iterative form of Tarjan's algorithm in Pearce's space-efficient variant;
//!   components are numbered in **reverse topological order** of the condensation, so every
//!   edge `u → v` has `id(u) >= id(v)`.
//! - [`StateGraph::coreachable`]: the states from which one of a given set is reachable, by a
//!   breadth-first search over the reversed edges; [`Components::coreachable`] answers the
//!   same question from the components without building the reversed edges.
//!
//! # Memory
//!
//! Per state: the state itself once (arena), a 4-byte slot plus one control byte in the hash
//! index (at a load factor of at most 7/8), an 8-byte row offset and one goal bit. Per edge: a
//! 4-byte target and the label (nothing for `()`). Depths are not stored per state: BFS order
//! makes them a monotone sequence, kept as one start index per layer. States are numbered with
//! `u32`, so a graph holds fewer than 2³² states. MCTOD (4,253,287 states of 16 bytes,
//! 34,100,412 edges) takes 276 MB with unit labels; finding its components and solvable
//! states adds about 85 MB at the peak; keeping its moves (6 bytes each) would add 205 MB.

use super::limits::Budget;
use super::{LimitKind, Limits, Puzzle, Stats};
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::collections::VecDeque;
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::ops::Range;

/// Largest number of states a graph holds: state numbers, and the visit numbers of
/// [`StateGraph::components`] (which count from 1 and may go one past the states), are `u32`.
pub const MAX_GRAPH_STATES: u64 = u32::MAX as u64 - 1;

/// Every state reachable from a puzzle's start, with every move between them.
///
/// States are numbered `0..len()` in breadth-first order from the start (number 0). Edges are
/// stored in compressed-row form: the edges leaving state `i` are
/// `targets()[offsets()[i]..offsets()[i + 1]]` with labels at the same positions of
/// `moves()`, in the order the puzzle generated them; if two moves lead from one state to
/// the same state, both edges are kept.
#[derive(Clone)]
pub struct StateGraph<S, M> {
    states: Vec<S>,
    index: HashTable<u32>,
    /// `layers[d]` = number of the first state at distance `d`; the last entry is `len()`.
    layers: Vec<u32>,
    offsets: Vec<u64>,
    targets: Vec<u32>,
    moves: Vec<M>,
    /// Goal flags, one bit per state.
    goals: Vec<u64>,
    goal_count: u64,
}

impl<S, M> fmt::Debug for StateGraph<S, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateGraph")
            .field("states", &self.states.len())
            .field("edges", &self.targets.len())
            .field("depth", &self.max_depth())
            .field("goals", &self.goal_count)
            .finish()
    }
}

#[inline]
fn hash_of<T: Hash>(x: &T) -> u64 {
    FxBuildHasher.hash_one(x)
}

impl<S: Hash + Eq, M> StateGraph<S, M> {
    /// The number of `s`, if `s` is in the graph (reachable from the start).
    pub fn index_of(&self, s: &S) -> Option<u32> {
        self.index
            .find(hash_of(s), |&i| self.states[i as usize] == *s)
            .copied()
    }
}

impl<S, M> StateGraph<S, M> {
    /// Number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }
    /// Whether the graph has no states (never true for a built graph: it holds the start).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
    /// State number `i`.
    pub fn state(&self, i: u32) -> &S {
        &self.states[i as usize]
    }
    /// All states, in breadth-first order from the start.
    pub fn states(&self) -> &[S] {
        &self.states
    }
    /// Number of edges (moves), duplicates included.
    pub fn edge_count(&self) -> u64 {
        self.targets.len() as u64
    }
    /// Number of moves from state `i`.
    pub fn out_degree(&self, i: u32) -> usize {
        self.row(i).len()
    }
    /// The moves from state `i` with the number of the state each leads to, in the order
    /// the puzzle generated them.
    pub fn successors(&self, i: u32) -> impl ExactSizeIterator<Item = (u32, &M)> + '_ {
        let r = self.row(i);
        self.targets[r.clone()]
            .iter()
            .copied()
            .zip(self.moves[r].iter())
    }
    /// The numbers of the states the moves from `i` lead to.
    pub fn targets_of(&self, i: u32) -> &[u32] {
        &self.targets[self.row(i)]
    }
    /// Every edge as `(from, to, move)`, grouped by `from` in increasing order.
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32, &M)> + '_ {
        (0..self.len() as u32).flat_map(move |u| self.successors(u).map(move |(v, m)| (u, v, m)))
    }
    /// Row offsets: the edges of state `i` are at positions `offsets[i]..offsets[i + 1]` of
    /// [`StateGraph::targets`] and [`StateGraph::moves`]. Length `len() + 1`.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }
    /// Target state of every edge.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }
    /// Label of every edge.
    pub fn moves(&self) -> &[M] {
        &self.moves
    }
    /// The moves of every edge, in the order of [`StateGraph::targets`], the graph dropped.
    pub fn into_moves(self) -> Vec<M> {
        self.moves
    }
    /// Whether state `i` is a goal.
    pub fn is_goal(&self, i: u32) -> bool {
        self.goals[i as usize / 64] >> (i % 64) & 1 == 1
    }
    /// Number of goal states.
    pub fn goal_count(&self) -> u64 {
        self.goal_count
    }
    /// The numbers of the goal states, increasing (so the first is a nearest one).
    pub fn goal_states(&self) -> impl Iterator<Item = u32> + '_ {
        self.goals.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    64 * k as u32 + b
                })
            })
        })
    }
    /// Fewest moves from the start to state `i`.
    pub fn depth(&self, i: u32) -> u32 {
        assert!((i as usize) < self.len(), "no state {i}");
        (self.layers.partition_point(|&first| first <= i) - 1) as u32
    }
    /// The largest distance from the start.
    pub fn max_depth(&self) -> u32 {
        self.layers.len().saturating_sub(2) as u32
    }
    /// The numbers of the states at distance `d` from the start (empty beyond the deepest).
    pub fn layer(&self, d: u32) -> Range<u32> {
        let d = d as usize;
        if d + 1 < self.layers.len() {
            self.layers[d]..self.layers[d + 1]
        } else {
            0..0
        }
    }
    /// `histogram[d]` = number of states at distance `d` from the start (as
    /// [`Enumeration::histogram`](super::Enumeration::histogram)).
    pub fn depth_histogram(&self) -> Vec<u64> {
        self.layers
            .windows(2)
            .map(|w| (w[1] - w[0]) as u64)
            .collect()
    }
    /// Bytes of heap memory held (capacities, not lengths; the hash index by its buckets).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.states.capacity() * size_of::<S>()
            + self.index.capacity() * (size_of::<u32>() + 1)
            + self.layers.capacity() * 4
            + self.offsets.capacity() * 8
            + self.targets.capacity() * 4
            + self.moves.capacity() * size_of::<M>()
            + self.goals.capacity() * 8
    }

    #[inline]
    fn row(&self, i: u32) -> Range<usize> {
        let i = i as usize;
        self.offsets[i] as usize..self.offsets[i + 1] as usize
    }

    /// The strongly connected components: maximal sets of mutually reachable states.
    ///
    /// Iterative (no recursion, whatever the depth) form of Tarjan's algorithm, in Pearce's
    /// space-efficient variant ("A space-efficient algorithm for finding strongly connected
    /// components", IPL 116, 2016): one `u32` per state that ends up holding the component,
    /// one bit per state, and two stacks. Components are numbered in the order Tarjan's
    /// algorithm completes them, which is a **reverse topological order** of the condensation:
    /// a component is completed only after every component reachable from it, so every edge
    /// `u → v` has `id(u) >= id(v)`, sink components (no edge leaves them) have the smallest
    /// numbers among those they are reachable from, and the start's component is the last
    /// one (every state is reachable from the start).
    pub fn components(&self) -> Components {
        let n = self.len();
        let mut rindex = vec![0u32; n];
        if n == 0 {
            return Components {
                id: rindex,
                sizes: Vec::new(),
            };
        }
        // rindex[v]: 0 = not visited; while v is open, its (lowered) visit number, which is
        // at most the number of open states; once v is in a component, `c` for that
        // component, counting down from n - 1 and so always above every open visit number.
        let mut root = vec![0u64; n.div_ceil(64)];
        let mut open: Vec<u32> = Vec::new();
        // DFS call stack: the state and how many of its edges have been looked at.
        let mut calls: Vec<(u32, u32)> = Vec::new();
        let mut index: u32 = 1;
        let mut c: u32 = (n - 1) as u32;
        let mut count: usize = 0;
        let set = |bits: &mut [u64], v: u32| bits[v as usize / 64] |= 1 << (v % 64);
        let clear = |bits: &mut [u64], v: u32| bits[v as usize / 64] &= !(1 << (v % 64));
        let get = |bits: &[u64], v: u32| bits[v as usize / 64] >> (v % 64) & 1 == 1;
        for s in 0..n as u32 {
            if rindex[s as usize] != 0 {
                continue;
            }
            rindex[s as usize] = index;
            index += 1;
            set(&mut root, s);
            calls.push((s, 0));
            while let Some(top) = calls.last_mut() {
                let (v, k) = *top;
                let row = self.targets_of(v);
                if let Some(&w) = row.get(k as usize) {
                    if rindex[w as usize] == 0 {
                        // descend; edge k of v is looked at again on return
                        rindex[w as usize] = index;
                        index += 1;
                        set(&mut root, w);
                        calls.push((w, 0));
                        continue;
                    }
                    top.1 += 1;
                    if rindex[w as usize] < rindex[v as usize] {
                        rindex[v as usize] = rindex[w as usize];
                        clear(&mut root, v);
                    }
                    continue;
                }
                calls.pop();
                if get(&root, v) {
                    // v roots a component: it and the open states visited after it
                    index -= 1;
                    while let Some(&w) = open.last() {
                        if rindex[v as usize] > rindex[w as usize] {
                            break;
                        }
                        open.pop();
                        rindex[w as usize] = c;
                        index -= 1;
                    }
                    rindex[v as usize] = c;
                    c = c.wrapping_sub(1);
                    count += 1;
                } else {
                    open.push(v);
                }
            }
        }
        debug_assert!(open.is_empty());
        // components were numbered n-1, n-2, ... in completion order
        let top = (n - 1) as u32;
        let mut sizes = vec![0u32; count];
        for r in rindex.iter_mut() {
            *r = top - *r;
            sizes[*r as usize] += 1;
        }
        Components { id: rindex, sizes }
    }

    /// The states from which some state of `seeds` is reachable (the seeds included), as one
    /// flag per state, by a breadth-first search over the reversed edges.
    ///
    /// Builds the reversed edges first: 4 bytes per edge and 8 per state while it runs.
    /// [`Components::coreachable`] gives the same answer in less memory.
    pub fn coreachable(&self, seeds: impl IntoIterator<Item = u32>) -> Vec<bool> {
        let n = self.len();
        // reversed rows: count in-degrees, take prefix sums (row ends), then fill each row
        // backwards so that the cursors end at the row starts
        let mut roff = vec![0u64; n + 1];
        for &t in &self.targets {
            roff[t as usize] += 1;
        }
        let mut sum = 0;
        for r in roff.iter_mut() {
            sum += *r;
            *r = sum;
        }
        let mut sources = vec![0u32; self.targets.len()];
        for u in 0..n as u32 {
            for &t in self.targets_of(u) {
                roff[t as usize] -= 1;
                sources[roff[t as usize] as usize] = u;
            }
        }
        let mut seen = vec![false; n];
        let mut queue = VecDeque::new();
        for s in seeds {
            if !std::mem::replace(&mut seen[s as usize], true) {
                queue.push_back(s);
            }
        }
        while let Some(v) = queue.pop_front() {
            let v = v as usize;
            for &u in &sources[roff[v] as usize..roff[v + 1] as usize] {
                if !std::mem::replace(&mut seen[u as usize], true) {
                    queue.push_back(u);
                }
            }
        }
        seen
    }

    /// The states from which a goal is reachable (goals included).
    pub fn can_reach_goal(&self) -> Vec<bool> {
        self.coreachable(self.goal_states())
    }
}

/// The strongly connected components of a [`StateGraph`] (see [`StateGraph::components`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// Component of every state, `0..count()`, in reverse topological order: every edge
    /// `u → v` has `id[u] >= id[v]`.
    pub id: Vec<u32>,
    /// Number of states of every component.
    pub sizes: Vec<u32>,
}

impl Components {
    /// Number of components.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }
    /// Component of state `i`.
    pub fn of(&self, i: u32) -> u32 {
        self.id[i as usize]
    }
    /// Size of the largest component (0 for an empty graph).
    pub fn largest(&self) -> u32 {
        self.sizes.iter().copied().max().unwrap_or(0)
    }
    /// Whether `u` and `v` are reachable from each other.
    pub fn same(&self, u: u32, v: u32) -> bool {
        self.of(u) == self.of(v)
    }
    /// The states of every component: `(starts, members)` where the states of component `c`
    /// are `members[starts[c]..starts[c + 1]]`, increasing.
    pub fn members(&self) -> (Vec<u32>, Vec<u32>) {
        // row ends by prefix sums, then each row filled from its end with decreasing states,
        // so that the cursors finish on the row starts
        let mut starts = Vec::with_capacity(self.count() + 1);
        let mut sum = 0u32;
        for &s in &self.sizes {
            sum += s;
            starts.push(sum);
        }
        starts.push(sum);
        let mut members = vec![0u32; self.id.len()];
        for (v, &c) in self.id.iter().enumerate().rev() {
            starts[c as usize] -= 1;
            members[starts[c as usize] as usize] = v as u32;
        }
        (starts, members)
    }

    /// Per component: whether an edge leaves it. Components without are sinks: once there,
    /// the puzzle stays there.
    pub fn has_exit<S, M>(&self, g: &StateGraph<S, M>) -> Vec<bool> {
        let mut exit = vec![false; self.count()];
        for u in 0..g.len() as u32 {
            let c = self.of(u);
            if g.targets_of(u).iter().any(|&v| self.of(v) != c) {
                exit[c as usize] = true;
            }
        }
        exit
    }
    /// The states of `g` from which a state with `marked(state)` is reachable, as one flag
    /// per state; the same answer as [`StateGraph::coreachable`] of the marked states.
    ///
    /// Works on the condensation: components are visited in increasing number, so every
    /// component an edge leads to is decided before the component it leaves; a component
    /// can reach a marked state if it holds one or has an edge into a component that can.
    /// Needs 4 bytes per state and 4 per component on top of the components (the members
    /// of every component, [`Components::members`]), and no reversed edges.
    pub fn coreachable<S, M>(
        &self,
        g: &StateGraph<S, M>,
        marked: impl Fn(u32) -> bool,
    ) -> Vec<bool> {
        assert_eq!(g.len(), self.id.len(), "components of another graph");
        let (starts, members) = self.members();
        let mut good = vec![false; self.count()];
        for c in 0..self.count() {
            let states = &members[starts[c] as usize..starts[c + 1] as usize];
            good[c] = states.iter().any(|&v| {
                marked(v)
                    || g.targets_of(v).iter().any(|&w| {
                        debug_assert!(self.of(w) as usize <= c, "not a reverse topological order");
                        good[self.of(w) as usize]
                    })
            });
        }
        self.id.iter().map(|&c| good[c as usize]).collect()
    }
}

/// Why [`build_graph`] stopped before the graph was complete, and how far it got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphLimit {
    /// The limit that stopped it. [`LimitKind::MaxStates`] also stands for the graph's own
    /// capacity, [`MAX_GRAPH_STATES`].
    pub kind: LimitKind,
    /// States stored when it stopped.
    pub states: u64,
    /// Edges stored when it stopped.
    pub edges: u64,
    /// What the search explored.
    pub stats: Stats,
}

impl fmt::Display for GraphLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} limit stopped the state graph after {} states and {} moves ({} pushes deep)",
            self.kind, self.states, self.edges, self.stats.depth
        )
    }
}

impl std::error::Error for GraphLimit {}

/// Builds the graph of every state reachable from `p`'s start, keeping every move.
/// Stops with a [`GraphLimit`] when `limits` (or [`MAX_GRAPH_STATES`]) are reached.
///
/// ```
/// use floe::search::{from_fn, graph::build_graph, Limits};
/// // the digits under "add one" and "double", modulo 10, from 1; the goal is 0
/// let p = from_fn(1u32, |&x| [('+', (x + 1) % 10), ('*', 2 * x % 10)], |&x| x == 0);
/// let g = build_graph(&p, &Limits::none()).unwrap();
/// assert_eq!((g.len(), g.edge_count()), (10, 20));
/// // state 0 is the start, 1; both its moves lead to 2
/// let next: Vec<_> = g.successors(0).map(|(t, &m)| (m, *g.state(t))).collect();
/// assert_eq!(next, [('+', 2), ('*', 2)]);
/// let zero = g.index_of(&0).unwrap();
/// assert!(g.is_goal(zero) && g.depth(zero) == 4);
/// assert_eq!(g.components().count(), 1); // "add one" cycles through every digit
/// ```
pub fn build_graph<P: Puzzle>(
    p: &P,
    limits: &Limits,
) -> Result<StateGraph<P::State, P::Move>, GraphLimit> {
    build_graph_with(p, limits, |m| m)
}

/// Builds the graph of every state reachable from `p`'s start, keeping `label(move)` for
/// every move (`|_| ()` keeps nothing, for analyses that only need the graph's shape).
///
/// A breadth-first search: `max_states` bounds the stored states (a graph with exactly
/// `max_states` states completes), `timeout` is checked and progress reported once per
/// expanded state.
///
/// ```
/// use floe::search::{from_fn, graph::build_graph_with, Limits};
/// // reach 10 from 1 by adding one or doubling, never past 12
/// let p = from_fn(
///     1u32,
///     |&x| [('+', x + 1), ('*', 2 * x)].into_iter().filter(|&(_, y)| y <= 12),
///     |&x| x == 10,
/// );
/// let g = build_graph_with(&p, &Limits::none(), |_| ()).unwrap(); // the shape only
/// assert_eq!(g.len(), 12);
/// // every number but 11 and 12 can still reach 10
/// assert_eq!(g.can_reach_goal().iter().filter(|&&ok| ok).count(), 10);
/// ```
pub fn build_graph_with<P: Puzzle, M>(
    p: &P,
    limits: &Limits,
    mut label: impl FnMut(P::Move) -> M,
) -> Result<StateGraph<P::State, M>, GraphLimit> {
    let mut budget = Budget::new(limits).storing::<P::State>();
    let mut stats = Stats::default();
    let mut g = StateGraph {
        states: Vec::new(),
        index: HashTable::new(),
        layers: vec![0],
        offsets: vec![0],
        targets: Vec::new(),
        moves: Vec::new(),
        goals: Vec::new(),
        goal_count: 0,
    };
    let start = p.start();
    let h = hash_of(&start);
    g.push_state(p, start);
    let states = &g.states;
    g.index
        .insert_unique(h, 0, |&j| hash_of(&states[j as usize]));
    stats.states = 1;
    let stop = |kind, g: &StateGraph<P::State, M>, mut stats: Stats, budget: &Budget| {
        budget.finish(&stats);
        stats.elapsed = budget.elapsed();
        Err(GraphLimit {
            kind,
            states: g.states.len() as u64,
            edges: g.targets.len() as u64,
            stats,
        })
    };
    let mut buf = Vec::new();
    let mut head = 0usize;
    let mut layer_end = 1usize;
    while head < g.states.len() {
        if head == layer_end {
            g.layers.push(head as u32);
            layer_end = g.states.len();
            stats.depth += 1;
        }
        if let Some(kind) = budget.tick(&stats) {
            return stop(kind, &g, stats, &budget);
        }
        buf.clear();
        p.successors(&g.states[head], &mut buf);
        assert!(
            buf.len() < u32::MAX as usize,
            "a state with more than 4 billion moves"
        );
        stats.expanded += 1;
        stats.generated += buf.len() as u64;
        for (m, s) in buf.drain(..) {
            let h = hash_of(&s);
            let states = &g.states;
            let target = match g.index.find(h, |&i| states[i as usize] == s) {
                Some(&i) => i,
                None => {
                    let stored = g.states.len() as u64;
                    if stored >= MAX_GRAPH_STATES {
                        return stop(LimitKind::MaxStates, &g, stats, &budget);
                    }
                    if let Some(l) = budget.store_limit(stored) {
                        return stop(l, &g, stats, &budget);
                    }
                    let i = stored as u32;
                    g.index
                        .insert_unique(h, i, |&j| hash_of(&states[j as usize]));
                    g.push_state(p, s);
                    stats.states += 1;
                    i
                }
            };
            g.targets.push(target);
            g.moves.push(label(m));
        }
        g.offsets.push(g.targets.len() as u64);
        head += 1;
    }
    budget.finish(&stats);
    g.layers.push(g.states.len() as u32);
    g.states.shrink_to_fit();
    g.offsets.shrink_to_fit();
    g.targets.shrink_to_fit();
    g.moves.shrink_to_fit();
    g.goals.shrink_to_fit();
    Ok(g)
}

impl<S, M> StateGraph<S, M> {
    /// Appends `s` (already indexed) and its goal flag.
    fn push_state<P: Puzzle<State = S>>(&mut self, p: &P, s: S) {
        let i = self.states.len();
        if i % 64 == 0 {
            self.goals.push(0);
        }
        if p.is_goal(&s) {
            self.goals[i / 64] |= 1 << (i % 64);
            self.goal_count += 1;
        }
        self.states.push(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::Line;
    use crate::search::{enumerate, Enumeration};
    use rand::{RngExt, SeedableRng};
    use std::time::Duration;

    /// A puzzle given as an explicit digraph: states are node names, a move is the position
    /// of the edge in its node's list.
    struct Digraph {
        edges: Vec<Vec<u32>>,
        start: u32,
        goals: Vec<u32>,
    }

    impl Digraph {
        fn new(start: u32, edges: &[&[u32]], goals: &[u32]) -> Digraph {
            Digraph {
                edges: edges.iter().map(|e| e.to_vec()).collect(),
                start,
                goals: goals.to_vec(),
            }
        }
    }

    impl Puzzle for Digraph {
        type State = u32;
        type Move = usize;
        fn start(&self) -> u32 {
            self.start
        }
        fn successors(&self, s: &u32, out: &mut Vec<(usize, u32)>) {
            out.extend(self.edges[*s as usize].iter().copied().enumerate());
        }
        fn is_goal(&self, s: &u32) -> bool {
            self.goals.contains(s)
        }
    }

    /// The component of every node name, as sets of names, sorted.
    fn named_components(g: &StateGraph<u32, usize>, c: &Components) -> Vec<Vec<u32>> {
        let mut sets = vec![Vec::new(); c.count()];
        for i in 0..g.len() as u32 {
            sets[c.of(i) as usize].push(*g.state(i));
        }
        for s in &mut sets {
            s.sort();
        }
        sets.sort();
        sets
    }

    /// Reachability by brute force: `reach[u][v]` over node names.
    fn closure(d: &Digraph) -> Vec<Vec<bool>> {
        let n = d.edges.len();
        let mut r = vec![vec![false; n]; n];
        for (u, row) in r.iter_mut().enumerate() {
            let mut stack = vec![u as u32];
            row[u] = true;
            while let Some(v) = stack.pop() {
                for &w in &d.edges[v as usize] {
                    if !row[w as usize] {
                        row[w as usize] = true;
                        stack.push(w);
                    }
                }
            }
        }
        r
    }

    #[test]
    fn graph_of_a_small_digraph() {
        // 0 → 1 → 2 → 0 is a cycle; 2 → 3 → 4 ⇄ 5; 4 → 6 (dead end); 7 unreachable;
        // 1 → 2 twice (duplicate edge kept).
        let d = Digraph::new(
            0,
            &[&[1], &[2, 2], &[0, 3], &[4], &[5, 6], &[4], &[], &[0]],
            &[5],
        );
        let g = build_graph(&d, &Limits::none()).unwrap();
        assert_eq!(g.len(), 7);
        assert_eq!(g.edge_count(), 9);
        assert_eq!(*g.state(0), 0);
        // BFS order: 0 | 1 | 2 | 3 | 4 | 5 6
        let names: Vec<u32> = g.states().to_vec();
        assert_eq!(names, vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(g.depth_histogram(), vec![1, 1, 1, 1, 1, 2]);
        assert_eq!(g.max_depth(), 5);
        assert_eq!(g.depth(6), 5);
        assert_eq!(g.depth(0), 0);
        assert_eq!(g.layer(5), 5..7);
        assert_eq!(g.layer(6), 0..0);
        assert_eq!(g.index_of(&7), None);
        assert_eq!(g.index_of(&4), Some(4));
        let i1 = g.index_of(&1).unwrap();
        assert_eq!(
            g.successors(i1).collect::<Vec<_>>(),
            vec![(2, &0usize), (2, &1usize)]
        );
        assert_eq!(g.out_degree(g.index_of(&6).unwrap()), 0);
        assert_eq!(g.offsets().len(), g.len() + 1);
        assert_eq!(g.edges().count() as u64, g.edge_count());
        assert_eq!(g.goal_states().collect::<Vec<_>>(), vec![5]);
        assert!(g.is_goal(5) && !g.is_goal(4));

        let c = g.components();
        assert_eq!(
            named_components(&g, &c),
            vec![vec![0, 1, 2], vec![3], vec![4, 5], vec![6]]
        );
        assert_eq!(c.count(), 4);
        assert_eq!(c.largest(), 3);
        assert_eq!(c.sizes.iter().sum::<u32>() as usize, g.len());
        // reverse topological order: the dead end first, the start's component last
        assert_eq!(c.of(6), 0);
        assert_eq!(c.of(0), 3);
        assert_eq!(c.of(4), 1);
        assert!(c.same(4, 5) && !c.same(3, 4));
        assert_eq!(c.has_exit(&g), vec![false, true, true, true]);
        let (starts, members) = c.members();
        assert_eq!(starts, vec![0, 1, 3, 4, 7]);
        assert_eq!(members, vec![6, 4, 5, 3, 0, 1, 2]);

        // a goal (5) is reachable from everything but the dead end 6
        let want = vec![true, true, true, true, true, true, false];
        assert_eq!(g.can_reach_goal(), want);
        assert_eq!(c.coreachable(&g, |i| g.is_goal(i)), want);
        // 3 is reachable only from the cycle and itself
        assert_eq!(
            g.coreachable([3]),
            vec![true, true, true, true, false, false, false]
        );
    }

    #[test]
    fn one_state_and_self_loops() {
        let g = build_graph(&Digraph::new(0, &[&[]], &[0]), &Limits::none()).unwrap();
        assert_eq!((g.len(), g.edge_count(), g.max_depth()), (1, 0, 0));
        let c = g.components();
        assert_eq!((c.count(), c.largest()), (1, 1));
        assert_eq!(g.can_reach_goal(), vec![true]);
        let g = build_graph(&Digraph::new(0, &[&[0, 1], &[1]], &[]), &Limits::none()).unwrap();
        assert_eq!(g.edge_count(), 3);
        let c = g.components();
        assert_eq!(c.count(), 2);
        assert_eq!(c.id, vec![1, 0]);
        assert_eq!(g.can_reach_goal(), vec![false, false]);
    }

    #[test]
    fn a_long_path_does_not_overflow_the_stack() {
        // 0 → 1 → ... → n-1 → 0: one component, and a DFS a million deep.
        let n = 1_000_000u32;
        struct Ring(u32);
        impl Puzzle for Ring {
            type State = u32;
            type Move = ();
            fn start(&self) -> u32 {
                0
            }
            fn successors(&self, s: &u32, out: &mut Vec<((), u32)>) {
                out.push(((), (s + 1) % self.0));
            }
            fn is_goal(&self, s: &u32) -> bool {
                *s == self.0 / 2
            }
        }
        let g = build_graph(&Ring(n), &Limits::none()).unwrap();
        assert_eq!(g.len(), n as usize);
        let c = g.components();
        assert_eq!((c.count(), c.largest()), (1, n));
        // the same path without the closing edge: a million singleton components, numbered
        // from the end of the path
        struct Path(u32);
        impl Puzzle for Path {
            type State = u32;
            type Move = ();
            fn start(&self) -> u32 {
                0
            }
            fn successors(&self, s: &u32, out: &mut Vec<((), u32)>) {
                if s + 1 < self.0 {
                    out.push(((), s + 1));
                }
            }
            fn is_goal(&self, s: &u32) -> bool {
                *s == self.0 / 2
            }
        }
        let g = build_graph(&Path(n), &Limits::none()).unwrap();
        let c = g.components();
        assert_eq!(c.count(), n as usize);
        assert_eq!(c.of(n - 1), 0);
        assert_eq!(c.of(0), n - 1);
        let r = g.can_reach_goal();
        assert_eq!(r.iter().filter(|&&b| b).count() as u32, n / 2 + 1);
        assert_eq!(c.coreachable(&g, |i| g.is_goal(i)), r);
    }

    #[test]
    fn components_agree_with_brute_force_on_random_digraphs() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(20200);
        for round in 0..300 {
            let n = rng.random_range(1..=24u32);
            let density = rng.random_range(0.0..0.25);
            let edges: Vec<Vec<u32>> = (0..n)
                .map(|_| (0..n).filter(|_| rng.random_bool(density)).collect())
                .collect();
            let goals: Vec<u32> = (0..n).filter(|_| rng.random_bool(0.1)).collect();
            let d = Digraph {
                edges,
                start: 0,
                goals,
            };
            let g = build_graph(&d, &Limits::none()).unwrap();
            let reach = closure(&d);
            let reachable: Vec<u32> = (0..n).filter(|&v| reach[0][v as usize]).collect();
            assert_eq!(g.len(), reachable.len(), "round {round}");
            let c = g.components();
            assert_eq!(c.sizes.iter().sum::<u32>() as usize, g.len());
            for u in 0..g.len() as u32 {
                let a = *g.state(u) as usize;
                for v in 0..g.len() as u32 {
                    let b = *g.state(v) as usize;
                    let mutual = reach[a][b] && reach[b][a];
                    assert_eq!(c.same(u, v), mutual, "round {round}: {a} {b}");
                }
                for &v in g.targets_of(u) {
                    assert!(c.of(u) >= c.of(v), "round {round}: order");
                }
            }
            for (k, &s) in c.sizes.iter().enumerate() {
                assert_eq!(
                    s as usize,
                    c.id.iter().filter(|&&x| x as usize == k).count()
                );
                assert!(s > 0);
            }
            let want: Vec<bool> = (0..g.len() as u32)
                .map(|u| {
                    d.goals
                        .iter()
                        .any(|&t| reach[*g.state(u) as usize][t as usize])
                })
                .collect();
            assert_eq!(g.can_reach_goal(), want, "round {round}");
            assert_eq!(c.coreachable(&g, |i| g.is_goal(i)), want, "round {round}");
            // depths are BFS distances: every edge goes at most one layer deeper
            for (u, v, _) in g.edges() {
                assert!(g.depth(v) <= g.depth(u) + 1);
            }
        }
    }

    #[test]
    fn the_graph_agrees_with_enumeration() {
        let p = Line::new(3, 40, 200);
        let e: Enumeration = enumerate(&p, &Limits::none(), |_, _| {});
        let g = build_graph(&p, &Limits::none()).unwrap();
        assert_eq!(g.len() as u64, e.states);
        assert_eq!(g.depth_histogram(), e.histogram);
        // +1 and -1 make every state reachable from every other: one component
        let c = g.components();
        assert_eq!(c.count(), 1);
        assert_eq!(g.goal_count(), 1);
        // labels: the moves of state 3 are '+', '-', '*' to 4, 2, 6
        let i = g.index_of(&3).unwrap();
        let succ: Vec<(i64, char)> = g.successors(i).map(|(t, &m)| (*g.state(t), m)).collect();
        assert_eq!(succ, vec![(4, '+'), (2, '-'), (6, '*')]);
        // unit labels take no memory
        let u = build_graph_with(&p, &Limits::none(), |_| ()).unwrap();
        assert_eq!(u.edge_count(), g.edge_count());
        assert_eq!(u.targets(), g.targets());
        assert!(u.heap_bytes() < g.heap_bytes());
    }

    #[test]
    fn limits_stop_the_build() {
        let p = Line::new(0, -1, 10_000);
        let l = build_graph(&p, &Limits::none().max_states(100)).unwrap_err();
        assert_eq!(l.kind, LimitKind::MaxStates);
        assert_eq!(l.states, 100);
        assert_eq!(l.stats.states, 100);
        assert!(l.to_string().contains("max-states"), "{l}");
        // exactly as many states as allowed: complete
        let small = Line::new(0, -1, 99);
        assert_eq!(
            build_graph(&small, &Limits::none().max_states(100))
                .unwrap()
                .len(),
            100
        );
        let big = Line::new(0, -1, 50_000_000);
        let l = build_graph(&big, &Limits::none().timeout(Duration::from_millis(20))).unwrap_err();
        assert_eq!(l.kind, LimitKind::Timeout);
        assert!(l.states > 0 && l.edges > 0);
    }
}
