//! The server's bounds on work: lanes of slots with a line of waiting requests, fair between
//! clients, and the stop flags of running jobs by name.
//!
//! There are two lanes: searches (solve, space, generate, experiment: `--jobs` at once, a
//! line of `--queue`) and play (hints, verdicts, pictures: `--play-jobs` at once). A lane's
//! slots are its own: a search never takes a play slot, so hints answer while every search
//! slot is busy. In a lane's line, a client may have at most a quarter of the places (at
//! least one), and a freed slot goes to the waiting client that was served least recently:
//! one client sending many requests delays the others by one request at most. In the play
//! lane, the questions of games in play (a session's verdict or hint) go before the others
//! (a level's verdict in the editor, pictures) and have a line of their own.

use super::guard::Client;
use super::reply::Reply;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::oneshot;

/// How long a request waits in line for a slot before it is told to come back.
const LONGEST_WAIT: Duration = Duration::from_secs(60);

/// Slots of one kind of work, and the line waiting for them.
pub(crate) struct Lane {
    /// What the lane runs, for messages (`searches`, `hints and verdicts`).
    what: &'static str,
    jobs: usize,
    queue: usize,
    /// Places in line one client may hold.
    per_client: usize,
    state: Mutex<LaneState>,
}

#[derive(Default)]
struct LaneState {
    running: usize,
    clients: HashMap<Client, Count>,
    /// In order of arrival.
    line: Vec<Waiter>,
    /// Numbers arrivals and grants.
    clock: u64,
}

#[derive(Default)]
struct Count {
    running: usize,
    waiting: usize,
    /// When the client was last given a slot (the lane's clock).
    served: u64,
}

struct Waiter {
    seq: u64,
    /// Asked by a game in play (a verdict, a hint of a session): served before the rest.
    urgent: bool,
    client: Client,
    tx: oneshot::Sender<()>,
}

impl LaneState {
    fn count(&mut self, c: &Client) -> &mut Count {
        self.clients.entry(c.clone()).or_default()
    }
    fn forget_if_idle(&mut self, c: &Client) {
        if self
            .clients
            .get(c)
            .is_some_and(|k| k.running == 0 && k.waiting == 0)
        {
            self.clients.remove(c);
        }
    }
    /// Gives free slots to waiting clients, the one served least recently first.
    fn grant(&mut self, jobs: usize) {
        while self.running < jobs && !self.line.is_empty() {
            let pick = (0..self.line.len())
                .min_by_key(|&i| {
                    let w = &self.line[i];
                    let k = self.clients.get(&w.client);
                    (
                        !w.urgent,
                        k.map_or(0, |k| k.running),
                        k.map_or(0, |k| k.served),
                        w.seq,
                    )
                })
                .expect("the line is not empty");
            let w = self.line.remove(pick);
            self.clock += 1;
            let clock = self.clock;
            let k = self.count(&w.client);
            k.waiting -= 1;
            k.running += 1;
            k.served = clock;
            self.running += 1;
            if w.tx.send(()).is_err() {
                // the request went away meanwhile: the slot is free again
                self.running -= 1;
                self.count(&w.client).running -= 1;
                self.forget_if_idle(&w.client);
            }
        }
    }
    fn release(&mut self, c: &Client, jobs: usize) {
        self.running -= 1;
        self.count(c).running -= 1;
        self.forget_if_idle(c);
        self.grant(jobs);
    }
}

/// A slot of a lane, given back when dropped.
pub(crate) struct Permit {
    lane: Arc<Lane>,
    client: Client,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let jobs = self.lane.jobs;
        self.lane.lock().release(&self.client, jobs);
    }
}

/// A place in line; leaving it (the request went away) gives it up, and gives back a slot
/// granted meanwhile.
struct Waiting<'a> {
    lane: &'a Arc<Lane>,
    seq: u64,
    client: Client,
    done: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut st = self.lane.lock();
        if let Some(i) = st.line.iter().position(|w| w.seq == self.seq) {
            st.line.remove(i);
            st.count(&self.client).waiting -= 1;
            st.forget_if_idle(&self.client);
        } else {
            st.release(&self.client, self.lane.jobs);
        }
    }
}

