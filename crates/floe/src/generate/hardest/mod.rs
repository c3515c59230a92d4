//! The hardest levels of a size (`floe hardest`): the levels whose optimal solution is the
//! longest, found by an exact search over every placement up to the symmetries of the
//! rectangle, or by simulated annealing from many seeded restarts where that is too large.
//!
//! Each game that has such a search implements [`Game::hardest`](crate::game::Game::hardest)
//! (the ice path in its own folder, ice blocks in [`ice`], PushPush from its census in
//! [`pushpush`]), and declares its typed options beside its search ([`ice::IceHardest`],
//! [`pushpush::PushPushHardest`]); what is written once is here (the options every game
//! shares, the named counts and the report are in [`crate::game::hardest`]): the symmetries,
//! the list of the best levels, the annealing schedule, and [`report`], which writes every
//! level found as a level file with its figures in the header, reads that text back and
//! solves it with the exact solver through the game face: a level whose length is not the
//! one the search claimed is an internal error, never printed.

pub mod ice;
pub mod pushpush;

use crate::error::Error;
use crate::game::hardest::{HardLevel, HardestOptions, HardestReport, Method};
use crate::game::{Game, ParamValues};
use crate::generate::retrograde::candidate_rng;
use crate::ops::{solve_typed, SolveOptions};
use crate::search::{LimitKind, Limits, Tally};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A level found by a game's search, with the figures the search claims for it.
#[derive(Clone, Debug)]
pub struct Candidate<L> {
    /// The level (titled with its figures).
    pub level: L,
    /// Its fewest moves.
    pub length: u64,
    /// Its least difficulty, when the search measured it.
    pub difficulty: Option<u64>,
    /// What else the game says of it (`exit`, `targets`, `boards_in_class`…).
    pub extra: Map<String, Value>,
}

/// What a game's search found.
#[derive(Clone, Debug)]
pub struct Found<L> {
    /// The best levels, best first.
    pub levels: Vec<Candidate<L>>,
    /// Placements (levels or boards) evaluated.
    pub searched: u64,
    /// Levels of the best value, up to symmetry, when the search counts them (exact).
    pub best_count: Option<u64>,
    /// The limit that stopped the search.
    pub limit: Option<LimitKind>,
    /// The search covered every placement.
    pub exhaustive: bool,
}

impl<L> Found<L> {
    /// The same answer with each level made by `f` (from a search's key to a level).
    pub fn try_map<M>(
        self,
        f: impl FnMut(Candidate<L>) -> Result<Candidate<M>, Error>,
    ) -> Result<Found<M>, Error> {
        Ok(Found {
            levels: self.levels.into_iter().map(f).collect::<Result<_, _>>()?,
            searched: self.searched,
            best_count: self.best_count,
            limit: self.limit,
            exhaustive: self.exhaustive,
        })
    }
}

/// How the levels were found, in the header of each: `exact` only for a search that tried
/// every placement; a stopped exact search and the annealing say that the levels are the
/// longest found, not proved the hardest.
pub fn search_words(method: Method, exhaustive: bool, limit: Option<LimitKind>) -> String {
    match (method, exhaustive) {
        (Method::Exact, true) => "exact".into(),
        (Method::Exact, false) => format!(
            "exact search stopped ({}): the longest found, not proved the hardest",
            limit.map_or("a limit", LimitKind::name)
        ),
        (Method::Anneal, _) => "annealing: the longest found, not proved the hardest".into(),
    }
}

