//! The rectangle as `u32` masks: shifts, walkable regions, and its symmetries as cell
//! permutations.

use crate::grid::Dir;

/// The geometry of a `rows × cols` rectangle as `u32` masks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geo {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) n: usize,
    pub(super) full: u32,
    pub(super) col0: u32,
    pub(super) col_last: u32,
}

impl Geo {
    pub(super) fn new(rows: usize, cols: usize) -> Geo {
        let n = rows * cols;
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut col0 = 0;
        let mut col_last = 0;
        for r in 0..rows {
            col0 |= 1 << (r * cols);
            col_last |= 1 << (r * cols + cols - 1);
        }
        Geo {
            rows,
            cols,
            n,
            full,
            col0,
            col_last,
        }
    }

    /// Every cell of `m` moved one step towards `d`; cells that would leave the board vanish.
    #[inline(always)]
    pub(super) fn shift(&self, m: u32, d: Dir) -> u32 {
        match d {
            Dir::Up => m >> self.cols,
            Dir::Down => (m << self.cols) & self.full,
            Dir::Left => (m & !self.col0) >> 1,
            Dir::Right => (m & !self.col_last) << 1,
        }
    }

    #[inline]
    pub(super) fn grow(&self, m: u32) -> u32 {
        m | ((m & !self.col0) >> 1)
            | ((m & !self.col_last) << 1)
            | (m >> self.cols)
            | ((m << self.cols) & self.full)
    }

    /// The component of `free` containing `seed`.
    #[inline]
    pub(super) fn fill(&self, seed: u32, free: u32) -> u32 {
        let mut r = seed;
        loop {
            let next = self.grow(r) & free;
            if next == r {
                return r;
            }
            r = next;
        }
    }

    /// The walkable regions of block set `b`, in order of their lowest cell.
    #[inline]
    pub(super) fn regions(&self, b: u32, mut f: impl FnMut(u32)) {
        let mut free = self.full & !b;
        while free != 0 {
            let region = self.fill(free & free.wrapping_neg(), free);
            f(region);
            free &= !region;
        }
    }

    /// The symmetries of the rectangle as cell permutations (identity first): the half turn
    /// and the two mirrors, and for a square the two diagonal mirrors and the quarter turns.
    pub(super) fn symmetries(&self) -> Vec<Vec<usize>> {
        let (r, c) = (self.rows, self.cols);
        let count = if r == c { 8 } else { 4 };
        (0..count)
            .map(|g| {
                (0..self.n)
                    .map(|k| {
                        let (i, j) = (k / c, k % c);
                        let (a, b) = match g {
                            0 => (i, j),
                            1 => (r - 1 - i, c - 1 - j),
                            2 => (r - 1 - i, j),
                            3 => (i, c - 1 - j),
                            4 => (j, i),
                            5 => (c - 1 - j, r - 1 - i),
                            6 => (j, r - 1 - i),
                            _ => (c - 1 - j, i),
                        };
                        a * c + b
                    })
                    .collect()
            })
            .collect()
    }
}

/// The symmetries of a `rows × cols` rectangle as cell permutations (`map[cell]` = image of
/// `cell`, row-major; identity first): 8 for a square, 4 otherwise. The census counts its
/// classes up to these.
pub fn symmetries(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    Geo::new(rows, cols).symmetries()
}

/// A cell permutation applied to `u32` masks a byte at a time.
pub(super) struct Perm {
    table: [[u32; 256]; 4],
    /// Cells the permutation fixes.
    pub(super) fixed: u32,
}

impl Perm {
    pub(super) fn new(map: &[usize]) -> Perm {
        let mut table = [[0u32; 256]; 4];
        for (k, t) in table.iter_mut().enumerate() {
            for (byte, out) in t.iter_mut().enumerate() {
                for bit in 0..8 {
                    let cell = k * 8 + bit;
                    if byte >> bit & 1 == 1 && cell < map.len() {
                        *out |= 1 << map[cell];
                    }
                }
            }
        }
        let fixed = (0..map.len())
            .filter(|&i| map[i] == i)
            .fold(0u32, |m, i| m | 1 << i);
        Perm { table, fixed }
    }
    #[inline]
    pub(super) fn apply(&self, m: u32) -> u32 {
        self.table[0][(m & 255) as usize]
            | self.table[1][(m >> 8 & 255) as usize]
            | self.table[2][(m >> 16 & 255) as usize]
            | self.table[3][(m >> 24) as usize]
    }
}

/// Number of cycles of a cell permutation.
pub(super) fn cycle_count(p: &Perm, n: usize) -> u64 {
    let map: Vec<usize> = (0..n)
        .map(|i| p.apply(1 << i).trailing_zeros() as usize)
        .collect();
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for s in 0..n {
        if !seen[s] {
            cycles += 1;
            let mut i = s;
            while !seen[i] {
                seen[i] = true;
                i = map[i];
            }
        }
    }
    cycles
}
