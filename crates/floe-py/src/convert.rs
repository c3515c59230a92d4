//! What crosses between Python and the library: errors as exceptions, limits from keywords,
//! reports as JSON text, tables as buffers.

use floe::search::{parse_duration, Tally};
use floe::Error;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use pyo3::IntoPyObjectExt;
use serde::Serialize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pyo3::import_exception!(floe._errors, FloeError);
pyo3::import_exception!(floe._errors, ParseError);
pyo3::import_exception!(floe._errors, InvalidInput);
pyo3::import_exception!(floe._errors, InternalError);
pyo3::import_exception!(floe._errors, LimitReached);

/// A library error as the Python exception the `floe` module documents: `floe.ParseError`
/// (with `file`, `line`, `col`, `message`), `floe.InvalidInput`, `OSError` (the matching
/// subclass, `FileNotFoundError` for a missing file, with `filename`) or
/// `floe.InternalError`.
pub fn to_py_err(py: Python<'_>, e: Error) -> PyErr {
    let text = e.to_string();
    // the operations' messages name the command line's flags: here, keyword arguments
    let words = || floe::request::words::for_python(&text);
    match e {
        Error::Parse(p) => with_attrs(
            py,
            ParseError::new_err(text),
            &[
                ("file", p.file.into_bound_py_any(py)),
                ("line", p.line.into_bound_py_any(py)),
                ("col", p.col.into_bound_py_any(py)),
                ("message", p.message.into_bound_py_any(py)),
            ],
        ),
        Error::Invalid(_) => InvalidInput::new_err(words()),
        Error::Io { path, source } => {
            let errno = source.raw_os_error().unwrap_or(0);
            if errno == 0 {
                PyOSError::new_err(text)
            } else {
                // the system's words without Rust's " (os error N)"
                let words = source.to_string();
                let words = words
                    .split(" (os error")
                    .next()
                    .unwrap_or(&words)
                    .to_string();
                PyOSError::new_err((errno, words, path))
            }
        }
        Error::Internal(_) => InternalError::new_err(words()),
    }
}

/// `err` with attributes set on its value.
fn with_attrs<'py>(
    py: Python<'py>,
    err: PyErr,
    attrs: &[(&str, PyResult<Bound<'py, PyAny>>)],
) -> PyErr {
    let value = err.value(py);
    for (k, v) in attrs {
        if let Ok(v) = v {
            if let Err(e) = value.setattr(*k, v) {
                return e;
            }
        }
    }
    err
}

/// A `floe.LimitReached` for a run that a limit stopped before it had anything to report
/// (the census, an experiment): `limit` names the limit.
pub fn limit_reached(py: Python<'_>, limit: &str, message: String) -> PyErr {
    with_attrs(
        py,
        LimitReached::new_err(floe::request::words::for_python(&message)),
        &[("limit", limit.into_bound_py_any(py))],
    )
}

/// The limits a call takes: the library's request (`max_states`, `timeout`, `max_memory`,
/// `force`), as the command line and the server read it.
pub use floe::request::LimitArgs;

/// The limits as Python passes them: `(max_states, timeout, max_memory, force, progress)`,
/// `progress` a callable `(done, total)` or `None`.
pub type LimitTuple<'py> = (
    Option<u64>,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
    bool,
    Option<Bound<'py, PyAny>>,
);

/// The limits of a call with its progress callback: the library's request (what the command
/// line and the server read) and a Python callable that hears how far the work is.
pub struct PyLimits {
    /// The request.
    pub args: LimitArgs,
    /// The callable, if any: called with `(done, total)` at most ten times a second.
    pub progress: Option<Arc<Reporter>>,
}

impl std::ops::Deref for PyLimits {
    type Target = LimitArgs;
    fn deref(&self) -> &LimitArgs {
        &self.args
    }
}

