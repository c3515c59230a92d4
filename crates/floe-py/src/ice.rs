//! What only ice blocks have: reach tables (van den Akker), the theses' tables on empty
//! boards, the difficulty profile (Kluiver's Figures 19–27), generation (Kluiver's
//! retrograde generator); and the heat map the notebooks draw reach tables with.

use crate::convert::{
    buffer, check_range, json, le_bytes, limits_from_py, to_py_err, LimitArgs, LimitTuple,
};
use crate::level::{ice_board, in_level, NativeLevel};
use crate::run::detached;
use floe::analysis::ice::profile::{profile as run_profile, ProfileReport};
use floe::analysis::ice::reach::{reach as reach_of, ReachReport};
use floe::analysis::ice::tables::{
    patterns_table as patterns_tables, reach_table as reach_tables, space_table as space_tables,
    strip_table as strip_tables, ReachTableReport, SpaceTableReport,
};
use floe::game::Params;
use floe::games::ice::format::write_floe;
use floe::games::ice::{self, Ice, WalkRule};
use floe::generate::retrograde::{generate as run_generate, shortcut_report};
use floe::ops::Level;
use floe::render::plot::HeatMap;
use floe::request::ranges::{SQUARE_SIDE, STRIP_WIDTH, TABLE_BLOCKS, TABLE_SIDE};
use floe::request::{Generate, GenerateBudget, Naming};
use floe::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use std::time::Instant;

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(reach, m)?)?;
    m.add_function(wrap_pyfunction!(profile, m)?)?;
    m.add_function(wrap_pyfunction!(space_table, m)?)?;
    m.add_function(wrap_pyfunction!(square_table, m)?)?;
    m.add_function(wrap_pyfunction!(strip_table, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(generate_report, m)?)?;
    m.add_function(wrap_pyfunction!(heatmap, m)?)?;
    Ok(())
}

/// The ice block level of `l` and its walking rule; a level of another game gets the
/// command line's refusal.
fn ice_level(l: &Level, what: &str) -> Result<(ice::Level, WalkRule), Error> {
    let level = l.typed::<Ice>().ok_or_else(|| {
        let title = l.game().info().title;
        let a = if title.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        Error::invalid(format!(
            "{what} are computed for ice blocks; {} is {a} {title} level",
            l.name()
        ))
    })?;
    Ok((level.clone(), level.rules.unwrap_or_default()))
}

/// The reach table of a level or an empty board: `(floe reach --json, f64 buffer, rows,
/// cols)`, the buffer holding the fewest pushes per cell row by row, NaN where no block can
/// rest.
#[pyfunction]
fn reach<'py>(
    py: Python<'py>,
    level: &NativeLevel,
    limits: LimitTuple<'py>,
) -> PyResult<(String, Bound<'py, PyByteArray>, usize, usize)> {
    let a = limits_from_py(limits)?;
    let (l, empty) = (&level.level, level.empty);
    let (report, bytes) = detached(py, || {
        let (board, rule) = ice_level(l, "reach tables")?;
        let name = (!empty).then(|| l.name().to_string());
        a.judge(l.name(), l.estimate(), Naming::Keywords)?;
        let t = Instant::now();
        let r = reach_of(&board, rule, &a.limits())
            .map_err(|e| in_level(name.as_deref().unwrap_or("empty board"), e))?;
        let seconds = t.elapsed().as_secs_f64();
        a.finish(r.states);
        let report = ReachReport::new(&r, name, l.params(), board.block_count(), seconds);
        let cells = r
            .moves
            .iter()
            .flatten()
            .map(|m| m.map_or(f64::NAN, f64::from));
        Ok((report, le_bytes(cells)))
    })?;
    let text = json(&report).map_err(|e| to_py_err(py, e))?;
    Ok((text, buffer(py, &bytes), report.rows, report.cols))
}

