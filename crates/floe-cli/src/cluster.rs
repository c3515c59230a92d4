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
//!
//! Before the engine starts, the processes connect and shake hands (`handshake`): a process
//! of another job or layout is refused by every process, naming the difference. Once it
//! runs, a lost peer (a process killed, a machine gone) ends every process with a message
//! and exit code 1, never a panic; the run's checkpoint stays as it was.

use crate::args::PeersArgs;
use floe::mem::RunIdentity;
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
use timely::{CommunicationConfig, WorkerConfig};

mod handshake;

/// The most workers a process takes for each of its machine's cores.
pub const WORKERS_PER_CORE: usize = 8;
/// What travels between workers.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Msg {
    /// Ranks for their owner (its own numbers for them), packed between processes.
    Ranks(Packed),
    /// A worker's figures at the end of a round.
    Figures(u32, Vec<u64>),
    /// A worker's part of a result, for worker 0.
    Bytes(u32, Vec<u8>),
}

/// A batch of ranks. Between the threads of a process it travels as it is; to another
/// process it is packed ([`packed`]) once: timely asks a message for its size and then for
/// its bytes, and both answers come from the one packing. A batch known to leave the process
/// is packed straight from the sender's buffer ([`Packed::leaving`]), without a copy of its
/// ranks.
#[derive(Clone, Debug, Default)]
struct Packed {
    ranks: Vec<u64>,
    bytes: std::cell::OnceCell<Vec<u8>>,
}

impl Packed {
    /// `ranks` packed: for a worker of another process.
    fn leaving(ranks: &[u64]) -> Packed {
        Packed {
            ranks: Vec::new(),
            bytes: std::cell::OnceCell::from(packed::encode(ranks)),
        }
    }

    /// The ranks, unpacked if the batch was packed here and stayed in the process.
    fn into_ranks(self) -> Vec<u64> {
        match self.bytes.into_inner() {
            Some(b) if self.ranks.is_empty() => {
                packed::decode(&b).expect("a batch packed by this process")
            }
            _ => self.ranks,
        }
    }
}

impl From<Vec<u64>> for Packed {
    fn from(ranks: Vec<u64>) -> Packed {
        Packed {
            ranks,
            bytes: std::cell::OnceCell::new(),
        }
    }
}

impl Serialize for Packed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.bytes.get_or_init(|| packed::encode(&self.ranks)))
    }
}

impl<'de> Deserialize<'de> for Packed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Packed, D::Error> {
        packed::deserialize(d).map(Packed::from)
    }
}

/// Ranks as they travel between processes: a byte giving the width `w` (1 to 8), then each
/// rank in its `w` low bytes, little-endian, `w` being the fewest bytes that hold the largest
/// rank of the batch. A local rank of 8×8 with 6 blocks takes 4 bytes instead of 8; one of 9×9
/// with 9 blocks on two workers 5. Between the threads of a process nothing is encoded.
mod packed {
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::Deserializer;
    use std::fmt;

