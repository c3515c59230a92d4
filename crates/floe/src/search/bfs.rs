//! Breadth-first search and full reachable-state enumeration.

use super::limits::Budget;
use super::store::Seen;
use super::{trace_back, LimitKind, Limits, Outcome, Puzzle, SearchResult, Stats};

/// Breadth-first search for a solution with the fewest moves.
///
/// States are tested for the goal when generated, so the search stops one layer earlier than
/// a test at expansion would. The returned cost is the number of moves.
///
/// ```
/// use floe::search::{bfs, from_fn, Limits, Outcome};
/// // reach 10 from 1 by adding one or doubling: 1 → 2 → 4 → 5 → 10
/// let p = from_fn(1u32, |&x| [('+', x + 1), ('*', 2 * x)], |&x| x == 10);
/// let r = bfs(&p, &Limits::none());
/// assert_eq!(r.outcome.solution(), Some(&['+', '*', '+', '*'][..]));
/// // by doubling alone (up to 100) 10 is out of reach, and bfs proves it
/// let q = from_fn(1u32, |&x| (2 * x <= 100).then_some(('*', 2 * x)), |&x| x == 10);
/// assert_eq!(bfs(&q, &Limits::none()).outcome, Outcome::Unsolvable);
/// ```
pub fn bfs<P: Puzzle>(p: &P, limits: &Limits) -> SearchResult<P::Move, u64> {
    let mut budget = Budget::new(limits).storing::<P::State>();
    let mut stats = Stats::default();
    let start = p.start();
    let mut seen = Seen::for_puzzle(p);
    let mut arena: Vec<P::State> = Vec::new();
    seen.insert(p, &start, &arena);
    let start_is_goal = p.is_goal(&start);
    arena.push(start);
    stats.states = 1;
    let finish = |outcome: Outcome<P::Move>, mut stats: Stats, budget: &Budget| {
        stats.elapsed = budget.elapsed();
        SearchResult::counting_moves(outcome, stats)
    };
    if start_is_goal {
        return finish(Outcome::Solved(Vec::new()), stats, &budget);
    }
    let mut parents: Vec<u32> = vec![0];
    let mut moves: Vec<Option<P::Move>> = vec![None];
    let mut buf = Vec::new();
    let mut head = 0;
    let mut layer_end = 1;
    while head < arena.len() {
        if head == layer_end {
            stats.depth += 1;
            layer_end = arena.len();
        }
        if let Some(limit) = budget.tick(&stats) {
            return finish(Outcome::Limit(limit), stats, &budget);
        }
        buf.clear();
        p.successors(&arena[head], &mut buf);
        stats.expanded += 1;
        stats.generated += buf.len() as u64;
        for (m, s) in buf.drain(..) {
            if !seen.insert(p, &s, &arena) {
                continue;
            }
            budget.make_room(stats.states, |more| {
                arena.try_reserve_exact(more).is_ok()
                    && parents.try_reserve_exact(more).is_ok()
                    && moves.try_reserve_exact(more).is_ok()
            });
            if let Some(l) = budget.store_limit(stats.states) {
                return finish(Outcome::Limit(l), stats, &budget);
            }
            let goal = p.is_goal(&s);
            arena.push(s);
            parents.push(head as u32);
            moves.push(Some(m));
            stats.states += 1;
            if goal {
                stats.depth += 1;
                let path = trace_back(&parents, &moves, arena.len() - 1);
                return finish(Outcome::Solved(path), stats, &budget);
            }
        }
        head += 1;
    }
    finish(Outcome::Unsolvable, stats, &budget)
}

/// The result of [`enumerate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Number of distinct reachable states found.
    pub states: u64,
    /// `histogram[d]` = number of states whose fewest-moves distance from the start is `d`.
    pub histogram: Vec<u64>,
    /// `None` when the enumeration is complete; otherwise the limit that cut it short (the
    /// figures then cover the layers explored so far).
    pub limit: Option<LimitKind>,
    /// What was explored.
    pub stats: Stats,
    /// Peak bytes held by the visited index and the queues.
    pub peak_bytes: usize,
}

