//! A worker's visited bits: in memory, or on disk in segments when they do not fit.
//!
//! On disk (`worker-I/seen.bin`, one bit per rank the worker may own), the ranks a worker
//! receives during a layer are not looked up at once: they are put in the bucket of their
//! segment (a buffer, written out to `bucket-S.bin` when full). When every rank of the layer
//! is in, each segment with a bucket is read, its ranks are looked up and set, the new ones
//! are kept, and the segment is written back: delayed duplicate detection over rank-ordered
//! bit files, so the memory holds one segment and the buffers whatever the rank space.
//!
//! The bit file is never trusted across runs (a run taken up again rebuilds it from its
//! layer files), and within a run each segment's checksum is kept in memory and checked
//! whenever the segment is read back: a segment changed on disk stops the run.

use super::files::{io_err, Files, LayerReader, LayerWriter, BUCKET as BUCKET_FILE};
use crate::bits::BitArray;
use crate::mem::ScratchFile;
use crate::Error;
use std::fs;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::xxh3_64;

/// Ranks a bucket buffers before it is written to its file.
const BUCKET: usize = if cfg!(test) { 1 << 6 } else { 1 << 15 };
/// Memory a bucket may take: its buffer and its file's (the sealed writer's 64 KiB and the
/// file's own 64 KiB), with room for the allocator's rounding. The bits on disk hold one
/// more, where a buffer is sorted.
pub const BUCKET_BYTES: usize = BUCKET * 8 + (3 << 16);
/// The smallest segment on disk, in bytes.
const MIN_SEGMENT: u64 = if cfg!(test) { 64 } else { 1 << 20 };

/// A worker's visited bits.
pub(super) enum Seen {
    Memory(BitArray),
    Disk(DiskSeen),
}

/// Visited bits kept in a file, a segment at a time.
pub(super) struct DiskSeen {
    dir: PathBuf,
    file: ScratchFile,
    /// Bits the worker may own.
    len: u64,
    /// Bits of a segment (a multiple of 64).
    segment_bits: u64,
    /// Each segment's checksum as last written (`None`: never written, all zeros).
    sums: Vec<Option<u64>>,
    /// Buffered ranks, by segment.
    buffers: Vec<Vec<u64>>,
    /// Bucket files written this layer, by segment.
    files: Vec<Option<LayerWriter>>,
    seal: Files,
    /// The segment being judged (allocated at the first settlement).
    segment: Vec<u8>,
    /// Where a bucket's buffer is sorted (as long as a buffer).
    scratch: Vec<u64>,
}

impl Seen {
    /// The bits of `len` ranks: in memory when they take at most `budget` bytes (or when
    /// there is no folder), else in `dir` in segments of at most `budget` bytes, all clear.
    pub(super) fn new(
        len: u64,
        budget: Option<u64>,
        dir: Option<&Path>,
        files: Files,
    ) -> Result<Seen, Error> {
        let bytes = len.div_ceil(64) * 8;
        match (budget, dir) {
            (Some(b), Some(dir)) if bytes > b => {
                let segment_bits = (b.max(MIN_SEGMENT) / 8) * 64;
                let segments = len.div_ceil(segment_bits) as usize;
                let file = ScratchFile::zeros(&dir.join("seen.bin"), bytes)?;
                for s in 0..segments {
                    let _ = fs::remove_file(bucket_path(dir, s));
                }
                Ok(Seen::Disk(DiskSeen {
                    dir: dir.to_path_buf(),
                    file,
                    len,
                    segment_bits,
                    sums: vec![None; segments],
                    buffers: (0..segments).map(|_| Vec::new()).collect(),
                    files: (0..segments).map(|_| None).collect(),
                    seal: files,
                    segment: Vec::new(),
                    scratch: Vec::new(),
                }))
            }
            _ => BitArray::try_new(len).map(Seen::Memory).ok_or_else(|| {
                Error::invalid(format!(
                    "the system refused the {} of this worker's visited bits (ulimit -v or a \
                     cgroup's limit): give the run a --work-dir, where bits that do not fit \
                     the budget go to disk, or more memory",
                    crate::mem::human_bytes(len.div_ceil(8))
                ))
            }),
        }
    }

    /// Whether the bits are on disk.
    pub(super) fn on_disk(&self) -> bool {
        matches!(self, Seen::Disk(_))
    }

    /// Bytes the bits hold in memory now, at most.
    pub(super) fn heap_bytes(&self) -> usize {
        match self {
            Seen::Memory(b) => b.heap_bytes(),
            Seen::Disk(d) => (d.segment_bits / 8) as usize + (d.buffers.len() + 1) * BUCKET_BYTES,
        }
    }

    /// Offers rank `l`: in memory, `Some(true)` when it was not seen (it is now); on disk,
    /// `None` (it is judged by [`Seen::settle`]).
    #[inline]
    pub(super) fn offer(&mut self, l: u64) -> Result<Option<bool>, Error> {
        match self {
            Seen::Memory(b) => Ok(Some(b.insert(l))),
            Seen::Disk(d) => d.offer(l).map(|()| None),
        }
    }

