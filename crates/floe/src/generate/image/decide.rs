//! The recursion of section 5.3: sets of drawn pixels, the placement searches on them with
//! what they found, the drawing order or the witness that there is none, and the limits of a
//! decision.

use super::board::DrawingBoard;
use crate::generate::picture::Picture;
use crate::grid::{Dir, Pos};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use std::time::Instant;

/// A set of pixels (indices into the picture's black pixels).
pub(super) type PixSet = [u64; 4];

fn has(s: &PixSet, i: usize) -> bool {
    s[i / 64] >> (i % 64) & 1 == 1
}
pub(super) fn with(mut s: PixSet, i: usize) -> PixSet {
    s[i / 64] |= 1 << (i % 64);
    s
}
fn without(mut s: PixSet, i: usize) -> PixSet {
    s[i / 64] &= !(1 << (i % 64));
    s
}
fn size(s: &PixSet) -> usize {
    s.iter().map(|w| w.count_ones() as usize).sum()
}

/// One pixel of the drawing order (thesis Figure 20): the pixel and the side its block came
/// from on the push that left it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// Row in the picture.
    pub row: usize,
    /// Column in the picture.
    pub col: usize,
    /// Where the block came from: `up` means it slid down onto the pixel.
    pub from: Dir,
}

/// Why a picture cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Witness {
    /// It contains one of the two impossible 3×3 configurations of the thesis's Figure 21
    /// (`figure`: `"x"` = corners and centre, `"plus"` = the four edge middles), whose
    /// top-left cell is at `row`, `col`.
    Configuration {
        /// `x` or `plus`.
        figure: &'static str,
        /// Row of the window's top-left cell.
        row: usize,
        /// Column of the window's top-left cell.
        col: usize,
    },
    /// No pixel can be placed last on a drawable rest: `last` lists the pixels that can be
    /// placed last at all (each on a rest that is itself not drawable; often none).
    Last {
        /// Pixels that can be placed last, each on a rest that cannot be drawn.
        last: Vec<Pos>,
    },
}

/// The two 3×3 configurations of Figure 21, row-major, `true` = black.
pub const FIGURE_21: [(&str, [bool; 9]); 2] = [
    (
        "x",
        [true, false, true, false, true, false, true, false, true],
    ),
    (
        "plus",
        [false, true, false, true, false, true, false, true, false],
    ),
];

/// The first Figure 21 configuration in `picture` (as a 3×3 window, white cells included).
pub fn figure_21(picture: &Picture) -> Option<Witness> {
    if picture.rows() < 3 || picture.cols() < 3 {
        return None;
    }
    for r in 0..=picture.rows() - 3 {
        for c in 0..=picture.cols() - 3 {
            for (name, cfg) in FIGURE_21 {
                let hit = (0..9).all(|k| picture.get(Pos::new(r + k / 3, c + k % 3)) == cfg[k]);
                if hit {
                    return Some(Witness::Configuration {
                        figure: name,
                        row: r,
                        col: c,
                    });
                }
            }
        }
    }
    None
}

/// Limits of a decision.
#[derive(Clone, Default)]
pub struct DrawLimits {
    /// Stop after this many placement searches.
    pub max_searches: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop once the process holds more than this many bytes.
    pub max_memory: Option<u64>,
    /// Hears now and then how far the decision is: placement searches in `expanded`,
    /// positions they stored in `states`.
    pub progress: Option<crate::search::ProgressFn>,
}

impl std::fmt::Debug for DrawLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrawLimits")
            .field("max_searches", &self.max_searches)
            .field("deadline", &self.deadline)
            .field("max_memory", &self.max_memory)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Stopped by a limit: how many placement searches ran. Its JSON (`floe image --json`) says
/// that the answer is not known: `{"creatable": null, "searches": N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Searches run.
    pub searches: u64,
}

impl Serialize for Stopped {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut m = s.serialize_struct("Stopped", 2)?;
        m.serialize_field("creatable", &None::<bool>)?;
        m.serialize_field("searches", &self.searches)?;
        m.end()
    }
}

/// What is known about the pixels placeable on one drawn set.
#[derive(Clone, Copy)]
struct Known {
    /// Pixels found placeable.
    yes: PixSet,
    /// Whether a search ran to the end, so that every other pixel is not placeable.
    complete: bool,
}

/// The recursion of section 5.3 with memoisation.
pub struct Decider<'a> {
    board: &'a DrawingBoard,
    known: FxHashMap<PixSet, Known>,
    /// The pushes of each successful targeted search, for the push sequence.
    pub(super) paths: FxHashMap<(PixSet, usize), Vec<(u16, Dir)>>,
    failed: FxHashSet<PixSet>,
    limits: DrawLimits,
    /// Placement searches run.
    pub searches: u64,
    /// Positions visited by them, summed.
    pub states: u64,
    neighbours: Vec<Vec<usize>>,
}

