//! Kluiver's retrograde generator of ice block levels (thesis section 4.5), the shortcut
//! repair, the exact verification of every level, and the report on how often the intended
//! solution is the fastest one.
//!
//! The generator starts from the solved position (every target holds a block) and undoes
//! pushes: a block at `x` moves back `k ≥ 1` cells towards `d`, to `y`; the forward push is
//! then the block at `y` pushed towards `-d`, which slides back to `x` because the cell
//! beyond `x` (towards `-d`) stops it. If nothing is there yet, a stopper is placed: a new
//! block (while the budget allows) or normal floor, chosen at random; with walls allowed,
//! a wall too. A block that moved along one axis moves along the other axis next, and so
//! does a new stopper block first, along the other axis than the push it stops.
//!
//! Bookkeeping keeps the intended solution legal whatever is placed later (earlier in play):
//! *path* cells (every cell a block stood on or slid over) never get normal floor, walls or
//! new blocks; *pusher* cells (where the player stood) never get walls or new blocks (normal
//! floor is fine: under the `free` rule the player stands on it).
//!
//! After generation a breadth-first search solves the level. While its solution is shorter
//! than the intended one, normal floor goes on a random cell the fast solution slides over
//! that is not a path cell; such a cell is never used by the intended solution, so the
//! repair never makes a level unsolvable.

use crate::game::Status;
use crate::games::ice::engine::{with_puzzle, IcePuzzle, IceTask, Walking};
use crate::games::ice::{replay, solve, space, Cell, Level, WalkRule};
use crate::grid::{Dir, Pos, Push};
use crate::search::{Limits, Puzzle};
use crate::{bits::Bits, Error};
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::time::Instant;

/// What the retrograde generator is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenParams {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Targets (each starts with a block on it).
    pub targets: usize,
    /// Most blocks on the board (targets plus stopper blocks).
    pub max_blocks: usize,
    /// Backward pushes to make (the length of the intended solution, unless the generator
    /// gets stuck first).
    pub pushes: usize,
    /// Whether a stopper may be a wall.
    pub walls: bool,
}

impl GenParams {
    fn check(&self) -> Result<(), Error> {
        let n = self.rows.saturating_mul(self.cols);
        if self.rows == 0 || self.cols == 0 || n > 64 * 16 {
            return Err(Error::invalid(format!(
                "a {}×{} board: give 1 to 1024 cells",
                self.rows, self.cols
            )));
        }
        if self.targets == 0 || self.targets > n {
            return Err(Error::invalid(format!(
                "{} targets on {n} cells: give 1 to {n}",
                self.targets
            )));
        }
        if self.max_blocks < self.targets || self.max_blocks > n {
            return Err(Error::invalid(format!(
                "at most {} blocks (--max-blocks): give at least the {} targets and at most \
                 the {n} cells",
                self.max_blocks, self.targets
            )));
        }
        Ok(())
    }
}

/// A generated level with its intended solution.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The level (rules `free`).
    pub level: Level,
    /// The intended solution, forward.
    pub intended: Vec<Push>,
    /// Path cells, row-major: cells a block of the intended solution stood on or slid over.
    pub path: Vec<bool>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    Rows,
    Cols,
}

fn axis(d: Dir) -> Axis {
    match d {
        Dir::Up | Dir::Down => Axis::Rows,
        Dir::Left | Dir::Right => Axis::Cols,
    }
}

/// The retrograde state: the position, blocks with their axis restriction, bookkeeping.
struct Board {
    rows: usize,
    cols: usize,
    level: Level,
    /// Per cell: the axis the block standing there may not move along next.
    banned: Vec<Option<Axis>>,
    path: Vec<bool>,
    pusher: Vec<bool>,
    blocks: usize,
}

