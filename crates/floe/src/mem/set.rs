//! Several files of one result written as a set ([`FileSet`]): `floe hardest --out`'s levels,
//! `floe census --svg`'s pictures, an experiment's figures, a profile's picture and table.

use super::{fault_point, sync_parent, write_target};
use crate::error::Error;
use std::path::{Path, PathBuf};

/// Files of one result written as a set: each into a temporary file beside the file it will
/// be ([`write_target`]'s: the file a symbolic link names), nothing in place until every one
/// is written and synced; then [`FileSet::commit`] renames them into place one after another,
/// each file replaced kept under a second name (a hard link) until all are in place and put
/// back if one cannot be, and removes the files of an earlier set that the new one does not
/// have. A failure or an interrupt leaves every old file as it was and no temporary file
/// behind; only a crash between the renames, a moment, can leave some new files beside old
/// ones (each file is whole either way).
#[derive(Default)]
pub struct FileSet {
    /// (temporary file, the file it will be, the name it was asked by)
    staged: Vec<(PathBuf, PathBuf, PathBuf)>,
    /// The folders put in order already ([`recover`]).
    recovered: Vec<PathBuf>,
}

/// Puts in order what a set written into `dir` by a process that is gone left there: the
/// files a commit had replaced when it was killed are put back (`.NAME.PID.set.old` over
/// NAME: the old set again, whole), its temporary files removed. A set of a live process is
/// left alone.
pub fn recover(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix('.') else {
            continue;
        };
        // a set's backups and temporary files (names only floe gives)
        let (stem, old) = if let Some(r) = rest.strip_suffix(".set.old") {
            (r, true)
        } else if let Some(r) = rest.strip_suffix(".set.tmp") {
            (r, false)
        } else {
            continue;
        };
        let Some((file, pid)) = stem.rsplit_once('.') else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() || super::run::alive(pid) {
            continue;
        }
        let target = dir.join(file);
        // a backup that is still the file itself (killed before its rename) only goes
        let same = old && same_file(&e.path(), &target);
        let _ = if old && !same {
            std::fs::rename(e.path(), target)
        } else {
            std::fs::remove_file(e.path())
        };
    }
}

