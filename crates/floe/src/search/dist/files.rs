//! A worker's files in the work directory, each a checked run file ([`crate::mem::Seal`]):
//! its layers (`layer-D.bin`, the local ranks it found at depth D), its partial results
//! (`partial-D.bin`), its checkpoint (`checkpoint.bin`), the buckets of its visited bits on
//! disk (`bucket-S.bin`), and its lock (`lock`).

use crate::bits::BitArray;
use crate::mem::{read_sealed, write_sealed, RunIdentity, Seal, SealedReader, SealedWriter};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

/// Positions expanded between two looks at the limits and the incoming ranks.
pub(super) const CHUNK: usize = 1 << 12;

/// The version of a worker's files (in the run identity and the checkpoint). 3: ranks dealt
/// to the workers in blocks (`Owners`), so a folder of format 2 numbers its positions
/// otherwise and is refused as such, not as another run's.
pub const FORMAT: u32 = 3;

pub(super) const LAYER: [u8; 4] = *b"LAYR";
pub(super) const BUCKET: [u8; 4] = *b"BUCK";
const PARTIAL: [u8; 4] = *b"PART";
const CHECKPOINT: [u8; 4] = *b"CKPT";

/// A worker's folder in the work directory.
pub fn worker_dir(work_dir: &Path, index: usize) -> PathBuf {
    work_dir.join(format!("worker-{index}"))
}

pub(super) fn io_err(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        path: format!("{what} {}", path.display()),
        source: e,
    }
}

pub(super) fn layer_path(dir: &Path, d: u32) -> PathBuf {
    dir.join(format!("layer-{d:05}.bin"))
}

pub(super) fn partial_path(dir: &Path, d: u32) -> PathBuf {
    dir.join(format!("partial-{d:05}.bin"))
}

pub(super) fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.bin")
}

/// The checkpoint file of floe before checksums (format 1).
const OLD_CHECKPOINT: &str = "progress.json";

/// What a worker's files are: the run, the worker, the kind of file and its layer.
#[derive(Clone, Copy, Debug)]
pub(super) struct Files {
    pub(super) run: u64,
    pub(super) worker: u32,
    pub(super) width: u8,
}

impl Files {
    pub fn seal(&self, kind: [u8; 4], layer: u32) -> Seal {
        Seal {
            kind,
            run: self.run,
            worker: self.worker,
            layer,
            width: self.width,
        }
    }

    pub fn write_partial(&self, dir: &Path, d: u32, bytes: &[u8]) -> Result<(), Error> {
        write_sealed(&partial_path(dir, d), self.seal(PARTIAL, d), bytes)
    }

    pub fn read_partial(&self, dir: &Path, d: u32) -> Result<Vec<u8>, Error> {
        read_sealed(&partial_path(dir, d), self.seal(PARTIAL, d))
    }
}

/// Ranks in a file, written while they are found and renamed into place only when complete
/// (a layer, or a bucket of the visited bits on disk).
pub(super) struct LayerWriter {
    out: SealedWriter,
    pub(super) path: PathBuf,
    width: usize,
}

impl LayerWriter {
    pub fn create(path: PathBuf, seal: Seal) -> Result<LayerWriter, Error> {
        Ok(LayerWriter {
            out: SealedWriter::begin(&path, seal)?,
            width: usize::from(seal.width),
            path,
        })
    }
    #[inline]
    pub fn push(&mut self, local: u64) -> std::io::Result<()> {
        let b = local.to_le_bytes();
        // the usual widths as constants: a copy of a length known to the compiler is a
        // move or two, of a length it does not know a call
        match self.width {
            5 => self.out.record(&b[..5]),
            8 => self.out.record(&b),
            w => self.out.record(&b[..w]),
        }
    }
    /// Ranks written.
    pub fn count(&self) -> u64 {
        self.out.count()
    }
    /// Syncs and renames the file into place; its size.
    pub fn finish(self) -> Result<u64, Error> {
        self.out.finish()
    }
}

/// Reads a file of ranks in chunks, each rank checked below `bound` (the ranks the worker
/// may own), the checksum at the end.
pub(super) struct LayerReader {
    input: SealedReader,
    width: usize,
    bound: u64,
    buf: Vec<u8>,
}

