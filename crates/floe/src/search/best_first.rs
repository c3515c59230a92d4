//! Best-first search: Dijkstra over a cost model, and A* with the puzzle's lower bound.

use super::limits::Budget;
use super::store::NodeIndex;
use super::{trace_back, CostModel, Limits, Outcome, Puzzle, SearchResult, Stats};
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Least-cost search (Dijkstra) over `model`: returns a solution of least cost, and that cost.
///
/// Search nodes are pairs of state and the model's memory; with [`CostModel::memory_slack`]
/// a node is skipped when the same state was already expanded at a cost lower by at least the
/// slack, which keeps Kluiver's block-change difficulty nearly as cheap as plain BFS.
///
/// ```
/// use floe::search::{dijkstra, from_fn, CostModel, Limits, Puzzle, UnitCost};
/// // reach 10 from 1 by adding one or doubling
/// let p = from_fn(1u32, |&x| [('+', x + 1), ('*', 2 * x)], |&x| x == 10);
/// assert_eq!(dijkstra(&p, &UnitCost, &Limits::none()).cost, Some(4));
/// // a cost model of its own: adding one costs 1, doubling 3
/// struct Prices;
/// impl<P: Puzzle<Move = char>> CostModel<P> for Prices {
///     type Memory = ();
///     type Cost = u64;
///     fn initial(&self, _: &P) {}
///     fn step(&self, _: &P, _: &P::State, _: &(), m: &char, _: &P::State) -> (u64, ()) {
///         (if *m == '*' { 3 } else { 1 }, ())
///     }
///     fn estimate(&self, moves: u32) -> u64 {
///         moves.into() // every move costs at least 1
///     }
/// }
/// let r = dijkstra(&p, &Prices, &Limits::none());
/// assert_eq!(r.cost, Some(7)); // 1 → 2 → 3 → 4 → 5 → 10: one move more, but cheaper
/// assert_eq!(r.outcome.solution(), Some(&['+', '+', '+', '+', '*'][..]));
/// ```
pub fn dijkstra<P, C>(p: &P, model: &C, limits: &Limits) -> SearchResult<P::Move, C::Cost>
where
    P: Puzzle,
    C: CostModel<P>,
{
    best_first(p, model, false, limits)
}

/// A*: like [`dijkstra`], ordered by cost so far plus `model.estimate(p.lower_bound(state))`.
/// States are reopened when found again more cheaply, so the result stays optimal even when
/// the bound is admissible but not consistent.
///
/// ```
/// use floe::search::{astar, dijkstra, from_fn, Limits, UnitCost};
/// // walk from 3 to 0 by steps of ±1; the distance to 0 is an exact bound
/// let p = from_fn(3i32, |&x| [('-', x - 1), ('+', x + 1)], |&x| x == 0)
///     .with_bound(|&x| x.unsigned_abs());
/// let r = astar(&p, &UnitCost, &Limits::none());
/// assert_eq!(r.outcome.solution(), Some(&['-'; 3][..]));
/// // the bound leads straight there; dijkstra also searches the other way
/// assert_eq!(r.stats.expanded, 3);
/// assert!(dijkstra(&p, &UnitCost, &Limits::none()).stats.expanded > 3);
/// ```
pub fn astar<P, C>(p: &P, model: &C, limits: &Limits) -> SearchResult<P::Move, C::Cost>
where
    P: Puzzle,
    C: CostModel<P>,
{
    best_first(p, model, true, limits)
}

/// Heap entry: smallest `f` first, then largest `g` (deeper nodes first among ties).
struct Entry<C> {
    f: C,
    g: C,
    node: u32,
}

impl<C: Ord> PartialEq for Entry<C> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl<C: Ord> Eq for Entry<C> {}
impl<C: Ord> PartialOrd for Entry<C> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<C: Ord> Ord for Entry<C> {
    fn cmp(&self, o: &Self) -> Ordering {
        // BinaryHeap is a max-heap: reverse f, keep g.
        o.f.cmp(&self.f)
            .then_with(|| self.g.cmp(&o.g))
            .then_with(|| o.node.cmp(&self.node))
    }
}

