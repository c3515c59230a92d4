//! What a long run is and who holds its folder: the run's identity, recorded in its files
//! and exchanged when its processes connect, and the lock that keeps a second live run out
//! of its work directory.

use crate::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// What a run computes and how it is laid out: two processes, or a checkpoint and the run
/// taking it up, belong to one run only when their identities are equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    /// The command (`space`, `reach`, `table space`, `census pushpush`).
    pub command: String,
    /// The game.
    pub game: String,
    /// The level's name ("" when the command has none).
    pub level: String,
    /// A digest of the level's text (XXH3-64, hex; "" when the command has none).
    pub level_digest: String,
    /// Everything else that decides the figures, by the flag that sets it (`--rows` → `4`).
    pub params: BTreeMap<String, String>,
    /// Processes of the run.
    pub processes: usize,
    /// Worker threads per process.
    pub workers: usize,
    /// The version of the run's file format.
    pub format: u32,
}

/// XXH3-64 of `bytes` as 16 hex digits.
pub fn digest_hex(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

impl RunIdentity {
    /// The identity of `command` on `game`.
    pub fn new(command: impl Into<String>, game: impl Into<String>) -> RunIdentity {
        RunIdentity {
            command: command.into(),
            game: game.into(),
            processes: 1,
            workers: 1,
            ..RunIdentity::default()
        }
    }

    /// With the level `name` whose text is `text`.
    pub fn level(mut self, name: impl Into<String>, text: &str) -> RunIdentity {
        self.level = name.into();
        self.level_digest = digest_hex(text.as_bytes());
        self
    }

    /// With a parameter, named by its flag.
    pub fn param(mut self, flag: impl Into<String>, value: impl ToString) -> RunIdentity {
        self.params.insert(flag.into(), value.to_string());
        self
    }

    /// With the layout: `processes` of `workers` worker threads each.
    pub fn layout(mut self, processes: usize, workers: usize) -> RunIdentity {
        self.processes = processes;
        self.workers = workers;
        self
    }

    /// With the file format's version.
    pub fn format(mut self, format: u32) -> RunIdentity {
        self.format = format;
        self
    }

    /// The identity as canonical bytes (JSON, keys in a fixed order).
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("an identity serialises")
    }

    /// The digest every file of the run carries.
    pub fn digest(&self) -> u64 {
        xxhash_rust::xxh3::xxh3_64(&self.to_bytes())
    }

    /// The digest of what is computed, whatever the layout (files that any layout may
    /// share, like a census's layers).
    pub fn job_digest(&self) -> u64 {
        RunIdentity {
            processes: 0,
            workers: 0,
            ..self.clone()
        }
        .digest()
    }

    /// One line: the command, the game, the level and the parameters.
    pub fn describe(&self) -> String {
        let mut s = format!("{} of {}", self.command, self.game);
        if !self.level.is_empty() {
            s.push_str(&format!(" {:?}", self.level));
        }
        for (k, v) in &self.params {
            s.push_str(&format!(" {k} {v}"));
        }
        s
    }

    /// Every difference between `self` (called `here`) and `other` (called `there`), each
    /// naming what differs: empty when they are one run.
    pub fn differences(&self, other: &RunIdentity, here: &str, there: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut diff = |what: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{what}: {a} {here}, {b} {there}"));
            }
        };
        diff("the command", self.command.clone(), other.command.clone());
        diff("the game", self.game.clone(), other.game.clone());
        if self.level != other.level {
            diff(
                "the level",
                format!("{:?}", self.level),
                format!("{:?}", other.level),
            );
        } else {
            diff(
                "the level's contents (digest)",
                self.level_digest.clone(),
                other.level_digest.clone(),
            );
        }
        let keys: std::collections::BTreeSet<&String> =
            self.params.keys().chain(other.params.keys()).collect();
        for k in keys {
            let v = |m: &BTreeMap<String, String>| {
                m.get(k).cloned().unwrap_or_else(|| "not given".into())
            };
            diff(k, v(&self.params), v(&other.params));
        }
        diff(
            "--processes",
            self.processes.to_string(),
            other.processes.to_string(),
        );
        diff(
            "--workers",
            self.workers.to_string(),
            other.workers.to_string(),
        );
        diff(
            "the file format",
            self.format.to_string(),
            other.format.to_string(),
        );
        out
    }
}

/// Who holds a lock: written in the lock file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// The process.
    pub pid: u32,
    /// The machine.
    pub host: String,
    /// When it took the lock (seconds since 1970, UTC).
    pub since: u64,
    /// What it runs.
    pub run: String,
}

impl Holder {
    fn me(run: &str) -> Holder {
        Holder {
            pid: std::process::id(),
            host: host_name(),
            since: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            run: run.to_string(),
        }
    }

