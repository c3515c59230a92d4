//! The Monte Carlo experiments of Goadrich and Droscha (spec `solitaire.md`, section
//! "Experiments"): generate challenges with a setup, solve each exactly, play one random game
//! on each, and summarise per setup; compare setups with t-tests and a Kruskal–Wallis test.
//!
//! # Protocol
//!
//! `challenges` challenges are split into `trials` consecutive groups (10 × 100 in the
//! paper). Challenge `i` draws everything from its own generator, `Pcg64Mcg` seeded with
//! [`challenge_seed`]`(seed, setup, i)`: first the setup, then the random playout. So a run is the same
//! on any number of threads, challenge `i` can be regenerated alone, and runs with more
//! challenges extend runs with fewer. For each challenge:
//!
//! - **solvable** (P(Sp)): the exact solver (each game's default, [`Challenge::solve`]:
//!   depth-first with a dead-state table for BoxOff, breadth-first for Pretzel, A* with "empty
//!   summit spaces" for Fujisan);
//!   its solution has the fewest moves, which is the **length**;
//! - **first solution found depth-first** (`dfs_first_length`): the length of the first
//!   solution of a depth-first search ([`search::dfs_first`](crate::search::dfs_first): the
//!   engine's successors tried in their order, positions entered once), which is what the
//!   authors' BoxOff solver reports as its average length — their "breadth-first" search pops
//!   a stack. Every BoxOff solution removes all h·w tokens two at a time, so there it is the
//!   fewest moves (BoxOff's exact solver is this very search); Pretzel and Fujisan solutions
//!   vary in length, and a depth-first search's first one is longer;
//! - **random** (P(Sr)): one random game ([`Challenge::random_game`]), a successor chosen
//!   uniformly at random each step, until solved, stuck, or — the player of the authors'
//!   published C# programs — a move onto a position already visited in this game
//!   ([`GiveUp::Revisit`], the default; no move horizon). [`GiveUp::Horizon`] plays on
//!   through repeated positions up to a number of moves instead. BoxOff positions never
//!   repeat (every move removes two tokens); Fujisan positions do (a priest can step up and
//!   down again);
//! - the game's **diagnostic**: BoxOff pair equality; Pretzel cyclic blockades in the deal;
//!   Fujisan connectivity, counter-intuitive moves on the shortest solution found, and whether
//!   all steps are distinct pairs.
//!
//! A challenge whose search hits a limit is counted as not solvable and reported under
//! `limit_hits`, so the fractions are then lower bounds.
//!
//! [`exact_pretzel`] replaces sampling by enumeration for small Pretzel deals.

mod exact;
mod figures;

pub use exact::{exact_pretzel, Exact, EXACT_LIMIT};
pub use figures::{figures, size_key, ExperimentReport, GeneratedChallenge, SizeRun};

use super::stats::{self, KruskalWallis, TTest};
use crate::error::Error;
use crate::games::solitaire::{fujisan, pretzel, Challenge, Kind};
use crate::generate::{self, Setup, Size};
use crate::search::playout::{End, GiveUp};
use crate::search::{Limits, Status};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Game and size.
    pub size: Size,
    /// The setup.
    pub setup: Setup,
    /// Challenges in all.
    pub challenges: u64,
    /// Groups of consecutive challenges (the paper: 10).
    pub trials: u32,
    /// The run's seed.
    pub seed: u64,
    /// When the random player gives up (besides solved or stuck): the authors' rule
    /// ([`GiveUp::Revisit`]) or a horizon of moves.
    pub random_player: GiveUp,
    /// Limits for each challenge's exact search.
    pub limits: Limits,
}

impl Config {
    /// `challenges` of `size` and `setup` as the paper runs them: 10 trials, seed 1, the
    /// authors' random player, no limits on the exact searches.
    pub fn new(size: Size, setup: Setup, challenges: u64) -> Config {
        Config {
            size,
            setup,
            challenges,
            trials: 10,
            seed: 1,
            random_player: GiveUp::Revisit,
            limits: Limits::none(),
        }
    }
}

/// SplitMix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a of a name: a stable number per setup, whatever the order of [`Setup`]'s variants.
fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The seed of challenge `index` of a run of `setup` seeded with `seed`. The setup takes part,
/// so that two setups of one run draw independent challenges (their t-tests assume it), even
/// when they deal the same way (Sequential and Banded Suits when k = n).
pub fn challenge_seed(seed: u64, setup: Setup, index: u64) -> u64 {
    mix(seed ^ mix(index ^ name_hash(setup.name())))
}

