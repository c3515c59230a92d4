//! Solving a level of any game with every algorithm: the exact searches on the game's
//! engine, Kluiver's random algorithm and BasicMC; every answer replayed by the game's rules
//! before it is reported.

use crate::analysis::solvers::{run_once, CapCount, SolverSpec};
use crate::error::Error;
use crate::game::{
    factor_of, illegal_replay, replay, AlgoMethod, Engine, ExactDetails, Game, KeptReplay, Move,
    ParamValues, RandomDetails, SolveDetails, SolveReport, Status, Task,
};
use crate::search::{self, Found, LimitKind, Limits, Method, Outcome, Stats};
use std::sync::Arc;

/// Most worker threads a solve may ask for.
pub const MAX_THREADS: usize = 256;

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

pub(super) fn params_of<G: Game>(g: G, level: &G::Level) -> ParamValues {
    ParamValues(g.params(level))
}

pub(super) fn limit_name(l: Option<LimitKind>) -> Option<&'static str> {
    l.map(LimitKind::name)
}

/// An empty report with the solver's `details`, to fill in.
pub(super) fn report<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    algorithm: &str,
    details: SolveDetails,
) -> SolveReport {
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
        details,
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
        Error::Internal(illegal_replay(
            &format!("the {who} solution"),
            &moves,
            i,
            &why,
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
    r.replay = Some(Arc::new(KeptReplay {
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
        // A* with a cap is the proving A* bounded by it, whatever a game's plain `astar`
        (AlgoMethod::Search(Method::AStarProving | Method::AStar), Some(moves)) => {
            Method::AStarUpTo { moves }
        }
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
        ExactSearch {
            method,
            limits: &o.limits,
            threads: o.threads,
        },
    )??;
    let note = dead.as_ref().map(|d| format!("{d} (at the start)"));
    let details = ExactDetails {
        dead,
        engine: kind,
        start_bound,
        // the level's symmetries (the identity counted): A* kept one position of each class
        symmetries: (folded > 1).then_some(folded),
    };
    let mut r = report(g, level, name, algo.name, SolveDetails::Exact(details));
    r.fill_stats(&found.stats);
    r.lower_bound = Some(found.proved);
    r.note = note;
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
pub(super) fn accept_from<G: Game>(
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
    check_from(g, level, from, &moves, &r.algorithm)?;
    let n = moves.len() as u64;
    r.solved = true;
    r.status = Status::Solved;
    r.length = Some(n);
    r.pushes = g.info().moves_are_pushes().then_some(n);
    r.moves = moves.into_iter().map(Move::new).collect();
    Ok(())
}

/// Replays the solution `algorithm` found from `from`: a solution that does not replay or
/// does not solve is a bug, reported as [`Error::Internal`].
pub(super) fn check_from<G: Game>(
    g: G,
    level: &G::Level,
    from: &G::Position,
    moves: &[G::Move],
    algorithm: &str,
) -> Result<(), Error> {
    let mut pos = from.clone();
    for (i, m) in moves.iter().enumerate() {
        g.apply(level, &mut pos, m).map_err(|why| {
            Error::Internal(illegal_replay(
                &format!("the {algorithm} solution"),
                moves,
                i,
                &why,
            ))
        })?;
    }
    if !g.solved(level, &pos) {
        return Err(Error::Internal(format!(
            "the {algorithm} solution replays but does not solve the level"
        )));
    }
    Ok(())
}

/// The exact search of a solve, on the engine.
struct ExactSearch<'a> {
    method: Method,
    limits: &'a Limits,
    /// Worker threads of A* ([`SolveOptions::threads`]).
    threads: usize,
}

/// What [`ExactSearch`] found, the start's bound, why the start is dead (if it is), the engine's
/// kind, and how many symmetries A* folded (1: none).
type ExactOut<M> = Result<(Found<M>, u32, Option<String>, &'static str, usize), Error>;

impl<M> Task<M> for ExactSearch<'_> {
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
    let details = RandomDetails {
        attempts: run.attempts,
        blind_steps: run.blind_steps,
        moves_made: run.length,
        playouts: run.playouts,
        seed: o.seed,
        solver: spec,
    };
    let mut r = report(g, level, name, spec.name(), SolveDetails::Random(details));
    r.states = run.attempts;
    r.seconds = run.elapsed_secs;
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

/// Solves a game's own level (for library code that holds one): as
/// [`Level::solve`](super::Level::solve).
pub fn solve_typed<G: Game>(
    g: G,
    level: &G::Level,
    o: &SolveOptions,
) -> Result<SolveReport, Error> {
    solve(g, level, g.title(level).unwrap_or(""), None, o)
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
    fn the_details_are_typed_with_the_contracts_keys() {
        let level = tiny();
        // an exact search: the engine and the start's bound
        let r = solve_typed(PushPush, &level, &SolveOptions::default()).unwrap();
        let d = r.details.exact().expect("an exact search");
        assert!(r.details.random().is_none());
        assert_eq!((d.engine, &d.dead, d.symmetries), ("fast", &None, None));
        assert!(u64::from(d.start_bound) <= r.length.unwrap());
        assert_eq!(
            serde_json::to_string(&r.details).unwrap(),
            format!(r#"{{"engine":"fast","start_bound":{}}}"#, d.start_bound)
        );
        // a randomised run: the seed and the solver asked for, what it did
        for algo in ["random", "mc"] {
            let o = SolveOptions {
                seed: 7,
                playouts: 10,
                ..SolveOptions::default()
            };
            let r = solve_typed(PushPush, &level, &o.algorithm(algo)).unwrap();
            let d = r.details.random().expect("a randomised run");
            assert!(r.details.exact().is_none());
            assert_eq!((d.seed, d.solver.name(), d.attempts), (7, algo, r.states));
            assert_eq!(d.blind_steps.is_some(), algo == "mc");
            if r.solved {
                assert_eq!(Some(d.moves_made), r.length);
            }
            // the keys in alphabetical order at every depth, as a JSON value orders them
            let json = serde_json::to_string(&r.details).unwrap();
            let sorted = serde_json::to_value(&r.details).unwrap().to_string();
            assert_eq!(json, sorted);
            assert!(json.starts_with(r#"{"attempts":"#), "{json}");
            assert!(
                json.contains(r#""solver":{"count":"pushes","max_moves":"#),
                "{json}"
            );
        }
    }

    #[test]
    fn an_answer_the_rules_reject_is_an_internal_error() {
        // What a lying engine would hand over: an illegal push, then a legal one that does
        // not solve. Neither may reach a report.
        let level = tiny();
        let details = SolveDetails::Exact(ExactDetails {
            dead: None,
            engine: "fast",
            start_bound: 0,
            symmetries: None,
        });
        let mut r = report(PushPush, &level, "tiny", "bfs", details);
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
        let honest = solve_typed(PushPush, &level, &SolveOptions::default()).unwrap();
        let moves: Vec<Push> = honest.moves_of();
        assert!(!moves.is_empty());
        accept(PushPush, &level, &mut r, moves, None).unwrap();
        assert!(r.solved);
        assert_eq!(r.length, honest.length);
    }
}