impl Board {
    fn idx(&self, p: Pos) -> usize {
        p.row * self.cols + p.col
    }
    fn step(&self, p: Pos, d: Dir) -> Option<Pos> {
        p.step(d, self.rows, self.cols)
    }
    /// Whether a block slides over / rests on `p` (ice or target without a block).
    fn free(&self, p: Pos) -> bool {
        self.level.cell(p).holds_blocks() && !self.level.has_block(p)
    }
    /// The farthest cells the block at `x` can be taken back towards `d`: every `y` such
    /// that the cells from `x + d` to `y` are free and the player can stand beyond `y`.
    fn back_targets(&self, x: Pos, d: Dir) -> Vec<Pos> {
        let mut out = Vec::new();
        let mut y = x;
        while let Some(n) = self.step(y, d) {
            if !self.free(n) {
                break;
            }
            y = n;
            let ok = match self.step(y, d) {
                None => true,
                Some(q) => self.level.cell(q) != Cell::Wall && !self.level.has_block(q),
            };
            if ok {
                out.push(y);
            }
        }
        out
    }
    /// Whether the cell beyond `x` towards `-d` already stops a block sliding towards `-d`.
    fn stopped(&self, x: Pos, d: Dir) -> bool {
        match self.step(x, d.opposite()) {
            None => true,
            Some(s) => !self.free(s),
        }
    }
}

/// Undoes one push on `level` under the `free` rule: the block at `x` goes back to `y` (the
/// forward push is the block at `y` towards `-d`).
fn unpush(level: &mut Level, x: Pos, y: Pos) -> Result<(), Error> {
    level.set_block(x, false)?;
    level.set_block(y, true)
}

/// Runs the generator once with `rng`. When no block can move any more, it stops early: the
/// intended solution is then shorter than `p.pushes`.
pub fn retrograde<G: Rng + ?Sized>(p: &GenParams, rng: &mut G) -> Result<Generated, Error> {
    p.check()?;
    let (rows, cols) = (p.rows, p.cols);
    let n = rows * cols;
    let mut level = Level::new(rows, cols)?;
    level.rules = Some(WalkRule::Free);
    // 1. targets with a block on each
    let mut cells: Vec<usize> = (0..n).collect();
    for k in 0..p.targets {
        let j = rng.random_range(k..n);
        cells.swap(k, j);
        let q = Pos::new(cells[k] / cols, cells[k] % cols);
        level.set_cell(q, Cell::Target)?;
        level.set_block(q, true)?;
    }
    let mut b = Board {
        rows,
        cols,
        level,
        banned: vec![None; n],
        path: vec![false; n],
        pusher: vec![false; n],
        blocks: p.targets,
    };
    for q in b.level.blocks().collect::<Vec<_>>() {
        let i = b.idx(q);
        b.path[i] = true;
    }
    let mut backward: Vec<Push> = Vec::new();
    'moves: for _ in 0..p.pushes {
        // 2. a block, in random order until one can move
        let mut blocks: Vec<Pos> = b.level.blocks().collect();
        shuffle(&mut blocks, rng);
        for x in blocks {
            let banned = b.banned[b.idx(x)];
            // 3. a random allowed direction; the other one on the same axis if it fails
            let mut axes = [Axis::Rows, Axis::Cols];
            if rng.random_bool(0.5) {
                axes.swap(0, 1);
            }
            for ax in axes {
                if Some(ax) == banned {
                    continue;
                }
                let mut dirs = match ax {
                    Axis::Rows => [Dir::Up, Dir::Down],
                    Axis::Cols => [Dir::Left, Dir::Right],
                };
                if rng.random_bool(0.5) {
                    dirs.swap(0, 1);
                }
                for d in dirs {
                    if let Some(y) = try_back(&mut b, p, x, d, rng)? {
                        backward.push(Push::new(y, d.opposite()));
                        continue 'moves;
                    }
                }
                // only one axis is tried per block, as the thesis does
                break;
            }
        }
        // no block can move: stop early
        break;
    }
    backward.reverse();
    let level = b.level;
    let r = replay(&level, WalkRule::Free, &backward)
        .map_err(|e| Error::Internal(format!("the intended solution does not replay: {e}")))?;
    if !r.solved {
        return Err(Error::Internal(
            "the intended solution leaves a target empty".into(),
        ));
    }
    Ok(Generated {
        level,
        intended: backward,
        path: b.path,
    })
}

