//! The search space of one placement: the stage (the rectangle with the drawn pixels as
//! walls, the feeding tube), where a block slides, whether the player reaches the outside,
//! and the breadth-first search over the positions of the three train blocks.

use crate::grid::Dir;
use rustc_hash::FxHashSet;

/// No neighbour, no pixel: the empty mark of the stage's and the board's tables.
pub(super) const NONE: u16 = u16::MAX;

/// Where the cell behind a block (the pusher's cell) is.
#[derive(Clone, Copy, Debug)]
enum Behind {
    /// A wall, a drawn pixel or a stored block: nobody stands there.
    Blocked,
    /// Normal floor outside: always reachable.
    Outside,
    /// A cell of the rectangle: reachable if in the player's region.
    Rect(u16),
    /// A tube cell: reachable (from the floor beside it) unless a block is on it.
    Tube(u16),
}

/// The search space of one placement: the rectangle with the drawn pixels as walls and the
/// feeding tube as long as it is at that moment.
pub(super) struct Stage {
    rows: usize,
    cols: usize,
    n_rect: usize,
    pub(super) nb: Vec<[u16; 4]>,
    behind: Vec<[Behind; 4]>,
    wall_rows: Vec<u64>,
    /// Where a block slides from each cell towards each direction with no other block.
    stop: Vec<[u16; 4]>,
    /// Row and column of each cell (tube cells above column 0 at negative rows).
    line: Vec<(i32, i32)>,
}

enum Place {
    Rect(usize),
    Tube(usize),
    Cap,
    Floor,
}

impl Stage {
    /// `walls`: drawn cells of the rectangle; `tube`: free tube cells above column 0 (the
    /// cell above the tube holds a stored block or the capping wall).
    pub(super) fn new(rows: usize, cols: usize, walls: &[usize], tube: usize) -> Stage {
        let n_rect = rows * cols;
        let mut wall = vec![false; n_rect];
        let mut wall_rows = vec![0u64; rows];
        for &w in walls {
            wall[w] = true;
            wall_rows[w / cols] |= 1 << (w % cols);
        }
        let coord = |i: usize| -> (isize, isize) {
            if i < n_rect {
                ((i / cols) as isize, (i % cols) as isize)
            } else {
                (-((i - n_rect) as isize) - 1, 0)
            }
        };
        let place = |r: isize, c: isize| -> Place {
            if r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols {
                Place::Rect(r as usize * cols + c as usize)
            } else if r < 0 && c == 0 {
                let j = (-r - 1) as usize;
                if j < tube {
                    Place::Tube(n_rect + j)
                } else if j == tube {
                    Place::Cap
                } else {
                    Place::Floor // never next to a block: above the cap
                }
            } else {
                Place::Floor
            }
        };
        let n = n_rect + tube;
        let mut nb = vec![[NONE; 4]; n];
        let mut behind = vec![[Behind::Blocked; 4]; n];
        for i in 0..n {
            if i < n_rect && wall[i] {
                continue;
            }
            let (r, c) = coord(i);
            for d in Dir::ALL {
                let (dr, dc) = d.delta();
                nb[i][d.index()] = match place(r + dr, c + dc) {
                    Place::Rect(k) if !wall[k] => k as u16,
                    Place::Tube(k) => k as u16,
                    _ => NONE,
                };
                behind[i][d.index()] = match place(r - dr, c - dc) {
                    Place::Rect(k) if wall[k] => Behind::Blocked,
                    Place::Rect(k) => Behind::Rect(k as u16),
                    Place::Tube(k) => Behind::Tube(k as u16),
                    Place::Cap => Behind::Blocked,
                    Place::Floor => Behind::Outside,
                };
            }
        }
        // where a block slides to on an otherwise empty board, and each cell's place on
        // its lines (the tube continues column 0 upwards)
        let mut stop = vec![[NONE; 4]; n];
        let mut line = vec![(0i32, 0i32); n];
        for i in 0..n {
            let (r, c) = coord(i);
            line[i] = (r as i32, c as i32);
            for d in Dir::ALL {
                let mut j = i;
                while nb[j][d.index()] != NONE {
                    j = nb[j][d.index()] as usize;
                }
                stop[i][d.index()] = j as u16;
            }
        }
        Stage {
            rows,
            cols,
            n_rect,
            nb,
            behind,
            wall_rows,
            stop,
            line,
        }
    }

