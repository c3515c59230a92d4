//! Enumerations shared by many workers: timely dataflow links the worker threads of one
//! process and the processes of a cluster; the enumeration itself is the library's
//! (`floe::search::dist`), written against the game face.
//!
//! One dataflow per worker: an input of `(worker, message)` records, routed by timely's
//! `Exchange` contract to the worker named in the record, and an operator that files what
//! arrives by its timestamp. A round of the enumeration is a timestamp: a worker sends its
//! ranks at the current time, advances its input, and steps the dataflow until its probe
//! says that no message of that time is still on the way anywhere. Then every rank of the
//! round has reached its owner, wherever it was sent from.

use crate::args::PeersArgs;
use floe::search::dist::Exchange as DistExchange;
use floe::Error;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use timely::{CommunicationConfig, Config, WorkerConfig};

/// What travels between workers.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Msg {
    /// Ranks for their owner (local numbers: rank / workers).
    Ranks(Vec<u64>),
    /// A worker's figures at the end of a round.
    Figures(u32, Vec<u64>),
    /// A worker's part of a result, for worker 0.
    Bytes(u32, Vec<u8>),
}

type Inbox = Rc<RefCell<Vec<(u64, Msg)>>>;

/// One worker's side of the exchange.
pub struct Timely<'w> {
    worker: &'w mut Worker,
    input: InputHandle<u64, CapacityContainerBuilder<Vec<(u32, Msg)>>>,
    probe: ProbeHandle<u64>,
    inbox: Inbox,
    round: u64,
}

impl<'w> Timely<'w> {
    /// Builds the worker's dataflow.
    pub fn new(worker: &'w mut Worker) -> Timely<'w> {
        let mut input = InputHandle::<u64, CapacityContainerBuilder<Vec<(u32, Msg)>>>::new();
        let probe = ProbeHandle::new();
        let inbox: Inbox = Rc::new(RefCell::new(Vec::new()));
        let filed = inbox.clone();
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|x: &(u32, Msg)| u64::from(x.0)),
                    "Deliver",
                    |_capability, _info| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let t = *cap.least().expect("a time");
                                let mut f = filed.borrow_mut();
                                for (_, m) in data.drain(..) {
                                    f.push((t, m));
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        Timely {
            worker,
            input,
            probe,
            inbox,
            round: 0,
        }
    }

    /// Hands `got` the ranks of round `round` that have arrived.
    fn deliver(&mut self, round: u64, got: &mut dyn FnMut(&[u64])) {
        let mut ready = Vec::new();
        self.inbox.borrow_mut().retain_mut(|(t, m)| match m {
            Msg::Ranks(v) if *t == round => {
                ready.push(std::mem::take(v));
                false
            }
            _ => true,
        });
        for v in ready {
            got(&v);
        }
    }

    /// Ends the round: steps until every message of it has arrived (handing `got` its ranks
    /// as they come); its other messages.
    fn finish(&mut self, got: &mut dyn FnMut(&[u64])) -> Vec<Msg> {
        let now = self.round;
        self.round += 1;
        self.input.advance_to(self.round);
        while self.probe.less_than(self.input.time()) {
            self.worker.step();
            self.deliver(now, got);
        }
        self.deliver(now, got);
        let mut out = Vec::new();
        self.inbox.borrow_mut().retain_mut(|(t, m)| {
            if *t == now {
                out.push(std::mem::replace(m, Msg::Ranks(Vec::new())));
                false
            } else {
                true
            }
        });
        out
    }
}

impl DistExchange for Timely<'_> {
    fn index(&self) -> usize {
        self.worker.index()
    }
    fn peers(&self) -> usize {
        self.worker.peers()
    }
    fn send(&mut self, batches: &mut [Vec<u64>], got: &mut dyn FnMut(&[u64])) {
        let me = self.worker.index();
        for (w, b) in batches.iter_mut().enumerate() {
            if b.is_empty() {
                continue;
            }
            if w == me {
                got(b);
                b.clear();
            } else {
                self.input.send((w as u32, Msg::Ranks(std::mem::take(b))));
            }
        }
        self.input.flush();
        self.worker.step();
        self.deliver(self.round, got);
    }
    fn end_round(&mut self, figures: Vec<u64>, got: &mut dyn FnMut(&[u64])) -> Vec<Vec<u64>> {
        let me = self.worker.index() as u32;
        for w in 0..self.worker.peers() {
            self.input
                .send((w as u32, Msg::Figures(me, figures.clone())));
        }
        let mut all = vec![Vec::new(); self.worker.peers()];
        for m in self.finish(got) {
            if let Msg::Figures(w, f) = m {
                all[w as usize] = f;
            }
        }
        all
    }
    fn gather(&mut self, bytes: Vec<u8>) -> Option<Vec<Vec<u8>>> {
        let me = self.worker.index() as u32;
        self.input.send((0, Msg::Bytes(me, bytes)));
        let mut all = vec![Vec::new(); self.worker.peers()];
        for m in self.finish(&mut |_| {}) {
            if let Msg::Bytes(w, b) = m {
                all[w as usize] = b;
            }
        }
        (me == 0).then_some(all)
    }
}

