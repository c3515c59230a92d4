//! Iterative-deepening A*.

use super::limits::Budget;
use super::{LimitKind, Limits, Outcome, Puzzle, SearchResult, Stats};
use rustc_hash::FxHashMap;

/// IDA*: depth-first searches with a growing bound on moves + [`Puzzle::lower_bound`];
/// returns a solution with the fewest moves.
///
/// Memory is linear in the solution length plus a transposition table of at most
/// `table_capacity` entries (state → fewest moves it was reached with in this iteration); a
/// state reached again with no fewer moves is not searched twice. `table_capacity = 0` gives
/// plain IDA*. Here [`Stats::states`] counts nodes visited over all iterations (the same
/// state may count more than once), and `max_states` limits that count.
pub fn ida_star<P: Puzzle>(
    p: &P,
    limits: &Limits,
    table_capacity: usize,
) -> SearchResult<P::Move, u64> {
    let mut budget = Budget::new(limits);
    let mut stats = Stats::default();
    let start = p.start();
    let mut bound = p.lower_bound(&start);
    let mut table: FxHashMap<P::State, u32> = FxHashMap::default();
    // frames[d] = (state at depth d, its successors, index of the next one to try)
    let mut frames: Vec<Frame<P>> = Vec::new();

    let outcome = 'iterations: loop {
        table.clear();
        frames.clear();
        let mut next_bound = u32::MAX;
        // Enter the root.
        match enter(
            p,
            &start,
            0,
            bound,
            &mut next_bound,
            &mut table,
            table_capacity,
        ) {
            Visit::Goal => break Outcome::Solved(Vec::new()),
            Visit::Prune => {}
            Visit::Expand => {
                frames.push(Frame::new(start.clone()));
                p.successors(&start, &mut frames[0].succ);
                stats.expanded += 1;
                stats.generated += frames[0].succ.len() as u64;
            }
        }
        stats.states += 1;
        while let Some(top) = frames.last_mut() {
            if top.next == top.succ.len() {
                frames.pop();
                continue;
            }
            let i = top.next;
            top.next += 1;
            let g = frames.len() as u32;
            let child = frames[frames.len() - 1].succ[i].1.clone();
            stats.states += 1;
            stats.depth = stats.depth.max(g);
            if budget.full(stats.states) {
                break 'iterations Outcome::Limit(LimitKind::MaxStates);
            }
            if let Some(limit) = budget.tick(&stats) {
                break 'iterations Outcome::Limit(limit);
            }
            match enter(
                p,
                &child,
                g,
                bound,
                &mut next_bound,
                &mut table,
                table_capacity,
            ) {
                Visit::Prune => {}
                Visit::Goal => {
                    let path = frames
                        .iter()
                        .map(|f| f.succ[f.next - 1].0.clone())
                        .collect();
                    break 'iterations Outcome::Solved(path);
                }
                Visit::Expand => {
                    let mut f = Frame::new(child);
                    p.successors(&f.state, &mut f.succ);
                    stats.expanded += 1;
                    stats.generated += f.succ.len() as u64;
                    frames.push(f);
                }
            }
        }
        if next_bound == u32::MAX {
            break Outcome::Unsolvable;
        }
        bound = next_bound;
    };
    stats.elapsed = budget.elapsed();
    let cost = outcome.solution().map(|m| m.len() as u64);
    SearchResult {
        outcome,
        cost,
        stats,
    }
}

struct Frame<P: Puzzle> {
    state: P::State,
    succ: Vec<(P::Move, P::State)>,
    next: usize,
}

impl<P: Puzzle> Frame<P> {
    fn new(state: P::State) -> Self {
        Frame {
            state,
            succ: Vec::new(),
            next: 0,
        }
    }
}

enum Visit {
    Goal,
    Prune,
    Expand,
}

fn enter<P: Puzzle>(
    p: &P,
    s: &P::State,
    g: u32,
    bound: u32,
    next_bound: &mut u32,
    table: &mut FxHashMap<P::State, u32>,
    capacity: usize,
) -> Visit {
    // The bound comes first: a goal beyond it may be longer than one elsewhere within it.
    let f = g.saturating_add(p.lower_bound(s));
    if f > bound {
        *next_bound = (*next_bound).min(f);
        return Visit::Prune;
    }
    if p.is_goal(s) {
        return Visit::Goal;
    }
    if capacity > 0 {
        let len = table.len();
        match table.get_mut(s) {
            Some(seen) if *seen <= g => return Visit::Prune,
            Some(seen) => *seen = g,
            None if len < capacity => {
                table.insert(s.clone(), g);
            }
            None => {}
        }
    }
    Visit::Expand
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bfs;
    use crate::search::testing::{replay_line, Line};

    #[test]
    fn ida_matches_bfs_with_and_without_table() {
        for goal in [3, 0, 7, 10, 33, 64, 99] {
            let p = Line {
                start: 3,
                goal,
                limit: 120,
            };
            let b = bfs(&p, &Limits::none());
            for cap in [0, 1 << 16] {
                let r = ida_star(&p, &Limits::none(), cap);
                assert_eq!(r.cost, b.cost, "goal {goal} table {cap}");
                assert_eq!(replay_line(3, r.outcome.solution().unwrap()), goal);
            }
        }
    }

    #[test]
    fn ida_proves_unsolvable_and_stops_at_limits() {
        let p = Line {
            start: 3,
            goal: 500,
            limit: 40,
        };
        // With the table, an iteration that cuts nothing off ends the search.
        let r = ida_star(&p, &Limits::none(), 1 << 10);
        assert_eq!(r.outcome, Outcome::Unsolvable);
        let r = ida_star(&p, &Limits::none().max_states(1000), 0);
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxStates));
    }
}