/// Writes each level found, reads the text back, solves it with the exact solver and checks
/// the claimed figures: the report of `floe hardest`.
pub fn report<G: Game>(
    g: G,
    o: &HardestOptions,
    found: Found<G::Level>,
    counts: Map<String, Value>,
    t0: Instant,
) -> Result<HardestReport, Error> {
    let mut levels = Vec::new();
    let mut params = ParamValues::default();
    // A search stopped by Ctrl-C or a stop button still reports its best levels, verified:
    // they solve within a moment, so the stop is set aside for at most 0.6 s while they are
    // solved (Ctrl-C ends the process a second after it is pressed), then raised again.
    let stopped = found.limit == Some(LimitKind::Interrupted);
    let set_aside = stopped && crate::search::interrupted();
    if set_aside {
        crate::search::clear_interrupt();
    }
    let until = Instant::now() + std::time::Duration::from_millis(600);
    let solve_limits = || {
        if stopped {
            Limits::none().timeout(until.saturating_duration_since(Instant::now()))
        } else {
            Limits {
                stop: o.limits.stop.clone(),
                ..Limits::none()
            }
        }
    };
    let how = search_words(o.method, found.exhaustive, found.limit);
    let verified = (|| -> Result<(), Error> {
        for c in found.levels {
            let mut figures = format!("; {} {}", c.length, g.info().moves_word());
            if let Some(d) = c.difficulty {
                figures.push_str(&format!(", least difficulty {d}"));
            }
            for (k, v) in &c.extra {
                figures.push_str(&format!(", {k} {v}"));
            }
            let text = format!(
                "; floe hardest {}, {}×{}: {how}\n{figures}\n{}",
                g.info().name,
                o.rows,
                o.cols,
                g.write(std::slice::from_ref(&c.level), None)?
            );
            let mut again = g.parse(&text, "hardest", None)?;
            if again.len() != 1 {
                return Err(Error::Internal(
                    "a hardest level wrote as more than one".into(),
                ));
            }
            let mut level = again.remove(0);
            g.configure(&mut level, &o.params)?;
            let so = SolveOptions {
                algorithm: Some("bfs".into()),
                difficulty: false,
                limits: solve_limits(),
                ..SolveOptions::default()
            };
            let r = solve_typed(g, &level, &so)?;
            if r.limit.is_some() {
                return Err(Error::invalid("stopped while verifying the levels found"));
            }
            if r.length != Some(c.length) {
                return Err(Error::Internal(format!(
                    "a level the search claims needs {} {} solves in {:?}:\n{text}",
                    c.length,
                    g.info().moves_word(),
                    r.length
                )));
            }
            params = r.params.clone();
            if let Some(d) = c.difficulty {
                let so = SolveOptions {
                    algorithm: Some("difficulty".into()),
                    factor: o.factor,
                    limits: solve_limits(),
                    ..SolveOptions::default()
                };
                let rd = solve_typed(g, &level, &so)?;
                let value = rd.difficulty.as_ref().and_then(|x| x.value.as_u64());
                if value != Some(d) {
                    return Err(Error::Internal(format!(
                    "a level the search claims has least difficulty {d} solves with {value:?}:\n{text}"
                )));
                }
            }
            levels.push(HardLevel {
                level: text,
                length: c.length,
                difficulty: c.difficulty,
                moves: r.moves,
                extra: c.extra,
            });
        }
        Ok(())
    })();
    if set_aside {
        crate::search::interrupt();
    }
    verified?;
    let anneal = o.method == Method::Anneal;
    Ok(HardestReport {
        game: g.info().name,
        rows: o.rows,
        cols: o.cols,
        counts,
        params,
        method: o.method.name(),
        by: o.by.name(),
        seed: anneal.then_some(o.seed),
        restarts: anneal.then_some(o.restarts),
        steps: anneal.then_some(o.steps),
        searched: found.searched,
        exhaustive: found.exhaustive,
        best_count: found.best_count,
        limit: found.limit.map(LimitKind::name),
        seconds: t0.elapsed().as_secs_f64(),
        levels,
    })
}

/// The symmetries of a `rows × cols` rectangle as cell permutations (`map[cell]` = image of
/// `cell`, row-major; identity first): 8 for a square, 4 otherwise.
pub fn symmetries(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let square = rows == cols;
    for t in 0..8 {
        let transpose = t & 4 != 0;
        if transpose && !square {
            continue;
        }
        let map = (0..rows * cols)
            .map(|i| {
                let (mut r, mut c) = (i / cols, i % cols);
                if t & 1 != 0 {
                    r = rows - 1 - r;
                }
                if t & 2 != 0 {
                    c = cols - 1 - c;
                }
                if transpose {
                    std::mem::swap(&mut r, &mut c);
                }
                r * cols + c
            })
            .collect::<Vec<usize>>();
        if !out.contains(&map) {
            out.push(map);
        }
    }
    out
}

/// A cell permutation applied to `u64` masks a byte at a time (boards of up to 64 cells).
#[derive(Clone, Debug)]
pub struct MaskPerm {
    /// `map[cell]`: the image of a cell.
    pub map: Vec<usize>,
    table: Vec<[u64; 256]>,
}

