//! The fast engine: a static level compiled to row and column masks, compact positions, and
//! the [`Puzzle`] implementation every generic search runs on.
//!
//! - **Cells.** The open (non-wall) cells are numbered row-major; a position holds the regular
//!   and the golden blocks as two bit sets `B` over those numbers (`u64`, `u128`, `Wide<3>` or
//!   `Wide<5>`, the narrowest that fits), the fires still burning as a `u64` bit mask, and the
//!   magician as the first cell of his region (row-major): two positions that differ only by
//!   where he stands inside one region are one position. Plus one byte: the lower bound,
//!   computed once when the position is made.
//! - **Slides.** Per row and per column the engine keeps masks of walls (with a sentinel
//!   for the map's edge), recyclers and floor. Expanding a position lays its blocks and fires
//!   into row and column masks (a few dozen bit operations); then a slide is a shift and a
//!   bit scan: the first obstacle beyond the block, and within the path the first fire or
//!   recycler (regular ice) or every fire (golden ice).
//! - **Walking.** The magician's region is a flood fill over the rows: within a row a whole
//!   run fills at once by carry propagation (`(f + s) ^ f`), and rows exchange seeds until
//!   nothing changes.
//! - **Pruning.** Every new position is judged by [`Analysis::judge`] (module
//!   [`prune`](super::prune)): dead positions are never generated, the others carry their
//!   lower bound for A* and IDA*.

use super::judged::Judged;
use super::level::{Block, Tile, Tower, MAX_COLS, MAX_ROWS};
use super::packed::{BitReader, BitWriter, Packing, PACKED_WORDS};
use super::prune::{Analysis, Dead};
use super::rules::Board;
use super::symmetry::{symmetries, Symmetry};
use crate::bits::{Bits, Wide};
use crate::game::{Engine, Task};
use crate::grid::{Dir, Pos, Push};
use crate::search::Puzzle;
use crate::Error;

const NONE: u16 = u16::MAX;
/// Largest number of fires the engine handles (one `u64` mask).
pub const MAX_FIRES: usize = 64;

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TState<B> {
    /// Regular blocks (open cells).
    pub ice: B,
    /// Golden blocks (open cells).
    pub gold: B,
    /// Fires still burning (fire numbers).
    pub fires: u64,
    /// The first open cell of the magician's region.
    pub man: u16,
    /// Lower bound on the pushes still needed (a function of the rest).
    lb: u8,
}

/// A push in engine terms: the open cell of the block and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TMove {
    /// Open cell of the pushed block.
    pub from: u16,
    /// Direction.
    pub dir: Dir,
}

/// How a slide ends, in line bits (column + 1 in a row, row + 1 in a column).
struct Slide {
    /// Rest bit, or `None` when a regular block vanished.
    rest: Option<u32>,
    /// Line bits of the fires put out.
    fires: u32,
}

/// A static level compiled for search.
pub struct TowerPuzzle<B> {
    rows: usize,
    cols: usize,
    /// Cell (row-major over the map) → open number or `NONE`.
    open: Vec<u16>,
    an: Analysis,
    wall_row: [u32; MAX_ROWS],
    wall_col: [u32; MAX_COLS],
    recyc_row: [u32; MAX_ROWS],
    recyc_col: [u32; MAX_COLS],
    /// Floor and fire cells: walkable when free and not burning.
    floor_row: [u32; MAX_ROWS],
    /// Cell → fire number or `u8::MAX`.
    fire_at: Vec<u8>,
    start: TState<B>,
    start_dead: Option<Dead>,
    /// Judgements of the positions generated lately.
    judged: Judged<B>,
    /// The level's symmetries but the identity.
    sym: Vec<Symmetry>,
    /// How a position is packed ([`Puzzle::pack`]).
    packing: Packing,
}

/// Layout of one position in masks.
struct View {
    blk_row: [u32; MAX_ROWS],
    blk_col: [u32; MAX_COLS],
    fire_row: [u32; MAX_ROWS],
    fire_col: [u32; MAX_COLS],
}

/// Fills the runs of `f` that hold a seed of `s` (⊆ `f`); bit 0 and bit 31 are never in `f`.
#[inline]
fn row_fill(f: u32, s: u32) -> u32 {
    if s == 0 {
        return 0;
    }
    let up = (((f.wrapping_add(s)) ^ f) & f) | s;
    let (rf, rs) = (f.reverse_bits(), s.reverse_bits());
    let down = ((((rf.wrapping_add(rs)) ^ rf) & rf) | rs).reverse_bits();
    up | down
}

