//! Memory: what the process holds, what the machine has left, the default budget, memory
//! sizes read and written in words, files written whole or not at all, and what long runs
//! trust: their identity and lock ([`RunIdentity`], [`Lock`]) and their checksummed files
//! ([`SealedWriter`], [`SealedReader`]).
//!
//! Every search and enumeration stops cleanly with [`crate::search::LimitKind::MaxMemory`]
//! once the process holds more than [`crate::search::Limits::max_memory`]; the figures come
//! from here. On systems without `/proc` the readings are `None` and memory goes unwatched.

use crate::error::Error;
use std::path::Path;

mod run;
mod sealed;
mod set;
pub use run::{digest_hex, host_name, Holder, Lock, RunIdentity, LOCK_FILE};
pub use sealed::{
    read_foreign, read_sealed, write_sealed, Seal, SealedReader, SealedWriter, MAGIC,
};
pub use set::FileSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Memory held by this process now (its resident set), if the system tells.
pub fn resident_bytes() -> Option<u64> {
    proc_kib("/proc/self/status", "VmRSS:")
}

/// The most memory this process has held at once (Linux: `VmHWM`), if the system tells.
pub fn peak_resident_bytes() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:")
}

/// Memory the machine can give without swapping (Linux: `MemAvailable`), if it tells.
pub fn available_bytes() -> Option<u64> {
    proc_kib("/proc/meminfo", "MemAvailable:")
}

/// The memory budget when none is given: three quarters of what the machine lets this
/// process have when floe starts ([`machine_bytes`]: the memory available, the cgroup's limit,
/// the address space `ulimit -v` leaves; the rest is headroom for the last doubling of a
/// table and for the system), or `None` (unwatched) where the system says none of them.
pub fn default_budget() -> Option<u64> {
    static BUDGET: OnceLock<Option<u64>> = OnceLock::new();
    *BUDGET.get_or_init(|| machine_bytes().map(|b| b / 4 * 3))
}

/// A budget of `bytes` in words: `the memory budget of 1.5 GiB`, with where it comes from
/// when it is the default (`(three quarters of the memory available)`) or the machine's own
/// limit.
pub fn budget_words(bytes: u64) -> String {
    let why = match machine_limit() {
        Some((_, what)) if default_budget() == Some(bytes) => {
            format!(" (three quarters of {what})")
        }
        Some((m, what)) if m == bytes => format!(" ({what})"),
        _ => String::new(),
    };
    format!("the memory budget of {}{why}", human_bytes(bytes))
}

/// The most memory this process can have, as the machine sets it when floe starts: the least
/// of the memory available (`MemAvailable`), what the process's cgroup may still use (its
/// `memory.max` less its `memory.current`: what a batch system's job gets) and the address
/// space left under `ulimit -v` (`RLIMIT_AS` less what the process has mapped, with room for
/// its threads); `None` where the system says none of them.
pub fn machine_bytes() -> Option<u64> {
    machine_limit().map(|(b, _)| b)
}

