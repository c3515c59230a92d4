//! The library's operations ([`floe::operations!`]) by name: `floe.graph(level, …)` and
//! every operation added to the list after it, with no code of their own here. The keywords
//! cross as `(name, text)` pairs and the library reads them into the operation's request,
//! with its defaults, ranges and messages; the report crosses as its JSON text.

use crate::convert::{json, limits_from_py, to_py_err};
use crate::level::{in_level, NativeLevel};
use crate::run::detached;
use floe::request::{Context, Operation};
use floe::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(operation, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    Ok(())
}

/// The keywords that pick the level, read by the Python part (listed as taken in messages).
const PICK: &[&str] = &[
    "level", "game", "format", "rules", "k", "dynamic", "params", "name",
];

/// Runs `O` on `level` with the keywords `options`.
/// Runs `O` on `level` with the keywords `options`; `progress` hears the positions stored
/// (and, last, the end).
fn run<O: Operation>(
    py: Python<'_>,
    level: &NativeLevel,
    options: &[(String, String)],
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let what = format!("floe.{}()", O::NAME);
    let op = O::from_pairs(options, &what, PICK).map_err(PyValueError::new_err)?;
    let watch = limits_from_py((None, None, None, false, progress))?;
    let cx = Context {
        progress: watch.limits().progress,
        ..Context::default()
    };
    let level = &level.level;
    detached(py, || {
        let r = level.run(&op, &cx).map_err(|e| in_level(level.name(), e))?;
        json(&r)
    })
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
            $(if name == <$ty as Operation>::NAME {
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