/// Removes the temporary files a killed `write_whole` of `target` left beside it
/// (`.NAME.PID.tmp` of a process that is gone; only that name's).
pub(crate) fn recover_file(target: &Path) {
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let head = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let pid = n
            .strip_prefix(&head)
            .and_then(|r| r.strip_suffix(".tmp"))
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(pid) = pid {
            if pid != std::process::id() && !super::run::alive(pid) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The system's lock of a folder (`flock` on it), held while a set is checked or put in place
/// there; none where the system has no such lock.
struct DirLock {
    _held: Option<std::fs::File>,
}

impl DirLock {
    fn take(dir: &Path) -> DirLock {
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            if let Ok(f) = std::fs::File::open(dir) {
                // SAFETY: flock on a descriptor this process owns; it waits for the holder
                unsafe {
                    libc::flock(f.as_raw_fd(), libc::LOCK_EX);
                }
                return DirLock { _held: Some(f) };
            }
        }
        let _ = dir;
        DirLock { _held: None }
    }
}

/// Whether `a` and `b` are one file (hard links of it).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

impl FileSet {
    /// An empty set.
    pub fn new() -> FileSet {
        FileSet::default()
    }
    /// How many files it holds.
    pub fn len(&self) -> usize {
        self.staged.len()
    }
    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.staged.is_empty()
    }
    /// The files, as they were asked for.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.staged.iter().map(|(_, _, p)| p.as_path())
    }
    /// Writes `bytes` for `path` into its temporary file, synced (missing folders are made).
    pub fn add(&mut self, path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), Error> {
        let io = |p: &Path, source| Error::Io {
            path: p.display().to_string(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Err(e) = std::fs::create_dir_all(dir) {
                // a link to a folder that is not there
                if let Ok(to) = std::fs::read_link(dir) {
                    return Err(Error::invalid(format!(
                        "{} is a symbolic link to {}, which does not exist: make that folder, \
                         or name another",
                        dir.display(),
                        to.display()
                    )));
                }
                return Err(io(path, e));
            }
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        // not while another floe puts its set in place there
        let lock = DirLock::take(dir);
        if !self.recovered.iter().any(|d| d == dir) {
            recover(dir);
            self.recovered.push(dir.to_path_buf());
        }
        let target = write_target(path)?;
        drop(lock);
        if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !self.recovered.iter().any(|d| d == dir) {
                let _lock = DirLock::take(dir);
                recover(dir);
                self.recovered.push(dir.to_path_buf());
            }
        }
        if target.is_dir() {
            return Err(io(path, std::io::Error::other("it is a directory")));
        }
        if self.staged.iter().any(|(_, t, _)| *t == target) {
            return Err(Error::Internal(format!(
                "{} is in the set twice",
                target.display()
            )));
        }
        let tmp =
            super::write_beside(&target, "set.tmp", bytes.as_ref()).map_err(|e| io(path, e))?;
        self.staged.push((tmp, target, path.to_path_buf()));
        Ok(())
    }
    /// Puts every file of the set in place and removes those `stale` gives (the files of an
    /// earlier set that this one does not hold; a file of the set among them stays), asked for
    /// while the folders are locked: a set another floe put there a moment before is seen.
    pub fn commit(mut self, stale: impl FnOnce() -> Vec<PathBuf>) -> Result<(), Error> {
        let staged = std::mem::take(&mut self.staged);
        // one floe at a time puts a set in place in a folder (two at once mixed their files)
        let mut dirs: Vec<PathBuf> = staged
            .iter()
            .filter_map(|(_, t, _)| t.parent().map(Path::to_path_buf))
            .collect();
        dirs.sort();
        dirs.dedup();
        let _locks: Vec<DirLock> = dirs.iter().map(|d| DirLock::take(d)).collect();
        let stale = stale();
        // the files replaced are kept under a second name until every new one is in place,
        // and put back if one cannot be
        let mut backups: Vec<Option<PathBuf>> = Vec::with_capacity(staged.len());
        let mut put = 0;
        let mut failed = None;
        for (tmp, target, asked) in &staged {
            let backup = target.with_file_name(format!(
                ".{}.{}.set.old",
                target
                    .file_name()
                    .map_or_else(|| "out".into(), |n| n.to_string_lossy()),
                std::process::id()
            ));
            let kept = if target.is_file() {
                let _ = std::fs::remove_file(&backup);
                match std::fs::hard_link(target, &backup) {
                    Ok(()) => Some(backup),
                    Err(source) => {
                        failed = Some((asked, source));
                        break;
                    }
                }
            } else {
                None
            };
            backups.push(kept);
            if let Err(source) = fault_point().and_then(|()| std::fs::rename(tmp, target)) {
                failed = Some((asked, source));
                break;
            }
            put += 1;
        }
        if let Some((asked, source)) = failed {
            for (i, (_, target, _)) in staged.iter().enumerate().take(put) {
                let _ = match &backups[i] {
                    Some(b) => std::fs::rename(b, target),
                    None => std::fs::remove_file(target),
                };
            }
            for b in backups.iter().skip(put).flatten() {
                let _ = std::fs::remove_file(b);
            }
            for (t, _, _) in &staged {
                let _ = std::fs::remove_file(t);
            }
            return Err(Error::Io {
                path: asked.display().to_string(),
                source,
            });
        }
        for b in backups.iter().flatten() {
            let _ = std::fs::remove_file(b);
        }
        let ours: Vec<&PathBuf> = staged.iter().map(|(_, t, _)| t).collect();
        for old in &stale {
            let gone = write_target(old).unwrap_or_else(|_| old.clone());
            if !ours.contains(&&gone) && gone.is_file() {
                std::fs::remove_file(&gone).map_err(|source| Error::Io {
                    path: old.display().to_string(),
                    source,
                })?;
            }
        }
        for (_, target, asked) in &staged {
            sync_parent(target).map_err(|source| Error::Io {
                path: asked.display().to_string(),
                source,
            })?;
        }
        Ok(())
    }
}

