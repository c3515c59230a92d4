//! Running library calls from Python: the GIL released, Ctrl-C honoured.
//!
//! A search can run for hours, and Python delivers Ctrl-C (SIGINT, or a notebook's
//! "interrupt kernel") only to its main thread, between two bytecodes. So [`detached`] runs
//! the work on a worker thread with the GIL released, and the calling thread waits for it,
//! taking the GIL back every [`POLL`] to let Python run its signal handlers. When one raises
//! (`KeyboardInterrupt`), it raises floe's process-wide interrupt flag
//! ([`floe::search::interrupt`]): every search, enumeration, census step, experiment and
//! generation batch watches it and stops within a moment. The worker's result is dropped, the
//! flag is cleared ([`floe::search::clear_interrupt`]) so that the next call runs, and the
//! exception goes to the caller. Like Ctrl-C on the command line, the flag stops every search
//! of the process, those of other Python threads included.

use crate::convert::to_py_err;
use floe::Error;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// How often the waiting thread lets Python look at its signals.
pub const POLL: Duration = Duration::from_millis(20);

/// Stack of the worker thread: as much as the command line's main thread has, and more.
const STACK: usize = 64 << 20;

/// Runs `work` on a worker thread with the GIL released; a pending `KeyboardInterrupt` (or
/// any exception a signal handler raises) stops it through floe's interrupt flag and is
/// raised instead of its result. A library error becomes the matching Python exception.
pub fn detached<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> Result<T, Error> + Send,
{
    let (outcome, signal) = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = channel::<()>();
            let worker = std::thread::Builder::new()
                .name("floe".into())
                .stack_size(STACK)
                .spawn_scoped(s, move || {
                    let r = catch_unwind(AssertUnwindSafe(work));
                    let _ = tx.send(());
                    r
                });
            let worker = match worker {
                Ok(w) => w,
                Err(e) => {
                    let msg = format!("cannot start a worker thread: {e}");
                    return (Err(Error::Internal(msg)), None);
                }
            };
            let mut signal: Option<PyErr> = None;
            loop {
                match rx.recv_timeout(POLL) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) if signal.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            floe::search::interrupt();
                            signal = Some(e);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            let outcome = match worker.join() {
                Ok(Ok(r)) => r,
                Ok(Err(panic)) | Err(panic) => Err(Error::Internal(panic_message(&*panic))),
            };
            if signal.is_some() {
                floe::search::clear_interrupt();
            }
            (outcome, signal)
        })
    });
    if let Some(e) = signal {
        return Err(e);
    }
    outcome.map_err(|e| to_py_err(py, e))
}

/// The message of a panic's payload.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    let what = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string());
    format!("the computation panicked: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyo3::exceptions::PyKeyboardInterrupt;
    use std::time::Instant;

    #[test]
    fn an_interrupt_stops_the_work_and_is_raised_once() {
        // this test's thread starts the interpreter, so it is Python's main thread
        Python::initialize();
        Python::attach(|py| {
            py.run(
                c"import signal; signal.signal(signal.SIGINT, signal.default_int_handler)",
                None,
                None,
            )
            .unwrap();
            assert_eq!(detached(py, || Ok(7)).unwrap(), 7);
            // Ctrl-C while the work runs: the work sees floe's flag and stops
            unsafe { pyo3::ffi::PyErr_SetInterrupt() };
            let t = Instant::now();
            let e = detached(py, || {
                while !floe::search::interrupted() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(())
            })
            .unwrap_err();
            assert!(e.is_instance_of::<PyKeyboardInterrupt>(py), "{e}");
            assert!(t.elapsed() < Duration::from_secs(1));
            // the flag was cleared: the next call runs to its end
            assert!(!floe::search::interrupted());
            assert_eq!(detached(py, || Ok(8)).unwrap(), 8);
        });
    }

    #[test]
    fn panics_are_named() {
        let p: Box<dyn std::any::Any + Send> = Box::new("boom");
        assert_eq!(panic_message(&*p), "the computation panicked: boom");
        let p: Box<dyn std::any::Any + Send> = Box::new(String::from("bang"));
        assert_eq!(panic_message(&*p), "the computation panicked: bang");
        let p: Box<dyn std::any::Any + Send> = Box::new(3u8);
        assert_eq!(panic_message(&*p), "the computation panicked: a panic");
    }
}
