//! The hardest ice block rooms of a size: `rows × cols` of ice with at most `W` walls and `F`
//! normal floor cells inside, `K` blocks and `T` targets; a room's level puts the targets
//! where covering them takes the most pushes (or the most difficulty).
//!
//! One enumeration of the positions reachable from a room's blocks gives every target set's
//! fewest pushes at once: a set of `T` cells is covered at the depth of the first position
//! whose blocks include it (van den Akker's reach tables, for `T` = 1). With `--by
//! difficulty`, a Dijkstra search over (position, block moved last) on the room's state graph
//! gives every set's least difficulty (pushes + factor × block changes) the same way. The
//! exact search enumerates the rooms and block sets that are the least of their images under
//! the symmetries of the rectangle; the annealing moves a block, a wall or a floor cell.
//!
//! What varies is [`IceHardest`] (blocks, targets, walls, floor: defaults and ranges); a
//! program calls [`hardest`] with it, the erased face reads it from named counts.

use super::{binomial, report, symmetries, Best, Candidate, Found, MaskPerm, Parts};
use crate::bits::Bits;
use crate::error::Error;
use crate::game::hardest::{By, Counts, HardestOptions, HardestReport, Method};
use crate::game::{factor_of, Game};
use crate::games::ice::engine::NONE;
use crate::games::ice::{with_puzzle, Cell, Ice, IcePuzzle, IceTask, Level, WalkRule, Walking};
use crate::grid::Pos;
use crate::search::graph::build_graph;
use crate::search::{enumerate, LimitKind, Limits};
use rand::{Rng, RngExt};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::Map;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Most targets a search places.
pub const MAX_TARGETS: usize = 6;
/// Exact searches of ice block rooms take at most this many rooms (each an enumeration).
pub const MAX_EXACT_ROOMS: u64 = 5_000_000;

/// The search's settings, resolved once.
#[derive(Clone, Copy, Debug)]
struct Spec {
    rows: usize,
    cols: usize,
    blocks: usize,
    targets: usize,
    walls: usize,
    floor: usize,
    rule: WalkRule,
    by: By,
    factor: u64,
}

/// A room: its cells (ice, wall or floor) and blocks, row-major.
#[derive(Clone, Debug)]
struct Room {
    cells: Vec<Cell>,
    blocks: Vec<bool>,
}

/// A level found: the room's text with targets, least of its images (a key that sorts).
type Key = String;

/// What a room's enumeration says: the hardest value, the target sets that have it (cell
/// lists), and the mean value over the sets that can be covered (for the annealing).
#[derive(Clone)]
struct Eval {
    value: u64,
    sets: Vec<Vec<usize>>,
    mean: f64,
}

/// What an ice block room search varies, beside the size: the room's `blocks`, the `targets`
/// they cover, and at most `walls` walls and `floor` normal floor cells inside the room.
///
/// ```
/// use floe::game::hardest::{Counts, HardestOptions};
/// use floe::generate::hardest::ice::{hardest, IceHardest};
/// let room = IceHardest { blocks: 2, walls: 1, ..IceHardest::default() };
/// let r = hardest(&HardestOptions::new(3, 3), &room).unwrap();
/// assert_eq!(r.counts["blocks"], 2);
/// assert!(r.exhaustive && r.levels[0].length >= 2);
/// // the erased face's named counts give the same options
/// let named = Counts::new().with("blocks", 2).with("walls", 1);
/// assert_eq!(IceHardest::from_counts(&named).unwrap(), room);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IceHardest {
    /// Blocks in the room (default 1).
    pub blocks: usize,
    /// Targets, covered together (default 1; from 1 to the blocks, at most [`MAX_TARGETS`]).
    pub targets: usize,
    /// At most this many walls inside the room (default 0).
    pub walls: usize,
    /// At most this many normal floor cells inside the room (default 0).
    pub floor: usize,
}

impl Default for IceHardest {
    /// One block, one target, an empty room.
    fn default() -> IceHardest {
        IceHardest {
            blocks: 1,
            targets: 1,
            walls: 0,
            floor: 0,
        }
    }
}