/// The region of `walk` (row masks) connected to the seed bits `seed` of row `r0`.
#[inline]
fn flood(walk: &[u32; MAX_ROWS], rows: usize, r0: usize, seed: u32) -> [u32; MAX_ROWS] {
    let mut reg = [0u32; MAX_ROWS];
    reg[r0] = row_fill(walk[r0], seed & walk[r0]);
    loop {
        let mut changed = false;
        for r in 1..rows {
            let s = reg[r - 1] & walk[r] & !reg[r];
            if s != 0 {
                reg[r] = row_fill(walk[r], s | reg[r]);
                changed = true;
            }
        }
        for r in (0..rows.saturating_sub(1)).rev() {
            let s = reg[r + 1] & walk[r] & !reg[r];
            if s != 0 {
                reg[r] = row_fill(walk[r], s | reg[r]);
                changed = true;
            }
        }
        if !changed {
            return reg;
        }
    }
}

/// Bits `lo..=hi` of a `u32`.
#[inline]
fn span(lo: u32, hi: u32) -> u32 {
    let upto = |x: u32| -> u32 {
        if x >= 31 {
            u32::MAX
        } else {
            (2u32 << x) - 1
        }
    };
    upto(hi) & !(if lo == 0 { 0 } else { upto(lo - 1) })
}

/// The slide of a block at line bit `at` along a line with obstacles `obst` (the block
/// itself may be among them), fires `fire` and recyclers `recyc`, towards higher bits when
/// `forward`. `None` when the next cell stops it at once.
#[inline]
fn slide(at: u32, obst: u32, fire: u32, recyc: u32, forward: bool, golden: bool) -> Option<Slide> {
    let (stop, path) = if forward {
        let o = at + 1 + (obst >> (at + 1)).trailing_zeros();
        if o == at + 1 {
            return None;
        }
        (o - 1, span(at + 1, o - 1))
    } else {
        let below = obst & ((1u32 << at) - 1);
        let o = 31 - below.leading_zeros();
        if o + 1 == at {
            return None;
        }
        (o + 1, span(o + 1, at - 1))
    };
    if golden {
        return Some(Slide {
            rest: Some(stop),
            fires: fire & path,
        });
    }
    let haz = (fire | recyc) & path;
    if haz == 0 {
        return Some(Slide {
            rest: Some(stop),
            fires: 0,
        });
    }
    let h = if forward {
        haz.trailing_zeros()
    } else {
        31 - haz.leading_zeros()
    };
    Some(Slide {
        rest: None,
        fires: fire & (1 << h),
    })
}

impl<B: Bits> TowerPuzzle<B> {
    /// Compiles `tower` (static, at most [`MAX_FIRES`] fires, open cells fitting `B`).
    /// With `prune` off, no position is dead and the bound is 0: a plain exhaustive search.
    pub fn new(tower: &Tower, prune: bool) -> TowerPuzzle<B> {
        Self::new_at(tower, &Board::new(tower), prune)
    }