    /// Where block `k` of `s` stops when pushed towards `d`: the end of its slide on the
    /// empty board, or the cell before the nearest other block on the way.
    #[inline]
    fn slide(&self, s: &[u16; 3], k: usize, d: Dir) -> usize {
        let i = s[k] as usize;
        let end = self.stop[i][d.index()] as usize;
        if end == i {
            return i;
        }
        let (dr, dc) = d.delta();
        let (dr, dc) = (dr as i32, dc as i32);
        let (ri, ci) = self.line[i];
        let reach = (self.line[end].0 - ri) * dr + (self.line[end].1 - ci) * dc;
        let mut nearest: Option<(i32, usize)> = None;
        for (m, &b) in s.iter().enumerate() {
            if m == k {
                continue;
            }
            let (rb, cb) = self.line[b as usize];
            let on_line = if dc == 0 { cb == ci } else { rb == ri };
            let dist = (rb - ri) * dr + (cb - ci) * dc;
            if on_line && dist > 0 && dist <= reach && nearest.is_none_or(|(n, _)| dist < n) {
                nearest = Some((dist, b as usize));
            }
        }
        match nearest {
            None => end,
            Some((_, b)) => self.nb[b][d.opposite().index()] as usize,
        }
    }

    /// The free cells of the rectangle with blocks `s`, per row.
    fn free_rows(&self, s: &[u16; 3], free: &mut [u64]) {
        let full = if self.cols == 64 {
            u64::MAX
        } else {
            (1u64 << self.cols) - 1
        };
        for (f, w) in free.iter_mut().zip(&self.wall_rows) {
            *f = full & !w;
        }
        for &b in s {
            self.toggle(free, b);
        }
    }

    /// Flips the free bit of cell `c` (nothing for tube cells, which are not in `free`).
    #[inline]
    fn toggle(&self, free: &mut [u64], c: u16) {
        let c = c as usize;
        if c < self.n_rect {
            free[c / self.cols] ^= 1 << (c % self.cols);
        }
    }

    /// Whether the free cell `p` is connected to the floor around the rectangle through the
    /// free cells `free` (per row). A flood fill from `p` that fills whole runs of a row at
    /// once (carry propagation) and stops as soon as it touches the edge; `out` is scratch
    /// space, all zero on entry and on return.
    fn reaches_outside(&self, free: &[u64], p: u16, out: &mut [u64]) -> bool {
        let cols = self.cols;
        let last = self.rows - 1;
        let edge = 1u64 | 1 << (cols - 1);
        let touches = |r: usize, g: u64| {
            r == 0
                || r == last
                || g & edge != 0
                || (r == 1 && g & free[0] != 0)
                || (r + 1 == last && g & free[last] != 0)
        };
        let (r0, c0) = (p as usize / cols, p as usize % cols);
        let x = run_fill(1 << c0, free[r0]);
        if touches(r0, x) {
            return true;
        }
        out[r0] = x;
        let (mut lo, mut hi) = (r0, r0);
        let reached = 'flood: loop {
            let mut changed = false;
            let from = lo.saturating_sub(1).max(1);
            let to = (hi + 1).min(last - 1);
            for r in (from..=to).chain((from..=to).rev()) {
                let g = out[r] | ((out[r - 1] | out[r + 1]) & free[r]);
                if g != out[r] {
                    let g = run_fill(g, free[r]);
                    out[r] = g;
                    changed = true;
                    lo = lo.min(r);
                    hi = hi.max(r);
                    if touches(r, g) {
                        break 'flood true;
                    }
                }
            }
            if !changed {
                break false;
            }
        };
        out[lo..=hi].fill(0);
        reached
    }

    /// A quick sufficient test that the free cell `p` reaches the outside with blocks `s`:
    /// it lies on the edge, or next to a free edge cell (the margin holds no walls).
    #[inline]
    fn near_outside(&self, s: &[u16; 3], p: u16) -> bool {
        let (r, c) = (p as usize / self.cols, p as usize % self.cols);
        let (rows, cols) = (self.rows, self.cols);
        if r == 0 || c == 0 || r + 1 == rows || c + 1 == cols {
            return true;
        }
        let free_edge = |rr: usize, cc: usize| {
            let q = (rr * cols + cc) as u16;
            (rr == 0 || cc == 0 || rr + 1 == rows || cc + 1 == cols)
                && self.wall_rows[rr] >> cc & 1 == 0
                && !s.contains(&q)
        };
        free_edge(r - 1, c) || free_edge(r + 1, c) || free_edge(r, c - 1) || free_edge(r, c + 1)
    }

    /// Breadth-first search from `start`. `stop` sees every position when it is first
    /// reached; when it returns `true` the search ends there and returns the pushes (engine
    /// cell, direction) that lead to it; otherwise every reachable position is visited.
    pub(super) fn search(
        &self,
        start: [u16; 3],
        mut stop: impl FnMut([u16; 3]) -> bool,
    ) -> Explored {
        let mut seen = Visited::new(self.nb.len());
        // node: state, parent index, pushed cell, direction
        let mut nodes: Vec<(u64, u32, u16, u8)> = Vec::new();
        let s0 = pack(start);
        seen.insert(start);
        nodes.push((s0, u32::MAX, 0, 0));
        let mut free = vec![0u64; self.rows];
        let mut scratch = vec![0u64; self.rows];
        let mut head = 0;
        let mut found = stop(start).then_some(0);
        while head < nodes.len() && found.is_none() {
            let (key, _, _, _) = nodes[head];
            let s = unpack(key);
            let mut have_free = false;
            'blocks: for k in 0..3 {
                let i = s[k] as usize;
                for d in Dir::ALL {
                    let pusher = self.behind[i][d.index()];
                    let ok = match pusher {
                        Behind::Blocked => false,
                        Behind::Outside => true,
                        Behind::Rect(p) => {
                            !s.contains(&p)
                                && (self.near_outside(&s, p) || {
                                    if !have_free {
                                        self.free_rows(&s, &mut free);
                                        have_free = true;
                                    }
                                    self.reaches_outside(&free, p, &mut scratch)
                                })
                        }
                        Behind::Tube(p) => !s.contains(&p),
                    };
                    if !ok {
                        continue;
                    }
                    let j = self.slide(&s, k, d);
                    if j == i {
                        continue;
                    }
                    let mut t = s;
                    t[k] = j as u16;
                    t.sort_unstable();
                    if seen.contains(t) {
                        continue;
                    }
                    if let Behind::Rect(p) = pusher {
                        // the player must not wall himself off from the outside
                        if !self.near_outside(&t, p) {
                            if !have_free {
                                self.free_rows(&s, &mut free);
                                have_free = true;
                            }
                            // the rows of `t`: the block left `i` and stopped on `j`
                            self.toggle(&mut free, i as u16);
                            self.toggle(&mut free, j as u16);
                            let kept = self.reaches_outside(&free, p, &mut scratch);
                            self.toggle(&mut free, i as u16);
                            self.toggle(&mut free, j as u16);
                            if !kept {
                                continue;
                            }
                        }
                    }
                    seen.insert(t);
                    nodes.push((pack(t), head as u32, i as u16, d.index() as u8));
                    if stop(t) {
                        found = Some(nodes.len() - 1);
                        break 'blocks;
                    }
                }
            }
            head += 1;
        }
        let path = found.map(|mut at| {
            let mut path = Vec::new();
            while nodes[at].1 != u32::MAX {
                path.push((nodes[at].2, Dir::ALL[nodes[at].3 as usize]));
                at = nodes[at].1 as usize;
            }
            path.reverse();
            path
        });
        Explored {
            states: nodes.len() as u64,
            path,
        }
    }
}

