//! The operations written once for every game: solving with every algorithm (each answer
//! replayed by the game's rules), verifying a move list, enumerating, analysing.

use super::report::{
    AnalyzeReport, Difficulty, IllegalMove, Move, ParamValues, ReplayObj, SolveReport, SpaceReport,
    Status, Verified,
};
use super::{AlgoMethod, Engine, Game, Task};
use crate::analysis::reversibility;
use crate::analysis::solvers::{run_once, CapCount, SolverSpec};
use crate::error::Error;
use crate::scene::{Scene, Story};
use crate::search::{self, Found, LimitKind, Limits, Method, Outcome, Stats};
use serde_json::{json, Map};
use std::any::Any;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The block-change factor of Kluiver's difficulty when none is given.
pub const DEFAULT_FACTOR: u64 = 5;
/// Most worker threads a solve may ask for.
pub const MAX_THREADS: usize = 256;
/// Largest block-change factor accepted: difficulties stay far from overflow.
pub const MAX_FACTOR: u64 = 1_000_000_000;

/// How to solve: the same options for every game; those a game cannot use are refused.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The algorithm (`bfs`, `astar`, `difficulty`, `random`, `mc`, …); `None`: the game's
    /// default.
    pub algorithm: Option<String>,
    /// Block-change factor of Kluiver's difficulty (games with block changes only); `None`:
    /// [`DEFAULT_FACTOR`].
    pub factor: Option<u64>,
    /// Limits of the search.
    pub limits: Limits,
    /// Seed of the randomised solvers.
    pub seed: u64,
    /// Move cap of a random game (`random`: default the game's
    /// [`Info::random_moves`](super::Info::random_moves); `mc`: 15), or of the solutions A*
    /// (`astar`) looks for ([`Method::AStarUpTo`]).
    pub max_moves: Option<u32>,
    /// BasicMC's random games per candidate move and step.
    pub playouts: u32,
    /// What a random game's cap counts.
    pub count: CapCount,
    /// Also measure the solution's difficulty (the game's measure; it can cost more than the
    /// solve, as PushPush's tree of every push sequence does).
    pub difficulty: bool,
    /// Worker threads of A* (`astar`), at least 1: with more, each batch of positions is
    /// expanded by all of them ([`search::astar_proving_par`]); the answer (the fewest moves,
    /// or the bound proved) is the same.
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: None,
            factor: None,
            limits: Limits::none(),
            seed: 0,
            max_moves: None,
            playouts: search::playout::KLUIVER_PLAYOUTS,
            count: CapCount::default(),
            difficulty: true,
            threads: 1,
        }
    }
}

impl SolveOptions {
    /// The same options with another algorithm.
    pub fn algorithm(mut self, name: &str) -> SolveOptions {
        self.algorithm = Some(name.to_string());
        self
    }
    /// The same options with other limits.
    pub fn limits(mut self, limits: Limits) -> SolveOptions {
        self.limits = limits;
        self
    }
}

/// The block-change factor of `o` for game `g`: refused where it does not apply.
pub(crate) fn factor_of<G: Game>(g: G, o: Option<u64>) -> Result<u64, Error> {
    let info = g.info();
    match o {
        Some(_) if !info.capabilities.block_changes => Err(Error::invalid(format!(
            "--factor is the block-change factor of Kluiver's difficulty; {} levels have no block changes",
            info.title
        ))),
        Some(f) if f > MAX_FACTOR => Err(Error::invalid(format!(
            "the block-change factor {f} is above the largest accepted, {MAX_FACTOR}"
        ))),
        Some(f) => Ok(f),
        None => Ok(DEFAULT_FACTOR),
    }
}

/// A move list replayed on a game's plain rules.
#[derive(Clone, Debug)]
pub struct Replayed<G: Game> {
    /// The start and the position after each move.
    pub positions: Vec<G::Position>,
    /// What each move did.
    pub steps: Vec<G::Step>,
    /// Whether the last position solves the level.
    pub solved: bool,
}

/// Replays `moves` from the start of `level` on the game's rules: every position and step,
/// or the 0-based index of the first illegal move and why.
pub fn replay<G: Game>(
    g: G,
    level: &G::Level,
    moves: &[G::Move],
) -> Result<Replayed<G>, (usize, String)> {
    let mut pos = g.start(level);
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut steps = Vec::with_capacity(moves.len());
    positions.push(pos.clone());
    for (i, m) in moves.iter().enumerate() {
        let step = g.apply(level, &mut pos, m).map_err(|why| (i, why))?;
        steps.push(step);
        positions.push(pos.clone());
    }
    let solved = g.solved(level, &pos);
    Ok(Replayed {
        positions,
        steps,
        solved,
    })
}

