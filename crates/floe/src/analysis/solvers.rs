//! Running Kluiver's randomised solvers many times and comparing what they find with the
//! optimum (Kluiver 2020, sections 8.1–8.2; `floe bench-solvers`), on any game.
//!
//! Two solvers ([`SolverSpec`]), both from [`crate::search::playout`]:
//!
//! - `random`: the random algorithm — uniform attempts in the game's action space
//!   ([`Puzzle::random_move`]: for ice blocks a (block, direction) pair, impossible ones
//!   included; for the other games a uniformly random legal move), until the puzzle is solved
//!   or `max_moves` attempts were made;
//! - `mc`: BasicMC — every legal move scored by `playouts` random games whose horizon shrinks
//!   with the moves left, at most `max_moves` moves (Kluiver: 250,000 and 15). The playouts'
//!   horizon counts attempts, like the random algorithm's cap (see
//!   [`LegalOnly`](crate::search::playout::LegalOnly) for the other reading, not offered
//!   here).
//!
//! [`run_once`] runs a solver once with a seed (`floe solve --algo random|mc --seed S`);
//! [`bench_solvers`](crate::ops::bench_solvers) runs it `runs` times in parallel and summarises the solutions against the
//! fewest moves (the game's default exact search) and, in games with block changes, the
//! least difficulty (Dijkstra over Kluiver's difficulty).
//!
//! **Seeds.** A run with seed `s` draws everything from `Pcg64Mcg::seed_from_u64(s)`; run `i`
//! (0-based) of a bench with seed `S` uses seed `S + i` (wrapping). So a bench's run `i` can be
//! reproduced alone with `run_once(…, S + i, …)`, and the results do not depend on the number
//! of threads. Only a timeout, which depends on the clock, can make two runs differ.
//!
//! Every solution is replayed by the game's rules ([`replay`](crate::game::replay)) before
//! it is reported; a disagreement is an [`Error::Internal`].

use crate::game::{replay, Engine, Game, ParamValues, Task};
use crate::search::playout::{basic_mc, random_play_with, LegalOnly};
// the solvers and their parameters live beside the random play they name, below the solve
// report that names them too
pub use crate::search::playout::{CapCount, SolverSpec, DEFAULT_RANDOM_MAX_MOVES};
use crate::search::{count_changes, Limits};
use crate::Error;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// One run of a solver; `M` is the game's move (the moves are not serialised).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRecord<M = ()> {
    /// The seed of the run.
    pub seed: u64,
    /// Whether the moves solve the level (checked by the game's rules).
    pub solved: bool,
    /// `timeout` when the time limit stopped the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<&'static str>,
    /// Moves made (the solution's length when solved).
    pub length: u64,
    /// Block changes among them, in games whose moves move one block.
    pub block_changes: Option<u64>,
    /// The run ended on a position with no legal move.
    #[serde(skip)]
    pub stuck: bool,
    /// Random attempts made, possible or not: the random algorithm's own moves, or all the
    /// attempts of BasicMC's playouts.
    pub attempts: u64,
    /// Random games played (BasicMC; 1 for the random algorithm).
    pub playouts: u64,
    /// BasicMC's moves chosen at random because no candidate scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blind_steps: Option<u32>,
    /// Wall-clock time of the run in seconds.
    pub elapsed_secs: f64,
    /// The moves, in order (not serialised: an unsolved random run may hold millions).
    #[serde(skip)]
    pub moves: Vec<M>,
}

impl<M> RunRecord<M> {
    /// Kluiver's difficulty of the moves: moves + `factor` × block changes (games with block
    /// changes only).
    pub fn difficulty(&self, factor: u64) -> Option<u64> {
        self.block_changes
            .map(|c| self.length.saturating_add(factor.saturating_mul(c)))
    }
    /// The record without its moves.
    pub fn without_moves(self) -> RunRecord {
        RunRecord {
            seed: self.seed,
            solved: self.solved,
            limit: self.limit,
            length: self.length,
            block_changes: self.block_changes,
            stuck: self.stuck,
            attempts: self.attempts,
            playouts: self.playouts,
            blind_steps: self.blind_steps,
            elapsed_secs: self.elapsed_secs,
            moves: Vec::new(),
        }
    }
}

