//! Depth-first search for the first solution, with a table of positions proved dead.

use super::limits::Budget;
use super::{Limits, Outcome, Puzzle, SearchResult, Stats};
use rustc_hash::FxHashSet;

/// The successors of a position on the path and the index of the next to try.
type Frame<P> = (Vec<(<P as Puzzle>::Move, <P as Puzzle>::State)>, usize);

/// Depth-first search that stops at the first solution it finds, remembering every position
/// it has entered (so each is searched once: a position it left without a solution is dead,
/// and one on the current path is not entered again). The answer "unsolvable" is always a
/// proof; a solution is a **shortest** one only in puzzles where every solution has the same
/// length (BoxOff: every move removes two of the tokens, all of which must go). It keeps no
/// parents and no queue, only the path and the set of positions entered, which makes it the
/// fastest exact search for such puzzles.
///
/// `Stats::states` counts the positions entered, the start included; `max_states` limits
/// that count.
///
/// ```
/// use floe::search::{dfs_first, from_fn, Limits};
/// // take 1 or 2 stones from 5; every solution empties the pile
/// let p = from_fn(5u32, |&n| (1..=2.min(n)).map(move |k| (k, n - k)), |&n| n == 0);
/// let r = dfs_first(&p, &Limits::none());
/// assert_eq!(r.outcome.solution().map(|m| m.iter().sum::<u32>()), Some(5));
/// ```
pub fn dfs_first<P: Puzzle>(p: &P, limits: &Limits) -> SearchResult<P::Move, u64> {
    let mut budget = Budget::new(limits);
    let mut stats = Stats::default();
    // every position entered but the start: dead ones and the current path
    let mut seen: FxHashSet<P::State> = FxHashSet::default();
    // the position at each depth of the current path, its successors and the next to try
    let mut states: Vec<P::State> = vec![p.start()];
    let mut frames: Vec<Frame<P>> = Vec::new();
    let mut spare: Vec<Vec<(P::Move, P::State)>> = Vec::new();
    let mut path: Vec<P::Move> = Vec::new();
    let outcome = 'search: {
        if p.is_goal(&states[0]) {
            break 'search Ok(true);
        }
        loop {
            // expand the position on top of `states`
            let depth = states.len() - 1;
            if let Some(l) = budget.over(seen.len() as u64, &stats) {
                break 'search Err(l);
            }
            stats.expanded += 1;
            stats.depth = stats.depth.max(depth as u32 + 1);
            let mut succ = spare.pop().unwrap_or_default();
            p.successors(&states[depth], &mut succ);
            stats.generated += succ.len() as u64;
            frames.push((succ, 0));
            // descend into the next live successor, backing up from exhausted positions
            loop {
                let Some((succ, next)) = frames.last_mut() else {
                    break 'search Ok(false);
                };
                let child = succ[*next..].iter().position(|(_, t)| !seen.contains(t));
                match child {
                    Some(i) => {
                        let (m, t) = succ[*next + i].clone();
                        *next += i + 1;
                        path.push(m);
                        if p.is_goal(&t) {
                            break 'search Ok(true);
                        }
                        seen.insert(t.clone());
                        states.push(t);
                        break;
                    }
                    None => {
                        let (mut succ, _) = frames.pop().expect("a frame is on top");
                        succ.clear();
                        spare.push(succ);
                        states.pop();
                        if frames.is_empty() {
                            break 'search Ok(false);
                        }
                        path.pop();
                    }
                }
            }
        }
    };
    // the goal a solution ends on was not entered: it counts too
    stats.states =
        seen.len() as u64 + 1 + u64::from(matches!(outcome, Ok(true)) && !path.is_empty());
    stats.elapsed = budget.elapsed();
    let outcome = match outcome {
        Ok(true) => Outcome::Solved(path),
        Ok(false) => Outcome::Unsolvable,
        Err(l) => Outcome::Limit(l),
    };
    SearchResult::counting_moves(outcome, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::Line;
    use crate::search::{bfs, LimitKind};

    #[test]
    fn finds_a_solution_or_proves_there_is_none() {
        let p = Line::new(3, 17, 40);
        let r = dfs_first(&p, &Limits::none());
        let m = r.outcome.solution().expect("solvable");
        assert_eq!(crate::search::testing::replay_line(3, m), 17);
        let p = Line::new(3, 99, 40);
        let r = dfs_first(&p, &Limits::none());
        assert_eq!(r.outcome, Outcome::Unsolvable);
        assert_eq!(bfs(&p, &Limits::none()).outcome, Outcome::Unsolvable);
        let r = dfs_first(&p, &Limits::none().max_states(5));
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxStates));
    }

    #[test]
    fn the_first_solution_found_is_not_the_shortest_unless_all_are_as_long() {
        // 0 → 1 | 4, 1 → 2 → 3 → 4; 4 is the goal. The first successor is tried first, so
        // the search goes the long way round: 4 moves where breadth-first search finds 1
        let p = crate::search::from_fn(
            0u8,
            |&x| {
                let next: &[u8] = match x {
                    0 => &[1, 4],
                    1..=3 => &[x + 1],
                    _ => &[],
                };
                next.iter().map(|&y| (y, y)).collect::<Vec<_>>()
            },
            |&x| x == 4,
        );
        let first = dfs_first(&p, &Limits::none());
        let fewest = bfs(&p, &Limits::none());
        assert_eq!(first.outcome.solution(), Some(&[1, 2, 3, 4][..]));
        assert_eq!(fewest.outcome.solution(), Some(&[4][..]));
        // every solution as long as the others (walk from a corner of a 3 × 4 grid to the
        // opposite one, right or down): the first one found is a shortest one
        let p = crate::search::from_fn(
            (0u8, 0u8),
            |&(x, y)| {
                [('R', (x + 1, y)), ('D', (x, y + 1))]
                    .into_iter()
                    .filter(|&(_, (x, y))| x <= 3 && y <= 2)
            },
            |&s| s == (3, 2),
        );
        let first = dfs_first(&p, &Limits::none()).outcome;
        let fewest = bfs(&p, &Limits::none()).outcome;
        // 3 right and 2 down, in any order
        assert_eq!(first.solution().map(<[char]>::len), Some(5));
        assert_eq!(fewest.solution().map(<[char]>::len), Some(5));
    }
}