/// Fills `seed` along the runs of set bits of `free` it touches, in both directions.
#[inline]
fn run_fill(seed: u64, free: u64) -> u64 {
    let seed = seed & free;
    // carries run from each seed bit up through its run of free cells
    let up = (free.wrapping_add(seed) ^ free) & free;
    let (rf, rs) = (free.reverse_bits(), seed.reverse_bits());
    let down = ((rf.wrapping_add(rs) ^ rf) & rf).reverse_bits();
    seed | up | down
}

/// The positions a search has reached: one bit per set of three cells (ranked
/// combinatorially) while that fits in 64 MiB, a hash set beyond.
enum Visited {
    Dense {
        bits: Vec<u64>,
        c2: Vec<u64>,
        c3: Vec<u64>,
    },
    Sparse(FxHashSet<u64>),
}

impl Visited {
    const DENSE_LIMIT: u64 = 1 << 29;

    fn new(cells: usize) -> Visited {
        let n = cells as u64;
        let total = n * n.saturating_sub(1) * n.saturating_sub(2) / 6;
        if total > Self::DENSE_LIMIT {
            return Visited::Sparse(FxHashSet::default());
        }
        let c2 = (0..n).map(|x| x * x.saturating_sub(1) / 2).collect();
        let c3 = (0..n)
            .map(|x| x * x.saturating_sub(1) * x.saturating_sub(2) / 6)
            .collect();
        Visited::Dense {
            bits: vec![0; total.div_ceil(64) as usize],
            c2,
            c3,
        }
    }

    /// `s` sorted ascending, three distinct cells.
    #[inline]
    fn index(c2: &[u64], c3: &[u64], s: [u16; 3]) -> usize {
        (s[0] as u64 + c2[s[1] as usize] + c3[s[2] as usize]) as usize
    }

    #[inline]
    fn contains(&self, s: [u16; 3]) -> bool {
        match self {
            Visited::Dense { bits, c2, c3 } => {
                let i = Self::index(c2, c3, s);
                bits[i / 64] >> (i % 64) & 1 == 1
            }
            Visited::Sparse(set) => set.contains(&pack(s)),
        }
    }