    /// "process 123 on node7 since 2026-11-26 10:31:07 UTC (space of …)".
    pub fn describe(&self) -> String {
        format!(
            "process {} on {} since {} ({})",
            self.pid,
            self.host,
            utc(self.since),
            self.run
        )
    }
}

/// `secs` since 1970 as a UTC date and time.
fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// This machine's name ("localhost" when the system does not say).
pub fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: `buf` is writable for its length, which is passed.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if r == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            if end > 0 {
                return String::from_utf8_lossy(&buf[..end]).into_owned();
            }
        }
    }
    "localhost".into()
}

/// Whether process `pid` of this machine is running (`true` when the system cannot tell).
pub(crate) fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(p) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let r = unsafe { libc::kill(p, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// The lock of a work directory, held while the run lives: a file `lock` in it, locked by
/// the system (`flock`, released when the process ends however it ends) and holding who
/// holds it ([`Holder`]). A second live run is refused with the holder's process, machine
/// and start; a lock left by a process that is gone (killed, crashed) is stale and taken
/// over. Released, the file is emptied, never removed (removing it would let two runs lock
/// two different files of the same name).
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
    /// The stale holder it took over, if any.
    pub took_over: Option<Holder>,
    /// Whether the folder may only be read here (a shared results folder, a read-only file
    /// system): the lock is then shared, held only against a run writing there, and the run
    /// must not write (`read_only_refusal` says why when it would have to).
    pub read_only: bool,
}

/// The name of a work directory's lock file.
pub const LOCK_FILE: &str = "lock";

/// What the system's lock of a file answered.
enum Locking {
    Taken,
    Busy,
    /// The file system has no locks: the holder written in the file decides.
    Unsupported,
}

impl Lock {
    /// Locks `dir` (created when missing) for the run described by `run`. A folder this
    /// process may only read is locked shared ([`Lock::read_only`]): reading a finished run
    /// needs no write.
    pub fn acquire(dir: &Path, run: &str) -> Result<Lock, Error> {
        use std::io::{Read, Seek, Write};
        let path = dir.join(LOCK_FILE);
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.display().to_string(),
            source,
        })?;
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path);
        let (mut file, read_only) = match opened {
            Ok(f) => (f, false),
            Err(e) if may_only_read(&e) => match File::open(&path) {
                Ok(f) => (f, true),
                // no lock file and none can be made: the folder says what it is
                Err(_) => (File::open(dir).map_err(io)?, true),
            },
            Err(e) => return Err(io(e)),
        };
        let mut text = String::new();
        let locking = try_lock(&file, !read_only).map_err(io)?;
        let _ = file.read_to_string(&mut text);
        let holder: Option<Holder> = serde_json::from_str(text.trim()).ok();
        let here = host_name();
        let refuse = |h: Option<&Holder>, hint: String| {
            Error::invalid(format!(
                "{} is in use by another run: {}. Wait for it to end, or give another work \
                 directory{hint}",
                dir.display(),
                h.map_or_else(|| "its lock is held".to_string(), Holder::describe),
            ))
        };
        match locking {
            Locking::Busy => {
                let hint = match &holder {
                    Some(h) if h.host != here => format!(
                        " (if that run is over and {} is gone, remove {})",
                        h.host,
                        path.display()
                    ),
                    _ => String::new(),
                };
                return Err(refuse(holder.as_ref(), hint));
            }
            // the system's lock was free: whoever is written there is gone, whatever its
            // pid (a process of that number now is another one, after a restart)
            Locking::Taken => {}
            // without the system's locks, a live process of this machine still holds it
            Locking::Unsupported => {
                if let Some(h) = &holder {
                    if h.host == here && h.pid != std::process::id() && alive(h.pid) {
                        let hint = format!(
                            " (this file system has no locks; if process {} is not a floe \
                             run, remove {})",
                            h.pid,
                            path.display()
                        );
                        return Err(refuse(Some(h), hint));
                    }
                }
            }
        }
        if !read_only {
            let me = Holder::me(run);
            let line = serde_json::to_string(&me).expect("a holder serialises") + "\n";
            file.set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| file.write_all(line.as_bytes()))
                .and_then(|()| file.sync_all())
                .map_err(io)?;
        }
        Ok(Lock {
            file,
            path,
            took_over: holder.filter(|_| !read_only),
            read_only,
        })
    }

    /// Why a run in the folder of this lock, taken only to be read, cannot go on: `what`
    /// (`the run`, `the census`) is not finished, and going on writes there.
    pub fn read_only_refusal(&self, what: &str) -> Error {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        Error::invalid(format!(
            "{} may only be read here, and {what} there is not finished: going on writes its \
             next files there. Copy the folder to a place this user may write and --resume \
             there (a finished run is answered from a folder that may only be read)",
            dir.display()
        ))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // emptied: free; the system's lock goes with the file's closing
        if !self.read_only {
            let _ = self.file.set_len(0);
            let _ = self.file.sync_all();
        }
    }
}