impl PyLimits {
    /// The search limits, reporting the positions stored to the callable (`total` unknown).
    pub fn limits(&self) -> floe::search::Limits {
        self.limits_counting(|p| p.stats.states)
    }
    /// Reports `done` of `total` to the callable, if any (throttled).
    pub fn report(&self, done: u64, total: Option<u64>) {
        if let Some(r) = &self.progress {
            r.report(done, total);
        }
    }
    /// The search limits, reporting the push steps done (a census: the positions of each
    /// step rise and fall, the steps only rise).
    pub fn limits_by_steps(&self) -> floe::search::Limits {
        self.limits_counting(|p| u64::from(p.stats.depth))
    }
    /// The search limits, reporting `count` of each snapshot to the callable.
    fn limits_counting(&self, count: fn(&floe::search::Progress) -> u64) -> floe::search::Limits {
        let limits = self.args.limits();
        match &self.progress {
            None => limits,
            Some(r) => {
                let r = Arc::clone(r);
                limits.progress(Arc::new(move |p: &floe::search::Progress| {
                    r.report(count(p), None)
                }))
            }
        }
    }
    /// The callable as the library's [`Tally`] (counted work: levels, parts, steps).
    pub fn tally(&self) -> Option<Tally> {
        self.progress.as_ref().map(|r| {
            let r = Arc::clone(r);
            Tally::new(move |done, total| r.report(done, total))
        })
    }
    /// A callback for a work of many parts (a table's cells or boards): the callable hears
    /// `(parts done, None)` as each ends.
    pub fn each<T>(&self) -> impl FnMut(&T) + '_ {
        let mut done = 0;
        move |_| {
            done += 1;
            self.report(done, None);
        }
    }
    /// The work ended after `done` units: the last call, `(done, done)`.
    pub fn finish(&self, done: u64) {
        self.report(done, Some(done));
    }
    /// The work ended: unless its last call said so (`done == total`), the callable hears
    /// `(done, done)` with the last `done` it heard, so that every call with a callable ends
    /// with `done == total`.
    pub fn close(&self) {
        if let Some(r) = &self.progress {
            let (heard, ended, done) = {
                let s = r.state.lock().unwrap_or_else(|e| e.into_inner());
                (s.heard, s.ended, s.done)
            };
            // a call refused before its work began says nothing
            if heard && !ended {
                r.report(done, Some(done));
            }
        }
    }
}

impl Drop for PyLimits {
    /// The call is over: the callable's last call says so ([`PyLimits::close`]).
    fn drop(&mut self) {
        self.close();
    }
}

/// What a [`Reporter`] last heard.
#[derive(Default)]
struct Heard {
    /// When it last called the callable.
    at: Option<Instant>,
    /// The last `done` it was told.
    done: u64,
    /// Whether the last call it was told said the end (`done == total`).
    ended: bool,
    /// Whether it was told anything.
    heard: bool,
}

/// A Python progress callable, called from the threads that do the work.
pub struct Reporter {
    call: Py<PyAny>,
    state: Mutex<Heard>,
}

impl Reporter {
    /// Calls `call(done, total)` unless it was called less than a tenth of a second ago (the
    /// last report, `done == total`, always goes through). An exception it raises is
    /// reported as unraisable (printed), not raised: the work goes on.
    pub fn report(&self, done: u64, total: Option<u64>) {
        let now = Instant::now();
        {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            // the counts never go back (a search that ends may have told more already)
            if s.heard && done < s.done && total != Some(done) {
                return;
            }
            s.heard = true;
            s.done = done;
            s.ended = total == Some(done);
            let due =
                s.at.is_none_or(|t| now.duration_since(t) >= Duration::from_millis(100));
            if !due && !s.ended {
                return;
            }
            s.at = Some(now);
        }
        Python::attach(|py| {
            if let Err(e) = self.call.call1(py, (done, total)) {
                e.write_unraisable(py, Some(self.call.bind(py)));
            }
        });
    }
}

