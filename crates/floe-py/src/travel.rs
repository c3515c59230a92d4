//! What lets levels and solutions travel (pickled to disk or to another process, as
//! `concurrent.futures` does): the native half of `Level.__reduce__` and of a solution
//! rebuilt from its report. The Python part (`floe/_travel.py`) rebuilds a level from its
//! text with `resolve`; this gives it back the name, index and kind it had, and draws a
//! rebuilt solution from its moves.

use crate::convert::to_py_err;
use crate::level::{drawn, NativeLevel};
use floe::render::board::Style;
use pyo3::prelude::*;

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(placed, m)?)?;
    m.add_function(wrap_pyfunction!(story_svg, m)?)?;
    Ok(())
}

/// `level` under the name, index and kind it had before it travelled: read back from its
/// text alone, a level is named after its title or its file and is the first of that file.
#[pyfunction]
#[pyo3(signature = (level, name, index, empty))]
fn placed(level: &NativeLevel, name: String, index: usize, empty: bool) -> NativeLevel {
    NativeLevel {
        level: level.level.clone().renamed(name),
        file: level.file.clone(),
        index,
        empty,
    }
}

/// The picture of a solution, `moves` (the JSON list of a solve's report) played on
/// `level` and drawn as `arrows`, `frames` or `animate`, as `Solved.svg` draws it.
#[pyfunction]
#[pyo3(signature = (level, moves, kind="arrows", coords=false, cell=0))]
fn story_svg(
    py: Python<'_>,
    level: &NativeLevel,
    moves: &str,
    kind: &str,
    coords: bool,
    cell: u32,
) -> PyResult<String> {
    let l = &level.level;
    l.parse_moves(moves, "<moves>")
        .and_then(|m| l.story(&m))
        .and_then(|story| drawn(&story, kind, &Style { coords, cell }))
        .map_err(|e| to_py_err(py, e))
}
