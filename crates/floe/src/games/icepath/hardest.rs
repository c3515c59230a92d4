//! The hardest ice path levels of a size (`floe hardest`): a board of ice with `K` rocks and a
//! start; its level puts the exit on the cell that needs the most moves to pass over.
//!
//! One breadth-first search over the player's stops gives every cell's fewest moves to pass
//! over at once: a cell is passed over at depth `d + 1` when a slide from a stop of depth `d`
//! crosses or ends on it. The exit placed there changes nothing before (no earlier slide
//! crossed it) and ends the slide that reaches it, so that number is the level's fewest
//! moves. On boards of up to 64 cells the search works on bit masks (one `OR` per slide);
//! the exact search enumerates the rock sets that are the least of their images under the
//! symmetries of the rectangle, and the starts and exits likewise under the symmetries that
//! keep the rocks (and the start). The annealing moves a rock or the start, one cell or
//! anywhere, on boards of any size; it scores a board by the search of `reach` (bit masks
//! per row up to 64 rows and 64 columns, cell by cell beyond).
//!
//! What varies is [`IcePathHardest`] (the rocks: default and range); a program calls
//! [`hardest`] with it (both re-exported by the game's module), the erased face reads it from
//! named counts.

use super::level::{Cell, IcePath, Level, MAX_CELLS};
use super::reach::Reach;
use crate::error::Error;
use crate::game::hardest::{By, Counts, HardestOptions, HardestReport, Method};
use crate::game::Game;
use crate::generate::hardest::{
    self, binomial, report, symmetries, Best, Candidate, Found, MaskPerm, Parts,
};
use crate::grid::Pos;
use crate::search::LimitKind;
use rand::{Rng, RngExt};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde_json::{json, Map};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Where each slide of a board of up to 64 cells ends and the cells it passes over.
struct Tables {
    end: Vec<[u8; 4]>,
    pass: Vec<[u64; 4]>,
}

impl Tables {
    fn new(n: usize) -> Tables {
        Tables {
            end: vec![[0; 4]; n],
            pass: vec![[0; 4]; n],
        }
    }
    fn fill(&mut self, rows: usize, cols: usize, rocks: u64) {
        for c in 0..rows * cols {
            if rocks >> c & 1 == 1 {
                continue;
            }
            for (d, (dr, dc)) in DELTAS.iter().enumerate() {
                let (mut r, mut k) = ((c / cols) as isize, (c % cols) as isize);
                let mut mask = 0u64;
                loop {
                    let (nr, nk) = (r + dr, k + dc);
                    if nr < 0 || nk < 0 || nr >= rows as isize || nk >= cols as isize {
                        break;
                    }
                    let i = nr as usize * cols + nk as usize;
                    if rocks >> i & 1 == 1 {
                        break;
                    }
                    mask |= 1 << i;
                    (r, k) = (nr, nk);
                }
                self.end[c][d] = (r as usize * cols + k as usize) as u8;
                self.pass[c][d] = mask;
            }
        }
    }
    /// The fewest moves to pass over the hardest cell from `start`, and those cells.
    #[inline]
    fn longest(&self, start: usize) -> (u32, u64) {
        let mut reached = 1u64 << start;
        let mut frontier = reached;
        let mut covered = reached;
        let (mut depth, mut length, mut last) = (0u32, 0u32, 0u64);
        while frontier != 0 {
            let (mut next, mut pass) = (0u64, 0u64);
            let mut f = frontier;
            while f != 0 {
                let c = f.trailing_zeros() as usize;
                f &= f - 1;
                let (e, p) = (&self.end[c], &self.pass[c]);
                pass |= p[0] | p[1] | p[2] | p[3];
                next |= 1 << e[0] | 1 << e[1] | 1 << e[2] | 1 << e[3];
            }
            depth += 1;
            let new = pass & !covered;
            if new != 0 {
                (length, last) = (depth, new);
                covered |= new;
            }
            frontier = next & !reached;
            reached |= next;
        }
        (length, last)
    }
}