impl IceHardest {
    /// The names of its counts, as the erased face and the report's `counts` give them.
    pub const COUNTS: [&'static str; 4] = ["blocks", "targets", "walls", "floor"];

    /// The options named in `counts`, the defaults for those not given; a count of another
    /// game (`rocks`) is refused by its flag.
    pub fn from_counts(counts: &Counts) -> Result<IceHardest, Error> {
        let [blocks, targets, walls, floor] =
            counts.read("ice blocks (it counts --blocks)", Self::COUNTS)?;
        let d = IceHardest::default();
        Ok(IceHardest {
            blocks: blocks.unwrap_or(d.blocks),
            targets: targets.unwrap_or(d.targets),
            walls: walls.unwrap_or(d.walls),
            floor: floor.unwrap_or(d.floor),
        })
    }

    /// The counts by name, as the report gives them.
    pub fn counts(&self) -> Counts {
        let [b, t, w, f] = Self::COUNTS;
        Counts::new()
            .with(b, self.blocks)
            .with(t, self.targets)
            .with(w, self.walls)
            .with(f, self.floor)
    }

    /// Refuses a room these options cannot make on `rows × cols` (rows and columns from 1,
    /// at most 4,096 cells): no block, targets out of range, more than fits.
    pub fn check(&self, rows: usize, cols: usize) -> Result<(), Error> {
        let n = rows.saturating_mul(cols);
        if rows == 0 || cols == 0 || n > 1 << 12 {
            return Err(Error::invalid(format!(
                "a {rows}×{cols} room: rows and columns from 1, at most 4,096 cells"
            )));
        }
        if self.blocks == 0 {
            return Err(Error::invalid("a room needs at least one block"));
        }
        if self.targets == 0 || self.targets > self.blocks || self.targets > MAX_TARGETS {
            return Err(Error::invalid(format!(
                "--targets {}: from 1 to the blocks ({}), at most {MAX_TARGETS}",
                self.targets, self.blocks
            )));
        }
        if self.blocks > n {
            return Err(Error::invalid(format!(
                "{} blocks do not fit a {rows}×{cols} room of {n} cells",
                self.blocks
            )));
        }
        if self
            .walls
            .saturating_add(self.floor)
            .saturating_add(self.blocks)
            > n
        {
            return Err(Error::invalid(format!(
                "{} walls, {} floor cells and {} blocks do not fit a {rows}×{cols} room of {n} cells",
                self.walls, self.floor, self.blocks
            )));
        }
        Ok(())
    }
}

/// `floe hardest ice`: the hardest rooms of `o.rows × o.cols` with `room`'s counts, each
/// level verified (see [`IceHardest`] for an example).
pub fn hardest(o: &HardestOptions, room: &IceHardest) -> Result<HardestReport, Error> {
    let t0 = Instant::now();
    o.check(Ice.info())?;
    let (rows, cols) = (o.rows, o.cols);
    room.check(rows, cols)?;
    let rule = match o.params.get("rules") {
        Some(r) => r.parse::<WalkRule>().map_err(Error::invalid)?,
        None => WalkRule::Free,
    };
    let s = Spec {
        rows,
        cols,
        blocks: room.blocks,
        targets: room.targets,
        walls: room.walls,
        floor: room.floor,
        rule,
        by: o.by,
        factor: factor_of(Ice, o.factor)?,
    };
    let found = match o.method {
        Method::Exact => exact(o, &s, t0)?,
        Method::Anneal => anneal(o, &s, t0)?,
    };
    let found = found.try_map(|c| level_of(&s, c))?;
    report(Ice, o, found, room.counts().to_map(), t0)
}

/// The level of a key, titled with its figures; `length` is what the search measured (the
/// fewest pushes, or with `--by difficulty` the least difficulty, whose fewest pushes the
/// level is then solved for).
fn level_of(s: &Spec, c: Candidate<Key>) -> Result<Candidate<Level>, Error> {
    let mut level = crate::games::ice::parse(&c.level, "hardest", None)?.remove(0);
    level.rules = Some(s.rule);
    let (length, difficulty) = match s.by {
        By::Length => (c.length, None),
        By::Difficulty => {
            let r = crate::games::ice::solve(&level, s.rule, "bfs", s.factor, &Limits::none())?;
            (r.length.unwrap_or(0), Some(c.length))
        }
    };
    level.title = Some(format!(
        "hardest {}x{} room, {} block{}, {} target{}: {} pushes{}",
        s.rows,
        s.cols,
        s.blocks,
        if s.blocks == 1 { "" } else { "s" },
        s.targets,
        if s.targets == 1 { "" } else { "s" },
        length,
        difficulty.map_or(String::new(), |d| format!(", least difficulty {d}"))
    ));
    Ok(Candidate {
        level,
        length,
        difficulty,
        extra: c.extra,
    })
}

/// The enumeration of one room under the walking rule.
struct Sets<'a> {
    spec: &'a Spec,
    /// The room's enumeration stops there (and the room is judged as having no value).
    limits: &'a Limits,
}