/// A solution kept for its pictures and boards.
struct Kept<G: Game> {
    game: G,
    level: G::Level,
    title: String,
    moves: Vec<G::Move>,
    replayed: Replayed<G>,
}

impl<G: Game> ReplayObj for Kept<G> {
    fn story(&self) -> Result<Story, Error> {
        story_of(
            self.game,
            &self.level,
            &self.title,
            &self.moves,
            &self.replayed,
        )
    }
    fn boards(&self) -> Vec<String> {
        self.replayed
            .positions
            .iter()
            .map(|p| self.game.position_text(&self.level, p))
            .collect()
    }
}

/// The scene of a position with its title.
pub(crate) fn scene_of<G: Game>(g: G, level: &G::Level, title: &str, pos: &G::Position) -> Scene {
    let mut s = g.scene(level, pos);
    s.title = title.to_string();
    s
}

/// The story of a replayed move list.
pub(crate) fn story_of<G: Game>(
    g: G,
    level: &G::Level,
    title: &str,
    moves: &[G::Move],
    r: &Replayed<G>,
) -> Result<Story, Error> {
    let start = scene_of(g, level, title, &r.positions[0]);
    let changes = moves
        .iter()
        .zip(&r.steps)
        .zip(&r.positions)
        .map(|((m, s), before)| g.change(level, before, m, s));
    Story::build(start, changes)
}

fn params_of<G: Game>(g: G, level: &G::Level) -> ParamValues {
    ParamValues(g.params(level))
}

fn limit_name(l: Option<LimitKind>) -> Option<&'static str> {
    l.map(LimitKind::name)
}

/// An empty report to fill in.
fn report<G: Game>(g: G, level: &G::Level, name: &str, algorithm: &str) -> SolveReport {
    SolveReport {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        algorithm: algorithm.to_string(),
        solved: false,
        status: Status::Unsolvable,
        limit: None,
        moves: Vec::new(),
        length: None,
        pushes: None,
        difficulty: None,
        lower_bound: None,
        states: 0,
        expanded: 0,
        depth: 0,
        seconds: 0.0,
        details: Map::new(),
        note: None,
        steps: Vec::new(),
        replay: None,
    }
}

/// Replays a solution found by a search and fills the report with it; a solution that does
/// not replay or does not solve is a bug, reported as [`Error::Internal`], never printed.
fn accept<G: Game>(
    g: G,
    level: &G::Level,
    r: &mut SolveReport,
    moves: Vec<G::Move>,
    factor: Option<u64>,
) -> Result<(), Error> {
    let who = r.algorithm.clone();
    let replayed = replay(g, level, &moves).map_err(|(i, why)| {
        Error::Internal(format!(
            "the {who} solution does not replay: move {} ({}) is illegal: {why}",
            i + 1,
            moves[i]
        ))
    })?;
    if !replayed.solved {
        return Err(Error::Internal(format!(
            "the {who} solution replays but does not solve the level"
        )));
    }
    let n = moves.len() as u64;
    r.solved = true;
    r.status = Status::Solved;
    r.length = Some(n);
    r.pushes = g.info().moves_are_pushes().then_some(n);
    if let Some(factor) = factor {
        r.difficulty = g.difficulty(level, &moves, &replayed.steps, factor)?;
    }
    r.steps = replayed.steps.iter().map(ToString::to_string).collect();
    r.moves = moves.iter().cloned().map(Move::new).collect();
    r.replay = Some(Arc::new(Kept {
        game: g,
        level: level.clone(),
        title: r.level.clone(),
        moves,
        replayed,
    }));
    Ok(())
}