/// Steps 4–6 for the block at `x` towards `d`: place a stopper if needed, choose a distance,
/// move the block. The block's new cell, or `None` (and nothing changed) when the move is
/// impossible.
fn try_back<G: Rng + ?Sized>(
    b: &mut Board,
    p: &GenParams,
    x: Pos,
    d: Dir,
    rng: &mut G,
) -> Result<Option<Pos>, Error> {
    let ys = b.back_targets(x, d);
    if ys.is_empty() {
        return Ok(None);
    }
    // 4. the stopper beyond x towards -d
    if !b.stopped(x, d) {
        let s = b
            .step(x, d.opposite())
            .expect("not stopped means on the board");
        let si = b.idx(s);
        if b.path[si] {
            return Ok(None);
        }
        let can_block = b.blocks < p.max_blocks && !b.pusher[si];
        let can_wall = p.walls && !b.pusher[si];
        let mut kinds = vec![Cell::Floor];
        if can_block {
            kinds.push(Cell::Ice);
        }
        if can_wall {
            kinds.push(Cell::Wall);
        }
        match kinds[rng.random_range(0..kinds.len())] {
            Cell::Ice => {
                b.level.set_block(s, true)?;
                b.blocks += 1;
                b.path[si] = true;
                // it stops a push along d's axis, so it moves along the other axis first
                b.banned[si] = Some(axis(d));
            }
            c => b.level.set_cell(s, c)?,
        }
    }
    // 5. a random distance; 6. the block goes there
    let y = ys[rng.random_range(0..ys.len())];
    unpush(&mut b.level, x, y)?;
    let (xi, yi) = (b.idx(x), b.idx(y));
    b.banned[xi] = None;
    b.banned[yi] = Some(axis(d));
    let mut c = x;
    while c != y {
        let ci = b.idx(c);
        b.path[ci] = true;
        c = b.step(c, d).expect("y lies beyond x");
    }
    b.path[yi] = true;
    if let Some(q) = b.step(y, d) {
        let qi = b.idx(q);
        b.pusher[qi] = true;
    }
    Ok(Some(y))
}

fn shuffle<T, G: Rng + ?Sized>(v: &mut [T], rng: &mut G) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// Cells a solution's blocks slide over (not the cells they start on), row-major.
fn slid_over(level: &Level, moves: &[Push]) -> Result<Vec<Pos>, Error> {
    let r = replay(level, WalkRule::Free, moves)
        .map_err(|e| Error::Internal(format!("a solution does not replay: {e}")))?;
    let mut out = Vec::new();
    for (m, s) in moves.iter().zip(&r.steps) {
        let mut c = m.pos();
        while c != s.to {
            c = c
                .step(m.dir, level.rows(), level.cols())
                .expect("the slide stays on the board");
            out.push(c);
        }
    }
    Ok(out)
}

/// The shortcut repair: while breadth-first search finds a solution shorter than the
/// intended one, put normal floor on a random cell that solution slides over and that is no
/// path cell, skipping cells whose floor would make the fastest solution even shorter (a new
/// stopper can open a new shortcut). Returns the fewest pushes before and after. Stops when
/// no such cell remains (the fast solution then runs over path cells only) or when `limits`
/// stop a search (the second figure is then `None`).
pub fn repair<G: Rng + ?Sized>(
    g: &mut Generated,
    limits: &Limits,
    rng: &mut G,
) -> Result<(Option<u64>, Option<u64>), Error> {
    let cols = g.level.cols();
    let intended = g.intended.len() as u64;
    let fewest_of = |level: &Level| -> Result<Option<(u64, Vec<Push>)>, Error> {
        let r = solve(level, WalkRule::Free, "bfs", 0, limits)?;
        match r.status {
            Status::Solved => Ok(Some((r.length.expect("solved"), r.moves_of::<Push>()))),
            Status::Unsolvable => Err(Error::Internal("a generated level has no solution".into())),
            _ => Ok(None),
        }
    };
    let Some((mut f, mut moves)) = fewest_of(&g.level)? else {
        return Ok((None, None));
    };
    let before = f;
    while f < intended {
        let mut cand: Vec<Pos> = slid_over(&g.level, &moves)?
            .into_iter()
            .filter(|q| !g.path[q.row * cols + q.col] && !g.level.has_block(*q))
            .collect();
        cand.sort();
        cand.dedup();
        shuffle(&mut cand, rng);
        // the first cell (in random order) whose floor does not shorten the fastest solution
        let mut placed = false;
        for q in cand {
            let old = g.level.cell(q);
            g.level.set_cell(q, Cell::Floor)?;
            match fewest_of(&g.level)? {
                Some((nf, nm)) if nf >= f => {
                    (f, moves) = (nf, nm);
                    placed = true;
                    break;
                }
                Some(_) => g.level.set_cell(q, old)?,
                None => {
                    g.level.set_cell(q, old)?;
                    return Ok((Some(before), None));
                }
            }
        }
        if !placed {
            break;
        }
    }
    Ok((Some(before), Some(f)))
}

