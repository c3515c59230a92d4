//! The solution validator: replays pushes on a plain grid, independently of the bitboard
//! engine, and says exactly which push is illegal and why.
//!
//! Every solution floe prints is replayed here first, so the engine and this module check
//! each other.

use super::level::{cell_name, Cell, Level, WalkRule};
use crate::grid::{Dir, Pos, Push};
use std::collections::VecDeque;
use std::fmt;

/// One legal push as replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The push.
    pub push: Push,
    /// Where the block came to rest.
    pub to: Pos,
    /// Whether this push moved a different block than the previous one.
    pub block_change: bool,
}

/// A replayed move list: every push legal.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The pushes with where each block stopped.
    pub steps: Vec<Step>,
    /// The board after the last push, with the player where the last pusher stood if that
    /// is an ice or target cell (a level records the player only there).
    pub end: Level,
    /// Whether every target holds a block at the end.
    pub solved: bool,
}

impl Replay {
    /// Number of pushes.
    pub fn pushes(&self) -> u64 {
        self.steps.len() as u64
    }
    /// Number of block changes (spec: a push of another block than the previous push moved).
    pub fn block_changes(&self) -> u64 {
        self.steps.iter().filter(|s| s.block_change).count() as u64
    }
    /// Kluiver's difficulty: pushes + factor × block changes.
    pub fn difficulty(&self, factor: u64) -> u64 {
        self.pushes()
            .saturating_add(factor.saturating_mul(self.block_changes()))
    }
}

/// Why a push is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The position is not on the board.
    OffBoard,
    /// No block stands there.
    NoBlock,
    /// The pusher's cell is a wall.
    PusherOnWall(Pos),
    /// The pusher's cell holds a block.
    PusherOnBlock(Pos),
    /// Under `walk`, the player cannot walk to the pusher's cell.
    PusherUnreachable(Pos),
    /// The block cannot move: the next cell stops it at once.
    Stuck(Option<Pos>, &'static str),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::OffBoard => write!(f, "that cell is outside the board"),
            Illegal::NoBlock => write!(f, "there is no block there"),
            Illegal::PusherOnWall(p) => write!(f, "the pusher would stand on a wall at ({p})"),
            Illegal::PusherOnBlock(p) => {
                write!(f, "the pusher would stand on a block at ({p})")
            }
            Illegal::PusherUnreachable(p) => write!(
                f,
                "the player cannot walk to ({p}) to push from there (walk rule)"
            ),
            Illegal::Stuck(Some(p), what) => {
                write!(f, "the block cannot move: ({p}) next to it is {what}")
            }
            Illegal::Stuck(None, what) => {
                write!(f, "the block cannot move: next to it is {what}")
            }
        }
    }
}

/// A position on the plain grid: the board without the player, where the player stands
/// (`None`: outside the board), and where the last pushed block came to rest (to tell block
/// changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The board, blocks where they are, no player.
    pub board: Level,
    /// Where the player stands: where he last pushed from, or his start.
    pub player: Option<Pos>,
    /// Where the block pushed last rests.
    pub last: Option<Pos>,
}

impl Position {
    /// The start of `level`.
    pub fn start(level: &Level) -> Position {
        let mut board = level.clone();
        // The player is tracked apart from the board: under `free` he does not stand in the
        // way of a sliding block, and under `walk` he is always behind the block he pushes.
        let player = level.player();
        board
            .set_player(None)
            .expect("removing the player always succeeds");
        Position {
            board,
            player,
            last: None,
        }
    }

    /// The board with the player where he stands, if that is an ice or target cell (a level
    /// records a player only there).
    pub fn level(&self) -> Level {
        let mut board = self.board.clone();
        if let Some(p) = self.player {
            let _ = board.set_player(Some(p));
        }
        board
    }
}

