//! Bounds learned from earlier searches, for searches that are asked again and again about
//! positions of one level (the verdict after every move of a game in play).
//!
//! Every search of a level looks for the same goals, from whichever start. When an A* from
//! `s` has found that `s` needs `C` moves at the fewest, any stored node `n` it reached by a
//! path of `g` moves needs at least `C − g`: otherwise `s` could be solved in fewer than `C`
//! through `n` (`C ≤ dist(s, n) + d*(n) ≤ g + d*(n)`). That holds whatever the start of a
//! later search, so the bound stays admissible for every position of the level; where it
//! beats the game's own bound, later searches expand far fewer nodes (the idea of Koenig and
//! Likhachev's Adaptive A*). A search that proves a start unsolvable proves every node it
//! stored unsolvable, too; a search stopped by a limit with a proved bound `L` gives `L − g`.
//!
//! [`Informed`] is the level's puzzle with these bounds: the larger of the two bounds, and
//! the positions known to be unsolvable left out of the successors.
//!
//! A level's symmetries ([`Puzzle::symmetries`]) carry every position to one exactly as far
//! from a goal, so the table keeps one position of each class: its keys are the puzzle's
//! [`Puzzle::canonical`] positions, and [`Informed`] searches them as A* does the puzzle.

use super::{forward_puzzle, Puzzle};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;

/// A learned bound meaning "no goal can be reached from here".
pub const UNSOLVABLE: u32 = u32::MAX;

/// The flag of a stored bound that is the exact number of moves (a solution's position).
const EXACT: u32 = 1 << 31;

/// Lower bounds on the moves still needed, learned per position by earlier searches of one
/// level (see the module notes). Holds at most `capacity` positions, plus the positions of
/// solutions ([`Learned::learn_exact`]): past that, bounds of positions it already holds
/// still rise, and new positions are not added.
#[derive(Clone, Debug)]
pub struct Learned<S> {
    map: HashMap<S, u32, FxBuildHasher>,
    capacity: usize,
}

impl<S: Clone + Eq + std::hash::Hash> Learned<S> {
    /// An empty table of at most `capacity` positions.
    pub fn new(capacity: usize) -> Learned<S> {
        Learned {
            map: HashMap::default(),
            capacity,
        }
    }
    /// The bound learned for `s` ([`UNSOLVABLE`] when it cannot be solved), if any.
    pub fn get(&self, s: &S) -> Option<u32> {
        self.map
            .get(s)
            .map(|&b| if b == UNSOLVABLE { b } else { b & !EXACT })
    }
    /// The fewest moves from `s`, when a solution through it was proved optimal.
    pub fn exact(&self, s: &S) -> Option<u32> {
        self.map
            .get(s)
            .filter(|&&b| b != UNSOLVABLE && b & EXACT != 0)
            .map(|&b| b & !EXACT)
    }
    /// Raises the bound of `s` to `bound` (a bound only ever rises: each is a proof). A
    /// full table takes no new position.
    pub fn learn(&mut self, s: &S, bound: u32) {
        let bound = if bound == UNSOLVABLE {
            UNSOLVABLE
        } else {
            bound.min(EXACT - 1)
        };
        if let Some(b) = self.map.get_mut(s) {
            // an exact count is above every bound already (and never unsolvable)
            if bound == UNSOLVABLE || *b & EXACT == 0 {
                *b = (*b).max(bound);
            }
        } else if self.map.len() < self.capacity {
            self.map.insert(s.clone(), bound);
        }
    }
    /// Files the fewest moves from `s`, for the positions of a solution just proved optimal:
    /// taken even by a full table (a solution's few positions past the capacity).
    pub fn learn_exact(&mut self, s: &S, moves: u32) {
        self.map.insert(s.clone(), moves.min(EXACT - 1) | EXACT);
    }
    /// Positions held.
    pub fn len(&self) -> usize {
        self.map.len()
    }
    /// Whether nothing was learned yet.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
    /// Bytes held, roughly (for memory caps).
    pub fn bytes(&self) -> usize {
        self.map.capacity() * (std::mem::size_of::<(S, u32)>() + 1)
    }
}