/// What a solver task returns from the engine.
struct Raw<M> {
    moves: Vec<M>,
    changes: Option<u64>,
    solved: bool,
    stuck: bool,
    limit: Option<&'static str>,
    attempts: u64,
    playouts: u64,
    blind_steps: Option<u32>,
}

struct RunTask<'a> {
    solver: SolverSpec,
    seed: u64,
    limits: &'a Limits,
}

impl<M> Task<M> for RunTask<'_> {
    type Output = Raw<M>;
    fn run<E: Engine<Public = M>>(self, p: &E) -> Raw<M> {
        let mut rng = Pcg64Mcg::seed_from_u64(self.seed);
        let start = p.start();
        let (moves, solved, limit, attempts, playouts, blind_steps, stuck) = match self.solver {
            SolverSpec::Random { max_moves, count } => {
                let r = match count {
                    CapCount::Attempts => {
                        random_play_with(p, &start, max_moves, &mut rng, self.limits)
                    }
                    CapCount::Pushes => {
                        random_play_with(&LegalOnly(p), &start, max_moves, &mut rng, self.limits)
                    }
                };
                (
                    r.moves,
                    r.solved,
                    r.limit,
                    r.attempts as u64,
                    1,
                    None,
                    r.stuck,
                )
            }
            SolverSpec::Mc {
                playouts,
                max_moves,
                count,
            } => {
                let r = match count {
                    CapCount::Attempts => basic_mc(p, playouts, max_moves, &mut rng, self.limits),
                    CapCount::Pushes => {
                        basic_mc(&LegalOnly(p), playouts, max_moves, &mut rng, self.limits)
                    }
                };
                let blind = r.blind_steps();
                (
                    r.moves,
                    r.solved,
                    r.limit,
                    r.attempts,
                    r.playouts,
                    Some(blind),
                    r.stuck,
                )
            }
        };
        Raw {
            changes: count_changes(p, &moves),
            stuck,
            moves: moves.iter().map(|m| p.public(m)).collect(),
            solved,
            limit: limit.map(|l| l.name()),
            attempts,
            playouts,
            blind_steps,
        }
    }
}

/// Runs `solver` once on `level`, drawing everything from `Pcg64Mcg::seed_from_u64(seed)`. A
/// solution is replayed by the game's rules; if it does not replay, does not solve, or its
/// block changes disagree with the engine's, the result is an [`Error::Internal`]. An
/// unsolved run returns the moves it made (not replayed).
///
/// `limits`: only the timeout applies.
pub fn run_once<G: Game>(
    g: G,
    level: &G::Level,
    solver: &SolverSpec,
    seed: u64,
    limits: &Limits,
) -> Result<RunRecord<G::Move>, Error> {
    solver.check()?;
    g.check(level)?;
    let began = Instant::now();
    let raw = g.engine(
        level,
        None,
        RunTask {
            solver: *solver,
            seed,
            limits,
        },
    )?;
    if raw.solved {
        let who = || format!("the {} solution (seed {seed})", solver.name());
        let r = replay(g, level, &raw.moves).map_err(|(i, why)| {
            Error::Internal(format!(
                "{} does not replay: move {} is illegal: {why}",
                who(),
                i + 1
            ))
        })?;
        if !r.solved {
            return Err(Error::Internal(format!(
                "{} replays but does not solve the level",
                who()
            )));
        }
        if let Some(engine) = raw.changes {
            let d = g.difficulty(level, &raw.moves, &r.steps, 0)?;
            let replayed = d.as_ref().and_then(|d| d.part_u64("block_changes"));
            if replayed.is_some_and(|c| c != engine) {
                return Err(Error::Internal(format!(
                    "{} has {replayed:?} block changes in the replay, {engine} in the engine",
                    who()
                )));
            }
        }
    }
    Ok(RunRecord {
        seed,
        solved: raw.solved,
        limit: raw.limit,
        length: raw.moves.len() as u64,
        block_changes: raw.changes,
        stuck: raw.stuck,
        attempts: raw.attempts,
        playouts: raw.playouts,
        blind_steps: raw.blind_steps,
        elapsed_secs: began.elapsed().as_secs_f64(),
        moves: raw.moves,
    })
}