/// Challenge `index` of a run: the same challenge the experiment solves.
pub fn challenge(size: Size, setup: Setup, seed: u64, index: u64) -> Result<Challenge, Error> {
    let mut rng = Pcg64Mcg::seed_from_u64(challenge_seed(seed, setup, index));
    generate::generate(size, setup, &mut rng)
}

/// The game-specific diagnostic of one challenge.
#[derive(Clone, Debug, PartialEq)]
pub enum Diagnostic {
    /// BoxOff: pair equality of the board.
    BoxOff {
        /// Share of adjacent cell pairs with equal colours.
        pair_equality: f64,
    },
    /// Pretzel: cyclic blockades present in the deal.
    Pretzel {
        /// A ducking crab.
        crab: bool,
        /// Duelling deuces (a cycle of 2s in column 0).
        deuces: bool,
    },
    /// Fujisan.
    Fujisan {
        /// Step connectivity.
        connectivity: f64,
        /// Counter-intuitive moves on the shortest solution found (solvable challenges).
        counter_intuitive: Option<u32>,
        /// Whether every step is a different pair of values.
        distinct_steps: bool,
    },
}

/// The outcome for one challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Exact solver's verdict.
    pub status: Status,
    /// Fewest moves, when solvable.
    pub length: Option<u32>,
    /// Moves of the first solution a depth-first search finds, when solvable (and the search
    /// stayed within the limits).
    pub dfs_length: Option<u32>,
    /// Whether the random game solved it.
    pub random: bool,
    /// How the random game ended.
    pub random_end: End,
    /// Moves the random game made.
    pub random_moves: u32,
    /// States the exact search stored.
    pub states: u64,
    /// The diagnostic.
    pub diagnostic: Diagnostic,
}

impl Record {
    /// Whether the exact solver found a solution.
    pub fn solvable(&self) -> bool {
        self.status == Status::Solved
    }
}

/// Generates, solves and plays challenge `index` of a run.
pub fn run_challenge(
    size: Size,
    setup: Setup,
    seed: u64,
    index: u64,
    random_player: GiveUp,
    limits: &Limits,
) -> Result<Record, Error> {
    let mut rng = Pcg64Mcg::seed_from_u64(challenge_seed(seed, setup, index));
    let c = generate::generate(size, setup, &mut rng)?;
    let walk = c.random_game(random_player, &mut rng);
    let random = walk.end == End::Solved;
    let report = c.solve(None, limits)?;
    let status = match report.status {
        crate::game::Status::Solved => Status::Solved,
        crate::game::Status::Unsolvable => Status::Unsolvable,
        _ => Status::Limit(
            report
                .limit_kind()
                .unwrap_or(crate::search::LimitKind::MaxStates),
        ),
    };
    let length = (status == Status::Solved).then_some(report.moves.len() as u32);
    let dfs_length = match &c {
        // the exact solver is the depth-first search: its first solution
        Challenge::BoxOff(_) => length,
        Challenge::Pretzel(d) => dfs_first_length(&pretzel::Pretzel::new(d), limits),
        Challenge::Fujisan(m) => dfs_first_length(&fujisan::Fujisan::new(m), limits),
    };
    let diagnostic = match &c {
        Challenge::BoxOff(b) => Diagnostic::BoxOff {
            pair_equality: b.pair_equality(),
        },
        Challenge::Pretzel(d) => {
            let b = d.blockades();
            Diagnostic::Pretzel {
                crab: !b.ducking_crabs.is_empty(),
                deuces: !b.duelling_deuces.is_empty(),
            }
        }
        Challenge::Fujisan(m) => {
            let moves: Vec<fujisan::Move> = report.moves_of();
            Diagnostic::Fujisan {
                connectivity: m.connectivity(),
                counter_intuitive: length.map(|_| m.counter_intuitive(&moves) as u32),
                distinct_steps: m.distinct_steps(),
            }
        }
    };
    if random && status == Status::Unsolvable {
        return Err(Error::Internal(format!(
            "challenge {index}: a random game solved a challenge the exact solver calls unsolvable"
        )));
    }
    let dfs_wrong = match (dfs_length, length) {
        (Some(d), Some(l)) => d < l,
        (Some(_), None) => status == Status::Unsolvable,
        _ => false,
    };
    if dfs_wrong {
        return Err(Error::Internal(format!(
            "challenge {index}: a depth-first search found {dfs_length:?} moves, the exact solver {length:?}"
        )));
    }
    Ok(Record {
        status,
        length,
        dfs_length,
        random,
        random_end: walk.end,
        random_moves: walk.moves,
        states: report.states,
        diagnostic,
    })
}