/// A puzzle whose bound is the larger of its own and the [`Learned`] one, and whose
/// successors leave out the positions known to be unsolvable. It has the puzzle's symmetries
/// and packing: the table's keys are canonical positions, and [`Puzzle::lower_bound`] is
/// asked of canonical positions (as the searches that fold symmetries ask it).
pub struct Informed<'a, P: Puzzle> {
    /// The puzzle.
    pub puzzle: &'a P,
    /// What earlier searches proved about its positions.
    pub learned: &'a Learned<P::State>,
}

impl<P: Puzzle> Puzzle for Informed<'_, P> {
    type State = P::State;
    type Move = P::Move;
    fn successors(&self, s: &P::State, out: &mut Vec<(P::Move, P::State)>) {
        self.puzzle.successors(s, out);
        if !self.learned.is_empty() {
            out.retain(|(_, t)| self.learned.get(&self.puzzle.canonical(t)) != Some(UNSOLVABLE));
        }
    }
    fn lower_bound(&self, s: &P::State) -> u32 {
        let own = self.puzzle.lower_bound(s);
        match self.learned.get(s) {
            Some(b) => own.max(b),
            None => own,
        }
    }
    forward_puzzle!(puzzle: start, is_goal, symmetries, canonical, packed_len, pack, unpack);
    fn canonical_successors(&self, s: &P::State, out: &mut Vec<(P::Move, P::State)>) {
        self.puzzle.canonical_successors(s, out);
        if !self.learned.is_empty() {
            out.retain(|(_, t)| self.learned.get(t) != Some(UNSOLVABLE));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{astar_learning, astar_proving, bfs, from_fn, Limits, Outcome};

    /// Bounds only rise; exact counts and "unsolvable" are kept apart from bounds.
    #[test]
    fn bounds_rise_and_exact_counts_stay() {
        let mut l = Learned::new(2);
        l.learn(&1u32, 3);
        l.learn(&1, 2);
        assert_eq!((l.get(&1), l.exact(&1)), (Some(3), None));
        l.learn_exact(&2, 5);
        l.learn(&2, 4);
        assert_eq!((l.get(&2), l.exact(&2)), (Some(5), Some(5)));
        // full: no new bound, but a solution's position still enters
        l.learn(&3, 1);
        assert_eq!(l.get(&3), None);
        l.learn_exact(&4, 0);
        assert_eq!(l.exact(&4), Some(0));
        l.learn(&1, UNSOLVABLE);
        assert_eq!((l.get(&1), l.exact(&1)), (Some(UNSOLVABLE), None));
    }

    /// A ring of 30 cells with one-way shortcuts and a dead branch: every start, asked in a
    /// shuffled order with one table learning throughout, gets the fewest moves BFS finds (or
    /// "unsolvable" for the dead branch), and the later questions expand fewer positions.
    #[test]
    fn learned_answers_are_the_fewest_moves_from_every_start() {
        let next = |&x: &u32| -> Vec<(char, u32)> {
            match x {
                100.. => vec![('d', (x + 1).min(110))], // the dead branch
                _ => vec![
                    ('+', (x + 1) % 30),
                    ('-', (x + 29) % 30),
                    ('j', (x * 7 + 3) % 30),
                    ('x', if x == 13 { 100 } else { x }),
                ],
            }
        };
        let puzzle = |x: u32| from_fn(x, next, |&x| x == 0).with_bound(|_| 0);
        let mut learned = Learned::new(10_000);
        let mut order: Vec<u32> = (0..30).chain(100..111).collect();
        order.reverse();
        order.swap(3, 17);
        let (mut fresh_work, mut learned_work) = (0, 0);
        for x in order {
            let p = puzzle(x);
            let want = bfs(&p, &Limits::none()).cost;
            let fresh = astar_proving(&p, &Limits::none());
            let r = astar_learning(&p, &Limits::none(), &mut learned);
            fresh_work += fresh.stats.expanded;
            learned_work += r.stats.expanded;
            match r.outcome {
                Outcome::Solved(m) => {
                    assert_eq!(Some(m.len() as u64), want, "from {x}");
                    let mut at = x;
                    for mv in m {
                        at = next(&at).into_iter().find(|&(c, _)| c == mv).unwrap().1;
                    }
                    assert_eq!(at, 0, "from {x}: the moves do not lead to the goal");
                }
                Outcome::Unsolvable => assert_eq!(want, None, "from {x}"),
                Outcome::Limit(l) => panic!("from {x}: {l:?}"),
            }
        }
        assert!(learned_work < fresh_work, "{learned_work} ≥ {fresh_work}");
    }
}
