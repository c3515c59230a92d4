//! The tree of every move sequence from the start, cut at a depth: a difficulty of move
//! sequences (the pushing thesis's equation 3) counts its edges and its solutions, for any
//! puzzle.

use crate::search::Puzzle;
use rustc_hash::FxHashMap;

/// The tree of move sequences of at most `depth` moves from the start of `p`: its edges
/// (moves, counted once per sequence that makes them) and its leaves at depth `depth` that
/// are goals (solutions of exactly that length; none when `depth` is 0). Counts saturate at
/// `u128::MAX`. Sequences reaching the same position are merged layer by layer, so the cost
/// is the positions per layer, not the sequences.
///
/// ```
/// use floe::search::push_tree::push_tree;
/// use floe::search::from_fn;
/// // from 0 by +1 or +2 towards 3
/// let p = from_fn(0u32, |&x| [(1, x + 1), (2, x + 2)], |&x| x == 3);
/// let (edges, solutions) = push_tree(&p, 2);
/// assert_eq!(edges, 2 + 4); // two first moves, four second moves
/// assert_eq!(solutions, 2); // 1 + 2 and 2 + 1
/// ```
pub fn push_tree<P: Puzzle>(p: &P, depth: u32) -> (u128, u128) {
    let mut layer: FxHashMap<P::State, u128> = FxHashMap::default();
    layer.insert(p.start(), 1);
    let mut edges: u128 = 0;
    for _ in 0..depth {
        let mut next: FxHashMap<P::State, u128> = FxHashMap::default();
        for (s, &n) in &layer {
            p.for_each_next(s, |t| {
                edges = edges.saturating_add(n);
                let e = next.entry(t).or_insert(0);
                *e = e.saturating_add(n);
            });
        }
        layer = next;
    }
    let solutions = if depth == 0 {
        0
    } else {
        layer
            .iter()
            .filter(|(s, _)| p.is_goal(s))
            .map(|(_, &n)| n)
            .fold(0u128, u128::saturating_add)
    };
    (edges, solutions)
}