/// Whether opening a file to write failed because this process may only read there.
fn may_only_read(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::PermissionDenied || e.raw_os_error() == Some(30)
    // EROFS
}

/// Takes the system's lock of `file` without waiting, `exclusive` or shared.
fn try_lock(file: &File, exclusive: bool) -> std::io::Result<Locking> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let how = if exclusive {
            libc::LOCK_EX
        } else {
            libc::LOCK_SH
        };
        // SAFETY: flock on a descriptor this process owns.
        let r = unsafe { libc::flock(file.as_raw_fd(), how | libc::LOCK_NB) };
        if r == 0 {
            return Ok(Locking::Taken);
        }
        let e = std::io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            return Ok(Locking::Busy);
        }
        if e.raw_os_error() == Some(libc::ENOLCK) || e.raw_os_error() == Some(libc::EOPNOTSUPP) {
            return Ok(Locking::Unsupported);
        }
        Err(e)
    }
    #[cfg(not(unix))]
    {
        let _ = (file, exclusive);
        Ok(Locking::Unsupported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_name_what_differs() {
        let a = RunIdentity::new("census pushpush", "pushpush")
            .param("--rows", 4)
            .param("--cols", 4)
            .layout(2, 1)
            .format(2);
        let b = RunIdentity::new("census pushpush", "pushpush")
            .param("--rows", 2)
            .param("--cols", 8)
            .layout(2, 2)
            .format(2);
        assert_eq!(
            a.differences(&a.clone(), "here", "there"),
            Vec::<String>::new()
        );
        let d = a.differences(&b, "here", "at process 1");
        assert_eq!(
            d,
            [
                "--cols: 4 here, 8 at process 1",
                "--rows: 4 here, 2 at process 1",
                "--workers: 1 here, 2 at process 1"
            ]
        );
        assert_ne!(a.digest(), b.digest());
        let c = RunIdentity {
            workers: 3,
            ..a.clone()
        };
        assert_ne!(a.digest(), c.digest());
        assert_eq!(a.job_digest(), c.job_digest());
        let l1 = RunIdentity::new("space", "ice").level("x", "$--\n");
        let l2 = RunIdentity::new("space", "ice").level("x", "-$-\n");
        assert_eq!(
            l1.differences(&l2, "here", "there").len(),
            1,
            "{:?}",
            l1.differences(&l2, "here", "there")
        );
        assert!(l1.differences(&l2, "here", "there")[0].contains("contents"));
    }

    #[test]
    fn dates_are_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(1_795_700_000), "2026-11-26 13:33:20 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00 UTC");
    }

    #[test]
    fn a_lock_keeps_a_second_run_out_and_a_stale_one_is_taken_over() {
        let dir = std::env::temp_dir().join(format!("floe-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = Lock::acquire(&dir, "space of ice").unwrap();
        assert!(first.took_over.is_none());
        // a second lock, even in this process, is refused and names the holder
        let e = Lock::acquire(&dir, "reach of ice")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("in use by another run"), "{e}");
        assert!(
            e.contains(&format!("process {}", std::process::id())),
            "{e}"
        );
        assert!(e.contains("space of ice"), "{e}");
        drop(first);
        // released: empty, and free
        assert_eq!(std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap(), "");
        let again = Lock::acquire(&dir, "space of ice").unwrap();
        assert!(again.took_over.is_none());
        drop(again);
        // a holder that is gone (no such process) left its name: stale, taken over
        let gone = Holder {
            pid: u32::MAX - 1,
            host: host_name(),
            since: 0,
            run: "space of ice".into(),
        };
        crate::mem::write_whole(&dir.join(LOCK_FILE), serde_json::to_string(&gone).unwrap())
            .unwrap();
        let taken = Lock::acquire(&dir, "space of ice").unwrap();
        assert_eq!(taken.took_over.as_ref(), Some(&gone));
        drop(taken);
        // a holder whose number a live process has now (after a restart; here process 1)
        // but whose system lock is free is stale all the same (before: "in use by another
        // run", one worker at a time)
        let reused = Holder { pid: 1, ..gone };
        crate::mem::write_whole(
            &dir.join(LOCK_FILE),
            serde_json::to_string(&reused).unwrap(),
        )
        .unwrap();
        let taken = Lock::acquire(&dir, "space of ice").unwrap();
        assert_eq!(taken.took_over.as_ref(), Some(&reused));
        assert!(!taken.read_only);
        drop(taken);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