impl<'a> Decider<'a> {
    /// A decider for `board`.
    pub fn new(board: &'a DrawingBoard, limits: DrawLimits) -> Decider<'a> {
        let px = board.pixels();
        let neighbours = px
            .iter()
            .map(|p| {
                (0..px.len())
                    .filter(|&j| px[j].row.abs_diff(p.row) + px[j].col.abs_diff(p.col) == 1)
                    .collect()
            })
            .collect();
        Decider {
            board,
            known: FxHashMap::default(),
            paths: FxHashMap::default(),
            failed: FxHashSet::default(),
            limits,
            searches: 0,
            states: 0,
            neighbours,
        }
    }

    /// Whether a block could be shot from the edge onto pixel `p` and stopped by a pixel of
    /// `set` behind it: the stacking method of section 5.2, a heuristic only.
    fn clear_shot(&self, set: &PixSet, p: usize) -> bool {
        let pic = &self.board.picture;
        let px = &self.board.pixels;
        let black = |r: isize, c: isize| {
            r >= 0 && c >= 0 && {
                let q = Pos::new(r as usize, c as usize);
                pic.get(q) && px.binary_search(&q).is_ok_and(|k| has(set, k))
            }
        };
        let (r0, c0) = (px[p].row as isize, px[p].col as isize);
        Dir::ALL.iter().any(|d| {
            let (dr, dc) = d.delta();
            if !black(r0 + dr, c0 + dc) {
                return false;
            }
            let (mut r, mut c) = (r0 - dr, c0 - dc);
            while r >= 0 && c >= 0 && (r as usize) < pic.rows() && (c as usize) < pic.cols() {
                if black(r, c) {
                    return false;
                }
                r -= dr;
                c -= dc;
            }
            true
        })
    }

    /// Whether pixel `p` (outside `drawn`) can be placed with `drawn` done. The search
    /// stops as soon as `p` is placed, noting every other pixel placed on the way; when it
    /// runs out without placing `p` it has seen everything, and the answer for every pixel
    /// on `drawn` is known.
    fn can_place(&mut self, drawn: PixSet, p: usize) -> Result<bool, Stopped> {
        if let Some(k) = self.known.get(&drawn) {
            if has(&k.yes, p) || k.complete {
                return Ok(has(&k.yes, p));
            }
        }
        if self.limits.max_searches.is_some_and(|m| self.searches >= m)
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            || crate::search::interrupted()
            || self
                .limits
                .max_memory
                .is_some_and(|m| crate::mem::resident_recent() > m)
        {
            return Err(Stopped {
                searches: self.searches,
            });
        }
        let n = self.board.pixels.len();
        let list: Vec<usize> = (0..n).filter(|&i| has(&drawn, i)).collect();
        let stage = self.board.stage(&list);
        let mut yes = self.known.get(&drawn).map_or([0u64; 4], |k| k.yes);
        let board = self.board;
        let ex = stage.search(board.start(), |t| match board.placed(t) {
            Some(q) if !has(&drawn, q) => {
                yes = with(yes, q);
                q == p
            }
            _ => false,
        });
        self.searches += 1;
        self.states += ex.states;
        if let Some(report) = self
            .limits
            .progress
            .as_ref()
            .filter(|_| self.searches % 16 == 0)
        {
            report(&crate::search::Progress {
                stats: crate::search::Stats {
                    expanded: self.searches,
                    states: self.states,
                    ..Default::default()
                },
            });
        }
        let complete = ex.path.is_none();
        if let Some(path) = ex.path {
            self.paths.insert((drawn, p), path);
        }
        self.known.insert(drawn, Known { yes, complete });
        Ok(has(&yes, p))
    }

    /// A drawing order of the pixels in `set`, or `None` if they cannot be drawn.
    fn order(&mut self, set: PixSet) -> Result<Option<Vec<usize>>, Stopped> {
        if size(&set) == 0 {
            return Ok(Some(Vec::new()));
        }
        if self.failed.contains(&set) {
            return Ok(None);
        }
        let n = self.board.pixels.len();
        let mut cand: Vec<usize> = (0..n).filter(|&i| has(&set, i)).collect();
        // first the pixels a block can be shot onto from the edge (stacking), then by the
        // number of black neighbours
        let degree = |i: usize| self.neighbours[i].iter().filter(|&&j| has(&set, j)).count();
        let shot = |i: usize| self.clear_shot(&set, i);
        cand.sort_by_key(|&i| (!shot(i), std::cmp::Reverse(degree(i))));
        for p in cand {
            let rest = without(set, p);
            if self.can_place(rest, p)? {
                if let Some(mut o) = self.order(rest)? {
                    o.push(p);
                    return Ok(Some(o));
                }
            }
        }
        self.failed.insert(set);
        Ok(None)
    }

    /// Decides the whole picture: a drawing order (pixel indices) or a witness.
    pub fn decide(&mut self) -> Result<Result<Vec<usize>, Witness>, Stopped> {
        let n = self.board.pixels.len();
        let all = (0..n).fold([0u64; 4], with);
        if let Some(o) = self.order(all)? {
            return Ok(Ok(o));
        }
        if let Some(w) = figure_21(&self.board.picture) {
            return Ok(Err(w));
        }
        let mut last = Vec::new();
        for p in 0..n {
            if self.can_place(without(all, p), p)? {
                last.push(self.board.pixels[p]);
            }
        }
        Ok(Err(Witness::Last { last }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::census::placeable_masks;
    use super::*;

    #[test]
    fn targeted_searches_agree_with_full_enumeration() {
        // 3×3 pictures: every drawn set of the all-black board, every pixel
        let board = DrawingBoard::new(&Picture::from_mask(3, 3, 0x1ff)).unwrap();
        let mut decider = Decider::new(&board, DrawLimits::default());
        for mask in (0..512usize).step_by(7) {
            let full = placeable_masks(&board, mask);
            let drawn = (0..9).filter(|&i| mask >> i & 1 == 1).fold([0u64; 4], with);
            for p in (0..9).filter(|&i| mask >> i & 1 == 0) {
                assert_eq!(
                    decider.can_place(drawn, p).unwrap(),
                    full.contains(&p),
                    "mask {mask:b} pixel {p}"
                );
            }
        }
    }
}