/// The least difficulty of every reachable position per block-change factor: `(floe
/// profile --json, the figure as SVG or None, the CSV or None)`.
#[pyfunction]
fn profile(
    py: Python<'_>,
    level: &NativeLevel,
    factors: Vec<u64>,
    limits: LimitTuple<'_>,
) -> PyResult<(String, Option<String>, Option<String>)> {
    let a = limits_from_py(limits)?;
    let l = &level.level;
    detached(py, || {
        let (board, rule) = ice_level(l, "difficulty profiles")?;
        if factors.is_empty() {
            return Err(Error::invalid("give at least one factor (factors=[0, 5])"));
        }
        let t = Instant::now();
        let r =
            run_profile(&board, rule, &factors, &a.limits()).map_err(|e| in_level(l.name(), e))?;
        let prof = r.as_ref().ok();
        let doc = ProfileReport::of(
            l.game().info().name,
            l.params(),
            l.name(),
            &r,
            t.elapsed().as_secs_f64(),
        );
        Ok((
            json(&doc)?,
            prof.map(|p| p.figure(l.name()).to_svg()),
            prof.map(|p| p.csv()),
        ))
    })
}

/// Refuses a table whose largest cell, the empty `rows`×`cols` board with `blocks` blocks,
/// does not fit the memory budget (as `floe table` does).
fn judge_table(rows: usize, cols: usize, blocks: usize, a: &LimitArgs) -> Result<(), Error> {
    let blocks = blocks.min(rows * cols / 2);
    let Ok(level) = ice_board(rows, cols, blocks, Params::new()) else {
        return Ok(());
    };
    a.judge(
        &format!("the table's largest cell, {rows}×{cols} with {blocks} blocks"),
        level.estimate(),
        Naming::Keywords,
    )
    .map(|_| ())
}

/// Kluiver's Table 1 and beyond (`floe table space --json`).
#[pyfunction]
fn space_table(
    py: Python<'_>,
    max_rows: usize,
    max_cols: usize,
    max_blocks: usize,
    limits: LimitTuple<'_>,
) -> PyResult<String> {
    let a = limits_from_py(limits)?;
    check_range("max_rows", max_rows, TABLE_SIDE)?;
    check_range("max_cols", max_cols, TABLE_SIDE)?;
    check_range("max_blocks", max_blocks, TABLE_BLOCKS)?;
    detached(py, || {
        judge_table(max_rows.min(max_cols), max_cols, max_blocks, &a)?;
        let t = Instant::now();
        // the callable hears the cells done
        let cells = space_tables(max_rows, max_cols, max_blocks, &a.args.limits(), a.each())?;
        let mut r = SpaceTableReport::new(cells, t.elapsed().as_secs_f64());
        r.peak_rss_bytes = floe::mem::peak_resident_bytes();
        json(&r)
    })
}

/// Van den Akker's tables of empty square boards, `min_size` to `max_size` (1 to 32 each):
/// `"reach"`, the reach tables (`floe table reach --json`), or `"patterns"`, Table 9's
/// trains and zigzags on fastest ways to the hardest cells (`floe table patterns --json`).
#[pyfunction]
fn square_table(
    py: Python<'_>,
    table: &str,
    min_size: usize,
    max_size: usize,
    blocks: Vec<usize>,
    limits: LimitTuple<'_>,
) -> PyResult<String> {
    let a = limits_from_py(limits)?;
    check_range("min_size", min_size, SQUARE_SIDE)?;
    check_range("max_size", max_size, SQUARE_SIDE)?;
    // the callable hears the boards done
    let limits = a.args.limits();
    match table {
        "reach" => detached(py, || {
            let most = blocks.iter().copied().max().unwrap_or(0);
            judge_table(max_size, max_size, most, &a)?;
            let t = Instant::now();
            let boards: Vec<(usize, usize)> = (min_size..=max_size).map(|s| (s, s)).collect();
            let tables = reach_tables(&boards, &blocks, &limits, a.each())?;
            json(&ReachTableReport::new(tables, t.elapsed().as_secs_f64()))
        }),
        "patterns" => detached(py, || {
            json(&patterns_tables(
                min_size,
                max_size,
                &blocks,
                &limits,
                a.each(),
            )?)
        }),
        other => Err(PyValueError::new_err(format!(
            "table: reach or patterns, not {other:?}"
        ))),
    }
}

