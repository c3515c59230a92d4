//! Run files: every file a long run keeps (layers, buckets, partial results, checkpoints,
//! census layers) is framed the same way, so that nothing is used that was cut short,
//! damaged, moved, or written by another run.
//!
//! ```text
//! header (64 bytes)  magic "FLOERUN\x1a", version (u16), kind (4 bytes), record width (u8),
//!                    0, run identity digest (u64), worker (u32), layer (u32), 32 zero bytes
//! records            count × width bytes
//! trailer (16 bytes) count (u64), XXH3-64 of everything before the checksum (u64)
//! ```
//!
//! All numbers are little-endian. A reader checks, before it hands out a record, that the
//! file is a run file of this format, that its size is what its count says, and that its
//! kind, run, worker and layer are the ones expected; the checksum is checked when the last
//! record has been read ([`SealedReader::read`] fails instead of reporting the end). Files
//! read whole ([`read_sealed`]) are checked before anything of them is used.

use super::WholeFile;
use crate::Error;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// The first bytes of every run file.
pub const MAGIC: &[u8; 8] = b"FLOERUN\x1a";
/// The framing's version.
const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEAD: u64 = 64;
/// Bytes of the trailer.
pub const TAIL: u64 = 16;
/// What a writer buffers before hashing and writing.
const BUFFER: usize = 1 << 16;

/// What a run file is and where it belongs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seal {
    /// The kind of file (`b"LAYR"`, `b"CKPT"`, …).
    pub kind: [u8; 4],
    /// The digest of the run's identity ([`super::RunIdentity::digest`]).
    pub run: u64,
    /// The worker whose file it is.
    pub worker: u32,
    /// The layer (or segment, or number of blocks) it holds.
    pub layer: u32,
    /// Bytes per record (1 for a file of bytes).
    pub width: u8,
}

impl Seal {
    fn header(&self) -> [u8; HEAD as usize] {
        let mut h = [0u8; HEAD as usize];
        h[..8].copy_from_slice(MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..14].copy_from_slice(&self.kind);
        h[14] = self.width;
        h[16..24].copy_from_slice(&self.run.to_le_bytes());
        h[24..28].copy_from_slice(&self.worker.to_le_bytes());
        h[28..32].copy_from_slice(&self.layer.to_le_bytes());
        h
    }

    fn kind_name(kind: &[u8; 4]) -> String {
        String::from_utf8_lossy(kind).into_owned()
    }
}

/// Whether the XXH3-64 of all but the last 8 bytes (the checksum) of `path`, `len` long, is `sum` (the check of
/// a whole file, read again: only on the way to a refusal).
fn whole_sum_is(path: &Path, len: u64, sum: u64) -> bool {
    let Ok(f) = File::open(path) else {
        return false;
    };
    let mut r = BufReader::with_capacity(1 << 20, f.take(len.saturating_sub(8)));
    let mut hash = Xxh3::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return hash.digest() == sum,
            Ok(n) => hash.update(&buf[..n]),
            Err(_) => return false,
        }
    }
}

fn damaged(path: &Path, why: impl std::fmt::Display) -> Error {
    Error::invalid(format!(
        "{}: {why}; the file is damaged or does not belong here, and is not used",
        path.display()
    ))
}

fn io<'a>(path: &'a Path, what: &'a str) -> impl Fn(std::io::Error) -> Error + 'a {
    move |source| Error::Io {
        path: format!("{what} {}", path.display()),
        source,
    }
}

/// Writes a run file record by record, whole or not at all ([`WholeFile`]).
pub struct SealedWriter {
    out: WholeFile,
    /// (boxed: the hash's state is large, and writers live in enums of small variants)
    hash: Box<Xxh3>,
    buf: Vec<u8>,
    width: usize,
    count: u64,
}

impl SealedWriter {
    /// Starts writing `path` as `seal` says.
    pub fn begin(path: &Path, seal: Seal) -> Result<SealedWriter, Error> {
        let mut out = WholeFile::begin(path)?;
        let head = seal.header();
        out.write(&head).map_err(io(path, "cannot write"))?;
        let mut hash = Box::new(Xxh3::new());
        hash.update(&head);
        Ok(SealedWriter {
            out,
            hash,
            buf: Vec::with_capacity(BUFFER),
            width: usize::from(seal.width.max(1)),
            count: 0,
        })
    }

    /// The file it will be.
    pub fn path(&self) -> &Path {
        self.out.path()
    }

    /// Appends one record (`width` bytes).
    #[inline]
    pub fn record(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        debug_assert_eq!(bytes.len(), self.width);
        self.count += 1;
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= BUFFER {
            self.flush()?;
        }
        Ok(())
    }