impl Enumeration {
    /// The largest distance from the start (the number of the last non-empty layer).
    pub fn depth(&self) -> u32 {
        self.histogram.len().saturating_sub(1) as u32
    }
}

/// Breadth-first enumeration of every state reachable from the start, calling
/// `visit(state, distance)` once per state in order of distance.
///
/// With a perfect hash ([`Puzzle::rank_space`]) the visited set is one bit per possible state
/// and only two layers are kept in memory; otherwise every state is kept once, indexed by a
/// hash table.
///
/// ```
/// use floe::search::{enumerate, from_fn, Limits};
/// // the digits under "add one" and "double", modulo 10, from 1 (no goal)
/// let p = from_fn(1u32, |&x| [('+', (x + 1) % 10), ('*', 2 * x % 10)], |_| false);
/// let mut farthest = Vec::new();
/// let e = enumerate(&p, &Limits::none(), |&x, d| if d == 4 { farthest.push(x) });
/// assert_eq!(e.states, 10);
/// assert_eq!(e.histogram, [1, 1, 2, 3, 3]); // 1; 2; 3 4; 5 6 8; 0 7 9
/// farthest.sort();
/// assert_eq!(farthest, [0, 7, 9]);
/// ```
pub fn enumerate<P: Puzzle>(
    p: &P,
    limits: &Limits,
    mut visit: impl FnMut(&P::State, u32),
) -> Enumeration {
    let mut budget = Budget::new(limits);
    let mut stats = Stats::default();
    let mut seen = Seen::for_puzzle(p);
    let start = p.start();
    let mut histogram = vec![1u64];
    visit(&start, 0);
    let mut limit = None;
    let state_size = std::mem::size_of::<P::State>();
    let mut peak_bytes = 0;
    stats.states = 1;

    if let Seen::Dense(bits) = &mut seen {
        // Two layers in memory; the bit array remembers the rest.
        let rank = |s: &P::State| {
            p.rank(s)
                .expect("a puzzle with a rank space ranks every state")
        };
        bits.insert(rank(&start));
        let mut layer = vec![start];
        let mut next = Vec::new();
        'layers: while !layer.is_empty() {
            let depth = histogram.len() as u32;
            for s in &layer {
                if let Some(l) = budget.tick(&stats) {
                    limit = Some(l);
                    break 'layers;
                }
                stats.expanded += 1;
                let mut full = false;
                p.for_each_next(s, |t| {
                    stats.generated += 1;
                    if full || !bits.insert(rank(&t)) {
                        return;
                    }
                    if budget.full(stats.states) {
                        full = true;
                        return;
                    }
                    stats.states += 1;
                    visit(&t, depth);
                    next.push(t);
                });
                if full {
                    limit = Some(LimitKind::MaxStates);
                    break 'layers;
                }
            }
            peak_bytes = peak_bytes
                .max(bits.heap_bytes() + (layer.capacity() + next.capacity()) * state_size);
            if !next.is_empty() {
                histogram.push(next.len() as u64);
                stats.depth = depth;
            }
            std::mem::swap(&mut layer, &mut next);
            next.clear();
        }
        if limit.is_some() && !next.is_empty() {
            histogram.push(next.len() as u64);
        }
    } else {
        let mut arena: Vec<P::State> = Vec::new();
        seen.insert(p, &start, &arena);
        arena.push(start);
        let mut head = 0;
        let mut layer_end = 1;
        let mut depth = 0u32;
        let mut found = Vec::new();
        'all: while head < arena.len() {
            if head == layer_end {
                depth += 1;
                layer_end = arena.len();
            }
            if let Some(l) = budget.tick(&stats) {
                limit = Some(l);
                break;
            }
            found.clear();
            p.for_each_next(&arena[head], |t| found.push(t));
            stats.expanded += 1;
            stats.generated += found.len() as u64;
            for t in found.drain(..) {
                if seen.insert(p, &t, &arena) {
                    if budget.full(stats.states) {
                        limit = Some(LimitKind::MaxStates);
                        break 'all;
                    }
                    stats.states += 1;
                    let d = depth as usize + 1;
                    if histogram.len() <= d {
                        histogram.push(0);
                    }
                    histogram[d] += 1;
                    visit(&t, depth + 1);
                    arena.push(t);
                }
            }
            head += 1;
        }
        stats.depth = histogram.len().saturating_sub(1) as u32;
        peak_bytes = seen.heap_bytes() + arena.capacity() * state_size;
    }
    stats.elapsed = budget.elapsed();
    Enumeration {
        states: stats.states,
        histogram,
        limit,
        stats,
        peak_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::{replay_line, Line};
    use std::time::Duration;

    #[test]
    fn bfs_finds_a_shortest_path() {
        let p = Line::new(1, 10, 100);
        let r = bfs(&p, &Limits::none());
        let moves = r.outcome.solution().unwrap().to_vec();
        // 1 → 2 → 4 → 5 → 10
        assert_eq!(moves.len(), 4);
        assert_eq!(replay_line(1, &moves), 10);
        assert_eq!(r.cost, Some(4));
    }

    #[test]
    fn bfs_start_is_goal_and_unsolvable() {
        let p = Line::new(3, 3, 5);
        assert_eq!(bfs(&p, &Limits::none()).outcome, Outcome::Solved(vec![]));
        let p = Line::new(3, 99, 20);
        let r = bfs(&p, &Limits::none());
        assert_eq!(r.outcome, Outcome::Unsolvable);
        assert_eq!(r.stats.states, 21);
    }

    #[test]
    fn bfs_respects_max_states() {
        let p = Line::new(0, 1000, 100_000);
        let r = bfs(&p, &Limits::none().max_states(50));
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxStates));
        assert_eq!(r.stats.states, 50);
    }

    #[test]
    fn bfs_respects_timeout() {
        let p = Line::new(0, -5, 50_000_000);
        let r = bfs(&p, &Limits::none().timeout(Duration::from_millis(30)));
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::Timeout));
        assert!(r.stats.elapsed >= Duration::from_millis(30));
        assert!(r.stats.elapsed < Duration::from_secs(5));
    }

    /// Same puzzle without the perfect hash, to exercise the hash-table path.
    struct Hashed(Line);
    impl Puzzle for Hashed {
        type State = i64;
        type Move = char;
        fn start(&self) -> i64 {
            self.0.start()
        }
        fn successors(&self, s: &i64, out: &mut Vec<(char, i64)>) {
            self.0.successors(s, out)
        }
        fn is_goal(&self, s: &i64) -> bool {
            self.0.is_goal(s)
        }
    }

    #[test]
    fn enumeration_counts_layers_with_either_index() {
        let line = || Line::new(1, -1, 16);
        let mut dist = [u32::MAX; 17];
        let e = enumerate(&line(), &Limits::none(), |s, d| dist[*s as usize] = d);
        assert_eq!(e.states, 17);
        assert_eq!(e.limit, None);
        // from 1: {0,2} at 1; {3,4} at 2; {5,6,8} at 3; {7,9,10,12,16} at 4; ...
        assert_eq!(&e.histogram[..4], &[1, 2, 2, 3]);
        assert_eq!(e.histogram.iter().sum::<u64>(), 17);
        assert_eq!(dist[16], 4);
        assert_eq!(e.depth() as usize, e.histogram.len() - 1);
        let h = enumerate(&Hashed(line()), &Limits::none(), |_, _| {});
        assert_eq!(h.histogram, e.histogram);
        assert_eq!(h.states, e.states);
        assert_eq!(h.stats.depth, e.stats.depth);
    }

    #[test]
    fn enumeration_stops_at_limits() {
        for hashed in [false, true] {
            let line = Line::new(0, -1, 1_000);
            let limits = Limits::none().max_states(100);
            let e = if hashed {
                enumerate(&Hashed(line), &limits, |_, _| {})
            } else {
                enumerate(&line, &limits, |_, _| {})
            };
            assert_eq!(e.limit, Some(LimitKind::MaxStates));
            assert_eq!(e.states, 100);
            assert_eq!(e.histogram.iter().sum::<u64>(), 100);
        }
    }
}
