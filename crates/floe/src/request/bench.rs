//! The request of `floe bench-solvers` (`/api/bench-solvers`, `floe.bench_solvers`): a
//! randomised solver run many times against the optimum ([`crate::ops::bench`]).

use super::operation::{Context, Operation};
use super::ranges::RUNS;
use super::solve::Random;
use super::value::{number, some, text, within};
use super::{fields, LimitArgs, Naming};
use crate::analysis::solvers::{Figures, SolverBench, SolverSpec, DEFAULT_RANDOM_MAX_MOVES};
use crate::error::Error;
use crate::game::{Game, Info};
use crate::ops::Level;
use crate::say::seconds;
use serde::Deserialize;

/// The solver `bench-solvers` runs by default.
pub const BENCH_ALGO: &str = "mc";
/// Runs by default.
pub const BENCH_RUNS: u32 = 100;

/// `floe bench-solvers`: the solver, its parameters, the runs and the limits.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct BenchSolvers {
    /// The randomised solver: random or mc.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = BENCH_ALGO, value_name = "random|mc")
    )]
    pub algo: String,
    /// Its parameters.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub random: Random,
    /// Runs (run i uses seed S + i).
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value_t = BENCH_RUNS, value_name = "R", value_parser = RUNS.u32())
    )]
    pub runs: u32,
    /// Ice blocks: block-change factor of the difficulty (default 5).
    #[cfg_attr(feature = "cli", arg(long, value_name = "F"))]
    pub factor: Option<u64>,
    /// Limits of each exact search and each run.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub limits: LimitArgs,
}

impl Default for BenchSolvers {
    fn default() -> BenchSolvers {
        BenchSolvers {
            algo: BENCH_ALGO.into(),
            random: Random::default(),
            runs: BENCH_RUNS,
            factor: None,
            limits: LimitArgs::default(),
        }
    }
}

/// Any text (the solver's name).
fn word(s: &str) -> Result<String, String> {
    text(s).map(Option::unwrap_or_default)
}

fields!(
    BenchSolvers {
        algo: word,
        runs: within(RUNS),
        factor: some(number),
    } + random
        + limits
);

impl BenchSolvers {
    /// The solver asked for, with the game's defaults (`naming` names the call in messages).
    pub fn spec(&self, info: &Info, naming: Naming) -> Result<SolverSpec, Error> {
        let r = &self.random;
        Ok(match self.algo.trim().to_ascii_lowercase().as_str() {
            "mc" | "basicmc" | "monte-carlo" => SolverSpec::Mc {
                playouts: r.playouts,
                max_moves: r
                    .max_moves
                    .unwrap_or(crate::search::playout::KLUIVER_MAX_MOVES),
                count: r.count,
            },
            "random" => SolverSpec::Random {
                max_moves: r.max_moves.unwrap_or(if info.random_moves == 0 {
                    DEFAULT_RANDOM_MAX_MOVES
                } else {
                    info.random_moves
                }),
                count: r.count,
            },
            other => {
                let call = match naming {
                    Naming::Keywords => "bench_solvers",
                    _ => "bench-solvers",
                };
                return Err(Error::invalid(format!(
                    "{call} runs the randomised solvers (random, mc), not {other}"
                )));
            }
        })
    }
}

impl Operation for BenchSolvers {
    const NAME: &'static str = "bench-solvers";
    const ABOUT: &'static str = "Run a randomised solver many times and compare its \
         solutions with the optimum (any game)";
    const COUNTS: &'static str = "runs";
    type Report = SolverBench;

    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<SolverBench, Error> {
        let spec = self.spec(game.info(), cx.naming)?;
        crate::ops::bench::bench_solvers(
            game,
            level,
            name,
            &spec,
            self.runs,
            self.random.seed,
            self.factor,
            &cx.limits(&self.limits),
            cx.tally.as_ref(),
        )
    }

    fn limits_mut(&mut self) -> Option<&mut LimitArgs> {
        Some(&mut self.limits)
    }

    fn text(&self, b: &SolverBench, level: &Level) -> String {
        let mut out = format!("{}: {}\n", level.name(), level.describe());
        bench_text(&mut out, b, level.game().info().moves_word());
        out
    }
}

/// The text of a bench's report, after the level's line.
fn bench_text(out: &mut String, b: &SolverBench, word: &str) {
    use std::fmt::Write;
    let _ = writeln!(
        out,
        "{}: {} of {} runs solved ({:.1}%), seeds {}–{}{}",
        b.solver,
        b.solved,
        b.runs,
        100.0 * b.success_rate,
        b.seed,
        b.seed + b.runs.saturating_sub(1) as u64,
        if b.limited > 0 {
            format!(", {} stopped by the time limit", b.limited)
        } else {
            String::new()
        }
    );
    let opt = |f: &Option<Figures>| {
        f.as_ref().map_or("-".to_string(), |f| {
            let mut s = format!("{} {word}", f.length);
            if let (Some(c), Some(d)) = (f.block_changes, f.difficulty) {
                s.push_str(&format!(", {c} block changes, difficulty {d}"));
            }
            s
        })
    };
    let mut line = format!("optimum: fewest {word} {}", opt(&b.optimum.fewest_moves));
    if b.factor.is_some() {
        line.push_str(&format!(
            "; least difficulty {}",
            opt(&b.optimum.least_difficulty)
        ));
    }
    let _ = writeln!(out, "{line}");
    let difficulty = format!("difficulty (factor {})", b.factor.unwrap_or(0));
    for (name, d) in [
        (word, &b.lengths),
        ("block changes", &b.block_changes),
        (difficulty.as_str(), &b.difficulty),
    ] {
        if let Some(d) = d {
            let hist: Vec<String> = d
                .histogram
                .iter()
                .map(|(v, n)| format!("{v}:{n}"))
                .collect();
            let _ = writeln!(
                out,
                "{name}: min {}, median {}, mean {:.2}, max {}   [{}]",
                d.min,
                d.median,
                d.mean,
                d.max,
                hist.join(" ")
            );
        }
    }
    let mut line = format!("runs as short as the optimum: {}", b.runs_with_fewest_moves);
    if b.factor.is_some() {
        line.push_str(&format!(
            "; as easy as the least difficulty: {}",
            b.runs_with_least_difficulty
        ));
    }
    let _ = writeln!(out, "{line}");
    let _ = writeln!(
        out,
        "{:.0} random draws per run on average; {:.2} s per run, {} in all",
        b.mean_attempts,
        b.mean_secs,
        seconds(b.elapsed_secs)
    );
}