/// Plays one push on `pos` under `rule`: where the block comes to rest and whether it is a
/// block change, or why the push is illegal (nothing changes then).
pub fn step(pos: &mut Position, rule: WalkRule, push: Push) -> Result<Step, Illegal> {
    let board = &mut pos.board;
    let from = push.pos();
    if !board.contains(from) {
        return Err(Illegal::OffBoard);
    }
    if !board.has_block(from) {
        return Err(Illegal::NoBlock);
    }
    let behind = board.step(from, push.dir.opposite());
    if let Some(b) = behind {
        if board.cell(b) == Cell::Wall {
            return Err(Illegal::PusherOnWall(b));
        }
        if board.has_block(b) {
            return Err(Illegal::PusherOnBlock(b));
        }
    }
    if rule == WalkRule::Walk && !can_walk(board, pos.player, from, push.dir.opposite()) {
        return Err(Illegal::PusherUnreachable(behind.unwrap_or(from)));
    }
    // slide
    let mut at = from;
    loop {
        match board.step(at, push.dir) {
            Some(next) if board.cell(next).holds_blocks() && !board.has_block(next) => at = next,
            next => {
                if at == from {
                    let what = match next {
                        None => "the edge of the board",
                        Some(n) if board.has_block(n) => "another block",
                        Some(n) => cell_name(board.cell(n)),
                    };
                    return Err(Illegal::Stuck(next, what));
                }
                break;
            }
        }
    }
    board
        .set_block(from, false)
        .and_then(|_| board.set_block(at, true))
        .expect("a block slides only over cells that hold blocks");
    pos.player = behind;
    let block_change = pos.last.is_some_and(|l| l != from);
    pos.last = Some(at);
    Ok(Step {
        push,
        to: at,
        block_change,
    })
}

/// A push of a list that breaks the rules, with its place in the list and why.
pub type IllegalMove = crate::grid::IllegalPush<Illegal>;

/// Replays `moves` from the start of `level` under `rule`.
pub fn replay(level: &Level, rule: WalkRule, moves: &[Push]) -> Result<Replay, IllegalMove> {
    let mut pos = Position::start(level);
    let mut steps: Vec<Step> = Vec::with_capacity(moves.len());
    for (index, &push) in moves.iter().enumerate() {
        let s = step(&mut pos, rule, push).map_err(|reason| IllegalMove {
            index,
            push,
            reason,
        })?;
        steps.push(s);
    }
    // The player ends where the last pusher stood, or where he started if nothing was
    // pushed. A level records a player only on ice or a target; elsewhere (normal floor,
    // outside) the end board has none.
    let end = pos.level();
    let solved = end.is_solved();
    Ok(Replay { steps, end, solved })
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({}, {}) {:<5} → ({}, {}){}",
            self.push.row,
            self.push.col,
            self.push.dir.name(),
            self.to.row,
            self.to.col,
            if self.block_change {
                "   (block change)"
            } else {
                ""
            }
        )
    }
}