/// Up, down, left, right as row and column steps.
pub(super) const DELTAS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// What an ice path search varies beside the size: the `rocks` on the board (default 0; a
/// start and an exit need two cells of the rest).
///
/// ```
/// use floe::game::hardest::{Counts, HardestOptions};
/// use floe::games::icepath::{hardest, IcePathHardest};
/// let r = hardest(&HardestOptions::new(4, 4), &IcePathHardest { rocks: 2 }).unwrap();
/// assert_eq!((r.levels[0].length, r.best_count), (7, Some(1)));
/// let named = Counts::new().with("rocks", 2);
/// assert_eq!(IcePathHardest::from_counts(&named).unwrap(), IcePathHardest { rocks: 2 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IcePathHardest {
    /// Rocks on the board (default 0).
    pub rocks: usize,
}

impl IcePathHardest {
    /// The names of its counts, as the erased face and the report's `counts` give them.
    pub const COUNTS: [&'static str; 1] = ["rocks"];

    /// The options named in `counts`, the default for a count not given; a count of another
    /// game (`blocks`, `targets`, `walls`, `floor`) is refused by its flag.
    pub fn from_counts(counts: &Counts) -> Result<IcePathHardest, Error> {
        let [rocks] = counts.read("the ice path (it counts --rocks)", Self::COUNTS)?;
        Ok(IcePathHardest {
            rocks: rocks.unwrap_or(IcePathHardest::default().rocks),
        })
    }

    /// The counts by name, as the report gives them.
    pub fn counts(&self) -> Counts {
        Counts::new().with(Self::COUNTS[0], self.rocks)
    }

    /// Refuses a board these options cannot make on `rows × cols` (rows and columns from 1, at
    /// most [`MAX_CELLS`] cells, room for the rocks, a start and an exit).
    pub fn check(&self, rows: usize, cols: usize) -> Result<(), Error> {
        let n = rows.saturating_mul(cols);
        if rows == 0 || cols == 0 {
            return Err(Error::invalid(
                "a board needs at least one row and one column",
            ));
        }
        if n > MAX_CELLS {
            return Err(Error::invalid(format!(
                "a {rows}×{cols} board has more than {MAX_CELLS} cells"
            )));
        }
        let k = self.rocks;
        if n < 2 {
            return Err(Error::invalid(format!(
                "a {rows}×{cols} board is too small for an ice path: a start and an exit need \
                 two cells"
            )));
        }
        if k > n - 2 {
            return Err(Error::invalid(format!(
                "{k} rocks do not fit a {rows}×{cols} board: at most {} (a start and an exit need two cells)",
                n.saturating_sub(2)
            )));
        }
        Ok(())
    }
}

/// `floe hardest` for the ice path: the hardest levels of `o.rows × o.cols` with `board`'s
/// rocks, each verified (see [`IcePathHardest`] for an example).
pub fn hardest(o: &HardestOptions, board: &IcePathHardest) -> Result<HardestReport, Error> {
    let t0 = Instant::now();
    o.check(IcePath.info())?;
    if o.by == By::Difficulty {
        return Err(Error::invalid(
            "the ice path has no difficulty measure: its levels are ranked by their fewest moves",
        ));
    }
    let (rows, cols) = (o.rows, o.cols);
    board.check(rows, cols)?;
    let (n, k) = (rows * cols, board.rocks);
    let found = match o.method {
        Method::Exact => {
            if n > 64 {
                return Err(Error::invalid(format!(
                    "the exact search takes boards of up to 64 cells, not {n}; use --anneal"
                )));
            }
            let groups = symmetries(rows, cols).len() as u64;
            let count = binomial(n as u64, k as u64).saturating_mul((n - k) as u64) / groups;
            o.check_exact(count, o.max_exact, &format!("{rows}×{cols} with {k} rocks"))?;
            exact(o, k, t0)
        }
        Method::Anneal => anneal(o, k, t0),
    }?;
    let found = found.try_map(|c| level_of(rows, cols, c))?;
    report(IcePath, o, found, board.counts().to_map(), t0)
}

/// A level found: its rocks, start and exit as cell lists, and its fewest moves.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    rocks: Vec<u16>,
    start: u16,
    exit: u16,
}