/// Van den Akker's hardest cells of 2×n and 3×n boards, closed forms fitted (`floe table
/// strip --json`).
#[pyfunction]
fn strip_table(
    py: Python<'_>,
    heights: Vec<usize>,
    max_width: usize,
    blocks: Vec<usize>,
    compare_width: usize,
    limits: LimitTuple<'_>,
) -> PyResult<String> {
    let a = limits_from_py(limits)?;
    check_range("max_width", max_width, STRIP_WIDTH)?;
    detached(py, || {
        json(&strip_tables(
            &heights,
            max_width,
            &blocks,
            compare_width,
            &a.args.limits(),
            a.each(),
        )?)
    })
}

/// Levels by Kluiver's retrograde generator, each verified by exact search (`floe
/// generate`), as the library's request reads the keyword texts `pairs` (the Python part has
/// checked their types) with `timeout`: `(the --json document, the level file's text, the
/// levels)`.
#[pyfunction]
#[pyo3(signature = (pairs, timeout, progress=None))]
fn generate(
    py: Python<'_>,
    pairs: Vec<(String, String)>,
    timeout: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<(String, String, Vec<NativeLevel>)> {
    let watch = limits_from_py((None, timeout, None, false, progress))?;
    let timeout = watch.timeout;
    let (doc, text, levels) = detached(py, || {
        let (mut levels, mut budget) = (Generate::default(), GenerateBudget::default());
        floe::request::read(
            &pairs,
            "generate()",
            &mut [&mut levels, &mut budget],
            &[],
            &[],
        )
        .map_err(Error::invalid)?;
        budget.timeout = timeout;
        let mut req = levels.request(&budget, None, Naming::Keywords)?;
        req.progress = watch.tally();
        let batch = run_generate(&req)?;
        let boards: Vec<ice::Level> = batch.levels.iter().map(|e| e.level.clone()).collect();
        let text = write_floe(&boards);
        let doc = json(&batch.report(levels.count))?;
        let levels: Vec<NativeLevel> = boards
            .into_iter()
            .enumerate()
            .map(|(i, b)| {
                let name = b
                    .title
                    .clone()
                    .unwrap_or_else(|| format!("level {}", i + 1));
                NativeLevel::of(Level::new(Ice, b, name), "generated", i)
            })
            .collect();
        Ok((doc, text, levels))
    })?;
    Ok((doc, text, levels))
}

/// How often the fewest pushes equal the intended pushes, before and after the shortcut
/// repair (`floe generate --report --json`).
#[pyfunction]
#[pyo3(signature = (sizes, targets, pushes, extra, samples, seed))]
fn generate_report(
    py: Python<'_>,
    sizes: Vec<(usize, usize)>,
    targets: Vec<usize>,
    pushes: Vec<usize>,
    extra: usize,
    samples: u64,
    seed: u64,
) -> PyResult<String> {
    detached(py, || {
        json(&shortcut_report(
            &sizes, &targets, &pushes, extra, samples, seed,
        )?)
    })
}

/// A heat map of `values[row][column]` (rows drawn top down as given) as SVG, floe's own
/// plot: what the notebooks draw reach tables with. NaN cells stay blank.
#[pyfunction]
#[pyo3(signature = (values, title, x_label, y_label, value_label, log))]
fn heatmap(
    values: Vec<Vec<f64>>,
    title: String,
    x_label: String,
    y_label: String,
    value_label: String,
    log: bool,
) -> String {
    let rows = values.len();
    let cols = values.iter().map(Vec::len).max().unwrap_or(0);
    // the heat map draws its rows bottom up
    let values: Vec<Vec<f64>> = values.into_iter().rev().collect();
    let mut h = HeatMap::new(title)
        .x_label(x_label)
        .y_label(y_label)
        .value_label(value_label)
        .columns((0..cols).map(|c| c.to_string()).collect())
        .rows((0..rows).rev().map(|r| r.to_string()).collect())
        .values(values);
    if log {
        h = h.log_scale();
    }
    h.to_svg()
}
