//! Breadth-first enumeration shared by many workers (threads, processes, machines), out of
//! core and resumable.
//!
//! Every position is owned by one worker: the one numbered `rank % peers`, where `rank` is
//! the game's perfect hash ([`Puzzle::rank`]); the owner keeps one bit per position it may
//! own (`rank / peers`). A layer is one round: each worker expands the positions of its part
//! of the layer (rebuilt from their ranks by [`Puzzle::unrank`]), sends the rank of every
//! successor to its owner, and each owner keeps those it has not seen as its part of the
//! next layer. How the ranks travel is the [`Exchange`]'s business: [`Alone`] (one worker,
//! nothing travels), or the command line's dataflow engine (timely) across threads and
//! processes. The counts are exactly those of [`enumerate`](super::enumerate): a position's
//! distance is the round in which its owner first sees it, whoever sends it.
//!
//! **Out of core.** With a work directory, a worker's layers live in files
//! (`worker-I/layer-D.bin`, 5 bytes a position when its part has fewer than 2^40 ranks), read
//! back in chunks, so the memory is the visited bits of its part and a few buffers. When
//! the bits themselves do not fit ([`DistOptions::bits_budget`]), they are kept on disk too
//! (`worker-I/seen.bin`), a segment at a time: the ranks a worker receives wait in a bucket
//! per segment until the layer is over, then each segment is read, judged and written back
//! (delayed duplicate detection, see `seen`).
//!
//! **Checkpoints.** A worker's layer file is renamed into place only when complete, and
//! `worker-I/progress.json` then records the layer, the histogram so far and the file of its
//! partial result ([`Partial`]). `resume` takes up every worker at the last layer that all of
//! them finished (they are at most one layer apart): the visited bits are rebuilt from the
//! layer files, and the run goes on exactly as if it had not stopped.

use super::bfs::Enumeration;
use super::{LimitKind, Limits, Progress, Puzzle, Stats};
use crate::Error;
use seen::Seen;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fs::{self, File};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod seen;
pub use seen::BUCKET_BYTES;

/// Ranks sent to one owner at a time.
pub const BATCH: usize = 1 << 12;
/// Positions expanded between two looks at the limits and the incoming ranks.
const CHUNK: usize = 1 << 12;
/// Positions a worker expands between two rounds (see "epochs" in `enumerate_dist`).
const EPOCH: usize = if cfg!(test) { 1 << 10 } else { 1 << 16 };
/// The file format's version (in the progress file).
const FORMAT: u32 = 1;

/// One worker's link to the others in a round-based enumeration.
///
/// Rounds are numbered implicitly: a round ends with [`Exchange::end_round`] (or
/// [`Exchange::gather`]), and every worker must end the same rounds in the same order.
pub trait Exchange {
    /// This worker's number, `0..peers()`.
    fn index(&self) -> usize;
    /// How many workers there are.
    fn peers(&self) -> usize;
    /// Sends `batches[w]` to worker `w` (every batch is left empty), and hands `got` the
    /// ranks that reached this worker in the current round meanwhile.
    fn send(&mut self, batches: &mut [Vec<u64>], got: &mut dyn FnMut(&[u64]));
    /// Ends the round: hands `got` every rank sent to this worker in it (by anyone), then
    /// returns every worker's `figures`, in worker order.
    fn end_round(&mut self, figures: Vec<u64>, got: &mut dyn FnMut(&[u64])) -> Vec<Vec<u64>>;
    /// Ends a round in which worker 0 receives every worker's `bytes` (in worker order);
    /// the others get `None`.
    fn gather(&mut self, bytes: Vec<u8>) -> Option<Vec<Vec<u8>>>;
}

/// The exchange of a single worker: every rank is its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alone;

impl Exchange for Alone {
    fn index(&self) -> usize {
        0
    }
    fn peers(&self) -> usize {
        1
    }
    fn send(&mut self, batches: &mut [Vec<u64>], got: &mut dyn FnMut(&[u64])) {
        for b in batches {
            got(b);
            b.clear();
        }
    }
    fn end_round(&mut self, figures: Vec<u64>, _got: &mut dyn FnMut(&[u64])) -> Vec<Vec<u64>> {
        vec![figures]
    }
    fn gather(&mut self, bytes: Vec<u8>) -> Option<Vec<Vec<u8>>> {
        Some(vec![bytes])
    }
}