    /// Offers every rank of `ranks` ([`Seen::offer`]): in memory, `fresh` gets those not seen
    /// before, found in a tight loop first so that the probes' cache misses overlap; on disk,
    /// `fresh` stays empty.
    pub(super) fn offer_all(&mut self, ranks: &[u64], fresh: &mut Vec<u64>) -> Result<(), Error> {
        fresh.clear();
        match self {
            Seen::Memory(b) => {
                // Two passes, as in the single process: first the ranks whose bit is clear
                // are kept by plain loads and no branch on what they find (most were seen:
                // a position has a dozen pushes or more and is new once), so that the loads
                // of far apart words overlap where a branch on each waited for the memory
                // whenever it guessed wrong; then the few kept are set, which also drops a
                // rank offered twice in the batch. Writing every word back without a branch
                // (an earlier version) made each probe a store to a word that is mostly not
                // in cache: one worker's whole run 1.26 times slower.
                let words = b.words();
                fresh.resize(ranks.len(), 0);
                let mut kept = 0;
                for &l in ranks {
                    fresh[kept] = l;
                    kept += usize::from(words[(l / 64) as usize] >> (l % 64) & 1 == 0);
                }
                fresh.truncate(kept);
                fresh.retain(|&l| b.insert(l));
                Ok(())
            }
            Seen::Disk(d) => ranks.iter().try_for_each(|&l| d.offer(l)),
        }
    }

    /// On disk, judges every rank offered since the last settlement, segment by segment, and
    /// calls `new` with those not seen before (in the order of their segments). In memory,
    /// nothing is pending.
    pub(super) fn settle(&mut self, new: &mut dyn FnMut(u64)) -> Result<(), Error> {
        match self {
            Seen::Memory(_) => Ok(()),
            Seen::Disk(d) => d.settle(new),
        }
    }

    /// Forgets what was offered and not settled (a layer given up).
    pub(super) fn drop_pending(&mut self) {
        if let Seen::Disk(d) = self {
            for (s, b) in d.buffers.iter_mut().enumerate() {
                b.clear();
                d.files[s] = None;
                let _ = fs::remove_file(bucket_path(&d.dir, s));
            }
        }
    }
}

fn bucket_path(dir: &Path, segment: usize) -> PathBuf {
    dir.join(format!("bucket-{segment}.bin"))
}

impl DiskSeen {
    #[inline]
    fn offer(&mut self, l: u64) -> Result<(), Error> {
        debug_assert!(l < self.len);
        let s = (l / self.segment_bits) as usize;
        let b = &mut self.buffers[s];
        b.push(l);
        if b.len() >= BUCKET {
            self.spill(s)?;
        }
        Ok(())
    }

    /// Writes segment `s`'s buffer to its bucket file.
    fn spill(&mut self, s: usize) -> Result<(), Error> {
        // repeats within the buffer need not reach the disk
        let b = &mut self.buffers[s];
        super::files::sort_ranks(b, &mut self.scratch);
        b.dedup();
        if self.files[s].is_none() {
            self.files[s] = Some(LayerWriter::create(
                bucket_path(&self.dir, s),
                self.seal.seal(BUCKET_FILE, s as u32),
            )?);
        }
        let w = self.files[s].as_mut().expect("just created");
        for &l in b.iter() {
            w.push(l).map_err(|e| io_err("cannot write", &w.path, e))?;
        }
        b.clear();
        Ok(())
    }

