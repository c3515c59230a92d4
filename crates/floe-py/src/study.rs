//! The studies of one game each: the PushPush census (every board of a size at once) and the
//! Monte Carlo experiments of the solitaire puzzles (BoxOff, Pretzel, Fujisan).

use crate::convert::{
    buffer, check_range, count, json, le_bytes, limit_reached, limits_from_py, LimitTuple,
};
use crate::level::NativeLevel;
use crate::run::detached;
use floe::analysis::solitaire::{figures as solitaire_figures, Diagnostic, Record, SizeRun};
use floe::games::pushpush::census::{
    census as run_census, figures as census_figures, hardest_solutions, Census, CensusOptions,
    Report,
};
use floe::games::pushpush::{level as pushpush, PushPush, Variant};
use floe::games::solitaire::Kind;
use floe::generate::Setup;
use floe::ops::{Level, Request};
use floe::request::ranges::{CENSUS_K, CENSUS_SIDE};
use floe::request::{experiment as run_experiment, ExperimentOutcome, ExperimentRun};
use floe::request::{Experiment, Naming};
use floe::search::Status;
use floe::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyList};

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Figures>()?;
    m.add_function(wrap_pyfunction!(census, m)?)?;
    m.add_function(wrap_pyfunction!(experiment, m)?)?;
    m.add_function(wrap_pyfunction!(challenges, m)?)?;
    Ok(())
}

/// The figures of a census or an experiment, drawn when asked for.
#[pyclass(frozen, module = "floe._floe")]
pub struct Figures {
    what: Drawn,
}

enum Drawn {
    Census(Box<Census>),
    Experiment(Kind, Vec<SizeRun>),
}

#[pymethods]
impl Figures {
    /// `(name, SVG)` of every figure: a census's by suffix (`""`, `-pushes`, …), an
    /// experiment's by file name.
    fn draw(&self, py: Python<'_>) -> Vec<(String, String)> {
        py.detach(|| match &self.what {
            Drawn::Census(c) => census_figures(c)
                .into_iter()
                .map(|(suffix, svg)| (suffix.to_string(), svg))
                .collect(),
            Drawn::Experiment(game, docs) => solitaire_figures(*game, docs),
        })
    }
}

/// A table of numbers for NumPy: name, buffer of little-endian `i8`, shape.
type Array<'py> = (String, Bound<'py, PyByteArray>, Vec<usize>);

/// Counts as a `rows × width` table, each row padded with zeros.
fn table(rows: &[Vec<u64>], width: usize) -> (Vec<u8>, Vec<usize>) {
    let cells = rows
        .iter()
        .flat_map(|r| (0..width).map(move |i| count(r.get(i).copied().unwrap_or(0))));
    (le_bytes(cells), vec![rows.len(), width])
}

/// The census's tables as arrays (see the Python `Census` class).
fn census_arrays(c: &Census) -> Vec<(String, Vec<u8>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut add = |name: &str, (bytes, shape): (Vec<u8>, Vec<usize>)| {
        out.push((name.to_string(), bytes, shape));
    };
    let by_pushes = c.by_pushes.clone();
    add(
        "by_pushes",
        (
            le_bytes(by_pushes.iter().map(|&n| count(n))),
            vec![by_pushes.len()],
        ),
    );
    let rows: Vec<Vec<u64>> = c.by_blocks.iter().map(|r| r.by_pushes.clone()).collect();
    add("by_blocks_pushes", table(&rows, by_pushes.len()));
    add(
        "solvable_by_blocks",
        (
            le_bytes(c.by_blocks.iter().map(|r| count(r.solvable))),
            vec![c.by_blocks.len()],
        ),
    );
    add(
        "unsolvable_by_blocks",
        (
            le_bytes(c.by_blocks.iter().map(|r| count(r.unsolvable))),
            vec![c.by_blocks.len()],
        ),
    );
    if let Some(d) = &c.difficulty {
        let bins = floe::games::pushpush::census::DIFFICULTY_BINS;
        add("difficulty_by_pushes", table(&d.by_pushes, bins));
        add("difficulty_by_blocks", table(&d.by_blocks, bins));
    }
    out
}