fn level_of(rows: usize, cols: usize, c: Candidate<Key>) -> Result<Candidate<Level>, Error> {
    let key = c.level;
    let mut cells = vec![Cell::Ice; rows * cols];
    for &r in &key.rocks {
        cells[r as usize] = Cell::Rock;
    }
    cells[key.exit as usize] = Cell::Exit;
    let pos = |i: u16| Pos::new(i as usize / cols, i as usize % cols);
    let mut level = Level::new(rows, cols, cells, pos(key.start))?;
    level.title = Some(format!(
        "hardest {rows}x{cols} ice path with {} rock{}: {} moves",
        key.rocks.len(),
        if key.rocks.len() == 1 { "" } else { "s" },
        c.length
    ));
    let mut extra = c.extra;
    let e = pos(key.exit);
    extra.insert("exit".into(), json!([e.row, e.col]));
    Ok(Candidate {
        level,
        length: c.length,
        difficulty: None,
        extra,
    })
}

/// Calls `f` with every mask of `k` bits among bits `from..n`, in increasing order.
fn combinations(n: usize, k: usize, from: usize, mut f: impl FnMut(u64) -> bool) {
    let m = n - from;
    if k > m {
        return;
    }
    if k == 0 {
        f(0);
        return;
    }
    let mut x: u64 = (1u64 << k) - 1;
    loop {
        if !f(x << from) {
            return;
        }
        // Gosper's hack: the next larger number with the same count of ones (`r` wraps to 0
        // past the 64th bit, which ends the loop)
        let c = x & x.wrapping_neg();
        let r = x.wrapping_add(c);
        x = (((r ^ x) >> 2) / c) | r;
        if m < 64 && x >> m != 0 || r == 0 {
            return;
        }
    }
}

/// The exact search over every rock set, start and exit up to symmetry.
fn exact(o: &HardestOptions, k: usize, t0: Instant) -> Result<Found<Key>, Error> {
    let (rows, cols) = (o.rows, o.cols);
    let n = rows * cols;
    let perms = MaskPerm::all(rows, cols);
    let deadline = o.limits.deadline_from(t0);
    let stopped: AtomicBool = AtomicBool::new(false);
    let limit = std::sync::Mutex::new(None);
    let searched = AtomicU64::new(0);
    // work items: the lowest one or two rocks
    let heads: Vec<u64> = match k {
        0 => vec![0],
        1 => (0..n).map(|i| 1u64 << i).collect(),
        _ => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| 1u64 << i | 1u64 << j))
            .collect(),
    };
    let parts = Parts::new(o, heads.len());
    let bests: Vec<Best<Key>> = heads
        .par_iter()
        .map(|&head| {
            let _part = parts.one();
            let mut best = Best::new(o.top);
            if stopped.load(Ordering::Relaxed) {
                return best;
            }
            if let Some(kind) = o.limits.check(deadline) {
                stopped.store(true, Ordering::Relaxed);
                *limit.lock().unwrap_or_else(|e| e.into_inner()) = Some(kind);
                return best;
            }
            let rest = k.saturating_sub(head.count_ones() as usize);
            // the cell after the head's highest rock (no rock: the first cell)
            let from = 64 - head.leading_zeros() as usize;
            let mut t = Tables::new(n);
            let mut count = 0u64;
            let mut since = 0u32;
            combinations(n, rest, from, |tail| {
                // the limits, every 1,024 rock sets: a work item may take seconds
                since += 1;
                if since >= 1 << 10 {
                    since = 0;
                    if stopped.load(Ordering::Relaxed) {
                        return false;
                    }
                    if let Some(kind) = o.limits.check(deadline) {
                        stopped.store(true, Ordering::Relaxed);
                        *limit.lock().unwrap_or_else(|e| e.into_inner()) = Some(kind);
                        return false;
                    }
                }
                let rocks = head | tail;
                if perms[1..].iter().any(|p| p.apply(rocks) < rocks) {
                    return true;
                }
                let stab: Vec<&MaskPerm> = perms[1..]
                    .iter()
                    .filter(|p| p.apply(rocks) == rocks)
                    .collect();
                t.fill(rows, cols, rocks);
                for s in 0..n {
                    if rocks >> s & 1 == 1 || stab.iter().any(|p| p.map[s] < s) {
                        continue;
                    }
                    count += 1;
                    let (length, exits) = t.longest(s);
                    if length == 0 {
                        continue;
                    }
                    let length = u64::from(length);
                    if best.best.is_some_and(|b| length < b) && length < best.floor() {
                        continue;
                    }
                    let fix: Vec<&&MaskPerm> = stab.iter().filter(|p| p.map[s] == s).collect();
                    let mut e = exits;
                    while e != 0 {
                        let x = e.trailing_zeros() as usize;
                        e &= e - 1;
                        if fix.iter().any(|p| p.map[x] < x) {
                            continue;
                        }
                        best.offer(length, key(rocks, s, x));
                    }
                }
                true
            });
            searched.fetch_add(count, Ordering::Relaxed);
            best
        })
        .collect();
    parts.end();
    let best = bests.into_iter().fold(Best::new(o.top), |a, b| a.merge(b));
    let limit = limit.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(finish(best, searched.into_inner(), limit, true))
}