impl IceTask for Sets<'_> {
    type Output = Option<Eval>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Option<Eval> {
        let t = self.spec.targets;
        let mut best: FxHashMap<u64, u64> = FxHashMap::default();
        let mut offer = |blocks: B, cost: u64| {
            let cells: Vec<usize> = blocks.ones().collect();
            subsets(&cells, t, |key| {
                let e = best.entry(key).or_insert(u64::MAX);
                *e = (*e).min(cost);
            });
        };
        match self.spec.by {
            By::Length => {
                let e = enumerate(p, self.limits, |s, d| offer(s.blocks, u64::from(d)));
                if e.limit.is_some() {
                    return None;
                }
            }
            By::Difficulty => {
                let g = build_graph(p, self.limits).ok()?;
                // Dijkstra over (position, cell of the block pushed last)
                let mut dist: FxHashMap<(u32, u16), u64> = FxHashMap::default();
                let mut heap = BinaryHeap::new();
                dist.insert((0, NONE), 0);
                heap.push(Reverse((0u64, 0u32, NONE)));
                while let Some(Reverse((c, i, last))) = heap.pop() {
                    if dist.get(&(i, last)).is_some_and(|&d| d < c) {
                        continue;
                    }
                    offer(g.state(i).blocks, c);
                    for (j, m) in g.successors(i) {
                        let change = last != NONE && last != m.from;
                        let nc = c + 1 + if change { self.spec.factor } else { 0 };
                        let slot = dist.entry((j, m.to)).or_insert(u64::MAX);
                        if nc < *slot {
                            *slot = nc;
                            heap.push(Reverse((nc, j, m.to)));
                        }
                    }
                }
            }
        }
        let value = best.values().copied().max()?;
        let mean = best.values().map(|&v| v as f64).sum::<f64>() / best.len() as f64;
        let mut sets: Vec<Vec<usize>> = best
            .iter()
            .filter(|&(_, &v)| v == value)
            .map(|(&k, _)| {
                (0..t)
                    .map(|i| {
                        let cell = (k >> (10 * i) & 0x3ff) as u16;
                        let pos = p.pos(cell);
                        pos.row * p.cols() + pos.col
                    })
                    .collect()
            })
            .collect();
        sets.sort_unstable();
        Some(Eval { value, sets, mean })
    }
}

/// Calls `f` with every `t`-subset of `cells` (increasing), packed 10 bits a cell.
fn subsets(cells: &[usize], t: usize, mut f: impl FnMut(u64)) {
    fn go(cells: &[usize], t: usize, from: usize, key: u64, depth: usize, f: &mut impl FnMut(u64)) {
        if depth == t {
            f(key);
            return;
        }
        for i in from..cells.len() {
            if cells.len() - i < t - depth {
                return;
            }
            go(
                cells,
                t,
                i + 1,
                key | (cells[i] as u64) << (10 * depth),
                depth + 1,
                f,
            );
        }
    }
    go(cells, t, 0, 0, 0, &mut f);
}

fn room_level(s: &Spec, room: &Room) -> Result<Level, Error> {
    let mut l = Level::new(s.rows, s.cols)?;
    for i in 0..s.rows * s.cols {
        let p = Pos::new(i / s.cols, i % s.cols);
        l.set_cell(p, room.cells[i])?;
        if room.blocks[i] {
            l.set_block(p, true)?;
        }
    }
    Ok(l)
}

fn evaluate(s: &Spec, room: &Room) -> Result<Option<Eval>, Error> {
    evaluate_within(s, room, &Limits::none())
}

/// [`evaluate`] within `limits`: a room whose enumeration they stop has no value.
fn evaluate_within(s: &Spec, room: &Room, limits: &Limits) -> Result<Option<Eval>, Error> {
    with_puzzle(&room_level(s, room)?, s.rule, Sets { spec: s, limits })
}