/// Moves of the first solution [`search::dfs_first`](crate::search::dfs_first) finds.
fn dfs_first_length<P: crate::search::Puzzle>(p: &P, limits: &Limits) -> Option<u32> {
    let r = crate::search::dfs_first(p, limits);
    r.outcome.solution().map(|m| m.len() as u32)
}

/// Runs `f` on a pool of `threads` worker threads (default: one per core). The experiments'
/// results do not depend on the number.
pub fn in_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, Error> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err(Error::invalid("the number of threads must be at least 1"));
        }
        b = b.num_threads(t);
    }
    let pool = b
        .build()
        .map_err(|e| Error::Internal(format!("cannot start worker threads: {e}")))?;
    Ok(pool.install(f))
}

/// Runs every challenge of `config` in parallel (results in challenge order);
/// `progress(done)` is called now and then from worker threads.
pub fn run_records(config: &Config, progress: &(dyn Fn(u64) + Sync)) -> Result<Vec<Record>, Error> {
    generate::check(config.size, config.setup)?;
    if config.trials == 0 || u64::from(config.trials) > config.challenges {
        return Err(Error::invalid(format!(
            "{} trials need at least as many challenges (given {})",
            config.trials, config.challenges
        )));
    }
    let done = AtomicU64::new(0);
    let records: Result<Vec<Record>, Error> = (0..config.challenges)
        .into_par_iter()
        .map(|i| {
            if crate::search::interrupted() {
                return Err(Error::invalid(format!(
                    "interrupted after {} of {} challenges; nothing is reported",
                    done.load(Ordering::Relaxed),
                    config.challenges
                )));
            }
            let r = run_challenge(
                config.size,
                config.setup,
                config.seed,
                i,
                config.random_player,
                &config.limits,
            );
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if d % 64 == 0 || d == config.challenges {
                progress(d);
            }
            r
        })
        .collect();
    if crate::search::interrupted() {
        return Err(Error::invalid(format!(
            "interrupted after {} of {} challenges; nothing is reported",
            done.load(Ordering::Relaxed),
            config.challenges
        )));
    }
    records
}

/// Mean and standard deviation (over trials or challenges).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeanSd {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (0 for one value).
    pub sd: f64,
    /// Values.
    pub n: usize,
}

impl MeanSd {
    /// Of some values.
    pub fn of(x: &[f64]) -> MeanSd {
        let sd = if x.len() < 2 { 0.0 } else { stats::sd(x) };
        MeanSd {
            mean: if x.is_empty() { 0.0 } else { stats::mean(x) },
            sd,
            n: x.len(),
        }
    }
}

/// One trial's fractions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trial {
    /// P(Sp) in this trial.
    pub solvable: f64,
    /// P(Sr) in this trial.
    pub random_solvable: f64,
    /// P(Sp) − P(Sr).
    pub interest: f64,
    /// Challenges in the trial.
    pub challenges: u64,
}

/// Solution lengths of the solvable challenges.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lengths {
    /// Median (null when nothing was solvable).
    pub median: Option<f64>,
    /// Mean.
    pub mean: Option<f64>,
    /// Shortest.
    pub min: Option<u32>,
    /// Longest.
    pub max: Option<u32>,
    /// Challenges per length.
    pub histogram: BTreeMap<u32, u64>,
}

impl Lengths {
    fn of(lengths: &[u32]) -> Lengths {
        let lf: Vec<f64> = lengths.iter().map(|&x| f64::from(x)).collect();
        let mut histogram = BTreeMap::new();
        for &l in lengths {
            *histogram.entry(l).or_insert(0) += 1;
        }
        Lengths {
            median: (!lf.is_empty()).then(|| stats::median(&lf)),
            mean: (!lf.is_empty()).then(|| stats::mean(&lf)),
            min: lengths.iter().copied().min(),
            max: lengths.iter().copied().max(),
            histogram,
        }
    }
}

/// A value split by solvability, with the t-test between the two sides.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Split {
    /// Over all challenges.
    pub all: MeanSd,
    /// Over the solvable ones.
    pub solvable: MeanSd,
    /// Over the unsolvable ones.
    pub unsolvable: MeanSd,
    /// Welch's t-test, solvable against unsolvable.
    pub t_test: Option<TTest>,
}

