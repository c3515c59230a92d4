//! Movement patterns in solutions (van den Akker, section 4): **trains** and **zigzags**.
//!
//! Both move a *formation* of blocks one cell along: after the pattern, the blocks stand
//! where they stood before, except that a set F of at least two of them is shifted by one
//! cell in one direction (the cells F vacates are behind it, the cells it newly covers in
//! front). This module uses exactly these definitions:
//!
//! - **train**: four consecutive pushes of one and the same block (the block each push moves
//!   is the one the previous push left there), in four different directions — the block loops
//!   round and comes to rest at the other end of its group — whose net effect is a formation
//!   shift (Kluiver's section 5.1, van den Akker's 4.1: "four moves to move one tile");
//! - **zigzag**: three consecutive pushes, of any blocks, whose net effect is a formation
//!   shift (van den Akker: "only requires three moves, rather than the train's four, to move
//!   the whole formation one tile", bouncing between two edges).
//!
//! Solutions are annotated greedily from the first push: a train where one starts, else a
//! zigzag, else the push belongs to no pattern.

use crate::bits::Bits;
use crate::game::Status;
use crate::games::ice::{
    replay, solve, with_puzzle, IcePuzzle, IceState, IceTask, Level, WalkRule, Walking,
};
use crate::grid::{Dir, Pos, Push};
use crate::search::{enumerate, Limits, Puzzle};
use crate::Error;
use serde::Serialize;
use std::collections::BTreeSet;

/// A one-cell shift of a formation of blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shift {
    /// Direction of the shift.
    pub dir: Dir,
    /// Number of blocks in the formation.
    pub size: usize,
}

/// Whether the block set `after` is `before` with a formation of at least two blocks shifted
/// by one cell in one direction (see the module documentation).
pub fn formation_shift(before: &[Pos], after: &[Pos]) -> Option<Shift> {
    let b: BTreeSet<(i64, i64)> = before
        .iter()
        .map(|p| (p.row as i64, p.col as i64))
        .collect();
    let a: BTreeSet<(i64, i64)> = after.iter().map(|p| (p.row as i64, p.col as i64)).collect();
    if a.len() != b.len() || a == b {
        return None;
    }
    let vacated: Vec<(i64, i64)> = b.difference(&a).copied().collect();
    let covered: BTreeSet<(i64, i64)> = a.difference(&b).copied().collect();
    'dirs: for dir in Dir::ALL {
        let (dr, dc) = dir.delta();
        let (dr, dc) = (dr as i64, dc as i64);
        let mut size = 0;
        let mut fronts = BTreeSet::new();
        for &(r, c) in &vacated {
            // the chain from the vacated cell forwards through blocks that were there before
            let mut cell = (r, c);
            while b.contains(&cell) {
                size += 1;
                cell = (cell.0 + dr, cell.1 + dc);
            }
            if !covered.contains(&cell) || !fronts.insert(cell) {
                continue 'dirs;
            }
        }
        if fronts.len() == covered.len() && size >= 2 {
            return Some(Shift { dir, size });
        }
    }
    None
}

/// The pattern a push belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    /// Four pushes of one block moving its group one cell.
    Train,
    /// Three pushes moving a formation one cell.
    Zigzag,
}

/// A push of a solution with the pattern it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnnotatedPush {
    /// Row of the block before the push.
    pub row: usize,
    /// Column.
    pub col: usize,
    /// Direction.
    pub dir: Dir,
    /// The pattern, if any.
    pub pattern: Option<Pattern>,
    /// Which occurrence of a pattern (0-based, counting trains and zigzags together).
    pub occurrence: Option<usize>,
    /// Direction in which the occurrence moves its formation.
    pub shift: Option<Dir>,
}

/// A solution annotated with its patterns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Annotated {
    /// The pushes.
    pub moves: Vec<AnnotatedPush>,
    /// Number of trains.
    pub trains: usize,
    /// Number of zigzags.
    pub zigzags: usize,
}

