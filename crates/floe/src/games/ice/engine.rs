//! The fast ice block engine: a level compiled into slide tables over bitboards.
//!
//! Cells that can hold a block (ice floor and targets) are numbered row-major, 0..n; a state is
//! the set of occupied numbers as a [`Bits`] value (plus, under the `walk` rule, the smallest
//! padded-grid index of the player's region). Because the numbering is row-major, every slide
//! ray is monotone in it: the first block in the way is the lowest (right, down) or highest
//! (left, up) set bit of `blocks & ray`, one AND and one bit scan per move.

use super::level::{Cell, Level, WalkRule};
use crate::bits::{Binomials, Bits, Wide};
use crate::game::{Engine, Task};
use crate::grid::{Dir, Pos, Push};
use crate::search::{Puzzle, StartAt};
use crate::Error;
use rand::{Rng, RngExt};
use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;

mod ranks;

/// "No cell" in the engine's 16-bit cell numbers.
pub const NONE: u16 = u16::MAX;
/// Words of the padded grid bit set used for the player's region (4096 cells).
const REGION_WORDS: usize = 64;
/// The region argument under the `free` rule, which has none.
static NO_REGION: [u64; REGION_WORDS] = [0; REGION_WORDS];

/// The walking rule as a type, so that the `free` rule carries no player in its states.
pub trait Walking: Copy + Default + Send + Sync + 'static {
    /// What a state records of the player: nothing (`()`) or his region (`u16`).
    type Player: Copy + Eq + Ord + Hash + Debug + Default + Send + Sync + 'static;
    /// The rule.
    const RULE: WalkRule;
    /// Packs a region representative.
    fn pack(rep: u16) -> Self::Player;
    /// Unpacks it.
    fn unpack(p: Self::Player) -> u16;
}

/// Kluiver's rule: the player reaches every cell without a wall or block.
#[derive(Clone, Copy, Debug, Default)]
pub struct Free;
/// van den Akker's rule: the player walks 4-connected around walls and blocks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Walk;

impl Walking for Free {
    type Player = ();
    const RULE: WalkRule = WalkRule::Free;
    #[inline]
    fn pack(_: u16) {}
    #[inline]
    fn unpack(_: ()) -> u16 {
        0
    }
}

impl Walking for Walk {
    type Player = u16;
    const RULE: WalkRule = WalkRule::Walk;
    #[inline]
    fn pack(rep: u16) -> u16 {
        rep
    }
    #[inline]
    fn unpack(p: u16) -> u16 {
        p
    }
}

/// A position: the occupied block cells, and the player's region under `walk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IceState<B, P> {
    /// Occupied cells (engine numbering).
    pub blocks: B,
    /// The player's region: smallest padded-grid index in it (`()` under `free`).
    pub player: P,
}

/// A push in engine numbering: the block leaves `from` and rests on `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IceMove {
    /// Cell of the block before the push.
    pub from: u16,
    /// Cell it slides to.
    pub to: u16,
    /// Direction.
    pub dir: Dir,
}

/// Precomputed data of one push direction from one cell.
#[derive(Clone, Copy, Debug)]
struct Slide<B> {
    /// Cells the block would cross and could stop on, up to the first wall, floor or edge.
    ray: B,
    /// The pusher's cell as a block-cell bit (empty if it is not a block cell).
    pusher: B,
    /// What forbids the push when a block stands there: the pusher's cell, or the block's
    /// own cell where the pusher's is a wall (so that one test covers both).
    stops: B,
    /// Where the block stops when nothing is in the way (the cell itself if it cannot move).
    dest: u16,
    /// The pusher's cell is not a wall.
    open: bool,
    /// The pusher's cell in the padded grid.
    pusher_padded: u16,
}

/// An ice block level compiled for search, generic over the bit-set width `B` and the walking
/// rule `R`. Implements [`Puzzle`].
#[derive(Clone, Debug)]
pub struct IcePuzzle<B: Bits, R: Walking> {
    rows: usize,
    cols: usize,
    /// Engine cell → grid position.
    cells: Vec<Pos>,
    /// Grid index (row-major) → engine cell or NONE.
    number: Vec<u16>,
    /// Engine cell → neighbouring engine cell per direction (or NONE).
    nb: Vec<[u16; 4]>,
    /// Where a block pushed towards `d` stops before the first block on its way, by that
    /// block: `before[d][c]` is the cell before `c` for the forward directions and the cell
    /// before `c − 1` for the others (the first block found as [`Bits::bottom`] and
    /// [`Bits::top`]), `CAPACITY + 1` entries each so that no block on the way reads one
    /// too (its answer is then not used). [`IcePuzzle::next_ranks`] reads it for the pushes
    /// along a column (the tables of the others are empty).
    before: [Vec<u16>; 4],
    slides: Vec<[Slide<B>; 4]>,
    targets: B,
    start: B,
    ranks: Option<(Binomials, u64)>,
    // walk rule
    pcols: usize,
    pwords: usize,
    walkable: Vec<u64>,
    padded: Vec<u16>,
    player_start: u16,
    _rule: PhantomData<R>,
}

