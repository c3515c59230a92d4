//! Dead positions and the lower bound: what lets the solver skip most of the space and stay
//! exact.
//!
//! Everything rests on a *relaxed* model of a block's moves computed once per level: a block
//! resting on cell `c` can be pushed in direction `d` when the cell behind it could ever hold
//! the magician (floor or fire, not a wall or recycler) and the cell ahead is not a wall; it
//! may then come to rest on any cell of its path (some block might stop it there), passing
//! fires (they might be out already). A regular block's path ends in a recycler; a golden
//! block's does not. Real play is one of the relaxed plays, so for every block and fire the
//! relaxed fewest pushes `dist(block, fire)` never exceed the real ones.
//!
//! Per position, in this order:
//! 1. **Frozen blocks.** A set of blocks that can never move again is found as a greatest
//!    fixpoint: start from all blocks and drop each one that could move if the blocks still
//!    in the set stood for ever (it needs a cell behind it that is not a wall, recycler, edge
//!    or frozen block, and a cell ahead that is not a wall, edge or frozen block). Whatever
//!    remains cannot move first, so it never moves: walls' corners, two blocks side by side
//!    along a wall, and larger jams.
//! 2. **Fires only regular ice can reach.** A fire that no golden block (not frozen) can
//!    reach must be put out by its own regular block. If no regular block can reach it, or
//!    more such fires remain than regular blocks that can reach them (a bipartite matching),
//!    the position is dead.
//! 3. **Lower bound.** Those fires take at least the least total `dist` of a matching of
//!    fires to distinct regular blocks (Hungarian method); the pushes of those blocks put out
//!    nothing else (a regular block puts out one fire, on its last push). The other fires
//!    need at least as many pushes as the fewest wall-to-wall lines (row or column runs)
//!    covering them, since one push, golden or not, puts out fires on one line only: a
//!    minimum vertex cover of the fires' row–column bipartite graph, which is its maximum
//!    matching (König). The bound is the sum.
//! 4. **Turns of golden ice.** A second bound, and the larger one counts. Every push puts out
//!    fires on one run; a regular block puts out one fire, on its last push. A golden block
//!    whose pushes put out fires on `r` row runs and `c` column runs makes at least
//!    `max(r + c, 2·max(r, c) − 1)` pushes after its first `p` (`p + 1` = its least relaxed
//!    distance to a live fire): its pushes along one run stay on that run, so between two row
//!    runs it turns along a column, and each run it sweeps takes a push. Summed over the
//!    `j` golden blocks that sweep (those that can reach a live fire), with the `j` least
//!    leads, for the runs `R`, `C` swept in all: `max(R + C, 2·max(R, C) − j) + p₁ + … + pⱼ`,
//!    least over `j`. The
//!    fires left to regular ice, `m` of them, take at least the larger of the own fires'
//!    matching plus the `m − own` smallest least distances of the other fires, and the sum
//!    of the `m` smallest least distances of distinct blocks. The bound is the least, over
//!    every set of runs of the side with fewer runs and the best runs of the other side for
//!    each count, of golden pushes plus regular pushes. Any play picks some runs to sweep
//!    and leaves at least the unswept fires to regular ice, so it needs at least that many
//!    pushes.
//! 5. **Stoppers of golden ice** ([`super::stoppers`]): a golden block stops only before a
//!    wall, the edge or a block, so a stop in the open needs a push that first left a block
//!    resting on the next cell. Tracking the golden blocks exactly, charging one push per
//!    such cell and one per fire they leave, gives a bound that sees what rule 4 cannot:
//!    h49's start needs at least 16 pushes by it, 8 by the others. It costs a search of its
//!    own, so it is not part of the bound kept with each position: a capped A* asks it,
//!    through [`Analysis::needs_more`], of the positions it is about to expand.
//!
//! Each rule is tested below on positions where it must fire and where it must not.

use super::level::{Block, Tile, Tower};
use crate::bits::Bits;
use crate::grid::{Dir, Pos};
use rustc_hash::FxBuildHasher;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};

/// No path: the relaxed distance of a block to a fire it can never reach.
pub const FAR: u8 = u8::MAX;
/// Rule 4 tries every set of runs on the side (rows or columns) with fewer runs holding
/// fires golden ice can reach, up to this many runs (4,096 sets).
const MAX_SWEPT_RUNS: usize = 12;
const NONE: u16 = u16::MAX;