/// Summary of a list of values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    /// Number of values.
    pub count: u32,
    /// Smallest.
    pub min: u64,
    /// Median (mean of the two middle values for an even count).
    pub median: f64,
    /// Mean.
    pub mean: f64,
    /// Largest.
    pub max: u64,
    /// value → how many times it occurs.
    pub histogram: BTreeMap<u64, u32>,
}

impl Distribution {
    /// The summary of `values`; `None` when there are none.
    pub fn of(values: &[u64]) -> Option<Distribution> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_unstable();
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2] as f64
        } else {
            (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
        };
        let mut histogram = BTreeMap::new();
        for &x in &v {
            *histogram.entry(x).or_insert(0) += 1;
        }
        Some(Distribution {
            count: n as u32,
            min: v[0],
            median,
            mean: v.iter().map(|&x| x as f64).sum::<f64>() / n as f64,
            max: v[n - 1],
            histogram,
        })
    }
}

/// Length, block changes and difficulty of one solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// Moves.
    pub length: u64,
    /// Block changes (games with block changes).
    pub block_changes: Option<u64>,
    /// Moves + factor × block changes (games with block changes).
    pub difficulty: Option<u64>,
}

/// The exact optima the runs are compared with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Optimum {
    /// `solved`, `unsolvable`, or the limit that stopped one of the searches.
    pub status: &'static str,
    /// A solution with the fewest moves.
    pub fewest_moves: Option<Figures>,
    /// A solution with the least difficulty at the bench's factor, fewest moves among those
    /// (games with block changes).
    pub least_difficulty: Option<Figures>,
}

/// One run of a bench: the record and its difficulty at the bench's factor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRun {
    /// The run.
    #[serde(flatten)]
    pub run: RunRecord,
    /// Moves + factor × block changes of the moves made (games with block changes).
    pub difficulty: Option<u64>,
}

