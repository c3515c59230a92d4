//! The PushPush rules compiled for search: a position is the set of blocks and the robot's
//! walkable region (the robot may stand anywhere in it, walking is free), both as bit sets.
//!
//! A push: the robot stands in its region next to a block and pushes it away; the row of
//! adjacent blocks starting there (one block in PushPush-1, up to `k` in PushPush-k, any number
//! in PushPush-*) must have an empty cell inside the board beyond it; the row then slides as
//! one until its front block meets a block, a wall or the edge. The robot stays where it
//! stood, and may walk into the cells the row left.

use super::board::Board;
use crate::bits::{Bits, Wide};
use crate::error::Error;
use crate::game::{Engine, Task};
use crate::grid::{Dir, Pos, Push};
use crate::search::Puzzle;

/// How many blocks one push may move: `k` blocks in a row (PushPush-k), `0` for no limit
/// (PushPush-*). PushPush-1 is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Longest row a push moves; 0 = any.
    pub k: usize,
}

impl Default for Variant {
    fn default() -> Variant {
        Variant { k: 1 }
    }
}

impl Variant {
    /// PushPush-k (`k` = 0: PushPush-*).
    pub fn new(k: usize) -> Variant {
        Variant { k }
    }
    /// Whether a row of `m` blocks may be pushed.
    #[inline]
    pub fn allows(self, m: usize) -> bool {
        self.k == 0 || m <= self.k
    }
    /// `PushPush-1`, `PushPush-3`, `PushPush-*`.
    pub fn name(self) -> String {
        if self.k == 0 {
            "PushPush-*".to_string()
        } else {
            format!("PushPush-{}", self.k)
        }
    }
}

/// A position: blocks and the robot's region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PushState<B> {
    /// Cells holding a block.
    pub blocks: B,
    /// Cells the robot can walk to.
    pub region: B,
}

/// A push: the cell of the block the robot touches, and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PushMove {
    /// Cell index of the pushed block (the back of the row).
    pub block: u16,
    /// Direction of the push.
    pub dir: Dir,
}

const NONE: u16 = u16::MAX;

/// A board compiled for search.
#[derive(Clone, Debug)]
pub struct PushPuzzle<B> {
    rows: usize,
    cols: usize,
    /// Neighbour of each cell per direction ([`Dir::index`]), `NONE` off the board or on a wall.
    nbr: Vec<[u16; 4]>,
    /// Cells that are not walls.
    open: B,
    start: PushState<B>,
    target: usize,
    variant: Variant,
}

impl<B: Bits> PushPuzzle<B> {
    /// Compiles a board. Fails when it has more cells than `B` holds.
    pub fn new(board: &Board, variant: Variant) -> Result<PushPuzzle<B>, Error> {
        let n = board.cells();
        if n > B::CAPACITY {
            return Err(Error::invalid(format!(
                "the board has {n} cells; this engine holds {}",
                B::CAPACITY
            )));
        }
        let mut nbr = vec![[NONE; 4]; n];
        let mut open = B::empty();
        let mut blocks = B::empty();
        for (i, cell) in nbr.iter_mut().enumerate() {
            let p = board.pos(i);
            if board.is_wall(p) {
                continue;
            }
            open.set(i);
            if board.has_block(p) {
                blocks.set(i);
            }
            for d in Dir::ALL {
                if let Some(q) = board.step(p, d).filter(|&q| !board.is_wall(q)) {
                    cell[d.index()] = board.index(q) as u16;
                }
            }
        }
        let mut p = PushPuzzle {
            rows: board.rows(),
            cols: board.cols(),
            nbr,
            open,
            start: PushState {
                blocks,
                region: B::empty(),
            },
            target: board.index(board.target()),
            variant,
        };
        p.start.region = p.region(blocks, board.index(board.robot()));
        Ok(p)
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// The variant in force.
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// The target's cell index.
    pub fn target(&self) -> usize {
        self.target
    }
    /// The position of cell `i`.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i / self.cols, i % self.cols)
    }
    /// The move as a grid push.
    pub fn push(&self, m: PushMove) -> Push {
        Push::new(self.pos(m.block as usize), m.dir)
    }
    /// The cells the robot reaches from `cell` when `blocks` stand where they stand.
    pub fn region(&self, blocks: B, cell: usize) -> B {
        let free = self.open.and_not(blocks);
        let mut region = B::bit(cell);
        let mut stack = vec![cell as u16];
        while let Some(c) = stack.pop() {
            for &q in &self.nbr[c as usize] {
                if q != NONE && free.get(q as usize) && !region.get(q as usize) {
                    region.set(q as usize);
                    stack.push(q);
                }
            }
        }
        region
    }

    /// Calls `f` with every push from `s` and the position after it.
    pub fn generate(&self, s: &PushState<B>, mut f: impl FnMut(PushMove, PushState<B>)) {
        for b in s.blocks.ones() {
            for d in Dir::ALL {
                // the robot stands behind the block, in its region
                let behind = self.nbr[b][d.opposite().index()];
                if behind == NONE || !s.region.get(behind as usize) {
                    continue;
                }
                if let Some(next) = self.apply(s.blocks, b, d) {
                    let region = self.region(next, behind as usize);
                    f(
                        PushMove {
                            block: b as u16,
                            dir: d,
                        },
                        PushState {
                            blocks: next,
                            region,
                        },
                    );
                }
            }
        }
    }

