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

/// A move that displaces one piece, identified by the cell it leaves and the cell it ends on.
/// Pieces need not be distinguishable: the piece a later move pushes is "the same piece" when
/// it stands where the earlier move left it.
pub trait PieceMove {
    /// Cell (any game-specific index) the piece stands on before the move.
    fn piece_from(&self) -> u32;
    /// Cell the piece rests on after the move.
    fn piece_to(&self) -> u32;
}

/// Kluiver's difficulty: every move costs 1, and every *change* of piece (a move of a
/// different piece than the one the previous move moved) costs `factor` more. The cost is
/// [`Lex`]`(difficulty, moves)`, so among equally difficult solutions the shortest wins.
#[derive(Clone, Copy, Debug)]
pub struct ChangePenalty {
    /// Extra cost of a piece change.
    pub factor: u64,
}

impl<P: Puzzle> CostModel<P> for ChangePenalty
where
    P::Move: PieceMove,
{
    /// Cell of the piece moved last (`None` before the first move).
    type Memory = Option<u32>;
    type Cost = Lex;
    fn initial(&self, _: &P) -> Option<u32> {
        None
    }
    fn step(
        &self,
        _: &P,
        _: &P::State,
        last: &Option<u32>,
        mv: &P::Move,
        _: &P::State,
    ) -> (Lex, Option<u32>) {
        let change = matches!(last, Some(c) if *c != mv.piece_from());
        (
            Lex(1 + if change { self.factor } else { 0 }, 1),
            Some(mv.piece_to()),
        )
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

/// Replays the piece identities of a move list: the number of piece changes.
pub fn count_changes<M: PieceMove>(moves: &[M]) -> u64 {
    moves
        .windows(2)
        .filter(|w| w[1].piece_from() != w[0].piece_to())
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    struct M(u32, u32);
    impl PieceMove for M {
        fn piece_from(&self) -> u32 {
            self.0
        }
        fn piece_to(&self) -> u32 {
            self.1
        }
    }

    #[test]
    fn changes_follow_the_moved_piece() {
        // piece 1→5, then 5→9 (same piece), then 2→3 (change), then 3→1 (same)
        let moves = [M(1, 5), M(5, 9), M(2, 3), M(3, 1)];
        assert_eq!(count_changes(&moves), 1);
        assert_eq!(count_changes::<M>(&[]), 0);
    }

    #[test]
    fn lex_orders_by_first_then_second() {
        assert!(Lex(3, 9) < Lex(4, 1));
        assert!(Lex(3, 2) < Lex(3, 5));
        assert_eq!(Lex(1, 2) + Lex(3, 4), Lex(4, 6));
    }
}
