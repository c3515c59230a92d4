//! The census: every PushPush board of one size classified at once.
//!
//! A board is a robot cell, a target cell and a set of blocks. The pushes a robot can make
//! depend only on the blocks and on the robot's walkable *region*, not on the target, so the
//! census solves *positions* (block set, region), each once, for every target together:
//!
//! `reach_d(P)` = the cells the robot can stand on within `d` pushes from position `P`
//! = `region(P) ∪ ⋃ reach_{d−1}(P')` over the pushes `P → P'`.
//!
//! Each `reach_d` is a bit mask of cells; the iteration runs until no mask changes. A board
//! (robot `r`, target `t`, blocks `B`) needs exactly `d` pushes when `t` enters
//! `reach_d(B, region of r)` at step `d`, and is unsolvable when it never does. A position
//! with region `R` stands for `|R|` boards per target, one per robot cell.
//!
//! Layers: a push never changes the number of blocks, and neither does a symmetry, so the
//! census splits into independent *layers*, one per number of blocks `k` ([`census_layer`]),
//! whose figures add up ([`combine`]): [`census`] runs the layers in turn, and the tables
//! of one layer only are held at a time. A layer's files can be kept in a work directory
//! ([`WorkDir`]) and a census resumed from them.
//!
//! Within a layer, positions are numbered by block set (the colex rank of the `k`-subset,
//! `offset[rank]`), then by region in order of their lowest cell, so the successor of a
//! push is found with one rank, one lookup and a short scan. Masks are `u32`: boards of up to
//! 32 cells.
//!
//! With `difficulty`, the same iteration also counts, per position, the push sequences of
//! each length (the edges of the thesis's search tree, equation 3) and, per position and
//! target, the number of optimal solutions (shortest-path counting: a position at distance
//! `d` sums the counts of its successors at distance `d − 1`).
//!
//! Equivalence classes: boards that differ only in the robot's cell within its region are
//! one class per (position, target); symmetries of the rectangle (8 for a square, 4 otherwise)
//! are counted with Burnside's lemma (the average number of classes fixed by each symmetry),
//! exactly and without listing the classes.

mod compute;
mod difficulty;
mod geometry;
mod hardest;
mod layer;
mod report;
mod subsets;
mod workdir;

pub use compute::{census, census_layer, check_layers};
pub use geometry::symmetries;
pub use hardest::HardClass;
pub use layer::{combine, CensusLayer, LayerDifficulty, LayerHardest, LayerOutcome};
pub use report::{figures, hardest_solutions, Report, FIGURE_SUFFIXES};
pub use workdir::{WorkDir, LAYER_FORMAT};

use super::board::Board;
use super::engine::Variant;
use crate::error::Error;
use crate::grid::Dir;
use crate::search::{LimitKind, Limits};
use geometry::Geo;
use rayon::prelude::*;
use std::time::Instant;
use subsets::{next_subset, Subsets};
/// Largest board the census takes, in cells (masks are `u32`).
pub const MAX_CELLS: usize = 32;

/// Difficulty histograms use bins of this width over [0, 5] (the last bin includes 5).
pub const DIFFICULTY_BIN: f64 = 0.1;
/// Number of difficulty bins.
pub const DIFFICULTY_BINS: usize = 50;

/// What to count.
#[derive(Clone, Debug)]
pub struct CensusOptions {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// PushPush-1, -k or -*.
    pub variant: Variant,
    /// Also the difficulty of every solvable board.
    pub difficulty: bool,
    /// How many classes of hardest boards to keep (as boards).
    pub hardest: usize,
    /// Refuse to start when the tables would need more than this many bytes.
    pub max_bytes: u64,
    /// `max_states` caps the number of positions; `timeout` (counted from `began`) stops
    /// within a step (every 1,024 block sets); `progress` hears after every step (`states`
    /// = positions, `depth` = pushes).
    pub limits: Limits,
    /// When the census began: the `timeout` of every layer counts from there (none: from
    /// the start of each call of [`census`] or [`census_layer`]).
    pub began: Option<Instant>,
}

impl CensusOptions {
    /// A PushPush-1 census of a `rows × cols` board, hardest 10, up to 16 GiB of tables.
    pub fn new(rows: usize, cols: usize) -> CensusOptions {
        CensusOptions {
            rows,
            cols,
            variant: Variant::default(),
            difficulty: false,
            hardest: 10,
            max_bytes: 16 << 30,
            limits: Limits::default(),
            began: None,
        }
    }
}

