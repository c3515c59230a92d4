//! Bundles the level collections of the repository's `levels/` (every `.txt` file but the
//! pictures of `levels/images/`, as `floe serve` bundles them) into the Python package:
//! copies them to `python/floe/levels/`, which the wheel and `maturin develop` take with the
//! rest of the package and `floe.collections()` lists. The copies are git-ignored and kept in
//! step: a file changed in `levels/` is copied again, a file removed there is removed, a copy
//! removed is made again. Building from a tree without `levels/` (a source distribution)
//! keeps the copies it has.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The level files under `dir`, as paths relative to `root`.
fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for e in fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "images") {
                collect(root, &p, out)?;
            }
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p.strip_prefix(root).unwrap_or(&p).to_path_buf());
        }
    }
    Ok(())
}

/// Writes `to` as a copy of `from` unless it already is one, through a temporary file (two
/// builds at once never leave half a file), with `from`'s modification time: the copy is
/// never newer than the build that made it, so Cargo does not run this script again for it.
fn copy(from: &Path, to: &Path) -> io::Result<()> {
    let text = fs::read(from)?;
    if fs::read(to).is_ok_and(|t| t == text) {
        return Ok(());
    }
    if let Some(dir) = to.parent() {
        fs::create_dir_all(dir)?;
    }
    let tmp = to.with_extension(format!("txt.{}.tmp", std::process::id()));
    fs::write(&tmp, &text)?;
    fs::File::options()
        .write(true)
        .open(&tmp)?
        .set_modified(fs::metadata(from)?.modified()?)?;
    fs::rename(&tmp, to)
}

/// Removes the copies (and emptied folders) whose level file is gone.
fn prune(dir: &Path, dest: &Path, keep: &[PathBuf]) -> io::Result<()> {
    for e in fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            prune(&p, dest, keep)?;
            if fs::read_dir(&p)?.next().is_none() {
                fs::remove_dir(&p)?;
            }
        } else if p.extension().is_some_and(|x| x == "tmp") {
            // another build's copy on its way
        } else if !keep.iter().any(|k| dest.join(k) == p) {
            fs::remove_file(&p)?;
        }
    }
    Ok(())
}

fn bundle(root: &Path, dest: &Path) -> io::Result<()> {
    let mut files = Vec::new();
    collect(root, root, &mut files)?;
    files.sort();
    println!("cargo:rerun-if-changed={}", root.display());
    for f in &files {
        let (from, to) = (root.join(f), dest.join(f));
        copy(&from, &to)?;
        println!("cargo:rerun-if-changed={}", from.display());
        // a copy deleted (`git clean -X`) is missing, which makes Cargo run this again
        println!("cargo:rerun-if-changed={}", to.display());
    }
    if dest.is_dir() {
        prune(dest, dest, &files)?;
    }
    Ok(())
}

fn main() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here.join("../../levels");
    let dest = here.join("python/floe/levels");
    if !root.is_dir() {
        if !dest.is_dir() {
            println!(
                "cargo:warning=no level collections to bundle: neither {} nor {}",
                root.display(),
                dest.display()
            );
        }
        return;
    }
    if let Err(e) = bundle(&root, &dest) {
        panic!(
            "bundling the level collections of {} into {}: {e}",
            root.display(),
            dest.display()
        );
    }
}