/// Solves `level` (from `from`, when given) as `o` says.
pub(crate) fn solve<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    from: Option<&G::Position>,
    o: &SolveOptions,
) -> Result<SolveReport, Error> {
    let info = g.info();
    g.check(level)?;
    let factor = factor_of(g, o.factor)?;
    let requested = o
        .algorithm
        .as_deref()
        .unwrap_or(info.default_algorithm().name);
    match requested.trim().to_ascii_lowercase().as_str() {
        "random" => return random(g, level, name, from, o, factor, false),
        "mc" | "basicmc" | "monte-carlo" => return random(g, level, name, from, o, factor, true),
        _ => {}
    }
    let algo = info.algorithm(requested).ok_or_else(|| {
        Error::invalid(format!(
            "unknown algorithm '{requested}' for {} levels: expected {}",
            info.title,
            info.algorithm_names().join(", ")
        ))
    })?;
    let method = match (algo.method, o.max_moves) {
        (AlgoMethod::Search(Method::AStarProving), Some(moves)) => Method::AStarUpTo { moves },
        (_, Some(_)) => {
            return Err(Error::invalid(format!(
                "--max-moves caps A* (astar), random and mc; not {}",
                algo.name
            )))
        }
        (AlgoMethod::Search(m), None) => m,
        (AlgoMethod::LeastChanges, None) => Method::LeastChanges { factor },
    };
    if o.threads == 0 || o.threads > MAX_THREADS {
        return Err(Error::invalid(format!(
            "threads must be 1 to {MAX_THREADS} (given {})",
            o.threads
        )));
    }
    if o.threads > 1 && !matches!(method, Method::AStarProving | Method::AStarUpTo { .. }) {
        return Err(Error::invalid(format!(
            "more than one thread is for A* (astar); {} runs on one",
            algo.name
        )));
    }
    let (found, start_bound, dead, kind, folded) = g.engine(
        level,
        from,
        Exact {
            method,
            limits: &o.limits,
            threads: o.threads,
        },
    )??;
    let mut r = report(g, level, name, algo.name);
    r.fill_stats(&found.stats);
    r.lower_bound = Some(found.proved);
    r.details.insert("engine".into(), json!(kind));
    r.details.insert("start_bound".into(), json!(start_bound));
    if folded > 1 {
        // the level's symmetries (the identity counted): A* kept one position of each class
        r.details.insert("symmetries".into(), json!(folded));
    }
    if let Some(d) = &dead {
        r.details.insert("dead".into(), json!(d));
        r.note = Some(format!("{d} (at the start)"));
    }
    match found.outcome {
        Outcome::Solved(moves) => {
            // least difficulty is checked against the difficulty: it is always measured then
            let measure = o.difficulty || matches!(method, Method::LeastChanges { .. });
            accept_from(g, level, from, &mut r, moves, measure.then_some(factor))?;
            let cost = found.cost;
            let check = match method {
                // a solve from a position has no difficulty: the cost is not checked there
                Method::LeastChanges { .. } if from.is_some() => cost,
                Method::LeastChanges { .. } => r.difficulty.as_ref().and_then(|d| d.value.as_u64()),
                _ => r.length,
            };
            if cost != check {
                return Err(Error::Internal(format!(
                    "the {} search reported cost {cost:?}, the replay gives {check:?}",
                    algo.name
                )));
            }
        }
        Outcome::Unsolvable => {}
        Outcome::Limit(l) => {
            r.status = Status::Limit;
            r.limit = limit_name(Some(l));
        }
    }
    Ok(r)
}

/// [`accept`] for a solution that starts at `from` rather than at the level's start: the
/// replay starts there too.
fn accept_from<G: Game>(
    g: G,
    level: &G::Level,
    from: Option<&G::Position>,
    r: &mut SolveReport,
    moves: Vec<G::Move>,
    factor: Option<u64>,
) -> Result<(), Error> {
    let Some(from) = from else {
        return accept(g, level, r, moves, factor);
    };
    let mut pos = from.clone();
    for (i, m) in moves.iter().enumerate() {
        g.apply(level, &mut pos, m).map_err(|why| {
            Error::Internal(format!(
                "the {} solution does not replay: move {} ({m}) is illegal: {why}",
                r.algorithm,
                i + 1
            ))
        })?;
    }
    if !g.solved(level, &pos) {
        return Err(Error::Internal(format!(
            "the {} solution replays but does not solve the level",
            r.algorithm
        )));
    }
    let n = moves.len() as u64;
    r.solved = true;
    r.status = Status::Solved;
    r.length = Some(n);
    r.pushes = g.info().moves_are_pushes().then_some(n);
    r.moves = moves.into_iter().map(Move::new).collect();
    Ok(())
}