/// Every PushPush board of one size (`floe census pushpush`): `(the --json document, the
/// arrays, the hardest boards as levels, the figures to draw)`.
#[pyfunction]
#[pyo3(signature = (rows, cols, k, difficulty, hardest, limits))]
#[allow(clippy::type_complexity)]
fn census<'py>(
    py: Python<'py>,
    rows: usize,
    cols: usize,
    k: usize,
    difficulty: bool,
    hardest: usize,
    limits: LimitTuple<'py>,
) -> PyResult<(String, Vec<Array<'py>>, Vec<NativeLevel>, Figures)> {
    check_range("rows", rows, CENSUS_SIDE)?;
    check_range("cols", cols, CENSUS_SIDE)?;
    check_range("k", k, CENSUS_K)?;
    let a = limits_from_py(limits)?;
    let mut o = CensusOptions::new(rows, cols);
    o.variant = Variant::new(k);
    o.difficulty = difficulty;
    o.hardest = hardest;
    o.limits = a.limits_by_steps();
    if let Some(b) = a.max_memory {
        o.max_bytes = b;
    }
    let outcome = detached(py, || {
        let c = match run_census(&o)?.done() {
            Ok(c) => c,
            Err(stopped) => return Ok(Err(stopped)),
        };
        let solutions = hardest_solutions(&c)?;
        let mut r = Report::new(&c, &solutions);
        r.peak_memory_bytes = floe::mem::peak_resident_bytes();
        let levels: Vec<NativeLevel> = c
            .hardest
            .boards
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let level = pushpush::Level {
                    board: h.board.clone(),
                    variant: c.variant,
                };
                let name = format!("hardest {}x{} #{}", c.rows, c.cols, i + 1);
                NativeLevel::of(Level::new(PushPush, level, name), "census", i)
            })
            .collect();
        let arrays = census_arrays(&c);
        let figures = Figures {
            what: Drawn::Census(Box::new(c)),
        };
        Ok(Ok((json(&r)?, arrays, levels, figures)))
    })?;
    match outcome {
        Ok((doc, arrays, levels, figures)) => {
            let arrays = arrays
                .into_iter()
                .map(|(n, b, s)| (n, buffer(py, &b), s))
                .collect();
            Ok((doc, arrays, levels, figures))
        }
        Err(s) => Err(limit_reached(
            py,
            s.kind.name(),
            format!(
                "the census stopped at the {} limit after {} push steps over {} positions \
                 ({:.1} s); no census is reported",
                s.kind.name(),
                s.steps,
                s.positions,
                s.seconds
            ),
        )),
    }
}

/// One column of the per-challenge table.
struct Column {
    name: &'static str,
    values: Vec<serde_json::Value>,
}

/// The records of one setup of one size as rows of the per-challenge table.
fn push_records(cols: &mut Vec<Column>, size: &str, setup: Setup, trials: u64, records: &[Record]) {
    let n = records.len() as u64;
    let t = trials.min(n).max(1);
    for (i, r) in records.iter().enumerate() {
        let i = i as u64;
        let trial = (0..t).find(|&j| i < (j + 1) * n / t).unwrap_or(t - 1);
        let (status, limit) = match r.status {
            Status::Solved => ("solved", None),
            Status::Unsolvable => ("unsolvable", None),
            Status::Limit(k) => ("limit", Some(k.name())),
        };
        let mut row: Vec<(&'static str, serde_json::Value)> = vec![
            ("size", size.into()),
            ("setup", setup.name().into()),
            ("challenge", i.into()),
            ("trial", trial.into()),
            ("status", status.into()),
            ("limit", limit.into()),
            ("solvable", r.solvable().into()),
            ("length", r.length.into()),
            ("dfs_length", r.dfs_length.into()),
            ("random_solvable", r.random.into()),
            ("random_end", r.random_end.name().into()),
            ("random_moves", r.random_moves.into()),
            ("states", r.states.into()),
        ];
        match &r.diagnostic {
            Diagnostic::BoxOff { pair_equality } => {
                row.push(("pair_equality", (*pair_equality).into()))
            }
            Diagnostic::Pretzel { crab, deuces } => {
                row.push(("ducking_crab", (*crab).into()));
                row.push(("duelling_deuces", (*deuces).into()));
            }
            Diagnostic::Fujisan {
                connectivity,
                counter_intuitive,
                distinct_steps,
            } => {
                row.push(("connectivity", (*connectivity).into()));
                row.push(("counter_intuitive", (*counter_intuitive).into()));
                row.push(("distinct_steps", (*distinct_steps).into()));
            }
        }
        if cols.is_empty() {
            cols.extend(row.iter().map(|(name, _)| Column {
                name,
                values: Vec::new(),
            }));
        }
        for (c, (_, v)) in cols.iter_mut().zip(row) {
            c.values.push(v);
        }
    }
}

