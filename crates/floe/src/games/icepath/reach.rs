//! What one breadth-first search over the player's stops tells of a board's cells, for the
//! annealing of `floe hardest icepath` on boards of any size: the most moves needed to pass
//! over a cell, the cells that need that many, and the mean over the cells reached.
//!
//! A cell is passed over at depth `d + 1` when a slide from a stop of depth `d` crosses or
//! ends on it. On boards of at most 64 rows and 64 columns ([`Reach::of`]) each row is a bit
//! mask: a slide along a row finds its rock with one shift and a count of zeros and passes
//! its cells with one `OR`; a slide along a column finds its rock the same way in the
//! column's mask and passes one bit per row. Larger boards walk each slide cell by cell
//! ([`pass_counts`]); both give the same answer, which the tests check.

use super::hardest::DELTAS;

/// The largest number of rows, and of columns, of the bit-mask search.
const LINE: usize = 64;

/// What a board's breadth-first search over stops says of its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Reach {
    /// The most moves needed to pass over a cell (0 when the start cannot move).
    pub length: u32,
    /// The cells that need `length` moves, in increasing order (none when `length` is 0).
    pub exits: Vec<usize>,
    /// The sum of the pass counts of the cells reached (the start counts 0).
    pub sum: u64,
    /// The cells reached, the start with them.
    pub reached: u64,
}

impl Reach {
    /// The search from `start` on `rows × cols` cells, `rocks[c]` telling the rocks: by bit
    /// masks when the board has at most 64 rows and 64 columns, else cell by cell.
    pub fn of(rows: usize, cols: usize, rocks: &[bool], start: usize) -> Reach {
        if rows <= LINE && cols <= LINE {
            by_masks(rows, cols, rocks, start)
        } else {
            Reach::from_counts(&pass_counts(rows, cols, rocks, start))
        }
    }

    /// The answer read off every cell's pass count.
    fn from_counts(pass: &[Option<u32>]) -> Reach {
        let length = pass.iter().flatten().copied().max().unwrap_or(0);
        Reach {
            length,
            exits: (0..pass.len())
                .filter(|&i| length > 0 && pass[i] == Some(length))
                .collect(),
            sum: pass.iter().flatten().map(|&x| u64::from(x)).sum(),
            reached: pass.iter().flatten().count() as u64,
        }
    }

    /// The mean pass count of the cells reached.
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.reached.max(1) as f64
    }
}

/// The fewest moves to pass over each cell from `start` on a board of any size (`None`:
/// never, or a rock), walking each slide cell by cell.
pub(super) fn pass_counts(
    rows: usize,
    cols: usize,
    rocks: &[bool],
    start: usize,
) -> Vec<Option<u32>> {
    let n = rows * cols;
    let mut pass = vec![None; n];
    let mut seen = vec![false; n];
    pass[start] = Some(0);
    seen[start] = true;
    let mut frontier = vec![start];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &c in &frontier {
            for (dr, dc) in DELTAS {
                let (mut r, mut k) = ((c / cols) as isize, (c % cols) as isize);
                loop {
                    let (nr, nk) = (r + dr, k + dc);
                    if nr < 0 || nk < 0 || nr >= rows as isize || nk >= cols as isize {
                        break;
                    }
                    let i = nr as usize * cols + nk as usize;
                    if rocks[i] {
                        break;
                    }
                    pass[i].get_or_insert(depth);
                    (r, k) = (nr, nk);
                }
                let stop = r as usize * cols + k as usize;
                if !seen[stop] {
                    seen[stop] = true;
                    next.push(stop);
                }
            }
        }
        frontier = next;
    }
    pass
}

/// The bits `a..=b` of a line (`a <= b < 64`).
#[inline]
fn span(a: usize, b: usize) -> u64 {
    (u64::MAX >> (63 - b)) & (u64::MAX << a)
}

/// Where a slide from `i` along a line of `len` cells whose rocks are `line` stops: towards
/// the higher end (`up`) or the lower. Returns the stop's index on the line.
#[inline]
fn slide(line: u64, i: usize, len: usize, up: bool) -> usize {
    if up {
        let above = if i + 1 >= LINE { 0 } else { line >> (i + 1) };
        if above == 0 {
            len - 1
        } else {
            i + above.trailing_zeros() as usize
        }
    } else {
        let below = line & ((1u64 << i) - 1);
        if below == 0 {
            0
        } else {
            LINE - below.leading_zeros() as usize
        }
    }
}