impl MaskPerm {
    /// The permutation `map` (at most 64 cells).
    pub fn new(map: &[usize]) -> MaskPerm {
        let bytes = map.len().div_ceil(8);
        let mut table = vec![[0u64; 256]; bytes];
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
        MaskPerm {
            map: map.to_vec(),
            table,
        }
    }
    /// The image of a mask.
    #[inline]
    pub fn apply(&self, m: u64) -> u64 {
        let mut out = 0;
        for (k, t) in self.table.iter().enumerate() {
            out |= t[(m >> (8 * k)) as usize & 0xff];
        }
        out
    }
    /// Every symmetry of a `rows × cols` rectangle (at most 64 cells), identity first.
    pub fn all(rows: usize, cols: usize) -> Vec<MaskPerm> {
        symmetries(rows, cols)
            .iter()
            .map(|m| MaskPerm::new(m))
            .collect()
    }
}

/// `n` choose `k`, saturating.
pub fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
        if r > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    r as u64
}

/// The best levels seen, by value (higher first) and then by key (lower first), at most
/// `keep` of them; with the count of levels of the best value. The order does not depend on
/// the order they were offered in, so parallel searches give the same list.
#[derive(Clone, Debug)]
pub struct Best<K: Ord> {
    keep: usize,
    items: BTreeMap<(std::cmp::Reverse<u64>, K), ()>,
    /// The best value seen.
    pub best: Option<u64>,
    /// Levels of the best value seen.
    pub best_count: u64,
}

impl<K: Ord + Clone> Best<K> {
    /// Keeps `keep` levels.
    pub fn new(keep: usize) -> Self {
        Best {
            keep,
            items: BTreeMap::new(),
            best: None,
            best_count: 0,
        }
    }
    /// The lowest value that can still enter the list.
    #[inline]
    pub fn floor(&self) -> u64 {
        if self.items.len() < self.keep {
            0
        } else {
            self.items
                .keys()
                .next_back()
                .map_or(0, |(std::cmp::Reverse(v), _)| *v)
        }
    }
    /// Offers a level of value `v`: counted once per call (the caller offers each level
    /// once).
    pub fn offer(&mut self, v: u64, key: K) {
        match self.best {
            Some(b) if v < b => {}
            Some(b) if v == b => self.best_count += 1,
            _ => {
                self.best = Some(v);
                self.best_count = 1;
            }
        }
        self.insert(v, key);
    }
    /// Keeps a level without counting it.
    pub fn insert(&mut self, v: u64, key: K) {
        if self.items.len() >= self.keep && v < self.floor() {
            return;
        }
        self.items.insert((std::cmp::Reverse(v), key), ());
        while self.items.len() > self.keep {
            self.items.pop_last();
        }
    }
    /// The highest value kept (whether offered or inserted).
    pub fn top_value(&self) -> Option<u64> {
        self.items.keys().next().map(|(std::cmp::Reverse(v), _)| *v)
    }
    /// Both lists together.
    pub fn merge(mut self, other: Self) -> Self {
        match (self.best, other.best) {
            (Some(a), Some(b)) if a == b => self.best_count += other.best_count,
            (_, Some(b)) if self.best.is_none_or(|a| b > a) => {
                self.best = Some(b);
                self.best_count = other.best_count;
            }
            _ => {}
        }
        for ((std::cmp::Reverse(v), k), ()) in other.items {
            self.insert(v, k);
        }
        self
    }
    /// The levels, best first.
    pub fn into_vec(self) -> Vec<(u64, K)> {
        self.items
            .into_keys()
            .map(|(std::cmp::Reverse(v), k)| (v, k))
            .collect()
    }
}

/// The annealing's temperature after `step` of `steps`: geometric from `hot` to `cold`.
pub fn temperature(step: u64, steps: u64, hot: f64, cold: f64) -> f64 {
    let f = step as f64 / steps.max(1) as f64;
    hot * (cold / hot).powf(f)
}

/// Whether the annealing takes a change of score `delta` at temperature `t`, `u` a uniform
/// draw in [0, 1).
pub fn accept(delta: f64, t: f64, u: f64) -> bool {
    delta >= 0.0 || u < (delta / t).exp()
}

/// The parts of an exact search (work items run in parallel), told to the options'
/// `progress` as each ends: [`Parts::one`] gives a part's guard, which tells on drop, and
/// [`Parts::end`] tells the end of the search.
pub(crate) struct Parts<'a> {
    tally: Option<&'a Tally>,
    total: u64,
    done: AtomicU64,
}