impl Drop for FileSet {
    /// A set dropped before its commit leaves no temporary file.
    fn drop(&mut self) {
        for (tmp, _, _) in &self.staged {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("floe-set-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn listing(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_set_replaces_the_old_one_whole_or_not_at_all() {
        let d = dir("whole");
        for (name, text) in [("a.svg", "old a"), ("b.svg", "old b"), ("c.svg", "old c")] {
            std::fs::write(d.join(name), text).unwrap();
        }
        // dropped before its commit: the old files stay, no temporary file
        let mut set = FileSet::new();
        set.add(&d.join("a.svg"), "new a").unwrap();
        set.add(&d.join("b.svg"), "new b").unwrap();
        drop(set);
        assert_eq!(listing(&d), ["a.svg", "b.svg", "c.svg"]);
        assert_eq!(std::fs::read_to_string(d.join("a.svg")).unwrap(), "old a");
        // committed: the new files in place, the old one the new set lacks gone
        let mut set = FileSet::new();
        set.add(&d.join("a.svg"), "new a").unwrap();
        set.add(&d.join("b.svg"), "new b").unwrap();
        assert_eq!(set.len(), 2);
        set.commit(|| vec![d.join("a.svg"), d.join("c.svg")])
            .unwrap();
        assert_eq!(listing(&d), ["a.svg", "b.svg"]);
        assert_eq!(std::fs::read_to_string(d.join("b.svg")).unwrap(), "new b");
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A set killed between its renames (before: new files beside old ones, hidden backups
    /// that made every later write refuse "2 hard links"): the next set there puts the old
    /// files back first and removes the dead set's temporary files.
    #[test]
    fn a_set_killed_between_its_renames_is_put_back_by_the_next() {
        let d = dir("killed");
        let dead = u32::MAX - 1;
        std::fs::write(d.join("a.svg"), "old a").unwrap();
        std::fs::write(d.join("b.svg"), "old b").unwrap();
        // the dead commit: a.svg replaced (its old kept as a backup), b.svg not yet
        std::fs::hard_link(d.join("a.svg"), d.join(format!(".a.svg.{dead}.set.old"))).unwrap();
        std::fs::remove_file(d.join("a.svg")).unwrap();
        std::fs::write(d.join("a.svg"), "dead a").unwrap();
        std::fs::write(d.join(format!(".b.svg.{dead}.set.tmp")), "dead b").unwrap();
        recover(&d);
        assert_eq!(listing(&d), ["a.svg", "b.svg"]);
        assert_eq!(std::fs::read_to_string(d.join("a.svg")).unwrap(), "old a");
        // and a set written there now is not refused for a hard link
        std::fs::hard_link(d.join("b.svg"), d.join(format!(".b.svg.{dead}.set.old"))).unwrap();
        let mut set = FileSet::new();
        set.add(&d.join("a.svg"), "new a").unwrap();
        set.add(&d.join("b.svg"), "new b").unwrap();
        set.commit(Vec::new).unwrap();
        assert_eq!(listing(&d), ["a.svg", "b.svg"]);
        assert_eq!(std::fs::read_to_string(d.join("b.svg")).unwrap(), "new b");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_written_through_and_hard_links_refused() {
        let d = dir("links");
        std::fs::write(d.join("real.svg"), "old").unwrap();
        std::os::unix::fs::symlink("real.svg", d.join("latest.svg")).unwrap();
        let mut set = FileSet::new();
        set.add(&d.join("latest.svg"), "new").unwrap();
        set.commit(Vec::new).unwrap();
        assert!(std::fs::symlink_metadata(d.join("latest.svg"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(d.join("real.svg")).unwrap(), "new");
        // write_whole too, and through a chain of links
        std::os::unix::fs::symlink("latest.svg", d.join("chain.svg")).unwrap();
        super::super::write_whole(&d.join("chain.svg"), "newer").unwrap();
        assert_eq!(
            std::fs::read_to_string(d.join("real.svg")).unwrap(),
            "newer"
        );
        assert!(std::fs::symlink_metadata(d.join("chain.svg"))
            .unwrap()
            .file_type()
            .is_symlink());
        // a hard link: refused, both names keep the old content
        std::fs::hard_link(d.join("real.svg"), d.join("hard.svg")).unwrap();
        let e = super::super::write_whole(&d.join("hard.svg"), "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("has 2 hard links"), "{e}");
        assert_eq!(
            std::fs::read_to_string(d.join("hard.svg")).unwrap(),
            "newer"
        );
        // a loop of links
        std::os::unix::fs::symlink("loop2", d.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", d.join("loop2")).unwrap();
        let e = super::super::write_whole(&d.join("loop1"), "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("too many symbolic links"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