impl Lane {
    pub fn new(what: &'static str, jobs: usize, queue: usize) -> Arc<Lane> {
        Arc::new(Lane {
            what,
            jobs,
            queue,
            per_client: (queue / 4).max(1),
            state: Mutex::new(LaneState::default()),
        })
    }
    fn lock(&self) -> MutexGuard<'_, LaneState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Slots.
    pub fn jobs(&self) -> usize {
        self.jobs
    }
    /// Slots in use now.
    pub fn running(&self) -> usize {
        self.lock().running
    }
    /// Requests waiting for a slot.
    pub fn waiting(&self) -> usize {
        self.lock().line.len()
    }
    /// A slot for `client`: at once if one is free and nobody waits, else after waiting in
    /// line; 503 when the line is full, the client holds its share of it, or the wait is
    /// too long. An `urgent` request (a game in play) is served before the others waiting,
    /// and has a line of the same length of its own: a flood of other requests never keeps
    /// it out.
    pub async fn take(self: &Arc<Self>, client: &Client, urgent: bool) -> Result<Permit, Reply> {
        let (seq, rx) = {
            let mut st = self.lock();
            if st.running < self.jobs && st.line.is_empty() {
                st.clock += 1;
                let clock = st.clock;
                let k = st.count(client);
                k.running += 1;
                k.served = clock;
                st.running += 1;
                return Ok(self.permit(client));
            }
            if st.line.iter().filter(|w| w.urgent == urgent).count() >= self.queue {
                return Err(self.busy(&st));
            }
            if st.clients.get(client).map_or(0, |k| k.waiting) >= self.per_client {
                return Err(Reply::busy(format!(
                    "you have {} requests waiting for one of the server's {} slots for {}                      already; try again once they are answered",
                    self.per_client, self.jobs, self.what
                )));
            }
            st.clock += 1;
            let seq = st.clock;
            let (tx, rx) = oneshot::channel();
            st.count(client).waiting += 1;
            st.line.push(Waiter {
                seq,
                urgent,
                client: client.clone(),
                tx,
            });
            (seq, rx)
        };
        let mut place = Waiting {
            lane: self,
            seq,
            client: client.clone(),
            done: false,
        };
        let mut rx = rx;
        let granted = match tokio::time::timeout(LONGEST_WAIT, &mut rx).await {
            Ok(Ok(())) => true,
            _ => {
                // granted in the very moment the wait ended?
                let _st = self.lock();
                rx.try_recv().is_ok()
            }
        };
        if granted {
            place.done = true;
            return Ok(self.permit(client));
        }
        let busy = self.busy(&self.lock());
        drop(place);
        Err(busy)
    }
    fn permit(self: &Arc<Self>, client: &Client) -> Permit {
        Permit {
            lane: Arc::clone(self),
            client: client.clone(),
        }
    }
    fn busy(&self, st: &LaneState) -> Reply {
        Reply::busy(format!(
            "the server is busy: {} {} are running and {} requests wait for one; try again in \
             a moment",
            st.running,
            self.what,
            st.line.len()
        ))
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

    fn who(n: &str) -> Client {
        Client::new(n)
    }

    #[tokio::test]
    async fn a_lane_queues_then_refuses() {
        let lane = Lane::new("searches", 1, 1);
        let first = lane.take(&who("a"), false).await.unwrap();
        assert_eq!(lane.running(), 1);
        let waiting = {
            let l = &lane;
            async move { l.take(&who("b"), false).await.map(drop) }
        };
        // the second waits in line; a third finds the line full
        let (second, third) = tokio::join!(waiting, async {
            tokio::task::yield_now().await;
            let r = lane.take(&who("c"), false).await.map(drop);
            drop(first);
            r
        });
        assert!(second.is_ok());
        let third = third.unwrap_err();
        assert_eq!(third.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!((lane.waiting(), lane.running()), (0, 0));
    }

    #[tokio::test]
    async fn a_freed_slot_goes_to_the_client_served_least_recently() {
        let lane = Lane::new("searches", 1, 8);
        let greedy = who("greedy");
        let first = lane.take(&greedy, false).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let wait = |c: Client, name: &'static str| {
            let (lane, order) = (Arc::clone(&lane), Arc::clone(&order));
            tokio::spawn(async move {
                let p = lane.take(&c, false).await;
                order.lock().unwrap().push((name, p.is_ok()));
                tokio::time::sleep(Duration::from_millis(5)).await;
                drop(p);
            })
        };
        // the greedy client's two places in line, a third refused; then a polite one
        let g1 = wait(greedy.clone(), "greedy 1");
        tokio::time::sleep(Duration::from_millis(5)).await;
        let g2 = wait(greedy.clone(), "greedy 2");
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert!(
            lane.take(&greedy, false).await.is_err(),
            "a third place in line"
        );
        let p = wait(who("polite"), "polite");
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(lane.waiting(), 3);
        drop(first);
        for t in [g1, g2, p] {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        assert_eq!(
            order,
            vec![("polite", true), ("greedy 1", true), ("greedy 2", true)]
        );
        assert_eq!((lane.waiting(), lane.running()), (0, 0));
        assert!(lane.lock().clients.is_empty());
    }

    #[tokio::test]
    async fn a_request_that_leaves_the_line_gives_its_place_back() {
        let lane = Lane::new("searches", 1, 4);
        let first = lane.take(&who("a"), false).await.unwrap();
        let gone =
            tokio::time::timeout(Duration::from_millis(20), lane.take(&who("b"), false)).await;
        assert!(gone.is_err(), "it waited");
        assert_eq!(lane.waiting(), 0);
        drop(first);
        assert_eq!(lane.running(), 0);
        let _again = lane.take(&who("c"), false).await.unwrap();
        assert_eq!(lane.running(), 1);
    }

    #[tokio::test]
    async fn a_game_in_play_goes_before_other_requests_and_past_a_full_line() {
        let lane = Lane::new("hints and verdicts", 1, 4);
        let first = lane.take(&who("a"), false).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiting = Vec::new();
        for i in 0..4 {
            let (lane, order) = (Arc::clone(&lane), Arc::clone(&order));
            waiting.push(tokio::spawn(async move {
                let p = lane.take(&who(&format!("flood{i}")), false).await;
                order.lock().unwrap().push(format!("flood{i}"));
                drop(p);
            }));
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        assert!(
            lane.take(&who("late"), false).await.is_err(),
            "the line is full"
        );
        let (l2, o2) = (Arc::clone(&lane), Arc::clone(&order));
        waiting.push(tokio::spawn(async move {
            let p = l2.take(&who("player"), true).await;
            assert!(p.is_ok());
            o2.lock().unwrap().push("player".into());
        }));
        tokio::time::sleep(Duration::from_millis(5)).await;
        drop(first);
        for w in waiting {
            w.await.unwrap();
        }
        assert_eq!(order.lock().unwrap()[0], "player");
        assert_eq!((lane.waiting(), lane.running()), (0, 0));
    }
}
