//! Bundles the level collections of `levels/` (every `.txt` file but the pictures of
//! `levels/images/`) into the binary for `floe serve`'s page: a new file there is served
//! without naming it in the code. The Zelda rooms come first (the page opens on them).

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

fn main() {
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