/// The level text of a room with targets on `set`, least of its images under `syms`.
fn canonical(s: &Spec, syms: &[Vec<usize>], room: &Room, set: &[usize]) -> Key {
    let n = s.rows * s.cols;
    syms.iter()
        .map(|m| {
            let mut ch = vec!['-'; n];
            for i in 0..n {
                let target = set.contains(&i);
                ch[m[i]] = match (room.cells[i], room.blocks[i], target) {
                    (Cell::Wall, _, _) => '#',
                    (Cell::Floor, _, _) => '=',
                    (_, true, true) => '*',
                    (_, true, false) => '$',
                    (_, false, true) => '.',
                    (_, false, false) => '-',
                };
            }
            ch.chunks(s.cols)
                .map(|r| r.iter().collect::<String>() + "\n")
                .collect::<String>()
        })
        .min()
        .expect("the identity is there")
}

/// Offers a room's hardest levels, each once.
fn offer(s: &Spec, syms: &[Vec<usize>], best: &mut Best<Key>, room: &Room, e: &Eval, count: bool) {
    if e.value == 0 || (best.best.is_some_and(|b| e.value < b) && e.value < best.floor()) {
        return;
    }
    let keys: BTreeSet<Key> = e
        .sets
        .iter()
        .map(|set| canonical(s, syms, room, set))
        .collect();
    for k in keys {
        if count {
            best.offer(e.value, k);
        } else {
            best.insert(e.value, k);
        }
    }
}

/// Calls `f` with every mask of `k` bits among the cells of `free` (ascending).
fn choose(free: &[usize], k: usize, f: &mut impl FnMut(u64)) {
    fn go(free: &[usize], k: usize, from: usize, m: u64, f: &mut impl FnMut(u64)) {
        if k == 0 {
            f(m);
            return;
        }
        for i in from..free.len() {
            if free.len() - i < k {
                return;
            }
            go(free, k - 1, i + 1, m | 1 << free[i], f);
        }
    }
    go(free, k, 0, 0, f);
}

/// Every room and block set up to symmetry.
fn exact(o: &HardestOptions, s: &Spec, t0: Instant) -> Result<Found<Key>, Error> {
    let n = s.rows * s.cols;
    if n > 64 {
        return Err(Error::invalid(format!(
            "the exact search takes rooms of up to 64 cells, not {n}; use --anneal"
        )));
    }
    let perms = MaskPerm::all(s.rows, s.cols);
    let syms = symmetries(s.rows, s.cols);
    let (nn, k) = (n as u64, s.blocks as u64);
    let mut count = 0u64;
    for w in 0..=s.walls as u64 {
        for f in 0..=s.floor as u64 {
            let c = binomial(nn, w)
                .saturating_mul(binomial(nn - w.min(nn), f))
                .saturating_mul(binomial(nn.saturating_sub(w + f), k));
            count = count.saturating_add(c);
        }
    }
    let count = count / perms.len() as u64;
    o.check_exact(
        count,
        o.max_exact.min(MAX_EXACT_ROOMS),
        &format!(
            "{}×{} rooms with {} blocks, at most {} walls and {} floor cells (each room an \
             enumeration of its positions)",
            s.rows, s.cols, s.blocks, s.walls, s.floor
        ),
    )?;
    // work items: the walls and floor cells, and the lowest block
    let mut items: Vec<(u64, u64, usize)> = Vec::new();
    let all: Vec<usize> = (0..n).collect();
    for w in 0..=s.walls {
        choose(&all, w, &mut |walls| {
            let rest: Vec<usize> = (0..n).filter(|&i| walls >> i & 1 == 0).collect();
            for f in 0..=s.floor {
                choose(&rest, f, &mut |floor| {
                    for b in 0..n {
                        if (walls | floor) >> b & 1 == 0 {
                            items.push((walls, floor, b));
                        }
                    }
                });
            }
        });
    }
    let deadline = o.limits.deadline_from(t0);
    let limit: Mutex<Option<LimitKind>> = Mutex::new(None);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let searched = AtomicU64::new(0);
    let parts = Parts::new(o, items.len());
    let bests: Vec<Best<Key>> = items
        .par_iter()
        .map(|&(walls, floor, first)| {
            let _part = parts.one();
            let mut best = Best::new(o.top);
            if limit.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
                return best;
            }
            if let Some(kind) = o.limits.check(deadline) {
                *limit.lock().unwrap_or_else(|e| e.into_inner()) = Some(kind);
                return best;
            }
            let free: Vec<usize> = (first + 1..n)
                .filter(|&i| (walls | floor) >> i & 1 == 0)
                .collect();
            let mut cells = vec![Cell::Ice; n];
            for (i, c) in cells.iter_mut().enumerate() {
                if walls >> i & 1 == 1 {
                    *c = Cell::Wall;
                } else if floor >> i & 1 == 1 {
                    *c = Cell::Floor;
                }
            }
            let mut done = 0u64;
            choose(&free, s.blocks - 1, &mut |rest| {
                let blocks = rest | 1 << first;
                let me = (walls, floor, blocks);
                if perms[1..]
                    .iter()
                    .any(|p| (p.apply(walls), p.apply(floor), p.apply(blocks)) < me)
                {
                    return;
                }
                done += 1;
                let room = Room {
                    cells: cells.clone(),
                    blocks: (0..n).map(|i| blocks >> i & 1 == 1).collect(),
                };
                match evaluate(s, &room) {
                    Ok(Some(e)) => offer(s, &syms, &mut best, &room, &e, true),
                    Ok(None) => {}
                    Err(e) => *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e),
                }
            });
            searched.fetch_add(done, Ordering::Relaxed);
            best
        })
        .collect();
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    parts.end();
    let best = bests.into_iter().fold(Best::new(o.top), Best::merge);
    let limit = limit.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(finish(best, searched.into_inner(), limit, true))
}