fn padded_index(pcols: usize, p: Pos) -> usize {
    (p.row + 1) * pcols + p.col + 1
}

impl<B: Bits, R: Walking> IcePuzzle<B, R> {
    /// Compiles `level`. Fails if the board has more block cells than `B` holds, or (under
    /// `walk`) more than 4096 cells with its border.
    pub fn new(level: &Level) -> Result<Self, Error> {
        let (rows, cols) = (level.rows(), level.cols());
        let mut cells = Vec::new();
        let mut number = vec![NONE; rows * cols];
        for p in level.positions() {
            if level.cell(p).holds_blocks() {
                number[p.row * cols + p.col] = cells.len() as u16;
                cells.push(p);
            }
        }
        let n = cells.len();
        if n > B::CAPACITY || n >= NONE as usize {
            return Err(Error::invalid(format!(
                "the board has {n} cells that can hold a block; this engine handles at most {}",
                B::CAPACITY.min(NONE as usize - 1)
            )));
        }
        let pcols = cols + 2;
        let plen = (rows + 2) * pcols;
        if R::RULE == WalkRule::Walk && plen > REGION_WORDS * 64 {
            return Err(Error::invalid(format!(
                "the walk rule handles boards of at most {} cells including a border; this one has {plen}",
                REGION_WORDS * 64
            )));
        }
        let num = |p: Option<Pos>| p.map_or(NONE, |p| number[p.row * cols + p.col]);
        let nb: Vec<[u16; 4]> = cells
            .iter()
            .map(|&p| Dir::ALL.map(|d| num(p.step(d, rows, cols))))
            .collect();
        let before = Dir::ALL.map(|d| {
            if matches!(d, Dir::Left | Dir::Right) {
                return Vec::new();
            }
            let back = |c: usize| nb.get(c).map_or(0, |b| b[d.opposite().index()]);
            (0..=B::CAPACITY)
                .map(|c| match d.is_forward() {
                    true => back(c),
                    false => c.checked_sub(1).map_or(0, back),
                })
                .collect()
        });
        let mut slides = Vec::with_capacity(n);
        for (i, &p) in cells.iter().enumerate() {
            slides.push(Dir::ALL.map(|d| {
                let mut ray = B::empty();
                let mut at = i as u16;
                loop {
                    let next = nb[at as usize][d.index()];
                    if next == NONE {
                        break;
                    }
                    ray.set(next as usize);
                    at = next;
                }
                let behind = p.step(d.opposite(), rows, cols);
                let behind_cell = behind.map_or(Cell::Floor, |q| level.cell(q));
                let pusher = match num(behind) {
                    NONE => B::empty(),
                    j => B::bit(j as usize),
                };
                let pusher_padded = match behind {
                    Some(q) => padded_index(pcols, q),
                    None => {
                        // outside: one step from the cell in the padded grid
                        let (dr, dc) = d.opposite().delta();
                        let r = (p.row + 1) as isize + dr;
                        let c = (p.col + 1) as isize + dc;
                        r as usize * pcols + c as usize
                    }
                };
                let open = behind_cell != Cell::Wall;
                Slide {
                    ray,
                    pusher,
                    stops: if open { pusher } else { B::bit(i) },
                    dest: at,
                    open,
                    pusher_padded: pusher_padded as u16,
                }
            }));
        }
        let mut targets = B::empty();
        let mut start = B::empty();
        for (i, &p) in cells.iter().enumerate() {
            if level.cell(p) == Cell::Target {
                targets.set(i);
            }
            if level.has_block(p) {
                start.set(i);
            }
        }
        let k = start.count() as usize;
        let ranks = if R::RULE == WalkRule::Free {
            let b = Binomials::new(n, k);
            let space = b.get(n, k);
            (space < u64::MAX).then_some((b, space))
        } else {
            None
        };
        let pwords = plen.div_ceil(64);
        let mut walkable = vec![0u64; pwords];
        for i in 0..plen {
            let (r, c) = (i / pcols, i % pcols);
            let inside = r >= 1 && r <= rows && c >= 1 && c <= cols;
            if !inside || level.cell(Pos::new(r - 1, c - 1)) != Cell::Wall {
                walkable[i / 64] |= 1 << (i % 64);
            }
        }
        let padded = cells
            .iter()
            .map(|&p| padded_index(pcols, p) as u16)
            .collect();
        let player_start = level.player().map_or(0, |p| padded_index(pcols, p)) as u16;
        Ok(IcePuzzle {
            rows,
            cols,
            cells,
            number,
            nb,
            before,
            slides,
            targets,
            start,
            ranks,
            pcols,
            pwords,
            walkable,
            padded,
            player_start,
            _rule: PhantomData,
        })
    }

