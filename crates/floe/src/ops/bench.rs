//! Randomised solvers against the optimum, on a level of any game (`floe bench-solvers`): the
//! exact optima solved once, then the seeded runs of
//! [`run_once`](crate::analysis::solvers::run_once), compared with them in a
//! [`SolverBench`].

use super::solve::{solve_typed, SolveOptions};
use crate::analysis::solvers::{
    run_once, BenchRun, Distribution, Figures, Optimum, SolverBench, SolverSpec,
};
use crate::error::Error;
use crate::game::{factor_of, Game, ParamValues, Status};
use crate::search::{Limits, Tally};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The optimum of one kind: `Ok(Some)` solved, `Ok(None)` unsolvable, `Err(status)` stopped.
fn optimum<G: Game>(
    g: G,
    level: &G::Level,
    algorithm: Option<&str>,
    factor: Option<u64>,
    limits: &Limits,
) -> Result<Result<Option<Figures>, &'static str>, Error> {
    let o = SolveOptions {
        algorithm: algorithm.map(str::to_string),
        factor,
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    let r = solve_typed(g, level, &o)?;
    Ok(match r.status {
        Status::Solved => {
            let d = r.difficulty.as_ref().filter(|d| d.measure == "kluiver");
            Ok(Some(Figures {
                length: r.length.unwrap_or(0),
                block_changes: d.and_then(|d| d.part_u64("block_changes")),
                difficulty: d.and_then(|d| d.value.as_u64()),
            }))
        }
        Status::Unsolvable => Ok(None),
        Status::Limit | Status::GaveUp => Err(r.limit.unwrap_or("limit")),
    })
}

/// Runs `solver` `runs` times on `level` (run `i` with seed `seed + i`, in parallel) and
/// compares the solutions with the fewest moves and, in games with block changes, the least
/// difficulty at `factor` (each computed once). `limits` apply to each exact search and to
/// each run on its own (only the timeout matters for the runs); `told` hears the runs done of
/// all runs.
#[allow(clippy::too_many_arguments)]
pub fn bench_solvers<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    solver: &SolverSpec,
    runs: u32,
    seed: u64,
    factor: Option<u64>,
    limits: &Limits,
    told: Option<&Tally>,
) -> Result<SolverBench, Error> {
    solver.check()?;
    if runs == 0 {
        return Err(Error::invalid("the number of runs must be at least 1"));
    }
    let changes = g.info().capabilities.block_changes;
    let f = factor_of(g, factor)?;
    let began = Instant::now();
    let fewest = optimum(g, level, None, factor, limits)?;
    let easiest = if changes {
        optimum(g, level, Some("difficulty"), factor, limits)?
    } else {
        Ok(None)
    };
    let status = match (&fewest, &easiest) {
        (Err(l), _) | (_, Err(l)) => *l,
        (Ok(None), _) => "unsolvable",
        _ => "solved",
    };
    let optimum = Optimum {
        status,
        fewest_moves: fewest.ok().flatten(),
        least_difficulty: easiest.ok().flatten(),
    };
    // after Ctrl-C or a stop, the runs not begun are left out: the report is of those done
    let done = AtomicU64::new(0);
    let per_run: Vec<BenchRun> = (0..runs)
        .into_par_iter()
        .map(|i| {
            if limits.halted().is_some() {
                return Ok(None);
            }
            let run = run_once(g, level, solver, seed.wrapping_add(i as u64), limits)?;
            if let Some(t) = told {
                t.tell(
                    done.fetch_add(1, Ordering::Relaxed) + 1,
                    Some(u64::from(runs)),
                );
            }
            let difficulty = if changes { run.difficulty(f) } else { None };
            Ok(Some(BenchRun {
                run: run.without_moves(),
                difficulty,
            }))
        })
        .collect::<Result<Vec<_>, Error>>()?
        .into_iter()
        .flatten()
        .collect();
    let runs = per_run.len() as u32;
    if let Some(t) = told {
        t.end(u64::from(runs));
    }
    let solved: Vec<&BenchRun> = per_run.iter().filter(|r| r.run.solved).collect();
    let lengths: Vec<u64> = solved.iter().map(|r| r.run.length).collect();
    let block: Vec<u64> = solved.iter().filter_map(|r| r.run.block_changes).collect();
    let difficulty: Vec<u64> = solved.iter().filter_map(|r| r.difficulty).collect();
    let runs_with_fewest_moves = optimum.fewest_moves.map_or(0, |o| {
        lengths.iter().filter(|&&x| x == o.length).count() as u32
    });
    let runs_with_least_difficulty = optimum
        .least_difficulty
        .and_then(|o| o.difficulty)
        .map_or(0, |o| difficulty.iter().filter(|&&x| x == o).count() as u32);
    let n = (per_run.len() as f64).max(1.0);
    Ok(SolverBench {
        game: g.info().name,
        level: name.to_string(),
        params: ParamValues(g.params(level)),
        solver: *solver,
        runs,
        seed,
        factor: changes.then_some(f),
        solved: solved.len() as u32,
        success_rate: solved.len() as f64 / n,
        limited: per_run.iter().filter(|r| r.run.limit.is_some()).count() as u32,
        lengths: Distribution::of(&lengths),
        block_changes: if changes {
            Distribution::of(&block)
        } else {
            None
        },
        difficulty: if changes {
            Distribution::of(&difficulty)
        } else {
            None
        },
        runs_with_fewest_moves,
        runs_with_least_difficulty,
        mean_attempts: per_run.iter().map(|r| r.run.attempts as f64).sum::<f64>() / n,
        mean_secs: per_run.iter().map(|r| r.run.elapsed_secs).sum::<f64>() / n,
        elapsed_secs: began.elapsed().as_secs_f64(),
        optimum,
        per_run,
    })
}