/// The exact search of a solve, on the engine.
struct Exact<'a> {
    method: Method,
    limits: &'a Limits,
    /// Worker threads of A* ([`SolveOptions::threads`]).
    threads: usize,
}

/// What [`Exact`] found, the start's bound, why the start is dead (if it is), the engine's
/// kind, and how many symmetries A* folded (1: none).
type ExactOut<M> = Result<(Found<M>, u32, Option<String>, &'static str, usize), Error>;

impl<M> Task<M> for Exact<'_> {
    type Output = ExactOut<M>;
    fn run<E: Engine<Public = M>>(self, e: &E) -> ExactOut<M> {
        let start_bound = e.lower_bound(&e.start());
        if let Some(dead) = e.dead_start() {
            let found = Found {
                outcome: Outcome::Unsolvable,
                cost: None,
                proved: 0,
                stats: Stats {
                    states: 1,
                    ..Stats::default()
                },
            };
            return Ok((found, 0, Some(dead), e.kind(), 1));
        }
        let f = match self.method {
            Method::AStarProving | Method::AStarUpTo { .. } if self.threads > 1 => {
                let cap = match self.method {
                    Method::AStarUpTo { moves } => Some(moves),
                    _ => None,
                };
                let r = search::astar_proving_par(e, self.limits, cap, self.threads);
                Found {
                    cost: r.outcome.solution().map(|m| m.len() as u64),
                    outcome: r.outcome,
                    proved: r.proved,
                    stats: r.stats,
                }
            }
            _ => search::run(e, self.method, self.limits),
        };
        let outcome = match f.outcome {
            Outcome::Solved(m) => Outcome::Solved(m.iter().map(|m| e.public(m)).collect()),
            Outcome::Unsolvable => Outcome::Unsolvable,
            Outcome::Limit(l) => Outcome::Limit(l),
        };
        let folded = match self.method {
            Method::AStarProving | Method::AStarUpTo { .. } => e.symmetries(),
            _ => 1,
        };
        Ok((
            Found {
                outcome,
                cost: f.cost,
                proved: f.proved,
                stats: f.stats,
            },
            start_bound,
            None,
            e.kind(),
            folded,
        ))
    }
}

/// `random` (Kluiver's random algorithm; for games without an action space of their own, a
/// uniformly random legal move each step) or `mc` (BasicMC): one seeded run. Failing proves
/// nothing (status `gave-up` or `limit`).
fn random<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    from: Option<&G::Position>,
    o: &SolveOptions,
    factor: u64,
    mc: bool,
) -> Result<SolveReport, Error> {
    if from.is_some() {
        return Err(Error::invalid(
            "the randomised solvers start from the level's start",
        ));
    }
    let spec = if mc {
        SolverSpec::Mc {
            playouts: o.playouts,
            max_moves: o.max_moves.unwrap_or(search::playout::KLUIVER_MAX_MOVES),
            count: o.count,
        }
    } else {
        SolverSpec::Random {
            max_moves: o.max_moves.unwrap_or(g.info().random_moves),
            count: o.count,
        }
    };
    let run = run_once(g, level, &spec, o.seed, &o.limits)?;
    let mut r = report(g, level, name, spec.name());
    r.states = run.attempts;
    r.seconds = run.elapsed_secs;
    r.details.insert("solver".into(), json!(spec));
    r.details.insert("seed".into(), json!(o.seed));
    r.details.insert("attempts".into(), json!(run.attempts));
    r.details.insert("playouts".into(), json!(run.playouts));
    r.details.insert("moves_made".into(), json!(run.length));
    if let Some(b) = run.blind_steps {
        r.details.insert("blind_steps".into(), json!(b));
    }
    if run.solved {
        accept(g, level, &mut r, run.moves, o.difficulty.then_some(factor))?;
    } else if let Some(l) = run.limit {
        r.status = Status::Limit;
        r.limit = Some(l);
        r.note = Some(format!(
            "not solved by {spec}, seed {}: stopped by --{l}; no proof that there is no solution",
            o.seed
        ));
    } else {
        r.status = Status::GaveUp;
        r.note = Some(format!(
            "not solved by {spec}, seed {} ({}): no proof that there is no solution",
            o.seed,
            if run.stuck {
                "it reached a position with no legal move"
            } else {
                "it used up its moves"
            }
        ));
    }
    Ok(r)
}