impl Split {
    fn of(pairs: &[(f64, bool)]) -> Split {
        let all: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let yes: Vec<f64> = pairs.iter().filter(|p| p.1).map(|p| p.0).collect();
        let no: Vec<f64> = pairs.iter().filter(|p| !p.1).map(|p| p.0).collect();
        Split {
            all: MeanSd::of(&all),
            solvable: MeanSd::of(&yes),
            unsolvable: MeanSd::of(&no),
            t_test: stats::welch_t(&yes, &no),
        }
    }
}

/// The game's diagnostic metrics over a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Metrics {
    /// BoxOff.
    BoxOff {
        /// Pair equality by solvability.
        pair_equality: Split,
    },
    /// Pretzel.
    Pretzel {
        /// Cyclic blockades in the deals.
        blockades: BlockadeCounts,
    },
    /// Fujisan.
    Fujisan {
        /// Step connectivity by solvability.
        connectivity: Split,
        /// Counter-intuitive moves on the shortest solutions found.
        counter_intuitive: CounterIntuitive,
        /// Challenges whose steps are all different pairs of values.
        distinct_steps: DistinctSteps,
    },
}

/// How the random games of a run ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Endings {
    /// Solved.
    pub solved: u64,
    /// No move left.
    pub stuck: u64,
    /// A move back onto a position of the game ([`GiveUp::Revisit`]).
    pub revisit: u64,
    /// Out of moves ([`GiveUp::Horizon`]).
    pub horizon: u64,
}

impl Endings {
    fn of(records: &[Record]) -> Endings {
        let mut e = Endings::default();
        for r in records {
            *match r.random_end {
                End::Solved => &mut e.solved,
                End::Stuck => &mut e.stuck,
                End::Revisit => &mut e.revisit,
                End::Horizon => &mut e.horizon,
            } += 1;
        }
        e
    }
}

/// Pretzel deals with a cyclic blockade at the deal (all of them unsolvable).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlockadeCounts {
    /// Deals with a ducking crab.
    pub ducking_crab: u64,
    /// Deals with duelling deuces.
    pub duelling_deuces: u64,
    /// Deals with either.
    pub any: u64,
    /// Share of all deals with either.
    pub share: f64,
    /// Share of the unsolvable deals that a blockade at the deal explains.
    pub share_of_unsolvable: Option<f64>,
}

/// Counter-intuitive moves (away from the summit) on shortest solutions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterIntuitive {
    /// Mean and spread.
    pub moves: MeanSd,
    /// Fewest.
    pub min: Option<u32>,
    /// Most.
    pub max: Option<u32>,
    /// Solutions per count.
    pub histogram: BTreeMap<u32, u64>,
}

/// The distinct-steps restriction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DistinctSteps {
    /// Challenges whose 12 steps are 12 different pairs.
    pub challenges: u64,
    /// Their solvable fraction.
    pub solvable: Option<f64>,
    /// The solvable fraction of the others.
    pub others_solvable: Option<f64>,
}

/// The summary of one run (one game, size and setup).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// `boxoff`, `pretzel` or `fujisan`.
    pub game: &'static str,
    /// Size, e.g. "BoxOff (4, 6, 4)".
    pub size: String,
    /// Setup name.
    pub setup: &'static str,
    /// The paper's name of the setup.
    pub label: &'static str,
    /// The run's seed.
    pub seed: u64,
    /// Challenges.
    pub challenges: u64,
    /// P(Sp).
    pub solvable: f64,
    /// P(Sr).
    pub random_solvable: f64,
    /// P(Sp) − P(Sr).
    pub interest: f64,
    /// 95% Wilson interval of P(Sp).
    pub solvable_ci: [f64; 2],
    /// 95% Wilson interval of P(Sr).
    pub random_solvable_ci: [f64; 2],
    /// Per trial.
    pub trials: Vec<Trial>,
    /// P(Sp) over the trials.
    pub trial_solvable: MeanSd,
    /// P(Sr) over the trials.
    pub trial_random_solvable: MeanSd,
    /// Interest over the trials.
    pub trial_interest: MeanSd,
    /// Solution lengths: the fewest moves.
    pub length: Lengths,
    /// Lengths of the first solutions a depth-first search finds (what the authors' BoxOff
    /// solver, which pops a stack, reports; the same as `length` for BoxOff).
    pub dfs_first_length: Lengths,
    /// The game's diagnostics.
    pub metrics: Metrics,
    /// Challenges whose search stopped at a limit (counted as not solvable).
    pub limit_hits: u64,
    /// The random player: `revisit` (it gives up on a position visited before in the game,
    /// the authors' player) or `horizon` (it plays on through repeats up to
    /// `random_horizon` moves).
    pub random_player: &'static str,
    /// The horizon of the random games (`null` for the authors' player).
    pub random_horizon: Option<u32>,
    /// How the random games ended.
    pub random_endings: Endings,
    /// States stored by all exact searches.
    pub states: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// Raw lengths of the solvable challenges (for the tests between setups).
    #[serde(skip)]
    pub lengths: Vec<u32>,
    /// Counter-intuitive counts (Fujisan).
    #[serde(skip)]
    pub counter_intuitive: Vec<u32>,
}