    fn settle(&mut self, new: &mut dyn FnMut(u64)) -> Result<(), Error> {
        let path = self.file.path().to_path_buf();
        let mut chunk: Vec<u64> = Vec::new();
        for s in 0..self.buffers.len() {
            let file = self.files[s].take();
            if file.is_none() && self.buffers[s].is_empty() {
                continue;
            }
            let lo = s as u64 * self.segment_bits;
            let hi = (lo + self.segment_bits).min(self.len);
            // the file holds whole words: a segment is a whole number of bytes
            let bytes = &mut self.segment;
            bytes.clear();
            bytes.resize(((hi - lo).div_ceil(64) * 8) as usize, 0);
            let offset = lo / 8;
            self.file
                .read_at(offset, bytes)
                .map_err(|e| io_err("cannot read", &path, e))?;
            let intact = match self.sums[s] {
                Some(sum) => xxh3_64(bytes) == sum,
                None => bytes.iter().all(|&b| b == 0),
            };
            if !intact {
                return Err(Error::invalid(format!(
                    "{}: segment {s} changed on disk since it was written (damaged by the disk \
                     or another program); the run stops, and --resume rebuilds the visited bits \
                     from the layer files",
                    path.display()
                )));
            }
            let mut judge = |l: u64| {
                let i = l - lo;
                let b = &mut bytes[(i / 8) as usize];
                let m = 1u8 << (i % 8);
                if *b & m == 0 {
                    *b |= m;
                    new(l);
                }
            };
            if let Some(w) = file {
                let bucket = w.path.clone();
                w.finish()?;
                let mut r =
                    LayerReader::open(&bucket, self.seal.seal(BUCKET_FILE, s as u32), self.len)?;
                while r.chunk(1 << 16, &mut chunk)? {
                    for &l in &chunk {
                        judge(l);
                    }
                }
                let _ = fs::remove_file(&bucket);
            }
            for &l in &self.buffers[s] {
                judge(l);
            }
            self.buffers[s].clear();
            self.sums[s] = Some(xxh3_64(bytes));
            self.file
                .write_at(offset, bytes)
                .map_err(|e| io_err("cannot write", &path, e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("floe-seen-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    const FILES: Files = Files {
        run: 7,
        worker: 0,
        width: 5,
    };

    /// Bits in memory hand back each rank not seen before once, in order, repeats within
    /// one offer included.
    #[test]
    fn bits_in_memory_keep_each_new_rank_once() {
        let mut seen = Seen::new(64, None, None, FILES).unwrap();
        let mut fresh = vec![99];
        seen.offer_all(&[5, 5, 7, 5, 7, 9], &mut fresh).unwrap();
        assert_eq!(fresh, [5, 7, 9]);
        seen.offer_all(&[9, 10, 5, 63, 10], &mut fresh).unwrap();
        assert_eq!(fresh, [10, 63]);
        seen.offer_all(&[], &mut fresh).unwrap();
        assert!(fresh.is_empty());
        seen.offer_all(&[0, 0], &mut fresh).unwrap();
        assert_eq!(fresh, [0]);
    }

    /// Over several words (the last one partly used), offers of ranks drawn at random give
    /// what one rank at a time gives: the first offer of each, in order.
    #[test]
    fn bits_in_memory_agree_with_one_rank_at_a_time() {
        const LEN: u64 = 3 * 64 + 5;
        let mut seen = Seen::new(LEN, None, None, FILES).unwrap();
        let mut model = std::collections::HashSet::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut fresh = Vec::new();
        let mut kept = 0;
        for round in 0..60 {
            let ranks: Vec<u64> = (0..round % 17 * 3)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (x >> 33) % LEN
                })
                .collect();
            seen.offer_all(&ranks, &mut fresh).unwrap();
            let expected: Vec<u64> = ranks.iter().copied().filter(|&l| model.insert(l)).collect();
            assert_eq!(fresh, expected, "round {round}");
            kept += fresh.len();
        }
        // the draws reached every word, the last rank included
        assert!(kept > 150 && model.contains(&(LEN - 1)), "{kept}");
    }

    /// A segment of the bit file changed on disk between its writing and its reading is
    /// found, and stops the run.
    #[test]
    fn a_segment_changed_on_disk_is_found() {
        let dir = folder("changed");
        let mut disk = Seen::new(5_000, Some(64), Some(&dir), FILES).unwrap();
        disk.offer(10).unwrap();
        disk.settle(&mut |_| {}).unwrap();
        // a bit flipped behind the run's back, in a written segment and in one never written
        // (segments of 64 bytes: rank 10 is in segment 0, rank 1,000 in segment 1)
        for (at, rank, segment) in [(1u64, 11u64, 0), (64 + 3, 1_000, 1)] {
            if let Seen::Disk(d) = &mut disk {
                let mut b = [0u8];
                d.file.read_at(at, &mut b).unwrap();
                d.file.write_at(at, &[b[0] ^ 0x10]).unwrap();
            }
            disk.offer(rank).unwrap();
            let e = disk.settle(&mut |_| {}).unwrap_err().to_string();
            assert!(
                e.contains(&format!("segment {segment} changed on disk")),
                "{e}"
            );
            disk.drop_pending();
        }
        let _ = fs::remove_dir_all(&dir);
    }

    /// On disk, in segments of 64 bytes (512 ranks), a settlement keeps exactly the ranks
    /// that memory keeps, each once, across layers.
    #[test]
    fn bits_on_disk_keep_what_bits_in_memory_keep() {
        let dir = folder("same");
        let len = 5_000u64;
        let mut disk = Seen::new(len, Some(64), Some(&dir), FILES).unwrap();
        let mut memory = Seen::new(len, Some(64), None, FILES).unwrap();
        assert!(disk.on_disk() && !memory.on_disk());
        let mut x = 12345u64;
        for layer in 0..6 {
            let mut want = Vec::new();
            for _ in 0..3_000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let l = (x >> 33) % len;
                assert_eq!(disk.offer(l).unwrap(), None);
                if memory.offer(l).unwrap() == Some(true) {
                    want.push(l);
                }
            }
            let mut got = Vec::new();
            disk.settle(&mut |l| got.push(l)).unwrap();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "layer {layer}");
            // nothing is left over between layers
            let buckets = fs::read_dir(&dir)
                .unwrap()
                .filter(|e| {
                    let e = e.as_ref().unwrap().file_name();
                    e.to_string_lossy().starts_with("bucket-")
                })
                .count();
            assert_eq!(buckets, 0);
        }
        // a layer given up leaves no trace
        disk.offer(7).unwrap();
        disk.drop_pending();
        let mut after = Vec::new();
        disk.settle(&mut |l| after.push(l)).unwrap();
        assert!(after.is_empty());
        let _ = fs::remove_dir_all(&dir);
    }
}