/// Sends standard output to standard error while it lives (the engine reports its
/// connections with `println!`), then puts it back.
struct StdoutToStderr(Option<libc::c_int>);

impl StdoutToStderr {
    fn new() -> StdoutToStderr {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        // SAFETY: dup and dup2 on the process's own standard descriptors; a failure leaves
        // standard output as it was.
        let saved = unsafe { libc::dup(1) };
        if saved < 0 || unsafe { libc::dup2(2, 1) } < 0 {
            return StdoutToStderr(None);
        }
        StdoutToStderr(Some(saved))
    }
}

impl Drop for StdoutToStderr {
    fn drop(&mut self) {
        use std::io::Write;
        if let Some(saved) = self.0 {
            let _ = std::io::stdout().flush();
            // SAFETY: `saved` is the descriptor `dup` returned in `new`.
            unsafe {
                libc::dup2(saved, 1);
                libc::close(saved);
            }
        }
    }
}

/// The processes and workers a run uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Worker threads per process.
    pub workers: usize,
    /// Processes.
    pub processes: usize,
    /// This process.
    pub process: usize,
    /// `host:port` of every process.
    pub addresses: Vec<String>,
}

impl Layout {
    /// The layout the flags ask for: one process of `--workers` threads (default: the cores)
    /// unless `--processes` says more, whose addresses come from `--hostfile` (default
    /// 127.0.0.1, ports 2101 up).
    pub fn of(c: &PeersArgs) -> Result<Layout, Error> {
        let workers = c.workers.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        let processes = c.processes.unwrap_or(1);
        let process = c.process.unwrap_or(0);
        if process >= processes {
            return Err(Error::invalid(format!(
                "--process {process}: the processes are numbered 0 to {} (--processes {processes})",
                processes - 1
            )));
        }
        let addresses = match &c.hostfile {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
                    path: path.display().to_string(),
                    source: e,
                })?;
                let lines: Vec<String> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(str::to_string)
                    .collect();
                if lines.len() < processes {
                    return Err(Error::invalid(format!(
                        "{}: {} addresses for {processes} processes (one host:port a line, in \
                         order of --process)",
                        path.display(),
                        lines.len()
                    )));
                }
                for l in &lines {
                    if l.rsplit_once(':')
                        .is_none_or(|(h, p)| h.is_empty() || p.parse::<u16>().is_err())
                    {
                        return Err(Error::invalid(format!(
                            "{}: {l:?} is not host:port",
                            path.display()
                        )));
                    }
                }
                lines.into_iter().take(processes).collect()
            }
            None => (0..processes)
                .map(|i| format!("127.0.0.1:{}", 2101 + i))
                .collect(),
        };
        Ok(Layout {
            workers,
            processes,
            process,
            addresses,
        })
    }

    /// Workers in all.
    pub fn peers(&self) -> usize {
        self.workers * self.processes
    }

    /// "2 processes × 4 workers" and the like.
    pub fn describe(&self) -> String {
        let w = |n: usize| if n == 1 { "worker" } else { "workers" };
        if self.processes == 1 {
            format!("1 process, {} {}", self.workers, w(self.workers))
        } else {
            format!(
                "{} processes × {} {} (this is process {})",
                self.processes,
                self.workers,
                w(self.workers),
                self.process
            )
        }
    }

    fn config(&self) -> Config {
        let communication = if self.processes > 1 {
            CommunicationConfig::Cluster {
                threads: self.workers,
                process: self.process,
                addresses: self.addresses.clone(),
                report: false,
                zerocopy: false,
            }
        } else if self.workers > 1 {
            CommunicationConfig::Process(self.workers)
        } else {
            CommunicationConfig::Thread
        };
        Config {
            communication,
            worker: WorkerConfig::default(),
        }
    }
}

/// How long the processes of a run wait for each other to connect (seconds) unless
/// `FLOE_CONNECT_TIMEOUT` says otherwise.
const CONNECT_SECONDS: u64 = 600;