/// Annotates `moves` (which must be legal in `level` under `rule`).
pub fn annotate(level: &Level, rule: WalkRule, moves: &[Push]) -> Result<Annotated, Error> {
    let r = replay(level, rule, moves).map_err(|e| Error::invalid(e.to_string()))?;
    // block sets before each push and after the last
    let mut sets: Vec<Vec<Pos>> = vec![level.blocks().collect()];
    let mut current: BTreeSet<Pos> = level.blocks().collect();
    for s in &r.steps {
        current.remove(&s.push.pos());
        current.insert(s.to);
        sets.push(current.iter().copied().collect());
    }
    let mut out: Vec<AnnotatedPush> = moves
        .iter()
        .map(|m| AnnotatedPush {
            row: m.row,
            col: m.col,
            dir: m.dir,
            pattern: None,
            occurrence: None,
            shift: None,
        })
        .collect();
    let (mut trains, mut zigzags) = (0, 0);
    let mut i = 0;
    while i < moves.len() {
        let train = i + 4 <= moves.len() && {
            let steps = &r.steps[i..i + 4];
            let same_block = steps.windows(2).all(|w| w[1].push.pos() == w[0].to);
            let dirs: BTreeSet<Dir> = steps.iter().map(|s| s.push.dir).collect();
            same_block && dirs.len() == 4
        };
        let found = if let Some(shift) = train
            .then(|| formation_shift(&sets[i], &sets[i + 4]))
            .flatten()
        {
            Some((Pattern::Train, 4, shift))
        } else if i + 3 <= moves.len() {
            formation_shift(&sets[i], &sets[i + 3]).map(|s| (Pattern::Zigzag, 3, s))
        } else {
            None
        };
        match found {
            Some((pattern, len, shift)) => {
                let occurrence = trains + zigzags;
                for a in &mut out[i..i + len] {
                    a.pattern = Some(pattern);
                    a.occurrence = Some(occurrence);
                    a.shift = Some(shift.dir);
                }
                if pattern == Pattern::Train {
                    trains += 1;
                } else {
                    zigzags += 1;
                }
                i += len;
            }
            None => i += 1,
        }
    }
    Ok(Annotated {
        moves: out,
        trains,
        zigzags,
    })
}

/// Solves `level` by BFS and annotates the solution; `None` when it has none.
pub fn solve_and_annotate(
    level: &Level,
    rule: WalkRule,
    limits: &Limits,
) -> Result<Option<Annotated>, Error> {
    let r = solve(level, rule, "bfs", 0, limits)?;
    if r.status != Status::Solved {
        return Ok(None);
    }
    annotate(level, rule, &r.moves_of::<Push>()).map(Some)
}

/// Whether trains and zigzags occur in fastest ways to the hardest cells of a level (van den
/// Akker's Table 9, which asks it for trains).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HardestUse {
    /// Fewest pushes to the hardest cells.
    pub pushes: u32,
    /// The hardest cells.
    pub cells: Vec<Pos>,
    /// Some fastest push sequence putting a block on a hardest cell contains a train.
    pub train: bool,
    /// Some such sequence contains a zigzag.
    pub zigzag: bool,
    /// Positions on fastest ways to a hardest cell.
    pub positions_on_fastest_ways: u64,
    /// Reachable positions.
    pub states: u64,
}

struct HardestTask<'a>(&'a Limits);