/// Working space of [`Analysis::judge`], kept per thread so that judging a position
/// allocates nothing.
#[derive(Default)]
struct Scratch {
    /// Regular blocks that can reach a fire only they can put out.
    useful: Vec<usize>,
    /// Those fires.
    fires: Vec<usize>,
    // the Hungarian method's potentials, matching and marks
    u: Vec<i32>,
    v: Vec<i32>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i32>,
    used: Vec<bool>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
    static SWEEPS: std::cell::RefCell<SweepCache> = std::cell::RefCell::new(SweepCache::default());
}

/// A thread's tables of [`Analysis::sweepable`] for one level: offsets into `data` by set
/// of fires. Cleared when another level is judged or past [`SWEEP_CACHE_BYTES`].
#[derive(Default)]
struct SweepCache {
    /// The level's [`Analysis::id`].
    level: u64,
    at: HashMap<u64, u32, FxBuildHasher>,
    data: Vec<u8>,
}

/// The most a thread's [`SweepCache`] holds before it starts again.
const SWEEP_CACHE_BYTES: usize = 16 << 20;

/// Levels compiled so far: each [`Analysis`] gets its own number, the key of the caches.
static LEVELS: AtomicU64 = AtomicU64::new(1);

/// One table of [`Analysis::sweepable`], as the cache holds it.
#[derive(Clone, Copy)]
struct Sweepable<'a> {
    /// The fewest row or column runs covering the fires.
    lines: u8,
    /// Runs of the side with fewer runs (`u8::MAX`: too many to try) and of the other.
    na: u8,
    nb: u8,
    /// `cover[r * (nb + 1) + k]`: the most fires `r` runs of the side with fewer runs and
    /// `k` of the other cover (empty when there were too many runs to try).
    cover: &'a [u8],
}

impl<'a> Sweepable<'a> {
    fn read(d: &'a [u8]) -> Sweepable<'a> {
        let (lines, na, nb) = (d[0], d[1], d[2]);
        let n = if na == u8::MAX {
            0
        } else {
            (na as usize + 1) * (nb as usize + 1)
        };
        Sweepable {
            lines,
            na,
            nb,
            cover: &d[3..3 + n],
        }
    }
}

/// Why a position is dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dead {
    /// No block can ever reach this fire.
    Unreachable(Pos),
    /// More fires need their own regular block than regular blocks can reach them.
    TooFewBlocks,
}

impl std::fmt::Display for Dead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dead::Unreachable(p) => write!(f, "no block can ever reach the fire at ({p})"),
            Dead::TooFewBlocks => write!(
                f,
                "more fires need their own regular block than regular blocks can reach them"
            ),
        }
    }
}

/// The static tables of one level, over its open (non-wall) cells in row-major order.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Open cell → position.
    pub pos: Vec<Pos>,
    /// Neighbour in each direction (`NONE`: wall or edge).
    pub(super) nb: Vec<[u16; 4]>,
    /// Whether the magician could ever stand there (floor or fire).
    pub(super) standable: Vec<bool>,
    /// Open cell → its fire's bit (0: not a fire).
    pub(super) fire_bit: Vec<u64>,
    /// Fire number → position.
    pub fires: Vec<Pos>,
    /// Open cell × fire → relaxed fewest pushes of a regular block ([`FAR`]: never).
    dist_ice: Vec<u8>,
    /// `dist_ice` with every cell's row padded to 64 fires ([`FAR`] beyond the last), so
    /// that a position's least distances are taken 64 fires at a time.
    dist_ice64: Vec<[u8; 64]>,
    /// Open cell × fire → relaxed fewest pushes of a golden block ([`FAR`]: never).
    dist_gold: Vec<u8>,
    /// Open cell → fires a regular block resting there can reach.
    reach_ice: Vec<u64>,
    /// Open cell → fires a golden block resting there can reach.
    reach_gold: Vec<u64>,
    /// Fire → its row run and column run (numbered apart).
    row_run: Vec<u8>,
    col_run: Vec<u8>,
    /// Row run → fires on it.
    fires_on_row_run: Vec<u64>,
    /// Column run → fires on it.
    fires_on_col_run: Vec<u64>,
    /// Whether pruning is on (off: every position is alive and the bound is 0).
    pub enabled: bool,
    /// This level's number among those compiled (the key of the thread caches).
    id: u64,
}