impl<'a> Parts<'a> {
    /// `total` parts, told to `o.progress`.
    pub(crate) fn new(o: &'a HardestOptions, total: usize) -> Parts<'a> {
        Parts {
            tally: o.progress.as_ref(),
            total: total as u64,
            done: AtomicU64::new(0),
        }
    }
    /// A part begins; it is told done when the guard is dropped.
    pub(crate) fn one(&self) -> Part<'_, 'a> {
        Part(self)
    }
    /// The search ends (every part done, or the rest skipped by a limit).
    pub(crate) fn end(&self) {
        if let Some(t) = self.tally {
            t.end(self.done.load(Ordering::Relaxed));
        }
    }
}

/// A part of an exact search under way ([`Parts::one`]).
pub(crate) struct Part<'p, 'a>(&'p Parts<'a>);

impl Drop for Part<'_, '_> {
    fn drop(&mut self) {
        let p = self.0;
        let done = p.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(t) = p.tally {
            t.tell(done, Some(p.total));
        }
    }
}

/// Simulated annealing, one seeded run per restart (`o.restarts`, in parallel): a run starts
/// from `start`, proposes `neighbour`s for `o.steps` steps and takes each by [`accept`] on
/// `score` at the [`temperature`] (1 down to 0.02); `record` offers every state taken to the
/// run's best levels. The limits are checked every `check_every` steps. Returns the runs'
/// best levels merged, the steps taken, and the limit that stopped a run, if one did.
///
/// With a time limit (`--time`) the annealing is anytime. With `how` [`Anytime::Tempering`]
/// it is [`temper`]. With [`Anytime::Restarts`], rounds of `o.restarts` runs follow
/// one another until the time is spent (run `r` of the whole search seeded by `o.seed` and
/// `r`), every second run of a round after the first starts from the best state found so far
/// (at a lower temperature), each run's best state is then polished by hill climbing over
/// `single_changes` ([`polish`]), and each rise of the best length is told to
/// `o.on_best`. Without a time limit nothing changes: the same
/// seed, restarts and steps give the same levels.
#[allow(clippy::too_many_arguments)]
pub fn anneal<S: Send + Sync + Clone, K: Ord + Clone + Send>(
    o: &HardestOptions,
    t0: Instant,
    check_every: u64,
    start: impl Fn(&mut Pcg64Mcg) -> Result<S, Error> + Sync,
    neighbour: impl Fn(&S, &mut Pcg64Mcg) -> Result<S, Error> + Sync,
    score: impl Fn(&S) -> f64 + Sync,
    record: impl Fn(&S, &mut Best<K>) + Sync,
    single_changes: impl Fn(&S) -> Result<Vec<S>, Error> + Sync,
    how: Anytime,
) -> Result<(Best<K>, u64, Option<LimitKind>), Error> {
    let deadline = o.limits.deadline_from(t0);
    let anytime = deadline.is_some();
    if anytime && how == Anytime::Tempering {
        return temper(
            o,
            t0,
            check_every,
            start,
            neighbour,
            score,
            record,
            single_changes,
        );
    }
    let limit = Mutex::new(None);
    let searched = AtomicU64::new(0);
    let stopped = || -> bool {
        if let Some(kind) = o.limits.check(deadline) {
            *limit.lock().unwrap_or_else(|e| e.into_inner()) = Some(kind);
            true
        } else {
            false
        }
    };
    // how far the search is, to `o.progress`: steps of all runs' or, anytime, milliseconds
    // of the time limit
    let restarts = o.restarts as u64;
    let budget_ms = deadline.map(|d| d.saturating_duration_since(t0).as_millis() as u64);
    let walked = AtomicU64::new(0);
    let tell = |more: u64| {
        if let Some(p) = &o.progress {
            let done = walked.fetch_add(more, Ordering::Relaxed) + more;
            match budget_ms {
                Some(ms) => p.tell(t0.elapsed().as_millis() as u64, Some(ms)),
                None => p.tell(done, Some(restarts.saturating_mul(o.steps))),
            }
        }
    };
    // one run: `from` is the state it starts from (a restart from the best), else `start`
    type Run<K, S> = Result<(Best<K>, Option<(f64, S)>), Error>;
    let run = |r: u64, from: Option<&S>| -> Run<K, S> {
        let mut rng = candidate_rng(o.seed, r);
        let mut best = Best::new(o.top);
        // a restart begun after the deadline does not start
        if stopped() {
            return Ok((best, None));
        }
        let (mut cur, hot) = match from {
            Some(s) => (s.clone(), 0.2),
            None => (start(&mut rng)?, 1.0),
        };
        let mut cur_score = score(&cur);
        let mut top: Option<(f64, S)> = anytime.then(|| (cur_score, cur.clone()));
        let mut steps = 0;
        let mut told = 0;
        let mut out_of_time = false;
        for step in 0..o.steps {
            if step % check_every == 0 {
                tell(step - told);
                told = step;
                if stopped() {
                    out_of_time = true;
                    break;
                }
            }
            steps += 1;
            let next = neighbour(&cur, &mut rng)?;
            let next_score = score(&next);
            let t = temperature(step, o.steps, hot, 0.02);
            if accept(next_score - cur_score, t, rng.random::<f64>()) {
                cur = next;
                cur_score = next_score;
                record(&cur, &mut best);
                if let Some((s, state)) = top.as_mut() {
                    if cur_score > *s {
                        (*s, *state) = (cur_score, cur.clone());
                    }
                }
            }
        }
        tell(steps - told);
        // the polish: climb over every single change while one scores higher
        if let Some((s, state)) = top.as_mut().filter(|_| !out_of_time) {
            let stop = || {
                tell(0);
                stopped()
            };
            let (v, climbed, n, _) = polish(
                *s,
                state.clone(),
                &score,
                &single_changes,
                &record,
                &mut best,
                &stop,
            )?;
            steps += n;
            (*s, *state) = (v, climbed);
        }
        searched.fetch_add(steps, Ordering::Relaxed);
        Ok((best, top))
    };
    let mut best = Best::new(o.top);
    let mut top: Option<(f64, S)> = None;
    let mut round = 0u64;
    loop {
        let from = top.as_ref().map(|(_, s)| s);
        let runs: Vec<_> = (0..restarts)
            .into_par_iter()
            .map(|i| run(round * restarts + i, from.filter(|_| i % 2 == 1)))
            .collect();
        let before = best.top_value();
        for r in runs {
            let (b, t) = r?;
            best = best.merge(b);
            if let Some((v, s)) = t {
                if top.as_ref().is_none_or(|(w, _)| v > *w) {
                    top = Some((v, s));
                }
            }
        }
        if !anytime {
            break;
        }
        if best.top_value() > before {
            if let (Some(b), Some(f)) = (best.top_value(), &o.on_best) {
                (f.0)(b, t0.elapsed().as_secs_f64());
            }
        }
        if limit.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
            break;
        }
        round += 1;
    }
    if let Some(p) = &o.progress {
        p.end(match budget_ms {
            Some(_) => t0.elapsed().as_millis() as u64,
            None => walked.into_inner(),
        });
    }
    let limit = limit.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok((best, searched.into_inner(), limit))
}