fn best_first<P, C>(
    p: &P,
    model: &C,
    use_bound: bool,
    limits: &Limits,
) -> SearchResult<P::Move, C::Cost>
where
    P: Puzzle,
    C: CostModel<P>,
{
    let mut budget = Budget::new(limits).storing::<P::State>();
    let mut stats = Stats::default();
    let h = |s: &P::State| {
        if use_bound {
            model.estimate(p.lower_bound(s))
        } else {
            C::Cost::default()
        }
    };

    let mut index: NodeIndex<(P::State, C::Memory)> = NodeIndex::new();
    let mut keys: Vec<(P::State, C::Memory)> = Vec::new();
    let mut g: Vec<C::Cost> = Vec::new();
    let mut hs: Vec<C::Cost> = Vec::new();
    let mut depth: Vec<u32> = Vec::new();
    let mut parents: Vec<u32> = Vec::new();
    let mut moves: Vec<Option<P::Move>> = Vec::new();
    let mut closed: Vec<bool> = Vec::new();
    let slack = model.memory_slack();
    let mut settled: FxHashMap<P::State, C::Cost> = FxHashMap::default();
    let mut heap = BinaryHeap::new();

    let start = (p.start(), model.initial(p));
    index.get_or_reserve(&start, &keys);
    let h0 = h(&start.0);
    keys.push(start);
    g.push(C::Cost::default());
    hs.push(h0);
    depth.push(0);
    parents.push(0);
    moves.push(None);
    closed.push(false);
    stats.states = 1;
    heap.push(Entry {
        f: h0,
        g: C::Cost::default(),
        node: 0,
    });

    let mut buf = Vec::new();
    let mut cost = None;
    let outcome = loop {
        let Some(Entry { g: eg, node, .. }) = heap.pop() else {
            break Outcome::Unsolvable;
        };
        let n = node as usize;
        if closed[n] || eg != g[n] {
            continue; // stale entry
        }
        closed[n] = true;
        if p.is_goal(&keys[n].0) {
            stats.depth = stats.depth.max(depth[n]);
            cost = Some(eg);
            break Outcome::Solved(trace_back(&parents, &moves, n));
        }
        if let Some(s) = slack {
            match settled.get_mut(&keys[n].0) {
                Some(best) if *best + s <= eg => continue, // dominated
                Some(best) => *best = (*best).min(eg),
                None => {
                    settled.insert(keys[n].0.clone(), eg);
                }
            }
        }
        if let Some(limit) = budget.tick(&stats) {
            break Outcome::Limit(limit);
        }
        stats.expanded += 1;
        stats.depth = stats.depth.max(depth[n]);
        buf.clear();
        p.successors(&keys[n].0, &mut buf);
        stats.generated += buf.len() as u64;
        let mut full = None;
        for (mv, t) in buf.drain(..) {
            let (c, mem) = model.step(p, &keys[n].0, &keys[n].1, &mv, &t);
            let gt = eg + c;
            let key = (t, mem);
            match index.get_or_reserve(&key, &keys) {
                Some(i) => {
                    let i = i as usize;
                    if gt < g[i] {
                        g[i] = gt;
                        parents[i] = node;
                        moves[i] = Some(mv);
                        depth[i] = depth[n] + 1;
                        closed[i] = false;
                        heap.push(Entry {
                            f: gt + hs[i],
                            g: gt,
                            node: i as u32,
                        });
                    }
                }
                None => {
                    if let Some(l) = budget.store_limit(stats.states) {
                        full = Some(l);
                        break;
                    }
                    let ht = h(&key.0);
                    keys.push(key);
                    g.push(gt);
                    hs.push(ht);
                    depth.push(depth[n] + 1);
                    parents.push(node);
                    moves.push(Some(mv));
                    closed.push(false);
                    stats.states += 1;
                    heap.push(Entry {
                        f: gt + ht,
                        g: gt,
                        node: (keys.len() - 1) as u32,
                    });
                }
            }
        }
        if let Some(l) = full {
            break Outcome::Limit(l);
        }
    };
    stats.elapsed = budget.elapsed();
    SearchResult {
        outcome,
        cost,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::{replay_line, Line};
    use crate::search::{bfs, ChangePenalty, Lex, UnitCost};

    #[test]
    fn dijkstra_and_astar_with_unit_cost_match_bfs() {
        for goal in [0, 7, 10, 33, 64, 99] {
            let p = Line::new(3, goal, 120);
            let b = bfs(&p, &Limits::none());
            let d = dijkstra(&p, &UnitCost, &Limits::none());
            let a = astar(&p, &UnitCost, &Limits::none());
            assert_eq!(d.cost, b.cost, "goal {goal}");
            assert_eq!(a.cost, b.cost, "goal {goal}");
            let moves = a.outcome.solution().unwrap();
            assert_eq!(replay_line(3, moves), goal);
            assert!(a.stats.expanded <= d.stats.expanded);
        }
    }

    /// Two pieces, `a` on cells 0..=9 and `b` on cells 10..=19; a move advances one piece
    /// by 1 or 2 cells. Goal: both pieces on their third cell.
    struct TwoPieces;
    #[derive(Clone, Debug, PartialEq)]
    struct Step(u32, u32);
    impl Puzzle for TwoPieces {
        type State = (u32, u32);
        type Move = Step;
        fn start(&self) -> (u32, u32) {
            (0, 10)
        }
        fn successors(&self, s: &(u32, u32), out: &mut Vec<(Step, (u32, u32))>) {
            for k in 1..=2 {
                if s.0 + k <= 9 {
                    out.push((Step(s.0, s.0 + k), (s.0 + k, s.1)));
                }
                if s.1 + k <= 19 {
                    out.push((Step(s.1, s.1 + k), (s.0, s.1 + k)));
                }
            }
        }
        fn is_goal(&self, s: &(u32, u32)) -> bool {
            *s == (3, 13)
        }
        fn piece_moved(&self, m: &Step) -> Option<(u32, u32)> {
            Some((m.0, m.1))
        }
    }

    #[test]
    fn change_penalty_prefers_finishing_one_piece_first() {
        for factor in [0, 1, 5, 100] {
            let r = dijkstra(&TwoPieces, &ChangePenalty { factor }, &Limits::none());
            let moves = r.outcome.solution().unwrap();
            assert_eq!(moves.len(), 4);
            if factor > 0 {
                assert_eq!(crate::search::count_changes(&TwoPieces, moves), Some(1));
            }
            assert_eq!(r.cost, Some(Lex(4 + factor, 4)));
            let a = astar(&TwoPieces, &ChangePenalty { factor }, &Limits::none());
            assert_eq!(a.cost, r.cost);
        }
    }

    #[test]
    fn best_first_reports_unsolvable_and_limits() {
        let p = Line::new(3, 500, 100);
        let r = dijkstra(&p, &UnitCost, &Limits::none());
        assert_eq!(r.outcome, Outcome::Unsolvable);
        assert_eq!(r.stats.states, 101);
        let r = astar(&p, &UnitCost, &Limits::none().max_states(10));
        assert_eq!(
            r.outcome,
            Outcome::Limit(crate::search::LimitKind::MaxStates)
        );
        assert_eq!(r.stats.states, 10);
    }
}