    /// Appends bytes as records of one byte each (a file of width 1).
    pub fn bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        debug_assert_eq!(self.width, 1);
        self.count += bytes.len() as u64;
        self.flush()?;
        self.hash.update(bytes);
        self.out.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            self.hash.update(&self.buf);
            self.out.write(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Records written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Writes the trailer, syncs the file and renames it into place; its size in bytes.
    pub fn finish(mut self) -> Result<u64, Error> {
        let path = self.out.path().to_path_buf();
        self.flush().map_err(io(&path, "cannot write"))?;
        let count = self.count.to_le_bytes();
        self.hash.update(&count);
        let sum = self.hash.digest().to_le_bytes();
        self.out.write(&count).map_err(io(&path, "cannot write"))?;
        self.out.write(&sum).map_err(io(&path, "cannot write"))?;
        let size = HEAD + self.count * self.width as u64 + TAIL;
        self.out.finish()?;
        Ok(size)
    }
}

/// Writes `payload` as a run file of bytes, whole or not at all.
pub fn write_sealed(path: &Path, seal: Seal, payload: &[u8]) -> Result<(), Error> {
    let mut w = SealedWriter::begin(path, Seal { width: 1, ..seal })?;
    w.bytes(payload).map_err(io(path, "cannot write"))?;
    w.finish().map(|_| ())
}

/// Reads a run file record by record, checked as the module says.
pub struct SealedReader {
    input: BufReader<File>,
    path: PathBuf,
    hash: Box<Xxh3>,
    width: usize,
    left: u64,
    count: u64,
    sum: u64,
}

impl SealedReader {
    /// Opens `path`, which must be a run file as `want` says (its kind, run, worker, layer
    /// and width).
    pub fn open(path: &Path, want: Seal) -> Result<SealedReader, Error> {
        let mut f = File::open(path).map_err(io(path, "cannot read"))?;
        let len = f.metadata().map_err(io(path, "cannot read"))?.len();
        // the trailer first, straight from the file
        let mut tail = [0u8; TAIL as usize];
        if len >= HEAD + TAIL {
            f.seek(SeekFrom::Start(len - TAIL))
                .and_then(|_| f.read_exact(&mut tail))
                .and_then(|()| f.seek(SeekFrom::Start(0)))
                .map_err(io(path, "cannot read"))?;
        }
        let mut input = BufReader::with_capacity(1 << 20, f);
        let mut head = [0u8; HEAD as usize];
        let first = len.min(HEAD) as usize;
        input
            .read_exact(&mut head[..first])
            .map_err(io(path, "cannot read"))?;
        if first >= 8 && &head[..8] != MAGIC {
            let old = head.starts_with(b"FLOELAYR");
            return Err(Error::invalid(format!(
                "{}: {}",
                path.display(),
                if old {
                    "a file of an older floe, without checksums, which this floe does not \
                     trust: start the run afresh in another folder"
                } else {
                    "not a run file of floe"
                }
            )));
        }
        if len < HEAD + TAIL {
            return Err(damaged(
                path,
                format!("{len} bytes, fewer than a run file's header and trailer (cut short?)"),
            ));
        }
        let count = u64::from_le_bytes(tail[..8].try_into().expect("8 bytes"));
        let sum = u64::from_le_bytes(tail[8..].try_into().expect("8 bytes"));
        let version = u16::from_le_bytes([head[8], head[9]]);
        if version != VERSION {
            // another format is one whose checksum holds; a byte flipped in the header is
            // damage (before: read as a version mismatch)
            if !whole_sum_is(path, len, sum) {
                return Err(damaged(
                    path,
                    "its checksum does not match its contents (its header reads as format \
                     {version}: a flipped byte?)"
                        .replace("{version}", &version.to_string()),
                ));
            }
            return Err(Error::invalid(format!(
                "{}: a run file of format {version}; this floe reads format {VERSION}",
                path.display()
            )));
        }
        let width = u64::from(head[14].max(1));
        let body = len - HEAD - TAIL;
        if count.checked_mul(width) != Some(body) {
            // a file cut or extended ends in what is not its trailer: a count read there is
            // no figure to quote
            let near = count
                .checked_mul(width)
                .is_some_and(|b| b <= len.saturating_mul(2));
            return Err(damaged(
                path,
                if near {
                    format!(
                        "{len} bytes, but its trailer counts {count} records of {width} bytes \
                         (cut short or extended?)"
                    )
                } else {
                    format!(
                        "{len} bytes, and they do not end in the trailer of a whole file (cut \
                         short or extended?)"
                    )
                },
            ));
        }
        let kind: [u8; 4] = head[10..14].try_into().expect("4 bytes");
        let run = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
        let worker = u32::from_le_bytes(head[24..28].try_into().expect("4 bytes"));
        let layer = u32::from_le_bytes(head[28..32].try_into().expect("4 bytes"));
        if kind != want.kind || head[14] != want.width {
            return Err(damaged(
                path,
                format!(
                    "a {} file, not a {} file",
                    Seal::kind_name(&kind),
                    Seal::kind_name(&want.kind)
                ),
            ));
        }
        if run != want.run {
            return Err(damaged(
                path,
                format!(
                    "written by another run (identity {run:016x}, this run's is {:016x})",
                    want.run
                ),
            ));
        }
        if (worker, layer) != (want.worker, want.layer) {
            return Err(damaged(
                path,
                format!(
                    "it holds layer {layer} of worker {worker}, not layer {} of worker {}",
                    want.layer, want.worker
                ),
            ));
        }
        let mut hash = Box::new(Xxh3::new());
        hash.update(&head);
        Ok(SealedReader {
            input,
            path: path.to_path_buf(),
            hash,
            width: width as usize,
            left: count,
            count,
            sum,
        })
    }