/// Optimal solutions of a level: how many push sequences reach a goal in the fewest pushes,
/// and how many distinct ones there are up to move order (sets of pushes, counted up to 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Optimal {
    /// Fewest pushes.
    pub pushes: u64,
    /// Optimal push sequences (saturating).
    pub sequences: u64,
    /// Distinct optimal solutions up to move order: 1, or 2 meaning "two or more".
    pub up_to_order: u64,
}

struct CountTask<'a>(&'a Limits);

impl IceTask for CountTask<'_> {
    type Output = Option<Optimal>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Option<Optimal> {
        count_optimal(p, self.0)
    }
}

fn count_optimal<P: PushOf>(p: &P, limits: &Limits) -> Option<Optimal> {
    let max = limits.max_states.unwrap_or(u64::MAX);
    let deadline = limits.deadline_from(Instant::now());
    let start = p.start();
    let mut depth: FxHashMap<P::State, (u32, u64)> = FxHashMap::default();
    depth.insert(start.clone(), (0, 1));
    let mut layers = vec![vec![start]];
    let mut buf = Vec::new();
    loop {
        let d = layers.len() as u32 - 1;
        let cur = layers.last().expect("one layer");
        let goals: Vec<&P::State> = cur.iter().filter(|s| p.is_goal(s)).collect();
        if !goals.is_empty() {
            let sequences = goals
                .iter()
                .map(|s| depth[*s].1)
                .fold(0u64, u64::saturating_add);
            let up_to_order = distinct_sets(p, &layers, &depth);
            return Some(Optimal {
                pushes: d as u64,
                sequences,
                up_to_order,
            });
        }
        let mut next = Vec::new();
        for s in cur {
            let c = depth[s].1;
            buf.clear();
            p.successors(s, &mut buf);
            for (_, t) in buf.drain(..) {
                match depth.get_mut(&t) {
                    Some((dt, ct)) => {
                        if *dt == d + 1 {
                            *ct = ct.saturating_add(c);
                        }
                    }
                    None => {
                        depth.insert(t.clone(), (d + 1, c));
                        next.push(t);
                    }
                }
            }
        }
        if next.is_empty() || depth.len() as u64 > max || limits.check(deadline).is_some() {
            return None;
        }
        layers.push(next);
    }
}

/// The push a move makes, for the count of solutions up to move order.
trait PushOf: Puzzle {
    fn push_of(&self, m: &Self::Move) -> Push;
}

impl<B: Bits, R: Walking> PushOf for IcePuzzle<B, R> {
    fn push_of(&self, m: &Self::Move) -> Push {
        self.push(m)
    }
}

/// A multiset of pushes (row, column, direction index), sorted.
type PushSet = Vec<(usize, usize, usize)>;

/// Distinct sets of pushes over the optimal solutions (capped at 2), from the goal layer
/// back to the start.
fn distinct_sets<P: PushOf>(
    p: &P,
    layers: &[Vec<P::State>],
    depth: &FxHashMap<P::State, (u32, u64)>,
) -> u64 {
    let last = layers.len() - 1;
    // sets of remaining pushes (sorted) per state on an optimal path
    let mut sets: FxHashMap<P::State, Vec<PushSet>> = FxHashMap::default();
    for s in &layers[last] {
        if p.is_goal(s) {
            sets.insert(s.clone(), vec![Vec::new()]);
        }
    }
    let mut buf = Vec::new();
    for d in (0..last).rev() {
        for s in &layers[d] {
            buf.clear();
            p.successors(s, &mut buf);
            let mut mine: Vec<PushSet> = Vec::new();
            for (m, t) in buf.iter() {
                if depth.get(t).map(|x| x.0) != Some(d as u32 + 1) {
                    continue;
                }
                let Some(rest) = sets.get(t) else { continue };
                let push = p.push_of(m);
                let key = (push.row, push.col, push.dir.index());
                for r in rest {
                    let mut v = r.clone();
                    let at = v.partition_point(|x| *x < key);
                    v.insert(at, key);
                    if !mine.contains(&v) {
                        mine.push(v);
                    }
                    if mine.len() >= 2 {
                        break;
                    }
                }
                if mine.len() >= 2 {
                    break;
                }
            }
            if !mine.is_empty() {
                sets.insert(s.clone(), mine);
            }
        }
    }
    sets.get(&layers[0][0]).map_or(0, |v| v.len() as u64)
}

