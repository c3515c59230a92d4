//! Replays PushPush pushes on a plain grid, independently of the bit-set engine, and says
//! which push is illegal and why. Every solution floe prints is replayed here first.

use super::board::Board;
use super::engine::Variant;
use crate::grid::{Dir, Pos, Push};
use std::fmt;

/// Why a push is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The pushed cell is not on the board.
    OffBoard,
    /// No block stands there.
    NoBlock,
    /// The robot would have to stand off the board or on a wall.
    NoRoomBehind,
    /// The robot cannot walk to the cell behind the block.
    Unreachable(Pos),
    /// The row of blocks reaches the edge or a wall: nothing beyond it is empty.
    Blocked,
    /// The row is longer than the variant allows.
    RowTooLong(usize),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::OffBoard => write!(f, "the cell is not on the board"),
            Illegal::NoBlock => write!(f, "no block stands there"),
            Illegal::NoRoomBehind => write!(
                f,
                "the robot would have to stand off the board or on a wall"
            ),
            Illegal::Unreachable(p) => write!(
                f,
                "the robot cannot walk to ({}, {}) behind the block",
                p.row, p.col
            ),
            Illegal::Blocked => write!(
                f,
                "the cell beyond the block is not empty (another block, a wall or the edge)"
            ),
            Illegal::RowTooLong(m) => write!(
                f,
                "the push would move a row of {m} blocks, more than the variant allows"
            ),
        }
    }
}

/// One legal push as replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The push.
    pub push: Push,
    /// The board after it (the robot where it stood to push).
    pub board: Board,
}

/// A replayed move list, every push legal.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The pushes with the board after each.
    pub steps: Vec<Step>,
    /// Whether the robot can walk onto the target at the end.
    pub solved: bool,
}

/// The cells the robot can walk to.
pub fn walkable(board: &Board) -> Vec<bool> {
    let mut seen = vec![false; board.cells()];
    let mut stack = vec![board.robot()];
    seen[board.index(board.robot())] = true;
    while let Some(p) = stack.pop() {
        for d in Dir::ALL {
            if let Some(q) = board.step(p, d) {
                let i = board.index(q);
                if !seen[i] && board.is_free(q) {
                    seen[i] = true;
                    stack.push(q);
                }
            }
        }
    }
    seen
}

/// Whether the robot can walk onto the target.
pub fn is_solved(board: &Board) -> bool {
    walkable(board)[board.index(board.target())]
}

/// Applies one push to `board`.
pub fn apply(board: &mut Board, push: Push, variant: Variant) -> Result<(), Illegal> {
    let p = push.pos();
    if !board.contains(p) {
        return Err(Illegal::OffBoard);
    }
    if !board.has_block(p) {
        return Err(Illegal::NoBlock);
    }
    let behind = board
        .step(p, push.dir.opposite())
        .filter(|&q| !board.is_wall(q))
        .ok_or(Illegal::NoRoomBehind)?;
    if !board.is_free(behind) || !walkable(board)[board.index(behind)] {
        return Err(Illegal::Unreachable(behind));
    }
    let mut row = vec![p];
    let mut next = board.step(p, push.dir);
    while let Some(q) = next.filter(|&q| board.has_block(q)) {
        row.push(q);
        next = board.step(q, push.dir);
    }
    match next {
        Some(q) if !board.is_wall(q) => {}
        _ => return Err(Illegal::Blocked),
    }
    if !variant.allows(row.len()) {
        return Err(Illegal::RowTooLong(row.len()));
    }
    // the robot walks behind the block, then pushes
    board
        .set_robot(behind)
        .expect("the robot can walk to the cell behind the block");
    // move the row one cell at a time while the cell beyond its front is empty
    loop {
        let front = *row.last().expect("a row has a block");
        match board.step(front, push.dir) {
            Some(q) if board.is_free(q) => {
                for c in row.iter_mut().rev() {
                    board
                        .set_block(*c, false)
                        .expect("the block is on the board");
                    let to = board.step(*c, push.dir).expect("checked above");
                    board.set_block(to, true).expect("the cell is free");
                    *c = to;
                }
            }
            _ => break,
        }
    }
    Ok(())
}

/// A push of a list that breaks the rules, with its place in the list and why.
pub type IllegalMove = crate::grid::IllegalPush<Illegal>;

/// Replays `pushes` from the board's start.
pub fn replay(board: &Board, pushes: &[Push], variant: Variant) -> Result<Replay, IllegalMove> {
    let mut b = board.clone();
    let mut steps = Vec::with_capacity(pushes.len());
    for (index, &push) in pushes.iter().enumerate() {
        apply(&mut b, push, variant).map_err(|reason| IllegalMove {
            index,
            push,
            reason,
        })?;
        steps.push(Step {
            push,
            board: b.clone(),
        });
    }
    Ok(Replay {
        solved: is_solved(&b),
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pushpush::board::parse;

    fn board(text: &str) -> Board {
        parse(text, "t").unwrap().remove(0)
    }

    #[test]
    fn replays_and_names_illegal_pushes() {
        let b = board("@$--\n##-.\n");
        let r = replay(
            &b,
            &[Push::new(Pos::new(0, 1), Dir::Right)],
            Variant::new(1),
        )
        .unwrap();
        assert!(r.solved);
        assert!(r.steps[0].board.has_block(Pos::new(0, 3)));
        let bad = |p: Push| replay(&b, &[p], Variant::new(1)).unwrap_err().reason;
        assert_eq!(bad(Push::new(Pos::new(0, 2), Dir::Right)), Illegal::NoBlock);
        assert_eq!(
            bad(Push::new(Pos::new(0, 1), Dir::Left)),
            Illegal::Unreachable(Pos::new(0, 2))
        );
        assert_eq!(
            bad(Push::new(Pos::new(0, 1), Dir::Up)),
            Illegal::NoRoomBehind
        );
        assert_eq!(bad(Push::new(Pos::new(5, 1), Dir::Up)), Illegal::OffBoard);
        let b = board("@$$-.\n");
        let e = replay(
            &b,
            &[Push::new(Pos::new(0, 1), Dir::Right)],
            Variant::new(1),
        )
        .unwrap_err();
        assert_eq!(e.reason, Illegal::RowTooLong(2));
        let r = replay(
            &b,
            &[Push::new(Pos::new(0, 1), Dir::Right)],
            Variant::new(0),
        )
        .unwrap();
        assert!(
            r.steps[0].board.has_block(Pos::new(0, 3))
                && r.steps[0].board.has_block(Pos::new(0, 4))
        );
        assert!(!r.solved);
        let b = board("@$#.\n");
        let e = replay(
            &b,
            &[Push::new(Pos::new(0, 1), Dir::Right)],
            Variant::new(1),
        )
        .unwrap_err();
        assert_eq!(e.reason, Illegal::Blocked);
    }
}
