//! The thesis's difficulty of a board (equation 3).

use super::board::Board;
use super::engine::{with_puzzle, Variant};
use crate::error::Error;
use crate::game::{Engine, Task};
use crate::grid::Push;
use crate::search::push_tree::push_tree;
use serde::Serialize;

/// The thesis's difficulty of a board solvable in `pushes` pushes: in the tree of all push
/// sequences of at most that length from the start, `possible_moves` edges and `solutions`
/// paths that end solved; `value` = (1 − solutions / possible_moves) × 5, 0 when no push is
/// needed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Difficulty {
    /// Fewest pushes.
    pub pushes: u32,
    /// Edges of the push tree cut at depth `pushes`.
    pub possible_moves: u128,
    /// Push sequences of length `pushes` that solve the board.
    pub solutions: u128,
    /// (1 − solutions / possible_moves) × 5.
    pub value: f64,
}

impl Difficulty {
    /// The measure from its counts.
    pub fn new(pushes: u32, possible_moves: u128, solutions: u128) -> Difficulty {
        let value = if possible_moves == 0 {
            0.0
        } else {
            (1.0 - solutions as f64 / possible_moves as f64) * 5.0
        };
        Difficulty {
            pushes,
            possible_moves,
            solutions,
            value,
        }
    }
}

/// The difficulty of a board solvable in `pushes` pushes: the push tree of its start cut at
/// that depth ([`push_tree`]).
pub fn difficulty(board: &Board, variant: Variant, pushes: u32) -> Result<Difficulty, Error> {
    struct T(u32);
    impl Task<Push> for T {
        type Output = Difficulty;
        fn run<E: Engine<Public = Push>>(self, p: &E) -> Difficulty {
            let (edges, solutions) = push_tree(p, self.0);
            Difficulty::new(self.0, edges, solutions)
        }
    }
    with_puzzle(board, variant, T(pushes))
}