/// [`machine_bytes`] with what sets it, in words (`the memory available`, `the cgroup's
/// limit`, `the address space ulimit -v leaves`).
pub fn machine_limit() -> Option<(u64, &'static str)> {
    static AT_START: OnceLock<Option<(u64, &'static str)>> = OnceLock::new();
    *AT_START.get_or_init(|| {
        [
            (available_bytes(), "the memory available"),
            (cgroup_room(), "what the cgroup's memory limit leaves"),
            (address_room(), "the address space ulimit -v leaves"),
        ]
        .into_iter()
        .filter_map(|(b, why)| b.map(|b| (b, why)))
        .min_by_key(|&(b, _)| b)
    })
}

/// Address space kept free under `ulimit -v` for what a run maps beside its arrays: thread
/// stacks and the allocator's own reserves.
pub const ADDRESS_HEADROOM: u64 = 96 << 20;

/// The address space this process may map (`ulimit -v`, `RLIMIT_AS`), when it is limited.
pub fn address_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit fills the struct it is given
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } != 0
            || r.rlim_cur == libc::RLIM_INFINITY
        {
            return None;
        }
        #[allow(clippy::unnecessary_cast)]
        Some(r.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The address space this process has mapped (Linux: `VmSize`), if the system tells.
pub fn address_bytes() -> Option<u64> {
    proc_kib("/proc/self/status", "VmSize:")
}

/// The address space left under `ulimit -v`, less [`ADDRESS_HEADROOM`].
fn address_room() -> Option<u64> {
    let limit = address_limit()?;
    let mapped = address_bytes().unwrap_or(0);
    Some(
        limit
            .saturating_sub(mapped)
            .saturating_sub(ADDRESS_HEADROOM),
    )
}

/// [`address_bytes`] read at most every 50 ms, as [`resident_recent`].
fn address_recent() -> u64 {
    static READ_AT: AtomicU64 = AtomicU64::new(u64::MAX);
    static VALUE: AtomicU64 = AtomicU64::new(0);
    recently(&READ_AT, &VALUE, address_bytes)
}

/// Whether the address space mapped has come within [`ADDRESS_HEADROOM`] of `ulimit -v`: the
/// next large allocation would fail. Cheap enough for the loops that watch a budget.
pub fn address_exhausted() -> bool {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    match *LIMIT.get_or_init(address_limit) {
        Some(limit) => {
            let out = address_recent().saturating_add(ADDRESS_HEADROOM) > limit;
            if out {
                refused(2);
            }
            out
        }
        None => false,
    }
}

/// Where the cgroup file system is (`/sys/fs/cgroup`; `FLOE_CGROUP_ROOT` names another, for
/// the tests).
fn cgroup_root() -> std::path::PathBuf {
    std::env::var_os("FLOE_CGROUP_ROOT").map_or_else(|| "/sys/fs/cgroup".into(), Into::into)
}

/// What this process's cgroup may still use: the least, along its path, of `memory.max` less
/// `memory.current` (cgroup v2), or `memory.limit_in_bytes` less `memory.usage_in_bytes`
/// (v1); `None` when no limit is set or the system does not tell.
pub fn cgroup_room() -> Option<u64> {
    let root = cgroup_root();
    let text = std::fs::read_to_string(std::env::var_os("FLOE_CGROUP_ROOT").map_or_else(
        || "/proc/self/cgroup".into(),
        |r| std::path::PathBuf::from(r).join("self"),
    ))
    .ok()?;
    let number = |p: &Path| -> Option<u64> { std::fs::read_to_string(p).ok()?.trim().parse().ok() };
    let mut best: Option<u64> = None;
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (dir, max, current) = if controllers.is_empty() {
            (root.clone(), "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                root.join("memory"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        // the limit of every cgroup from this one up to the root holds
        let mut at = dir.join(path.trim_start_matches('/'));
        loop {
            if let Some(limit) = number(&at.join(max)).filter(|&l| l < 1 << 60) {
                let used = number(&at.join(current)).unwrap_or(0);
                let room = limit.saturating_sub(used);
                best = Some(best.map_or(room, |b| b.min(room)));
            }
            if at == dir || !at.pop() || !at.starts_with(&dir) {
                break;
            }
        }
    }
    best
}

/// The allocator of a program has met an allocation it could not make and answered it from
/// its reserve: every search stops now ([`crate::search::LimitKind::MaxMemory`]), so that the
/// run ends with its report instead of an abort. (It allocates nothing: the allocator calls
/// it.)
pub fn note_out_of_memory() {
    refused(1);
}

/// Whether an allocation was refused ([`note_out_of_memory`]) in the last two seconds: a
/// search checking its limits stops. The time bound lets a process that goes on (the
/// server, a Python session) run its next searches once the memory is back.
pub fn out_of_memory() -> bool {
    let r = REFUSED.load(Ordering::Relaxed);
    r & 3 == 1 && millis().saturating_sub(r >> 2) < 2_000
}

/// What stopped a run for memory other than its budget, in words after "stopped by", if
/// anything did in the last minute: an allocation the system refused, or the address space
/// `ulimit -v` leaves.
pub fn refused_by() -> Option<&'static str> {
    let r = REFUSED.load(Ordering::Relaxed);
    if r == 0 || millis().saturating_sub(r >> 2) >= 60_000 {
        return None;
    }
    match r & 3 {
        1 => Some("the system refusing memory"),
        _ => Some("ulimit -v, the address-space limit"),
    }
}

/// Notes memory refused now, for `reason` (1: an allocation, 2: the address space).
fn refused(reason: u64) {
    REFUSED.store(millis() << 2 | reason, Ordering::Relaxed);
}

/// When memory was last refused, in milliseconds of [`millis`], and why (the two low bits, as
/// [`refused`] takes them); 0: never.
static REFUSED: AtomicU64 = AtomicU64::new(0);

/// Milliseconds since the first time this process asked (monotonic; allocates nothing).
fn millis() -> u64 {
    epoch().elapsed().as_millis() as u64
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// `n` zeroed words, or `None` when they cannot be had (the memory is given by the system as
/// it is touched, as `vec![0; n]` does; a failure is a clean stop, not an abort).
pub fn zeroed_words(n: usize) -> Option<Box<[u64]>> {
    if n == 0 {
        return Some(Vec::new().into_boxed_slice());
    }
    let layout = std::alloc::Layout::array::<u64>(n).ok()?;
    // SAFETY: the layout has a size (n > 0); a non-null pointer is `n` zeroed words that the
    // box owns and frees with this layout
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut u64;
        if p.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)))
    }
}