/// Counts the optimal solutions of `level` under `rule` (`None` when unsolvable or when the
/// search stores more than `limits.max_states` positions).
pub fn optimal_solutions(
    level: &Level,
    rule: WalkRule,
    limits: &Limits,
) -> Result<Option<Optimal>, Error> {
    with_puzzle(level, rule, CountTask(limits))
}

/// What exact search says about a level (its fields in the order of the JSON contract,
/// alphabetical).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verified {
    /// Least difficulty at `factor` (pushes + factor × block changes).
    pub difficulty: u64,
    /// The block-change factor.
    pub factor: u64,
    /// Optimal push sequences.
    pub optimal: u64,
    /// Fewest pushes (breadth-first search).
    pub pushes: u64,
    /// Reachable positions (blocks indistinguishable).
    pub states: u64,
    /// Whether the optimal solution is unique up to move order.
    pub unique: bool,
}

/// Verifies `level` under the `free` rule by exact search. `None` when a search hits
/// `limits` or the level is unsolvable.
pub fn verify(level: &Level, factor: u64, limits: &Limits) -> Result<Option<Verified>, Error> {
    let bfs = solve(level, WalkRule::Free, "bfs", factor, limits)?;
    if bfs.status != Status::Solved {
        return Ok(None);
    }
    let dif = solve(level, WalkRule::Free, "difficulty", factor, limits)?;
    if dif.status != Status::Solved {
        return Ok(None);
    }
    let Some(opt) = optimal_solutions(level, WalkRule::Free, limits)? else {
        return Ok(None);
    };
    let pushes = bfs.length.expect("solved");
    if opt.pushes != pushes {
        return Err(Error::Internal(format!(
            "the solution count found {} pushes, breadth-first search {pushes}",
            opt.pushes
        )));
    }
    let e = space(level, WalkRule::Free, limits)?;
    if e.limit.is_some() {
        return Ok(None);
    }
    Ok(Some(Verified {
        pushes,
        difficulty: dif.difficulty_u64().expect("solved"),
        factor,
        optimal: opt.sequences,
        unique: opt.up_to_order == 1,
        states: e.states,
    }))
}

/// The requests of `floe generate`.
#[derive(Clone, Debug)]
pub struct Request {
    /// Board and generator settings; `pushes` is ignored (drawn from `min_pushes..=`).
    pub params: GenParams,
    /// Fewest pushes at least this.
    pub min_pushes: u64,
    /// Fewest pushes at most this (also the longest intended solution; default twice the
    /// minimum).
    pub max_pushes: Option<u64>,
    /// Least difficulty at least this.
    pub min_difficulty: Option<u64>,
    /// Block-change factor of the difficulty.
    pub factor: u64,
    /// Only levels whose optimal solution is unique up to move order.
    pub unique: bool,
    /// Levels wanted.
    pub count: usize,
    /// Seed of everything random.
    pub seed: u64,
    /// Give up when this instant passes.
    pub deadline: Option<Instant>,
    /// Positions a verification search may store before the candidate is dropped.
    pub max_states: u64,
    /// Raised by someone else to stop (a stop button); the levels found so far are kept.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Told the levels made of the levels wanted as the candidates are judged.
    pub progress: Option<crate::search::Tally>,
}

/// One emitted level (its fields in the order of the JSON contract, alphabetical).
#[derive(Clone, Debug, Serialize)]
pub struct Emitted {
    /// Number of the candidate that gave it (its random generator is derived from the seed
    /// and this number).
    pub candidate: u64,
    /// Pushes of the intended solution.
    pub intended: u64,
    /// The level (written as its text in the floe format, with its comment header).
    #[serde(serialize_with = "level_text")]
    pub level: Level,
    /// The exact figures.
    pub verified: Verified,
}

