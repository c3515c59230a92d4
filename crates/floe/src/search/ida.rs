//! Iterative-deepening A* with a transposition table.

use super::limits::Budget;
use super::{LimitKind, Limits, Outcome, Puzzle, SearchResult, Stats};
use rustc_hash::FxHashMap;

const INF: u32 = u32::MAX;

/// IDA*: depth-first searches with a growing bound on moves + lower bound; returns a solution
/// with the fewest moves.
///
/// Memory is linear in the solution length plus a transposition table of at most
/// `table_capacity` states, which makes the search exact and far cheaper on puzzles whose
/// positions are reached by many paths:
/// - a state already expanded in this iteration from no further away is skipped (its subtree
///   was searched with at least as much budget), and so is a state on the current path;
/// - a state found again closer to the start is searched again, so every state within the
///   bound is expanded with its fewest moves;
/// - the search proves that there is no solution when an iteration cuts nothing off, or
///   when every state it cut off was expanded elsewhere in the same iteration (the expanded
///   set is then closed under moves: it is the whole reachable space). This needs the table to
///   hold every state the iteration touches; with a smaller table the proof may not come, and
///   the limits end the search.
///
/// With `table_capacity = 0` it is plain IDA*, which only ends on unsolvable puzzles without
/// cycles. Here [`Stats::states`] counts nodes visited over all iterations (a state may count
/// more than once), and `max_states` limits that count.
///
/// ```
/// use floe::search::{from_fn, ida_star, Limits, Outcome};
/// // reach 10 from 1 by adding one or doubling; "1 while not there" is an admissible bound
/// let p = from_fn(1u32, |&x| [('+', x + 1), ('*', 2 * x)], |&x| x == 10)
///     .with_bound(|&x| u32::from(x != 10));
/// assert_eq!(ida_star(&p, &Limits::none(), 1000).cost, Some(4));
/// // by doubling alone (up to 100) 10 is out of reach: the table makes that a proof
/// let q = from_fn(1u32, |&x| (2 * x <= 100).then_some(('*', 2 * x)), |&x| x == 10);
/// assert_eq!(ida_star(&q, &Limits::none(), 1000).outcome, Outcome::Unsolvable);
/// ```
pub fn ida_star<P: Puzzle>(
    p: &P,
    limits: &Limits,
    table_capacity: usize,
) -> SearchResult<P::Move, u64> {
    let mut search = Ida {
        p,
        budget: Budget::new(limits),
        stats: Stats::default(),
        table: FxHashMap::default(),
        capacity: table_capacity,
        iteration: 0,
        bound: 0,
        next_bound: INF,
        complete: true,
    };
    let outcome = search.run();
    let mut stats = search.stats;
    stats.elapsed = search.budget.elapsed();
    SearchResult::counting_moves(outcome, stats)
}

/// What the table knows of a state.
#[derive(Clone, Copy)]
struct Entry {
    /// Last iteration that expanded it (0: never).
    expanded: u32,
    /// Moves from the start when it was expanded then.
    g: u32,
    /// Last iteration that cut it off at the bound.
    cut: u32,
}

struct Frame<P: Puzzle> {
    succ: Vec<(P::Move, P::State)>,
    next: usize,
    g: u32,
}

enum Visit {
    Goal,
    Skip,
    Expand,
}

struct Ida<'a, P: Puzzle> {
    p: &'a P,
    budget: Budget<'a>,
    stats: Stats,
    table: FxHashMap<P::State, Entry>,
    capacity: usize,
    iteration: u32,
    bound: u32,
    next_bound: u32,
    /// Every state touched in this iteration is in the table.
    complete: bool,
}