    /// Records in the file.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Fills `buf` with up to `buf.len() / width` whole records; how many bytes. 0 only at
    /// the end, after the checksum was found right (else an error naming the file).
    pub fn read(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        let records = (buf.len() / self.width) as u64;
        let n = (records.min(self.left) as usize) * self.width;
        if n == 0 {
            if self.left == 0 {
                self.check()?;
            }
            return Ok(0);
        }
        self.input
            .read_exact(&mut buf[..n])
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => damaged(&self.path, "cut short while read"),
                _ => io(&self.path, "cannot read")(e),
            })?;
        self.hash.update(&buf[..n]);
        self.left -= (n / self.width) as u64;
        Ok(n)
    }

    fn check(&mut self) -> Result<(), Error> {
        let mut h = self.hash.clone();
        h.update(&self.count.to_le_bytes());
        if h.digest() != self.sum {
            return Err(damaged(
                &self.path,
                "its checksum does not match its contents",
            ));
        }
        Ok(())
    }
}

/// Reads a run file of bytes whole, checked (checksum included) before it is returned.
pub fn read_sealed(path: &Path, want: Seal) -> Result<Vec<u8>, Error> {
    let mut r = SealedReader::open(path, Seal { width: 1, ..want })?;
    let mut out = vec![0u8; r.count() as usize];
    let mut at = 0;
    while at < out.len() {
        let n = r.read(&mut out[at..])?;
        if n == 0 {
            break;
        }
        at += n;
    }
    // the end: the checksum
    r.read(&mut [])?;
    Ok(out)
}