/// How the anytime annealing (`--time`) spends its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anytime {
    /// Rounds of seeded restarts, half of them from the best state found ([`anneal`]).
    Restarts,
    /// Parallel tempering ([`temper`]).
    Tempering,
}

/// The temperatures of [`temper`]'s replicas, hottest first: geometric from 1 to 0.02.
fn ladder(replicas: usize) -> Vec<f64> {
    (0..replicas)
        .map(|i| temperature(i as u64, replicas.saturating_sub(1) as u64, 1.0, 0.02))
        .collect()
}

/// Whether replicas at inverse temperatures `bi` and `bj`, holding states of scores `si` and
/// `sj`, trade states: the Metropolis rule of parallel tempering, `u` a uniform draw.
pub fn trade(bi: f64, si: f64, bj: f64, sj: f64, u: f64) -> bool {
    u < ((bi - bj) * (sj - si)).exp()
}

/// One replica of [`temper`]: its state, score, temperature and random numbers.
struct Replica<S> {
    state: S,
    score: f64,
    t: f64,
    rng: Pcg64Mcg,
}

/// Parallel tempering, the anytime search of [`anneal`] with `--time` for games that ask for
/// it: `o.restarts` replicas (at least 2) hold one state each at fixed temperatures from 1
/// down to 0.02 ([`ladder`]); each sweep, every replica (in parallel) proposes
/// `o.steps / 20` `neighbour`s, each taken by [`accept`] at its temperature, then
/// neighbouring replicas trade states by [`trade`], so good states sink to the cold end
/// while the hot end keeps exploring. The coldest replica's state, when it is the best seen,
/// is polished ([`polish`]) and goes on from there. Every state taken is offered to `record`;
/// each rise of the best value is told to `o.on_best`. The limits are checked every
/// `check_every` steps; the search runs until one (the time limit) stops it.
#[allow(clippy::too_many_arguments)]
fn temper<S: Send + Sync + Clone, K: Ord + Clone + Send>(
    o: &HardestOptions,
    t0: Instant,
    check_every: u64,
    start: impl Fn(&mut Pcg64Mcg) -> Result<S, Error> + Sync,
    neighbour: impl Fn(&S, &mut Pcg64Mcg) -> Result<S, Error> + Sync,
    score: impl Fn(&S) -> f64 + Sync,
    record: impl Fn(&S, &mut Best<K>) + Sync,
    single_changes: impl Fn(&S) -> Result<Vec<S>, Error> + Sync,
) -> Result<(Best<K>, u64, Option<LimitKind>), Error> {
    let deadline = o.limits.deadline_from(t0);
    let stopped = || o.limits.check(deadline);
    let budget_ms = deadline.map(|d| d.saturating_duration_since(t0).as_millis() as u64);
    let sweep = (o.steps / 20).max(1);
    let every = check_every.max(1);
    let mut replicas = Vec::new();
    for (i, t) in ladder(o.restarts.max(2)).into_iter().enumerate() {
        let mut rng = candidate_rng(o.seed, i as u64);
        let state = start(&mut rng)?;
        let score = score(&state);
        replicas.push(Replica {
            state,
            score,
            t,
            rng,
        });
    }
    let mut best = Best::new(o.top);
    let mut top = f64::NEG_INFINITY;
    let mut searched = 0u64;
    let mut trades = candidate_rng(o.seed, u64::MAX);
    let limit = loop {
        if let Some(kind) = stopped() {
            break Some(kind);
        }
        let swept: Vec<Result<(Best<K>, u64), Error>> = replicas
            .par_iter_mut()
            .map(|r| {
                let mut b = Best::new(o.top);
                for step in 0..sweep {
                    if step % every == every - 1 && stopped().is_some() {
                        return Ok((b, step));
                    }
                    let next = neighbour(&r.state, &mut r.rng)?;
                    let v = score(&next);
                    if accept(v - r.score, r.t, r.rng.random::<f64>()) {
                        r.state = next;
                        r.score = v;
                        record(&r.state, &mut b);
                    }
                }
                Ok((b, sweep))
            })
            .collect();
        let before = best.top_value();
        for s in swept {
            let (b, n) = s?;
            best = best.merge(b);
            searched += n;
        }
        // neighbours trade, from the hot end down
        for i in 0..replicas.len() - 1 {
            let (a, b) = (&replicas[i], &replicas[i + 1]);
            if trade(
                1.0 / a.t,
                a.score,
                1.0 / b.t,
                b.score,
                trades.random::<f64>(),
            ) {
                let (lo, hi) = replicas.split_at_mut(i + 1);
                std::mem::swap(&mut lo[i].state, &mut hi[0].state);
                std::mem::swap(&mut lo[i].score, &mut hi[0].score);
            }
        }
        // the coldest state, when it is the best seen, is climbed and goes on from there
        let cold = replicas.last_mut().expect("two replicas at least");
        if cold.score > top {
            let (v, s, n, _) = polish(
                cold.score,
                cold.state.clone(),
                &score,
                &single_changes,
                &record,
                &mut best,
                &|| stopped().is_some(),
            )?;
            searched += n;
            (cold.score, cold.state, top) = (v, s, v);
        }
        if best.top_value() > before {
            if let (Some(b), Some(f)) = (best.top_value(), &o.on_best) {
                (f.0)(b, t0.elapsed().as_secs_f64());
            }
        }
        if let (Some(p), Some(ms)) = (&o.progress, budget_ms) {
            p.tell(t0.elapsed().as_millis() as u64, Some(ms));
        }
    };
    if let Some(p) = &o.progress {
        p.end(t0.elapsed().as_millis() as u64);
    }
    Ok((best, searched, limit))
}

