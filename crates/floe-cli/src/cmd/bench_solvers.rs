//! `floe bench-solvers`: a randomised solver run many times against the optimum, any game.

use super::{in_level, request};
use crate::args::BenchSolversArgs;
use crate::out::{self, human_time};
use crate::Done;
use floe::analysis::solvers::{Figures, SolverBench, SolverSpec, DEFAULT_RANDOM_MAX_MOVES};
use floe::Error;

/// `floe bench-solvers`.
pub fn run(a: BenchSolversArgs) -> Result<Done, Error> {
    let req = request(&a.level)?;
    let spec = match a.algo.trim().to_ascii_lowercase().as_str() {
        "mc" | "basicmc" | "monte-carlo" => SolverSpec::Mc {
            playouts: a.random.playouts,
            max_moves: a
                .random
                .max_moves
                .unwrap_or(floe::search::playout::KLUIVER_MAX_MOVES),
            count: a.random.count,
        },
        "random" => SolverSpec::Random {
            max_moves: a
                .random
                .max_moves
                .unwrap_or(if req.game.info().random_moves == 0 {
                    DEFAULT_RANDOM_MAX_MOVES
                } else {
                    req.game.info().random_moves
                }),
            count: a.random.count,
        },
        other => {
            return Err(Error::invalid(format!(
                "bench-solvers runs the randomised solvers (random, mc), not {other}"
            )))
        }
    };
    let limits = a.limits.limits();
    let (bar, tally) = out::Spinner::counting("bench-solvers", "runs");
    let b = req
        .level
        .bench_solvers(
            &spec,
            a.runs,
            a.random.seed,
            a.factor,
            &limits,
            tally.as_ref(),
        )
        .map_err(|e| in_level(req.level.name(), e));
    drop(bar);
    let b = b?;
    if a.json {
        out::json(&b);
        return Ok(Done::Answered);
    }
    outln!("{}: {}", req.level.name(), req.level.describe());
    print_bench(&b, req.game.info().moves_word());
    Ok(Done::Answered)
}

fn print_bench(b: &SolverBench, word: &str) {
    outln!(
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
    outln!("{line}");
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
            outln!(
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
    outln!("{line}");
    outln!(
        "{:.0} random draws per run on average; {:.2} s per run, {} in all",
        b.mean_attempts,
        b.mean_secs,
        human_time(std::time::Duration::from_secs_f64(b.elapsed_secs))
    );
}