    /// [`TowerPuzzle::new`] for the level `tower`, starting from the position `at` of it (its
    /// blocks, fires still burning and magician; walls and recyclers are the level's). The
    /// states of every position of a level compiled this way are comparable: fires keep the
    /// level's numbers, whatever has been put out (what bounds learned in play rely on).
    pub fn new_at(tower: &Tower, at: &Board, prune: bool) -> TowerPuzzle<B> {
        let (rows, cols) = (tower.rows(), tower.cols());
        debug_assert!(same_level(tower, at).is_ok());
        assert!(tower.first_dynamic().is_none(), "static levels only");
        let mut open = vec![NONE; rows * cols];
        let mut n = 0u16;
        for p in tower.positions() {
            if tower.tile(p) != Tile::Wall {
                open[p.row * cols + p.col] = n;
                n += 1;
            }
        }
        assert!(n as usize <= B::CAPACITY && tower.fires().len() <= MAX_FIRES);
        let an = Analysis::new(tower, &open, prune);
        // sentinels: bit 0 and everything past the last column (row) are walls
        let mut wall_row = [0u32; MAX_ROWS];
        let mut wall_col = [0u32; MAX_COLS];
        for w in wall_row.iter_mut() {
            *w = 1 | !span(0, cols as u32);
        }
        for w in wall_col.iter_mut() {
            *w = 1 | !span(0, rows as u32);
        }
        let mut recyc_row = [0u32; MAX_ROWS];
        let mut recyc_col = [0u32; MAX_COLS];
        let mut floor_row = [0u32; MAX_ROWS];
        let mut fire_at = vec![u8::MAX; rows * cols];
        for (f, p) in an.fires.iter().enumerate() {
            fire_at[p.row * cols + p.col] = f as u8;
        }
        for p in tower.positions() {
            let (rb, cb) = (1u32 << (p.col + 1), 1u32 << (p.row + 1));
            match tower.tile(p) {
                Tile::Wall => {
                    wall_row[p.row] |= rb;
                    wall_col[p.col] |= cb;
                }
                Tile::Recycler => {
                    recyc_row[p.row] |= rb;
                    recyc_col[p.col] |= cb;
                }
                Tile::Floor | Tile::Fire => floor_row[p.row] |= rb,
                Tile::Arrow(_) | Tile::Dispenser => unreachable!("static levels only"),
            }
        }
        let mut ice = B::empty();
        let mut gold = B::empty();
        for p in tower.positions() {
            let i = open[p.row * cols + p.col] as usize;
            match at.block(p) {
                Some(Block::Ice) => ice.set(i),
                Some(Block::Golden) => gold.set(i),
                None => {}
            }
        }
        let fires = an
            .fires
            .iter()
            .enumerate()
            .filter(|&(_, &p)| at.tile(p) == Tile::Fire)
            .fold(0u64, |m, (f, _)| m | 1 << f);
        let mut p = TowerPuzzle {
            rows,
            cols,
            open,
            an,
            wall_row,
            wall_col,
            recyc_row,
            recyc_col,
            floor_row,
            fire_at,
            start: TState {
                ice,
                gold,
                fires,
                man: 0,
                lb: 0,
            },
            start_dead: None,
            judged: Judged::new(),
            sym: Vec::new(),
            packing: Packing {
                open: n as usize,
                golden: 0,
                width: (16 - (n.max(1) - 1).leading_zeros() as usize).max(1),
                fires: 0,
            },
        };
        p.sym = symmetries(tower, &p.open, &p.an.fires);
        p.packing.golden = gold.count() as usize;
        p.packing.fires = p.an.fires.len();
        let m = at.man();
        let v = p.view(&p.start);
        let walk = p.walk(&v);
        let reg = flood(&walk, rows, m.row, 1 << (m.col + 1));
        p.start.man = p.first_cell(&reg);
        match p.an.judge(ice, gold, fires) {
            Ok(lb) => p.start.lb = lb.min(u8::MAX as u32) as u8,
            Err(d) => p.start_dead = Some(d),
        }
        p
    }

    /// Why the start is dead, if it is.
    pub fn start_dead(&self) -> Option<Dead> {
        self.start_dead
    }

    /// The tables behind the pruning.
    pub fn analysis(&self) -> &Analysis {
        &self.an
    }

    /// The grid push of an engine move.
    pub fn push(&self, m: &TMove) -> Push {
        Push::new(self.an.pos[m.from as usize], m.dir)
    }

    /// Open cell → position.
    pub fn pos(&self, i: u16) -> Pos {
        self.an.pos[i as usize]
    }

    fn view(&self, s: &TState<B>) -> View {
        let mut v = View {
            blk_row: [0; MAX_ROWS],
            blk_col: [0; MAX_COLS],
            fire_row: [0; MAX_ROWS],
            fire_col: [0; MAX_COLS],
        };
        for b in s.ice.or(s.gold).ones() {
            let p = self.an.pos[b];
            v.blk_row[p.row] |= 1 << (p.col + 1);
            v.blk_col[p.col] |= 1 << (p.row + 1);
        }
        let mut f = s.fires;
        while f != 0 {
            let p = self.an.fires[f.trailing_zeros() as usize];
            f &= f - 1;
            v.fire_row[p.row] |= 1 << (p.col + 1);
            v.fire_col[p.col] |= 1 << (p.row + 1);
        }
        v
    }

    fn walk(&self, v: &View) -> [u32; MAX_ROWS] {
        let mut w = [0u32; MAX_ROWS];
        for (r, x) in w.iter_mut().enumerate().take(self.rows) {
            *x = self.floor_row[r] & !v.blk_row[r] & !v.fire_row[r];
        }
        w
    }

    fn first_cell(&self, reg: &[u32; MAX_ROWS]) -> u16 {
        let r = (0..self.rows)
            .find(|&r| reg[r] != 0)
            .expect("the region holds the magician");
        let c = reg[r].trailing_zeros() as usize - 1;
        self.open[r * self.cols + c]
    }

    /// Calls `f(move, next position)` for every push from `s` whose result is not dead.
    pub fn generate(&self, s: &TState<B>, f: impl FnMut(TMove, TState<B>)) {
        self.generate_folded(s, false, f)
    }