fn key(rocks: u64, start: usize, exit: usize) -> Key {
    let mut v = Vec::new();
    let mut m = rocks;
    while m != 0 {
        v.push(m.trailing_zeros() as u16);
        m &= m - 1;
    }
    Key {
        rocks: v,
        start: start as u16,
        exit: exit as u16,
    }
}

fn finish(best: Best<Key>, searched: u64, limit: Option<LimitKind>, exact: bool) -> Found<Key> {
    let best_count = (exact && limit.is_none()).then_some(best.best_count);
    Found {
        levels: best
            .into_vec()
            .into_iter()
            .map(|(length, key)| Candidate {
                level: key,
                length,
                difficulty: None,
                extra: Map::new(),
            })
            .collect(),
        searched,
        best_count,
        limit,
        exhaustive: exact && limit.is_none(),
    }
}

/// The least image of a level under the symmetries (cells as numbers, rocks sorted).
fn canonical(syms: &[Vec<usize>], rocks: &[bool], start: usize, exit: usize) -> Key {
    syms.iter()
        .map(|m| {
            let mut r: Vec<u16> = (0..rocks.len())
                .filter(|&i| rocks[i])
                .map(|i| m[i] as u16)
                .collect();
            r.sort_unstable();
            Key {
                rocks: r,
                start: m[start] as u16,
                exit: m[exit] as u16,
            }
        })
        .min()
        .expect("the identity is there")
}

/// One board of the annealing: rocks and start, and what the search says of it.
#[derive(Clone)]
struct Board {
    rocks: Vec<bool>,
    start: usize,
    length: u32,
    score: f64,
    exits: Vec<usize>,
}

impl Board {
    /// A piece drawn at random: the start (always when there are no rocks, else one time in
    /// four) or one of the `k` rocks.
    fn pick<R: Rng>(&self, k: usize, rng: &mut R) -> usize {
        if k == 0 || rng.random_bool(0.25) {
            self.start
        } else {
            let which = rng.random_range(0..k);
            (0..self.rocks.len())
                .filter(|&c| self.rocks[c])
                .nth(which)
                .unwrap_or(0)
        }
    }

    /// The piece on `from` (the start or a rock) moves to the free cell `to`.
    fn move_piece(&mut self, from: usize, to: usize) {
        if from == self.start {
            self.start = to;
        } else {
            self.rocks[from] = false;
            self.rocks[to] = true;
        }
    }

    fn evaluate(&mut self, rows: usize, cols: usize) {
        let reach = Reach::of(rows, cols, &self.rocks, self.start);
        let mean = reach.mean();
        (self.length, self.exits) = (reach.length, reach.exits);
        // the length decides; among equals, boards whose cells are far on average lead on
        self.score = f64::from(self.length) + 0.5 * mean / f64::from(self.length.max(1));
    }
}

