//! Running library calls from Python: the GIL released, Ctrl-C honoured in every thread.
//!
//! A search can run for hours, and Python delivers Ctrl-C (SIGINT, or a notebook's
//! "interrupt kernel") only to its main thread, between two bytecodes. So [`detached`] runs
//! the work on a worker thread with the GIL released, and the calling thread waits for it,
//! checking every [`POLL`] whether it was interrupted:
//!
//! - by taking the GIL back to let Python run its signal handlers, which run only in the
//!   main thread; when one raises (`KeyboardInterrupt`), that is the answer;
//! - then, in any thread, by a count of SIGINTs that a handler of floe's own raises before it
//!   hands the signal on to Python's (chained in front of it when a call begins, and only
//!   where Ctrl-C means `KeyboardInterrupt`: Python's `default_int_handler`). A SIGINT while
//!   a call runs in another thread raises `KeyboardInterrupt` in that thread too (and
//!   Python's own in the main thread, as ever); in the main thread Python's handler answers
//!   first, so a SIGINT is never raised twice.
//!
//! Either raises floe's process-wide interrupt flag ([`floe::search::interrupt`]): every
//! search, enumeration, census step, experiment and generation batch watches it and stops
//! within a moment, those of other Python threads included (as Ctrl-C on the command line
//! stops every search). The worker's result is dropped and the exception goes to the
//! caller; the flag is cleared ([`floe::search::clear_interrupt`]) when the last call that
//! was running ends, so that the next call runs.
//!
//! The work runs in the process's own thread pool ([`pool`]) rather than rayon's global one:
//! a child started by `fork` (Linux's default for `multiprocessing`) inherits the parent's
//! pool without its threads, and its first parallel call would wait for them forever. The
//! pool is made again when the process id changes.

use crate::convert::to_py_err;
use floe::Error;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The process's thread pool and the process it was made in.
static POOL: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// The thread pool of this process: made at the first call, and again in a child started by
/// `fork` (whose copy of the parent's pool has no threads: the copy is left alone, never
/// used nor dropped).
pub fn pool() -> Arc<rayon::ThreadPool> {
    let pid = std::process::id();
    let mut held = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((made_in, p)) = held.as_ref() {
        if *made_in == pid {
            return p.clone();
        }
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("floe-{i}"))
            .build()
            .expect("a thread pool can be made"),
    );
    if let Some(old) = held.replace((pid, p.clone())) {
        // the parent's pool: its threads are not in this process
        std::mem::forget(old);
    }
    p
}

/// How often the waiting thread lets Python look at its signals.
pub const POLL: Duration = Duration::from_millis(20);

/// Stack of the worker thread: as much as the command line's main thread has, and more.
const STACK: usize = 64 << 20;

/// Calls of [`detached`] running now, in every thread.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// The count of SIGINTs when a call began, when Ctrl-C means `KeyboardInterrupt` (Python's
/// `default_int_handler` is SIGINT's) and floe's handler is chained in front of Python's;
/// `None` otherwise (a handler of the caller's own decides, or none can be chained).
///
/// Looking runs Python, which may run a pending signal's handler: its exception (a Ctrl-C
/// that came as the call began) is the call's answer.
fn counting(py: Python<'_>) -> PyResult<Option<u64>> {
    let s = py.import("signal")?;
    let now = s.call_method1("getsignal", (s.getattr("SIGINT")?,))?;
    let default = now.is(&s.getattr("default_int_handler")?);
    Ok((default && sigint::chain()).then(sigint::count))
}

/// Whether the calling thread was interrupted since the call began (`at`: the count of
/// SIGINTs then): Python's signal handlers first, which run only in the main thread and
/// raise what they raise there (so a SIGINT is never answered twice), then, in any thread,
/// the count of SIGINTs.
fn interrupted(at: Option<u64>) -> Option<PyErr> {
    if let Err(e) = Python::attach(|py| py.check_signals()) {
        return Some(e);
    }
    match at {
        Some(at) if sigint::count() != at => Some(PyKeyboardInterrupt::new_err(
            "interrupted (SIGINT) in a thread of floe's call",
        )),
        _ => None,
    }
}

