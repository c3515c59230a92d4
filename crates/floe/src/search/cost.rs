//! Move-cost models for [`dijkstra`](super::dijkstra) and [`astar`](super::astar).

use super::Puzzle;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Add;

/// How much a move costs. The cost may depend on what the path did before, which the model
/// keeps as a small `Memory` carried along each search node (e.g. which piece moved last).
pub trait CostModel<P: Puzzle> {
    /// What the model remembers about the path so far; part of the search node.
    type Memory: Clone + Eq + Hash;
    /// Path cost, ordered; `Default` is zero.
    type Cost: Copy + Ord + Add<Output = Self::Cost> + Default + Debug;

    /// Memory at the start.
    fn initial(&self, puzzle: &P) -> Self::Memory;
    /// Cost of `mv` from `from` (reached with `memory`) to `to`, and the memory after it.
    fn step(
        &self,
        puzzle: &P,
        from: &P::State,
        memory: &Self::Memory,
        mv: &P::Move,
        to: &P::State,
    ) -> (Self::Cost, Self::Memory);
    /// An admissible estimate of the remaining cost, given an admissible lower bound on the
    /// number of remaining moves. Must never exceed the true remaining cost.
    fn estimate(&self, moves_lower_bound: u32) -> Self::Cost;
    /// An upper bound on how much more any continuation can cost from one memory than from
    /// another at the same state. When given, a node whose state was already settled with a
    /// cost at least this much lower is dominated and not expanded — an exact pruning.
    fn memory_slack(&self) -> Option<Self::Cost> {
        None
    }
}

/// Every move costs 1; remembers nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitCost;

impl<P: Puzzle> CostModel<P> for UnitCost {
    type Memory = ();
    type Cost = u64;
    fn initial(&self, _: &P) {}
    fn step(&self, _: &P, _: &P::State, _: &(), _: &P::Move, _: &P::State) -> (u64, ()) {
        (1, ())
    }
    fn estimate(&self, moves_lower_bound: u32) -> u64 {
        moves_lower_bound as u64
    }
    fn memory_slack(&self) -> Option<u64> {
        Some(0)
    }
}

/// A pair of costs compared lexicographically: the first decides, the second breaks ties.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lex(pub u64, pub u64);

impl Add for Lex {
    type Output = Lex;
    fn add(self, o: Lex) -> Lex {
        Lex(self.0 + o.0, self.1 + o.1)
    }
}

/// Kluiver's difficulty: every move costs 1, and every *change* of piece (a move of a
/// different piece than the one the previous move moved) costs `factor` more. The cost is
/// [`Lex`]`(difficulty, moves)`, so among equally difficult solutions the shortest wins.
#[derive(Clone, Copy, Debug)]
pub struct ChangePenalty {
    /// Extra cost of a piece change.
    pub factor: u64,
}

impl<P: Puzzle> CostModel<P> for ChangePenalty {
    /// Cell of the piece moved last (`None` before the first move).
    type Memory = Option<u32>;
    type Cost = Lex;
    fn initial(&self, _: &P) -> Option<u32> {
        None
    }
    /// The piece comes from [`Puzzle::piece_moved`]; a move that displaces no single piece
    /// costs 1 and starts no chain.
    fn step(
        &self,
        p: &P,
        _: &P::State,
        last: &Option<u32>,
        mv: &P::Move,
        _: &P::State,
    ) -> (Lex, Option<u32>) {
        match p.piece_moved(mv) {
            Some((from, to)) => {
                let change = matches!(last, Some(c) if *c != from);
                (Lex(1 + if change { self.factor } else { 0 }, 1), Some(to))
            }
            None => (Lex(1, 1), None),
        }
    }
    fn estimate(&self, moves_lower_bound: u32) -> Lex {
        // difficulty ≥ moves, so (b, b) is below any (d, m) with d ≥ m ≥ b.
        Lex(moves_lower_bound as u64, moves_lower_bound as u64)
    }
    fn memory_slack(&self) -> Option<Lex> {
        // Only the first move of a continuation depends on the memory, and it costs at most
        // `factor` more (same number of moves).
        Some(Lex(self.factor, 0))
    }
}

/// The changes of piece along a move list (a move of another piece than the one the previous
/// move left: see [`Puzzle::piece_moved`]); `None` when the puzzle's moves displace no single
/// piece.
///
/// ```
/// use floe::search::{count_changes, dijkstra, ChangePenalty, Lex, Limits, Puzzle};
/// // two tokens, from cells 0 and 10, each slid on by 1 or 2 cells at a time, until they
/// // rest on cells 3 and 13; a move is (cell left, cell reached)
/// struct Two;
/// impl Puzzle for Two {
///     type State = (u32, u32);
///     type Move = (u32, u32);
///     fn start(&self) -> (u32, u32) {
///         (0, 10)
///     }
///     fn successors(&self, &(a, b): &(u32, u32), out: &mut Vec<((u32, u32), (u32, u32))>) {
///         for k in 1..=2 {
///             out.push(((a, a + k), (a + k, b)));
///             out.push(((b, b + k), (a, b + k)));
///         }
///     }
///     fn is_goal(&self, s: &(u32, u32)) -> bool {
///         *s == (3, 13)
///     }
///     fn piece_moved(&self, &m: &(u32, u32)) -> Option<(u32, u32)> {
///         Some(m)
///     }
/// }
/// assert_eq!(count_changes(&Two, &[(0, 2), (10, 11), (2, 3), (11, 13)]), Some(3));
/// // when a change costs 5 more, the least difficult solution moves one token, then the other
/// let r = dijkstra(&Two, &ChangePenalty { factor: 5 }, &Limits::none());
/// assert_eq!(count_changes(&Two, r.outcome.solution().unwrap()), Some(1));
/// assert_eq!(r.cost, Some(Lex(4 + 5, 4))); // (difficulty, moves)
/// ```
pub fn count_changes<P: Puzzle>(p: &P, moves: &[P::Move]) -> Option<u64> {
    let pieces: Option<Vec<(u32, u32)>> = moves.iter().map(|m| p.piece_moved(m)).collect();
    Some(pieces?.windows(2).filter(|w| w[1].0 != w[0].1).count() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves are (from, to) pairs of one piece.
    struct Pieces;
    impl Puzzle for Pieces {
        type State = u32;
        type Move = (u32, u32);
        fn start(&self) -> u32 {
            0
        }
        fn successors(&self, _: &u32, _: &mut Vec<((u32, u32), u32)>) {}
        fn is_goal(&self, _: &u32) -> bool {
            false
        }
        fn piece_moved(&self, m: &(u32, u32)) -> Option<(u32, u32)> {
            Some(*m)
        }
    }

    #[test]
    fn changes_follow_the_moved_piece() {
        // piece 1→5, then 5→9 (same piece), then 2→3 (change), then 3→1 (same)
        let moves = [(1, 5), (5, 9), (2, 3), (3, 1)];
        assert_eq!(count_changes(&Pieces, &moves), Some(1));
        assert_eq!(count_changes(&Pieces, &[]), Some(0));
        let line = crate::search::testing::Line::new(0, 1, 3);
        assert_eq!(count_changes(&line, &['+']), None);
    }

    #[test]
    fn lex_orders_by_first_then_second() {
        assert!(Lex(3, 9) < Lex(4, 1));
        assert!(Lex(3, 2) < Lex(3, 5));
        assert_eq!(Lex(1, 2) + Lex(3, 4), Lex(4, 6));
    }
}