/// Simulated annealing from `o.restarts` seeded restarts.
fn anneal(o: &HardestOptions, k: usize, t0: Instant) -> Result<Found<Key>, Error> {
    let (rows, cols) = (o.rows, o.cols);
    let n = rows * cols;
    let syms = symmetries(rows, cols);
    let start = |rng: &mut Pcg64Mcg| {
        let mut cells: Vec<usize> = (0..n).collect();
        for i in 0..n {
            let j = rng.random_range(i..n);
            cells.swap(i, j);
        }
        let mut rocks = vec![false; n];
        for &c in &cells[..k] {
            rocks[c] = true;
        }
        let mut b = Board {
            rocks,
            start: cells[k],
            length: 0,
            score: 0.0,
            exits: Vec::new(),
        };
        b.evaluate(rows, cols);
        Ok(b)
    };
    // with --time (the anytime annealing) a change may also swap two rows or two columns,
    // or slide a rock along its row or column
    let rich = o.limits.timeout.is_some();
    let neighbour = |cur: &Board, rng: &mut Pcg64Mcg| {
        let mut next = cur.clone();
        if rich && rng.random_bool(0.05) {
            swap_lines(&mut next, rows, cols, rng);
        } else if rich && rng.random_bool(0.3) {
            shift(&mut next, rows, cols, k, rng);
        } else {
            change(&mut next, rows, cols, k, rng);
        }
        next.evaluate(rows, cols);
        Ok(next)
    };
    // the polish's neighbourhood: every rock or the start moved to any free cell
    let single_changes = |cur: &Board| {
        let mut out = Vec::new();
        let free: Vec<usize> = (0..n)
            .filter(|&c| !cur.rocks[c] && c != cur.start)
            .collect();
        for from in (0..n).filter(|&c| cur.rocks[c]).chain([cur.start]) {
            for &to in &free {
                let mut next = cur.clone();
                next.move_piece(from, to);
                next.evaluate(rows, cols);
                out.push(next);
            }
        }
        Ok(out)
    };
    let record = |b: &Board, best: &mut Best<Key>| {
        let length = u64::from(b.length);
        if length > 0 && length >= best.floor() {
            for &e in &b.exits {
                best.insert(length, canonical(&syms, &b.rocks, b.start, e));
            }
        }
    };
    let (best, searched, limit) = hardest::anneal(
        o,
        t0,
        64,
        start,
        neighbour,
        |b| b.score,
        record,
        single_changes,
        hardest::Anytime::Tempering,
    )?;
    Ok(finish(best, searched, limit, false))
}

/// Two rows or two columns of the board trade places, rocks and start with them.
fn swap_lines<R: Rng>(b: &mut Board, rows: usize, cols: usize, rng: &mut R) {
    let by_rows = rng.random_bool(0.5);
    let lines = if by_rows { rows } else { cols };
    if lines < 2 {
        return;
    }
    let x = rng.random_range(0..lines);
    let y = (x + rng.random_range(1..lines)) % lines;
    let image = |c: usize| {
        let (r, k) = (c / cols, c % cols);
        let swap = |v: usize| {
            if v == x {
                y
            } else if v == y {
                x
            } else {
                v
            }
        };
        if by_rows {
            swap(r) * cols + k
        } else {
            r * cols + swap(k)
        }
    };
    let mut rocks = vec![false; b.rocks.len()];
    for (c, &rock) in b.rocks.iter().enumerate() {
        rocks[image(c)] = rock;
    }
    b.rocks = rocks;
    b.start = image(b.start);
}

/// A rock (or the start) moves any distance along its row or column to a free cell: the
/// change that scales with the board (a step of one cell is small on 16 × 24, a jump
/// anywhere forgets the line the rock served).
fn shift<R: Rng>(b: &mut Board, rows: usize, cols: usize, k: usize, rng: &mut R) {
    for _ in 0..16 {
        let from = b.pick(k, rng);
        let (r, c) = (from / cols, from % cols);
        let to = if rng.random_bool(0.5) {
            if cols < 2 {
                continue;
            }
            r * cols + (c + rng.random_range(1..cols)) % cols
        } else {
            if rows < 2 {
                continue;
            }
            ((r + rng.random_range(1..rows)) % rows) * cols + c
        };
        if b.rocks[to] || to == b.start {
            continue;
        }
        b.move_piece(from, to);
        return;
    }
}