    /// [`TowerPuzzle::generate`], each next position replaced by the least of its class
    /// under the level's symmetries when `fold` ([`Puzzle::canonical`]).
    fn generate_folded(&self, s: &TState<B>, fold: bool, mut f: impl FnMut(TMove, TState<B>)) {
        let fold = fold && !self.sym.is_empty();
        let v = self.view(s);
        let walk = self.walk(&v);
        let man = self.an.pos[s.man as usize];
        let region = flood(&walk, self.rows, man.row, 1 << (man.col + 1));
        let mut made = Vec::with_capacity(64);
        let mut regions = Vec::new();
        for b in s.ice.or(s.gold).ones() {
            let golden = s.gold.get(b);
            let p = self.an.pos[b];
            for d in Dir::ALL {
                let Some(stand) = p.step(d.opposite(), self.rows, self.cols) else {
                    continue;
                };
                if region[stand.row] >> (stand.col + 1) & 1 == 0 {
                    continue;
                }
                let horizontal = matches!(d, Dir::Left | Dir::Right);
                // the block's place along its line and the line's walls, fires and recyclers
                let (at, walls, fires, recyclers) = if horizontal {
                    let r = p.row;
                    let walls = self.wall_row[r] | v.blk_row[r];
                    (p.col, walls, v.fire_row[r], self.recyc_row[r])
                } else {
                    let c = p.col;
                    let walls = self.wall_col[c] | v.blk_col[c];
                    (p.row, walls, v.fire_col[c], self.recyc_col[c])
                };
                let sl = slide(
                    at as u32 + 1,
                    walls,
                    fires,
                    recyclers,
                    d.is_forward(),
                    golden,
                );
                let Some(sl) = sl else { continue };
                let cell = |bit: u32| -> Pos {
                    if horizontal {
                        Pos::new(p.row, bit as usize - 1)
                    } else {
                        Pos::new(bit as usize - 1, p.col)
                    }
                };
                let mut t = *s;
                let mut w = walk;
                if golden {
                    t.gold.clear(b);
                } else {
                    t.ice.clear(b);
                }
                // the cell left behind: walkable unless it is a recycler
                w[p.row] |= self.floor_row[p.row] & (1 << (p.col + 1));
                let mut hit = sl.fires;
                while hit != 0 {
                    let q = cell(hit.trailing_zeros());
                    hit &= hit - 1;
                    let fi = self.fire_at[q.row * self.cols + q.col];
                    t.fires &= !(1u64 << fi);
                    w[q.row] |= 1 << (q.col + 1);
                }
                if let Some(bit) = sl.rest {
                    let q = cell(bit);
                    let i = self.open[q.row * self.cols + q.col] as usize;
                    if golden {
                        t.gold.set(i);
                    } else {
                        t.ice.set(i);
                    }
                    w[q.row] &= !(1 << (q.col + 1));
                }
                let reg = flood(&w, self.rows, stand.row, 1 << (stand.col + 1));
                t.man = self.first_cell(&reg);
                if fold {
                    regions.push(reg);
                }
                made.push((
                    TMove {
                        from: b as u16,
                        dir: d,
                    },
                    t,
                ));
            }
        }
        let keys: Vec<(B, B, u64)> = made.iter().map(|(_, t)| (t.ice, t.gold, t.fires)).collect();
        let mut verdicts = Vec::with_capacity(keys.len());
        self.judged
            .judge_all(&keys, &mut verdicts, |i, g, f| self.an.judge(i, g, f));
        for (k, ((m, mut t), v)) in made.into_iter().zip(verdicts).enumerate() {
            if let Some(lb) = v {
                t.lb = lb;
                if fold {
                    t = self.least_image(&t, &regions[k]);
                }
                f(m, t);
            }
        }
    }

