//! Breadth-first enumeration shared by many workers (threads, processes, machines), out of
//! core and resumable.
//!
//! Every position is owned by one worker: the ranks (the game's perfect hash,
//! [`Puzzle::rank`]) are cut into blocks of consecutive ranks (up to 65,536) dealt to the
//! workers in turn, so that a worker's positions are neighbours as in the single process
//! ([`Owners`]); the owner keeps one bit per position it may own. A layer is one round: each worker expands the positions of its part
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
//! `worker-I/checkpoint.bin` then records the layer, the histogram so far, the worker's
//! positions per layer and the run's identity; its partial result ([`Partial`]) is in
//! `partial-D.bin`. Every file is a checked run file ([`crate::mem::Seal`]: run, worker,
//! layer, count, checksum) and the folder is locked while a run uses it
//! ([`crate::mem::Lock`]). `resume` takes up every worker at the last layer that all of them
//! finished (they are at most one layer apart) once every file was checked: the checkpoints
//! against the run and each other, each layer file against its checkpoint, the layer files of
//! all workers against the histogram, no position twice; the visited bits are rebuilt from
//! the layer files, and the run goes on exactly as if it had not stopped. A damaged or foreign
//! file is refused by name, never used. The run is over only when every worker's checkpoint
//! says so at the same layer.

use super::bfs::Enumeration;
use super::{LimitKind, Limits, Progress, Puzzle, Stats};
use crate::bits::BitArray;
use crate::mem::{Lock, RunIdentity};
use crate::Error;
use files::{
    io_err, layer_path, partial_path, prepare_fresh, remove_leftovers, way_on, Checkpoint, Files,
    Layer, LayerCursor, LayerReader, LayerWriter, Sink, LAYER,
};
use seen::Seen;
use std::cell::RefCell;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod files;
mod route;
mod seen;
use files::CHUNK;
pub use files::{window_ranks, worker_dir, FORMAT};
pub use route::ROOM_FOR_ALL;
use route::{route, route_two, Owners};
pub use seen::BUCKET_BYTES;

/// Ranks sent to one owner at a time.
pub const BATCH: usize = 1 << 12;
/// Positions a worker expands between two rounds (see "epochs" in `enumerate_dist`).
const EPOCH: usize = if cfg!(test) { 1 << 10 } else { 1 << 16 };

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
    /// What is enumerated (the command, the game, the level, its parameters, the layout),
    /// written in the checkpoints and every file's header and compared on `resume`: a run is
    /// never resumed on another level or layout, and the refusal names the difference.
    pub identity: RunIdentity,
    /// The most bytes a worker's visited bits may take in memory: larger bits are kept in
    /// `work_dir`, in segments of this size (`None`: always in memory).
    pub bits_budget: Option<u64>,
    /// Ranks of a layer file read ahead and sorted before they are expanded (`None`:
    /// [`window_ranks`]`(false)`, 16 MiB; at least a chunk): the wider, the nearer one
    /// another the positions expanded one after the other, and the cheaper.
    pub window: Option<usize>,
    /// Positions a worker expands between two rounds (`None`: 65,536): what is on its way
    /// between workers is at most this many positions' successors.
    pub epoch: Option<usize>,
    /// With `work_dir`: each layer found is kept in memory too, a bit a rank of the
    /// worker's, and expanded from there in increasing rank, where it would be read back
    /// from its file window by window and each window sorted. The files and checkpoints
    /// are written all the same (a resume reads them); the memory holds two more bit
    /// arrays of the worker's ranks. Off by default.
    pub layers_in_memory: bool,
}