/// The polish of a state of score `v`: climbs over `single_changes` while one scores higher
/// (each taken offered to `record`); the score's fraction (a tie-break between equal
/// values) leads at most a few climbs. Returns the state reached, its score, the states
/// evaluated, and whether `stopped` ended it.
#[allow(clippy::type_complexity)]
fn polish<S, K: Ord + Clone>(
    mut v: f64,
    mut state: S,
    score: &impl Fn(&S) -> f64,
    single_changes: &impl Fn(&S) -> Result<Vec<S>, Error>,
    record: &impl Fn(&S, &mut Best<K>),
    best: &mut Best<K>,
    stopped: &impl Fn() -> bool,
) -> Result<(f64, S, u64, bool), Error> {
    const SIDEWAYS: u32 = 8;
    let (mut sideways, mut steps) = (0, 0u64);
    loop {
        let mut better = None;
        for next in single_changes(&state)? {
            steps += 1;
            let w = score(&next);
            if w > v && better.as_ref().is_none_or(|(b, _)| w > *b) {
                better = Some((w, next));
            }
        }
        let Some((w, next)) = better else {
            return Ok((v, state, steps, false));
        };
        if w.floor() <= v.floor() {
            sideways += 1;
            if sideways > SIDEWAYS {
                return Ok((v, state, steps, false));
            }
        }
        record(&next, best);
        (v, state) = (w, next);
        if stopped() {
            return Ok((v, state, steps, true));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a tally heard, in order.
    type Heard = std::sync::Arc<Mutex<Vec<(u64, Option<u64>)>>>;

    /// Gives the options a tally that keeps what it hears.
    fn listen(o: &mut HardestOptions) -> Heard {
        let heard = std::sync::Arc::new(Mutex::new(Vec::new()));
        let h = std::sync::Arc::clone(&heard);
        o.progress = Some(Tally::new(move |d, t| h.lock().unwrap().push((d, t))));
        heard
    }

    #[test]
    fn searches_tell_their_parts_and_steps_to_the_end() {
        use crate::game::hardest::Counts;
        // the exact search: every part once, in order of their ends, the last call the end
        let mut o = HardestOptions::new(3, 4);
        let heard = listen(&mut o);
        let blocks = Counts::new().with("blocks", 2);
        let exact = crate::ops::hardest("ice", &o, &blocks).unwrap();
        let h = heard.lock().unwrap().clone();
        let parts = h[0].1.unwrap();
        assert!(parts > 1, "{h:?}");
        assert_eq!(h.len() as u64, parts + 1);
        assert_eq!(h.last(), Some(&(parts, Some(parts))));
        assert!(h[..h.len() - 1]
            .iter()
            .all(|&(d, t)| t == Some(parts) && d < parts));
        // the annealing: every step of every run, told as runs go
        let mut o = HardestOptions::new(4, 4);
        o.method = Method::Anneal;
        (o.restarts, o.steps) = (3, 500);
        let heard = listen(&mut o);
        let annealed = crate::ops::hardest("ice", &o, &blocks).unwrap();
        let h = heard.lock().unwrap().clone();
        assert_eq!(h.last(), Some(&(1500, Some(1500))));
        assert!(
            h.len() > 3
                && h[..h.len() - 1]
                    .iter()
                    .all(|&(d, t)| t == Some(1500) && d < 1500)
        );
        // being watched changes no figure
        o.progress = None;
        let quiet = crate::ops::hardest("ice", &o, &blocks).unwrap();
        assert_eq!(quiet.level_lengths(), annealed.level_lengths());
        assert!(exact.exhaustive);
    }

    #[test]
    fn replicas_trade_so_that_better_states_go_cold() {
        let t = ladder(5);
        assert_eq!(t.len(), 5);
        assert!((t[0] - 1.0).abs() < 1e-12 && (t[4] - 0.02).abs() < 1e-12);
        assert!(t.windows(2).all(|w| w[0] > w[1]), "{t:?}");
        assert_eq!(ladder(2), vec![1.0, 0.02]);
        let (hot, cold) = (1.0 / t[0], 1.0 / t[1]);
        // the hotter replica holds the better state: always traded, whatever the draw
        assert!(trade(hot, 9.0, cold, 8.0, 0.999_999));
        // the colder holds the better: traded by chance, less often the larger the gap
        let p = |gap: f64| ((hot - cold) * gap).exp();
        assert!(p(1.0) > p(2.0) && p(2.0) > 0.0 && p(1.0) < 1.0);
        assert!(trade(hot, 8.0, cold, 9.0, p(1.0) * 0.99));
        assert!(!trade(hot, 8.0, cold, 9.0, p(1.0) * 1.01));
        // equal scores always trade
        assert!(trade(hot, 8.0, cold, 8.0, 0.999_999));
    }

    /// A landscape with a false summit: `x` in 0..200, the score (tenths) rises to 50 at 40,
    /// falls to a plain of 0 from 60 to 99, and rises from 10 at 100 to 80 at 170. A climb
    /// from the start (0..60) ends on the false summit.
    fn two_summits(x: &i64) -> f64 {
        let x = *x;
        if x < 100 {
            (50 - 2 * (x - 40).abs()).max(0) as f64 / 10.0
        } else {
            (80 - (x - 170).abs()).max(0) as f64 / 10.0
        }
    }

    #[test]
    fn tempering_crosses_a_valley_and_tells_each_rise() {
        let mut o = HardestOptions::new(1, 1);
        o.method = Method::Anneal;
        o.restarts = 6;
        o.limits.timeout = Some(std::time::Duration::from_millis(600));
        let rises = std::sync::Arc::new(Mutex::new(Vec::new()));
        let r = std::sync::Arc::clone(&rises);
        o.on_best = Some(crate::game::hardest::OnBest(std::sync::Arc::new(
            move |v: u64, s: f64| r.lock().unwrap().push((v, s)),
        )));
        let heard = listen(&mut o);
        let step = |x: &i64, rng: &mut Pcg64Mcg| {
            let d = [-3, -1, 1, 3][rng.random_range(0..4)];
            Ok((x + d).clamp(0, 199))
        };
        let (best, searched, limit) = anneal(
            &o,
            Instant::now(),
            64,
            |rng| Ok(rng.random_range(0..60)),
            step,
            two_summits,
            |x, b: &mut Best<i64>| b.offer((two_summits(x) * 10.0).round() as u64, *x),
            |x| Ok(vec![(x - 1).max(0), (x + 1).min(199)]),
            Anytime::Tempering,
        )
        .unwrap();
        assert_eq!(limit, Some(LimitKind::Timeout));
        assert_eq!(best.top_value(), Some(80), "the far summit");
        assert_eq!(best.into_vec()[0], (80, 170));
        assert!(searched > 1000);
        let rises = rises.lock().unwrap().clone();
        assert!(
            !rises.is_empty() && rises.last().unwrap().0 == 80,
            "{rises:?}"
        );
        assert!(rises
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
        let h = heard.lock().unwrap().clone();
        let (done, total) = *h.last().unwrap();
        assert!(total == Some(done) && done >= 600, "{h:?}");
    }

    #[test]
    fn symmetries_of_rectangles_and_squares() {
        assert_eq!(symmetries(3, 4).len(), 4);
        assert_eq!(symmetries(3, 3).len(), 8);
        assert_eq!(symmetries(1, 1).len(), 1);
        assert_eq!(symmetries(1, 3).len(), 2);
        for s in symmetries(4, 4) {
            let mut seen = s.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..16).collect::<Vec<_>>());
        }
        let p = MaskPerm::all(2, 3);
        // mirror left-right: cell 0 → 2
        assert!(p.iter().any(|p| p.apply(1) == 1 << 2));
        assert_eq!(p[0].apply(0b10_1101), 0b10_1101);
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(42, 8), 118_030_185);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(3, 4), 0);
        assert_eq!(binomial(1000, 500), u64::MAX);
    }

    #[test]
    fn the_best_list_keeps_order_whatever_the_arrival() {
        let offers = [(3, 'c'), (5, 'b'), (5, 'a'), (1, 'z'), (4, 'd'), (5, 'e')];
        let mut one = Best::new(3);
        for &(v, k) in &offers {
            one.offer(v, k);
        }
        let (mut a, mut b) = (Best::new(3), Best::new(3));
        for (i, &(v, k)) in offers.iter().rev().enumerate() {
            if i % 2 == 0 {
                a.offer(v, k)
            } else {
                b.offer(v, k)
            }
        }
        let two = b.merge(a);
        assert_eq!(one.clone().into_vec(), vec![(5, 'a'), (5, 'b'), (5, 'e')]);
        assert_eq!(two.clone().into_vec(), one.clone().into_vec());
        assert_eq!((one.best, one.best_count), (Some(5), 3));
        assert_eq!((two.best, two.best_count), (Some(5), 3));
    }
}