/// The result of [`bench_solvers`](crate::ops::bench_solvers).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolverBench {
    /// The game.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// The parameters in force.
    pub params: ParamValues,
    /// The solver and its parameters.
    pub solver: SolverSpec,
    /// Number of runs.
    pub runs: u32,
    /// Seed of run 0; run `i` uses `seed + i`.
    pub seed: u64,
    /// Block-change factor of the difficulty (games with block changes).
    pub factor: Option<u64>,
    /// Runs that solved the level.
    pub solved: u32,
    /// `solved / runs`.
    pub success_rate: f64,
    /// Runs stopped by the time limit.
    pub limited: u32,
    /// The optima.
    pub optimum: Optimum,
    /// Lengths of the solutions found.
    pub lengths: Option<Distribution>,
    /// Block changes of the solutions found.
    pub block_changes: Option<Distribution>,
    /// Difficulty of the solutions found.
    pub difficulty: Option<Distribution>,
    /// Solutions as short as the fewest moves.
    pub runs_with_fewest_moves: u32,
    /// Solutions as easy as the least difficulty.
    pub runs_with_least_difficulty: u32,
    /// Mean random attempts per run, over all runs.
    pub mean_attempts: f64,
    /// Mean wall-clock seconds per run.
    pub mean_secs: f64,
    /// Wall-clock seconds of the whole bench, optima included.
    pub elapsed_secs: f64,
    /// Every run, in seed order (moves not included).
    pub per_run: Vec<BenchRun>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MAX_FACTOR;
    use crate::games::ice::format::zelda;
    use crate::games::ice::{replay, Ice, WalkRule};
    use crate::grid::Push;
    use crate::ops::bench_solvers;
    use std::time::Duration;

    /// What two runs must share to count as the same run (everything but the clock).
    fn key(r: &RunRecord<Push>) -> (bool, u64, Option<u64>, u64, u64, Vec<Push>) {
        (
            r.solved,
            r.length,
            r.block_changes,
            r.attempts,
            r.playouts,
            r.moves.clone(),
        )
    }

    #[test]
    fn distributions_summarise() {
        let d = Distribution::of(&[5, 3, 9, 3]).unwrap();
        assert_eq!((d.count, d.min, d.max), (4, 3, 9));
        assert_eq!(d.median, 4.0);
        assert_eq!(d.mean, 5.0);
        assert_eq!(d.histogram, BTreeMap::from([(3, 2), (5, 1), (9, 1)]));
        assert_eq!(Distribution::of(&[7, 1, 4]).unwrap().median, 4.0);
        assert!(Distribution::of(&[]).is_none());
    }

    #[test]
    fn runs_are_repeatable_and_depend_on_the_seed() {
        let l = zelda("TPIBC3");
        let mut solvers = Vec::new();
        for count in [CapCount::Pushes, CapCount::Attempts] {
            solvers.push(SolverSpec::Mc {
                playouts: 300,
                max_moves: 15,
                count,
            });
            solvers.push(SolverSpec::Random {
                max_moves: 3_000,
                count,
            });
        }
        for solver in solvers {
            let a = run_once(Ice, &l, &solver, 42, &Limits::none()).unwrap();
            let b = run_once(Ice, &l, &solver, 42, &Limits::none()).unwrap();
            assert_eq!(key(&a), key(&b), "{solver}");
            let differ = (43..48)
                .any(|s| key(&run_once(Ice, &l, &solver, s, &Limits::none()).unwrap()) != key(&a));
            assert!(differ, "{solver}");
        }
    }

    #[test]
    fn basic_mc_solves_tpibc1_and_the_solutions_replay() {
        let l = zelda("TPIBC1");
        let solver = SolverSpec::Mc {
            playouts: 2_000,
            max_moves: 15,
            count: CapCount::Attempts,
        };
        let b = bench_solvers(Ice, &l, "t", &solver, 6, 1, Some(5), &Limits::none(), None).unwrap();
        assert_eq!(b.solved, 6, "{b:?}");
        assert_eq!(b.success_rate, 1.0);
        // the reference figures (spec): 7 pushes at least; least difficulty 18 / 8 / 2
        let fewest = b.optimum.fewest_moves.unwrap();
        assert_eq!(fewest.length, 7);
        let easiest = b.optimum.least_difficulty.unwrap();
        assert_eq!(
            (easiest.difficulty, easiest.length, easiest.block_changes),
            (Some(18), 8, Some(2))
        );
        assert_eq!(b.optimum.status, "solved");
        let p = b.lengths.as_ref().unwrap();
        assert!(p.min >= 7 && p.max <= 15);
        assert!(b.difficulty.as_ref().unwrap().min >= 18);
        assert_eq!(b.per_run.len(), 6);
        for (i, r) in b.per_run.iter().enumerate() {
            assert_eq!(r.run.seed, 1 + i as u64);
            assert_eq!(
                r.difficulty,
                Some(r.run.length + 5 * r.run.block_changes.unwrap())
            );
        }
        // run i of the bench is run_once with seed + i
        let again = run_once(Ice, &l, &solver, 4, &Limits::none()).unwrap();
        let third = &b.per_run[3].run;
        assert_eq!(
            (again.length, again.block_changes, again.attempts),
            (third.length, third.block_changes, third.attempts)
        );
        assert!(replay(&l, WalkRule::Free, &again.moves).unwrap().solved);
        // the summary serialises
        let json = serde_json::to_string(&b).unwrap();
        assert!(json.contains("\"name\":\"mc\"") && json.contains("\"playouts\":2000"));
    }

    #[test]
    fn random_play_solves_a_one_block_room_most_of_the_time() {
        let l = zelda("STST1");
        let solver = SolverSpec::Random {
            max_moves: 1_000_000,
            count: CapCount::Attempts,
        };
        let b =
            bench_solvers(Ice, &l, "t", &solver, 20, 7, Some(5), &Limits::none(), None).unwrap();
        assert!(b.solved >= 12, "{} of 20", b.solved);
        let fewest = b.optimum.fewest_moves.unwrap().length;
        assert_eq!(fewest, 5);
        assert!(b.lengths.unwrap().min >= fewest);
        for r in &b.per_run {
            assert!(r.run.solved || r.run.attempts == 1_000_000);
            assert_eq!(r.run.playouts, 1);
        }
    }

    #[test]
    fn the_walk_rule_and_bad_parameters() {
        let mut l = zelda("TPIBC1");
        l.rules = Some(WalkRule::Walk);
        let r = run_once(
            Ice,
            &l,
            &SolverSpec::Random {
                max_moves: 100_000,
                count: CapCount::Pushes,
            },
            3,
            &Limits::none(),
        )
        .unwrap();
        if r.solved {
            assert!(replay(&l, WalkRule::Walk, &r.moves).unwrap().solved);
        }
        let bad = SolverSpec::Mc {
            playouts: 0,
            max_moves: 15,
            count: CapCount::Pushes,
        };
        assert!(run_once(Ice, &l, &bad, 0, &Limits::none()).is_err());
        let ok = SolverSpec::random();
        assert!(bench_solvers(Ice, &l, "t", &ok, 0, 0, Some(5), &Limits::none(), None).is_err());
        assert!(bench_solvers(
            Ice,
            &l,
            "t",
            &ok,
            1,
            0,
            Some(MAX_FACTOR + 1),
            &Limits::none(),
            None
        )
        .is_err());
    }

    #[test]
    fn counting_pushes_makes_basic_mc_stronger() {
        // TPIBC1 with 300 playouts: counting only pushes, BasicMC solves more runs than
        // counting every draw (19 against 10 of 20 with these seeds; the thesis's results fit
        // the first reading).
        let l = zelda("TPIBC1");
        let solved = |count| {
            let solver = SolverSpec::Mc {
                playouts: 300,
                max_moves: 15,
                count,
            };
            bench_solvers(Ice, &l, "t", &solver, 20, 1, Some(5), &Limits::none(), None)
                .unwrap()
                .solved
        };
        let pushes = solved(CapCount::Pushes);
        let attempts = solved(CapCount::Attempts);
        assert!(pushes > attempts, "pushes {pushes}, attempts {attempts}");
        assert_eq!("moves".parse::<CapCount>(), Ok(CapCount::Pushes));
        assert!("tries".parse::<CapCount>().is_err());
    }

    #[test]
    fn a_timeout_is_reported_per_run() {
        let l = zelda("TPIBC3");
        let limits = Limits::none().timeout(Duration::ZERO);
        let r = run_once(Ice, &l, &SolverSpec::kluiver_mc(), 0, &limits).unwrap();
        assert!(!r.solved);
        assert_eq!(r.limit, Some("timeout"));
    }

    /// Kluiver's setting (250,000 playouts, 15 moves) on TPIBC3, a few runs (run with
    /// `--ignored --nocapture`; takes a while).
    #[test]
    #[ignore]
    fn kluiver_settings_on_tpibc3() {
        let l = zelda("TPIBC3");
        let b = bench_solvers(
            Ice,
            &l,
            "TPIBC3",
            &SolverSpec::kluiver_mc(),
            4,
            1,
            Some(5),
            &Limits::none(),
            None,
        )
        .unwrap();
        let mut b2 = b.clone();
        b2.per_run.truncate(0);
        println!("{}", serde_json::to_string_pretty(&b2).unwrap());
        for r in &b.per_run {
            println!("{}", serde_json::to_string(r).unwrap());
        }
    }
}
