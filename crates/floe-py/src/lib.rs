//! floe for Python: the native part (`floe._floe`) of the `floe` module.
//!
//! The module is a front end like the command line: it builds a [`floe::ops::Request`] from
//! what the caller gives, calls the library and hands back the library's own reports. Every
//! report crosses as the JSON text the command line prints (`floe … --json`), so a Python
//! dict has exactly the keys and values of the command's document; tables of numbers cross as
//! raw little-endian buffers that the Python part wraps in NumPy arrays without a copy.
//! The public API, its docstrings and its types are in `python/floe/`; this crate is its
//! engine room:
//!
//! - [`run`]: every call that may take long releases the GIL, runs on a worker thread and
//!   turns Ctrl-C (a pending `KeyboardInterrupt`) into [`floe::search::interrupt`];
//! - [`convert`]: errors as Python exceptions (`file`, `line`, `col`), limits and durations
//!   from keywords, buffers;
//! - [`level`]: levels of every game (read, pick, draw) and what the game face does with
//!   them (solve, space, analyze, verify, bench);
//! - [`ice`]: the ice block analyses (reach, the theses' tables, profiles) and generation;
//! - [`study`]: the PushPush census and the solitaire experiments;
//! - [`hardest`]: the hardest levels of a size;
//! - [`ops`]: the library's operations by name (`floe.graph`), read from keywords by the
//!   library's own requests;
//! - [`travel`]: levels and solutions rebuilt after pickling;
//! - [`step`]: a level played one move at a time (`floe.State`);
//! - [`env`]: learning environments (`floe.env`): tables built once, environments stepped
//!   together into NumPy arrays.

use pyo3::prelude::*;

pub mod convert;
pub mod env;
pub mod hardest;
pub mod ice;
pub mod level;
pub mod ops;
pub mod run;
pub mod step;
pub mod study;
pub mod travel;

/// The native module `floe._floe`.
#[pymodule]
fn _floe(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    level::register(m)?;
    ice::register(m)?;
    study::register(m)?;
    hardest::register(m)?;
    ops::register(m)?;
    travel::register(m)?;
    step::register(m)?;
    env::register(m)?;
    m.add_function(pyo3::wrap_pyfunction!(convert::ranges, m)?)?;
    Ok(())
}