/// Runs an experiment and summarises it.
pub fn run(config: &Config, progress: &(dyn Fn(u64) + Sync)) -> Result<Summary, Error> {
    let start = Instant::now();
    let records = run_records(config, progress)?;
    Ok(summarise(config, &records, start.elapsed().as_secs_f64()))
}

/// Summarises the records of a run.
pub fn summarise(config: &Config, records: &[Record], seconds: f64) -> Summary {
    let n = records.len() as u64;
    let t = u64::from(config.trials).min(n).max(1);
    let trials: Vec<Trial> = (0..t)
        .map(|j| {
            let group = &records[(j * n / t) as usize..((j + 1) * n / t) as usize];
            let m = group.len() as f64;
            let sp = group.iter().filter(|r| r.solvable()).count() as f64 / m;
            let sr = group.iter().filter(|r| r.random).count() as f64 / m;
            Trial {
                solvable: sp,
                random_solvable: sr,
                interest: sp - sr,
                challenges: group.len() as u64,
            }
        })
        .collect();
    let solvable = records.iter().filter(|r| r.solvable()).count() as u64;
    let random = records.iter().filter(|r| r.random).count() as u64;
    let lengths: Vec<u32> = records.iter().filter_map(|r| r.length).collect();
    let dfs_lengths: Vec<u32> = records.iter().filter_map(|r| r.dfs_length).collect();
    let col = |f: fn(&Trial) -> f64| MeanSd::of(&trials.iter().map(f).collect::<Vec<_>>());
    let mut counter = Vec::new();
    let metrics = match config.size.game() {
        Kind::BoxOff => Metrics::BoxOff {
            pair_equality: Split::of(
                &records
                    .iter()
                    .filter_map(|r| match r.diagnostic {
                        Diagnostic::BoxOff { pair_equality } => Some((pair_equality, r.solvable())),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            ),
        },
        Kind::Pretzel => {
            let (mut crab, mut deuces, mut any) = (0, 0, 0);
            for r in records {
                if let Diagnostic::Pretzel { crab: c, deuces: d } = r.diagnostic {
                    crab += u64::from(c);
                    deuces += u64::from(d);
                    any += u64::from(c || d);
                }
            }
            let unsolvable = records
                .iter()
                .filter(|r| r.status == Status::Unsolvable)
                .count() as u64;
            Metrics::Pretzel {
                blockades: BlockadeCounts {
                    ducking_crab: crab,
                    duelling_deuces: deuces,
                    any,
                    share: any as f64 / n.max(1) as f64,
                    share_of_unsolvable: (unsolvable > 0).then(|| any as f64 / unsolvable as f64),
                },
            }
        }
        _ => {
            let mut conn = Vec::new();
            let (mut distinct, mut distinct_solved, mut other_solved) = (0u64, 0u64, 0u64);
            for r in records {
                if let Diagnostic::Fujisan {
                    connectivity,
                    counter_intuitive,
                    distinct_steps,
                } = r.diagnostic
                {
                    conn.push((connectivity, r.solvable()));
                    counter.extend(counter_intuitive);
                    if distinct_steps {
                        distinct += 1;
                        distinct_solved += u64::from(r.solvable());
                    } else {
                        other_solved += u64::from(r.solvable());
                    }
                }
            }
            let mut hist = BTreeMap::new();
            for &c in &counter {
                *hist.entry(c).or_insert(0) += 1;
            }
            let cf: Vec<f64> = counter.iter().map(|&x| f64::from(x)).collect();
            Metrics::Fujisan {
                connectivity: Split::of(&conn),
                counter_intuitive: CounterIntuitive {
                    moves: MeanSd::of(&cf),
                    min: counter.iter().copied().min(),
                    max: counter.iter().copied().max(),
                    histogram: hist,
                },
                distinct_steps: DistinctSteps {
                    challenges: distinct,
                    solvable: (distinct > 0).then(|| distinct_solved as f64 / distinct as f64),
                    others_solvable: (n > distinct)
                        .then(|| other_solved as f64 / (n - distinct) as f64),
                },
            }
        }
    };
    let sp = solvable as f64 / n.max(1) as f64;
    let sr = random as f64 / n.max(1) as f64;
    Summary {
        game: config.size.game().name(),
        size: config.size.to_string(),
        setup: config.setup.name(),
        label: config.setup.label(),
        seed: config.seed,
        challenges: n,
        solvable: sp,
        random_solvable: sr,
        interest: sp - sr,
        solvable_ci: stats::wilson(solvable, n),
        random_solvable_ci: stats::wilson(random, n),
        trial_solvable: col(|t| t.solvable),
        trial_random_solvable: col(|t| t.random_solvable),
        trial_interest: col(|t| t.interest),
        trials,
        length: Lengths::of(&lengths),
        dfs_first_length: Lengths::of(&dfs_lengths),
        metrics,
        limit_hits: records
            .iter()
            .filter(|r| matches!(r.status, Status::Limit(_)))
            .count() as u64,
        random_player: match config.random_player {
            GiveUp::Revisit => "revisit",
            GiveUp::Horizon(_) => "horizon",
        },
        random_horizon: match config.random_player {
            GiveUp::Revisit => None,
            GiveUp::Horizon(n) => Some(n),
        },
        random_endings: Endings::of(records),
        states: records.iter().map(|r| r.states).sum(),
        seconds,
        lengths,
        counter_intuitive: counter,
    }
}

/// A t-test between two setups on one measure, over the trials.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetupTTest {
    /// First setup.
    pub a: &'static str,
    /// Second setup.
    pub b: &'static str,
    /// `solvable`, `random_solvable` or `interest`.
    pub measure: &'static str,
    /// Mean of a minus mean of b.
    pub difference: f64,
    /// Student's t-test (pooled variance).
    pub student: Option<TTest>,
    /// Welch's t-test.
    pub welch: Option<TTest>,
}

/// Tests between setups.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Every pair of setups, every measure.
    pub t_tests: Vec<SetupTTest>,
    /// Kruskal–Wallis on the solution lengths of the solvable challenges.
    pub kruskal_wallis: Option<KruskalWallis>,
    /// Kruskal–Wallis on the counter-intuitive moves (Fujisan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kruskal_wallis_counter_intuitive: Option<KruskalWallis>,
}