impl IceTask for HardestTask<'_> {
    type Output = Result<HardestUse, Error>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
        let Some(space) = p.rank_space() else {
            return Err(Error::invalid(
                "the fastest-way analysis needs the free walking rule",
            ));
        };
        if space > 1 << 31 {
            return Err(Error::invalid(format!(
                "{space} possible positions: too many for the fastest-way analysis"
            )));
        }
        let rank = |s: &IceState<B, R::Player>| p.rank(s).expect("ranked") as usize;
        // layers by distance, and the distance of every position by rank
        let mut layers: Vec<Vec<IceState<B, R::Player>>> = Vec::new();
        let mut depth = vec![u8::MAX; space as usize];
        let e = enumerate(p, self.0, |s, d| {
            if layers.len() <= d as usize {
                layers.push(Vec::new());
            }
            layers[d as usize].push(*s);
            depth[rank(s)] = d.min(254) as u8;
        });
        if let Some(l) = e.limit {
            return Err(Error::invalid(format!("stopped {}", l.by())));
        }
        if layers.len() > 254 {
            return Err(Error::invalid("positions more than 254 pushes deep"));
        }
        // fewest pushes per cell; the hardest cells
        let n = p.cell_count();
        let mut best = vec![u32::MAX; n];
        for (d, layer) in layers.iter().enumerate() {
            for s in layer {
                for i in s.blocks.ones() {
                    best[i] = best[i].min(d as u32);
                }
            }
        }
        let hardest = best
            .iter()
            .copied()
            .filter(|&d| d != u32::MAX)
            .max()
            .unwrap_or(0);
        let mut targets = B::empty();
        for (i, &d) in best.iter().enumerate() {
            if d == hardest {
                targets.set(i);
            }
        }
        // positions on some fastest way to a hardest cell, from the goal layer backwards
        let mut on = vec![false; space as usize];
        let d_max = hardest as usize;
        let mut on_count = 0u64;
        for s in &layers[d_max] {
            if !s.blocks.and(targets).is_empty() {
                on[rank(s)] = true;
                on_count += 1;
            }
        }
        for d in (0..d_max).rev() {
            for s in &layers[d] {
                let mut any = false;
                p.for_each_next(s, |t| {
                    let r = rank(&t);
                    any |= depth[r] as usize == d + 1 && on[r];
                });
                if any {
                    on[rank(s)] = true;
                    on_count += 1;
                }
            }
        }
        let on_way = |t: &IceState<B, R::Player>, d: usize| {
            let r = rank(t);
            depth[r] as usize == d && on[r]
        };
        let positions = |s: &IceState<B, R::Player>| -> Vec<Pos> { p.block_positions(s) };
        // trains: four pushes of one block along fastest ways
        let mut train = false;
        'train: for (d, layer) in layers.iter().enumerate().take(d_max.saturating_sub(3)) {
            for s in layer.iter().filter(|s| on[rank(s)]) {
                for i in s.blocks.ones() {
                    if train_from(p, s, i, d, &on_way, &positions) {
                        train = true;
                        break 'train;
                    }
                }
            }
        }
        // zigzags: any three pushes along fastest ways
        let mut zigzag = false;
        let mut buf1 = Vec::new();
        let mut buf2 = Vec::new();
        let mut buf3 = Vec::new();
        'zig: for (d, layer) in layers.iter().enumerate().take(d_max.saturating_sub(2)) {
            for s in layer.iter().filter(|s| on[rank(s)]) {
                let before = positions(s);
                buf1.clear();
                p.successors(s, &mut buf1);
                for (_, t1) in buf1.iter().filter(|(_, t)| on_way(t, d + 1)) {
                    buf2.clear();
                    p.successors(t1, &mut buf2);
                    for (_, t2) in buf2.iter().filter(|(_, t)| on_way(t, d + 2)) {
                        buf3.clear();
                        p.successors(t2, &mut buf3);
                        for (_, t3) in buf3.iter().filter(|(_, t)| on_way(t, d + 3)) {
                            if formation_shift(&before, &positions(t3)).is_some() {
                                zigzag = true;
                                break 'zig;
                            }
                        }
                    }
                }
            }
        }
        let cells = best
            .iter()
            .enumerate()
            .filter(|(_, &d)| d == hardest)
            .map(|(i, _)| p.pos(i as u16))
            .collect();
        Ok(HardestUse {
            pushes: hardest,
            cells,
            train,
            zigzag,
            positions_on_fastest_ways: on_count,
            states: e.states,
        })
    }
}

/// Whether four pushes of the block on engine cell `i`, in four different directions and
/// along fastest ways (depths `d + 1 … d + 4`), shift a formation.
fn train_from<B: Bits, R: Walking, W, Q>(
    p: &IcePuzzle<B, R>,
    s: &IceState<B, R::Player>,
    i: usize,
    d: usize,
    on_way: &W,
    positions: &Q,
) -> bool
where
    W: Fn(&IceState<B, R::Player>, usize) -> bool,
    Q: Fn(&IceState<B, R::Player>) -> Vec<Pos>,
{
    struct Walker<'a, B: Bits, R: Walking, W, Q> {
        p: &'a IcePuzzle<B, R>,
        start: Vec<Pos>,
        d: usize,
        on_way: &'a W,
        positions: &'a Q,
    }
    impl<B: Bits, R: Walking, W, Q> Walker<'_, B, R, W, Q>
    where
        W: Fn(&IceState<B, R::Player>, usize) -> bool,
        Q: Fn(&IceState<B, R::Player>) -> Vec<Pos>,
    {
        fn go(
            &self,
            s: &IceState<B, R::Player>,
            block: usize,
            used: [bool; 4],
            step: usize,
        ) -> bool {
            if step == 4 {
                return formation_shift(&self.start, &(self.positions)(s)).is_some();
            }
            Dir::ALL.iter().any(|&dir| {
                !used[dir.index()]
                    && self.p.push_block(s, block, dir).is_some_and(|(m, t)| {
                        let mut u = used;
                        u[dir.index()] = true;
                        (self.on_way)(&t, self.d + step + 1)
                            && self.go(&t, m.to as usize, u, step + 1)
                    })
            })
        }
    }
    let w = Walker {
        p,
        start: positions(s),
        d,
        on_way,
        positions,
    };
    w.go(s, i, [false; 4], 0)
}

