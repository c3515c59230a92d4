//! The hardest boards of a census, listed by class: each layer reduces its candidates to
//! their canonical classes, [`super::combine`] merges the layers' lists.

use super::geometry::{Geo, Perm};
use super::{HardBoard, Tables};
use crate::error::Error;
use crate::games::pushpush::board::Board;
use crate::grid::Pos;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A class of boards, by its canonical (least) image under the symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct HardClass {
    /// Block set (bit `c` = cell `c`, row-major).
    pub blocks: u32,
    /// The robot's walkable region.
    pub region: u32,
    /// Target cell.
    pub target: u32,
    /// Boards in the class (robot cells × symmetric images).
    pub boards_in_class: u64,
}

/// The canonical (least) image of the class of (blocks `b`, region `r`, `target`).
fn canonical(perms: &[Perm], b: u32, r: u32, target: u32) -> (u32, u32, u32) {
    perms
        .iter()
        .map(|p| {
            (
                p.apply(b),
                p.apply(r),
                p.apply(1 << target).trailing_zeros(),
            )
        })
        .min()
        .expect("the identity is there")
}

/// The classes (robot region and symmetry merged) of a layer's hardest candidates
/// (position, targets): how many, and the first `keep` in canonical order with their boards.
pub(super) fn layer_classes(
    t: &Tables,
    perms: &[Perm],
    candidates: &[(u32, u32)],
    keep: usize,
) -> (u64, Vec<HardClass>) {
    let mut classes: BTreeSet<(u32, u32, u32)> = BTreeSet::new();
    for &(i, targets) in candidates {
        let b = t.blocks_of(i as usize);
        let r = t.region[i as usize];
        let mut ts = targets;
        while ts != 0 {
            let target = ts.trailing_zeros();
            ts &= ts - 1;
            classes.insert(canonical(perms, b, r, target));
        }
    }
    let first = classes
        .iter()
        .take(keep)
        .map(|&(b, r, target)| {
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
            HardClass {
                blocks: b,
                region: r,
                target,
                boards_in_class: images.len() as u64 * u64::from(r.count_ones()),
            }
        })
        .collect();
    (classes.len() as u64, first)
}

/// The board of a class: the robot at the lowest cell of its region.
pub(super) fn class_board(g: &Geo, c: &HardClass) -> Result<HardBoard, Error> {
    let robot = c.region.trailing_zeros() as usize;
    let pos = |i: usize| Pos::new(i / g.cols, i % g.cols);
    let mut board = Board::new(g.rows, g.cols, pos(robot), pos(c.target as usize))?;
    for cell in 0..g.n {
        if c.blocks >> cell & 1 == 1 {
            board.set_block(pos(cell), true)?;
        }
    }
    Ok(HardBoard {
        board,
        boards_in_class: c.boards_in_class,
    })
}