/// A random change: a rock or the start moves to a neighbouring cell or anywhere free.
fn change<R: Rng>(b: &mut Board, rows: usize, cols: usize, k: usize, rng: &mut R) {
    let n = rows * cols;
    let free = |b: &Board, c: usize| !b.rocks[c] && c != b.start;
    for _ in 0..16 {
        let near = rng.random_bool(0.5);
        let from = b.pick(k, rng);
        let to = if near {
            let (dr, dc) = DELTAS[rng.random_range(0..4)];
            let (r, c) = ((from / cols) as isize + dr, (from % cols) as isize + dc);
            if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
                continue;
            }
            r as usize * cols + c as usize
        } else {
            rng.random_range(0..n)
        };
        if !free(b, to) {
            continue;
        }
        b.move_piece(from, to);
        return;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::icepath::reach::pass_counts;
    use crate::generate::retrograde::candidate_rng;
    use crate::ops::{Request, SolveOptions};

    #[test]
    fn masks_and_cell_walks_agree() {
        let (rows, cols) = (5, 6);
        let mut rng = candidate_rng(7, 0);
        for _ in 0..200 {
            let rocks: Vec<bool> = (0..rows * cols).map(|_| rng.random_bool(0.2)).collect();
            let mask = (0..rows * cols)
                .filter(|&i| rocks[i])
                .fold(0u64, |m, i| m | 1 << i);
            let mut t = Tables::new(rows * cols);
            t.fill(rows, cols, mask);
            for s in (0..rows * cols).filter(|&s| !rocks[s]) {
                let pass = pass_counts(rows, cols, &rocks, s);
                let (length, exits) = t.longest(s);
                let max = pass.iter().flatten().copied().max().unwrap();
                assert_eq!(length, max);
                let want = (0..rows * cols)
                    .filter(|&i| max > 0 && pass[i] == Some(max))
                    .fold(0u64, |m, i| m | 1 << i);
                assert_eq!(exits, want);
            }
        }
    }

    #[test]
    fn a_shift_slides_one_piece_along_its_line() {
        let (rows, cols, k) = (4, 7, 3);
        let mut rng = candidate_rng(5, 0);
        let mut rocks = vec![false; rows * cols];
        for c in [3, 10, 25] {
            rocks[c] = true;
        }
        let b = Board {
            rocks,
            start: 15,
            length: 0,
            score: 0.0,
            exits: Vec::new(),
        };
        let (mut along_rows, mut along_cols) = (0, 0);
        for _ in 0..400 {
            let mut next = b.clone();
            shift(&mut next, rows, cols, k, &mut rng);
            let moved: Vec<(usize, usize)> = (0..rows * cols)
                .filter(|&c| b.rocks[c] != next.rocks[c])
                .map(|c| (c / cols, c % cols))
                .chain(
                    (b.start != next.start)
                        .then_some([b.start, next.start])
                        .into_iter()
                        .flatten()
                        .map(|c| (c / cols, c % cols)),
                )
                .collect();
            // one piece left one cell for another of its row or column, nothing else
            assert_eq!(moved.len(), 2, "{moved:?}");
            assert_eq!(next.rocks.iter().filter(|&&r| r).count(), k);
            assert!(!next.rocks[next.start]);
            let ((r0, c0), (r1, c1)) = (moved[0], moved[1]);
            assert!(r0 == r1 || c0 == c1, "{moved:?}");
            along_rows += usize::from(r0 == r1);
            along_cols += usize::from(c0 == c1);
        }
        assert!(
            along_rows > 100 && along_cols > 100,
            "{along_rows} {along_cols}"
        );
    }

    #[test]
    fn a_pass_count_is_the_fewest_moves_to_that_exit() {
        // every cell of a small cave as the exit, solved by the game face
        let rows_text = ["---#-", "-#---", "----#", "#----"];
        let (rows, cols) = (4, 5);
        let rocks: Vec<bool> = rows_text.concat().chars().map(|c| c == '#').collect();
        let pass = pass_counts(rows, cols, &rocks, 0);
        for e in 1..rows * cols {
            if rocks[e] {
                continue;
            }
            let mut text: Vec<char> = rows_text.concat().chars().collect();
            text[0] = '@';
            text[e] = '.';
            let body: String = text
                .chunks(cols)
                .map(|r| r.iter().collect::<String>() + "\n")
                .collect();
            let req = Request::from_text(format!("Game: icepath\n{body}"), "t")
                .resolve()
                .unwrap();
            let r = req.level.solve(&SolveOptions::default()).unwrap();
            assert_eq!(r.length.map(|l| l as u32), pass[e], "exit {e}");
        }
    }

    #[test]
    fn the_options_default_to_no_rock_and_refuse_ice_blocks_counts() {
        assert_eq!(IcePathHardest::default().rocks, 0);
        assert_eq!(
            IcePathHardest::from_counts(&Counts::new()).unwrap(),
            IcePathHardest::default()
        );
        let board = IcePathHardest::from_counts(&Counts::new().with("rocks", 5)).unwrap();
        assert_eq!(board.rocks, 5);
        assert_eq!(board.counts().iter().collect::<Vec<_>>(), [("rocks", 5)]);
        for name in ["blocks", "targets", "walls", "floor"] {
            let c = Counts::new().with("rocks", 1).with(name, 2);
            let e = IcePathHardest::from_counts(&c).unwrap_err().to_string();
            assert_eq!(
                e,
                format!("--{name} does not apply to the ice path (it counts --rocks)")
            );
        }
    }

    #[test]
    fn the_options_ranges() {
        let err = |rocks, rows, cols| {
            IcePathHardest { rocks }
                .check(rows, cols)
                .unwrap_err()
                .to_string()
        };
        assert!(IcePathHardest { rocks: 7 }.check(3, 3).is_ok());
        assert!(IcePathHardest { rocks: 0 }.check(1, 2).is_ok());
        assert_eq!(
            err(8, 3, 3),
            "8 rocks do not fit a 3×3 board: at most 7 (a start and an exit need two cells)"
        );
        assert_eq!(
            err(0, 1, 1),
            "a 1×1 board is too small for an ice path: a start and an exit need two cells"
        );
        assert_eq!(
            err(0, 0, 4),
            "a board needs at least one row and one column"
        );
        assert_eq!(
            err(0, MAX_CELLS, 2),
            format!("a {MAX_CELLS}×2 board has more than {MAX_CELLS} cells")
        );
    }

    #[test]
    fn a_typed_call_is_checked_and_answers_as_the_named_counts_do() {
        let mut o = HardestOptions::new(4, 4);
        o.top = 3;
        let typed = hardest(&o, &IcePathHardest { rocks: 2 }).unwrap();
        let named = Counts::new().with("rocks", 2);
        let erased = crate::ops::hardest("icepath", &o, &named).unwrap();
        assert_eq!(typed.level_lengths(), erased.level_lengths());
        assert_eq!((typed.levels[0].length, typed.best_count), (7, Some(1)));
        assert_eq!(typed.counts["rocks"].as_u64(), Some(2));
        assert_eq!(typed.counts, erased.counts);
        o.by = By::Difficulty;
        let e = hardest(&o, &IcePathHardest::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("no difficulty measure"), "{e}");
        o.by = By::Length;
        o.method = Method::Anneal;
        o.steps = 0;
        let e = hardest(&o, &IcePathHardest::default())
            .unwrap_err()
            .to_string();
        assert_eq!(e, "the annealing needs at least one restart and one step");
    }

    #[test]
    fn combinations_come_in_order_and_all() {
        let mut seen = Vec::new();
        combinations(6, 3, 1, |m| {
            seen.push(m);
            true
        });
        assert_eq!(seen.len(), 10);
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert!(seen.iter().all(|m| m.count_ones() == 3 && m & 1 == 0));
        let mut all = 0;
        combinations(64, 1, 0, |_| {
            all += 1;
            true
        });
        assert_eq!(all, 64);
    }
}