    /// The blocks after pushing the row that starts at block `b` towards `d`, or `None` when
    /// the push is impossible (no empty cell beyond the row, or a row longer than allowed).
    pub fn apply(&self, blocks: B, b: usize, d: Dir) -> Option<B> {
        let mut row = vec![b];
        let mut front = b;
        let beyond = loop {
            let q = self.nbr[front][d.index()];
            if q == NONE {
                return None;
            }
            if blocks.get(q as usize) {
                front = q as usize;
                row.push(front);
            } else {
                break q as usize;
            }
        };
        if !self.variant.allows(row.len()) {
            return None;
        }
        // slide: count the empty cells beyond the front
        let mut shift = 1;
        let mut cell = beyond;
        loop {
            let q = self.nbr[cell][d.index()];
            if q == NONE || blocks.get(q as usize) {
                break;
            }
            cell = q as usize;
            shift += 1;
        }
        let mut next = blocks;
        for &c in &row {
            next.clear(c);
        }
        for &c in &row {
            let mut t = c;
            for _ in 0..shift {
                t = self.nbr[t][d.index()] as usize;
            }
            next.set(t);
        }
        Some(next)
    }
}

impl<B: Bits> Puzzle for PushPuzzle<B> {
    type State = PushState<B>;
    type Move = PushMove;

    fn start(&self) -> PushState<B> {
        self.start
    }
    fn successors(&self, s: &PushState<B>, out: &mut Vec<(PushMove, PushState<B>)>) {
        self.generate(s, |m, t| out.push((m, t)));
    }
    fn for_each_next<F: FnMut(PushState<B>)>(&self, s: &PushState<B>, mut f: F) {
        self.generate(s, |_, t| f(t));
    }
    fn is_goal(&self, s: &PushState<B>) -> bool {
        s.region.get(self.target)
    }
    /// One push at least while the target is out of reach.
    fn lower_bound(&self, s: &PushState<B>) -> u32 {
        u32::from(!self.is_goal(s))
    }
}

impl<B: Bits> Engine for PushPuzzle<B> {
    type Public = Push;
    fn public(&self, m: &PushMove) -> Push {
        self.push(*m)
    }
    fn pieces(&self, s: &PushState<B>) -> Vec<Pos> {
        s.blocks.ones().map(|i| self.pos(i)).collect()
    }
}

/// Compiles `board` with the narrowest bit set that holds it and runs `task`.
pub fn with_puzzle<T: Task<Push>>(
    board: &Board,
    variant: Variant,
    task: T,
) -> Result<T::Output, Error> {
    let n = board.cells();
    Ok(if n <= 64 {
        task.run(&PushPuzzle::<u64>::new(board, variant)?)
    } else if n <= 128 {
        task.run(&PushPuzzle::<u128>::new(board, variant)?)
    } else if n <= 256 {
        task.run(&PushPuzzle::<Wide<4>>::new(board, variant)?)
    } else {
        task.run(&PushPuzzle::<Wide<16>>::new(board, variant)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pushpush::board::parse;

    fn puzzle(text: &str, k: usize) -> PushPuzzle<u64> {
        PushPuzzle::new(&parse(text, "t").unwrap()[0], Variant::new(k)).unwrap()
    }

    fn pushes(p: &PushPuzzle<u64>) -> Vec<(Push, u64)> {
        let mut v = Vec::new();
        p.generate(&p.start(), |m, s| v.push((p.push(m), s.blocks)));
        v
    }

    #[test]
    fn a_block_slides_to_the_edge() {
        // robot left of a block in a 1×5 corridor: the block slides to the right edge
        let p = puzzle("@$--.\n", 1);
        let v = pushes(&p);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].0, Push::new(Pos::new(0, 1), Dir::Right));
        assert_eq!(v[0].1, 1 << 4); // on the target, which does not stop it
        assert!(!p.is_goal(&p.start()));
    }

    #[test]
    fn no_push_without_room_beyond() {
        assert!(pushes(&puzzle("@$$.\n", 1)).is_empty());
        assert!(pushes(&puzzle("@$#.\n", 1)).is_empty());
        assert!(pushes(&puzzle("-@$\n--.\n", 1)).is_empty());
    }

    #[test]
    fn rows_of_blocks_in_pushpush_k() {
        // two blocks in a row: only PushPush-2 and -* push them, and they slide as one
        assert!(pushes(&puzzle("@$$--.\n", 1)).is_empty());
        for k in [2, 0] {
            let v = pushes(&puzzle("@$$--.\n", k));
            assert_eq!(v.len(), 1);
            assert_eq!(v[0].1, (1 << 4) | (1 << 5));
        }
        assert!(pushes(&puzzle("@$$$-.\n", 2)).is_empty());
        assert_eq!(pushes(&puzzle("@$$$-.\n", 3)).len(), 1);
    }

    #[test]
    fn the_robot_walks_into_the_cells_the_block_left() {
        let p = puzzle("@$--\n##-.\n", 1);
        assert!(!p.is_goal(&p.start()));
        let mut after = Vec::new();
        p.generate(&p.start(), |m, s| after.push((m, s)));
        assert_eq!(after.len(), 1);
        let (m, s) = after[0];
        assert_eq!((m.block, m.dir), (1, Dir::Right));
        assert_eq!(s.blocks, 1 << 3);
        assert_eq!(s.region, 0b1100_0111);
        assert!(p.is_goal(&s));
    }
}