/// A level as the text of its file.
fn level_text<S: serde::Serializer>(l: &Level, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::games::ice::format::write_floe(
        std::slice::from_ref(l),
    ))
}

/// The answer of [`generate`] (serialised as its [`report`](Batch::report)).
#[derive(Clone, Debug)]
pub struct Batch {
    /// Levels that meet the request, at most `count`.
    pub levels: Vec<Emitted>,
    /// Candidates generated.
    pub candidates: u64,
    /// Whether the generation stopped because the machine's memory ran short (a candidate
    /// dropped then might have been kept with more: the levels are those of the candidates
    /// before it, as any run of the seed gives them).
    pub memory_short: bool,
}

impl Batch {
    /// The report of this batch when `asked` levels were asked for.
    pub fn report(&self, asked: usize) -> GenerateReport<'_> {
        GenerateReport {
            candidates: self.candidates,
            complete: self.levels.len() == asked,
            count: self.levels.len(),
            levels: &self.levels,
        }
    }
}

/// What `floe generate --json` prints, `/api/generate` answers and Python's `generate`
/// returns: whether all the levels asked for were found, and each with its figures and its
/// text. Its keys, and its levels', are in alphabetical order, as the contract has them.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct GenerateReport<'a> {
    /// Candidates generated.
    pub candidates: u64,
    /// Whether every level asked for was found.
    pub complete: bool,
    /// Levels found.
    pub count: usize,
    /// The levels.
    pub levels: &'a [Emitted],
}