impl LayerReader {
    pub fn open(path: &Path, seal: Seal, bound: u64) -> Result<LayerReader, Error> {
        Ok(LayerReader {
            input: SealedReader::open(path, seal)?,
            width: usize::from(seal.width),
            bound,
            buf: Vec::new(),
        })
    }
    /// Ranks in the file.
    pub fn count(&self) -> u64 {
        self.input.count()
    }
    /// Up to `n` more ranks into `out` (cleared first); false at the end, once the file's
    /// checksum was found right.
    pub fn chunk(&mut self, n: usize, out: &mut Vec<u64>) -> Result<bool, Error> {
        out.clear();
        self.buf.resize(n * self.width, 0);
        let got = self.input.read(&mut self.buf)?;
        let bytes = &self.buf[..got];
        // the usual widths as constants (see `LayerWriter::push`), the bound checked once
        // for the whole chunk
        match self.width {
            5 => decode::<5>(bytes, out),
            8 => decode::<8>(bytes, out),
            w => out.extend(bytes.chunks_exact(w).map(|c| {
                let mut b = [0u8; 8];
                b[..w].copy_from_slice(c);
                u64::from_le_bytes(b)
            })),
        }
        if let Some(&l) = out.iter().find(|&&l| l >= self.bound) {
            return Err(Error::invalid(format!(
                "{}: a position beyond the worker's ranks ({l}, at most {}); the file is \
                 damaged and is not used",
                self.input.path().display(),
                self.bound - 1
            )));
        }
        Ok(got > 0)
    }
}

/// Appends the little-endian numbers of `W` bytes each in `bytes` to `out`.
#[inline]
fn decode<const W: usize>(bytes: &[u8], out: &mut Vec<u64>) {
    out.extend(bytes.chunks_exact(W).map(|c| {
        let mut b = [0u8; 8];
        b[..W].copy_from_slice(c);
        u64::from_le_bytes(b)
    }));
}

/// A layer of this worker: in memory, a bit for each of its ranks (read in increasing
/// rank, as the single process reads its layers), or in a file.
pub(super) enum Layer {
    Bits(BitArray),
    File(PathBuf, Seal),
}

/// Where the next layer goes while it is found.
pub(super) enum Sink {
    Bits(BitArray),
    File(LayerWriter),
    /// In its file for a resume, and in bits to be expanded from
    /// ([`DistOptions::layers_in_memory`](super::DistOptions::layers_in_memory)).
    Both(LayerWriter, BitArray),
    /// Nowhere: the layer file could not be made, and the run stops at the end of the layer.
    Nowhere,
}

impl Sink {
    /// Keeps `local`, a rank found for the first time (each is pushed once).
    #[inline]
    pub fn push(&mut self, local: u64) -> std::io::Result<()> {
        match self {
            Sink::Bits(b) => {
                b.insert(local);
                Ok(())
            }
            Sink::File(w) => w.push(local),
            Sink::Both(w, b) => {
                b.insert(local);
                w.push(local)
            }
            Sink::Nowhere => Ok(()),
        }
    }
}

/// Reads a layer chunk by chunk.
// one cursor a layer: the file's buffers are not worth a box
#[allow(clippy::large_enum_variant)]
pub(super) enum LayerCursor<'a> {
    /// The layer's bits and the next word to read.
    Bits(&'a BitArray, usize),
    /// The file, and a window of its ranks read ahead in increasing order.
    File(LayerReader, Window),
}

/// Ranks of a layer file read ahead and sorted: a file holds its ranks in the order they
/// were found, and the chunks handed out from a sorted window hold neighbouring positions,
/// whose successors list faster.
pub(super) struct Window {
    ranks: Vec<u64>,
    at: usize,
    read: Vec<u64>,
    ended: bool,
    /// Ranks read ahead at most.
    size: usize,
}