/// [`resident_bytes`] read at most every 50 ms, however often it is asked for, from any
/// thread: cheap enough for the inner loops that watch a budget.
pub fn resident_recent() -> u64 {
    static READ_AT: AtomicU64 = AtomicU64::new(u64::MAX);
    static VALUE: AtomicU64 = AtomicU64::new(0);
    recently(&READ_AT, &VALUE, resident_bytes)
}

/// `read()`, read at most every 50 ms whoever asks, its last reading kept in `value`.
fn recently(read_at: &AtomicU64, value: &AtomicU64, read: fn() -> Option<u64>) -> u64 {
    const EVERY: Duration = Duration::from_millis(50);
    let now = epoch().elapsed().as_nanos() as u64;
    let last = read_at.load(Ordering::Relaxed);
    if last == u64::MAX || now.saturating_sub(last) >= EVERY.as_nanos() as u64 {
        read_at.store(now, Ordering::Relaxed);
        if let Some(b) = read() {
            value.store(b, Ordering::Relaxed);
        }
    }
    value.load(Ordering::Relaxed)
}

fn proc_kib(file: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Bytes in binary units, as messages and reports show them: `512 B`, `1.5 KiB`, `8.0 GiB`.
///
/// ```
/// assert_eq!(floe::mem::human_bytes(3 << 30), "3.0 GiB");
/// ```
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

/// The smallest memory budget [`parse_memory`] accepts: 64 MiB (floe itself holds a few).
pub const MIN_BUDGET: u64 = 64 << 20;
/// The largest memory budget [`parse_memory`] accepts: 64 TiB.
pub const MAX_BUDGET: u64 = 64 << 40;

/// Parses a memory size as every front end writes it: a number of GiB (`2`, `0.5`) or a
/// number with a unit, `K`, `M`, `G` or `T` (binary units; `KiB`, `MB`… read the same), from
/// [`MIN_BUDGET`] to [`MAX_BUDGET`].
///
/// ```
/// use floe::mem::parse_memory;
/// assert_eq!(parse_memory("2"), Ok(2 << 30));
/// assert_eq!(parse_memory("512M"), Ok(512 << 20));
/// assert!(parse_memory("0.0001").is_err());
/// ```
pub fn parse_memory(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a memory size (e.g. 8, 8G, 512M)"))?;
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "" | "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        u => return Err(format!("unknown unit '{u}' in '{s}': use K, M, G or T")),
    };
    let bytes = x * scale as f64;
    if !bytes.is_finite() || bytes < MIN_BUDGET as f64 || bytes > MAX_BUDGET as f64 {
        return Err(format!(
            "'{s}' is out of range: memory budgets go from {} to {}",
            human_bytes(MIN_BUDGET),
            human_bytes(MAX_BUDGET)
        ));
    }
    Ok(bytes as u64)
}