/// The random generator of candidate `i` under `seed`.
pub fn candidate_rng(seed: u64, i: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(seed ^ i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

const BATCH: u64 = 32;
const MAX_CANDIDATES: u64 = 1 << 20;

/// One candidate: generate, repair, verify, filter.
fn candidate(req: &Request, i: u64) -> Result<Option<Emitted>, Error> {
    let mut rng = candidate_rng(req.seed, i);
    let lo = req.min_pushes.max(1) as usize;
    let hi = req.max_pushes.map_or(2 * lo, |q| q as usize).max(lo);
    let mut params = req.params.clone();
    params.pushes = rng.random_range(lo..=hi);
    let mut g = retrograde(&params, &mut rng)?;
    if (g.intended.len() as u64) < req.min_pushes {
        return Ok(None);
    }
    // every search of the candidate stops at the request's deadline and stop flag (and
    // Ctrl-C): a candidate never keeps the generator past its --timeout
    let mut limits = Limits::none().max_states(req.max_states);
    if let Some(d) = req.deadline {
        limits = limits.timeout(d.saturating_duration_since(Instant::now()));
    }
    if let Some(s) = &req.stop {
        limits = limits.stop_on(s.clone());
    }
    repair(&mut g, &limits, &mut rng)?;
    let Some(v) = verify(&g.level, req.factor, &limits)? else {
        return Ok(None);
    };
    let ok = v.pushes >= req.min_pushes
        && req.max_pushes.is_none_or(|q| v.pushes <= q)
        && req.min_difficulty.is_none_or(|d| v.difficulty >= d)
        && (!req.unique || v.unique);
    if !ok {
        return Ok(None);
    }
    Ok(Some(Emitted {
        candidate: i,
        intended: g.intended.len() as u64,
        verified: v,
        level: g.level,
    }))
}

/// Whether the machine's memory runs short: the address space `ulimit -v` leaves, or an
/// allocation refused.
fn memory_runs_short() -> bool {
    crate::mem::address_exhausted() || crate::mem::out_of_memory()
}

/// Generates levels until `req.count` meet the request, or the deadline passes. Candidates
/// run in parallel in fixed batches and are taken in candidate order, so the result does not
/// depend on the number of threads.
pub fn generate(req: &Request) -> Result<Batch, Error> {
    req.params.check()?;
    let mut levels = Vec::new();
    let mut next = 0u64;
    let mut memory_short = false;
    while levels.len() < req.count && next < MAX_CANDIDATES {
        let stopped = req
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        if stopped
            || req.deadline.is_some_and(|d| Instant::now() >= d)
            || crate::search::interrupted()
        {
            break;
        }
        let found: Vec<(Result<Option<Emitted>, Error>, bool)> = (next..next + BATCH)
            .into_par_iter()
            .map(|i| {
                let c = candidate(req, i);
                // a candidate dropped while memory ran short is not the seed's answer
                let short = matches!(c, Ok(None)) && memory_runs_short();
                (c, short)
            })
            .collect();
        for (i, (f, short)) in found.into_iter().enumerate() {
            if short {
                memory_short = true;
                next += i as u64;
                break;
            }
            if let Some(e) = f? {
                if levels.len() < req.count {
                    levels.push(e);
                }
            }
        }
        if memory_short {
            break;
        }
        next += BATCH;
        if let Some(p) = &req.progress {
            p.tell(levels.len() as u64, Some(req.count as u64));
        }
    }
    if let Some(p) = &req.progress {
        p.end(levels.len() as u64);
    }
    for (k, e) in levels.iter_mut().enumerate() {
        let v = &e.verified;
        let l = &mut e.level;
        l.title = Some(format!("generated {} #{}", req.seed, k + 1));
        l.comments = vec![
            format!(
                "{}×{}, {} targets, {} blocks; seed {}, candidate {}",
                l.rows(),
                l.cols(),
                l.target_count(),
                l.block_count(),
                req.seed,
                e.candidate
            ),
            format!("intended pushes: {}", e.intended),
            format!("fewest pushes: {}", v.pushes),
            format!("least difficulty: {} (factor {})", v.difficulty, v.factor),
            format!(
                "optimal solutions: {} ({} up to move order)",
                v.optimal,
                if v.unique { "unique" } else { "not unique" }
            ),
            format!("reachable states: {}", v.states),
        ];
    }
    Ok(Batch {
        levels,
        candidates: next,
        memory_short,
    })
}

/// One row of the shortcut report.
#[derive(Clone, Debug, Serialize)]
pub struct ReportRow {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Targets.
    pub targets: usize,
    /// Backward pushes asked for.
    pub pushes: usize,
    /// Levels generated.
    pub levels: u64,
    /// Levels whose intended solution had the asked length (the generator did not stop
    /// early).
    pub full: u64,
    /// Levels whose fewest pushes equal the intended number, before the repair.
    pub exact_before: u64,
    /// The same after the repair.
    pub exact_after: u64,
    /// Levels the search could not settle within the state limit.
    pub unsettled: u64,
    /// Whether every sample was measured (false when Ctrl-C cut the row short: `levels`
    /// says how many were).
    pub complete: bool,
}

/// For every size, target count and push count: how often the fewest pushes equal the
/// intended pushes, before and after the shortcut repair. `samples` levels per setting,
/// blocks at most `targets + extra_blocks`; deterministic in `seed`.
pub fn shortcut_report(
    sizes: &[(usize, usize)],
    targets: &[usize],
    pushes: &[usize],
    extra_blocks: usize,
    samples: u64,
    seed: u64,
) -> Result<Vec<ReportRow>, Error> {
    let mut settings = Vec::new();
    for &(r, c) in sizes {
        for &t in targets {
            for &p in pushes {
                settings.push((r, c, t, p));
            }
        }
    }
    settings
        .into_par_iter()
        .enumerate()
        .map(|(k, (rows, cols, t, p))| {
            let params = GenParams {
                rows,
                cols,
                targets: t,
                max_blocks: (t + extra_blocks).min(rows * cols),
                pushes: p,
                walls: false,
            };
            let limits = Limits::none().max_states(2_000_000);
            let mut row = ReportRow {
                rows,
                cols,
                targets: t,
                pushes: p,
                levels: samples,
                full: 0,
                exact_before: 0,
                exact_after: 0,
                unsettled: 0,
                complete: true,
            };
            for i in 0..samples {
                if crate::search::interrupted() {
                    row.levels = i;
                    row.complete = false;
                    break;
                }
                let mut rng = candidate_rng(seed ^ (k as u64) << 40, i);
                let mut g = retrograde(&params, &mut rng)?;
                let n = g.intended.len() as u64;
                if n == p as u64 {
                    row.full += 1;
                }
                match repair(&mut g, &limits, &mut rng)? {
                    (Some(b), Some(a)) => {
                        row.exact_before += u64::from(b == n);
                        row.exact_after += u64::from(a == n);
                    }
                    _ => row.unsettled += 1,
                }
            }
            Ok(row)
        })
        .collect()
}

#[cfg(test)]
mod tests;