/// Sorts `v` in increasing order by its digits of 11 bits, lowest first (a least significant
/// digit radix sort: a pass a digit that the largest rank has, each a count and a scatter;
/// 8×8 with 6 blocks sorts its layers in 3 passes), with `scratch` as long as `v` beside it.
/// About four times as fast as a comparison sort on the layers of an enumeration; short
/// lists are sorted by comparison.
pub(super) fn sort_ranks(v: &mut [u64], scratch: &mut Vec<u64>) {
    const BITS: u32 = 11;
    const DIGITS: usize = 1 << BITS;
    if v.len() < 1 << 10 {
        v.sort_unstable();
        return;
    }
    let top = v.iter().fold(0, |m, &r| m | r);
    let passes = (64 - top.leading_zeros()).div_ceil(BITS) as usize;
    // every digit's counts in one read
    let mut counts = vec![[0usize; DIGITS]; passes];
    for &r in v.iter() {
        for (p, c) in counts.iter_mut().enumerate() {
            c[(r >> (p as u32 * BITS)) as usize & (DIGITS - 1)] += 1;
        }
    }
    scratch.clear();
    scratch.resize(v.len(), 0);
    let mut in_v = true;
    for (p, c) in counts.iter().enumerate() {
        // a digit that all ranks share moves nothing
        if c.contains(&v.len()) {
            continue;
        }
        let mut at = [0usize; DIGITS];
        let mut sum = 0;
        for (a, &k) in at.iter_mut().zip(c.iter()) {
            *a = sum;
            sum += k;
        }
        let shift = p as u32 * BITS;
        let (from, to): (&[u64], &mut [u64]) = if in_v { (v, scratch) } else { (scratch, v) };
        for &r in from {
            let d = (r >> shift) as usize & (DIGITS - 1);
            to[at[d]] = r;
            at[d] += 1;
        }
        in_v = !in_v;
    }
    if !in_v {
        v.copy_from_slice(scratch);
    }
}

/// Ranks of a layer file read ahead at most (16 MiB, and 16 MiB of scratch to sort them; in
/// tests fewer, so that their layers span windows). At least [`CHUNK`]. The wider the window,
/// the nearer one another its positions and the cheaper their successors: 8×8 with 7 blocks
/// on two workers took 146.6 CPU s with windows of 2 MiB and 123.7 s with 16 MiB (8×8 with 6
/// blocks: 12.4 s with 1 MiB against 11.0 s with 2 MiB).
pub(super) const WINDOW: usize = if cfg!(test) { 5_000 } else { 1 << 21 };
/// The window where memory is short (a `--max-memory` that the wider window would pass):
/// the 2 MiB it was before.
pub(super) const TIGHT_WINDOW: usize = if cfg!(test) { 5_000 } else { 1 << 18 };
const _: () = assert!(TIGHT_WINDOW >= CHUNK && WINDOW >= TIGHT_WINDOW);

/// The ranks of a layer file a worker reads ahead and sorts (and as many of scratch beside
/// them): 2,097,152 (16 MiB), or where memory is `narrow` 262,144 (2 MiB).
pub fn window_ranks(narrow: bool) -> usize {
    if narrow {
        TIGHT_WINDOW
    } else {
        WINDOW
    }
}

impl<'a> LayerCursor<'a> {
    #[cfg(test)]
    pub fn open(layer: &'a Layer, bound: u64) -> Result<LayerCursor<'a>, Error> {
        LayerCursor::open_with(layer, bound, WINDOW)
    }
    /// [`LayerCursor::open`] reading a file ahead in windows of `window` ranks.
    pub fn open_with(
        layer: &'a Layer,
        bound: u64,
        window: usize,
    ) -> Result<LayerCursor<'a>, Error> {
        Ok(match layer {
            Layer::Bits(b) => LayerCursor::Bits(b, 0),
            Layer::File(path, seal) => LayerCursor::File(
                LayerReader::open(path, *seal, bound)?,
                Window {
                    ranks: Vec::new(),
                    at: 0,
                    read: Vec::new(),
                    ended: false,
                    size: window.max(CHUNK),
                },
            ),
        })
    }
    /// The next chunk into `out`; false at the end (of a file: once its checksum was found
    /// right).
    pub fn chunk(&mut self, out: &mut Vec<u64>) -> Result<bool, Error> {
        out.clear();
        match self {
            LayerCursor::Bits(b, at) => {
                b.ones_from(at, CHUNK, out);
            }
            LayerCursor::File(r, w) => {
                if w.at == w.ranks.len() && !w.ended {
                    w.ranks.clear();
                    w.at = 0;
                    while w.ranks.len() < w.size {
                        match r.chunk((w.size - w.ranks.len()).min(CHUNK), &mut w.read) {
                            Ok(true) => w.ranks.extend_from_slice(&w.read),
                            Ok(false) => {
                                w.ended = true;
                                break;
                            }
                            Err(e) => {
                                // nothing more comes from a damaged file
                                w.ranks.clear();
                                w.ended = true;
                                return Err(e);
                            }
                        }
                    }
                    sort_ranks(&mut w.ranks, &mut w.read);
                }
                let end = (w.at + CHUNK).min(w.ranks.len());
                out.extend_from_slice(&w.ranks[w.at..end]);
                w.at = end;
            }
        }
        Ok(!out.is_empty())
    }
}