/// What workers compute beside the counts, one part each, merged at worker 0 (a reach
/// table: the fewest moves after which each cell is covered).
pub trait Partial<S>: Sized {
    /// Whether [`Partial::visit`] looks at the positions: when not, the positions a worker
    /// receives are not rebuilt from their ranks.
    const STATES: bool;
    /// Sees a position found at `depth` moves from the start, once per position.
    fn visit(&mut self, state: &S, depth: u32);
    /// Adds another worker's part.
    fn merge(&mut self, other: Self);
    /// The part as bytes (sent to worker 0, kept in checkpoints).
    fn to_bytes(&self) -> Vec<u8>;
    /// Reads [`Partial::to_bytes`] back; `fresh` is an empty part of the same shape.
    fn from_bytes(fresh: Self, bytes: &[u8]) -> Result<Self, Error>;
}

impl<S> Partial<S> for () {
    const STATES: bool = false;
    fn visit(&mut self, _: &S, _: u32) {}
    fn merge(&mut self, _: ()) {}
    fn to_bytes(&self) -> Vec<u8> {
        Vec::new()
    }
    fn from_bytes(_: (), _: &[u8]) -> Result<(), Error> {
        Ok(())
    }
}

/// How a shared enumeration runs.
#[derive(Clone, Debug, Default)]
pub struct DistOptions {
    /// `timeout`, `stop`, `max_memory` and the interrupt flag are heard between chunks of
    /// work (every worker stops at the end of the same round); `max_states` at the end of
    /// each layer; `progress` at worker 0 after each layer.
    pub limits: Limits,
    /// Where this run's layers and checkpoints live (`None`: in memory, no checkpoint).
    pub work_dir: Option<PathBuf>,
    /// Take up the run checkpointed in `work_dir`.
    pub resume: bool,
    /// What is enumerated (the game, the level, its parameters), written in the checkpoints
    /// and compared on `resume`: a run is never resumed on another level.
    pub identity: String,
    /// The most bytes a worker's visited bits may take in memory: larger bits are kept in
    /// `work_dir`, in segments of this size (`None`: always in memory).
    pub bits_budget: Option<u64>,
    /// Positions a worker expands between two rounds (`None`: 65,536): what is on its way
    /// between workers is at most this many positions' successors.
    pub epoch: Option<usize>,
}

/// What a shared enumeration found.
#[derive(Clone, Debug)]
pub struct DistEnumeration<A> {
    /// The counts, the same at every worker (`stats.expanded` and `generated`: this
    /// worker's; `peak_bytes`: this worker's bits and buffers).
    pub enumeration: Enumeration,
    /// The merged partial result, at worker 0.
    pub partial: Option<A>,
    /// The layer the run was taken up at, when resumed.
    pub resumed_at: Option<u32>,
    /// Bytes of this worker's files in the work directory.
    pub disk_bytes: u64,
    /// This worker's positions (owned and found).
    pub owned: u64,
}

impl<A> DistEnumeration<A> {
    /// The same figures without the partial result.
    pub fn without_partial(&self) -> DistEnumeration<()> {
        DistEnumeration {
            enumeration: self.enumeration.clone(),
            partial: self.partial.as_ref().map(|_| ()),
            resumed_at: self.resumed_at,
            disk_bytes: self.disk_bytes,
            owned: self.owned,
        }
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Checkpoint {
    format: u32,
    identity: String,
    peers: usize,
    index: usize,
    rank_space: u64,
    /// Layers `0..=layer` are complete and in their files.
    layer: u32,
    /// Positions per layer, over every worker, through `layer`.
    histogram: Vec<u64>,
    /// Whether the enumeration is over (no position at `layer + 1`).
    done: bool,
}

/// A worker's folder in the work directory.
pub fn worker_dir(work_dir: &Path, index: usize) -> PathBuf {
    work_dir.join(format!("worker-{index}"))
}

fn io_err(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        path: format!("{what} {}", path.display()),
        source: e,
    }
}

fn layer_path(dir: &Path, d: u32) -> PathBuf {
    dir.join(format!("layer-{d:05}.bin"))
}

fn partial_path(dir: &Path, d: u32) -> PathBuf {
    dir.join(format!("partial-{d:05}.bin"))
}

/// Writes `bytes` to `path` whole or not at all.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    crate::mem::write_whole(path, bytes)
}