/// Boards with one number of blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockRow {
    /// Number of blocks.
    pub blocks: usize,
    /// Solvable boards.
    pub solvable: u64,
    /// Unsolvable boards.
    pub unsolvable: u64,
    /// Solvable boards by fewest pushes (index = pushes).
    pub by_pushes: Vec<u64>,
}

/// Equivalence classes of boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classes {
    /// Classes after merging robot cells within one walkable region.
    pub robot_region: u64,
    /// Classes after merging the symmetries of the rectangle.
    pub symmetry: u64,
    /// Classes after both.
    pub both: u64,
}

/// One of the hardest boards, with a solution.
#[derive(Clone, Debug)]
pub struct HardBoard {
    /// The board (robot at the lowest cell of its region).
    pub board: Board,
    /// Boards in its class (robot cells × symmetric images).
    pub boards_in_class: u64,
}

/// The boards that need the most pushes.
#[derive(Clone, Debug, Default)]
pub struct Hardest {
    /// Their fewest pushes.
    pub pushes: u32,
    /// How many boards.
    pub count: u64,
    /// How many classes (robot region and symmetry merged).
    pub classes: u64,
    /// Representatives of the first classes (canonical order), at most the number asked for.
    pub boards: Vec<HardBoard>,
}

/// Difficulty histograms over the solvable boards that need at least one push (boards solved
/// without a push have difficulty 0 and are counted in `by_pushes[0]`).
#[derive(Clone, Debug, Default)]
pub struct DifficultyCensus {
    /// `by_pushes[d][bin]`: boards with fewest pushes `d` and difficulty in the bin.
    pub by_pushes: Vec<Vec<u64>>,
    /// `by_blocks[b][bin]`: boards with `b` blocks (solvable, any pushes) per bin.
    pub by_blocks: Vec<Vec<u64>>,
    /// Sum of difficulties per fewest pushes (for means).
    pub sum_by_pushes: Vec<f64>,
    /// Sum of difficulties per number of blocks.
    pub sum_by_blocks: Vec<f64>,
    /// Boards whose optimal-solution count did not fit 32 bits (their difficulty is then
    /// computed from the saturated count: slightly too high). Zero in every census run so far.
    pub saturated: u64,
}

/// The result.
#[derive(Clone, Debug)]
pub struct Census {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The variant.
    pub variant: Variant,
    /// Every board: n·(n−1)·2^(n−1).
    pub boards: u64,
    /// Boards with no solution.
    pub unsolvable: u64,
    /// Boards by fewest pushes (index = pushes).
    pub by_pushes: Vec<u64>,
    /// Boards by number of blocks (index = blocks, 0 to cells − 1).
    pub by_blocks: Vec<BlockRow>,
    /// The hardest boards.
    pub hardest: Hardest,
    /// The hardest boards with each number of blocks (index = blocks, 0 to cells − 1): per
    /// layer, the boards that need the most pushes among the solvable boards with exactly
    /// that many blocks, with their classes and the first representatives (as many as
    /// `hardest` lists). A layer where no board needs a push has the default (0 pushes, no
    /// board), as `hardest` has when no board of the size needs one.
    pub hardest_by_blocks: Vec<Hardest>,
    /// Equivalence classes.
    pub classes: Classes,
    /// Difficulty histograms, when asked for.
    pub difficulty: Option<DifficultyCensus>,
    /// Positions (block set, region) solved.
    pub positions: u64,
    /// Bytes of the tables.
    pub table_bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Block sets per parallel work unit (as a power of two).
const CHUNK_BITS: usize = 12;
/// The hardest-board candidates of one step are kept while there are at most this many.
const HARDEST_CAP: usize = 1 << 20;

/// The position tables of one layer.
struct Tables {
    geo: Geo,
    variant: Variant,
    /// The layer's block sets.
    sets: Subsets,
    /// `offset[rank]`: index of the first position whose block set has that colex rank;
    /// `offset[C(n, k)]` = the layer's positions.
    offset: Vec<u32>,
    /// Region of each position.
    region: Vec<u32>,
}

impl Tables {
    /// Block set of position `i`.
    pub(super) fn blocks_of(&self, i: usize) -> u32 {
        let rank = self.offset.partition_point(|&o| o as usize <= i) - 1;
        self.sets.unrank(rank as u64)
    }
    /// The index of the position with blocks `b` whose region contains `cell_bit`.
    #[inline]
    fn index(&self, b: u32, cell_bit: u32) -> usize {
        let rank = self.sets.rank(b);
        let lo = self.offset[rank] as usize;
        let hi = self.offset[rank + 1] as usize;
        let mut i = lo;
        while i < hi {
            if self.region[i] & cell_bit != 0 {
                return i;
            }
            i += 1;
        }
        unreachable!("the robot's cell is free, so some region holds it")
    }

