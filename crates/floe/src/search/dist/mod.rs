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
use super::{LimitKind, Limits, Puzzle, Stats};
use crate::bits::BitArray;
use crate::mem::RunIdentity;
use crate::Error;
use files::Checkpoint;
use open::{Run, Worker};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod files;
mod layer;
mod open;
mod route;
mod seen;
pub use files::{window_ranks, worker_dir, FORMAT};
pub use route::ROOM_FOR_ALL;
pub use seen::BUCKET_BYTES;

/// Ranks sent to one owner at a time.
pub const BATCH: usize = 1 << 12;
/// Positions a worker expands between two rounds (see `Worker::epochs`).
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
    let at = Worker::new(p, &*ex, o, begin)?;
    let part = fresh();
    // round 1: every worker locks its folder and reads its checkpoint (or starts afresh)
    let taken = at.take_up(ex)?;
    // round 2: the visited bits, rebuilt from the layer files when resumed, each file checked
    let mut run = at.set_up(ex, taken, part, &fresh)?;
    // each layer in three rounds, to the end or a limit
    while !run.done {
        if !at.layer(ex, &mut run)? {
            break;
        }
    }
    at.report(ex, run, &fresh)
}

impl<P: Puzzle> Worker<'_, P> {
    /// The end of a shared enumeration: the partial results merged at worker 0 (the folder's
    /// lock released first), and the figures.
    fn report<A: Partial<P::State>>(
        &self,
        ex: &mut dyn Exchange,
        run: Run<A>,
        fresh: &impl Fn() -> A,
    ) -> Result<DistEnumeration<A>, Error> {
        let Run {
            mut lock,
            part,
            seen,
            histogram,
            resumed_at,
            disk_bytes,
            owned,
            expanded_all,
            generated_all,
            limit,
            peak_bytes,
            ..
        } = run;
        let merged = ex.gather(part.to_bytes());
        drop(lock.take());
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
                    elapsed: self.begin.elapsed(),
                },
                peak_bytes: peak_bytes.max(seen.heap_bytes()),
            },
            partial,
            resumed_at,
            disk_bytes,
            owned,
        })
    }
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

// what the unit tests take from here (`use super::*`), since the steps of `enumerate_dist`
// moved to open.rs and layer.rs
#[cfg(test)]
use {
    super::Progress,
    files::{layer_path, partial_path, Files, Layer, LayerCursor, LayerReader, LayerWriter},
    files::{CHUNK, LAYER},
    route::{route, route_two, Owners},
    std::fs,
};

#[cfg(test)]
mod tests;