    #[inline]
    fn insert(&mut self, s: [u16; 3]) {
        match self {
            Visited::Dense { bits, c2, c3 } => {
                let i = Self::index(c2, c3, s);
                bits[i / 64] |= 1 << (i % 64);
            }
            Visited::Sparse(set) => {
                set.insert(pack(s));
            }
        }
    }
}

pub(super) struct Explored {
    pub(super) states: u64,
    pub(super) path: Option<Vec<(u16, Dir)>>,
}

pub(super) fn pack(s: [u16; 3]) -> u64 {
    s[0] as u64 | (s[1] as u64) << 16 | (s[2] as u64) << 32
}
fn unpack(k: u64) -> [u16; 3] {
    [k as u16, (k >> 16) as u16, (k >> 32) as u16]
}
pub(super) fn sorted(mut s: [u16; 3]) -> [u16; 3] {
    s.sort_unstable();
    s
}

#[cfg(test)]
mod tests {
    use super::super::{tests::pic, DrawingBoard};
    use super::*;

    /// A stage of the smiley board with every pixel but the first (a gap at the top of the
    /// ring) drawn and a tube of 6 cells.
    fn test_stage() -> (DrawingBoard, Stage) {
        let art = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../levels/images/smiley.txt"
        ))
        .unwrap();
        let board = DrawingBoard::new(&pic(&art)).unwrap();
        let drawn: Vec<usize> = (1..board.pixels().len()).collect();
        let walls: Vec<usize> = drawn.iter().map(|&i| board.cell(i) as usize).collect();
        let stage = Stage::new(board.rows, board.cols, &walls, 6);
        (board, stage)
    }

    /// Random positions of three blocks on free cells of `stage`, sorted.
    fn positions(stage: &Stage, count: usize) -> Vec<[u16; 3]> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let free: Vec<u16> = (0..stage.nb.len() as u16)
            .filter(|&c| stage.nb[c as usize].iter().any(|&n| n != NONE))
            .collect();
        let mut out = Vec::new();
        while out.len() < count {
            let t = sorted(std::array::from_fn(|_| {
                free[rng.random_range(0..free.len())]
            }));
            if t[0] != t[1] && t[1] != t[2] {
                out.push(t);
            }
        }
        out
    }

    #[test]
    fn slides_match_walking_cell_by_cell() {
        let (_, stage) = test_stage();
        for s in positions(&stage, 20_000) {
            for k in 0..3 {
                for d in Dir::ALL {
                    let mut j = s[k] as usize;
                    while let Some(&n) = stage.nb.get(j).map(|nb| &nb[d.index()]) {
                        if n == NONE || s.contains(&n) {
                            break;
                        }
                        j = n as usize;
                    }
                    assert_eq!(stage.slide(&s, k, d), j, "{s:?} block {k} {d:?}");
                }
            }
        }
    }

    #[test]
    fn reaching_the_outside_matches_a_plain_flood_fill() {
        let (board, stage) = test_stage();
        let n_rect = board.rows * board.cols;
        let mut free = vec![0u64; board.rows];
        let mut scratch = vec![0u64; board.rows];
        let mut cut_off = 0;
        for s in positions(&stage, 3_000) {
            stage.free_rows(&s, &mut free);
            let is_free =
                |c: usize| c < n_rect && free[c / board.cols] >> (c % board.cols) & 1 == 1;
            // reference: breadth-first search from every free edge cell
            let mut reached = vec![false; n_rect];
            let mut queue: Vec<usize> = (0..n_rect)
                .filter(|&c| {
                    let (r, col) = (c / board.cols, c % board.cols);
                    is_free(c)
                        && (r == 0 || col == 0 || r + 1 == board.rows || col + 1 == board.cols)
                })
                .collect();
            for &c in &queue {
                reached[c] = true;
            }
            while let Some(c) = queue.pop() {
                for &nb in &stage.nb[c] {
                    let nb = nb as usize;
                    if nb != NONE as usize && is_free(nb) && !reached[nb] {
                        reached[nb] = true;
                        queue.push(nb);
                    }
                }
            }
            for p in (0..n_rect).filter(|&c| is_free(c)) {
                let got = stage.reaches_outside(&free, p as u16, &mut scratch);
                assert_eq!(got, reached[p], "{s:?} cell {p}");
                cut_off += usize::from(!got);
                assert!(scratch.iter().all(|&w| w == 0), "scratch left dirty");
            }
        }
        // a block in the gap of the ring shuts its inside off: both answers occur
        assert!(cut_off > 0);
    }
}