/// Replays a move list and says whether it is legal and solves the level.
pub(crate) fn verify<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    moves: &[G::Move],
    factor: Option<u64>,
) -> Result<Verified, Error> {
    g.check(level)?;
    let factor = factor_of(g, factor)?;
    let mut v = Verified {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        valid: false,
        solved: false,
        length: None,
        pushes: None,
        difficulty: None,
        error: None,
        end: String::new(),
    };
    match replay(g, level, moves) {
        Ok(r) => {
            let n = moves.len() as u64;
            v.valid = true;
            v.solved = r.solved;
            v.length = Some(n);
            v.pushes = g.info().moves_are_pushes().then_some(n);
            if r.solved {
                v.difficulty = g.difficulty(level, moves, &r.steps, factor)?;
            }
            v.end = g.position_text(level, r.positions.last().expect("the start"));
        }
        Err((i, reason)) => {
            v.error = Some(IllegalMove {
                index: i + 1,
                played: Move::new(moves[i].clone()),
                reason,
            });
            // the position before the illegal move
            if let Ok(r) = replay(g, level, &moves[..i]) {
                v.end = g.position_text(level, r.positions.last().expect("the start"));
            }
        }
    }
    Ok(v)
}

/// Every position reachable from the start (on every core when the space is large and has a
/// perfect hash).
pub fn enumerate_typed<G: Game>(
    g: G,
    level: &G::Level,
    limits: &Limits,
) -> Result<search::Enumeration, Error> {
    struct Space<'a>(&'a Limits);
    impl<M> Task<M> for Space<'_> {
        type Output = search::Enumeration;
        fn run<E: Engine<Public = M>>(self, e: &E) -> search::Enumeration {
            if search::worth_parallel(e) {
                if let Some((en, ())) =
                    search::enumerate_par(e, self.0, || (), |_, _, _| {}, |_, _| ())
                {
                    return en;
                }
            }
            search::enumerate(e, self.0, |_, _| {})
        }
    }
    g.check(level)?;
    g.engine(level, None, Space(limits))
}

/// What enumerating the level's positions will need ([`search::estimate`]), when the game
/// bounds them.
pub(crate) fn estimate_typed<G: Game>(g: G, level: &G::Level) -> Option<search::Estimate> {
    struct Judge;
    impl<M> Task<M> for Judge {
        type Output = Option<search::Estimate>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Self::Output {
            search::estimate(e)
        }
    }
    g.check(level).ok()?;
    g.engine(level, None, Judge).ok()?
}

/// [`enumerate_typed`] as a report.
pub(crate) fn space<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    limits: &Limits,
) -> Result<SpaceReport, Error> {
    let e = enumerate_typed(g, level, limits)?;
    Ok(space_report(g, level, name, &e, None))
}

/// The report of enumeration `e` of the level.
fn space_report<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    e: &search::Enumeration,
    computed: Option<super::report::Computed>,
) -> SpaceReport {
    SpaceReport {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        states: e.states,
        depth: e.depth(),
        histogram: e.histogram.clone(),
        complete: e.limit.is_none(),
        limit: limit_name(e.limit),
        expanded: e.stats.expanded,
        seconds: e.stats.elapsed.as_secs_f64(),
        index_bytes: e.peak_bytes,
        peak_rss_bytes: None,
        computed,
    }
}

/// [`space`] shared by the workers that `ex` links ([`search::dist`]).
pub(crate) fn space_on<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    ex: &mut dyn search::dist::Exchange,
    o: &search::dist::DistOptions,
) -> Result<SpaceReport, Error> {
    struct Shared<'a>(
        &'a mut dyn search::dist::Exchange,
        &'a search::dist::DistOptions,
    );
    impl<M> Task<M> for Shared<'_> {
        type Output = Result<search::dist::DistEnumeration<()>, Error>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Self::Output {
            search::dist::enumerate_dist(e, self.0, self.1, || ())
        }
    }
    g.check(level)?;
    let peers = ex.peers();
    let d = g.engine(level, None, Shared(ex, o))??;
    let computed = super::report::Computed {
        engine: if peers == 1 { "one worker" } else { "shared" }.into(),
        processes: 1,
        workers_per_process: peers,
        work_dir: o.work_dir.as_ref().map(|p| p.display().to_string()),
        resumed_at: d.resumed_at,
        disk_bytes: d.disk_bytes,
        owned: vec![d.owned],
    };
    Ok(space_report(g, level, name, &d.enumeration, Some(computed)))
}