    /// The least of `s` and its images under the level's symmetries (blocks, then fires,
    /// then the magician's region); `region` is the magician's region in `s`, as row masks.
    fn least_image(&self, s: &TState<B>, region: &[u32; MAX_ROWS]) -> TState<B> {
        let mut best = *s;
        for m in &self.sym {
            let mut t = TState {
                ice: B::empty(),
                gold: B::empty(),
                fires: 0,
                man: 0,
                lb: s.lb,
            };
            for i in s.ice.ones() {
                t.ice.set(m.cell[i] as usize);
            }
            for i in s.gold.ones() {
                t.gold.set(m.cell[i] as usize);
            }
            let mut f = s.fires;
            while f != 0 {
                t.fires |= 1 << m.fire[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            let order = (t.ice, t.gold, t.fires).cmp(&(best.ice, best.gold, best.fires));
            if order == std::cmp::Ordering::Greater {
                continue;
            }
            // the region's image: its first open cell
            t.man = u16::MAX;
            for (r, &row) in region.iter().enumerate().take(self.rows) {
                let mut bits = row;
                while bits != 0 {
                    let c = bits.trailing_zeros() as usize - 1;
                    bits &= bits - 1;
                    let i = self.open[r * self.cols + c];
                    t.man = t.man.min(m.cell[i as usize]);
                }
            }
            if order == std::cmp::Ordering::Less || t.man < best.man {
                best = t;
            }
        }
        best
    }

    /// The magician's region in `s`, as row masks.
    fn region(&self, s: &TState<B>) -> [u32; MAX_ROWS] {
        let v = self.view(s);
        let walk = self.walk(&v);
        let man = self.an.pos[s.man as usize];
        flood(&walk, self.rows, man.row, 1 << (man.col + 1))
    }

    /// The names of the level's symmetries other than the identity.
    pub fn symmetry_names(&self) -> Vec<&'static str> {
        self.sym.iter().map(|m| m.name).collect()
    }
}

impl<B: Bits> Puzzle for TowerPuzzle<B> {
    type State = TState<B>;
    type Move = TMove;
    fn start(&self) -> TState<B> {
        self.start
    }
    fn successors(&self, s: &TState<B>, out: &mut Vec<(TMove, TState<B>)>) {
        self.generate(s, |m, t| out.push((m, t)));
    }
    fn for_each_next<F: FnMut(TState<B>)>(&self, s: &TState<B>, mut f: F) {
        self.generate(s, |_, t| f(t));
    }
    fn is_goal(&self, s: &TState<B>) -> bool {
        s.fires == 0
    }
    fn lower_bound(&self, s: &TState<B>) -> u32 {
        s.lb as u32
    }
    fn exceeds(&self, s: &TState<B>, need: u32) -> bool {
        s.lb as u32 <= need && self.an.needs_more(s.ice, s.gold, s.fires, need)
    }
    fn symmetries(&self) -> usize {
        self.sym.len() + 1
    }
    fn canonical(&self, s: &TState<B>) -> TState<B> {
        if self.sym.is_empty() {
            return *s;
        }
        self.least_image(s, &self.region(s))
    }
    fn canonical_successors(&self, s: &TState<B>, out: &mut Vec<(TMove, TState<B>)>) {
        self.generate_folded(s, true, |m, t| out.push((m, t)));
    }
    fn packed_len(&self) -> usize {
        // levels with many golden blocks are kept as they are
        let bits = self.packing.bits();
        if bits > 64 * PACKED_WORDS {
            0
        } else {
            bits.div_ceil(8)
        }
    }
    fn pack(&self, s: &TState<B>, out: &mut [u8]) {
        let k = self.packing;
        let mut w = BitWriter {
            words: [0; PACKED_WORDS],
            at: 0,
        };
        for j in 0..k.open.div_ceil(64) {
            w.put((k.open - 64 * j).min(64), s.ice.word(j));
        }
        for i in s.gold.ones() {
            w.put(k.width, i as u64);
        }
        w.put(k.fires, s.fires);
        w.put(k.width, s.man as u64);
        w.put(8, s.lb as u64);
        for (chunk, word) in out.chunks_mut(8).zip(w.words) {
            chunk.copy_from_slice(&word.to_le_bytes()[..chunk.len()]);
        }
    }
    fn unpack(&self, bytes: &[u8]) -> Option<TState<B>> {
        let k = self.packing;
        let mut r = BitReader {
            words: [0; PACKED_WORDS],
            at: 0,
        };
        for (chunk, word) in bytes.chunks(8).zip(r.words.iter_mut()) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            *word = u64::from_le_bytes(b);
        }
        let mut s = TState {
            ice: B::empty(),
            gold: B::empty(),
            fires: 0,
            man: 0,
            lb: 0,
        };
        for j in 0..k.open.div_ceil(64) {
            s.ice.or_word(j, r.get((k.open - 64 * j).min(64)));
        }
        for _ in 0..k.golden {
            s.gold.set(r.get(k.width) as usize);
        }
        s.fires = r.get(k.fires);
        s.man = r.get(k.width) as u16;
        s.lb = r.get(8) as u8;
        Some(s)
    }
}

impl<B: Bits> Engine for TowerPuzzle<B> {
    type Public = Push;
    fn public(&self, m: &TMove) -> Push {
        self.push(m)
    }
    fn pieces(&self, s: &TState<B>) -> Vec<Pos> {
        s.ice
            .or(s.gold)
            .ones()
            .map(|i| self.pos(i as u16))
            .collect()
    }
    fn dead_start(&self) -> Option<String> {
        self.start_dead.map(|d| d.to_string())
    }
}

