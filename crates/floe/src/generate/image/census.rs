//! The census of every picture of one size, by dynamic programming over the sets of drawn
//! pixels.

use super::board::DrawingBoard;
use super::decide::figure_21;
use crate::error::Error;
use crate::generate::picture::Picture;
use rayon::prelude::*;
use serde::Serialize;

/// The census of every picture of one size.
#[derive(Clone, Debug, Serialize)]
pub struct Census {
    /// Picture rows.
    pub rows: usize,
    /// Picture columns.
    pub cols: usize,
    /// Pictures (2^(rows·cols)).
    pub pictures: u64,
    /// Pictures that can be drawn.
    pub creatable: u64,
    /// Pictures that cannot.
    pub not_creatable: u64,
    /// Of those, the ones containing a Figure 21 configuration.
    pub with_figure_21: u64,
    /// Pictures that cannot be drawn and contain no Figure 21 configuration.
    pub without_figure_21: u64,
    /// The minimal ones among them (every picture with one pixel less that is also without
    /// a Figure 21 configuration can be drawn), as ASCII art, at most 50.
    pub minimal_examples: Vec<String>,
    /// Minimal ones, counted.
    pub minimal: u64,
    /// Pictures with a Figure 21 configuration that can nevertheless be drawn.
    pub figure_21_but_creatable: u64,
    /// Placement searches run.
    pub searches: u64,
}

/// Decides every `rows × cols` picture (at most 20 cells) by dynamic programming over the
/// sets of drawn pixels: a set is drawable if some drawable set with one pixel less has that
/// pixel placeable. One search per drawable set gives all its placeable pixels.
pub fn census(rows: usize, cols: usize) -> Result<Census, Error> {
    let n = rows * cols;
    if n == 0 || n > 20 {
        return Err(Error::invalid("a census covers pictures of 1 to 20 cells"));
    }
    // every picture of this size is drawn on the same rectangle; with all cells black the
    // pixel indices of the board are the cell indices of the picture
    let board = DrawingBoard::new(&Picture::from_mask(rows, cols, (1u64 << n) - 1))?;
    let total = 1usize << n;
    let mut ok = vec![false; total];
    ok[0] = true;
    let mut searches = 0u64;
    for k in 0..n {
        if crate::search::interrupted() {
            return Err(Error::invalid(format!(
                "the {rows}×{cols} census was interrupted"
            )));
        }
        let layer: Vec<usize> = (0..total)
            .filter(|&m| ok[m] && (m as u32).count_ones() as usize == k)
            .collect();
        searches += layer.len() as u64;
        let next: Vec<Vec<usize>> = layer
            .par_iter()
            .map(|&m| placeable_masks(&board, m))
            .collect();
        for (m, xs) in layer.iter().zip(next) {
            for x in xs {
                ok[m | 1 << x] = true;
            }
        }
    }
    let fig = |m: usize| figure_21(&Picture::from_mask(rows, cols, m as u64)).is_some();
    let has_fig: Vec<bool> = (0..total).into_par_iter().map(fig).collect();
    let creatable = ok.iter().filter(|&&b| b).count() as u64;
    let mut with_figure_21 = 0;
    let mut without = 0;
    let mut minimal = 0;
    let mut figure_21_but_creatable = 0;
    let mut minimal_examples = Vec::new();
    for m in 0..total {
        if ok[m] {
            if has_fig[m] {
                figure_21_but_creatable += 1;
            }
            continue;
        }
        if has_fig[m] {
            with_figure_21 += 1;
            continue;
        }
        without += 1;
        let is_min = (0..n)
            .filter(|&i| m >> i & 1 == 1)
            .all(|i| ok[m & !(1 << i)] || has_fig[m & !(1 << i)]);
        if is_min {
            minimal += 1;
            if minimal_examples.len() < 50 {
                minimal_examples.push(Picture::from_mask(rows, cols, m as u64).to_ascii());
            }
        }
    }
    Ok(Census {
        rows,
        cols,
        pictures: total as u64,
        creatable,
        not_creatable: total as u64 - creatable,
        with_figure_21,
        without_figure_21: without,
        minimal_examples,
        minimal,
        figure_21_but_creatable,
        searches,
    })
}

/// Cells (bit indices of the picture) placeable on the drawn set `mask`; `board` is the
/// board of the all-black picture of that size.
pub(super) fn placeable_masks(board: &DrawingBoard, mask: usize) -> Vec<usize> {
    let n = board.pixels.len();
    let list: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
    let stage = board.stage(&list);
    let mut found = Vec::new();
    stage.search(board.start(), |t| {
        if let Some(i) = board.placed(t) {
            if mask >> i & 1 == 0 {
                found.push(i);
            }
        }
        false
    });
    found.sort_unstable();
    found
}

#[cfg(test)]
mod tests {
    use super::super::{draw, DrawLimits};
    use super::*;

    #[test]
    fn census_of_small_sizes() {
        let c = census(2, 3).unwrap();
        assert_eq!((c.pictures, c.creatable), (64, 64));
        let c = census(3, 3).unwrap();
        assert_eq!(
            (c.not_creatable, c.with_figure_21, c.without_figure_21),
            (2, 2, 0)
        );
        assert_eq!(c.figure_21_but_creatable, 0);
    }

    #[test]
    fn the_census_agrees_with_the_recursion() {
        // every 2×3 and a sample of 3×3 pictures, decided one by one
        let c = census(3, 3).unwrap();
        assert_eq!(c.creatable, 510);
        for m in [
            0b101_010_101u64,
            0b010_101_010,
            0b111_101_111,
            0b100_010_001,
            0b011_110_000,
        ] {
            let p = Picture::from_mask(3, 3, m);
            let r = draw(&p, DrawLimits::default()).unwrap().unwrap();
            assert_eq!(r.creatable, figure_21(&p).is_none(), "{p}");
        }
    }
}