/// The request of an experiment read from the keywords' texts, as the library's table
/// reads them (the Python part has checked their types).
fn experiment_request(pairs: &[(String, String)]) -> Result<Experiment, Error> {
    let mut e = Experiment::default();
    floe::request::read(pairs, "experiment()", &mut [&mut e], &[], &[]).map_err(Error::invalid)?;
    Ok(e)
}

/// The Monte Carlo experiments (`floe experiment`), the library's operation on the request
/// the keyword texts `pairs` make: `(the --json document, the per-challenge table as
/// columns, the figures to draw)`. With `exact`, Pretzel deals are enumerated and the table
/// is empty.
#[pyfunction]
#[pyo3(signature = (pairs, threads, limits))]
#[allow(clippy::type_complexity)]
fn experiment<'py>(
    py: Python<'py>,
    pairs: Vec<(String, String)>,
    threads: Option<usize>,
    limits: LimitTuple<'py>,
) -> PyResult<(String, Vec<(String, Bound<'py, PyList>)>, Figures)> {
    if threads.is_some_and(|t| !(1..=256).contains(&t)) {
        return Err(PyValueError::new_err("threads: 1 to 256"));
    }
    let a = limits_from_py(limits)?;
    let (doc, columns, game, docs) = detached(py, || {
        let e = experiment_request(&pairs)?;
        let game: Kind = e.game.parse().map_err(Error::invalid)?;
        let run = ExperimentRun {
            // the callable hears the challenges, not each challenge's search
            limits: a.args.limits(),
            threads,
            naming: Naming::Keywords,
            progress: &|done, total, _| a.report(done, Some(total)),
        };
        let mut columns: Vec<Column> = Vec::new();
        let outcome = run_experiment(&e, &run, &mut |size, setup, records| {
            push_records(
                &mut columns,
                &size.to_string(),
                setup,
                u64::from(e.trials),
                records,
            )
        })?;
        let doc = json(&outcome.report(&e))?;
        let docs = match outcome {
            ExperimentOutcome::Runs(docs) => docs,
            _ => Vec::new(),
        };
        Ok((doc, columns, game, docs))
    })?;
    let columns = columns
        .into_iter()
        .map(|c| {
            let items: Vec<Bound<'py, PyAny>> = c
                .values
                .iter()
                .map(|v| value_to_py(py, v))
                .collect::<PyResult<_>>()?;
            Ok((c.name.to_string(), PyList::new(py, items)?))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let figures = Figures {
        what: Drawn::Experiment(game, docs),
    };
    Ok((doc, columns, figures))
}

/// A scalar JSON value as a Python object.
fn value_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        other => other.to_string().into_pyobject(py)?.into_any(),
    })
}

/// The first challenges of an experiment (`floe experiment --generate N`), as levels: the
/// same challenges the experiment solves; `pairs` are the keyword texts of its request.
#[pyfunction]
#[pyo3(signature = (pairs))]
fn challenges(py: Python<'_>, pairs: Vec<(String, String)>) -> PyResult<Vec<NativeLevel>> {
    detached(py, || {
        let e = experiment_request(&pairs)?;
        let run = ExperimentRun {
            limits: floe::search::Limits::none(),
            threads: None,
            naming: Naming::Keywords,
            progress: &|_, _, _| {},
        };
        let ExperimentOutcome::Generated(made) = run_experiment(&e, &run, &mut |_, _, _| {})?
        else {
            return Err(Error::Internal(
                "an experiment asked to generate ran".into(),
            ));
        };
        let mut out = Vec::new();
        for c in made {
            let r = Request::from_text(c.text.unwrap_or_default(), c.title).resolve()?;
            out.push(NativeLevel::of(r.level, &r.file, out.len()));
        }
        Ok(out)
    })
}