    /// Number of rows of the board.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Number of columns of the board.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Number of cells that can hold a block.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }
    /// Grid position of engine cell `i`.
    pub fn pos(&self, i: u16) -> Pos {
        self.cells[i as usize]
    }
    /// Engine cell at `p`, if a block can stand there.
    pub fn cell_at(&self, p: Pos) -> Option<u16> {
        if p.row >= self.rows || p.col >= self.cols {
            return None;
        }
        Some(self.number[p.row * self.cols + p.col]).filter(|&i| i != NONE)
    }
    /// A push in grid terms.
    pub fn push(&self, m: &IceMove) -> Push {
        Push::new(self.pos(m.from), m.dir)
    }
    /// Block positions of a state, row by row.
    pub fn block_positions(&self, s: &IceState<B, R::Player>) -> Vec<Pos> {
        s.blocks.ones().map(|i| self.cells[i]).collect()
    }

    /// The player's region in `blocks`, grown from padded cell `seed`, into `out`.
    fn flood(&self, blocks: B, seed: usize, out: &mut [u64; REGION_WORDS]) {
        let w = self.pwords;
        let mut free = [0u64; REGION_WORDS];
        free[..w].copy_from_slice(&self.walkable);
        for b in blocks.ones() {
            let p = self.padded[b] as usize;
            free[p / 64] &= !(1 << (p % 64));
        }
        out[..w].fill(0);
        out[seed / 64] |= 1 << (seed % 64);
        let pc = self.pcols;
        let (q, r) = (pc / 64, pc % 64);
        loop {
            let mut changed = false;
            for i in 0..w {
                let x = out[i];
                let mut g = x | (x << 1) | (x >> 1);
                if i > 0 {
                    g |= out[i - 1] >> 63;
                }
                if i + 1 < w {
                    g |= out[i + 1] << 63;
                }
                // shift by a whole row (pc bits) in both directions
                if i >= q {
                    g |= out[i - q] << r;
                    if r > 0 && i > q {
                        g |= out[i - q - 1] >> (64 - r);
                    }
                }
                if i + q < w {
                    g |= out[i + q] >> r;
                    if r > 0 && i + q + 1 < w {
                        g |= out[i + q + 1] << (64 - r);
                    }
                }
                g &= free[i];
                if g != x {
                    out[i] = g;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Smallest padded index of the region grown from `seed`.
    fn region_rep(&self, blocks: B, seed: usize) -> u16 {
        let mut region = [0u64; REGION_WORDS];
        self.flood(blocks, seed, &mut region);
        region[..self.pwords]
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map_or(seed as u16, |(k, w)| {
                (64 * k + w.trailing_zeros() as usize) as u16
            })
    }

    /// Whether the player may push from padded cell `p` in the region `region`.
    #[inline]
    fn reaches(region: &[u64; REGION_WORDS], p: u16) -> bool {
        region[p as usize / 64] >> (p % 64) & 1 == 1
    }

    /// Calls `f` with every legal push from `s` and the state it leads to.
    #[inline]
    pub fn generate<F: FnMut(IceMove, IceState<B, R::Player>)>(
        &self,
        s: &IceState<B, R::Player>,
        mut f: F,
    ) {
        let mut region = [0u64; REGION_WORDS];
        let region: &[u64; REGION_WORDS] = if R::RULE == WalkRule::Walk {
            self.flood(s.blocks, R::unpack(s.player) as usize, &mut region);
            &region
        } else {
            &NO_REGION
        };
        for i in s.blocks.ones() {
            for (di, sl) in self.slides[i].iter().enumerate() {
                if let Some((m, t)) = self.try_push(s.blocks, region, i, Dir::ALL[di], sl) {
                    f(m, t);
                }
            }
        }
    }

    /// The push of the block on engine cell `i` towards `d` in `s`, if it is legal.
    pub fn push_block(
        &self,
        s: &IceState<B, R::Player>,
        i: usize,
        d: Dir,
    ) -> Option<(IceMove, IceState<B, R::Player>)> {
        if !s.blocks.get(i) {
            return None;
        }
        if R::RULE == WalkRule::Walk {
            let mut region = [0u64; REGION_WORDS];
            self.flood(s.blocks, R::unpack(s.player) as usize, &mut region);
            self.try_push(s.blocks, &region, i, d, &self.slides[i][d.index()])
        } else {
            self.try_push(s.blocks, &NO_REGION, i, d, &self.slides[i][d.index()])
        }
    }

    /// The push of the block on `i` towards `d` (whose slide data is `sl`) given the
    /// player's `region`, if legal.
    #[inline(always)]
    fn try_push(
        &self,
        blocks: B,
        region: &[u64; REGION_WORDS],
        i: usize,
        d: Dir,
        sl: &Slide<B>,
    ) -> Option<(IceMove, IceState<B, R::Player>)> {
        let walk = R::RULE == WalkRule::Walk;
        if !sl.open {
            return None;
        }
        if walk {
            if !Self::reaches(region, sl.pusher_padded) {
                return None;
            }
        } else if !blocks.and(sl.pusher).is_empty() {
            return None;
        }
        let hit = blocks.and(sl.ray);
        let first = if d.is_forward() {
            hit.lowest()
        } else {
            hit.highest()
        };
        let dest = match first {
            None => sl.dest,
            Some(b) => self.nb[b][d.opposite().index()],
        };
        if dest as usize == i {
            return None;
        }
        let next = blocks.xor(B::bit(i)).xor(B::bit(dest as usize));
        let player = if walk {
            R::pack(self.region_rep(next, sl.pusher_padded as usize))
        } else {
            R::pack(0)
        };
        Some((
            IceMove {
                from: i as u16,
                to: dest,
                dir: d,
            },
            IceState {
                blocks: next,
                player,
            },
        ))
    }

    /// Under `free`: every push from the blocks `blocks`, whose cells in increasing order are
    /// `pos` and whose colex rank is `rank`, with the rank of the position it leads to.
    #[inline(always)]
    fn next_ranked<F: FnMut(u64, IceState<B, R::Player>)>(
        &self,
        bin: &Binomials,
        blocks: B,
        pos: &[u16],
        rank: u64,
        f: &mut F,
    ) {
        let k = pos.len();
        for (a, &i) in pos.iter().enumerate() {
            let i = i as usize;
            let without = rank.wrapping_sub(bin.term(a, i));
            for (di, sl) in self.slides[i].iter().enumerate() {
                let Some((m, t)) = self.try_push(blocks, &NO_REGION, i, Dir::ALL[di], sl) else {
                    continue;
                };
                let to = m.to;
                let mut r = without;
                let mut b = a;
                if to as usize > i {
                    // the blocks passed move one place down
                    while b + 1 < k && pos[b + 1] < to {
                        b += 1;
                        let p = pos[b] as usize;
                        r = r
                            .wrapping_add(bin.term(b - 1, p))
                            .wrapping_sub(bin.term(b, p));
                    }
                } else {
                    // or one place up
                    while b > 0 && pos[b - 1] > to {
                        b -= 1;
                        let p = pos[b] as usize;
                        r = r
                            .wrapping_add(bin.term(b + 1, p))
                            .wrapping_sub(bin.term(b, p));
                    }
                }
                let r = r.wrapping_add(bin.term(b, to as usize));
                debug_assert_eq!(r, bin.rank(t.blocks));
                f(r, t);
            }
        }
    }

    /// The state with blocks at `blocks` and the player's region grown from padded `seed`.
    fn make_state(&self, blocks: B, seed: usize) -> IceState<B, R::Player> {
        let player = if R::RULE == WalkRule::Walk {
            R::pack(self.region_rep(blocks, seed))
        } else {
            R::pack(0)
        };
        IceState { blocks, player }
    }

    /// A state with blocks at `positions` and, under `walk`, the player at `player` (`None`:
    /// outside the board).
    pub fn state_from(
        &self,
        positions: &[Pos],
        player: Option<Pos>,
    ) -> Result<IceState<B, R::Player>, Error> {
        let mut blocks = B::empty();
        for &p in positions {
            let i = self
                .cell_at(p)
                .ok_or_else(|| Error::invalid(format!("no block can stand at ({p})")))?;
            blocks.set(i as usize);
        }
        let seed = player.map_or(0, |p| padded_index(self.pcols, p));
        Ok(self.make_state(blocks, seed))
    }
}

impl<B: Bits, R: Walking> Puzzle for IcePuzzle<B, R> {
    type State = IceState<B, R::Player>;
    type Move = IceMove;

    fn start(&self) -> Self::State {
        self.make_state(self.start, self.player_start as usize)
    }

    #[inline]
    fn successors(&self, s: &Self::State, out: &mut Vec<(IceMove, Self::State)>) {
        self.generate(s, |m, t| out.push((m, t)));
    }

    #[inline]
    fn for_each_next<F: FnMut(Self::State)>(&self, s: &Self::State, mut f: F) {
        self.generate(s, |_, t| f(t));
    }

    /// Under `free` a push moves one block: the colex rank loses the block's term, gains the
    /// term of its new cell, and the blocks it passes in cell order (none on a push along a
    /// row) shift by one place.
    #[inline]
    fn for_each_next_ranked<F: FnMut(u64, Self::State)>(
        &self,
        s: &Self::State,
        rank: u64,
        mut f: F,
    ) {
        let k = s.blocks.count() as usize;
        match self.ranks.as_ref() {
            Some((bin, _)) if R::RULE == WalkRule::Free && k <= MAX_RANKED => {
                let mut pos = [0u16; MAX_RANKED];
                for (j, i) in s.blocks.ones().enumerate() {
                    pos[j] = i as u16;
                }
                self.next_ranked(bin, s.blocks, &pos[..k], rank, &mut f);
            }
            _ => self.for_each_next(s, |t| {
                let r = self.rank(&t).expect("ranked under the free rule");
                f(r, t)
            }),
        }
    }

    /// Each state is rebuilt from the one before ([`Binomials::unrank_after`]).
    fn for_each_next_of_ranks<F: FnMut(u64, Self::State)>(&self, ranks: &[u64], mut f: F) {
        let k = self.start.count() as usize;
        match self.ranks.as_ref() {
            Some((bin, _)) if R::RULE == WalkRule::Free && k <= MAX_RANKED => {
                let mut pos: [u16; MAX_RANKED] = std::array::from_fn(|j| j as u16);
                let mut top = [0u64; MAX_RANKED + 1];
                let (pos, top) = (&mut pos[..k], &mut top[..=k]);
                for &r in ranks {
                    bin.unrank_after(r, pos, top);
                    let mut blocks = B::empty();
                    for &i in pos.iter() {
                        blocks.set(i as usize);
                    }
                    self.next_ranked(bin, blocks, pos, r, &mut f);
                }
            }
            _ => {
                for &r in ranks {
                    let s = self.unrank(r).expect("a state's rank gives the state back");
                    self.for_each_next_ranked(&s, r, &mut f);
                }
            }
        }
    }

    /// As [`Puzzle::for_each_next_of_ranks`], the ranks alone ([`IcePuzzle::list_ranks`]).
    fn next_ranks_of_ranks(&self, ranks: &[u64], out: &mut Vec<u64>) {
        self.list_ranks(ranks, out)
    }

    #[inline]
    fn is_goal(&self, s: &Self::State) -> bool {
        s.blocks.contains_all(self.targets)
    }

    /// Each push moves one block, so it covers at most one more target.
    #[inline]
    fn lower_bound(&self, s: &Self::State) -> u32 {
        self.targets.and_not(s.blocks).count()
    }

    fn rank_space(&self) -> Option<u64> {
        self.ranks.as_ref().map(|(_, n)| *n)
    }

    /// Under `free`, the placements of the blocks, C(cells, blocks), also beyond 2^64.
    fn state_bound(&self) -> Option<f64> {
        if R::RULE != WalkRule::Free {
            return None;
        }
        let (n, k) = (self.cell_count() as f64, self.start.count() as f64);
        Some((0..k as u64).fold(1.0, |c, i| c * (n - i as f64) / (i as f64 + 1.0)))
    }

    #[inline]
    fn rank(&self, s: &Self::State) -> Option<u64> {
        self.ranks.as_ref().map(|(b, _)| b.rank(s.blocks))
    }

    /// Ranks exist under `free` only, where the state is the block set.
    fn unrank(&self, r: u64) -> Option<Self::State> {
        let (b, _) = self.ranks.as_ref()?;
        let blocks = b.unrank(r, self.start.count() as usize)?;
        Some(IceState {
            blocks,
            player: R::pack(0),
        })
    }

    #[inline]
    fn piece_moved(&self, m: &IceMove) -> Option<(u32, u32)> {
        Some((m.from as u32, m.to as u32))
    }

    /// Kluiver's random attempt (section 4.1): see [`random_attempt`].
    #[inline]
    fn random_move<G: rand::Rng + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut G,
    ) -> Option<(IceMove, Self::State)> {
        random_attempt(self, state, rng)
    }

    /// An attempt can fail where a legal move exists: `None` is no proof of being stuck.
    const NONE_MEANS_STUCK: bool = false;
}

// Random moves: Kluiver's random attempt (section 4.1), a block chosen uniformly among those
// on the board and one of the four directions chosen uniformly, whether or not that push is
// possible. This is what the generic `random_play` and `basic_mc` run on ice levels.

/// The `i`-th smallest element of `b` (`i < b.count()`).
#[inline(always)]
pub(super) fn nth_one<B: Bits>(mut b: B, i: u32) -> usize {
    for _ in 0..i {
        b.pop_lowest();
    }
    b.lowest().expect("i is below the number of elements")
}

/// One draw `r` uniform in `0..4k` for the `k` blocks on the board: block `r / 4` (the
/// `r / 4`-th occupied cell in engine order) and direction `r % 4` — the same distribution
/// as a uniform block and, independently, a uniform direction. Returns
/// [`push_block`](IcePuzzle::push_block) of that pair: `None` when the push is illegal
/// (the pusher's cell is a wall or a block, the player cannot walk there under `walk`, or
/// the block cannot move). With no block on the board every attempt fails.
#[inline]
pub(crate) fn random_attempt<B: Bits, R: Walking, G: Rng + ?Sized>(
    p: &IcePuzzle<B, R>,
    state: &IceState<B, R::Player>,
    rng: &mut G,
) -> Option<(IceMove, IceState<B, R::Player>)> {
    let k = state.blocks.count();
    if k == 0 {
        return None;
    }
    let r = rng.random_range(0..4 * k);
    let cell = nth_one(state.blocks, r >> 2);
    p.push_block(state, cell, Dir::ALL[(r & 3) as usize])
}

impl<B: Bits, R: Walking> Engine for IcePuzzle<B, R> {
    type Public = Push;
    fn public(&self, m: &IceMove) -> Push {
        self.push(m)
    }
    fn pieces(&self, s: &Self::State) -> Vec<Pos> {
        self.block_positions(s)
    }
}

/// A [`Task`] of the game face run on the compiled engine.
pub(crate) struct Face<T>(pub T);

impl<T: Task<Push>> IceTask for Face<T> {
    type Output = T::Output;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> T::Output {
        self.0.run(p)
    }
}

/// A [`Task`] run from another position than the level's start: blocks and the player.
pub(crate) struct FaceFrom<'a, T> {
    pub task: T,
    pub blocks: &'a [Pos],
    pub player: Option<Pos>,
}

impl<T: Task<Push>> IceTask for FaceFrom<'_, T> {
    type Output = Result<T::Output, Error>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
        let start = p.state_from(self.blocks, self.player)?;
        Ok(self.task.run(&StartAt { puzzle: p, start }))
    }
}