    pub fn encode(ranks: &[u64]) -> Vec<u8> {
        let top = ranks.iter().fold(0, |m, &r| m | r);
        let w = (64 - top.leading_zeros()).div_ceil(8).max(1) as usize;
        // written once each, not zeroed first
        let mut out = Vec::with_capacity(1 + w * ranks.len());
        out.push(w as u8);
        fn put<const W: usize>(ranks: &[u64], out: &mut Vec<u8>) {
            for &r in ranks {
                out.extend_from_slice(&r.to_le_bytes()[..W]);
            }
        }
        match w {
            1 => put::<1>(ranks, &mut out),
            2 => put::<2>(ranks, &mut out),
            3 => put::<3>(ranks, &mut out),
            4 => put::<4>(ranks, &mut out),
            5 => put::<5>(ranks, &mut out),
            6 => put::<6>(ranks, &mut out),
            7 => put::<7>(ranks, &mut out),
            _ => put::<8>(ranks, &mut out),
        }
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<Vec<u64>, String> {
        let Some((&w, body)) = bytes.split_first() else {
            return Err("a batch of ranks without its width".into());
        };
        let w = w as usize;
        if !(1..=8).contains(&w) || body.len() % w != 0 {
            return Err(format!(
                "a batch of ranks of {} bytes cannot hold ranks of {w} bytes",
                body.len()
            ));
        }
        fn get<const W: usize>(body: &[u8]) -> Vec<u64> {
            body.chunks_exact(W)
                .map(|c| {
                    let mut b = [0u8; 8];
                    b[..W].copy_from_slice(c);
                    u64::from_le_bytes(b)
                })
                .collect()
        }
        Ok(match w {
            1 => get::<1>(body),
            2 => get::<2>(body),
            3 => get::<3>(body),
            4 => get::<4>(body),
            5 => get::<5>(body),
            6 => get::<6>(body),
            7 => get::<7>(body),
            _ => get::<8>(body),
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
        struct Packed;
        impl<'de> Visitor<'de> for Packed {
            type Value = Vec<u64>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a packed batch of ranks")
            }
            fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u64>, E> {
                decode(v).map_err(E::custom)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u64>, A::Error> {
                let mut v = Vec::new();
                while let Some(b) = seq.next_element::<u8>()? {
                    v.push(b);
                }
                decode(&v).map_err(A::Error::custom)
            }
        }
        d.deserialize_bytes(Packed)
    }
}

type Inbox = Rc<RefCell<Vec<(u64, Msg)>>>;

/// One worker's side of the exchange.
pub struct Timely<'w> {
    worker: &'w mut Worker,
    input: InputHandle<u64, CapacityContainerBuilder<Vec<(u32, Msg)>>>,
    probe: ProbeHandle<u64>,
    inbox: Inbox,
    round: u64,
    watch: Option<Watch>,
    /// The workers of this process.
    here: std::ops::Range<usize>,
}

/// How long after its own deadline a process waits for the others at the end of a round
/// before it gives up on them.
const PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// A process's deadline in a shared run: past it (and [`PATIENCE`]), a round that still
/// waits for another process ends this process, naming the processes that did not answer.
#[derive(Clone)]
struct Watch {
    /// The run's `--timeout`.
    timeout: std::time::Duration,
    /// When the waiting stops.
    give_up: std::time::Instant,
    process: usize,
    workers: usize,
    addresses: Vec<String>,
}

impl Watch {
    /// Ends the process: the run went past its deadline and the processes of the workers
    /// not in `answered` (every other process when none is known) did not answer.
    fn give_up(&self, answered: &[bool]) -> ! {
        use std::sync::atomic::{AtomicBool, Ordering};
        static SAID: AtomicBool = AtomicBool::new(false);
        if SAID.swap(true, Ordering::SeqCst) {
            // another worker of this process says it and ends the process
            loop {
                std::thread::park();
            }
        }
        let mut silent: Vec<usize> = (0..self.addresses.len())
            .filter(|&p| p != self.process)
            .filter(|&p| {
                (p * self.workers..(p + 1) * self.workers)
                    .any(|w| answered.get(w).is_some_and(|a| !a))
            })
            .collect();
        if silent.is_empty() {
            silent = (0..self.addresses.len())
                .filter(|&p| p != self.process)
                .collect();
        }
        let named: Vec<String> = silent
            .iter()
            .map(|&p| format!("process {p} ({})", self.addresses[p]))
            .collect();
        eprintln!(
            "floe: process {} stopped at its --timeout of {}: {} did not answer within {} ms \
             of it (stopped, frozen or overloaded), so no figures are reported; what was \
             checkpointed stays (start every process again with --resume to go on)",
            self.process,
            crate::out::human_time(self.timeout),
            named.join(" and "),
            PATIENCE.as_millis()
        );
        std::process::exit(1);
    }
}

impl<'w> Timely<'w> {
    /// Builds the worker's dataflow.
    fn new(
        worker: &'w mut Worker,
        watch: Option<Watch>,
        here: std::ops::Range<usize>,
    ) -> Timely<'w> {
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
            watch,
            here,
        }
    }

