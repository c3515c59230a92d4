//! The library's operations ([`floe::operations!`]) by name: `floe.graph(level, …)` and
//! every operation added to the list after it, with no code of their own here. The keywords
//! cross as `(name, text)` pairs and the library reads them into the operation's request,
//! with its defaults, ranges and messages; the report crosses as its JSON text.

use crate::convert::{buffer, json, limits_from_py, to_py_err};
use crate::level::{in_level, NativeLevel, Solved};
use crate::run::detached;
use floe::request::{Context, Naming, Operation};
use floe::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(operation, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    m.add_function(wrap_pyfunction!(graph_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    Ok(())
}

/// The keywords that pick the level, read by the Python part (listed as taken in messages):
/// the level's, and the games' parameters of the registry.
fn pick() -> Vec<&'static str> {
    let mut names = vec!["level", "game", "format"];
    names.extend(floe::games::params().iter().map(|(p, _)| p.name));
    names.extend(["params", "name"]);
    names
}

/// Runs `O` on `level` with the keywords `options` (read by the operation's request, its
/// messages naming them as keywords): its report. `progress` hears the positions stored (or
/// the units of an operation that counts its work in them, [`Operation::COUNTS`]) and, last,
/// the end: the report's `states` when it has them.
pub fn report_of<O: Operation>(
    py: Python<'_>,
    level: &NativeLevel,
    options: &[(String, String)],
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<O::Report> {
    let what = format!("floe.{}()", O::NAME.replace('-', "_"));
    let op = O::from_pairs(options, &what, &pick()).map_err(PyValueError::new_err)?;
    let watch = limits_from_py((None, None, None, false, progress))?;
    let mut cx = Context {
        naming: Naming::Keywords,
        ..Context::default()
    };
    if O::COUNTS == "positions" {
        cx.progress = watch.limits().progress;
    } else {
        cx.tally = watch.tally();
    }
    let level = &level.level;
    let r = detached(py, || {
        level.run(&op, &cx).map_err(|e| in_level(level.name(), e))
    })?;
    if watch.progress.is_some() && O::COUNTS == "positions" {
        let stored = serde_json::to_value(&r)
            .ok()
            .and_then(|v| v.get("states")?.as_u64());
        if let Some(n) = stored {
            watch.finish(n);
        }
    }
    Ok(r)
}

/// Runs `O` on `level` with the keywords `options`: its report as JSON text.
fn run<O: Operation>(
    py: Python<'_>,
    level: &NativeLevel,
    options: &[(String, String)],
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let r = report_of::<O>(py, level, options, progress)?;
    json(&r).map_err(|e| to_py_err(py, e))
}

/// Solves `level` (`floe.solve`): the operation's report with the replayed solution behind
/// it, to draw and to list its boards.
#[pyfunction]
#[pyo3(signature = (level, options, progress=None))]
fn solve(
    py: Python<'_>,
    level: &NativeLevel,
    options: Vec<(String, String)>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Solved> {
    let report = report_of::<floe::request::Solve>(py, level, &options, progress)?;
    Ok(Solved { report })
}

/// The state graph (`floe.graph`), its arrays as little-endian buffers instead of JSON (a
/// graph of a thousand positions would spend a millisecond in JSON alone): the report's JSON
/// text with empty arrays, then `distance` (u32), `solved` and `solvable` (a byte each),
/// `indptr` (u64) and `indices` (u32).
#[pyfunction]
#[pyo3(signature = (level, options, progress=None))]
#[allow(clippy::type_complexity)]
fn graph_arrays<'py>(
    py: Python<'py>,
    level: &NativeLevel,
    options: Vec<(String, String)>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<(String, Vec<Bound<'py, PyByteArray>>)> {
    type Op = floe::request::Graph;
    let op = Op::from_pairs(&options, "floe.graph()", &pick()).map_err(PyValueError::new_err)?;
    let watch = limits_from_py((None, None, None, false, progress))?;
    let cx = Context {
        progress: watch.limits().progress,
        ..Context::default()
    };
    let level = &level.level;
    let (doc, arrays) = detached(py, || {
        let mut r = level.run(&op, &cx).map_err(|e| in_level(level.name(), e))?;
        let words = |v: Vec<u32>| -> Vec<u8> { v.into_iter().flat_map(u32::to_le_bytes).collect() };
        let bytes = |v: Vec<bool>| -> Vec<u8> { v.into_iter().map(u8::from).collect() };
        let arrays = [
            words(std::mem::take(&mut r.distance)),
            bytes(std::mem::take(&mut r.solved)),
            bytes(std::mem::take(&mut r.solvable)),
            std::mem::take(&mut r.indptr)
                .into_iter()
                .flat_map(u64::to_le_bytes)
                .collect(),
            words(std::mem::take(&mut r.indices)),
        ];
        Ok((json(&r)?, arrays))
    })?;
    Ok((doc, arrays.iter().map(|b| buffer(py, b)).collect()))
}

macro_rules! by_name {
    ($($name:ident => $ty:path,)*) => {
        /// Runs the operation `name` on `level`: its report as JSON text.
        #[pyfunction]
        #[pyo3(signature = (name, level, options, progress=None))]
        fn operation(
            py: Python<'_>,
            name: &str,
            level: &NativeLevel,
            options: Vec<(String, String)>,
            progress: Option<Bound<'_, PyAny>>,
        ) -> PyResult<String> {
            // `bench_solvers` as Python writes it, `bench-solvers` as the command line does
            let name = &name.replace('_', "-");
            $(if *name == <$ty as Operation>::NAME {
                return run::<$ty>(py, level, &options, progress);
            })*
            let names: Vec<&str> = vec![$(<$ty as Operation>::NAME,)*];
            Err(to_py_err(py, Error::invalid(format!(
                "no operation is called '{}': the operations are {}",
                floe::input::shown_word(name),
                names.join(", ")
            ))))
        }

        /// Every operation: its name, what it does and the keywords it takes.
        #[pyfunction]
        fn operations() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
            vec![$((
                <$ty as Operation>::NAME,
                <$ty as Operation>::ABOUT,
                <$ty as Operation>::parameters(),
            ),)*]
        }
    };
}

floe::operations!(by_name);