/// Work to run on a compiled level, whatever bit width and rule it was compiled for: the
/// typed way in for the ice-only analyses that need the engine's bit sets (reach tables,
/// profiles, patterns, the generator). Everything else reaches the engine through the game
/// face's [`Task`].
pub trait IceTask {
    /// The result.
    type Output;
    /// Runs on the compiled puzzle.
    fn run<B: Bits, R: Walking>(self, puzzle: &IcePuzzle<B, R>) -> Self::Output;
}

/// Most blocks whose successors are ranked from the position's rank (more: ranked afresh).
const MAX_RANKED: usize = 64;
// `next_ranks` masks places and list positions with it
const _: () = assert!(MAX_RANKED.is_power_of_two());

/// Largest number of block cells the engine handles.
pub const MAX_CELLS: usize = 1024;

/// Compiles `level` with the narrowest bit set that holds it and the given rule, and runs
/// `task` on it.
pub fn with_puzzle<T: IceTask>(level: &Level, rule: WalkRule, task: T) -> Result<T::Output, Error> {
    match rule {
        WalkRule::Free => with_width::<Free, T>(level, task),
        WalkRule::Walk => with_width::<Walk, T>(level, task),
    }
}

fn with_width<R: Walking, T: IceTask>(level: &Level, task: T) -> Result<T::Output, Error> {
    let n = level
        .positions()
        .filter(|&p| level.cell(p).holds_blocks())
        .count();
    Ok(if n <= 64 {
        task.run(&IcePuzzle::<u64, R>::new(level)?)
    } else if n <= 128 {
        task.run(&IcePuzzle::<u128, R>::new(level)?)
    } else if n <= 256 {
        task.run(&IcePuzzle::<Wide<4>, R>::new(level)?)
    } else if n <= MAX_CELLS {
        task.run(&IcePuzzle::<Wide<16>, R>::new(level)?)
    } else {
        return Err(Error::invalid(format!(
            "the board has {n} cells that can hold a block; floe handles at most {MAX_CELLS}"
        )));
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice::format::parse_floe;
    use crate::games::ice::validate::replay;
    use crate::search::{bfs, count_par, enumerate, enumerate_par, Limits};

    fn level(text: &str) -> Level {
        parse_floe(text, "t").unwrap().remove(0)
    }

    #[test]
    fn ranked_successors_carry_their_ranks() {
        let l = Level::empty_board(5, 6, 5).unwrap();
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        let mut layer = vec![p.start()];
        let mut ranks = Vec::new();
        for _ in 0..4 {
            let mut next = Vec::new();
            for s in &layer {
                let mut want = Vec::new();
                p.for_each_next(s, |t| want.push((p.rank(&t).unwrap(), t)));
                let mut got = Vec::new();
                p.for_each_next_ranked(s, p.rank(s).unwrap(), |r, t| got.push((r, t)));
                assert_eq!(got, want);
                next.extend(want.into_iter().map(|(_, t)| t));
            }
            ranks.extend(next.iter().map(|t| p.rank(t).unwrap()));
            layer = next;
        }
        ranks.sort_unstable();
        ranks.dedup();
        let mut by_run = Vec::new();
        p.for_each_next_of_ranks(&ranks, |r, t| by_run.push((r, t)));
        let mut one_by_one = Vec::new();
        for &r in &ranks {
            let s = p.unrank(r).unwrap();
            p.for_each_next(&s, |t| one_by_one.push((p.rank(&t).unwrap(), t)));
        }
        assert_eq!(by_run, one_by_one);
    }

    fn moves_of<B: Bits, R: Walking>(p: &IcePuzzle<B, R>) -> Vec<(Push, Pos)> {
        let mut v = Vec::new();
        p.generate(&p.start(), |m, _| v.push((p.push(&m), p.pos(m.to))));
        v.sort_by_key(|(push, to)| (push.row, push.col, push.dir, to.row, to.col));
        v
    }

    #[test]
    fn slides_stop_at_walls_floor_blocks_and_edges() {
        // $ - # -      (0,0) right stops before the wall; down slides to the bottom edge.
        // - = $ -      (1,2) right stops at the edge; left is stopped at once by the floor;
        // - - - -      up and down: the pusher's cell or the next cell is a wall.
        let l = level("$-#-\n-=$-\n----\n");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        let got = moves_of(&p);
        let want: Vec<(Push, Pos)> = [
            ((0, 0, Dir::Right), (0, 1)),
            ((0, 0, Dir::Down), (2, 0)),
            ((1, 2, Dir::Right), (1, 3)),
        ]
        .iter()
        .map(|&((r, c, d), (tr, tc))| (Push::new(Pos::new(r, c), d), Pos::new(tr, tc)))
        .collect();
        assert_eq!(got, want);
        // every engine move agrees with the validator
        for (push, to) in got {
            let r = replay(&l, WalkRule::Free, &[push]).unwrap();
            assert_eq!(r.steps[0].to, to);
        }
    }

    #[test]
    fn wide_boards_use_wide_bit_sets() {
        // 12×12 = 144 cells needs Wide<4> (a u128 is refused); the solution replays.
        let mut big = Level::empty_board(12, 12, 3).unwrap();
        big.set_cell(Pos::new(6, 6), Cell::Target).unwrap();
        let p = IcePuzzle::<Wide<4>, Free>::new(&big).unwrap();
        let r = bfs(&p, &Limits::none());
        let moves: Vec<Push> = r
            .outcome
            .solution()
            .unwrap()
            .iter()
            .map(|m| p.push(m))
            .collect();
        assert!(replay(&big, WalkRule::Free, &moves).unwrap().solved);
        assert!(IcePuzzle::<u128, Free>::new(&big).is_err());
        // the same count through the generic dispatch
        struct Count;
        impl IceTask for Count {
            type Output = u64;
            fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> u64 {
                enumerate(p, &Limits::none(), |_, _| {}).states
            }
        }
        let via_dispatch = with_puzzle(&big, WalkRule::Free, Count).unwrap();
        let direct = enumerate(&p, &Limits::none(), |_, _| {}).states;
        assert_eq!(via_dispatch, direct);
    }

    #[test]
    fn too_large_boards_are_refused_with_a_message() {
        let l = Level::empty_board(40, 40, 2).unwrap();
        struct Nothing;
        impl IceTask for Nothing {
            type Output = ();
            fn run<B: Bits, R: Walking>(self, _: &IcePuzzle<B, R>) {}
        }
        let e = with_puzzle(&l, WalkRule::Free, Nothing).unwrap_err();
        assert!(e.to_string().contains("at most 1024"), "{e}");
        let l = Level::empty_board(70, 70, 2).unwrap();
        assert!(IcePuzzle::<Wide<16>, Walk>::new(&l).is_err());
    }

    #[test]
    fn walk_states_record_the_players_region() {
        // A wall column splits the board; the player starts on the left.
        let l = level("@-#--\n-$#-$\n--#--\n");
        let p = IcePuzzle::<u64, Walk>::new(&l).unwrap();
        let s = p.start();
        // his region's smallest padded index: padded grid is 5×7, he can leave the board,
        // so the region holds the outside ring and index 0
        assert_eq!(s.player, 0);
        // enclosed player: region is his own cell
        let l = level("#####\n#@#--\n###$-\n");
        let p = IcePuzzle::<u64, Walk>::new(&l).unwrap();
        let padded_cols = 5 + 2;
        assert_eq!(p.start().player as usize, 2 * padded_cols + 2);
        // he cannot push anything
        assert!(moves_of(&p).is_empty());
        let free = IcePuzzle::<u64, Free>::new(&l).unwrap();
        assert!(!moves_of(&free).is_empty());
    }

    #[test]
    fn lower_bound_counts_empty_targets() {
        let l = level("$.-.\n*---\n");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        assert_eq!(p.lower_bound(&p.start()), 2);
        assert!(!p.is_goal(&p.start()));
        assert_eq!(p.rank_space(), Some(28)); // C(8, 2)
    }

    #[test]
    fn the_parallel_enumeration_of_ranked_pushes_equals_the_sequential_one() {
        for (rows, cols, k, states) in [(5, 5, 4, 9_541), (6, 6, 5, 284_684)] {
            let l = Level::empty_board(rows, cols, k).unwrap();
            let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
            let seq = enumerate(&p, &Limits::none(), |_, _| {});
            let (par, n) = enumerate_par(
                &p,
                &Limits::none(),
                || 0u64,
                |c, _, _| *c += 1,
                |a, b| a + b,
            )
            .unwrap();
            assert_eq!((par.states, n), (states, states));
            assert_eq!(par.histogram, seq.histogram);
            assert_eq!(par.stats.expanded, seq.stats.expanded);
            assert_eq!(par.stats.generated, seq.stats.generated);
        }
    }

    #[test]
    fn counting_by_ranks_gives_the_enumerations_figures() {
        for text in [
            "$-#--\n-$=-$\n--#-.\n-$---\n-----\n",
            "$-$-$-\n------\n-$-#--\n---$--\n",
        ] {
            let p = IcePuzzle::<u64, Free>::new(&level(text)).unwrap();
            let seq = enumerate(&p, &Limits::none(), |_, _| {});
            let par = count_par(&p, &Limits::none()).unwrap();
            assert!(par.states > 1000, "{text}");
            assert_eq!(par.states, seq.states);
            assert_eq!(par.histogram, seq.histogram);
            assert_eq!(par.stats.expanded, seq.stats.expanded);
            assert_eq!(par.stats.generated, seq.stats.generated);
        }
    }
}