/// Trains and zigzags in the fastest ways to the hardest cells of `level` (free rule).
pub fn hardest_use(level: &Level, limits: &Limits) -> Result<HardestUse, Error> {
    with_puzzle(level, WalkRule::Free, HardestTask(limits))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice::format::parse_floe;

    fn pos(v: &[(usize, usize)]) -> Vec<Pos> {
        v.iter().map(|&(r, c)| Pos::new(r, c)).collect()
    }

    #[test]
    fn formation_shifts() {
        // a line of three moved right by one: the back block went to the front
        let s = formation_shift(
            &pos(&[(0, 0), (0, 1), (0, 2)]),
            &pos(&[(0, 1), (0, 2), (0, 3)]),
        );
        assert_eq!(
            s,
            Some(Shift {
                dir: Dir::Right,
                size: 3
            })
        );
        // a zigzag formation (checkerboard) moved right
        let s = formation_shift(
            &pos(&[(0, 3), (0, 5), (1, 4)]),
            &pos(&[(0, 4), (0, 6), (1, 5)]),
        );
        assert_eq!(
            s,
            Some(Shift {
                dir: Dir::Right,
                size: 3
            })
        );
        // a single block moving one cell is no formation
        assert_eq!(formation_shift(&pos(&[(0, 0)]), &pos(&[(0, 1)])), None);
        // a block jumping two cells is no shift
        assert_eq!(
            formation_shift(&pos(&[(0, 0), (0, 1)]), &pos(&[(0, 1), (0, 3)])),
            None
        );
        // part of the blocks stays: only the pair (1,0),(1,1) moves down
        let s = formation_shift(
            &pos(&[(0, 5), (1, 0), (1, 1)]),
            &pos(&[(0, 5), (2, 0), (2, 1)]),
        );
        assert_eq!(
            s,
            Some(Shift {
                dir: Dir::Down,
                size: 2
            })
        );
        assert_eq!(formation_shift(&pos(&[(0, 0)]), &pos(&[(0, 0)])), None);
    }

    #[test]
    fn annotates_a_zigzag() {
        // 2×7: (0,3), (0,5), (1,4): push (0,5) down, (0,3) right, (1,4) up
        let level = parse_floe("---$-$-\n----$--\n", "t").unwrap().remove(0);
        let moves = [
            Push::new(Pos::new(0, 5), Dir::Down),
            Push::new(Pos::new(0, 3), Dir::Right),
            Push::new(Pos::new(1, 4), Dir::Up),
        ];
        let a = annotate(&level, WalkRule::Free, &moves).unwrap();
        assert_eq!((a.trains, a.zigzags), (0, 1));
        assert!(a.moves.iter().all(|m| m.occurrence == Some(0)));
    }

    #[test]
    fn trains_in_fastest_ways() {
        // 3×3 with 3 blocks: every cell within 3 pushes; no room for a 4-push train
        let level = Level::empty_board(3, 3, 3).unwrap();
        let h = hardest_use(&level, &Limits::none()).unwrap();
        assert_eq!(h.pushes, 3);
        assert!(!h.train);
        // 5×5 with 3 blocks: the centre needs 10 pushes (the spec's table)
        let level = Level::empty_board(5, 5, 3).unwrap();
        let h = hardest_use(&level, &Limits::none()).unwrap();
        assert_eq!(h.pushes, 10);
        assert_eq!(h.cells, vec![Pos::new(2, 3)]);
        assert!(h.positions_on_fastest_ways > 10);
    }
}
