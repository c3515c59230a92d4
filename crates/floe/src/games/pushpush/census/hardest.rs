//! The hardest boards of a census, listed by class.

use super::geometry::Perm;
use super::{HardBoard, Hardest, Tables};
use crate::games::pushpush::board::Board;
use crate::error::Error;
use crate::grid::Pos;
use std::collections::BTreeSet;

/// Lists the hardest boards: classes under robot region and symmetry, canonical order.
pub(super) fn hardest_boards(
    t: &Tables,
    perms: &[Perm],
    pushes: u32,
    count: u64,
    candidates: &[(u32, u32)],
    overflow: bool,
    keep: usize,
) -> Result<Hardest, Error> {
    let g = &t.geo;
    let mut classes: BTreeSet<(u32, u32, u32)> = BTreeSet::new();
    for &(i, targets) in candidates {
        let b = t.blocks_of(i as usize);
        let r = t.region[i as usize];
        let mut ts = targets;
        while ts != 0 {
            let target = ts.trailing_zeros();
            ts &= ts - 1;
            let canon = perms
                .iter()
                .map(|p| {
                    (
                        p.apply(b),
                        p.apply(r),
                        p.apply(1 << target).trailing_zeros(),
                    )
                })
                .min()
                .expect("the identity is there");
            classes.insert(canon);
        }
    }
    let class_count = if overflow { 0 } else { classes.len() as u64 };
    let mut boards = Vec::new();
    for &(b, r, target) in classes.iter().take(keep) {
        let robot = r.trailing_zeros() as usize;
        let pos = |i: usize| Pos::new(i / g.cols, i % g.cols);
        let mut board = Board::new(g.rows, g.cols, pos(robot), pos(target as usize))?;
        for c in 0..g.n {
            if b >> c & 1 == 1 {
                board.set_block(pos(c), true)?;
            }
        }
        // boards in the class: every robot cell of every distinct symmetric image
        let images: BTreeSet<(u32, u32, u32)> = perms
            .iter()
            .map(|p| {
                (
                    p.apply(b),
                    p.apply(r),
                    p.apply(1 << target).trailing_zeros(),
                )
            })
            .collect();
        let boards_in_class = images.len() as u64 * u64::from(r.count_ones());
        boards.push(HardBoard {
            board,
            boards_in_class,
        });
    }
    Ok(Hardest {
        pushes,
        count,
        classes: class_count,
        boards,
    })
}

