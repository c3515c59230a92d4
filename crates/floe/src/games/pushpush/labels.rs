//! One board's exact labels for learning: fewest pushes and the thesis's difficulty
//! (equation 3), and the key of its equivalence class.
//!
//! Two boards are equivalent when they differ only in the robot's cell within its walkable
//! region, or by a symmetry of the rectangle, or both: the census's classes ("both"). Such
//! boards have the same fewest pushes and the same difficulty, so a data split that keeps a
//! class whole keeps a model from being tested on a board it saw in another guise.

use super::board::Board;
use super::census::symmetries;
use super::engine::{with_puzzle, Variant};
use super::solve::Difficulty;
use crate::error::Error;
use crate::game::{Engine, Task};
use crate::grid::{Pos, Push};
use crate::search::push_tree::push_tree;
use crate::search::{self, Limits, Outcome};

/// A board's exact labels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    /// Fewest pushes; `None` when the board is unsolvable.
    pub pushes: Option<u32>,
    /// The thesis's difficulty (0 to 5) when solvable.
    pub difficulty: Option<f64>,
}

/// The fewest pushes (breadth-first search) and the difficulty of `board`.
pub fn label(board: &Board, variant: Variant) -> Result<Label, Error> {
    struct T;
    impl Task<Push> for T {
        type Output = Label;
        fn run<E: Engine<Public = Push>>(self, p: &E) -> Label {
            match search::bfs(p, &Limits::default()).outcome {
                Outcome::Solved(m) => {
                    let d = m.len() as u32;
                    let (edges, solutions) = push_tree(p, d);
                    Label {
                        pushes: Some(d),
                        difficulty: Some(Difficulty::new(d, edges, solutions).value),
                    }
                }
                _ => Label {
                    pushes: None,
                    difficulty: None,
                },
            }
        }
    }
    with_puzzle(board, variant, T)
}

/// The key of the board's class up to the robot's cell in its region and the symmetries of
/// the rectangle: the least (blocks, region, target) over the symmetric images, packed as
/// `blocks << 64 | region << 32 | target`. Boards without walls of at most 32 cells.
pub fn class_key(board: &Board) -> Result<u128, Error> {
    let (rows, cols) = (board.rows(), board.cols());
    let n = rows * cols;
    if n > 32 {
        return Err(Error::invalid(format!(
            "class keys take boards of at most 32 cells, not {n}"
        )));
    }
    let walk = super::validate::walkable(board);
    let mut blocks = 0u32;
    let mut region = 0u32;
    for (i, &walkable) in walk.iter().enumerate() {
        let p = Pos::new(i / cols, i % cols);
        if board.is_wall(p) {
            return Err(Error::invalid("class keys take boards without walls"));
        }
        if board.has_block(p) {
            blocks |= 1 << i;
        }
        if walkable {
            region |= 1 << i;
        }
    }
    let target = board.index(board.target());
    let map = |m: u32, perm: &[usize]| {
        (0..n)
            .filter(|&i| m >> i & 1 == 1)
            .fold(0u32, |a, i| a | 1 << perm[i])
    };
    Ok(symmetries(rows, cols)
        .iter()
        .map(|perm| {
            (u128::from(map(blocks, perm)) << 64)
                | (u128::from(map(region, perm)) << 32)
                | perm[target] as u128
        })
        .min()
        .expect("the identity is a symmetry"))
}

/// Every board of a `rows × cols` rectangle without walls in a fixed order: index
/// `(robot · (n − 1) + t) · 2^(n − 1) + blocks`, `t` the target among the cells other than
/// the robot's and `blocks` the block set over the cells other than the robot's (n ≤ 32).
pub fn board_count(rows: usize, cols: usize) -> u64 {
    let n = (rows * cols) as u64;
    (n * (n - 1)) << (n - 1)
}

/// The board with index `index` in the order of [`board_count`].
pub fn board_at(rows: usize, cols: usize, index: u64) -> Result<Board, Error> {
    let n = rows * cols;
    if !(2..=32).contains(&n) || index >= board_count(rows, cols) {
        return Err(Error::invalid(format!("no board {index} of {rows}×{cols}")));
    }
    let per = 1u64 << (n - 1);
    let blocks = index % per;
    let rt = index / per;
    let robot = (rt / (n as u64 - 1)) as usize;
    let mut target = (rt % (n as u64 - 1)) as usize;
    if target >= robot {
        target += 1;
    }
    let pos = |i: usize| Pos::new(i / cols, i % cols);
    let mut b = Board::new(rows, cols, pos(robot), pos(target))?;
    for (k, i) in (0..n).filter(|&i| i != robot).enumerate() {
        if blocks >> k & 1 == 1 {
            b.set_block(pos(i), true)?;
        }
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pushpush::census::{census, CensusOptions, CensusOutcome};
    use std::collections::HashSet;

    #[test]
    fn labels_and_classes_agree_with_the_census_on_3x3() {
        let c = match census(&CensusOptions::new(3, 3)).unwrap() {
            CensusOutcome::Done(c) => c,
            CensusOutcome::Limit { .. } => panic!("no limit was set"),
        };
        let total = board_count(3, 3);
        assert_eq!(total, c.boards);
        let mut by_pushes = vec![0u64; c.by_pushes.len()];
        let mut unsolvable = 0;
        let mut keys = HashSet::new();
        for i in 0..total {
            let b = board_at(3, 3, i).unwrap();
            let l = label(&b, Variant::default()).unwrap();
            match l.pushes {
                Some(d) => {
                    by_pushes[d as usize] += 1;
                    let v = l.difficulty.unwrap();
                    assert!((0.0..=5.0).contains(&v));
                }
                None => unsolvable += 1,
            }
            keys.insert(class_key(&b).unwrap());
        }
        assert_eq!(by_pushes, c.by_pushes);
        assert_eq!(unsolvable, c.unsolvable);
        assert_eq!(keys.len() as u64, c.classes.both);
    }

    #[test]
    fn equivalent_boards_share_a_key() {
        let b = board_at(4, 4, 123_456).unwrap();
        let k = class_key(&b).unwrap();
        // the robot moved within its region
        let walk = crate::games::pushpush::validate::walkable(&b);
        for (i, &w) in walk.iter().enumerate() {
            if w && i != b.index(b.target()) {
                let mut m = b.clone();
                m.set_robot(Pos::new(i / 4, i % 4)).unwrap();
                assert_eq!(class_key(&m).unwrap(), k);
            }
        }
        // the board turned a quarter: (r, c) → (c, 3 − r)
        let turn = |p: Pos| Pos::new(p.col, 3 - p.row);
        let mut t = Board::new(4, 4, turn(b.robot()), turn(b.target())).unwrap();
        for i in 0..16 {
            let p = Pos::new(i / 4, i % 4);
            if b.has_block(p) {
                t.set_block(turn(p), true).unwrap();
            }
        }
        assert_eq!(class_key(&t).unwrap(), k);
        assert!(board_at(4, 4, board_count(4, 4)).is_err());
    }
}