/// What a shared enumeration found.
#[derive(Clone, Debug)]
pub struct DistEnumeration<A> {
    /// The counts, the same at every worker (`stats.expanded` and `generated` too: every
    /// worker's, summed at the end of each layer; `peak_bytes`: this worker's bits and
    /// buffers).
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

/// What a worker says of its round: all went well, or it failed (then its message follows).
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

/// A failed worker's figures: its error, kind and message, eight bytes to a number.
fn encode(e: &Error) -> Vec<u64> {
    let (kind, text) = match e {
        Error::Internal(m) => (1, m.clone()),
        other => (0, other.to_string()),
    };
    let bytes = text.into_bytes();
    let mut f = vec![FAILED, kind, bytes.len() as u64];
    f.extend(bytes.chunks(8).map(|c| {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(w)
    }));
    f
}

/// The error of worker `w` of `peers` from its figures, named after it.
fn decode(w: usize, peers: usize, f: &[u64]) -> Error {
    let len = f.get(2).copied().unwrap_or(0) as usize;
    let bytes: Vec<u8> = f
        .iter()
        .skip(3)
        .flat_map(|x| x.to_le_bytes())
        .take(len)
        .collect();
    let text = String::from_utf8_lossy(&bytes);
    let text = if text.is_empty() {
        "it failed without a message".into()
    } else {
        text
    };
    let who = format!("worker {w} of {peers}");
    match f.get(1) {
        Some(1) => Error::Internal(format!("{who}: {text}")),
        _ => Error::Invalid(format!("{who}: {text}")),
    }
}

/// Ends a round in which a worker may have failed: every worker fails together, each with
/// the first failed worker's own message (its own, for that worker), so that none waits for
/// a round that never comes and the user reads what went wrong.
fn agree(
    ex: &mut dyn Exchange,
    mine: Result<(), Error>,
    figures: Vec<u64>,
    got: &mut dyn FnMut(&[u64]),
) -> Result<Vec<Vec<u64>>, Error> {
    let f = match &mine {
        Ok(()) => {
            let mut f = vec![OK];
            f.extend(figures);
            f
        }
        Err(e) => encode(e),
    };
    let all = ex.end_round(f, got);
    mine?;
    if let Some(w) = all.iter().position(|f| f.first() != Some(&OK)) {
        return Err(decode(w, all.len(), &all[w]));
    }
    Ok(all.into_iter().map(|mut f| f.split_off(1)).collect())
}

/// Ends a round in which every worker says whether its own work went well: all go on with
/// their values, or all return an error (the failed worker its own, the others its message).
/// For work shared by other means than [`enumerate_dist`] (the PushPush census's layers).
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

/// The digest a worker's files carry: the run's identity, the number of workers, the size of
/// the rank space and the size of the blocks of ranks dealt to the workers (the owner of a
/// position depends on all three, see [`Owners`]). Runs dealt one rank at a time (`block`
/// 0, as every run was before blocks) keep the digest they had.
fn files_digest(o: &DistOptions, peers: u64, space: u64, block: u32) -> u64 {
    let mut b = o.identity.to_bytes();
    b.extend(peers.to_le_bytes());
    b.extend(space.to_le_bytes());
    if block != 0 {
        b.extend(b"block");
        b.extend(block.to_le_bytes());
    }
    xxhash_rust::xxh3::xxh3_64(&b)
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
    let window = o.window.unwrap_or(files::WINDOW).max(CHUNK);
    let index = ex.index();
    let me = index as u64;
    let space = p.rank_space().ok_or_else(|| match p.state_bound() {
        Some(b) if b >= u64::MAX as f64 => Error::invalid(format!(
            "up to {} possible positions, more than the 2^64 ranks by which an enumeration \
             shared by several workers or kept on disk numbers them",
            super::count_words(b)
        )),
        _ => Error::invalid(
            "no perfect hash numbers its positions, which an enumeration shared by several \
             workers or kept on disk needs",
        ),
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
    let owners = Owners::new(space, peers);
    let local_space = owners.local_space(space);
    let pow2 = peers.is_power_of_two();
    let shift = peers.trailing_zeros();
    let width: u8 = if local_space < 1 << 40 { 5 } else { 8 };
    let files = Files {
        run: files_digest(o, peers, space, owners.block()),
        worker: index as u32,
        width,
    };
    let mut seen = Seen::Memory(BitArray::new(0));
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
        counts: Vec::new(),
        done: false,
    };

    // round 1: every worker locks its folder and reads its checkpoint (or starts afresh)
    let mut lock = None;
    let mine: Result<Option<Checkpoint>, Error> = match &dir {
        // nothing to take up is said before anything is created (the lock would make the
        // folder, and the next try would find an empty run there)
        Some(d) if o.resume && !d.is_dir() => Err(Error::invalid(format!(
            "nothing to resume: {} does not exist (was the run started with this --work-dir \
             and as many workers?)",
            d.display()
        ))),
        Some(d) => Lock::acquire(d, &o.identity.describe()).and_then(|l| {
            let read_only = l.read_only.then(|| l.read_only_refusal("the run"));
            lock = Some(l);
            match read_only {
                // a folder that may only be read answers a finished run, nothing else
                Some(_) if !o.resume => Err(Error::invalid(format!(
                    "{} may only be read here: a run cannot start there; give a --work-dir \
                     this user may write (--resume answers a finished run from a folder that \
                     may only be read)",
                    d.display()
                ))),
                Some(refusal) => match Checkpoint::read(d, &base, &files)? {
                    c if c.done => Ok(Some(c)),
                    _ => Err(refusal),
                },
                None if o.resume => Checkpoint::read(d, &base, &files).map(Some),
                None => prepare_fresh(d).map(|()| None),
            }
        }),
        None => Ok(None),
    };
    let (mine, status) = match mine {
        Ok(c) => (c, Ok(())),
        Err(e) => (None, Err(e)),
    };
    let mut said = vec![
        mine.as_ref().map_or(u64::MAX, |c| u64::from(c.layer)),
        u64::from(mine.as_ref().is_some_and(|c| c.done)),
    ];
    said.extend(mine.iter().flat_map(|c| c.histogram.iter().copied()));
    let all = agree(ex, status, said, &mut |_| {})?;
    let common = all.iter().map(|f| f[0]).min().unwrap_or(u64::MAX);
    let highest = all.iter().map(|f| f[0]).max().unwrap_or(u64::MAX);
    // `MAX` is "no checkpoint": every worker has one, or none has
    if highest != common && (highest == u64::MAX || highest > common + 1) {
        return Err(Error::invalid(format!(
            "the workers' checkpoints do not belong together (some have none, or they are \
             more than one layer apart: layers {common} to {highest}){}: nothing can be resumed",
            o.work_dir
                .as_ref()
                .map_or(String::new(), |w| format!(" in {}", w.display()))
        )));
    }
    // the checkpoints agree on every layer they share, and the run is over only when every
    // worker recorded its end at the same layer
    let agreed: Vec<u64> = if common == u64::MAX {
        Vec::new()
    } else {
        let prefix = |f: &Vec<u64>| f[2..2 + common as usize + 1].to_vec();
        let first = prefix(&all[0]);
        if let Some(w) = (1..all.len()).find(|&w| prefix(&all[w]) != first) {
            let k = (0..first.len())
                .find(|&k| prefix(&all[w])[k] != first[k])
                .unwrap_or(0);
            return Err(Error::invalid(format!(
                "the workers' checkpoints disagree on layer {k}: {} positions at worker 0, \
                 {} at worker {w}; a checkpoint was damaged or replaced, and nothing is \
                 resumed{}",
                first[k],
                prefix(&all[w])[k],
                o.work_dir
                    .as_ref()
                    .map_or(String::new(), |w| format!(" ({})", w.display()))
            )));
        }
        first
    };
    let done_everywhere = common != u64::MAX && all.iter().all(|f| f[0] == common && f[1] == 1);

    let mut histogram: Vec<u64> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let mut layer = Layer::Bits(BitArray::new(0));
    // in memory, the bits of the layer before the one expanded, to hold the next
    let mut spare: Option<BitArray> = None;
    let mut resumed_at = None;
    let mut done = false;
    let mut disk_bytes = 0u64;
    let mut owned = 0u64;
    // round 2: the visited bits, rebuilt from the layer files when resumed, each file checked
    let setup: Result<(), Error> = (|| {
        seen = Seen::new(local_space, o.bits_budget, dir.as_deref(), files)?;
        if seen.on_disk() {
            disk_bytes += local_space.div_ceil(64) * 8;
        }
        if let (Some(d), Some(c)) = (&dir, &mine) {
            let at = common as u32;
            histogram = agreed.clone();
            done = done_everywhere;
            let mut chunk = Vec::with_capacity(CHUNK);
            for k in 0..=at {
                let path = layer_path(d, k);
                let mut r = LayerReader::open(&path, files.seal(LAYER, k), local_space)?;
                if r.count() != c.counts[k as usize] {
                    return Err(Error::invalid(format!(
                        "{}: {} positions, but the checkpoint recorded {} for this worker's \
                         layer {k}; the file is not used",
                        path.display(),
                        r.count(),
                        c.counts[k as usize]
                    )));
                }
                disk_bytes += fs::metadata(&path).map_or(0, |m| m.len());
                while r.chunk(CHUNK, &mut chunk)? {
                    let mut repeated = false;
                    for &l in &chunk {
                        if seen.offer(l)? == Some(false) {
                            repeated = true;
                            break;
                        }
                    }
                    if repeated {
                        // a flipped byte often shows first as a position seen before: the
                        // rest of the file read to its checksum says whether it is damaged
                        while r.chunk(CHUNK, &mut chunk)? {}
                        return Err(twice(&path));
                    }
                }
                counts.push(r.count());
                owned += r.count();
            }
            let mut new = 0u64;
            seen.settle(&mut |_| new += 1)?;
            if seen.on_disk() && new != owned {
                return Err(twice(d));
            }
            let bytes = files.read_partial(d, at)?;
            part = A::from_bytes(fresh(), &bytes)
                .map_err(|e| Error::invalid(format!("{}: {e}", partial_path(d, at).display())))?;
            // what a worker one layer ahead wrote after the common layer is found again
            for k in at + 1..=c.layer {
                let _ = fs::remove_file(layer_path(d, k));
                let _ = fs::remove_file(partial_path(d, k));
            }
            if c.layer != at {
                checkpoint(&base, at, &histogram, &counts, false).write(d, &files)?;
            }
            remove_leftovers(d, false);
            layer = Layer::File(layer_path(d, at), files.seal(LAYER, at));
            resumed_at = Some(at);
        } else {
            histogram = vec![1];
            let mut first = Vec::new();
            let (owner, l) = owners.split(start_rank);
            if owner as u64 == me {
                seen.offer(l)?;
                seen.settle(&mut |_| {})?;
                part.visit(&start, 0);
                first.push(l);
                owned = 1;
            }
            counts = vec![owned];
            layer = match &dir {
                Some(d) => {
                    let mut w = LayerWriter::create(layer_path(d, 0), files.seal(LAYER, 0))?;
                    for &l in &first {
                        w.push(l).map_err(|e| io_err("cannot write", &w.path, e))?;
                    }
                    disk_bytes += w.finish()?;
                    files.write_partial(d, 0, &part.to_bytes())?;
                    checkpoint(&base, 0, &histogram, &counts, false).write(d, &files)?;
                    Layer::File(layer_path(d, 0), files.seal(LAYER, 0))
                }
                None => {
                    let mut b = BitArray::new(local_space);
                    first.iter().for_each(|&l| {
                        b.insert(l);
                    });
                    Layer::Bits(b)
                }
            };
        }
        Ok(())
    })();
    let sent = if setup.is_ok() && resumed_at.is_some() {
        counts.clone()
    } else {
        Vec::new()
    };
    let all = agree(ex, setup, sent, &mut |_| {})?;
    // the layer files of every worker hold what the checkpoints' histogram says
    if resumed_at.is_some() {
        for (k, &h) in histogram.iter().enumerate() {
            let found: u64 = all.iter().map(|f| f.get(k).copied().unwrap_or(0)).sum();
            if found != h {
                return Err(Error::invalid(format!(
                    "layer {k}: the workers' layer files hold {found} positions, their \
                     checkpoints {h}; a layer file was replaced or lost, and nothing is resumed{}",
                    o.work_dir
                        .as_ref()
                        .map_or(String::new(), |w| format!(" ({})", w.display()))
                )));
            }
        }
    }

    // this worker's, and every worker's up to the last layer all agreed on
    let mut expanded = 0u64;
    let mut generated = 0u64;
    let (mut expanded_all, mut generated_all) = (0u64, 0u64);
    let mut limit = None;
    let mut peak_bytes = 0usize;
    let mut batches: Vec<Vec<u64>> = (0..peers).map(|_| Vec::with_capacity(BATCH)).collect();
    let mut listed: Vec<u64> = Vec::with_capacity(BATCH);
    while !done {
        let d = histogram.len() as u32; // the layer being found
                                        // round 1: expand this layer; every rank reaches its owner
        let failed: RefCell<Option<Error>> = RefCell::new(None);
        let mut next = match &dir {
            Some(dd) => match LayerWriter::create(layer_path(dd, d), files.seal(LAYER, d)) {
                Ok(w) if o.layers_in_memory => Sink::Both(w, fresh_bits(&mut spare, local_space)),
                Ok(w) => Sink::File(w),
                Err(e) => {
                    *failed.borrow_mut() = Some(way_on(e, d));
                    Sink::Nowhere
                }
            },
            None => Sink::Bits(fresh_bits(&mut spare, local_space)),
        };
        let mut new_here = 0u64;
        let mut stopped: Option<LimitKind> = None;
        let status = {
            // a position found for the first time: counted, written, visited
            let mut keep = |l: u64| {
                new_here += 1;
                if let Err(e) = next.push(l) {
                    failed.borrow_mut().get_or_insert_with(|| {
                        let path = dir.as_ref().map_or_else(
                            || format!("layer {d}"),
                            |dd| layer_path(dd, d).display().to_string(),
                        );
                        way_on(Error::Io { path, source: e }, d)
                    });
                }
                if A::STATES {
                    match p.unrank(owners.global(me, l)) {
                        Some(s) => part.visit(&s, d),
                        None => {
                            failed.borrow_mut().get_or_insert(Error::Internal(format!(
                                "no position has rank {}",
                                owners.global(me, l)
                            )));
                        }
                    }
                }
            };
            let seen = &mut seen;
            let mut fresh = Vec::new();
            let mut got = |ranks: &[u64]| match seen.offer_all(ranks, &mut fresh) {
                Ok(()) => fresh.iter().for_each(|&l| keep(l)),
                Err(e) => {
                    failed.borrow_mut().get_or_insert(e);
                }
            };
            // In epochs of at most `epoch` positions per worker, each ended by a round: what is
            // on the way between workers stays within one epoch's successors, whatever the
            // layer's size (the memory of an out-of-core run stays small).
            let mut walked: Result<(), Error> = Ok(());
            let mut reader = match LayerCursor::open_with(&layer, local_space, window) {
                Ok(r) => Some(r),
                Err(e) => {
                    walked = Err(e);
                    None
                }
            };
            let mut buf: Vec<u64> = Vec::with_capacity(CHUNK);
            let mut ranks: Vec<u64> = Vec::with_capacity(CHUNK);
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
                    // the chunk's positions in increasing rank: each is rebuilt from the one
                    // before and its successors' ranks from its own (the single process's way)
                    ranks.clear();
                    ranks.extend(buf.iter().map(|&l| owners.global(me, l)));
                    ranks.sort_unstable();
                    // a number read from a file: its rank checked without wrapping around
                    let no_rank =
                        |&l: &u64| owners.global_checked(me, l).is_none_or(|r| r >= space);
                    if let Some(&bad) = buf.iter().find(|l| no_rank(l)) {
                        walked = Err(Error::invalid(format!(
                            "no position has number {bad} of worker {index} (its layer {}): \
                             its layer file is damaged",
                            d - 1
                        )));
                        break;
                    }
                    if peers == 1 {
                        // every successor is this worker's own
                        p.next_ranks_of_ranks(&ranks, &mut batches[0]);
                        generated += batches[0].len() as u64;
                    } else {
                        // Two passes, as in the single process: the successors listed in a
                        // tight loop, then each handed to its owner's batch by the owner's
                        // index (no branch on the owner, which the processor could not
                        // predict; routing inside the listing was slower still).
                        listed.clear();
                        p.next_ranks_of_ranks(&ranks, &mut listed);
                        generated += listed.len() as u64;
                        if peers == 2 {
                            route_two(&listed, &mut batches, owners);
                        } else if pow2 {
                            // a power of two of workers (the usual case) divides by a shift
                            route(&listed, &mut batches, move |r| owners.split_pow2(r, shift));
                        } else {
                            route(&listed, &mut batches, move |r| owners.split(r));
                        }
                    }
                    expanded += buf.len() as u64;
                    this_epoch += buf.len();
                    // this worker's own first, while the others' are on their way
                    let mine = &mut batches[me as usize];
                    got(mine);
                    mine.clear();
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
            // the window of the layer read is not needed while the bits are settled
            drop(reader);
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
        let figures = agree(ex, mine, vec![new_here, expanded, generated], &mut |_| {})?;
        expanded_all = figures.iter().map(|f| f[1]).sum();
        generated_all = figures.iter().map(|f| f[2]).sum();
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
        // a layer in memory is a bit a rank, the next as much; a file's window is sorted
        // beside a scratch list as long
        let layer_bytes = match &next {
            Sink::Bits(b) => b.heap_bytes(),
            Sink::File(_) => 1 << 20,
            Sink::Both(_, b) => (1 << 20) + b.heap_bytes(),
            Sink::Nowhere => 0,
        } + match &layer {
            Layer::File(..) => (1 << 20) + 2 * window * 8,
            Layer::Bits(b) => b.heap_bytes(),
        };
        // the successors of a chunk, listed and routed: one list and a batch per worker
        let chunk_bytes =
            (listed.capacity() + batches.iter().map(Vec::capacity).sum::<usize>()).max(BATCH) * 8;
        peak_bytes = peak_bytes.max(seen.heap_bytes() + layer_bytes + chunk_bytes);
        if total > 0 {
            histogram.push(total);
            counts.push(new_here);
        } else {
            done = true;
        }
        // round 3: the checkpoint is written everywhere
        let (file, bits) = match next {
            Sink::Bits(b) => (None, Some(b)),
            Sink::File(w) => (Some(w), None),
            Sink::Both(w, b) => (Some(w), Some(b)),
            Sink::Nowhere => (None, None),
        };
        let written: Result<(), Error> = match (file, &bits) {
            // the failure to make the layer's file stopped every worker in round 2
            (None, None) => Err(Error::Internal("a layer with nowhere to go".into())),
            (None, Some(_)) => Ok(()),
            (Some(w), _) => {
                let dd = dir.as_ref().expect("a file sink has a folder");
                (|| {
                    if total > 0 {
                        if w.count() != new_here {
                            return Err(Error::Internal(format!(
                                "layer {d} of worker {index}: {new_here} positions found, {} \
                                 written",
                                w.count()
                            )));
                        }
                        disk_bytes += w.finish()?;
                        files.write_partial(dd, d, &part.to_bytes())?;
                        checkpoint(&base, d, &histogram, &counts, false).write(dd, &files)?;
                        // partial results older than the previous layer are not needed
                        if d >= 2 {
                            let _ = fs::remove_file(partial_path(dd, d - 2));
                        }
                    } else {
                        drop(w);
                        checkpoint(&base, d - 1, &histogram, &counts, true).write(dd, &files)?;
                    }
                    Ok(())
                })()
            }
        };
        let saved = written.map_err(|e| way_on(e, d)).map(|()| match bits {
            Some(b) => {
                // the layer before is expanded: its bits will hold the layer after this one
                let old = std::mem::replace(&mut layer, Layer::Bits(BitArray::new(0)));
                if let Layer::Bits(old) = old {
                    spare = Some(old);
                }
                Layer::Bits(b)
            }
            None => Layer::File(
                layer_path(dir.as_ref().expect("a file sink has a folder"), d),
                files.seal(LAYER, d),
            ),
        });
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
                        expanded: expanded_all,
                        generated: generated_all,
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
    drop(lock);
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
                expanded: expanded_all,
                generated: generated_all,
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

/// Bits for the next layer: those of the layer before the one expanded, cleared, or new.
fn fresh_bits(spare: &mut Option<BitArray>, len: u64) -> BitArray {
    match spare.take() {
        Some(mut b) => {
            b.clear();
            b
        }
        None => BitArray::new(len),
    }
}

/// A worker's checkpoint after `layer`.
fn checkpoint(
    base: &Checkpoint,
    layer: u32,
    histogram: &[u64],
    counts: &[u64],
    done: bool,
) -> Checkpoint {
    Checkpoint {
        layer,
        histogram: histogram[..=layer as usize].to_vec(),
        counts: counts[..=layer as usize].to_vec(),
        done,
        ..base.clone()
    }
}

/// A position found twice in a worker's layer files (in `at`, or somewhere in a folder).
fn twice(at: &Path) -> Error {
    Error::invalid(format!(
        "{}: a position is there twice in the worker's layers (a layer file was copied over \
         another, or damaged); nothing is resumed",
        at.display()
    ))
}

#[cfg(test)]
mod tests;