/// The tests between the setups of one size.
pub fn compare(runs: &[Summary]) -> Comparison {
    let mut t_tests = Vec::new();
    type Pick = fn(&Trial) -> f64;
    let measures: [(&'static str, Pick); 3] = [
        ("solvable", |t| t.solvable),
        ("random_solvable", |t| t.random_solvable),
        ("interest", |t| t.interest),
    ];
    for i in 0..runs.len() {
        for j in i + 1..runs.len() {
            for (name, f) in measures {
                let a: Vec<f64> = runs[i].trials.iter().map(f).collect();
                let b: Vec<f64> = runs[j].trials.iter().map(f).collect();
                t_tests.push(SetupTTest {
                    a: runs[i].setup,
                    b: runs[j].setup,
                    measure: name,
                    difference: stats::mean(&a) - stats::mean(&b),
                    student: stats::student_t(&a, &b),
                    welch: stats::welch_t(&a, &b),
                });
            }
        }
    }
    let groups: Vec<Vec<f64>> = runs
        .iter()
        .map(|r| r.lengths.iter().map(|&x| f64::from(x)).collect())
        .collect();
    let ci: Vec<Vec<f64>> = runs
        .iter()
        .map(|r| r.counter_intuitive.iter().map(|&x| f64::from(x)).collect())
        .collect();
    let any_ci = ci.iter().any(|g| !g.is_empty());
    Comparison {
        t_tests,
        kruskal_wallis: stats::kruskal_wallis(&groups),
        kruskal_wallis_counter_intuitive: if any_ci {
            stats::kruskal_wallis(&ci)
        } else {
            None
        },
    }
}

#[cfg(test)]
mod tests;