/// Whether `at` is a position of the level `tower`: the same map but for fires put out
/// (floor now) and the blocks and magician anywhere.
pub fn same_level(tower: &Tower, at: &Board) -> Result<(), String> {
    if (tower.rows(), tower.cols()) != (at.rows(), at.cols()) {
        return Err(format!(
            "the position is {} × {}, the level {} × {}",
            at.rows(),
            at.cols(),
            tower.rows(),
            tower.cols()
        ));
    }
    match tower.positions().find(|&p| {
        let (a, b) = (tower.tile(p), at.tile(p));
        a != b && !(a == Tile::Fire && b == Tile::Floor)
    }) {
        Some(p) => Err(format!(
            "row {}, col {} is {} in the position, {} in the level",
            p.row,
            p.col,
            at.tile(p).name(),
            tower.tile(p).name()
        )),
        None => Ok(()),
    }
}

/// Compiles `tower` with the narrowest bit set that holds its open cells and runs `task`.
/// Fails on levels with arrows or dispensers, or more than [`MAX_FIRES`] fires.
pub fn with_tower<T: Task<Push>>(tower: &Tower, prune: bool, task: T) -> Result<T::Output, Error> {
    with_tower_at(tower, &Board::new(tower), prune, task)
}

/// [`with_tower`] from the position `at` of the level `tower` (see [`TowerPuzzle::new_at`]).
pub fn with_tower_at<T: Task<Push>>(
    tower: &Tower,
    at: &Board,
    prune: bool,
    task: T,
) -> Result<T::Output, Error> {
    same_level(tower, at)
        .map_err(|m| Error::invalid(format!("this position is not one of the level: {m}")))?;
    if let Some((p, t)) = tower.first_dynamic() {
        return Err(Error::invalid(format!(
            "{} at row {}, col {}: the fast engine takes static levels only",
            t.name(),
            p.row,
            p.col
        )));
    }
    let nf = tower.fires().len();
    if nf > MAX_FIRES {
        return Err(Error::invalid(format!(
            "the level has {nf} fires; the solver handles at most {MAX_FIRES}"
        )));
    }
    let n = tower
        .positions()
        .filter(|&p| tower.tile(p) != Tile::Wall)
        .count();
    Ok(if n <= 64 {
        task.run(&TowerPuzzle::<u64>::new_at(tower, at, prune))
    } else if n <= 128 {
        task.run(&TowerPuzzle::<u128>::new_at(tower, at, prune))
    } else if n <= 192 {
        task.run(&TowerPuzzle::<Wide<3>>::new_at(tower, at, prune))
    } else {
        task.run(&TowerPuzzle::<Wide<5>>::new_at(tower, at, prune))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::icetower::level::parse;
    use crate::games::icetower::rules::PlainPuzzle;
    use crate::search::{bfs, Limits};
    use std::collections::HashSet;

    fn tower(text: &str) -> Tower {
        parse(text, "t", "t").unwrap()
    }

    /// Every test map fits in 320 open cells.
    fn compiled(t: &Tower, prune: bool) -> TowerPuzzle<Wide<5>> {
        TowerPuzzle::new(t, prune)
    }

    #[test]
    fn row_fill_fills_runs_with_seeds() {
        let f = 0b0111_0111_1110;
        assert_eq!(row_fill(f, 0b0000_0000_1000), 0b0000_0111_1110);
        assert_eq!(row_fill(f, 0b0010_0000_0000), 0b0111_0000_0000);
        assert_eq!(row_fill(f, 0b0010_0000_0100), f);
        assert_eq!(row_fill(f, 0b0000_0110_0000), 0b0000_0111_1110);
        assert_eq!(row_fill(f, 0), 0);
    }

    #[test]
    fn spans_and_slides() {
        assert_eq!(span(1, 3), 0b1110);
        assert_eq!(span(0, 31), u32::MAX);
        // walls at bits 0 and 6, block at 2: right from 2 rests at 5
        let obst = 1 | 1 << 6 | 1 << 2;
        let s = slide(2, obst, 0, 0, true, false).unwrap();
        assert_eq!((s.rest, s.fires), (Some(5), 0));
        // left from 2 is stuck against bit 1? no: bit 1 is free, rests at 1
        let s = slide(2, obst, 0, 0, false, false).unwrap();
        assert_eq!(s.rest, Some(1));
        assert!(slide(5, obst, 0, 0, true, false).is_none());
        // regular ice vanishes in the first fire, golden puts out both
        let fire = 1 << 3 | 1 << 5;
        let s = slide(2, obst, fire, 0, true, false).unwrap();
        assert_eq!((s.rest, s.fires), (None, 1 << 3));
        let s = slide(2, obst, fire, 0, true, true).unwrap();
        assert_eq!((s.rest, s.fires), (Some(5), fire));
        // a recycler before the fire eats regular ice; golden passes and rests on it
        let s = slide(2, obst, 1 << 5, 1 << 4, true, false).unwrap();
        assert_eq!((s.rest, s.fires), (None, 0));
        let s = slide(2, 1 | 1 << 5, 0, 1 << 4, true, true).unwrap();
        assert_eq!(s.rest, Some(4));
    }

    /// The successors of the engine and of the plain rules agree on every position reached
    /// (without pruning), compared as sets of (push, board text with the region's key).
    fn same_moves(text: &str) {
        let t = tower(text);
        {
            {
                let p = &compiled(&t, false);
                let plain = PlainPuzzle::new(&t);
                // walk both spaces in step from the start, breadth first, a few hundred states
                let mut queue = vec![(p.start(), plain.start())];
                let mut seen = HashSet::new();
                while let Some((s, b)) = queue.pop() {
                    if !seen.insert(s) || seen.len() > 300 {
                        continue;
                    }
                    let mut fast = Vec::new();
                    p.successors(&s, &mut fast);
                    let mut slow = Vec::new();
                    plain.successors(&b, &mut slow);
                    let fast_pushes: HashSet<Push> = fast.iter().map(|(m, _)| p.push(m)).collect();
                    let slow_pushes: HashSet<Push> = slow.iter().map(|(m, _)| *m).collect();
                    assert_eq!(fast_pushes, slow_pushes, "\n{}", b.to_text());
                    for (m, next) in fast {
                        let push = p.push(&m);
                        let (_, bt) = slow.iter().find(|(q, _)| *q == push).unwrap();
                        assert_eq!(next.fires.count_ones() as usize, bt.fires_left());
                        assert_eq!(p.pos(next.man), bt.man(), "{push}\n{}", bt.to_text());
                        // the level compiled to start there has that very state
                        let here = TowerPuzzle::<Wide<5>>::new_at(&t, bt, false);
                        assert_eq!(here.start(), next, "{push}\n{}", bt.to_text());
                        queue.push((next, bt.clone()));
                    }
                }
            }
        }
    }

    #[test]
    fn engine_agrees_with_the_rules() {
        same_moves("#######\n#@% **#\n#  %  #\n#$ -  #\n#######\n");
        same_moves("##-****$ @##\n");
        same_moves("  *\n@$-#\n    \n");
        same_moves("@%  *\n %$ -\n*  % \n");
        same_moves(
            "####################\n#*################*#\n#         @        #\n#     %      %     #\n##    *      *    ##\n",
        );
    }

    #[test]
    fn a_position_of_another_level_is_refused() {
        struct Nothing;
        impl Task<Push> for Nothing {
            type Output = ();
            fn run<E: Engine<Public = Push>>(self, _: &E) {}
        }
        let level = tower("#####\n#@%*#\n#####\n");
        let out = Board::new(&tower("#####\n#@% #\n#####\n"));
        assert!(with_tower_at(&level, &out, true, Nothing).is_ok());
        let walled = Board::new(&tower("#####\n#@%##\n#####\n"));
        let e = with_tower_at(&level, &walled, true, Nothing).unwrap_err();
        assert!(e.to_string().contains("row 1, col 3"), "{e}");
        let small = Board::new(&tower("@%*\n"));
        let e = with_tower_at(&level, &small, true, Nothing).unwrap_err();
        assert!(e.to_string().contains("1 × 3"), "{e}");
    }

    #[test]
    fn the_start_is_judged() {
        let t = tower("#####\n#@*%#\n#####\n");
        assert!(compiled(&t, true).start_dead().is_some());
        assert!(compiled(&t, true).dead_start().is_some());
        assert!(compiled(&t, false).start_dead().is_none());
        let t = tower("#####\n#@%*#\n#####\n");
        assert!(compiled(&t, true).start_dead().is_none());
    }

    #[test]
    fn refuses_dynamic_levels() {
        struct Nothing;
        impl Task<Push> for Nothing {
            type Output = ();
            fn run<E: Engine<Public = Push>>(self, _: &E) {}
        }
        let e = with_tower(&tower("@%>*\n"), true, Nothing).unwrap_err();
        assert!(e.to_string().contains("an arrow at row 0, col 2"), "{e}");
    }

    /// The table of judgements answers as the judge does, for positions asked again and for
    /// positions that share a slot; repeated questions are not judged again.
    #[test]
    fn judgements_are_kept_exactly() {
        let t = tower("#########\n#@ %  * #\n# $   * #\n#  %  * #\n#   %   #\n#########\n");
        let p = compiled(&t, true);
        let mut keys = Vec::new();
        let mut queue = vec![p.start()];
        let mut seen = HashSet::new();
        while let Some(s) = queue.pop() {
            if !seen.insert(s) {
                continue;
            }
            keys.push((s.ice, s.gold, s.fires));
            p.generate(&s, |_, n| queue.push(n));
        }
        assert!(keys.len() > 50, "{}", keys.len());
        // a fresh table with few slots: most keys share slots with others
        let table = Judged::<Wide<5>>::with_slots(16);
        let calls = std::cell::Cell::new(0);
        let judge = |i, g, f| {
            calls.set(calls.get() + 1);
            p.analysis().judge(i, g, f)
        };
        let want: Vec<Option<u8>> = keys
            .iter()
            .map(|&(i, g, f)| p.analysis().judge(i, g, f).ok().map(|b| b as u8))
            .collect();
        let mut got = Vec::new();
        for round in 0..3 {
            table.judge_all(&keys, &mut got, judge);
            assert_eq!(got, want, "round {round}");
        }
        assert!(
            calls.get() < 3 * keys.len(),
            "every question was judged again"
        );
        // one key asked many times in one batch: judged once
        let one = vec![keys[7]; 40];
        let before = calls.get();
        table.judge_all(&one, &mut got, judge);
        assert_eq!(got, vec![want[7]; 40]);
        assert!(calls.get() - before <= 1);
    }

    /// Packing gives back every position, and different positions pack differently; the
    /// canonical position is one per class: the least of the images, a position of the class
    /// (its own canonical position), found for every member of the class.
    #[test]
    fn packed_and_canonical_positions() {
        // (the level, its symmetries with the identity, whether positions of one class are
        // reached: the second level is symmetric, but no two positions reached from its start
        // are images of each other)
        for (text, group, folds) in [
            ("####################\n#*################*#\n#         @        #\n#     %      %     #\n##    *      *    ##\n", 2, true),
            ("#######\n#@ * %#\n#  *  #\n#$ - $#\n#######\n", 2, false),
            ("#########\n#@ %  * #\n# $   * #\n#  %  * #\n#   %   #\n#########\n", 1, false),
        ] {
            let t = tower(text);
            let p = compiled(&t, false);
            let mut queue = vec![p.start()];
            let mut seen = HashSet::new();
            while let Some(s) = queue.pop() {
                if seen.len() > 3_000 || !seen.insert(s) {
                    continue;
                }
                p.generate(&s, |_, n| queue.push(n));
            }
            let len = p.packed_len();
            assert!(len > 0 && len < std::mem::size_of::<TState<Wide<5>>>(), "{len}");
            let mut packs = HashSet::new();
            let mut classes = HashSet::new();
            for s in &seen {
                let mut b = vec![0u8; len];
                p.pack(s, &mut b);
                assert_eq!(p.unpack(&b), Some(*s), "{text}");
                packs.insert(b);
                let c = p.canonical(s);
                assert!(c <= *s || p.symmetries() == 1, "{text}");
                assert_eq!(p.canonical(&c), c, "{text}");
                classes.insert(c);
            }
            assert_eq!(packs.len(), seen.len(), "{text}");
            assert_eq!(p.symmetries(), group, "{text}");
            assert!(classes.len() * group >= seen.len(), "{text}");
            assert_eq!(classes.len() < seen.len(), folds, "{text}");
            // the canonical successors are the canonical positions of the successors
            for s in seen.iter().take(200) {
                let mut plain = Vec::new();
                p.successors(s, &mut plain);
                let mut folded = Vec::new();
                p.canonical_successors(s, &mut folded);
                let want: Vec<_> = plain.iter().map(|(m, n)| (*m, p.canonical(n))).collect();
                assert_eq!(folded, want, "{text}");
            }
        }
    }

    #[test]
    fn bfs_matches_plain_bfs() {
        for text in [
            "#######\n#@% **#\n#  %  #\n#$ -  #\n#######\n",
            "@%  *\n %$ -\n*  % \n",
            "#######\n#@%*  #\n#  # %#\n#####*#\n",
        ] {
            let t = tower(text);
            let plain = bfs(&PlainPuzzle::new(&t), &Limits::none()).cost;
            let fast = |prune: bool| {
                let p = compiled(&t, prune);
                if p.start_dead().is_some() {
                    return None;
                }
                bfs(&p, &Limits::none()).cost
            };
            assert_eq!(fast(false), plain, "{text}");
            assert_eq!(fast(true), plain, "{text}");
        }
    }
}