impl<P: Puzzle> Ida<'_, P> {
    fn run(&mut self) -> Outcome<P::Move> {
        let start = self.p.start();
        self.bound = self.p.lower_bound(&start);
        let mut frames: Vec<Frame<P>> = Vec::new();
        loop {
            self.iteration += 1;
            self.next_bound = INF;
            self.complete = self.capacity > 0;
            frames.clear();
            if let Some(l) = self.count_visit() {
                return Outcome::Limit(l);
            }
            match self.visit(&start, 0) {
                Visit::Goal => return Outcome::Solved(Vec::new()),
                Visit::Skip => {}
                Visit::Expand => {
                    let f = self.frame(&start, 0);
                    frames.push(f);
                }
            }
            while let Some(top) = frames.last_mut() {
                if top.next == top.succ.len() {
                    frames.pop();
                    continue;
                }
                let i = top.next;
                top.next += 1;
                let g = top.g + 1;
                if let Some(l) = self.count_visit() {
                    return Outcome::Limit(l);
                }
                self.stats.depth = self.stats.depth.max(g);
                let top = frames.last().expect("non-empty");
                match self.visit(&top.succ[i].1, g) {
                    Visit::Skip => {}
                    Visit::Goal => {
                        return Outcome::Solved(
                            frames
                                .iter()
                                .map(|f| f.succ[f.next - 1].0.clone())
                                .collect(),
                        )
                    }
                    Visit::Expand => {
                        let child = frames.last().expect("non-empty").succ[i].1.clone();
                        let f = self.frame(&child, g);
                        frames.push(f);
                    }
                }
            }
            if self.next_bound == INF || self.closed() {
                return Outcome::Unsolvable;
            }
            self.bound = self.next_bound;
        }
    }

    /// Whether every state cut off in this iteration was also expanded in it.
    fn closed(&self) -> bool {
        self.complete
            && self
                .table
                .values()
                .all(|e| e.cut != self.iteration || e.expanded == self.iteration)
    }

    /// Counts one visit against the limits.
    fn count_visit(&mut self) -> Option<LimitKind> {
        if self.budget.full(self.stats.states) {
            return Some(LimitKind::MaxStates);
        }
        self.stats.states += 1;
        self.budget.tick(&self.stats)
    }

    fn frame(&mut self, state: &P::State, g: u32) -> Frame<P> {
        let mut succ = Vec::new();
        self.p.successors(state, &mut succ);
        self.stats.expanded += 1;
        self.stats.generated += succ.len() as u64;
        Frame { succ, next: 0, g }
    }

    /// Records `s` in the table (if there is room).
    fn record(&mut self, s: &P::State, update: impl FnOnce(&mut Entry)) {
        if let Some(e) = self.table.get_mut(s) {
            update(e);
        } else if self.table.len() < self.capacity {
            let mut e = Entry {
                expanded: 0,
                g: INF,
                cut: 0,
            };
            update(&mut e);
            self.table.insert(s.clone(), e);
        } else {
            self.complete = false;
        }
    }

    fn visit(&mut self, s: &P::State, g: u32) -> Visit {
        let iteration = self.iteration;
        if let Some(e) = self.table.get(s) {
            if e.expanded == iteration && e.g <= g {
                return Visit::Skip; // searched from no further away, or on the current path
            }
        }
        // The bound comes before the goal: a goal beyond it may be longer than one elsewhere
        // within it.
        let f = g.saturating_add(self.p.lower_bound(s));
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            self.record(s, |e| e.cut = iteration);
            return Visit::Skip;
        }
        if self.p.is_goal(s) {
            return Visit::Goal;
        }
        self.record(s, |e| {
            e.expanded = iteration;
            e.g = g;
        });
        Visit::Expand
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bfs;
    use crate::search::testing::{replay_line, Line};

    #[test]
    fn ida_matches_bfs_with_and_without_table() {
        for goal in [3, 0, 7, 10, 33, 64, 99] {
            let p = Line::new(3, goal, 120);
            let b = bfs(&p, &Limits::none());
            for cap in [0, 16, 1 << 16] {
                let r = ida_star(&p, &Limits::none(), cap);
                assert_eq!(r.cost, b.cost, "goal {goal} table {cap}");
                assert_eq!(replay_line(3, r.outcome.solution().unwrap()), goal);
            }
        }
    }

    #[test]
    fn ida_proves_unsolvable_and_stops_at_limits() {
        let p = Line::new(3, 500, 400);
        let r = ida_star(&p, &Limits::none(), 1 << 10);
        assert_eq!(r.outcome, Outcome::Unsolvable);
        // the closure test ends the proof after a few iterations
        assert!(r.stats.states < 401 * 40, "{} visits", r.stats.states);
        // without room for every state there is no proof; the limits end the search
        let r = ida_star(&p, &Limits::none().max_states(100_000), 100);
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxStates));
        for n in [1, 2, 10, 1000] {
            let r = ida_star(&p, &Limits::none().max_states(n), 0);
            assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxStates));
            assert_eq!(r.stats.states, n);
        }
    }

    /// A graph whose shortest route from state 1 leads back through the start: the cycle
    /// check must not cut it.
    struct Detour;
    impl Puzzle for Detour {
        type State = u8;
        type Move = u8;
        fn start(&self) -> u8 {
            0
        }
        // 0 → 1, 0 → 2; 1 → 0 only; 2 → 3 (goal) after 2 → 4 → 2 detours
        fn successors(&self, s: &u8, out: &mut Vec<(u8, u8)>) {
            let next: &[u8] = match s {
                0 => &[1, 2],
                1 => &[0],
                2 => &[4, 0],
                4 => &[5],
                5 => &[3],
                _ => &[],
            };
            out.extend(next.iter().map(|&t| (t, t)));
        }
        fn is_goal(&self, s: &u8) -> bool {
            *s == 3
        }
    }

    #[test]
    fn routes_back_through_an_ancestor_are_kept() {
        for cap in [0, 1, 100] {
            let r = ida_star(&Detour, &Limits::none(), cap);
            assert_eq!(r.outcome, Outcome::Solved(vec![2, 4, 5, 3]), "table {cap}");
            // starting from 1, the only way is back through 0
            struct From1;
            impl Puzzle for From1 {
                type State = u8;
                type Move = u8;
                fn start(&self) -> u8 {
                    1
                }
                fn successors(&self, s: &u8, out: &mut Vec<(u8, u8)>) {
                    Detour.successors(s, out)
                }
                fn is_goal(&self, s: &u8) -> bool {
                    *s == 3
                }
            }
            let r = ida_star(&From1, &Limits::none(), cap.max(1));
            assert_eq!(r.cost, Some(5), "table {cap}");
        }
    }
}