/// A layer's positions in a file: a header (magic, bytes per rank), then the local ranks;
/// renamed into place only when complete.
struct LayerWriter {
    out: crate::mem::WholeFile,
    path: PathBuf,
    width: usize,
    count: u64,
}

const MAGIC: &[u8; 8] = b"FLOELAYR";

impl LayerWriter {
    fn create(path: PathBuf, width: usize) -> Result<LayerWriter, Error> {
        let mut out = crate::mem::WholeFile::begin(&path)?;
        let mut head = [0u8; 16];
        head[..8].copy_from_slice(MAGIC);
        head[8] = width as u8;
        out.write(&head)
            .map_err(|e| io_err("cannot write", &path, e))?;
        Ok(LayerWriter {
            out,
            path,
            width,
            count: 0,
        })
    }
    #[inline]
    fn push(&mut self, local: u64) -> std::io::Result<()> {
        self.count += 1;
        self.out.write(&local.to_le_bytes()[..self.width])
    }
    /// Syncs and renames the file into place; its size.
    fn finish(self) -> Result<u64, Error> {
        self.out.finish()?;
        Ok(16 + self.count * self.width as u64)
    }
}

/// Reads a layer file in chunks of local ranks.
struct LayerReader {
    input: BufReader<File>,
    path: PathBuf,
    width: usize,
    buf: Vec<u8>,
}

impl LayerReader {
    fn open(path: PathBuf) -> Result<LayerReader, Error> {
        let f = File::open(&path).map_err(|e| io_err("cannot read", &path, e))?;
        let mut input = BufReader::with_capacity(1 << 20, f);
        let mut head = [0u8; 16];
        input
            .read_exact(&mut head)
            .map_err(|e| io_err("cannot read", &path, e))?;
        if &head[..8] != MAGIC || !(1..=8).contains(&head[8]) {
            return Err(Error::invalid(format!(
                "{} is not a layer file of floe",
                path.display()
            )));
        }
        Ok(LayerReader {
            input,
            width: head[8] as usize,
            path,
            buf: Vec::new(),
        })
    }
    /// Up to `n` more ranks into `out` (cleared first); false at the end.
    fn chunk(&mut self, n: usize, out: &mut Vec<u64>) -> Result<bool, Error> {
        out.clear();
        self.buf.resize(n * self.width, 0);
        let mut filled = 0;
        while filled < self.buf.len() {
            match self.input.read(&mut self.buf[filled..]) {
                Ok(0) => break,
                Ok(k) => filled += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_err("cannot read", &self.path, e)),
            }
        }
        if filled % self.width != 0 {
            return Err(Error::invalid(format!(
                "{} ends in the middle of a position",
                self.path.display()
            )));
        }
        for c in self.buf[..filled].chunks_exact(self.width) {
            let mut w = [0u8; 8];
            w[..self.width].copy_from_slice(c);
            out.push(u64::from_le_bytes(w));
        }
        Ok(filled > 0)
    }
}

/// A layer of this worker: in memory, or in a file.
enum Layer {
    Memory(Vec<u64>),
    File(PathBuf),
}

/// Where the next layer goes while it is found.
enum Sink {
    Memory(Vec<u64>),
    File(LayerWriter),
}

impl Sink {
    #[inline]
    fn push(&mut self, local: u64) -> std::io::Result<()> {
        match self {
            Sink::Memory(v) => {
                v.push(local);
                Ok(())
            }
            Sink::File(w) => w.push(local),
        }
    }
}

/// Reads a layer chunk by chunk.
enum LayerCursor<'a> {
    /// The layer and how far it was read.
    Memory(&'a [u64], usize),
    File(LayerReader),
}