    /// Calls `f` with the index of every successor of position (`b`, `region`).
    #[inline]
    fn successors(&self, b: u32, region: u32, mut f: impl FnMut(usize)) {
        // one call per direction, so that each shift is known when compiled (a loop over
        // the directions shifts through a jump table, mispredicted two times in three)
        self.pushes(Dir::Up, b, region, &mut f);
        self.pushes(Dir::Down, b, region, &mut f);
        self.pushes(Dir::Left, b, region, &mut f);
        self.pushes(Dir::Right, b, region, &mut f);
    }

    /// Calls `f` with the index of every successor of position (`b`, `region`) by a push
    /// towards `d`.
    #[inline(always)]
    fn pushes(&self, d: Dir, b: u32, region: u32, f: &mut impl FnMut(usize)) {
        let g = &self.geo;
        let mut pushable = g.shift(region, d) & b;
        while pushable != 0 {
            let one = pushable & pushable.wrapping_neg();
            pushable &= pushable - 1;
            // the row of blocks from `one` towards d
            let mut row = one;
            let mut len = 1;
            let mut next = g.shift(one, d);
            while next & b != 0 {
                row |= next;
                len += 1;
                next = g.shift(next, d);
            }
            if next == 0 || !self.variant.allows(len) {
                continue; // the edge is right beyond the row, or the row is too long
            }
            let mut front = next;
            let mut moved = g.shift(row, d);
            loop {
                let ahead = g.shift(front, d);
                if ahead == 0 || ahead & b != 0 {
                    break;
                }
                front = ahead;
                moved = g.shift(moved, d);
            }
            let nb = (b & !row) | moved;
            let behind = g.shift(one, d.opposite());
            f(self.index(nb, behind));
        }
    }
}

/// The block sets of one work unit: ranks `lo..hi`, the first set being `first`.
#[derive(Clone, Copy)]
struct Chunk {
    lo: usize,
    hi: usize,
    first: u32,
}

impl Chunk {
    /// Calls `f` with every block set of the unit, in rank order.
    #[inline]
    fn for_each(&self, mut f: impl FnMut(usize, u32)) {
        let mut b = self.first;
        for rank in self.lo..self.hi {
            if rank > self.lo {
                b = next_subset(b);
            }
            f(rank, b);
        }
    }
}

/// Per-step totals of one work unit.
#[derive(Default)]
struct StepOut {
    changed: bool,
    /// Newly solved boards.
    solved: u64,
    /// Positions that solved a target at this step (hardest-board candidates).
    candidates: u64,
    hardest: Vec<(u32, u32)>,
    pub(super) diff_bins: Vec<u64>,
    pub(super) diff_sum: f64,
    pub(super) saturated: u64,
}

impl StepOut {
    fn new(difficulty: bool) -> StepOut {
        StepOut {
            diff_bins: if difficulty {
                vec![0; DIFFICULTY_BINS]
            } else {
                Vec::new()
            },
            ..StepOut::default()
        }
    }
    fn merge(mut self, o: StepOut) -> StepOut {
        self.changed |= o.changed;
        self.solved += o.solved;
        self.candidates += o.candidates;
        if self.hardest.len() <= HARDEST_CAP {
            self.hardest.extend(o.hardest);
        }
        add(&mut self.diff_bins, &o.diff_bins);
        self.diff_sum += o.diff_sum;
        self.saturated += o.saturated;
        self
    }
}

fn add(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

fn bin(value: f64) -> usize {
    ((value / DIFFICULTY_BIN).floor() as usize).min(DIFFICULTY_BINS - 1)
}

/// How a census ended.
#[derive(Clone, Debug)]
pub enum CensusOutcome {
    /// Every board classified.
    Done(Box<Census>),
    /// A limit stopped it between two push steps; nothing is reported but how far it got.
    Limit {
        /// Which limit.
        kind: LimitKind,
        /// Push steps completed (in the layer that was stopped).
        steps: u32,
        /// Positions in the tables (of the layers done and the one stopped).
        positions: u64,
        /// Wall-clock seconds.
        seconds: f64,
    },
}

/// How far a census stopped by a limit got (nothing of it is reported).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CensusStopped {
    /// Which limit.
    pub kind: LimitKind,
    /// Push steps completed (in the layer that was stopped).
    pub steps: u32,
    /// Positions in the tables (of the layers done and the one stopped).
    pub positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl CensusOutcome {
    /// The census, or how far it got when a limit stopped it.
    pub fn done(self) -> Result<Census, CensusStopped> {
        match self {
            CensusOutcome::Done(c) => Ok(*c),
            CensusOutcome::Limit {
                kind,
                steps,
                positions,
                seconds,
            } => Err(CensusStopped {
                kind,
                steps,
                positions,
                seconds,
            }),
        }
    }
}

/// The number of cells of the census's board, checked.
fn cells(o: &CensusOptions) -> Result<usize, Error> {
    let (rows, cols) = (o.rows, o.cols);
    if rows == 0 || cols == 0 {
        return Err(Error::invalid(
            "a board needs at least one row and one column",
        ));
    }
    let n = rows.saturating_mul(cols);
    if n < 2 {
        return Err(Error::invalid(
            "a board needs two cells at least: one for the robot, one for the target",
        ));
    }
    if n > MAX_CELLS {
        return Err(Error::invalid(format!(
            "a {rows}×{cols} board has {} cells; the census handles at most {MAX_CELLS} (see BENCHMARKS.md for what a 6×6 census would take)",
            if n == usize::MAX { "too many".to_string() } else { n.to_string() }
        )));
    }
    Ok(n)
}

/// The layers of a census: every number of blocks a board can have, 0 to cells − 1 (the
/// robot stands on the last free cell).
pub fn layers(o: &CensusOptions) -> Result<std::ops::Range<usize>, Error> {
    Ok(0..cells(o)?)
}

/// The positions of every layer (index = blocks), counted without building the tables: one
/// pass over every block set of the board. `Err(kind)` inside: the census's time limit (from
/// `o.began`) or an interruption stopped the count (within one chunk of block sets a thread).
pub fn layer_positions(o: &CensusOptions) -> Result<Result<Vec<u64>, LimitKind>, Error> {
    let n = cells(o)?;
    let geo = Geo::new(o.rows, o.cols);
    let sets = 1u64 << n;
    let chunk_bits = CHUNK_BITS.min(n);
    let chunks = sets >> chunk_bits;
    let deadline = o.limits.deadline_from(o.began.unwrap_or_else(Instant::now));
    let stop = std::sync::Mutex::new(None);
    let counts = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut by_blocks = vec![0u64; n + 1];
            if let Some(kind) = o.limits.check(deadline) {
                stop.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(kind);
                return by_blocks;
            }
            for b in (c << chunk_bits)..((c + 1) << chunk_bits) {
                let b = b as u32;
                let mut count = 0;
                geo.regions(b, |_| count += 1);
                by_blocks[b.count_ones() as usize] += count;
            }
            by_blocks
        })
        .reduce(
            || vec![0u64; n + 1],
            |mut a, b| {
                add(&mut a, &b);
                a
            },
        );
    if let Some(kind) = stop.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Ok(Err(kind));
    }
    Ok(Ok(counts[..n].to_vec()))
}

/// The boards of `n` cells with `k` blocks: n · (n − 1) · C(n − 1, k).
pub fn boards_with(n: u64, k: u64) -> u64 {
    let mut c: u128 = 1;
    for i in 0..k.min(n.saturating_sub(1)) {
        c = c * u128::from(n - 1 - i) / u128::from(i + 1);
    }
    if k > n.saturating_sub(1) {
        c = 0;
    }
    u64::try_from(u128::from(n) * u128::from(n.saturating_sub(1)) * c).unwrap_or(u64::MAX)
}