/// Runs `work` on a worker thread with the GIL released; Ctrl-C (a pending
/// `KeyboardInterrupt` in the main thread, a SIGINT in any other) stops it through floe's
/// interrupt flag and is raised instead of its result. A library error becomes the matching
/// Python exception.
pub fn detached<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> Result<T, Error> + Send,
{
    let at = counting(py)?;
    if RUNNING.fetch_add(1, Ordering::SeqCst) == 0 {
        // an interrupt that came when no call ran has nothing left to stop
        floe::search::clear_interrupt();
    }
    let (outcome, signal) = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = channel::<()>();
            let worker = std::thread::Builder::new()
                .name("floe".into())
                .stack_size(STACK)
                .spawn_scoped(s, move || {
                    let r = catch_unwind(AssertUnwindSafe(|| pool().install(work)));
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
                        signal = interrupted(at);
                        if signal.is_some() {
                            floe::search::interrupt();
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            let outcome = match worker.join() {
                Ok(Ok(r)) => r,
                Ok(Err(panic)) | Err(panic) => Err(Error::Internal(panic_message(&*panic))),
            };
            // a SIGINT that came as the work ended is still this call's Ctrl-C
            if signal.is_none() && at.is_some_and(|at| sigint::count() != at) {
                signal = interrupted(at);
            }
            (outcome, signal)
        })
    });
    if RUNNING.fetch_sub(1, Ordering::SeqCst) == 1 && floe::search::interrupted() {
        // the last call of an interrupt ended: the next call runs
        floe::search::clear_interrupt();
    }
    if let Some(e) = signal {
        return Err(e);
    }
    outcome.map_err(|e| to_py_err(py, e))
}

/// A SIGINT handler of floe's own, chained in front of Python's: it counts the signals,
/// then hands each on. Unix only; elsewhere nothing is chained and only the main thread
/// hears Ctrl-C.
mod sigint {
    use super::{AtomicU64, Ordering};

    /// SIGINTs the handler saw.
    static COUNT: AtomicU64 = AtomicU64::new(0);

    /// SIGINTs seen so far.
    pub fn count() -> u64 {
        COUNT.load(Ordering::SeqCst)
    }

    #[cfg(unix)]
    mod chained {
        use super::{Ordering, COUNT};
        use std::cell::UnsafeCell;
        use std::sync::Mutex;

        /// The handler that was there before floe's (Python's), handed every signal.
        struct Previous(UnsafeCell<libc::sigaction>);
        // Safety: written only under `CHAINING`, while floe's handler is not installed
        // (before installing it, or after someone replaced it), read by the handler.
        unsafe impl Sync for Previous {}
        static PREVIOUS: Previous = Previous(UnsafeCell::new(unsafe { std::mem::zeroed() }));
        static CHAINING: Mutex<()> = Mutex::new(());

        extern "C" fn handler(
            sig: libc::c_int,
            info: *mut libc::siginfo_t,
            ctx: *mut libc::c_void,
        ) {
            COUNT.fetch_add(1, Ordering::SeqCst);
            // Safety: see `Previous`; calling the previous handler as it asked to be called
            unsafe {
                let prev = &*PREVIOUS.0.get();
                let f = prev.sa_sigaction;
                if f == libc::SIG_DFL || f == libc::SIG_IGN {
                    return;
                }
                if prev.sa_flags & libc::SA_SIGINFO != 0 {
                    let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        std::mem::transmute(f);
                    f(sig, info, ctx);
                } else {
                    let f: extern "C" fn(libc::c_int) = std::mem::transmute(f);
                    f(sig);
                }
            }
        }

        /// Puts floe's handler in front of the one installed (a handler function, not the
        /// default action nor "ignore"); true when it is there.
        pub fn chain() -> bool {
            let _held = CHAINING.lock().unwrap_or_else(|e| e.into_inner());
            let ours = handler as *const () as libc::sighandler_t;
            // Safety: sigaction with valid pointers; PREVIOUS is written while floe's
            // handler is not the one installed
            unsafe {
                let mut now: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut now) != 0 {
                    return false;
                }
                if now.sa_sigaction == ours {
                    return true;
                }
                if now.sa_sigaction == libc::SIG_DFL || now.sa_sigaction == libc::SIG_IGN {
                    return false;
                }
                *PREVIOUS.0.get() = now;
                let mut new = now;
                new.sa_sigaction = ours;
                new.sa_flags = now.sa_flags | libc::SA_SIGINFO;
                libc::sigaction(libc::SIGINT, &new, std::ptr::null_mut()) == 0
            }
        }
    }

    /// Puts floe's handler in front of Python's; true when it is there.
    pub fn chain() -> bool {
        #[cfg(unix)]
        {
            chained::chain()
        }
        #[cfg(not(unix))]
        {
            false
        }
    }
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