/// Whether the player, standing at `player` (`None`: outside the board), can walk to the cell
/// on side `side` of `block` (which may be outside the board).
fn can_walk(board: &Level, player: Option<Pos>, block: Pos, side: Dir) -> bool {
    // Padded grid: a ring of outside floor around the board.
    let (rows, cols) = (board.rows() + 2, board.cols() + 2);
    let inner = |r: usize, c: usize| -> Option<Pos> {
        (r >= 1 && r <= board.rows() && c >= 1 && c <= board.cols()).then(|| Pos::new(r - 1, c - 1))
    };
    let free = |r: usize, c: usize| match inner(r, c) {
        None => true,
        Some(p) => board.cell(p) != Cell::Wall && !board.has_block(p),
    };
    let (dr, dc) = side.delta();
    let goal = (
        (block.row as isize + 1 + dr) as usize,
        (block.col as isize + 1 + dc) as usize,
    );
    let start = player.map_or((0, 0), |p| (p.row + 1, p.col + 1));
    let mut seen = vec![false; rows * cols];
    let mut queue = VecDeque::from([start]);
    seen[start.0 * cols + start.1] = true;
    while let Some((r, c)) = queue.pop_front() {
        if (r, c) == goal {
            return true;
        }
        for d in Dir::ALL {
            let (dr, dc) = d.delta();
            let (nr, nc) = (r as isize + dr, c as isize + dc);
            if nr < 0 || nc < 0 || nr as usize >= rows || nc as usize >= cols {
                continue;
            }
            let (nr, nc) = (nr as usize, nc as usize);
            if !seen[nr * cols + nc] && free(nr, nc) {
                seen[nr * cols + nc] = true;
                queue.push_back((nr, nc));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice::format::parse_floe;

    fn level(text: &str) -> Level {
        parse_floe(text, "t").unwrap().remove(0)
    }
    fn push(r: usize, c: usize, d: Dir) -> Push {
        Push::new(Pos::new(r, c), d)
    }

    #[test]
    fn replays_a_solution_and_counts_changes() {
        // the block slides right until the wall, then down onto the target
        let l = level("$---#\n----.\n");
        let r = replay(&l, WalkRule::Free, &[push(0, 0, Dir::Right)]).unwrap();
        assert_eq!(r.steps[0].to, Pos::new(0, 3));
        assert!(!r.solved);
        let l = level("$--#\n---.\n");
        let r = replay(&l, WalkRule::Free, &[push(0, 0, Dir::Right)]).unwrap();
        assert_eq!(r.steps[0].to, Pos::new(0, 2));
        let l = level("$--$\n---.\n");
        let moves = [push(0, 0, Dir::Right), push(0, 3, Dir::Down)];
        let r = replay(&l, WalkRule::Free, &moves).unwrap();
        assert!(r.solved);
        assert_eq!(r.pushes(), 2);
        assert_eq!(r.block_changes(), 1);
        assert_eq!(r.difficulty(5), 7);
    }

    #[test]
    fn names_the_illegal_push() {
        let l = level("#$-\n-$-\n-=-\n");
        let e = replay(&l, WalkRule::Free, &[push(0, 2, Dir::Down)]).unwrap_err();
        assert_eq!(e.reason, Illegal::NoBlock);
        assert_eq!(e.index, 0);
        let e = replay(&l, WalkRule::Free, &[push(0, 1, Dir::Right)]).unwrap_err();
        assert_eq!(e.reason, Illegal::PusherOnWall(Pos::new(0, 0)));
        let e = replay(&l, WalkRule::Free, &[push(0, 1, Dir::Up)]).unwrap_err();
        assert_eq!(e.reason, Illegal::PusherOnBlock(Pos::new(1, 1)));
        let stuck = level("-$-\n-=-\n");
        let e = replay(&stuck, WalkRule::Free, &[push(0, 1, Dir::Down)]).unwrap_err();
        assert_eq!(
            e.reason,
            Illegal::Stuck(Some(Pos::new(1, 1)), "normal floor")
        );
        let e = replay(&stuck, WalkRule::Free, &[push(0, 1, Dir::Up)]).unwrap_err();
        assert_eq!(e.reason, Illegal::Stuck(None, "the edge of the board"));
        let e = replay(&l, WalkRule::Free, &[push(7, 1, Dir::Down)]).unwrap_err();
        assert_eq!(e.reason, Illegal::OffBoard);
        // legal first push, illegal second: index 1
        let e = replay(
            &l,
            WalkRule::Free,
            &[push(1, 1, Dir::Left), push(1, 0, Dir::Left)],
        )
        .unwrap_err();
        assert_eq!(e.index, 1);
        assert!(e
            .to_string()
            .starts_with("push 2 (row 1, col 0, left) is illegal"));
    }

    #[test]
    fn a_block_may_slide_over_the_players_start() {
        // free rule: the player's start cell is no obstacle
        let l = level("$-@-\n");
        let r = replay(&l, WalkRule::Free, &[push(0, 0, Dir::Right)]).unwrap();
        assert_eq!(r.steps[0].to, Pos::new(0, 3));
        assert_eq!(r.end.player(), None); // he pushed from outside the board
                                          // walk rule: he walks out and pushes from the left, ending there
        let r = replay(&l, WalkRule::Walk, &[push(0, 0, Dir::Right)]).unwrap();
        assert_eq!(r.steps[0].to, Pos::new(0, 3));
    }

    #[test]
    fn walk_rule_needs_a_path_to_the_pusher() {
        // The player is walled in; the cell below the block is out of his reach.
        let l = level("#####\n#@#--\n###$-\n-----\n");
        let m = [push(2, 3, Dir::Up)];
        assert_eq!(
            replay(&l, WalkRule::Free, &m).unwrap().steps[0].to,
            Pos::new(1, 3)
        );
        let e = replay(&l, WalkRule::Walk, &m).unwrap_err();
        assert_eq!(e.reason, Illegal::PusherUnreachable(Pos::new(3, 3)));
        // Without a player he starts outside and walks around.
        let mut open = l.clone();
        open.set_player(None).unwrap();
        assert!(replay(&open, WalkRule::Walk, &m).is_ok());
    }
}