/// A file written in pieces, whole or not at all: into a temporary file beside it, then,
/// on [`WholeFile::finish`], flushed to disk and renamed into place (a file too large to
/// hold in memory, like a layer of an enumeration kept on disk). Dropped unfinished, it
/// removes its temporary file.
pub struct WholeFile {
    out: Option<std::io::BufWriter<std::fs::File>>,
    tmp: std::path::PathBuf,
    path: std::path::PathBuf,
}

impl WholeFile {
    /// Starts writing `path`.
    ///
    /// A run's files are written where they are named (a hard-linked copy of a work folder
    /// keeps its old files); outputs go through [`write_whole`] and [`FileSet`], which
    /// write through symbolic links and refuse hard links.
    pub fn begin(path: &Path) -> Result<WholeFile, Error> {
        let name = path
            .file_name()
            .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
        let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        let f = std::fs::File::create(&tmp).map_err(|source| Error::Io {
            path: tmp.display().to_string(),
            source,
        })?;
        // an existing file keeps its permissions
        if let Ok(m) = std::fs::metadata(path) {
            let _ = f.set_permissions(m.permissions());
        }
        Ok(WholeFile {
            // its writers hand it 64 KiB at a time (which then go straight to the file):
            // a larger buffer would only copy them once more, and a worker writes many
            // files at once (a bucket per segment of its visited bits on disk)
            out: Some(std::io::BufWriter::with_capacity(1 << 16, f)),
            tmp,
            path: path.to_path_buf(),
        })
    }
    /// The file it will be.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// Appends `bytes`.
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        self.out
            .as_mut()
            .expect("a file being written")
            .write_all(bytes)
    }
    /// Flushes, syncs and renames the file into place.
    pub fn finish(mut self) -> Result<(), Error> {
        let io = |source| Error::Io {
            path: self.path.display().to_string(),
            source,
        };
        let out = self.out.take().expect("a file being written");
        // on every failure before the rename (the last buffer not written for a full
        // disk, a sync that fails), the temporary file goes
        let done = out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)
            .and_then(|f| fault_point().and_then(|()| f.sync_all()))
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        if let Err(e) = done {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(io(e));
        }
        fault_point().map_err(io)?;
        sync_parent(&self.path).map_err(io)
    }
}

impl Drop for WholeFile {
    fn drop(&mut self) {
        if self.out.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A working file read and written in place at offsets: never an output. What it holds is
/// derived from files written whole (a run taken up again rebuilds it), so a killed run
/// that leaves it half-written loses nothing. Created all zeros.
pub struct ScratchFile {
    file: std::fs::File,
    path: std::path::PathBuf,
}

impl ScratchFile {
    /// Creates (or empties) `path` and sizes it to `len` zero bytes.
    pub fn zeros(path: &Path, len: u64) -> Result<ScratchFile, Error> {
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(io)?;
        file.set_len(len).map_err(io)?;
        Ok(ScratchFile {
            file,
            path: path.to_path_buf(),
        })
    }
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// Fills `buf` from `offset`.
    pub fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        self.file.seek(SeekFrom::Start(offset))?;
        self.file.read_exact(buf)
    }
    /// Writes `buf` at `offset`.
    pub fn write_at(&mut self, offset: u64, buf: &[u8]) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom, Write};
        self.file.seek(SeekFrom::Start(offset))?;
        self.file.write_all(buf)
    }
}