/// [`Reach::of`] on a board of at most 64 rows and 64 columns: rows, columns, stops seen,
/// cells covered and the frontier as bit masks, one word per row (or column).
fn by_masks(rows: usize, cols: usize, rocks: &[bool], start: usize) -> Reach {
    let (mut row_rocks, mut col_rocks) = ([0u64; LINE], [0u64; LINE]);
    for (c, _) in rocks.iter().enumerate().filter(|(_, &r)| r) {
        row_rocks[c / cols] |= 1 << (c % cols);
        col_rocks[c % cols] |= 1 << (c / cols);
    }
    let (mut seen, mut covered, mut frontier) = ([0u64; LINE], [0u64; LINE], [0u64; LINE]);
    let (sr, sc) = (start / cols, start % cols);
    seen[sr] |= 1 << sc;
    covered[sr] |= 1 << sc;
    frontier[sr] |= 1 << sc;
    let (mut depth, mut length, mut sum, mut reached) = (0u32, 0u32, 0u64, 1u64);
    let mut last = [0u64; LINE];
    let mut any = true;
    while any {
        depth += 1;
        let (mut next, mut passed) = ([0u64; LINE], [0u64; LINE]);
        for r in 0..rows {
            let mut f = frontier[r];
            while f != 0 {
                let k = f.trailing_zeros() as usize;
                f &= f - 1;
                // along the row, both ways
                for up in [false, true] {
                    let e = slide(row_rocks[r], k, cols, up);
                    if e != k {
                        passed[r] |= span(e.min(k + 1), e.max(k.saturating_sub(1)));
                        next[r] |= 1 << e;
                    }
                }
                // along the column, both ways
                for up in [false, true] {
                    let e = slide(col_rocks[k], r, rows, up);
                    if e != r {
                        let (a, b) = if up { (r + 1, e) } else { (e, r - 1) };
                        for p in &mut passed[a..=b] {
                            *p |= 1 << k;
                        }
                        next[e] |= 1 << k;
                    }
                }
            }
        }
        any = false;
        let mut grew = false;
        for r in 0..rows {
            let new = passed[r] & !covered[r];
            covered[r] |= new;
            if new != 0 {
                let count = u64::from(new.count_ones());
                (reached, sum) = (reached + count, sum + count * u64::from(depth));
                grew = true;
            }
            passed[r] = new;
            frontier[r] = next[r] & !seen[r];
            seen[r] |= frontier[r];
            any |= frontier[r] != 0;
        }
        if grew {
            length = depth;
            last = passed;
        }
    }
    let exits = (0..rows)
        .flat_map(|r| {
            let mut m = last[r];
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let k = m.trailing_zeros() as usize;
                    m &= m - 1;
                    r * cols + k
                })
            })
        })
        .collect();
    Reach {
        length,
        exits,
        sum,
        reached,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::retrograde::candidate_rng;
    use rand::RngExt;

    #[test]
    fn a_span_and_a_slide_on_one_line() {
        assert_eq!(span(2, 4), 0b11100);
        assert_eq!(span(0, 63), u64::MAX);
        assert_eq!(span(63, 63), 1 << 63);
        // rocks at 3 and 9 on a line of 12
        let line = 1 << 3 | 1 << 9;
        assert_eq!(slide(line, 5, 12, true), 8);
        assert_eq!(slide(line, 5, 12, false), 4);
        assert_eq!(slide(line, 10, 12, true), 11);
        assert_eq!(slide(line, 2, 12, false), 0);
        assert_eq!(slide(line, 8, 12, true), 8);
        assert_eq!(slide(0, 63, 64, true), 63);
        assert_eq!(slide(0, 0, 64, false), 0);
        assert_eq!(slide(1 << 63, 0, 64, true), 62);
    }

    /// Both searches on random boards of many shapes, the largest of 64 rows or columns.
    #[test]
    fn masks_and_cell_walks_agree_on_boards_of_any_shape() {
        let mut rng = candidate_rng(11, 0);
        let shapes = [
            (1, 2),
            (1, 64),
            (64, 1),
            (2, 64),
            (64, 3),
            (11, 23),
            (16, 24),
            (20, 20),
            (16, 32),
            (64, 64),
            (7, 7),
        ];
        for (rows, cols) in shapes {
            for _ in 0..40 {
                let n = rows * cols;
                let density = [0.0, 0.03, 0.1, 0.3][rng.random_range(0..4)];
                let rocks: Vec<bool> = (0..n).map(|_| rng.random_bool(density)).collect();
                let free: Vec<usize> = (0..n).filter(|&c| !rocks[c]).collect();
                if free.is_empty() {
                    continue;
                }
                let start = free[rng.random_range(0..free.len())];
                let want = Reach::from_counts(&pass_counts(rows, cols, &rocks, start));
                let got = by_masks(rows, cols, &rocks, start);
                assert_eq!(got, want, "{rows}×{cols} from {start}");
            }
        }
    }

    #[test]
    fn a_board_past_64_columns_walks_cell_by_cell() {
        // a row of 70 cells, a rock at 40: from 0 the slide stops at 39 and comes back; the
        // cells past the rock are never reached
        let mut rocks = vec![false; 70];
        rocks[40] = true;
        let r = Reach::of(1, 70, &rocks, 0);
        assert_eq!(r.length, 1);
        assert_eq!(r.exits, (1..40).collect::<Vec<_>>());
        assert_eq!((r.reached, r.sum), (40, 39));
    }
}