impl Analysis {
    /// The tables of `tower` (static: no arrows or dispensers). `open` maps every cell
    /// (row-major over the whole map) to its open-cell number or `u16::MAX`.
    pub fn new(tower: &Tower, open: &[u16], enabled: bool) -> Analysis {
        let (rows, cols) = (tower.rows(), tower.cols());
        let pos: Vec<Pos> = tower
            .positions()
            .filter(|&p| open[p.row * cols + p.col] != NONE)
            .collect();
        let n = pos.len();
        let fires = tower.fires();
        let nf = fires.len();
        let fire_of = |p: Pos| fires.iter().position(|&f| f == p);
        let nb: Vec<[u16; 4]> = pos
            .iter()
            .map(|&p| {
                let mut a = [NONE; 4];
                for d in Dir::ALL {
                    if let Some(q) = p.step(d, rows, cols) {
                        a[d.index()] = open[q.row * cols + q.col];
                    }
                }
                a
            })
            .collect();
        let standable: Vec<bool> = pos
            .iter()
            .map(|&p| matches!(tower.tile(p), Tile::Floor | Tile::Fire))
            .collect();
        let recycler: Vec<bool> = pos
            .iter()
            .map(|&p| tower.tile(p) == Tile::Recycler)
            .collect();
        let fire_idx: Vec<Option<usize>> = pos.iter().map(|&p| fire_of(p)).collect();

        let relaxed = |kind: Block| -> Vec<u8> {
            let mut dist = vec![FAR; n * nf];
            let mut depth = vec![u8::MAX; n];
            let mut queue = VecDeque::new();
            for s in 0..n {
                depth.iter_mut().for_each(|x| *x = u8::MAX);
                depth[s] = 0;
                queue.clear();
                queue.push_back(s);
                while let Some(x) = queue.pop_front() {
                    let k = depth[x].saturating_add(1);
                    for d in Dir::ALL {
                        let behind = nb[x][d.opposite().index()];
                        if behind == NONE || !standable[behind as usize] {
                            continue;
                        }
                        let mut y = nb[x][d.index()];
                        while y != NONE {
                            let yu = y as usize;
                            if let Some(f) = fire_idx[yu] {
                                let e = &mut dist[s * nf + f];
                                *e = (*e).min(k);
                            }
                            if recycler[yu] && kind == Block::Ice {
                                break;
                            }
                            if depth[yu] == u8::MAX {
                                depth[yu] = k;
                                queue.push_back(yu);
                            }
                            y = nb[yu][d.index()];
                        }
                    }
                }
            }
            dist
        };
        let dist_ice = relaxed(Block::Ice);
        let dist_gold = relaxed(Block::Golden);
        let mask = |dist: &[u8], c: usize| -> u64 {
            (0..nf)
                .filter(|&f| dist[c * nf + f] != FAR)
                .fold(0u64, |m, f| m | 1 << f)
        };
        let reach_ice = (0..n).map(|c| mask(&dist_ice, c)).collect();
        let dist_ice64 = (0..n)
            .map(|c| {
                let mut row = [FAR; 64];
                row[..nf].copy_from_slice(&dist_ice[c * nf..(c + 1) * nf]);
                row
            })
            .collect();
        let reach_gold = (0..n).map(|c| mask(&dist_gold, c)).collect();

        // wall-to-wall runs through each fire
        let run_id = |f: Pos, d: Dir| -> (usize, usize) {
            // (start cell of the run, as a row-major index; direction to walk back)
            let mut p = f;
            while let Some(q) = p.step(d, rows, cols) {
                if tower.tile(q) == Tile::Wall {
                    break;
                }
                p = q;
            }
            (p.row * cols + p.col, 0)
        };
        let mut row_keys: Vec<usize> = Vec::new();
        let mut col_keys: Vec<usize> = Vec::new();
        let mut row_run = Vec::new();
        let mut col_run = Vec::new();
        for &f in &fires {
            let (rk, _) = run_id(f, Dir::Left);
            let (ck, _) = run_id(f, Dir::Up);
            let ri = row_keys.iter().position(|&k| k == rk).unwrap_or_else(|| {
                row_keys.push(rk);
                row_keys.len() - 1
            });
            let ci = col_keys.iter().position(|&k| k == ck).unwrap_or_else(|| {
                col_keys.push(ck);
                col_keys.len() - 1
            });
            row_run.push(ri as u8);
            col_run.push(ci as u8);
        }
        let mut fires_on_row_run = vec![0u64; row_keys.len()];
        for (f, &r) in row_run.iter().enumerate() {
            fires_on_row_run[r as usize] |= 1 << f;
        }
        let mut fires_on_col_run = vec![0u64; col_keys.len()];
        for (f, &c) in col_run.iter().enumerate() {
            fires_on_col_run[c as usize] |= 1 << f;
        }
        let fire_bit = fire_idx.iter().map(|f| f.map_or(0, |f| 1 << f)).collect();
        Analysis {
            pos,
            nb,
            standable,
            fire_bit,
            fires,
            dist_ice,
            dist_ice64,
            dist_gold,
            reach_ice,
            reach_gold,
            row_run,
            col_run,
            fires_on_row_run,
            fires_on_col_run,
            enabled,
            id: LEVELS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// This level's number among those compiled.
    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// Relaxed fewest pushes for a regular block on open cell `c` to put out fire `f`.
    pub fn dist(&self, c: usize, f: usize) -> u8 {
        self.dist_ice[c * self.fires.len() + f]
    }

    /// The blocks of `blocks` (open cells) that can never move again.
    pub fn frozen<B: Bits>(&self, blocks: B) -> B {
        let mut frozen = blocks;
        loop {
            let mut changed = false;
            for b in frozen.ones() {
                let movable = Dir::ALL.iter().any(|d| {
                    let behind = self.nb[b][d.opposite().index()];
                    let ahead = self.nb[b][d.index()];
                    behind != NONE
                        && self.standable[behind as usize]
                        && !frozen.get(behind as usize)
                        && ahead != NONE
                        && !frozen.get(ahead as usize)
                });
                if movable {
                    frozen.clear(b);
                    changed = true;
                }
            }
            if !changed {
                return frozen;
            }
        }
    }

    /// Judges a position: regular blocks `ice`, golden blocks `gold` (open cells), fires
    /// still burning `live`. Returns the lower bound on the pushes still needed, or why the
    /// position is dead.
    pub fn judge<B: Bits>(&self, ice: B, gold: B, live: u64) -> Result<u32, Dead> {
        if !self.enabled || live == 0 {
            return Ok(0);
        }
        let frozen = self.frozen(ice.or(gold));
        let ice = ice.and_not(frozen);
        let gold = gold.and_not(frozen);
        let mut by_gold = 0u64;
        for g in gold.ones() {
            by_gold |= self.reach_gold[g];
        }
        let by_gold = by_gold & live;
        let own = live & !by_gold;
        let mut cost = 0;
        if own != 0 {
            cost = SCRATCH.with_borrow_mut(|s| {
                let mut by_ice = 0u64;
                s.useful.clear();
                for b in ice.ones() {
                    if self.reach_ice[b] & own != 0 {
                        by_ice |= self.reach_ice[b];
                        s.useful.push(b);
                    }
                }
                let missing = own & !by_ice;
                if missing != 0 {
                    let f = missing.trailing_zeros() as usize;
                    return Err(Dead::Unreachable(self.fires[f]));
                }
                if (s.useful.len() as u32) < own.count_ones() {
                    return Err(Dead::TooFewBlocks);
                }
                self.assignment(own, s)
            })?;
        }
        if by_gold == 0 {
            // all regular: the matching is exact for the relaxed model, rule 4 adds nothing
            return Ok(cost);
        }
        Ok(self.sweepable(by_gold, |table| {
            let lines = cost + table.lines as u32;
            let turns = self.turn_bound(ice, gold, live, by_gold, own, cost, lines, table);
            lines.max(turns)
        }))
    }

    /// Rule 4 of the module notes: the fewest pushes when golden ice must turn between the
    /// runs it sweeps, regular ice puts out one fire per block, and both may share the fires.
    /// `ice` and `gold` are the blocks that are not frozen, `by_gold` the live fires some
    /// golden block can reach, `own` the others, `own_cost` the least total distance of a
    /// matching of `own` to distinct regular blocks. 0 when it cannot tell (more than
    /// [`MAX_SWEPT_RUNS`] runs on both sides, or no way to put every fire out). It stops as
    /// soon as it finds a way of at most `floor` pushes (the other bound).
    #[allow(clippy::too_many_arguments)]
    fn turn_bound<B: Bits>(
        &self,
        ice: B,
        gold: B,
        live: u64,
        by_gold: u64,
        own: u64,
        own_cost: u32,
        floor: u32,
        table: Sweepable,
    ) -> u32 {
        const INF: u32 = 1 << 20;
        let nf = self.fires.len();
        let n_live = live.count_ones() as usize;
        let n_own = own.count_ones() as usize;
        // regular ice: each live fire's and each block's least distance
        let mut fire_min = [FAR; 64];
        // distances to fires put out count as FAR
        let mut out = [0u8; 64];
        for (f, o) in out.iter_mut().enumerate() {
            *o = if live >> f & 1 == 1 { 0 } else { FAR };
        }
        let mut block_hist = [0u16; 256];
        let mut n_blocks = 0usize;
        let mut max_d = 0u8;
        for b in ice.ones() {
            let row = &self.dist_ice64[b];
            let mut bm = FAR;
            for f in 0..64 {
                let d = row[f] | out[f];
                fire_min[f] = fire_min[f].min(d);
                bm = bm.min(d);
            }
            if bm != FAR {
                n_blocks += 1;
                max_d = max_d.max(bm);
                block_hist[bm as usize] += 1;
            }
        }
        // the least cost of putting out any m of the live fires, own ones included, with
        // m distinct regular blocks: `least[m]`
        let mut others = [FAR; 64];
        let mut n_others = 0;
        let mut l = live & !own;
        while l != 0 {
            let f = l.trailing_zeros() as usize;
            l &= l - 1;
            others[n_others] = fire_min[f];
            n_others += 1;
        }
        let others = &mut others[..n_others];
        others.sort_unstable();
        let mut least = [INF; 65];
        let mut by_fires = own_cost;
        let mut by_blocks = 0u32;
        let mut next_block = 1usize; // histogram cursor
        for (m, slot) in least.iter_mut().enumerate().take(n_live + 1) {
            if m > 0 {
                while next_block <= max_d as usize && block_hist[next_block] == 0 {
                    next_block += 1;
                }
                if next_block <= max_d as usize {
                    by_blocks += next_block as u32;
                    block_hist[next_block] -= 1;
                } else {
                    by_blocks = INF;
                }
            }
            if m > n_own {
                let d = others[m - n_own - 1];
                by_fires = if d == FAR { INF } else { by_fires + d as u32 };
            }
            if m >= n_own && m <= n_blocks && by_fires < INF && by_blocks < INF {
                *slot = by_fires.max(by_blocks);
            }
        }
        // golden ice: how many blocks can put out a live fire, and the fewest pushes before
        // any of them can
        let mut leads = [0u8; 64];
        let mut usable = 0usize;
        for g in gold.ones() {
            let row = &self.dist_gold[g * nf..(g + 1) * nf];
            let mut gm = FAR;
            let mut l = by_gold;
            while l != 0 {
                let f = l.trailing_zeros() as usize;
                l &= l - 1;
                gm = gm.min(row[f]);
            }
            if gm != FAR && usable < leads.len() {
                leads[usable] = gm - 1;
                usable += 1;
            }
        }
        let leads = &mut leads[..usable];
        leads.sort_unstable();
        // the least lead pushes of j golden blocks
        let mut lead_sum = [0u32; 65];
        for (j, &p) in leads.iter().enumerate() {
            lead_sum[j + 1] = lead_sum[j] + p as u32;
        }
        // golden pushes that sweep r row runs and c column runs, j blocks sharing them
        let sweeps = |r: u32, c: u32| -> u32 {
            if r + c == 0 {
                return 0;
            }
            let most = (usable as u32).min(r + c);
            (1..=most)
                .map(|j| lead_sum[j as usize] + (r + c).max((2 * r.max(c)).saturating_sub(j)))
                .min()
                .unwrap_or(INF)
        };
        if by_gold == 0 || usable == 0 {
            return if least[n_live] >= INF {
                0
            } else {
                least[n_live]
            };
        }
        if table.na == u8::MAX {
            return 0;
        }
        let (na, nb, cover) = (table.na as u32, table.nb as u32, table.cover);
        let mut best = INF;
        for r in (0..=na).rev() {
            for k in 0..=nb {
                let cov = cover[(r * (nb + 1) + k) as usize] as usize;
                let v = sweeps(r, k).saturating_add(least[n_live - cov]);
                if v <= floor {
                    return 0;
                }
                best = best.min(v);
            }
        }
        if best >= INF {
            0
        } else {
            best
        }
    }

    /// What rule 4 and the line cover take from the live fires golden ice can reach,
    /// `by_gold`, computed once per set of fires (a thread's cache of the level; the many
    /// positions of a search share few such sets).
    fn sweepable<R>(&self, by_gold: u64, then: impl FnOnce(Sweepable) -> R) -> R {
        SWEEPS.with_borrow_mut(|c| {
            if c.level != self.id || c.data.len() > SWEEP_CACHE_BYTES {
                c.level = self.id;
                c.at.clear();
                c.data.clear();
            }
            let at = match c.at.get(&by_gold) {
                Some(&at) => at as usize,
                None => {
                    let at = c.data.len();
                    self.sweep_table(by_gold, &mut c.data);
                    c.at.insert(by_gold, at as u32);
                    at
                }
            };
            then(Sweepable::read(&c.data[at..]))
        })
    }

    /// Appends to `out` the table of [`Analysis::sweepable`] for the fires `by_gold`: the
    /// line cover, the numbers of runs `na` (the side with fewer) and `nb`, then for every
    /// `r ≤ na` and `k ≤ nb` the most of `by_gold` that `r` runs of the first side and `k`
    /// of the other cover (`na = u8::MAX` and no cover when there are too many runs).
    pub(super) fn sweep_table(&self, by_gold: u64, out: &mut Vec<u8>) {
        let lines = self.line_cover(by_gold).min(u8::MAX as u32) as u8;
        // the runs holding fires golden ice can reach: subsets of the side with fewer runs,
        // the best runs of the other side for each
        let (mut rows, mut cols) = ([0u64; 64], [0u64; 64]);
        let (mut nr, mut nc) = (0usize, 0usize);
        let (mut seen_r, mut seen_c) = (0u64, 0u64);
        let mut l = by_gold;
        while l != 0 {
            let f = l.trailing_zeros() as usize;
            l &= l - 1;
            let (r, c) = (self.row_run[f] as usize, self.col_run[f] as usize);
            if seen_r >> r & 1 == 0 {
                seen_r |= 1 << r;
                rows[nr] = self.fires_on_row_run[r] & by_gold;
                nr += 1;
            }
            if seen_c >> c & 1 == 0 {
                seen_c |= 1 << c;
                cols[nc] = self.fires_on_col_run[c] & by_gold;
                nc += 1;
            }
        }
        let (side, na, other, nb) = if nr <= nc {
            (&rows, nr, &cols, nc)
        } else {
            (&cols, nc, &rows, nr)
        };
        if na > MAX_SWEPT_RUNS {
            out.extend([lines, u8::MAX, 0]);
            return;
        }
        let base = out.len() + 3;
        out.extend([lines, na as u8, nb as u8]);
        out.resize(base + (na + 1) * (nb + 1), 0);
        let cover = &mut out[base..];
        for mask in 0u32..1 << na {
            let r = mask.count_ones() as usize;
            let mut covered = 0u64;
            let mut m = mask;
            while m != 0 {
                covered |= side[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            let rest = by_gold & !covered;
            let mut counts = [0u8; 64];
            for (k, &o) in other[..nb].iter().enumerate() {
                counts[k] = (o & rest).count_ones() as u8;
            }
            let counts = &mut counts[..nb];
            counts.sort_unstable_by(|a, b| b.cmp(a));
            let mut cov = covered.count_ones() as u8;
            for k in 0..=nb {
                if k > 0 {
                    cov += counts[k - 1];
                }
                let e = &mut cover[r * (nb + 1) + k];
                *e = (*e).max(cov);
            }
        }
    }

    /// Least total relaxed distance of a matching of the fires `own` to distinct blocks of
    /// `blocks` (Hungarian method, O(n² m)).
    /// The blocks are `scratch.useful`; the rest of `scratch` is working space.
    fn assignment(&self, own: u64, scratch: &mut Scratch) -> Result<u32, Dead> {
        const BIG: i32 = 1 << 20;
        let Scratch {
            useful: blocks,
            fires,
            u,
            v,
            p,
            way,
            minv,
            used,
        } = scratch;
        fires.clear();
        fires.extend((0..64).filter(|&f| own >> f & 1 == 1));
        let (n, m) = (fires.len(), blocks.len());
        let cost = |i: usize, j: usize| -> i32 {
            let d = self.dist(blocks[j - 1], fires[i - 1]);
            if d == FAR {
                BIG
            } else {
                d as i32
            }
        };
        let reset = |x: &mut Vec<i32>, len: usize| {
            x.clear();
            x.resize(len, 0);
        };
        reset(u, n + 1);
        reset(v, m + 1);
        reset(minv, m + 1);
        p.clear();
        p.resize(m + 1, 0);
        way.clear();
        way.resize(m + 1, 0);
        used.clear();
        used.resize(m + 1, false);
        for i in 1..=n {
            p[0] = i;
            let mut j0 = 0;
            minv.iter_mut().for_each(|x| *x = i32::MAX);
            used.iter_mut().for_each(|x| *x = false);
            loop {
                used[j0] = true;
                let i0 = p[j0];
                let mut delta = i32::MAX;
                let mut j1 = 0;
                for j in 1..=m {
                    if !used[j] {
                        let cur = cost(i0, j) - u[i0] - v[j];
                        if cur < minv[j] {
                            minv[j] = cur;
                            way[j] = j0;
                        }
                        if minv[j] < delta {
                            delta = minv[j];
                            j1 = j;
                        }
                    }
                }
                for j in 0..=m {
                    if used[j] {
                        u[p[j]] += delta;
                        v[j] -= delta;
                    } else {
                        minv[j] -= delta;
                    }
                }
                j0 = j1;
                if p[j0] == 0 {
                    break;
                }
            }
            loop {
                let j1 = way[j0];
                p[j0] = p[j1];
                j0 = j1;
                if j0 == 0 {
                    break;
                }
            }
        }
        let total: i32 = (1..=m).filter(|&j| p[j] != 0).map(|j| cost(p[j], j)).sum();
        if total >= BIG {
            Err(Dead::TooFewBlocks)
        } else {
            Ok(total as u32)
        }
    }

    /// Fewest row or column runs covering the fires `set`: the maximum matching of the
    /// bipartite graph whose edges are the fires (Kuhn's augmenting paths).
    fn line_cover(&self, set: u64) -> u32 {
        if set == 0 {
            return 0;
        }
        let mut col_match = [u8::MAX; 64]; // column run → matched fire
        let mut size = 0;
        let mut rows = 0u64;
        for f in (0..64).filter(|&f| set >> f & 1 == 1) {
            rows |= 1 << self.row_run[f];
        }
        for r in (0..64).filter(|&r| rows >> r & 1 == 1) {
            let mut seen = 0u64; // column runs visited
            if self.augment(r, set, &mut col_match, &mut seen) {
                size += 1;
            }
        }
        size
    }

    fn augment(&self, r: usize, set: u64, col_match: &mut [u8; 64], seen: &mut u64) -> bool {
        let mut edges = self.fires_on_row_run[r] & set;
        while edges != 0 {
            let f = edges.trailing_zeros() as usize;
            edges &= edges - 1;
            let c = self.col_run[f] as usize;
            if *seen >> c & 1 == 1 {
                continue;
            }
            *seen |= 1 << c;
            let m = col_match[c];
            if m == u8::MAX || self.augment(self.row_run[m as usize] as usize, set, col_match, seen)
            {
                col_match[c] = f as u8;
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::games::icetower::level::parse;

    pub(in crate::games::icetower) fn analysis(text: &str) -> (Analysis, Tower) {
        let t = parse(text, "t", "t").unwrap();
        let cols = t.cols();
        let mut open = vec![NONE; t.rows() * cols];
        let mut k = 0;
        for p in t.positions() {
            if t.tile(p) != Tile::Wall {
                open[p.row * cols + p.col] = k;
                k += 1;
            }
        }
        (Analysis::new(&t, &open, true), t)
    }

    /// The start position's blocks and fires as the judge takes them.
    pub(in crate::games::icetower) fn start(a: &Analysis, t: &Tower) -> (u128, u128, u64) {
        let mut ice = 0u128;
        let mut gold = 0u128;
        for (i, &p) in a.pos.iter().enumerate() {
            match t.block(p) {
                Some(Block::Ice) => ice.set(i),
                Some(Block::Golden) => gold.set(i),
                None => {}
            }
        }
        (ice, gold, (1u64 << a.fires.len()) - 1)
    }

    fn judge(text: &str) -> Result<u32, Dead> {
        let (a, t) = analysis(text);
        let (i, g, f) = start(&a, &t);
        a.judge(i, g, f)
    }

    #[test]
    fn frozen_blocks() {
        // a block in a corner never moves; one with room does
        let (a, t) = analysis("#####\n#%  #\n#  %#\n# @ #\n#####\n");
        let (ice, _, _) = start(&a, &t);
        let frozen = a.frozen(ice);
        assert_eq!(frozen.count(), 1);
        assert_eq!(a.pos[frozen.lowest().unwrap()], Pos::new(1, 1));
        // two blocks side by side along a wall freeze each other
        let (a, t) = analysis("######\n# %% #\n#    #\n# @  #\n######\n");
        let (ice, _, _) = start(&a, &t);
        assert_eq!(a.frozen(ice).count(), 2);
        // one of them alone is free to slide along the wall
        let (a, t) = analysis("######\n# %  #\n#    #\n# @  #\n######\n");
        let (ice, _, _) = start(&a, &t);
        assert_eq!(a.frozen(ice).count(), 0);
        // a block with a recycler behind it can still be pushed into the recycler
        let (a, t) = analysis("#####\n#-%@#\n#####\n");
        let (ice, _, _) = start(&a, &t);
        assert_eq!(a.frozen(ice).count(), 0);
        // ... but not one with a recycler behind and a wall ahead
        let (a, t) = analysis("####@\n#-%##\n#####\n");
        let (ice, _, _) = start(&a, &t);
        assert_eq!(a.frozen(ice).count(), 1);
    }

    #[test]
    fn unreachable_fire_is_dead() {
        // the fire in the corner pocket can only be entered from below, with the magician
        // two cells below it: impossible here (wall)
        assert_eq!(
            judge("#####\n#*###\n# % #\n##@ #\n#####\n"),
            Err(Dead::Unreachable(Pos::new(1, 1)))
        );
        // with room below, it can
        assert!(judge("#####\n#*###\n# % #\n#  @#\n#####\n").is_ok());
    }

    #[test]
    fn frozen_ice_does_not_count() {
        // the only block is in a corner: the fire is out of reach
        assert_eq!(
            judge("######\n#%   #\n#  * #\n#@   #\n######\n"),
            Err(Dead::Unreachable(Pos::new(2, 3)))
        );
        // two blocks side by side along the bottom wall jam each other: the fire is lost
        assert_eq!(
            judge("#######\n#@    #\n#  %%*#\n#######\n"),
            Err(Dead::Unreachable(Pos::new(2, 5)))
        );
        // with a gap between them the right one can be pushed into the fire
        assert_eq!(judge("#######\n#@    #\n# % %*#\n#######\n"), Ok(1));
    }

    #[test]
    fn too_few_blocks() {
        // two fires, one regular block, no golden ice
        assert_eq!(
            judge("#######\n#@% **#\n#     #\n#######\n"),
            Err(Dead::TooFewBlocks)
        );
        // a golden block that can reach them makes it alive
        assert!(judge("#######\n#@% **#\n# $   #\n#     #\n#######\n").is_ok());
        // three fires, three blocks, every fire reachable by some block, but the two blocks
        // of the top corridor can only reach its one fire: the matching finds it dead
        let text = "########\n#@% % *#\n########\n# %* * #\n########\n";
        assert_eq!(judge(text), Err(Dead::TooFewBlocks));
        // give the lower corridor a second block and it is alive
        let text = "########\n#@% % *#\n########\n# %*%* #\n########\n";
        assert!(judge(text).is_ok());
    }

    #[test]
    fn bound_counts_distances_and_lines() {
        // one block, one push from its fire
        assert_eq!(judge("#####\n#@%*#\n#####\n"), Ok(1));
        // the block must first go down, then right: two pushes
        assert_eq!(
            judge("######\n#    #\n# %  #\n#    #\n#   *#\n#@   #\n######\n"),
            Ok(2)
        );
        // golden ice: three fires in one row need one push at least
        assert_eq!(judge("########\n#@$***##\n########\n"), Ok(1));
        // three fires on an L need two lines
        assert_eq!(
            judge("########\n#      #\n#@ $ * #\n#    * #\n#    **#\n#      #\n########\n"),
            Ok(2)
        );
        // no fires: nothing to do
        assert_eq!(judge("####\n#@%#\n####\n"), Ok(0));
    }

    #[test]
    fn golden_ice_turns_between_runs() {
        // three fires on a diagonal: three lines cover them, but the golden block must first
        // reach one of their runs (one push) and turn between them: 1 + 3 at least
        let diagonal =
            "########\n#      #\n# $    #\n#  *   #\n#   *  #\n#    * #\n#     @#\n########\n";
        assert_eq!(judge(diagonal), Ok(4));
        // with the golden block already on the first fire's row: no lead push
        let on_row =
            "########\n#      #\n#      #\n# $*   #\n#   *  #\n#    * #\n#     @#\n########\n";
        assert_eq!(judge(on_row), Ok(3));
        // a second golden block shares the turns: two sweeps each (rows 3 and 5, column 4)
        let two =
            "########\n#      #\n#      #\n# $*   #\n#   *  #\n# $  * #\n#     @#\n########\n";
        assert_eq!(judge(two), Ok(3));
        // four fires on four rows and four columns, one golden block on none of their runs:
        // lines say 4, turns say 1 + max(4, 2·2 − 1) = 5 (two rows and two columns)
        let four = "#########\n#       #\n# $     #\n#  *    #\n#   *   #\n#    *  #\n#     * #\n#      @#\n#########\n";
        assert_eq!(judge(four), Ok(5));
        // regular blocks one push from two of them take those: 2 + the golden block's lead
        // push and two runs: 5 again, never more
        let helped = "#########\n#       #\n# $     #\n#  *    #\n#   *   #\n# %  *  #\n# %   * #\n#      @#\n#########\n";
        assert_eq!(judge(helped), Ok(5));
    }

    #[test]
    fn turns_do_not_fire_where_one_sweep_does() {
        // every fire on the golden block's row: one push, as the lines say
        assert_eq!(judge("##########\n#@$ * * *#\n##########\n"), Ok(1));
        // fires on one row and one column meeting where the golden block turns: two pushes
        let l_shape = "########\n#@     #\n# $*** #\n#    * #\n#    * #\n#      #\n########\n";
        assert_eq!(judge(l_shape), Ok(2));
        // no golden ice: the matching alone, as before
        assert_eq!(
            judge("######\n#    #\n# %  #\n#    #\n#   *#\n#@   #\n######\n"),
            Ok(2)
        );
    }
}