    /// Hands `got` the ranks of round `round` that have arrived.
    fn deliver(&mut self, round: u64, got: &mut dyn FnMut(&[u64])) {
        let mut ready = Vec::new();
        self.inbox.borrow_mut().retain_mut(|(t, m)| match m {
            Msg::Ranks(v) if *t == round => {
                ready.push(std::mem::take(v).into_ranks());
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
            // waiting for the other workers: parked until a message wakes it (or for a
            // millisecond at most), not spinning on a core
            self.worker
                .step_or_park(Some(std::time::Duration::from_millis(1)));
            self.deliver(now, got);
            if let Some(w) = &self.watch {
                if std::time::Instant::now() >= w.give_up {
                    let mut answered = vec![false; self.worker.peers()];
                    for (t, m) in self.inbox.borrow().iter() {
                        if let (true, Msg::Figures(k, _) | Msg::Bytes(k, _)) = (*t == now, m) {
                            if let Some(a) = answered.get_mut(*k as usize) {
                                *a = true;
                            }
                        }
                    }
                    let any = answered
                        .iter()
                        .enumerate()
                        .any(|(k, &a)| a && k / w.workers.max(1) != w.process);
                    w.give_up(if any { &answered } else { &[] });
                }
            }
        }
        self.deliver(now, got);
        let mut out = Vec::new();
        self.inbox.borrow_mut().retain_mut(|(t, m)| {
            if *t == now {
                out.push(std::mem::replace(m, Msg::Ranks(Packed::default())));
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
                // a copy of its exact size travels (packed if it leaves the process); the
                // batch keeps its room for the next chunk (no allocation as large as a
                // chunk's successors for each message)
                let m = if self.here.contains(&w) {
                    b.to_vec().into()
                } else {
                    Packed::leaving(b)
                };
                self.input.send((w as u32, Msg::Ranks(m)));
                b.clear();
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

/// The workers of a process started without `--workers`: `cores` divided by the most
/// processes that `addresses` put on one host (by the text before the port, every loopback
/// name — `localhost`, `127.x.y.z`, `::1` — being this machine), at least one. Two
/// processes on one machine of 2 cores take one worker each instead of two (four threads on
/// two cores ran a tenth slower, 8×8 with 6 blocks).
fn default_workers(cores: usize, addresses: &[String]) -> usize {
    let host = |a: &String| {
        let h = a.rsplit_once(':').map_or(a.as_str(), |(h, _)| h);
        let h = h.trim_start_matches('[').trim_end_matches(']');
        let loopback = h.eq_ignore_ascii_case("localhost") || h.starts_with("127.") || h == "::1";
        if loopback { "localhost" } else { h }.to_ascii_lowercase()
    };
    let mut hosts: Vec<String> = addresses.iter().map(host).collect();
    hosts.sort();
    let crowded = hosts
        .chunk_by(|a, b| a == b)
        .map(<[String]>::len)
        .max()
        .unwrap_or(1);
    (cores / crowded).max(1)
}

impl Layout {
    /// The layout the flags ask for: one process of `--workers` threads unless `--processes`
    /// says more, whose addresses come from `--hostfile` (default 127.0.0.1, ports 2101 up).
    /// Without `--workers`, the processes of one host share its cores: each takes the cores
    /// divided by the most processes the addresses put on one host (at least one), the same
    /// for every process, as timely needs.
    pub fn of(c: &PeersArgs) -> Result<Layout, Error> {
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
                        "{}: {} for {processes} processes (one host:port a line, in order of \
                         --process)",
                        path.display(),
                        match lines.len() {
                            0 => "no address".to_string(),
                            1 => "1 address".to_string(),
                            n => format!("{n} addresses"),
                        }
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
                let lines: Vec<String> = lines.into_iter().take(processes).collect();
                for (i, l) in lines.iter().enumerate() {
                    if let Some(j) = lines[..i].iter().position(|m| m == l) {
                        return Err(Error::invalid(format!(
                            "{}: {l} is the address of process {j} and of process {i}; every \
                             process needs an address of its own",
                            path.display()
                        )));
                    }
                }
                lines
            }
            None => (0..processes)
                .map(|i| format!("127.0.0.1:{}", 2101 + i))
                .collect(),
        };
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        if let Some(w) = c.workers.filter(|&w| w > WORKERS_PER_CORE * cores) {
            return Err(Error::invalid(format!(
                "--workers {w}: at most {} on this machine's {cores} cores \
                 ({WORKERS_PER_CORE} a core): each worker is a thread with its own share of \
                 the positions and its own buffers, and more only cut the work into slower \
                 parts (512 workers on 2 cores had not ended a small run in 100 s); a run \
                 checkpointed with more workers is taken up on a machine with more cores",
                WORKERS_PER_CORE * cores
            )));
        }
        let workers = c
            .workers
            .unwrap_or_else(|| default_workers(cores, &addresses));
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

    /// The engine's configuration within this process (the processes are linked by
    /// [`run`] itself).
    fn local(&self) -> CommunicationConfig {
        if self.workers > 1 {
            CommunicationConfig::Process(self.workers)
        } else {
            CommunicationConfig::Thread
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
/// higher ones) and shake hands with `identity`: a process of another run is refused by
/// both, naming the difference, and a process that cannot reach the others within
/// `FLOE_CONNECT_TIMEOUT` seconds (default 600) ends with an error. While the run goes, a
/// lost connection ends this process with a message and exit code 1 (the others too, as they
/// lose theirs), and so does a worker that panics, instead of leaving the others waiting.
/// With a `timeout`, a process that waits for the others more than [`PATIENCE`] past it
/// (a peer stopped with SIGSTOP, frozen or overloaded) ends with a message naming them and
/// exit code 1; its checkpoint stays as it was.
pub fn run<T, F>(
    layout: &Layout,
    identity: &RunIdentity,
    timeout: Option<std::time::Duration>,
    job: F,
) -> Result<Vec<T>, Error>
where
    T: Send + 'static,
    F: Fn(&mut dyn DistExchange) -> T + Send + Sync + 'static,
{
    let limit = std::env::var("FLOE_CONNECT_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(CONNECT_SECONDS);
    stop_cleanly_on_panic(layout);
    let (builders, others) = if layout.processes > 1 {
        use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
        use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
        let sockets = handshake::connect(layout, identity, std::time::Duration::from_secs(limit))?;
        let hooks = timely::communication::Hooks::default();
        let local = ProcessBuilder::new_typed_vector(
            layout.workers,
            hooks.refill.clone(),
            hooks.spill.clone(),
        );
        let (tcp, guard) = initialize_networking_from_sockets(
            local,
            sockets,
            layout.process,
            layout.workers,
            hooks,
        )
        .map_err(|e| Error::invalid(format!("the workers could not be started: {e}")))?;
        let builders: Vec<AllocatorBuilder> = tcp.into_iter().map(AllocatorBuilder::Tcp).collect();
        let others: Box<dyn std::any::Any + Send> = Box::new(guard);
        (builders, others)
    } else {
        layout
            .local()
            .try_build()
            .map_err(|e| Error::invalid(format!("the workers could not be started: {e}")))?
    };
    let watch = timeout.filter(|_| layout.processes > 1).map(|t| Watch {
        timeout: t,
        give_up: std::time::Instant::now() + t + PATIENCE,
        process: layout.process,
        workers: layout.workers,
        addresses: layout.addresses.clone(),
    });
    let here = layout.process * layout.workers..(layout.process + 1) * layout.workers;
    let guards =
        timely::execute::execute_from(builders, others, WorkerConfig::default(), move |worker| {
            let mut ex = Timely::new(worker, watch.clone(), here.clone());
            job(&mut ex)
        })
        .map_err(|e| Error::invalid(format!("the workers could not be started: {e}")))?;
    guards
        .join()
        .into_iter()
        .map(|r| r.map_err(|e| Error::invalid(format!("a worker failed: {e}"))))
        .collect()
}

/// From now on, a panic ends the process at once with one line and exit code 1: in a
/// shared run, a thread that panics would leave every other worker of the run waiting for
/// it. The engine's connection threads panic when a peer goes away ("timely communication
/// error"); that is said as a lost peer, with what to do.
fn stop_cleanly_on_panic(layout: &Layout) {
    // (the unit tests of this crate share one process: their panics are theirs to report)
    if cfg!(test) {
        return;
    }
    let me = layout.process;
    let addresses = layout.addresses.clone();
    std::panic::set_hook(Box::new(move |info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let thread = std::thread::current();
        let name = thread.name().unwrap_or("");
        let peer = name
            .strip_prefix("timely:recv-")
            .or_else(|| name.strip_prefix("timely:send-"))
            .and_then(|j| j.parse::<usize>().ok());
        match peer {
            Some(j) => eprintln!(
                "floe: process {me} lost its connection to process {j} ({}): {}. Every \
                 process of the run stops; what was checkpointed stays (start them all again \
                 with --resume to go on)",
                addresses.get(j).map_or("?", String::as_str),
                what.trim_start_matches("timely communication error: ")
            ),
            None => eprintln!(
                "floe: internal error (please report): a worker stopped: {what}{}",
                info.location()
                    .map_or(String::new(), |l| format!(" ({}:{})", l.file(), l.line()))
            ),
        }
        std::process::exit(1);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use floe::search::dist::{enumerate_dist, DistOptions};
    use floe::search::{enumerate, Limits, Puzzle};

    #[test]
    fn ranks_travel_packed_in_the_fewest_bytes_and_come_back_the_same() {
        for (ranks, width) in [
            (vec![], 1),
            (vec![0, 0, 0], 1),
            (vec![255, 3], 1),
            (vec![256, 0, 7], 2),
            (vec![37_487_183, 1, 2], 4),
            (vec![(1 << 40) - 1, 5], 5),
            (vec![1 << 40], 6),
            (vec![u64::MAX, 0, 1 << 63], 8),
        ] {
            let bytes = packed::encode(&ranks);
            assert_eq!(bytes[0], width, "{ranks:?}");
            assert_eq!(bytes.len(), 1 + width as usize * ranks.len());
            assert_eq!(packed::decode(&bytes).unwrap(), ranks);
            // through the codec the processes use
            let m = Msg::Ranks(ranks.clone().into());
            // asked for its size first, as timely does, the batch is packed once
            let size = bincode::serialized_size(&m).unwrap();
            match &m {
                Msg::Ranks(p) => assert_eq!(p.bytes.get(), Some(&bytes)),
                other => panic!("{other:?}"),
            }
            let wire = bincode::serialize(&m).unwrap();
            assert_eq!(wire.len() as u64, size);
            match bincode::deserialize::<Msg>(&wire).unwrap() {
                Msg::Ranks(back) => assert_eq!(back.ranks, ranks),
                other => panic!("{other:?}"),
            }
            // and through a text codec that writes bytes as a list
            let text = serde_json::to_string(&m).unwrap();
            match serde_json::from_str::<Msg>(&text).unwrap() {
                Msg::Ranks(back) => assert_eq!(back.ranks, ranks),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn a_batch_packed_for_another_process_gives_its_ranks_wherever_it_ends() {
        for ranks in [vec![], vec![0], vec![70_000, 1, 3], vec![u64::MAX, 5]] {
            let m = Msg::Ranks(Packed::leaving(&ranks));
            // over the wire, as timely sends it to another process
            let wire = bincode::serialize(&m).unwrap();
            assert_eq!(
                wire,
                bincode::serialize(&Msg::Ranks(ranks.clone().into())).unwrap()
            );
            match bincode::deserialize::<Msg>(&wire).unwrap() {
                Msg::Ranks(back) => assert_eq!(back.into_ranks(), ranks),
                other => panic!("{other:?}"),
            }
            // and kept in the process (a worker thought to be elsewhere)
            match m {
                Msg::Ranks(p) => assert_eq!(p.into_ranks(), ranks),
                other => panic!("{other:?}"),
            }
            // a batch that was never packed gives its ranks as they are
            assert_eq!(Packed::from(ranks.clone()).into_ranks(), ranks);
        }
    }

    #[test]
    fn a_damaged_batch_of_ranks_is_refused() {
        assert!(packed::decode(&[]).unwrap_err().contains("width"));
        for bad in [
            &[0u8, 1][..],
            &[9, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[4, 1, 2, 3],
        ] {
            let e = packed::decode(bad).unwrap_err();
            assert!(e.contains("cannot hold"), "{e}");
        }
        let mut wire = bincode::serialize(&Msg::Ranks(vec![70_000, 1].into())).unwrap();
        wire.truncate(wire.len() - 1);
        assert!(bincode::deserialize::<Msg>(&wire).is_err());
    }

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
            let got = run(&layout, &RunIdentity::default(), None, |ex| {
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
    fn processes_of_one_host_share_its_cores() {
        let at = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // one process: all the cores
        assert_eq!(default_workers(8, &at(&["127.0.0.1:2101"])), 8);
        // two on this machine (the default addresses): half each
        assert_eq!(
            default_workers(8, &at(&["127.0.0.1:2101", "127.0.0.1:2102"])),
            4
        );
        // one a node: all of each node's cores
        assert_eq!(default_workers(8, &at(&["node1:4000", "node2:4000"])), 8);
        // two on one node and one on another: the crowded node decides, for all alike
        let three = at(&["node1:4000", "node1:4001", "node2:4000"]);
        assert_eq!(default_workers(8, &three), 4);
        // every loopback name is this machine
        let mixed = at(&[
            "localhost:4101",
            "127.0.0.1:4102",
            "127.0.0.2:4103",
            "[::1]:4104",
        ]);
        assert_eq!(default_workers(8, &mixed), 2);
        assert_eq!(default_workers(8, &at(&["Node1:4000", "node1:4001"])), 4);
        // more processes than cores: one worker each, never none
        let many: Vec<String> = (0..5).map(|i| format!("127.0.0.1:{}", 2101 + i)).collect();
        assert_eq!(default_workers(2, &many), 1);
        // and through the flags: --processes 2 without a hostfile
        let c = PeersArgs {
            processes: Some(2),
            process: Some(1),
            ..PeersArgs::default()
        };
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        assert_eq!(Layout::of(&c).unwrap().workers, (cores / 2).max(1));
        let c = PeersArgs {
            workers: Some(3),
            ..c
        };
        assert_eq!(Layout::of(&c).unwrap().workers, 3);
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
        assert!(e.contains("1 address for 2 processes"), "{e}");
        floe::mem::write_whole(&f, "127.0.0.1:4000\nnode7\n").unwrap();
        let e = Layout::of(&c).unwrap_err().to_string();
        assert!(e.contains("not host:port"), "{e}");
        floe::mem::write_whole(&f, "127.0.0.1:4000\n127.0.0.1:4000\n").unwrap();
        let e = Layout::of(&c).unwrap_err().to_string();
        assert!(e.contains("of process 0 and of process 1"), "{e}");
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
