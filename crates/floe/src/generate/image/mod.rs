//! Pictures drawn with ice blocks (van den Akker 2024, section 5): the drawing board, the
//! short-train placement of one pixel at a time, the recursion that decides whether a picture
//! can be drawn, the complete push sequence, and the census of small pictures.
//!
//! # The drawing board (section 5.2)
//! A picture of `m × n` pixels is drawn on an ice rectangle of `(m + 4) × (n + 4)` cells: the
//! drawing area in the middle and a 2-cell margin around it. The pixels are targets. The
//! short train (three blocks) starts in the bottom-left corner of the margin, at
//! `(R-2, 0)`, `(R-1, 0)` and `(R-1, 1)`. Above column 0 a feeding tube leads up to the
//! storage: the `k − 1` further blocks a `k`-pixel picture needs wait in column 0 above the
//! rectangle, one every other row, so that the player (who walks on the normal floor beside
//! the column) can step behind the lowest one and push it down. It slides down the tube and
//! column 0 and stops on top of the two train blocks, at `(R-2, 0)`: the train is whole again.
//!
//! # One placement
//! Placing a pixel `p` with the pixels `W` already drawn means: from the train's start,
//! with the blocks on `W` never pushed again (they act as walls), push until one block rests
//! on `p` and the other two are back home at `(R-1, 0)` and `(R-1, 1)`; then a new block is
//! fed. Whether that is possible is decided exactly, by a breadth-first search over the
//! positions of the three train blocks, under the `walk` rule. One model choice, stated here
//! because it bounds the search: the player never walls himself off from the outside (every
//! push leaves him in the region that reaches the normal floor around the board). The board
//! text and the push sequence are replayed through [`crate::games::ice::replay`] with the
//! `walk` rule before anything is reported.
//!
//! # The recursion (section 5.3)
//! A picture `S` is drawable iff some pixel `p ∈ S` can be placed last on `S \ {p}` and
//! `S \ {p}` is drawable. [`Decider`] follows this from the full picture down, trying the
//! pixels with the most black neighbours first (a pixel stacked against its neighbours is the
//! usual last move), remembers every sub-picture found not drawable, and remembers per drawn
//! set `W` what the searches on it found. A search asks for one pixel and stops when a block
//! rests on it with the train home, noting every other pixel placed on the way (their pushes
//! are kept for the push sequence); a search that runs out without placing it has seen the
//! whole space, so it answers for every pixel on `W`.
//!
//! # Speed
//! A position is three cells; the visited set is one bit per set of three cells (ranked
//! combinatorially). Slides use a table of where a block stops on the empty stage, cut short
//! by the other two blocks. Whether the player can reach a cell is a flood fill from that
//! cell over per-row bit masks that fills whole runs of a row at once and stops as soon as it
//! touches the edge; a cheap test (the cell is on the edge or next to a free edge cell)
//! answers first. The 16×16 smiley takes about 2 s.

use super::picture::Picture;
use crate::error::Error;
use crate::games::ice::{format, replay, Cell, Level, WalkRule};
use crate::grid::{Dir, Pos, Push};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use std::time::Instant;

/// Width of the margin around the drawing area.
pub const MARGIN: usize = 2;
/// Largest number of black pixels handled.
pub const MAX_PIXELS: usize = 256;
const NONE: u16 = u16::MAX;

/// A set of pixels (indices into the picture's black pixels).
type PixSet = [u64; 4];