fn finish(best: Best<Key>, searched: u64, limit: Option<LimitKind>, exact: bool) -> Found<Key> {
    let done = exact && limit.is_none();
    Found {
        best_count: done.then_some(best.best_count),
        levels: best
            .into_vec()
            .into_iter()
            .map(|(v, key)| Candidate {
                level: key,
                length: v,
                difficulty: None,
                extra: Map::new(),
            })
            .collect(),
        searched,
        limit,
        exhaustive: done,
    }
}

/// Simulated annealing over rooms: seeded restarts in parallel.
fn anneal(o: &HardestOptions, s: &Spec, t0: Instant) -> Result<Found<Key>, Error> {
    let n = s.rows * s.cols;
    let syms = symmetries(s.rows, s.cols);
    // a room's enumeration (a large room's takes a while) stops at the run's deadline
    let deadline = o.limits.deadline_from(t0);
    let bound = || Limits {
        timeout: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        stop: o.limits.stop.clone(),
        ..Limits::none()
    };
    let start = |rng: &mut Pcg64Mcg| {
        let mut order: Vec<usize> = (0..n).collect();
        for i in 0..n {
            let j = rng.random_range(i..n);
            order.swap(i, j);
        }
        let mut room = Room {
            cells: vec![Cell::Ice; n],
            blocks: vec![false; n],
        };
        for &c in &order[..s.blocks] {
            room.blocks[c] = true;
        }
        let e = evaluate_within(s, &room, &bound())?;
        Ok((room, e))
    };
    let neighbour = |(room, _): &(Room, Option<Eval>), rng: &mut Pcg64Mcg| {
        let mut next = room.clone();
        change(s, &mut next, rng);
        let e = evaluate_within(s, &next, &bound())?;
        Ok((next, e))
    };
    let score = |(_, e): &(Room, Option<Eval>)| {
        e.as_ref().map_or(-1.0, |e| {
            e.value as f64 + 0.5 * e.mean / (e.value.max(1) as f64)
        })
    };
    let record = |(room, e): &(Room, Option<Eval>), best: &mut Best<Key>| {
        if let Some(e) = e {
            offer(s, &syms, best, room, e, false);
        }
    };
    // the polish's neighbourhood: every block, wall or floor cell moved to any open cell, and
    // every wall or floor cell taken away or added within its bound
    let single_changes = |(room, _): &(Room, Option<Eval>)| {
        let open: Vec<usize> = (0..n)
            .filter(|&c| room.cells[c] == Cell::Ice && !room.blocks[c])
            .collect();
        let mut rooms = Vec::new();
        for from in 0..n {
            let kind = if room.blocks[from] {
                None
            } else if room.cells[from] != Cell::Ice {
                Some(room.cells[from])
            } else {
                continue;
            };
            for &to in &open {
                let mut next = room.clone();
                match kind {
                    None => {
                        next.blocks[from] = false;
                        next.blocks[to] = true;
                    }
                    Some(k) => {
                        next.cells[from] = Cell::Ice;
                        next.cells[to] = k;
                    }
                }
                rooms.push(next);
            }
            if kind.is_some() {
                let mut next = room.clone();
                next.cells[from] = Cell::Ice;
                rooms.push(next);
            }
        }
        for (k, bound) in [(Cell::Wall, s.walls), (Cell::Floor, s.floor)] {
            if room.cells.iter().filter(|&&c| c == k).count() < bound {
                for &to in &open {
                    let mut next = room.clone();
                    next.cells[to] = k;
                    rooms.push(next);
                }
            }
        }
        rooms
            .into_iter()
            .map(|r| {
                let e = evaluate_within(s, &r, &bound())?;
                Ok((r, e))
            })
            .collect()
    };
    let (best, searched, limit) = super::anneal(
        o,
        t0,
        1,
        start,
        neighbour,
        score,
        record,
        single_changes,
        super::Anytime::Restarts,
    )?;
    Ok(finish(best, searched, limit, false))
}