/// Writes a file whole or not at all: into a temporary file beside it, flushed to disk, then
/// renamed over it, so that a failed or killed run leaves the old file or none, never a
/// truncated one. Missing parent directories are created; special files (`/dev/null`,
/// `/dev/stdout`) are written as they are.
pub fn write_whole(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), Error> {
    let io = |source| Error::Io {
        path: path.display().to_string(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let path = &write_target(path)?;
    // what a floe killed while it wrote here left (its temporary file, a set half in place)
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        set::recover(dir);
    }
    set::recover_file(path);
    if path.exists() && !path.is_file() {
        if path.is_dir() {
            return Err(io(std::io::Error::other("it is a directory")));
        }
        return std::fs::write(path, bytes).map_err(io);
    }
    let tmp = write_beside(path, "tmp", bytes.as_ref()).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })?;
    fault_point().map_err(io)?;
    sync_parent(path).map_err(io)
}

/// Writes `bytes` to a temporary file beside `target` (`.NAME.PID.SUFFIX`), with the
/// permissions of the file it will replace, synced; its path. On failure nothing is left.
pub(crate) fn write_beside(
    target: &Path,
    suffix: &str,
    bytes: &[u8],
) -> std::io::Result<std::path::PathBuf> {
    use std::io::Write;
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = target.with_file_name(format!(".{name}.{}.{suffix}", std::process::id()));
    // an existing file keeps its permissions
    let keep = std::fs::metadata(target).ok().map(|m| m.permissions());
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        if let Some(p) = keep {
            f.set_permissions(p)?;
        }
        f.write_all(bytes)?;
        fault_point()?;
        f.sync_all()
    });
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The file that writing `path` whole replaces: `path` itself, or the file a symbolic link at
/// `path` names (followed link after link, as `cp` writes through a link), so that the link
/// stays a link and the file it names gets the new content. A file with other hard links is
/// refused: a new file renamed over one name would leave the others with the old content.
pub fn write_target(path: &Path) -> Result<std::path::PathBuf, Error> {
    let io = |p: &Path, source| Error::Io {
        path: p.display().to_string(),
        source,
    };
    // what is not a regular file at the end of the links (`/dev/null`, `/dev/stdout`, a
    // pipe, a folder) is written, or refused, as it is named
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Ok(path.to_path_buf());
    }
    let mut at = path.to_path_buf();
    // Linux's own limit of links followed in one path
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&at).map_err(|e| io(&at, e))?;
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            Ok(m) => {
                #[cfg(unix)]
                {
                    use std::os::unix::fs::MetadataExt;
                    if m.is_file() && m.nlink() > 1 {
                        let named = if at == path {
                            String::new()
                        } else {
                            format!(" (which {} links to)", path.display())
                        };
                        return Err(Error::invalid(format!(
                            "{}{named} has {} hard links: floe writes a file whole, a new file \
                             renamed over it, which would leave the other links with the old \
                             content; remove the other links or write to another name",
                            at.display(),
                            m.nlink()
                        )));
                    }
                }
                #[cfg(not(unix))]
                let _ = m;
                return Ok(at);
            }
            // a new file, or the file a dangling link names: made where it is named
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(io(&at, e)),
        }
    }
    Err(io(
        path,
        std::io::Error::other("too many symbolic links (a loop?)"),
    ))
}

/// Syncs the folder of `path`, so that a file renamed into it stays there after a crash of
/// the machine (the rename is an entry of the folder, which has its own sync).
pub fn sync_parent(path: &Path) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    sync_dir(dir)
}