/// A duration given as keyword `name` (seconds, or a text such as `500ms`, `2m`); its
/// errors name the keyword.
pub fn duration_from_py(name: &str, value: Option<Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    value
        .map(|t| {
            parse_duration(&t.str()?.to_string())
                .map_err(|m| PyValueError::new_err(format!("{name}: {m}")))
        })
        .transpose()
}

/// Reads the limits, refusing values out of the command line's ranges: `timeout` a number of
/// seconds or a text such as `500ms`, `2m`; `max_memory` a number of GiB or a text such as
/// `512M` (by default three quarters of the memory available at the start); `progress` a
/// callable.
pub fn limits_from_py(t: LimitTuple<'_>) -> PyResult<PyLimits> {
    let (max_states, timeout, max_memory, force, progress) = t;
    let timeout = duration_from_py("timeout", timeout)?;
    let max_memory = max_memory
        .map(|m| {
            floe::mem::parse_memory(&m.str()?.to_string())
                .map_err(|e| PyValueError::new_err(format!("max_memory: {e}")))
        })
        .transpose()?;
    let progress = match progress {
        None => None,
        Some(p) if p.is_callable() => Some(Arc::new(Reporter {
            call: p.unbind(),
            state: Mutex::new(Heard::default()),
        })),
        Some(p) => {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "progress: a callable (done, total), not {}",
                p.get_type().name()?
            )))
        }
    };
    Ok(PyLimits {
        args: LimitArgs {
            max_states,
            timeout,
            max_memory,
            force,
        },
        progress,
    })
}

/// A report as the JSON text of its command (`floe … --json`).
pub fn json<T: Serialize + ?Sized>(v: &T) -> Result<String, Error> {
    serde_json::to_string(v).map_err(|e| Error::Internal(format!("a report is not JSON: {e}")))
}

/// Numbers as a little-endian buffer, for `numpy.frombuffer` (dtype `<f8` or `<i8`).
pub trait LeBytes: Copy {
    /// The value's bytes.
    fn le(self) -> [u8; 8];
}

impl LeBytes for f64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

impl LeBytes for i64 {
    fn le(self) -> [u8; 8] {
        self.to_le_bytes()
    }
}

impl LeBytes for i32 {
    fn le(self) -> [u8; 8] {
        i64::from(self).to_le_bytes()
    }
}

impl LeBytes for u32 {
    fn le(self) -> [u8; 8] {
        i64::from(self).to_le_bytes()
    }
}

/// The values' bytes, little-endian.
pub fn le_bytes<T: LeBytes>(values: impl IntoIterator<Item = T>) -> Vec<u8> {
    values.into_iter().flat_map(LeBytes::le).collect()
}

/// A mutable buffer for `numpy.frombuffer`, so that the array it gives is writable.
pub fn buffer<'py>(py: Python<'py>, bytes: &[u8]) -> Bound<'py, PyByteArray> {
    PyByteArray::new(py, bytes)
}

/// A count as a signed 64-bit number (NumPy's and pandas' integers), saturating.
pub fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_little_endian() {
        assert_eq!(le_bytes([1i64]), vec![1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(le_bytes([1.0f64, f64::NAN]).len(), 16);
        assert_eq!(count(u64::MAX), i64::MAX);
        assert_eq!(count(7), 7);
    }
}

/// A keyword's value within its range ([`floe::request::ranges`]).
pub fn check_range(name: &str, v: usize, r: floe::request::Range) -> PyResult<()> {
    if (r.lo..=r.hi).contains(&(v as u64)) {
        Ok(())
    } else {
        use floe::render::thousands;
        Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{name}: {} to {} (not {})",
            thousands(r.lo),
            thousands(r.hi),
            thousands(v as u64)
        )))
    }
}

/// Every range of [`floe::request::ranges::RANGES`] by `call.keyword`, as `(lo, hi)`: what the
/// Python part checks its keywords against.
#[pyfunction]
pub fn ranges() -> Vec<(&'static str, (u64, u64))> {
    floe::request::ranges::RANGES
        .iter()
        .map(|&(k, r)| (k, (r.lo, r.hi)))
        .collect()
}