/// Reversibility and dead ends of the whole state graph.
pub(crate) fn analyze<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    limits: &Limits,
) -> Result<AnalyzeReport, Error> {
    struct Analyze<'a>(&'a Limits);
    impl<M> Task<M> for Analyze<'_> {
        type Output = Result<reversibility::Reversibility, search::graph::GraphLimit>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Self::Output {
            reversibility::analyze(e, self.0)
        }
    }
    g.check(level)?;
    let began = std::time::Instant::now();
    let r = g.engine(level, None, Analyze(limits))?;
    Ok(AnalyzeReport {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        complete: r.is_ok(),
        limit: r.as_ref().err().map(|l| l.kind.name()),
        states_stored: r.as_ref().err().map(|l| l.states),
        figures: r.ok(),
        seconds: began.elapsed().as_secs_f64(),
        peak_rss_bytes: None,
    })
}

/// What the solver says about a position in play.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// It can be solved in `moves` more moves at the fewest; `next` is the first of them
    /// (`None` when it is solved already).
    Solvable {
        /// Fewest moves still needed.
        moves: u32,
        /// The first move of such a solution.
        next: Option<Move>,
    },
    /// Every position reachable from here was searched: none is solved.
    Unsolvable,
    /// A limit stopped the search before it could tell.
    Unknown(LimitKind),
}

/// The exact answer for a position: fewest moves from it with the game's default algorithm,
/// within `limits`, replayed from the position.
pub(crate) fn verdict<G: Game>(
    g: G,
    level: &G::Level,
    pos: &G::Position,
    limits: &Limits,
) -> Result<Verdict, Error> {
    if g.solved(level, pos) {
        return Ok(Verdict::Solvable {
            moves: 0,
            next: None,
        });
    }
    let o = SolveOptions::default().limits(limits.clone());
    let r = solve(g, level, "", Some(pos), &o)?;
    Ok(match r.status {
        Status::Solved => Verdict::Solvable {
            moves: r.moves.len() as u32,
            next: r.moves.first().cloned(),
        },
        Status::Unsolvable => Verdict::Unsolvable,
        Status::Limit | Status::GaveUp => {
            Verdict::Unknown(r.limit_kind().unwrap_or(LimitKind::MaxStates))
        }
    })
}

/// What the verdicts of one play session have proved about its level's positions, shared by
/// the session and the solver questions it hands out ([`search::Learned`], of whichever
/// engine state the level compiled to). Cloning shares it.
#[derive(Clone, Default)]
pub(crate) struct VerdictMemory {
    table: Arc<Mutex<Option<Box<dyn Any + Send>>>>,
    /// Its size in bytes, readable while a search holds the table.
    bytes: Arc<AtomicUsize>,
}

/// Positions a [`VerdictMemory`] holds at most: about 50–90 bytes each on Ice Tower maps up
/// to 20 × 14, so at most some 16 MiB per session.
pub(crate) const VERDICT_MEMORY_POSITIONS: usize = 200_000;

impl VerdictMemory {
    /// Bytes held, roughly.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
    /// Forgets what was learned, unless a search holds the table now; whether it did.
    pub(crate) fn try_clear(&self) -> bool {
        match self.table.try_lock() {
            Ok(mut t) => {
                *t = None;
                self.bytes.store(0, Ordering::Relaxed);
                true
            }
            Err(_) => false,
        }
    }
}

/// Whether the verdicts of game `g` learn from each other ([`verdict_with`]: its default
/// search is A*).
pub(crate) fn verdicts_learn<G: Game>(g: G) -> bool {
    g.info().default_algorithm().method == AlgoMethod::Search(Method::AStarProving)
}