/// A worker's checkpoint: what it has finished, and what for.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(super) struct Checkpoint {
    pub(super) format: u32,
    pub(super) identity: RunIdentity,
    pub(super) peers: usize,
    pub(super) index: usize,
    pub(super) rank_space: u64,
    /// Layers `0..=layer` are complete and in their files.
    pub(super) layer: u32,
    /// Positions per layer, over every worker, through `layer`.
    pub(super) histogram: Vec<u64>,
    /// This worker's positions per layer (those of its files), through `layer`.
    pub(super) counts: Vec<u64>,
    /// Whether the enumeration is over (no position at `layer + 1`), as this worker saw it:
    /// the run is over only when every worker's checkpoint says so at the same layer.
    pub(super) done: bool,
}

impl Checkpoint {
    /// Writes the checkpoint of `layer` (whole, checked, renamed into place).
    pub fn write(&self, dir: &Path, files: &Files) -> Result<(), Error> {
        let text = serde_json::to_vec_pretty(self).expect("a checkpoint serialises");
        write_sealed(&checkpoint_path(dir), files.seal(CHECKPOINT, 0), &text)
    }

    /// Reads this worker's checkpoint, checked against what the run is (`want`): its
    /// identity, the number of workers, the worker.
    pub fn read(dir: &Path, want: &Checkpoint, files: &Files) -> Result<Checkpoint, Error> {
        let path = checkpoint_path(dir);
        if !path.exists() {
            if dir.join(OLD_CHECKPOINT).exists() {
                return Err(old_checkpoint(dir));
            }
            return Err(Error::invalid(format!(
                "nothing to resume: {} holds no checkpoint (was the run started with this \
                 --work-dir?)",
                dir.display()
            )));
        }
        let c: Checkpoint = match read_sealed(&path, files.seal(CHECKPOINT, 0)) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                Error::invalid(format!("{}: not a checkpoint of floe: {e}", path.display()))
            })?,
            Err(e) => {
                // another run's checkpoint, or another worker's: say how, when it can be read
                if let Some(c) = unchecked(&path) {
                    c.belongs(&path, want)?;
                }
                return Err(e);
            }
        };
        c.belongs(&path, want)?;
        if c.histogram.len() != c.layer as usize + 1
            || c.counts.len() != c.histogram.len()
            || c.histogram.contains(&0)
            || c.counts.iter().zip(&c.histogram).any(|(c, h)| c > h)
        {
            return Err(Error::invalid(format!(
                "{}: the checkpoint contradicts itself (layer {}, {} layers in its histogram, \
                 {} counts); it is not used",
                path.display(),
                c.layer,
                c.histogram.len(),
                c.counts.len()
            )));
        }
        Ok(c)
    }
}

impl Checkpoint {
    /// Whether this checkpoint (at `path`) is of the run `want` is: the same identity, the
    /// same workers, this worker; else the refusal that names the difference.
    fn belongs(&self, path: &Path, want: &Checkpoint) -> Result<(), Error> {
        let d = want
            .identity
            .differences(&self.identity, "here", "in the checkpoint");
        let layout = |l: &str| l.starts_with("--processes:") || l.starts_with("--workers:");
        if !d.is_empty() && d.iter().all(|l| layout(l)) {
            // the same job, laid out otherwise: say the flags that take it up
            let (p, w) = (self.identity.processes, self.identity.workers);
            return Err(Error::invalid(format!(
                "{}: the checkpoint is of this run laid out otherwise ({}); take it up with {}",
                path.display(),
                d.join("; "),
                if p == 1 {
                    format!("--workers {w} (one process)")
                } else {
                    format!("--processes {p} --workers {w}")
                }
            )));
        }
        if !d.is_empty() {
            return Err(Error::invalid(format!(
                "{}: the checkpoint is of another run ({}); {}",
                path.display(),
                self.identity.describe(),
                d.join("; ")
            )));
        }
        if self.format != FORMAT || self.rank_space != want.rank_space {
            return Err(Error::invalid(format!(
                "{}: a checkpoint of format {} over {} ranks; this run is of format {FORMAT} \
                 over {} ranks",
                path.display(),
                self.format,
                self.rank_space,
                want.rank_space
            )));
        }
        if self.peers == want.peers && self.index != want.index {
            // the same layout: the file was moved between the workers' folders
            return Err(Error::invalid(format!(
                "{}: this is worker {}'s checkpoint in worker {}'s folder: the files of the \
                 workers were moved or copied between their folders",
                path.display(),
                self.index,
                want.index
            )));
        }
        if self.peers != want.peers || self.index != want.index {
            return Err(Error::invalid(format!(
                "{}: the checkpoint was made by worker {} of {}; resume with the same number of \
                 processes and workers ({} in all)",
                path.display(),
                self.index,
                self.peers,
                self.peers
            )));
        }
        Ok(())
    }
}