/// Syncs a folder's entries to disk (a no-op where folders cannot be opened as files).
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// A fault planted by the environment, for the fault-injection tests: `FLOE_FAULT=crash@N`
/// kills the process (as `kill -9` would) at the Nth point where a file becomes durable
/// (before and after each rename into place), and `FLOE_FAULT=full@N` makes that point
/// fail as a full disk does. Unset (always, outside tests), it costs an atomic increment.
pub(crate) fn fault_point() -> std::io::Result<()> {
    use std::sync::atomic::AtomicU64;
    static PLAN: OnceLock<Option<(bool, u64)>> = OnceLock::new();
    static SEEN: AtomicU64 = AtomicU64::new(0);
    let plan = PLAN.get_or_init(|| {
        let v = std::env::var("FLOE_FAULT").ok()?;
        let (what, at) = v.split_once('@')?;
        let at: u64 = at.trim().parse().ok()?;
        match what.trim() {
            "crash" => Some((true, at)),
            "full" => Some((false, at)),
            _ => None,
        }
    });
    let Some((crash, at)) = *plan else {
        return Ok(());
    };
    let n = SEEN.fetch_add(1, Ordering::SeqCst) + 1;
    if n == at {
        if crash {
            #[cfg(unix)]
            // SAFETY: the process sends itself SIGKILL, as a crash or `kill -9` would.
            unsafe {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
            std::process::abort();
        }
        // what a full disk says (ENOSPC)
        return Err(std::io::Error::from_raw_os_error(28));
    }
    Ok(())
}

/// Opens a file for reading (`-`: standard input) with the name messages give it; a
/// directory is refused by name.
pub(crate) fn open(path: &Path) -> Result<(Box<dyn std::io::Read>, String), Error> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(std::io::stdin().lock()), "<stdin>".into()));
    }
    let name = path.display().to_string();
    let io = |source| Error::Io {
        path: name.clone(),
        source,
    };
    if path.is_dir() {
        return Err(io(std::io::Error::other("it is a directory, not a file")));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    Ok((Box::new(file), name))
}

/// Reads a file of at most `cap` bytes (`-`: standard input); a longer one (or `/dev/zero`)
/// is refused after `cap + 1` bytes, with its name and the cap, instead of filling memory.
pub fn read_capped(path: &Path, cap: u64) -> Result<(Vec<u8>, String), Error> {
    use std::io::Read;
    let (reader, name) = open(path)?;
    let mut bytes = Vec::new();
    reader
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            path: name.clone(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(Error::invalid(format!(
            "{name}: the file is larger than {}, more than floe reads",
            human_bytes(cap)
        )));
    }
    Ok((bytes, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_are_plausible_here() {
        if let Some(r) = resident_bytes() {
            assert!(r > 1 << 20 && r < 1 << 40, "{r}");
            assert!(peak_resident_bytes().unwrap() >= r / 2);
            assert!(resident_recent() > 0);
        }
        if let Some(a) = available_bytes() {
            assert!(default_budget().unwrap() <= a);
        }
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_memory("8"), Ok(8 << 30));
        assert_eq!(parse_memory("1.5G"), Ok(3 << 29));
        assert_eq!(parse_memory("64M"), Ok(64 << 20));
        assert_eq!(parse_memory("65536k"), Ok(64 << 20));
        assert_eq!(parse_memory("2 GiB"), Ok(2 << 30));
        assert_eq!(parse_memory("1T"), Ok(1 << 40));
        for bad in [
            "0", "0.0001", "-1", "NaN", "inf", "1e300", "3 weeks", "", "1P",
        ] {
            assert!(parse_memory(bad).is_err(), "{bad}");
        }
        assert!(parse_memory("0.0001").unwrap_err().contains("64.0 MiB"));
    }

    #[test]
    fn files_are_written_whole() {
        let dir = std::env::temp_dir().join(format!("floe-mem-{}", std::process::id()));
        let f = dir.join("sub/x.txt");
        write_whole(&f, "one").unwrap();
        write_whole(&f, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "two");
        write_whole(Path::new("/dev/null"), "x").unwrap();
        assert!(write_whole(&dir, "x")
            .unwrap_err()
            .to_string()
            .contains("directory"));
        // nothing left beside it
        assert_eq!(std::fs::read_dir(dir.join("sub")).unwrap().count(), 1);
        let (b, _) = read_capped(&f, 3).unwrap();
        assert_eq!(b, b"two");
        assert!(read_capped(&f, 2)
            .unwrap_err()
            .to_string()
            .contains("larger than 2 B"));
        assert!(read_capped(&dir, 10).is_err());
        if Path::new("/dev/zero").exists() {
            assert!(read_capped(Path::new("/dev/zero"), 1 << 20).is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