/// [`verdict`], for the positions of a game in play: when the game's default search is A*,
/// it runs [`search::astar_learning`] over what earlier verdicts of the level proved (kept in
/// `memory`), so that after the first answer most later ones cost a small search. The answer
/// is the same fewest-moves verdict, replayed by the rules like every solution.
pub(crate) fn verdict_with<G: Game>(
    g: G,
    level: &G::Level,
    pos: &G::Position,
    limits: &Limits,
    memory: &VerdictMemory,
) -> Result<Verdict, Error> {
    if !verdicts_learn(g) || g.solved(level, pos) {
        return verdict(g, level, pos, limits);
    }
    g.check(level)?;
    struct Learning<'a> {
        limits: &'a Limits,
        memory: &'a VerdictMemory,
    }
    impl<M> Task<M> for Learning<'_> {
        type Output = Outcome<M>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Outcome<M> {
            if e.dead_start().is_some() {
                return Outcome::Unsolvable;
            }
            let mut table = self
                .memory
                .table
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if !table
                .as_ref()
                .is_some_and(|t| t.is::<search::Learned<E::State>>())
            {
                *table = Some(Box::new(search::Learned::<E::State>::new(
                    VERDICT_MEMORY_POSITIONS,
                )));
            }
            let learned = table
                .as_mut()
                .and_then(|t| t.downcast_mut::<search::Learned<E::State>>())
                .expect("the table of this engine's states");
            let r = search::astar_learning(e, self.limits, learned);
            self.memory.bytes.store(learned.bytes(), Ordering::Relaxed);
            match r.outcome {
                Outcome::Solved(m) => Outcome::Solved(m.iter().map(|m| e.public(m)).collect()),
                Outcome::Unsolvable => Outcome::Unsolvable,
                Outcome::Limit(l) => Outcome::Limit(l),
            }
        }
    }
    let found = g.engine(level, Some(pos), Learning { limits, memory })?;
    Ok(match found {
        Outcome::Solved(moves) => {
            let mut r = report(g, level, "", g.info().default_algorithm().name);
            accept_from(g, level, Some(pos), &mut r, moves, None)?;
            Verdict::Solvable {
                moves: r.moves.len() as u32,
                next: r.moves.first().cloned(),
            }
        }
        Outcome::Unsolvable => Verdict::Unsolvable,
        Outcome::Limit(l) => Verdict::Unknown(l),
    })
}

/// Every legal move at `pos`, in the engine's order.
pub(crate) fn legal_moves<G: Game>(
    g: G,
    level: &G::Level,
    pos: &G::Position,
) -> Result<Vec<G::Move>, Error> {
    struct Legal;
    impl<M> Task<M> for Legal {
        type Output = Vec<M>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Vec<M> {
            let mut out = Vec::new();
            e.successors(&e.start(), &mut out);
            out.iter().map(|(m, _)| e.public(m)).collect()
        }
    }
    g.engine(level, Some(pos), Legal)
}

/// The difficulty in Kluiver's measure from the number of moves and block changes.
pub fn kluiver(moves: u64, block_changes: u64, factor: u64) -> Difficulty {
    let value = moves.saturating_add(factor.saturating_mul(block_changes));
    Difficulty::new("kluiver", value)
        .with("factor", factor)
        .with("pushes", moves)
        .with("block_changes", block_changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pushpush::PushPush;
    use crate::grid::{Dir, Push};

    /// The robot at (0, 0), a block at (0, 1), the target at (1, 3).
    const TINY: &str = "Game: pushpush\nTitle: tiny\n@$--\n##-.\n";

    fn tiny() -> <PushPush as Game>::Level {
        PushPush.parse(TINY, "tiny.txt", None).unwrap().remove(0)
    }

    fn push(row: usize, col: usize, dir: Dir) -> Push {
        Push { row, col, dir }
    }

    #[test]
    fn an_answer_the_rules_reject_is_an_internal_error() {
        // What a lying engine would hand over: an illegal push, then a legal one that does
        // not solve. Neither may reach a report.
        let level = tiny();
        let mut r = report(PushPush, &level, "tiny", "bfs");
        let e = accept(PushPush, &level, &mut r, vec![push(1, 0, Dir::Up)], None).unwrap_err();
        assert!(
            matches!(&e, Error::Internal(m) if m.contains("does not replay: move 1")),
            "{e}"
        );
        assert!(!r.solved && r.moves.is_empty());
        let e = accept(PushPush, &level, &mut r, vec![], None).unwrap_err();
        assert!(
            matches!(&e, Error::Internal(m) if m.contains("does not solve")),
            "{e}"
        );
        // the true answer is accepted and fills the report
        let honest = crate::game::solve_typed(PushPush, &level, &SolveOptions::default()).unwrap();
        let moves: Vec<Push> = honest.moves_of();
        assert!(!moves.is_empty());
        accept(PushPush, &level, &mut r, moves, None).unwrap();
        assert!(r.solved);
        assert_eq!(r.length, honest.length);
    }
}
