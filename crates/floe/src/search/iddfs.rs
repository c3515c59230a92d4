//! Plain iterative deepening, with no memory of positions: the reference solver of the
//! PushPush thesis, kept to check faster searches against.

use super::Puzzle;

/// The fewest moves to a goal by depth-first searches of growing depth (0, 1, 2, … up to
/// `max_depth`), remembering nothing between them: `None` when there is no solution of at most
/// `max_depth` moves. Exponential in the depth; a reference, not a solver.
///
/// ```
/// use floe::search::{from_fn, iterative_deepening};
/// let p = from_fn(1u32, |&x| [('+', x + 1), ('*', 2 * x)], |&x| x == 10);
/// assert_eq!(iterative_deepening(&p, 10), Some(4));
/// assert_eq!(iterative_deepening(&p, 3), None);
/// ```
pub fn iterative_deepening<P: Puzzle>(p: &P, max_depth: u32) -> Option<u32> {
    fn dfs<P: Puzzle>(p: &P, s: &P::State, left: u32) -> bool {
        if p.is_goal(s) {
            return true;
        }
        if left == 0 {
            return false;
        }
        let mut next = Vec::new();
        p.for_each_next(s, |t| next.push(t));
        next.iter().any(|t| dfs(p, t, left - 1))
    }
    let start = p.start();
    (0..=max_depth).find(|&d| dfs(p, &start, d))
}