/// A checkpoint that is whole (its own checksum holds) whatever run or worker it is of: to
/// say how another run's differs.
fn unchecked(path: &Path) -> Option<Checkpoint> {
    let (seal, payload) = crate::mem::read_foreign(path)?;
    (seal.kind == CHECKPOINT)
        .then(|| serde_json::from_slice(&payload).ok())
        .flatten()
}

fn old_checkpoint(dir: &Path) -> Error {
    Error::invalid(format!(
        "{}: a checkpoint of an older floe ({OLD_CHECKPOINT}, without checksums), which this \
         floe does not trust; start the run afresh in another --work-dir",
        dir.display()
    ))
}

/// A fresh run's folder (locked already): refused when it holds a checkpoint, else emptied
/// of what a run that never reached its first checkpoint left.
pub(super) fn prepare_fresh(dir: &Path) -> Result<(), Error> {
    if checkpoint_path(dir).exists() || dir.join(OLD_CHECKPOINT).exists() {
        return Err(Error::invalid(format!(
            "{} holds a checkpoint already: take it up with --resume, or give another \
             --work-dir",
            dir.display()
        )));
    }
    fs::create_dir_all(dir).map_err(|e| io_err("cannot create", dir, e))?;
    remove_leftovers(dir, true);
    Ok(())
}

/// Removes the temporary files of a killed run (and, with `all`, its layer files too).
pub(super) fn remove_leftovers(dir: &Path, all: bool) {
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

/// `e`, and when it is a disk that is full (or a file size limit), the way on: the layers
/// before layer `d` are whole, and a resume takes the run up from them once there is room.
pub(super) fn way_on(e: Error, d: u32) -> Error {
    match e {
        Error::Io { path, source } if matches!(source.raw_os_error(), Some(27 | 28 | 122)) => {
            Error::invalid(format!(
                "{path}: cannot write layer {d}: {source}. The layers before it are whole: \
                 free room on that disk (or move the folder whole to a larger one), then the \
                 same command with --resume takes the run up"
            ))
        }
        e => e,
    }
}

#[cfg(test)]
mod sort_tests {
    use super::sort_ranks;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn ranks_sort_as_a_comparison_sort_sorts_them() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut scratch = Vec::new();
        for (len, bits) in [
            (0, 10),
            (5, 64),
            (1023, 20),
            (1024, 20),
            (5_000, 11),
            (5_000, 22),
            (40_000, 26),
            (40_000, 33),
            (40_000, 40),
            (20_000, 64),
        ] {
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            };
            let mut v: Vec<u64> = (0..len).map(|_| rng.random::<u64>() & mask).collect();
            // repeats, and ranks that share their low digits
            for i in (0..len).step_by(7) {
                v[i] = v[i / 2];
            }
            for i in (3..len).step_by(11) {
                v[i] &= !0x7ff;
            }
            let mut want = v.clone();
            want.sort_unstable();
            sort_ranks(&mut v, &mut scratch);
            assert_eq!(v, want, "{len} ranks of {bits} bits");
        }
        // every width of rank, the lists long enough to be sorted by radix: some digits
        // shared by all (skipped), an odd or even number of passes
        for bits in 1..=64u32 {
            let mask = u64::MAX >> (64 - bits);
            for len in [1024, 1025, 3000] {
                // only the top bit varies, over a few low bits all share
                let top_only = |x: u64| x & (mask ^ (mask >> 1));
                for pattern in 0..3 {
                    let mut v: Vec<u64> = (0..len)
                        .map(|_| {
                            let x = rng.random::<u64>() & mask;
                            match pattern {
                                0 => x,
                                1 => top_only(x) | (5 & mask),
                                _ => mask,
                            }
                        })
                        .collect();
                    let mut want = v.clone();
                    want.sort_unstable();
                    sort_ranks(&mut v, &mut scratch);
                    assert_eq!(v, want, "{len} ranks of {bits} bits, pattern {pattern}");
                }
            }
        }
        // a digit all ranks share (here the lowest), and one list already sorted
        let mut v: Vec<u64> = (0..3000u64).rev().map(|i| i << 11).collect();
        sort_ranks(&mut v, &mut scratch);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        sort_ranks(&mut v, &mut scratch);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
    }
}