/// Runs `job` on every worker of this process, linked to all workers of the run; the
/// results in order of the local workers.
///
/// The processes connect first (each to the lower-numbered ones, each listening for the
/// higher ones); a process that cannot reach the others within `FLOE_CONNECT_TIMEOUT`
/// seconds (default 600) ends with an error. What the engine says while connecting goes to
/// standard error, not into the answer on standard output.
pub fn run<T, F>(layout: &Layout, job: F) -> Result<Vec<T>, Error>
where
    T: Send + 'static,
    F: Fn(&mut dyn DistExchange) -> T + Send + Sync + 'static,
{
    let limit = std::env::var("FLOE_CONNECT_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(CONNECT_SECONDS);
    let (connected, watch) = std::sync::mpsc::channel::<()>();
    if layout.processes > 1 {
        let processes = layout.processes;
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                watch.recv_timeout(std::time::Duration::from_secs(limit))
            {
                eprintln!(
                    "floe: the {processes} processes of the run did not all connect within \
                     {limit} s (FLOE_CONNECT_TIMEOUT); check --hostfile and that every \
                     process was started"
                );
                std::process::exit(1);
            }
        });
    }
    let guards = {
        let _quiet = StdoutToStderr::new();
        timely::execute(layout.config(), move |worker| {
            let mut ex = Timely::new(worker);
            job(&mut ex)
        })
    }
    .map_err(|e| Error::invalid(format!("the workers could not be started: {e}")))?;
    let _ = connected.send(());
    guards
        .join()
        .into_iter()
        .map(|r| r.map_err(|e| Error::invalid(format!("a worker failed: {e}"))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use floe::search::dist::{enumerate_dist, DistOptions};
    use floe::search::{enumerate, Limits, Puzzle};

    /// Numbers below 50,000 under x → 3x+1 (mod n), x/2, x+7 (below n).
    #[derive(Clone, Copy)]
    struct Walks;
    impl Puzzle for Walks {
        type State = u64;
        type Move = u8;
        fn start(&self) -> u64 {
            1
        }
        fn successors(&self, &x: &u64, out: &mut Vec<(u8, u64)>) {
            out.push((0, (3 * x + 1) % 50_000));
            if x % 2 == 0 {
                out.push((1, x / 2));
            }
            if x + 7 < 50_000 {
                out.push((2, x + 7));
            }
        }
        fn is_goal(&self, _: &u64) -> bool {
            false
        }
        fn rank_space(&self) -> Option<u64> {
            Some(50_000)
        }
        fn rank(&self, &x: &u64) -> Option<u64> {
            Some(x)
        }
        fn unrank(&self, r: u64) -> Option<u64> {
            (r < 50_000).then_some(r)
        }
    }

    #[test]
    fn threads_of_one_process_count_as_one_worker() {
        let truth = enumerate(&Walks, &Limits::none(), |_, _| {});
        assert!(truth.histogram.len() > 10);
        for workers in [1, 3] {
            let layout = Layout {
                workers,
                processes: 1,
                process: 0,
                addresses: Vec::new(),
            };
            let got = run(&layout, |ex| {
                enumerate_dist(&Walks, ex, &DistOptions::default(), || ())
                    .map(|d| (d.enumeration.histogram, d.owned))
            })
            .unwrap();
            assert_eq!(got.len(), workers);
            let mut owned = 0;
            for g in got {
                let (h, o) = g.unwrap();
                assert_eq!(h, truth.histogram);
                owned += o;
            }
            assert_eq!(owned, truth.states);
        }
    }

    #[test]
    fn hostfiles_are_checked() {
        let dir = std::env::temp_dir().join(format!("floe-hosts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("hosts");
        floe::mem::write_whole(&f, "127.0.0.1:4000\n# a comment\n\nnode7:4001\n").unwrap();
        let c = PeersArgs {
            processes: Some(2),
            process: Some(1),
            hostfile: Some(f.clone()),
            workers: Some(2),
        };
        let l = Layout::of(&c).unwrap();
        assert_eq!(l.addresses, ["127.0.0.1:4000", "node7:4001"]);
        assert_eq!(l.peers(), 4);
        floe::mem::write_whole(&f, "127.0.0.1:4000\n").unwrap();
        let e = Layout::of(&c).unwrap_err().to_string();
        assert!(e.contains("1 addresses for 2 processes"), "{e}");
        floe::mem::write_whole(&f, "127.0.0.1:4000\nnode7\n").unwrap();
        let e = Layout::of(&c).unwrap_err().to_string();
        assert!(e.contains("not host:port"), "{e}");
        let bad = PeersArgs {
            processes: Some(2),
            process: Some(2),
            ..PeersArgs::default()
        };
        assert!(Layout::of(&bad)
            .unwrap_err()
            .to_string()
            .contains("numbered 0 to 1"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
