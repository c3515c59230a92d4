//! Bundles the level collections of `levels/` (every `.txt` file but the pictures of
//! `levels/images/`) into the binary for `floe serve`'s page: a new file there is served
//! without naming it in the code. The Zelda rooms come first (the page opens on them).
//!
//! Also digests the sources the binary is built from (`FLOE_SOURCES`): the processes of a
//! shared run compare it when they connect, so that two builds of one version number from
//! different sources (which may number or share positions differently) refuse each other
//! instead of adding up wrong figures.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() && p.file_name().is_some_and(|n| n != "images") {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// FNV-1a over the files' paths (relative to `base`) and contents, in path order: the same
/// on every machine and compiler for the same sources.
fn digest(base: &Path, mut files: Vec<PathBuf>) -> u64 {
    files.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in &files {
        let rel = f
            .strip_prefix(base)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        eat(rel.as_bytes());
        eat(&[0]);
        eat(&std::fs::read(f).unwrap_or_default());
        eat(&[0]);
    }
    h
}

fn main() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for c in ["floe", "floe-cli"] {
        let src = crates.join(c).join("src");
        println!("cargo:rerun-if-changed={}", src.display());
        sources(&src, &mut files);
        files.push(crates.join(c).join("Cargo.toml"));
    }
    files.push(crates.join("../Cargo.lock"));
    println!(
        "cargo:rustc-env=FLOE_SOURCES={:08x}",
        digest(&crates, files) >> 32
    );

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &mut files);
    let name = |p: &Path| {
        p.strip_prefix(&root)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    };
    files.sort_by_key(|p| (name(p) != "zelda.txt", name(p)));
    let mut code = String::from("&[\n");
    for p in &files {
        println!("cargo:rerun-if-changed={}", p.display());
        let abs = p.canonicalize().unwrap_or_else(|_| p.clone());
        let _ = writeln!(
            code,
            "    ({:?}, include_str!({:?})),",
            name(p),
            abs.display().to_string()
        );
    }
    code.push(']');
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bundled.rs");
    std::fs::write(out, code).expect("write the list of bundled levels");
}