impl<'a> LayerCursor<'a> {
    fn open(layer: &'a Layer) -> Result<LayerCursor<'a>, Error> {
        Ok(match layer {
            Layer::Memory(v) => LayerCursor::Memory(v, 0),
            Layer::File(path) => LayerCursor::File(LayerReader::open(path.clone())?),
        })
    }
    /// The next chunk into `out`; false at the end.
    fn chunk(&mut self, out: &mut Vec<u64>) -> Result<bool, Error> {
        match self {
            LayerCursor::Memory(v, at) => {
                out.clear();
                let end = (*at + CHUNK).min(v.len());
                out.extend_from_slice(&v[*at..end]);
                *at = end;
                Ok(!out.is_empty())
            }
            LayerCursor::File(r) => r.chunk(CHUNK, out),
        }
    }
}

/// What a worker says of its round: all went well, or it failed.
const OK: u64 = 0;
const FAILED: u64 = 2;

fn limit_code(l: LimitKind) -> u64 {
    match l {
        LimitKind::MaxStates => 0,
        LimitKind::Timeout => 1,
        LimitKind::MaxMemory => 2,
        LimitKind::Interrupted => 3,
        LimitKind::MaxMoves => 4,
    }
}

fn limit_of(code: u64) -> LimitKind {
    match code {
        0 => LimitKind::MaxStates,
        1 => LimitKind::Timeout,
        2 => LimitKind::MaxMemory,
        4 => LimitKind::MaxMoves,
        _ => LimitKind::Interrupted,
    }
}

/// Ends a round in which a worker may have failed: every worker fails together (the others
/// with a message that names the worker), so that none waits for a round that never comes.
fn agree(
    ex: &mut dyn Exchange,
    mine: Result<(), Error>,
    figures: Vec<u64>,
    got: &mut dyn FnMut(&[u64]),
) -> Result<Vec<Vec<u64>>, Error> {
    let mut f = vec![if mine.is_ok() { OK } else { FAILED }];
    f.extend(figures);
    let all = ex.end_round(f, got);
    mine?;
    if let Some(w) = all.iter().position(|f| f[0] == FAILED) {
        return Err(Error::invalid(format!(
            "worker {w} failed (its own message says why); every worker stopped"
        )));
    }
    Ok(all.into_iter().map(|mut f| f.split_off(1)).collect())
}

/// Ends a round in which every worker says whether its own work went well: all go on with
/// their values, or all return an error (the failed worker its own). For work shared by
/// other means than [`enumerate_dist`] (the PushPush census's layers).
pub fn agree_on<T>(ex: &mut dyn Exchange, mine: Result<T, Error>) -> Result<T, Error> {
    match mine {
        Ok(v) => {
            agree(ex, Ok(()), Vec::new(), &mut |_| {})?;
            Ok(v)
        }
        Err(e) => {
            agree(ex, Err(e), Vec::new(), &mut |_| {})?;
            unreachable!("agree returns the error it is given")
        }
    }
}

/// Enumerates every position reachable from `p`'s start with the workers linked by `ex`,
/// each folding the positions it owns into its own `partial` (made by `fresh`); the parts
/// are merged at worker 0.
///
/// Needs the game's perfect hash and its inverse ([`Puzzle::unrank`]). Every worker must
/// call this with the same puzzle and options; when one fails, all return an error.
///
/// ```
/// use floe::search::dist::{enumerate_dist, Alone, DistOptions};
/// use floe::search::{enumerate, Limits, Puzzle};
/// // the digits under "add one" and "double", modulo 10, from 1
/// struct Digits;
/// impl Puzzle for Digits {
///     type State = u8;
///     type Move = char;
///     fn start(&self) -> u8 {
///         1
///     }
///     fn successors(&self, &x: &u8, out: &mut Vec<(char, u8)>) {
///         out.extend([('+', (x + 1) % 10), ('*', 2 * x % 10)]);
///     }
///     fn is_goal(&self, _: &u8) -> bool {
///         false
///     }
///     fn rank_space(&self) -> Option<u64> {
///         Some(10)
///     }
///     fn rank(&self, &x: &u8) -> Option<u64> {
///         Some(x.into())
///     }
///     fn unrank(&self, r: u64) -> Option<u8> {
///         (r < 10).then_some(r as u8)
///     }
/// }
/// let d = enumerate_dist(&Digits, &mut Alone, &DistOptions::default(), || ()).unwrap();
/// let e = enumerate(&Digits, &Limits::none(), |_, _| {});
/// assert_eq!(d.enumeration.histogram, e.histogram);
/// assert_eq!(d.enumeration.states, 10);
/// ```
pub fn enumerate_dist<P, A, F>(
    p: &P,
    ex: &mut dyn Exchange,
    o: &DistOptions,
    fresh: F,
) -> Result<DistEnumeration<A>, Error>
where
    P: Puzzle,
    A: Partial<P::State>,
    F: Fn() -> A,
{
    let begin = Instant::now();
    let deadline = o.limits.deadline_from(begin);
    let peers = ex.peers().max(1) as u64;
    let index = ex.index();
    let me = index as u64;
    let space = p.rank_space().ok_or_else(|| {
        Error::invalid(
            "this game has no perfect hash of its positions, which an enumeration shared by \
             several workers or kept on disk needs",
        )
    })?;
    let start = p.start();
    let start_rank = p
        .rank(&start)
        .expect("a puzzle with a rank space ranks every state");
    if p.unrank(start_rank).as_ref() != Some(&start) {
        return Err(Error::invalid(
            "this game cannot rebuild a position from its perfect hash, which an enumeration \
             shared by several workers or kept on disk needs",
        ));
    }
    let local_space = space.div_ceil(peers);
    let pow2 = peers.is_power_of_two();
    let shift = peers.trailing_zeros();
    let width = if local_space < 1 << 40 { 5 } else { 8 };
    let mut seen = Seen::Memory(crate::bits::BitArray::new(0));
    let epoch = o.epoch.unwrap_or(EPOCH).max(1);
    let mut part = fresh();
    let dir = o.work_dir.as_ref().map(|w| worker_dir(w, index));
    let base = Checkpoint {
        format: FORMAT,
        identity: o.identity.clone(),
        peers: peers as usize,
        index,
        rank_space: space,
        layer: 0,
        histogram: Vec::new(),
        done: false,
    };

    // every worker takes up the last layer all of them finished
    let mine: Result<Option<Checkpoint>, Error> = match (&dir, o.resume) {
        (Some(d), true) => read_checkpoint(d, &base).map(Some),
        (Some(d), false) => prepare_fresh(d).map(|()| None),
        (None, _) => Ok(None),
    };
    let (mine, status) = match mine {
        Ok(c) => (c, Ok(())),
        Err(e) => (None, Err(e)),
    };
    let at_layer = mine.as_ref().map_or(u64::MAX, |c| u64::from(c.layer));
    let all = agree(ex, status, vec![at_layer], &mut |_| {})?;
    let common = all.iter().map(|f| f[0]).min().unwrap_or(u64::MAX);
    let highest = all.iter().map(|f| f[0]).max().unwrap_or(u64::MAX);
    // `MAX` is "no checkpoint": every worker has one, or none has
    if highest != common && (highest == u64::MAX || highest > common + 1) {
        return Err(Error::invalid(
            "the workers' checkpoints do not belong together (some have none, or they are \
             more than one layer apart): nothing can be resumed",
        ));
    }

    let mut histogram: Vec<u64> = Vec::new();
    let mut layer = Layer::Memory(Vec::new());
    let mut resumed_at = None;
    let mut done = false;
    let mut disk_bytes = 0u64;
    let mut owned = 0u64;
    let setup: Result<(), Error> = (|| {
        seen = Seen::new(local_space, o.bits_budget, dir.as_deref(), width)?;
        if seen.on_disk() {
            disk_bytes += local_space.div_ceil(64) * 8;
        }
        if let (Some(d), Some(c)) = (&dir, &mine) {
            let at = common as u32;
            if c.histogram.len() <= at as usize {
                return Err(Error::invalid(format!(
                    "{}: the checkpoint has no histogram through layer {at}",
                    d.display()
                )));
            }
            histogram = c.histogram[..=at as usize].to_vec();
            done = c.done && c.layer == at;
            for k in 0..=at {
                let path = layer_path(d, k);
                disk_bytes += fs::metadata(&path).map_or(0, |m| m.len());
                let file = Layer::File(path);
                let mut cursor = LayerCursor::open(&file)?;
                let mut chunk = Vec::with_capacity(CHUNK);
                while cursor.chunk(&mut chunk)? {
                    for &l in &chunk {
                        seen.offer(l)?;
                    }
                    owned += chunk.len() as u64;
                }
            }
            seen.settle(&mut |_| {})?;
            let pp = partial_path(d, at);
            let bytes = fs::read(&pp).map_err(|e| io_err("cannot read", &pp, e))?;
            part = A::from_bytes(fresh(), &bytes)?;
            // what a worker one layer ahead wrote after the common layer is found again
            for k in at + 1..=c.layer {
                let _ = fs::remove_file(layer_path(d, k));
                let _ = fs::remove_file(partial_path(d, k));
            }
            if c.layer != at {
                write_checkpoint(d, &base, at, &histogram, false)?;
            }
            remove_leftovers(d, false);
            layer = Layer::File(layer_path(d, at));
            resumed_at = Some(at);
        } else {
            histogram = vec![1];
            let mut first = Vec::new();
            if start_rank % peers == me {
                let l = start_rank / peers;
                seen.offer(l)?;
                seen.settle(&mut |_| {})?;
                part.visit(&start, 0);
                first.push(l);
                owned = 1;
            }
            layer = match &dir {
                Some(d) => {
                    let mut w = LayerWriter::create(layer_path(d, 0), width)?;
                    for &l in &first {
                        w.push(l).map_err(|e| io_err("cannot write", &w.path, e))?;
                    }
                    disk_bytes += w.finish()?;
                    write_atomic(&partial_path(d, 0), &part.to_bytes())?;
                    write_checkpoint(d, &base, 0, &histogram, false)?;
                    Layer::File(layer_path(d, 0))
                }
                None => Layer::Memory(first),
            };
        }
        Ok(())
    })();
    agree(ex, setup, Vec::new(), &mut |_| {})?;

    let mut expanded = 0u64;
    let mut generated = 0u64;
    let mut limit = None;
    let mut peak_bytes = 0usize;
    let mut batches: Vec<Vec<u64>> = (0..peers).map(|_| Vec::with_capacity(BATCH)).collect();
    let mut out: Vec<u64> = Vec::with_capacity(BATCH);
    while !done {
        let d = histogram.len() as u32; // the layer being found
                                        // round 1: expand this layer; every rank reaches its owner
        let failed: RefCell<Option<Error>> = RefCell::new(None);
        let mut next = match &dir {
            Some(dd) => match LayerWriter::create(layer_path(dd, d), width) {
                Ok(w) => Sink::File(w),
                Err(e) => {
                    *failed.borrow_mut() = Some(e);
                    Sink::Memory(Vec::new())
                }
            },
            None => Sink::Memory(Vec::new()),
        };
        let mut new_here = 0u64;
        let mut stopped: Option<LimitKind> = None;
        let status = {
            // a position found for the first time: counted, written, visited
            let mut keep = |l: u64| {
                new_here += 1;
                if let Err(e) = next.push(l) {
                    failed
                        .borrow_mut()
                        .get_or_insert(Error::invalid(format!("cannot write a layer file: {e}")));
                }
                if A::STATES {
                    match p.unrank(l * peers + me) {
                        Some(s) => part.visit(&s, d),
                        None => {
                            failed.borrow_mut().get_or_insert(Error::Internal(format!(
                                "no position has rank {}",
                                l * peers + me
                            )));
                        }
                    }
                }
            };
            let seen = &mut seen;
            let mut got = |ranks: &[u64]| {
                for &l in ranks {
                    match seen.offer(l) {
                        Ok(Some(true)) => keep(l),
                        Ok(_) => {}
                        Err(e) => {
                            failed.borrow_mut().get_or_insert(e);
                        }
                    }
                }
            };
            // In epochs of at most `epoch` positions per worker, each ended by a round: what is
            // on the way between workers stays within one epoch's successors, whatever the
            // layer's size (the memory of an out-of-core run stays small).
            let mut walked: Result<(), Error> = Ok(());
            let mut reader = match LayerCursor::open(&layer) {
                Ok(r) => Some(r),
                Err(e) => {
                    walked = Err(e);
                    None
                }
            };
            let mut buf: Vec<u64> = Vec::with_capacity(CHUNK);
            let mut exhausted = false;
            let all = loop {
                let mut this_epoch = 0;
                while let Some(r) = reader.as_mut().filter(|_| !exhausted) {
                    if this_epoch >= epoch || stopped.is_some() || walked.is_err() {
                        break;
                    }
                    if let Some(l) = o.limits.check(deadline) {
                        stopped = Some(l);
                        break;
                    }
                    match r.chunk(&mut buf) {
                        Ok(true) => {}
                        Ok(false) => {
                            exhausted = true;
                            break;
                        }
                        Err(e) => {
                            walked = Err(e);
                            break;
                        }
                    }
                    for &l in &buf {
                        let Some(s) = p.unrank(l * peers + me) else {
                            walked = Err(Error::Internal(format!(
                                "no position has rank {}",
                                l * peers + me
                            )));
                            break;
                        };
                        p.for_each_next(&s, |t| {
                            let r = p
                                .rank(&t)
                                .expect("a puzzle with a rank space ranks every state");
                            generated += 1;
                            // a power of two of workers (the usual case) divides by a shift
                            let (w, l) = if pow2 {
                                (r & (peers - 1), r >> shift)
                            } else {
                                (r % peers, r / peers)
                            };
                            if w == me {
                                out.push(l);
                            } else {
                                batches[w as usize].push(l);
                            }
                        });
                    }
                    expanded += buf.len() as u64;
                    this_epoch += buf.len();
                    got(&out);
                    out.clear();
                    ex.send(&mut batches, &mut got);
                }
                ex.send(&mut batches, &mut got);
                let more = reader.is_some() && !exhausted && stopped.is_none() && walked.is_ok();
                let figures = vec![
                    stopped.map_or(0, |l| 1 + limit_code(l)),
                    u64::from(d),
                    u64::from(more),
                    u64::from(walked.is_err() || failed.borrow().is_some()),
                ];
                let all = ex.end_round(figures, &mut got);
                // the layer is over when no worker has more, or when one stopped or failed
                if all.iter().all(|f| f[2] == 0) {
                    break all;
                }
                if all.iter().any(|f| f[0] != 0 || f[3] != 0) {
                    break all;
                }
            };
            // bits on disk judge the layer's ranks now that all are in
            if all.iter().all(|f| f[0] == 0 && f[3] == 0) {
                if let Err(e) = seen.settle(&mut keep) {
                    failed.borrow_mut().get_or_insert(e);
                }
            } else {
                seen.drop_pending();
            }
            (walked, all)
        };
        let (walked, all) = status;
        let mine = match (walked, failed.into_inner()) {
            (Err(e), _) | (Ok(()), Some(e)) => Err(e),
            _ => Ok(()),
        };
        // round 2: how many each found (all ranks are in), and whether all went well
        let figures = agree(ex, mine, vec![new_here], &mut |_| {})?;
        if all.iter().any(|f| f[1] != u64::from(d)) {
            return Err(Error::Internal(
                "the workers are not at the same layer".into(),
            ));
        }
        if let Some(f) = all.iter().find(|f| f[0] != 0) {
            // a limit stopped some worker: every worker stops with the layer before
            limit = Some(stopped.unwrap_or(limit_of(f[0] - 1)));
            // an unfinished layer file removes itself
            drop(next);
            break;
        }
        let total: u64 = figures.iter().map(|f| f[0]).sum();
        owned += new_here;
        let layer_bytes = match &next {
            Sink::Memory(v) => v.capacity() * 8,
            Sink::File(_) => 1 << 20,
        } + match &layer {
            Layer::Memory(v) => v.capacity() * 8,
            Layer::File(_) => 1 << 20,
        };
        peak_bytes =
            peak_bytes.max(seen.heap_bytes() + layer_bytes + (peers as usize + 1) * BATCH * 8);
        if total > 0 {
            histogram.push(total);
        } else {
            done = true;
        }
        // round 3: the checkpoint is written everywhere
        let saved: Result<Layer, Error> = match next {
            Sink::Memory(v) => Ok(Layer::Memory(v)),
            Sink::File(w) => {
                let dd = dir.as_ref().expect("a file sink has a folder");
                let path = w.path.clone();
                (|| {
                    if total > 0 {
                        disk_bytes += w.finish()?;
                        write_atomic(&partial_path(dd, d), &part.to_bytes())?;
                        write_checkpoint(dd, &base, d, &histogram, false)?;
                        // partial results older than the previous layer are not needed
                        if d >= 2 {
                            let _ = fs::remove_file(partial_path(dd, d - 2));
                        }
                    } else {
                        drop(w);
                        write_checkpoint(dd, &base, d - 1, &histogram, true)?;
                    }
                    Ok(Layer::File(path))
                })()
            }
        };
        layer = match saved {
            Ok(l) => {
                agree(ex, Ok(()), Vec::new(), &mut |_| {})?;
                l
            }
            Err(e) => {
                agree(ex, Err(e), Vec::new(), &mut |_| {})?;
                unreachable!("agree returns the error it is given")
            }
        };
        let states: u64 = histogram.iter().sum();
        if index == 0 {
            if let Some(report) = &o.limits.progress {
                report(&Progress {
                    stats: Stats {
                        states,
                        expanded,
                        generated,
                        depth: d,
                        elapsed: begin.elapsed(),
                    },
                });
            }
        }
        if !done && o.limits.max_states.is_some_and(|m| states >= m) {
            limit = Some(LimitKind::MaxStates);
            break;
        }
    }
    let merged = ex.gather(part.to_bytes());
    let partial = match merged {
        Some(parts) => {
            let mut all = fresh();
            for b in parts {
                all.merge(A::from_bytes(fresh(), &b)?);
            }
            Some(all)
        }
        None => None,
    };
    let states = histogram.iter().sum();
    Ok(DistEnumeration {
        enumeration: Enumeration {
            states,
            histogram,
            limit,
            stats: Stats {
                states,
                expanded,
                generated,
                depth: 0,
                elapsed: begin.elapsed(),
            },
            peak_bytes: peak_bytes.max(seen.heap_bytes()),
        },
        partial,
        resumed_at,
        disk_bytes,
        owned,
    })
}

fn read_checkpoint(dir: &Path, want: &Checkpoint) -> Result<Checkpoint, Error> {
    let path = dir.join("progress.json");
    let text = fs::read_to_string(&path)
        .map_err(|e| io_err("nothing to resume: cannot read the checkpoint", &path, e))?;
    let c: Checkpoint = serde_json::from_str(&text).map_err(|e| {
        Error::invalid(format!("{}: not a checkpoint of floe: {e}", path.display()))
    })?;
    if c.format != FORMAT {
        return Err(Error::invalid(format!(
            "{}: a checkpoint of another version of floe (format {})",
            path.display(),
            c.format
        )));
    }
    if c.identity != want.identity || c.rank_space != want.rank_space {
        return Err(Error::invalid(format!(
            "{}: the checkpoint is of another run ({}), not of {}",
            path.display(),
            c.identity,
            want.identity
        )));
    }
    if c.peers != want.peers || c.index != want.index {
        return Err(Error::invalid(format!(
            "{}: the checkpoint was made by worker {} of {}; resume with the same number of \
             processes and workers ({} in all)",
            path.display(),
            c.index,
            c.peers,
            c.peers
        )));
    }
    Ok(c)
}

fn write_checkpoint(
    dir: &Path,
    base: &Checkpoint,
    layer: u32,
    histogram: &[u64],
    done: bool,
) -> Result<(), Error> {
    let c = Checkpoint {
        layer,
        histogram: histogram.to_vec(),
        done,
        ..base.clone()
    };
    let text = serde_json::to_string_pretty(&c).expect("a checkpoint serialises");
    write_atomic(&dir.join("progress.json"), text.as_bytes())
}

/// A fresh run's folder: created, and refused when it holds a checkpoint already.
fn prepare_fresh(dir: &Path) -> Result<(), Error> {
    if dir.join("progress.json").exists() {
        return Err(Error::invalid(format!(
            "{} holds a checkpoint already: take it up with --resume, or give another \
             --work-dir",
            dir.display()
        )));
    }
    fs::create_dir_all(dir).map_err(|e| io_err("cannot create", dir, e))?;
    // leftovers of a run that never reached its first checkpoint
    remove_leftovers(dir, true);
    Ok(())
}

/// Removes the temporary files of a killed run (and, with `all`, its layer files too).
fn remove_leftovers(dir: &Path, all: bool) {
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let ours = name.starts_with("layer-")
                || name.starts_with("partial-")
                || name.starts_with("bucket-")
                || name == "seen.bin";
            let temporary = name.starts_with('.') && name.ends_with(".tmp");
            if temporary || (all && ours) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}

#[cfg(test)]
mod tests;
