//! The server's bounds on work: search slots with a line of waiting requests, and the stop
//! flags of running jobs by name.

use super::api::Reply;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long a request waits in line for a search slot before it is told to come back.
const LONGEST_WAIT: Duration = Duration::from_secs(60);

/// At most `jobs` searches at once; at most `queue` requests waiting for one.
pub(crate) struct Slots {
    sem: Arc<Semaphore>,
    jobs: usize,
    queue: usize,
    waiting: AtomicUsize,
}

impl Slots {
    pub fn new(jobs: usize, queue: usize) -> Slots {
        Slots {
            sem: Arc::new(Semaphore::new(jobs)),
            jobs,
            queue,
            waiting: AtomicUsize::new(0),
        }
    }
    /// Searches allowed at once.
    pub fn jobs(&self) -> usize {
        self.jobs
    }
    /// Searches running now.
    pub fn running(&self) -> usize {
        self.jobs - self.sem.available_permits()
    }
    /// Requests waiting for a slot.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }
    /// A slot: at once if one is free, else after waiting in line; 503 when the line is
    /// full or the wait too long.
    pub async fn take(&self) -> Result<OwnedSemaphorePermit, Reply> {
        if let Ok(p) = Arc::clone(&self.sem).try_acquire_owned() {
            return Ok(p);
        }
        let busy = || {
            Reply::busy(format!(
                "the server is busy: {} searches are running and {} requests wait for one; \
                 try again in a moment",
                self.jobs,
                self.waiting()
            ))
        };
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.queue {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(busy());
        }
        let got = tokio::time::timeout(LONGEST_WAIT, Arc::clone(&self.sem).acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        match got {
            Ok(Ok(p)) => Ok(p),
            _ => Err(busy()),
        }
    }
}

/// The stop flags of running jobs, by the name the client gave (`?job=NAME`).
#[derive(Default)]
pub(crate) struct Stops {
    flags: Mutex<HashMap<String, Arc<AtomicBool>>>,
}

/// The longest job name.
const LONGEST_NAME: usize = 64;

impl Stops {
    /// Files `flag` under `name` for as long as the returned guard lives. When the guard
    /// goes (the work ended, or the client went away and the request was dropped) the flag
    /// is raised, so the work stops if it still runs.
    pub fn file(
        self: &Arc<Self>,
        name: Option<&str>,
        flag: Arc<AtomicBool>,
    ) -> Result<Filed, Reply> {
        if let Some(n) = name {
            check_name(n)?;
            let mut flags = self.flags.lock().unwrap_or_else(|p| p.into_inner());
            if flags.contains_key(n) {
                return Err(Reply::conflict(format!(
                    "a job called '{n}' is running already; name each job differently"
                )));
            }
            flags.insert(n.to_string(), Arc::clone(&flag));
        }
        Ok(Filed {
            stops: Arc::clone(self),
            name: name.map(str::to_string),
            flag,
        })
    }
    /// Raises the flag of the job `name`; whether there was one.
    pub fn stop(&self, name: &str) -> bool {
        let flags = self.flags.lock().unwrap_or_else(|p| p.into_inner());
        match flags.get(name) {
            Some(f) => {
                f.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }
}

/// A job name is 1 to 64 letters, digits, `-` or `_`.
pub(crate) fn check_name(n: &str) -> Result<(), Reply> {
    if n.is_empty()
        || n.len() > LONGEST_NAME
        || !n
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(Reply::bad(format!(
            "job: a name of 1 to {LONGEST_NAME} letters, digits, '-' or '_'"
        )));
    }
    Ok(())
}

/// A filed stop flag (see [`Stops::file`]).
pub(crate) struct Filed {
    stops: Arc<Stops>,
    name: Option<String>,
    flag: Arc<AtomicBool>,
}

impl Drop for Filed {
    fn drop(&mut self) {
        self.flag.store(true, Ordering::Relaxed);
        if let Some(n) = &self.name {
            let mut flags = self.stops.flags.lock().unwrap_or_else(|p| p.into_inner());
            flags.remove(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filed_flag_is_raised_by_stop_and_when_its_guard_goes() {
        let stops = Arc::new(Stops::default());
        let flag = Arc::new(AtomicBool::new(false));
        let guard = stops.file(Some("a-1"), Arc::clone(&flag)).unwrap();
        assert!(stops
            .file(Some("a-1"), Arc::new(AtomicBool::new(false)))
            .is_err());
        assert!(!flag.load(Ordering::Relaxed));
        assert!(stops.stop("a-1"));
        assert!(flag.load(Ordering::Relaxed));
        drop(guard);
        assert!(!stops.stop("a-1"), "gone with its guard");
        let other = Arc::new(AtomicBool::new(false));
        drop(stops.file(None, Arc::clone(&other)).unwrap());
        assert!(
            other.load(Ordering::Relaxed),
            "a dropped request stops its work"
        );
        for bad in ["", "a b", "x/y", &"n".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn slots_queue_then_refuse() {
        let slots = Slots::new(1, 1);
        let first = slots.take().await.unwrap();
        assert_eq!(slots.running(), 1);
        let waiting = {
            let s = &slots;
            async move { s.take().await.map(drop) }
        };
        // the second waits in line; a third finds the line full
        let (second, third) = tokio::join!(waiting, async {
            tokio::task::yield_now().await;
            let r = slots.take().await.map(drop);
            drop(first);
            r
        });
        assert!(second.is_ok());
        let third = third.unwrap_err();
        assert_eq!(third.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(slots.waiting(), 0);
    }
}