/// A run file of bytes that is whole (its own checksum holds), whatever its run, worker or
/// layer: its header and its payload. For messages that say how a file of another run
/// differs, never to use the file.
pub fn read_foreign(path: &Path) -> Option<(Seal, Vec<u8>)> {
    let bytes = std::fs::read(path).ok()?;
    let n = bytes.len().checked_sub(8)?;
    if n < (HEAD + TAIL - 8) as usize || !bytes.starts_with(MAGIC) {
        return None;
    }
    let sum = u64::from_le_bytes(bytes[n..].try_into().ok()?);
    if xxhash_rust::xxh3::xxh3_64(&bytes[..n]) != sum || bytes[14] != 1 {
        return None;
    }
    let seal = Seal {
        kind: bytes[10..14].try_into().ok()?,
        run: u64::from_le_bytes(bytes[16..24].try_into().ok()?),
        worker: u32::from_le_bytes(bytes[24..28].try_into().ok()?),
        layer: u32::from_le_bytes(bytes[28..32].try_into().ok()?),
        width: 1,
    };
    Some((seal, bytes[HEAD as usize..n - 8].to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("floe-sealed-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    const SEAL: Seal = Seal {
        kind: *b"TEST",
        run: 0x1234_5678_9abc_def0,
        worker: 3,
        layer: 7,
        width: 5,
    };

    fn records(path: &Path, want: Seal) -> Result<Vec<u8>, Error> {
        let mut r = SealedReader::open(path, want)?;
        let mut all = Vec::new();
        let mut buf = vec![0u8; 12];
        loop {
            let n = r.read(&mut buf)?;
            if n == 0 {
                return Ok(all);
            }
            all.extend_from_slice(&buf[..n]);
        }
    }

    #[test]
    fn what_is_written_reads_back_and_any_damage_is_refused() {
        let dir = folder("damage");
        let path = dir.join("f.bin");
        let mut w = SealedWriter::begin(&path, SEAL).unwrap();
        let mut want = Vec::new();
        for i in 0u64..1000 {
            let b = &(i * 7919).to_le_bytes()[..5];
            w.record(b).unwrap();
            want.extend_from_slice(b);
        }
        assert_eq!(w.finish().unwrap(), HEAD + 5000 + TAIL);
        assert_eq!(records(&path, SEAL).unwrap(), want);
        let good = std::fs::read(&path).unwrap();
        // every single flipped bit, in the header, the records or the trailer, is caught
        for at in (0..good.len())
            .step_by(37)
            .chain([good.len() - 1, 10, 20, 30])
        {
            let mut bad = good.clone();
            bad[at] ^= 1 << (at % 8);
            std::fs::write(&path, &bad).unwrap();
            let e = records(&path, SEAL).unwrap_err().to_string();
            assert!(e.contains("f.bin"), "byte {at}: {e}");
        }
        // a flipped bit of the version is damage, not another format (before: "a run file
        // of format 3; this floe reads format 2"), while a whole file of another format,
        // its checksum right, is named as such
        for bit in 0..16 {
            let mut bad = good.clone();
            bad[8 + bit / 8] ^= 1 << (bit % 8);
            std::fs::write(&path, &bad).unwrap();
            let e = records(&path, SEAL).unwrap_err().to_string();
            assert!(
                e.contains("checksum does not match") && !e.contains("this floe reads format"),
                "bit {bit}: {e}"
            );
            let n = bad.len() - 8;
            let sum = xxhash_rust::xxh3::xxh3_64(&bad[..n]);
            bad[n..].copy_from_slice(&sum.to_le_bytes());
            std::fs::write(&path, &bad).unwrap();
            let e = records(&path, SEAL).unwrap_err().to_string();
            assert!(e.contains("this floe reads format"), "bit {bit}: {e}");
        }
        // cut short anywhere, or extended
        for len in [0, 10, 63, 64, 79, 80, 100, good.len() - 16, good.len() - 1] {
            std::fs::write(&path, &good[..len]).unwrap();
            assert!(records(&path, SEAL).is_err(), "{len} bytes");
        }
        // a few bytes cut off the end: what is read as the trailer is records, and no count
        // read there is quoted
        std::fs::write(&path, &good[..good.len() - 3]).unwrap();
        let e = records(&path, SEAL).unwrap_err().to_string();
        assert!(
            e.contains("do not end in the trailer of a whole file") && !e.contains("counts"),
            "{e}"
        );
        let mut longer = good.clone();
        longer.extend_from_slice(&[0; 5]);
        std::fs::write(&path, &longer).unwrap();
        assert!(records(&path, SEAL).is_err());
        // the right file in the wrong place
        std::fs::write(&path, &good).unwrap();
        for other in [
            Seal { layer: 8, ..SEAL },
            Seal { worker: 2, ..SEAL },
            Seal { run: 1, ..SEAL },
            Seal {
                kind: *b"LAYR",
                ..SEAL
            },
            Seal { width: 8, ..SEAL },
        ] {
            let e = records(&path, other).unwrap_err().to_string();
            assert!(e.contains("f.bin") && e.contains("not used"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Files larger than the reader's buffer (a layer of millions of positions) read back
    /// record for record.
    #[test]
    fn large_files_read_back_whole() {
        let dir = folder("large");
        let path = dir.join("l.bin");
        let mut w = SealedWriter::begin(&path, SEAL).unwrap();
        let n = 700_000u64;
        for i in 0..n {
            w.record(&(i * 31).to_le_bytes()[..5]).unwrap();
        }
        w.finish().unwrap();
        let mut r = SealedReader::open(&path, SEAL).unwrap();
        assert_eq!(r.count(), n);
        let mut buf = vec![0u8; 5 * 4096];
        let mut i = 0u64;
        loop {
            let got = r.read(&mut buf).unwrap();
            if got == 0 {
                break;
            }
            for c in buf[..got].chunks_exact(5) {
                let mut x = [0u8; 8];
                x[..5].copy_from_slice(c);
                assert_eq!(u64::from_le_bytes(x), i * 31, "record {i}");
                i += 1;
            }
        }
        assert_eq!(i, n);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn files_of_bytes_are_checked_whole() {
        let dir = folder("bytes");
        let path = dir.join("c.bin");
        let seal = Seal { width: 1, ..SEAL };
        write_sealed(&path, seal, b"{\"layer\": 3}").unwrap();
        assert_eq!(read_sealed(&path, seal).unwrap(), b"{\"layer\": 3}");
        write_sealed(&path, seal, b"").unwrap();
        assert_eq!(read_sealed(&path, seal).unwrap(), b"");
        write_sealed(&path, seal, b"{\"layer\": 3}").unwrap();
        let mut bad = std::fs::read(&path).unwrap();
        bad[HEAD as usize + 11] = b'4';
        std::fs::write(&path, &bad).unwrap();
        let e = read_sealed(&path, seal).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        std::fs::write(&path, b"FLOELAYR\x05").unwrap();
        assert!(read_sealed(&path, seal).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
