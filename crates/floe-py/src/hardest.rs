//! The hardest levels of a size (`floe hardest`), for every game that has the search.

use crate::convert::{duration_from_py, json, limits_from_py};
use crate::run::detached;
use floe::game::hardest::{By, Counts, HardestOptions, Method};
use floe::game::Params;
use floe::ops::hardest as run_hardest;
use floe::search::Limits;
use floe::Error;
use pyo3::prelude::*;

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(hardest, m)?)?;
    Ok(())
}

/// The levels of a size whose optimal solution is the longest, each verified by the exact
/// solver: the document of `floe hardest --json`.
#[pyfunction]
#[pyo3(signature = (game, rows, cols, rocks, blocks, targets, walls, floor, rules, k, by,
    factor, anneal, seed, restarts, steps, time, top, progress=None))]
#[allow(clippy::too_many_arguments)]
fn hardest(
    py: Python<'_>,
    game: String,
    rows: usize,
    cols: usize,
    rocks: Option<usize>,
    blocks: Option<usize>,
    targets: Option<usize>,
    walls: Option<usize>,
    floor: Option<usize>,
    rules: Option<String>,
    k: Option<String>,
    by: String,
    factor: Option<u64>,
    anneal: bool,
    seed: u64,
    restarts: usize,
    steps: u64,
    time: Option<Bound<'_, PyAny>>,
    top: usize,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let timeout = duration_from_py("time", time)?;
    let watch = limits_from_py((None, None, None, false, progress))?;
    detached(py, || {
        let mut o = HardestOptions::new(rows, cols);
        let mut p = Params::new();
        if let Some(r) = rules {
            p.set("rules", r, "rules");
        }
        if let Some(k) = k {
            p.set("k", k, "k");
        }
        o.params = p;
        let mut counts = Counts::new();
        counts.set_given("rocks", rocks);
        counts.set_given("blocks", blocks);
        counts.set_given("targets", targets);
        counts.set_given("walls", walls);
        counts.set_given("floor", floor);
        o.by = match by.trim().to_ascii_lowercase().as_str() {
            "length" => By::Length,
            "difficulty" => By::Difficulty,
            other => {
                return Err(Error::invalid(format!(
                    "by={other:?}: expected 'length' or 'difficulty'"
                )))
            }
        };
        o.factor = factor;
        o.method = if anneal {
            Method::Anneal
        } else {
            Method::Exact
        };
        o.seed = seed;
        o.restarts = restarts;
        o.steps = steps;
        o.top = top;
        o.limits = Limits {
            timeout,
            // PushPush's census tells its push steps
            progress: watch.limits_by_steps().progress,
            ..Limits::none()
        };
        o.progress = watch.tally();
        json(&run_hardest(&game, &o, &counts)?)
    })
}