/// A random change: a block, a wall or a floor cell moves (next door or anywhere), or a wall
/// or floor cell comes or goes within the bounds.
fn change<R: Rng>(s: &Spec, room: &mut Room, rng: &mut R) {
    let n = s.rows * s.cols;
    let open = |room: &Room, c: usize| room.cells[c] == Cell::Ice && !room.blocks[c];
    for _ in 0..32 {
        let to = if rng.random_bool(0.5) {
            rng.random_range(0..n)
        } else {
            n // next door, decided below
        };
        let what = rng.random_range(0..4);
        let kind = match what {
            0 if s.walls > 0 => Some(Cell::Wall),
            1 if s.floor > 0 => Some(Cell::Floor),
            _ => None,
        };
        let cells: Vec<usize> = match kind {
            Some(k) => (0..n).filter(|&i| room.cells[i] == k).collect(),
            None => (0..n).filter(|&i| room.blocks[i]).collect(),
        };
        let bound = match kind {
            Some(Cell::Wall) => s.walls,
            Some(_) => s.floor,
            None => s.blocks,
        };
        // walls and floor cells also come and go
        if let Some(k) = kind {
            if rng.random_bool(0.2) {
                if cells.len() < bound && rng.random_bool(0.5) {
                    let c = rng.random_range(0..n);
                    if open(room, c) {
                        room.cells[c] = k;
                        return;
                    }
                } else if let Some(&c) = cells.get(rng.random_range(0..cells.len().max(1))) {
                    room.cells[c] = Cell::Ice;
                    return;
                }
                continue;
            }
        }
        let Some(&from) = cells.get(rng.random_range(0..cells.len().max(1))) else {
            continue;
        };
        let to = if to < n {
            to
        } else {
            let (dr, dc) = [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)][rng.random_range(0..4)];
            let (r, c) = ((from / s.cols) as isize + dr, (from % s.cols) as isize + dc);
            if r < 0 || c < 0 || r >= s.rows as isize || c >= s.cols as isize {
                continue;
            }
            r as usize * s.cols + c as usize
        };
        if !open(room, to) {
            continue;
        }
        match kind {
            Some(k) => {
                room.cells[from] = Cell::Ice;
                room.cells[to] = k;
            }
            None => {
                room.blocks[from] = false;
                room.blocks[to] = true;
            }
        }
        return;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::ice::reach::reach;

    fn spec(rows: usize, cols: usize, blocks: usize, targets: usize) -> Spec {
        Spec {
            rows,
            cols,
            blocks,
            targets,
            walls: 0,
            floor: 0,
            rule: WalkRule::Free,
            by: By::Length,
            factor: 5,
        }
    }

    #[test]
    fn one_target_is_the_reach_table() {
        // van den Akker's 5×5 with 3 blocks in the top row: the hardest cell needs 10 pushes
        let s = spec(5, 5, 3, 1);
        let level = Level::empty_board(5, 5, 3).unwrap();
        let room = Room {
            cells: vec![Cell::Ice; 25],
            blocks: (0..25)
                .map(|i| level.has_block(Pos::new(i / 5, i % 5)))
                .collect(),
        };
        let e = evaluate(&s, &room).unwrap().unwrap();
        let r = reach(&level, WalkRule::Free, &Limits::none()).unwrap();
        assert_eq!(Some(e.value as u32), r.max());
        assert_eq!(e.value, 10);
        assert_eq!(e.sets, vec![vec![13]]);
    }

    #[test]
    fn the_options_default_to_one_block_and_one_target_in_an_empty_room() {
        let d = IceHardest::default();
        assert_eq!((d.blocks, d.targets, d.walls, d.floor), (1, 1, 0, 0));
        assert_eq!(IceHardest::from_counts(&Counts::new()).unwrap(), d);
        let named = Counts::new().with("floor", 2).with("blocks", 3);
        let room = IceHardest::from_counts(&named).unwrap();
        assert_eq!(
            (room.blocks, room.targets, room.walls, room.floor),
            (3, 1, 0, 2)
        );
        // the report's counts: every one, the defaults included, and they read back
        let c = room.counts();
        let names: Vec<&str> = c.iter().map(|(n, _)| n).collect();
        assert_eq!(names, IceHardest::COUNTS);
        assert_eq!(IceHardest::from_counts(&c).unwrap(), room);
    }

    #[test]
    fn the_options_refuse_the_ice_paths_count() {
        let rocks = Counts::new().with("blocks", 2).with("rocks", 3);
        let e = IceHardest::from_counts(&rocks).unwrap_err().to_string();
        assert_eq!(
            e,
            "--rocks does not apply to ice blocks (it counts --blocks)"
        );
    }

    #[test]
    fn the_options_ranges() {
        let room = |blocks, targets, walls, floor| IceHardest {
            blocks,
            targets,
            walls,
            floor,
        };
        let err = |r: IceHardest, rows, cols| r.check(rows, cols).unwrap_err().to_string();
        assert!(room(1, 1, 0, 0).check(1, 1).is_ok());
        assert!(room(3, 3, 4, 2).check(3, 3).is_ok());
        assert!(room(6, 6, 0, 0).check(4, 4).is_ok());
        assert!(room(1, 1, 0, 0).check(64, 64).is_ok());
        for (r, rows, cols, said) in [
            (
                room(1, 1, 0, 0),
                0,
                3,
                "a 0×3 room: rows and columns from 1, at most 4,096 cells",
            ),
            (room(0, 0, 0, 0), 3, 3, "a room needs at least one block"),
            (
                room(2, 3, 0, 0),
                3,
                3,
                "--targets 3: from 1 to the blocks (2), at most 6",
            ),
            (
                room(10, 1, 0, 0),
                3,
                3,
                "10 blocks do not fit a 3×3 room of 9 cells",
            ),
            (
                room(3, 1, 4, 3),
                3,
                3,
                "4 walls, 3 floor cells and 3 blocks do not fit a 3×3 room of 9 cells",
            ),
        ] {
            assert_eq!(err(r, rows, cols), said);
        }
        assert!(err(room(1, 1, 0, 0), 64, 65).contains("at most 4,096 cells"));
        assert!(err(room(2, 0, 0, 0), 3, 3).starts_with("--targets 0: "));
        assert!(err(room(7, 7, 0, 0), 4, 4).starts_with("--targets 7: "));
        assert!(err(room(1, 1, usize::MAX, 1), 3, 3).contains("do not fit"));
    }

    #[test]
    fn a_typed_call_is_checked_and_answers_as_the_named_counts_do() {
        let mut o = HardestOptions::new(3, 3);
        let room = IceHardest {
            blocks: 2,
            walls: 1,
            ..IceHardest::default()
        };
        let typed = hardest(&o, &room).unwrap();
        let named = Counts::new().with("blocks", 2).with("walls", 1);
        let erased = crate::ops::hardest("ice", &o, &named).unwrap();
        assert_eq!(typed.level_lengths(), erased.level_lengths());
        assert_eq!(
            (typed.searched, typed.best_count),
            (erased.searched, erased.best_count)
        );
        assert_eq!(typed.counts, erased.counts);
        assert_eq!(typed.counts, room.counts().to_map());
        // the options every game shares and the room's ranges are checked on a typed call too
        o.top = 0;
        let e = hardest(&o, &room).unwrap_err().to_string();
        assert_eq!(e, "--top must list at least one level");
        let e = hardest(
            &HardestOptions::new(2, 2),
            &IceHardest { blocks: 5, ..room },
        );
        assert!(e.unwrap_err().to_string().contains("do not fit"));
    }

    #[test]
    fn subsets_are_all_there() {
        let mut keys = Vec::new();
        subsets(&[1, 5, 7, 9], 2, |k| keys.push(k));
        assert_eq!(keys.len(), 6);
        assert_eq!(keys[0], 1 | 5 << 10);
    }
}