fn has(s: &PixSet, i: usize) -> bool {
    s[i / 64] >> (i % 64) & 1 == 1
}
fn with(mut s: PixSet, i: usize) -> PixSet {
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

/// The drawing board of a picture (section 5.2).
#[derive(Clone, Debug)]
pub struct DrawingBoard {
    picture: Picture,
    pixels: Vec<Pos>,
    rows: usize,
    cols: usize,
    /// Pixel index of each rectangle cell (`NONE` for white cells).
    cell_pixel: Vec<u16>,
}

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
struct Stage {
    rows: usize,
    cols: usize,
    n_rect: usize,
    nb: Vec<[u16; 4]>,
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
    fn new(rows: usize, cols: usize, walls: &[usize], tube: usize) -> Stage {
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
    fn search(&self, start: [u16; 3], mut stop: impl FnMut([u16; 3]) -> bool) -> Explored {
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

struct Explored {
    states: u64,
    path: Option<Vec<(u16, Dir)>>,
}

fn pack(s: [u16; 3]) -> u64 {
    s[0] as u64 | (s[1] as u64) << 16 | (s[2] as u64) << 32
}
fn unpack(k: u64) -> [u16; 3] {
    [k as u16, (k >> 16) as u16, (k >> 32) as u16]
}
fn sorted(mut s: [u16; 3]) -> [u16; 3] {
    s.sort_unstable();
    s
}

impl DrawingBoard {
    /// The drawing board of `picture`.
    pub fn new(picture: &Picture) -> Result<DrawingBoard, Error> {
        let pixels = picture.pixels();
        if pixels.len() > MAX_PIXELS {
            return Err(Error::invalid(format!(
                "the picture has {} black pixels; at most {MAX_PIXELS} are handled",
                pixels.len()
            )));
        }
        if picture.cols() + 2 * MARGIN > 64 {
            return Err(Error::invalid(format!(
                "the picture is {} pixels wide; at most {} are handled",
                picture.cols(),
                64 - 2 * MARGIN
            )));
        }
        let (rows, cols) = (picture.rows() + 2 * MARGIN, picture.cols() + 2 * MARGIN);
        let mut cell_pixel = vec![NONE; rows * cols];
        for (i, p) in pixels.iter().enumerate() {
            cell_pixel[(p.row + MARGIN) * cols + p.col + MARGIN] = i as u16;
        }
        Ok(DrawingBoard {
            picture: picture.clone(),
            rows,
            cols,
            pixels,
            cell_pixel,
        })
    }
    /// The picture.
    pub fn picture(&self) -> &Picture {
        &self.picture
    }
    /// The black pixels, row by row (picture coordinates).
    pub fn pixels(&self) -> &[Pos] {
        &self.pixels
    }
    /// Blocks waiting in the storage at the start.
    pub fn stored(&self) -> usize {
        self.pixels.len().saturating_sub(1)
    }
    /// Rows of the storage above the rectangle in the level text: a wall capping column 0,
    /// then a gap and a block for every stored block.
    pub fn storage_rows(&self) -> usize {
        2 * self.stored() + 1
    }
    fn cell(&self, pixel: usize) -> u16 {
        let p = self.pixels[pixel];
        ((p.row + MARGIN) * self.cols + p.col + MARGIN) as u16
    }
    fn home(&self) -> [u16; 2] {
        let r = self.rows;
        let c = self.cols;
        [((r - 1) * c) as u16, ((r - 1) * c + 1) as u16]
    }
    fn start(&self) -> [u16; 3] {
        let [a, b] = self.home();
        sorted([((self.rows - 2) * self.cols) as u16, a, b])
    }
    /// The search space for placing the next pixel when the pixels in `drawn` are done.
    fn stage(&self, drawn: &[usize]) -> Stage {
        // k blocks fed: the tube is 2k cells long, capped by a stored block or the wall
        let walls: Vec<usize> = drawn.iter().map(|&i| self.cell(i) as usize).collect();
        Stage::new(self.rows, self.cols, &walls, 2 * drawn.len())
    }
    /// The pixel a position places: the two other blocks home and this one on a pixel.
    #[inline]
    fn placed(&self, t: [u16; 3]) -> Option<usize> {
        let [a, b] = self.home();
        if !(t.contains(&a) && t.contains(&b)) {
            return None;
        }
        let c = *t.iter().find(|&&c| c != a && c != b)?;
        match self.cell_pixel.get(c as usize) {
            Some(&q) if q != NONE => Some(q as usize),
            _ => None,
        }
    }
    fn goal(&self, pixel: usize) -> u64 {
        let [a, b] = self.home();
        pack(sorted([self.cell(pixel), a, b]))
    }

    /// The starting board as a level (rules `walk`): storage, tube, rectangle, train.
    pub fn level(&self) -> Level {
        let top = self.storage_rows();
        let mut level = Level::new(top + self.rows, self.cols).expect("a board of sane size");
        for r in 0..top {
            for c in 0..self.cols {
                let cell = match (r, c) {
                    (0, 0) => Cell::Wall,
                    (_, 0) => Cell::Ice,
                    _ => Cell::Floor,
                };
                level.set_cell(Pos::new(r, c), cell).expect("an empty cell");
            }
            // blocks at rows -1, -3, … above the rectangle
            if r > 0 && (top - r) % 2 == 1 {
                level.set_block(Pos::new(r, 0), true).expect("ice");
            }
        }
        for &p in &self.pixels {
            let at = Pos::new(top + p.row + MARGIN, p.col + MARGIN);
            level.set_cell(at, Cell::Target).expect("an empty cell");
        }
        for b in self.start() {
            let b = b as usize;
            let at = Pos::new(top + b / self.cols, b % self.cols);
            level.set_block(at, true).expect("ice");
        }
        level.rules = Some(WalkRule::Walk);
        level.title = Some(format!(
            "picture {}x{}, {} pixels",
            self.picture.rows(),
            self.picture.cols(),
            self.pixels.len()
        ));
        level
    }

    /// An engine cell as a level position (tube cells lie above the rectangle).
    fn level_pos(&self, cell: u16) -> Pos {
        let top = self.storage_rows();
        let n_rect = self.rows * self.cols;
        let i = cell as usize;
        if i < n_rect {
            Pos::new(top + i / self.cols, i % self.cols)
        } else {
            Pos::new(top - 1 - (i - n_rect), 0)
        }
    }
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
#[derive(Clone, Copy, Debug, Default)]
pub struct DrawLimits {
    /// Stop after this many placement searches.
    pub max_searches: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

/// Stopped by a limit: how many placement searches ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Searches run.
    pub searches: u64,
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
    paths: FxHashMap<(PixSet, usize), Vec<(u16, Dir)>>,
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

/// The answer for one picture.
#[derive(Clone, Debug, Serialize)]
pub struct ImageReport {
    /// Whether the picture can be drawn.
    pub creatable: bool,
    /// The starting board as level text.
    pub board: String,
    /// The drawing order (empty when not creatable).
    pub order: Vec<Placement>,
    /// Number of pushes of `moves`.
    pub pushes: usize,
    /// Every push from the starting board, feeding included (level coordinates).
    pub moves: Vec<Push>,
    /// Why not, when not creatable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<Witness>,
    /// Placement searches run while deciding.
    pub searches: u64,
    /// Positions visited by them.
    pub states: u64,
}

/// Decides `picture`, and when it can be drawn builds and checks the complete push sequence.
pub fn draw(picture: &Picture, limits: DrawLimits) -> Result<Result<ImageReport, Stopped>, Error> {
    let board = DrawingBoard::new(picture)?;
    let level = board.level();
    let board_text = format::write_floe(std::slice::from_ref(&level));
    let mut decider = Decider::new(&board, limits);
    let decision = match decider.decide() {
        Ok(d) => d,
        Err(s) => return Ok(Err(s)),
    };
    let (searches, states) = (decider.searches, decider.states);
    let order = match decision {
        Err(w) => {
            return Ok(Ok(ImageReport {
                creatable: false,
                board: board_text,
                order: Vec::new(),
                pushes: 0,
                moves: Vec::new(),
                witness: Some(w),
                searches,
                states,
            }))
        }
        Ok(o) => o,
    };
    let (placements, moves) = sequence(&board, &order, &decider.paths)?;
    check(&board, &level, &moves)?;
    Ok(Ok(ImageReport {
        creatable: true,
        board: board_text,
        order: placements,
        pushes: moves.len(),
        moves,
        witness: None,
        searches,
        states,
    }))
}

/// The push sequence drawing the pixels in `order`: per pixel the fewest pushes from the
/// train's start to the pixel with the train home (taken from `paths` when the decision
/// found them already), then the feeding push.
fn sequence(
    board: &DrawingBoard,
    order: &[usize],
    paths: &FxHashMap<(PixSet, usize), Vec<(u16, Dir)>>,
) -> Result<(Vec<Placement>, Vec<Push>), Error> {
    let mut moves = Vec::new();
    let mut placements = Vec::new();
    let top = board.storage_rows();
    for (k, &p) in order.iter().enumerate() {
        let stage = board.stage(&order[..k]);
        let drawn = order[..k].iter().fold([0u64; 4], |s, &i| with(s, i));
        let path = match paths.get(&(drawn, p)) {
            Some(path) => Some(path.clone()),
            None => {
                let goal = board.goal(p);
                stage.search(board.start(), |t| pack(t) == goal).path
            }
        }
        .ok_or_else(|| Error::Internal(format!("pixel {} of the order cannot be placed", k + 1)))?;
        // replay in engine cells to find the push that left a block on the pixel
        let target = board.cell(p);
        let mut blocks = board.start();
        let mut from = None;
        for &(cell, dir) in &path {
            let mut j = cell;
            loop {
                let n = stage.nb[j as usize][dir.index()];
                if n == NONE || blocks.contains(&n) {
                    break;
                }
                j = n;
            }
            let slot = blocks.iter().position(|&b| b == cell).expect("a block");
            blocks[slot] = j;
            if j == target {
                from = Some(dir.opposite());
            }
            moves.push(Push::new(board.level_pos(cell), dir));
        }
        let from = from.ok_or_else(|| Error::Internal("the pixel got no block".into()))?;
        let px = board.pixels[p];
        placements.push(Placement {
            row: px.row,
            col: px.col,
            from,
        });
        if k + 1 < order.len() {
            // feed: the lowest stored block, at row -(2k+1) above the rectangle
            moves.push(Push::new(Pos::new(top - (2 * k + 1), 0), Dir::Down));
        }
    }
    Ok((placements, moves))
}

/// Replays `moves` on the starting board under `walk` and checks the end: exactly the
/// picture in the drawing area, the storage empty.
fn check(board: &DrawingBoard, level: &Level, moves: &[Push]) -> Result<(), Error> {
    let r = replay(level, WalkRule::Walk, moves)
        .map_err(|e| Error::Internal(format!("the drawing does not replay: {e}")))?;
    let top = board.storage_rows();
    for row in 0..level.rows() {
        for col in 0..level.cols() {
            let at = Pos::new(row, col);
            let want = row >= top
                && row - top >= MARGIN
                && col >= MARGIN
                && board
                    .picture
                    .get(Pos::new(row - top - MARGIN, col - MARGIN));
            let in_area = row >= top
                && (MARGIN..board.rows - MARGIN).contains(&(row - top))
                && (MARGIN..board.cols - MARGIN).contains(&col);
            if (in_area || row < top) && r.end.has_block(at) != want {
                return Err(Error::Internal(format!(
                    "the drawing ends with the wrong board at ({at})"
                )));
            }
        }
    }
    if !r.solved {
        return Err(Error::Internal("the drawing leaves a pixel empty".into()));
    }
    Ok(())
}

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
fn placeable_masks(board: &DrawingBoard, mask: usize) -> Vec<usize> {
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

/// The board after `moves` (which must replay) from `level` under `walk`.
pub fn finished(level: &Level, moves: &[Push]) -> Result<Level, Error> {
    replay(level, WalkRule::Walk, moves)
        .map(|r| r.end)
        .map_err(|e| Error::Internal(format!("the drawing does not replay: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pic(art: &str) -> Picture {
        Picture::parse(art.as_bytes(), "t").unwrap()
    }

    #[test]
    fn a_small_picture_is_drawn_and_replays() {
        let p = pic("##\n#.\n");
        let r = draw(&p, DrawLimits::default()).unwrap().unwrap();
        assert!(r.creatable);
        assert_eq!(r.order.len(), 3);
        assert_eq!(r.pushes, r.moves.len());
        // the board text parses back and the moves end with exactly the picture
        let level = format::parse(&r.board, "b", None).unwrap().remove(0);
        let end = finished(&level, &r.moves).unwrap();
        let top = DrawingBoard::new(&p).unwrap().storage_rows();
        for q in [(0, 0), (0, 1), (1, 0)] {
            assert!(end.has_block(Pos::new(top + MARGIN + q.0, MARGIN + q.1)));
        }
        assert!(!end.has_block(Pos::new(top + MARGIN + 1, MARGIN + 1)));
        assert_eq!(
            end.block_count(),
            3 + 2,
            "the picture and the two train blocks"
        );
    }

    #[test]
    fn the_empty_picture_and_one_pixel() {
        let r = draw(&pic("..\n..\n"), DrawLimits::default())
            .unwrap()
            .unwrap();
        assert!(r.creatable);
        assert_eq!(r.pushes, 0);
        let r = draw(&pic(".#\n..\n"), DrawLimits::default())
            .unwrap()
            .unwrap();
        assert!(r.creatable);
        assert_eq!(r.order.len(), 1);
    }

    #[test]
    fn figure_21_configurations_are_not_creatable() {
        for (name, art) in [("x", "#.#\n.#.\n#.#\n"), ("plus", ".#.\n#.#\n.#.\n")] {
            let r = draw(&pic(art), DrawLimits::default()).unwrap().unwrap();
            assert!(!r.creatable, "{name}");
            assert!(r.moves.is_empty());
            assert_eq!(
                r.witness,
                Some(Witness::Configuration {
                    figure: name,
                    row: 0,
                    col: 0
                })
            );
        }
    }

    #[test]
    fn limits_stop_the_decision() {
        let limits = DrawLimits {
            max_searches: Some(0),
            deadline: None,
        };
        assert!(draw(&pic("##\n#.\n"), limits).unwrap().is_err());
    }

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
