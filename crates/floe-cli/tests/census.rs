//! `floe census pushpush` through a work directory: one file per layer (number of blocks),
//! --resume, --layers; the census equals the one run in one go.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A temporary directory, removed with its files when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let t = Temp::new(name);
        let _ = std::fs::remove_dir_all(&t.0);
        TempDir(t.0.clone())
    }
    fn path(&self) -> String {
        path_str(&self.0)
    }
    fn layer_files(&self) -> usize {
        layer_files(&self.0)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn layer_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with("layer-") && name.ends_with(".json")
            })
            .count()
    })
}

/// The census document without what depends on the run (time, memory).
fn figures(mut doc: Value) -> Value {
    let o = doc.as_object_mut().expect("an object");
    for key in ["seconds", "peak_memory_bytes", "table_bytes"] {
        o.remove(key);
    }
    doc
}

fn census(line: &str, dir: Option<&TempDir>, code: i32) -> Run {
    let mut args = words(line);
    let path;
    if let Some(d) = dir {
        path = d.path();
        args.extend(["--work-dir", path.as_str()]);
    }
    floe(&args).code(code)
}

#[test]
fn a_census_through_a_work_dir_equals_the_one_in_one_go() {
    let line = "census pushpush --rows 4 --cols 4 --json";
    let plain = figures(census(line, None, 0).json());
    let dir = TempDir::new("census-4x4");
    let kept = figures(census(line, Some(&dir), 0).json());
    assert_eq!(kept, plain);
    assert_eq!(dir.layer_files(), 16);
    // the directory is not taken again without --resume
    let refused = census(line, Some(&dir), 2);
    assert!(refused.stderr.contains("--resume"), "{}", refused.stderr);
    // with --resume and every layer there, the census is merged from the files alone
    let merged = figures(census(&format!("{line} --resume"), Some(&dir), 0).json());
    assert_eq!(merged, plain);
    // a census of other options refuses the files
    let other = census(
        "census pushpush --rows 4 --cols 4 --k 2 --json --resume",
        Some(&dir),
        2,
    );
    assert!(
        other.stderr.contains("belongs to a census of"),
        "{}",
        other.stderr
    );
}

#[test]
fn some_layers_then_resume_equals_the_census_in_one_go() {
    for line in [
        "census pushpush --rows 3 --cols 5 --json",
        "census pushpush --rows 3 --cols 3 --difficulty --json",
    ] {
        let plain = figures(census(line, None, 0).json());
        let dir = TempDir::new("census-some");
        let part = census(&format!("{line} --layers 0,1,2,3"), Some(&dir), 0).json();
        assert_eq!(part["complete"], false);
        assert_eq!(part["layers_done"], serde_json::json!([0, 1, 2, 3]));
        assert_eq!(dir.layer_files(), 4);
        // more layers into the same directory need --resume; a range is fine
        let more = census(&format!("{line} --layers 4-6 --resume"), Some(&dir), 0).json();
        assert_eq!(more["complete"], false);
        assert_eq!(dir.layer_files(), 7);
        let rest = figures(census(&format!("{line} --resume"), Some(&dir), 0).json());
        assert_eq!(rest, plain, "{line}");
    }
    // a layer the board does not have
    let dir = TempDir::new("census-bad-layer");
    let bad = census(
        "census pushpush --rows 3 --cols 3 --layers 9",
        Some(&dir),
        2,
    );
    assert!(bad.stderr.contains("--layers 9"), "{}", bad.stderr);
    // --layers and --resume need --work-dir
    floe(&words("census pushpush --rows 3 --cols 3 --resume")).code(2);
    floe(&words("census pushpush --rows 3 --cols 3 --layers 0")).code(2);
}

#[test]
fn a_census_killed_mid_run_resumes_to_the_same_figures() {
    let line = "census pushpush --rows 4 --cols 5 --json";
    let plain = figures(census(line, None, 0).json());
    let dir = TempDir::new("census-killed");
    let path = dir.path();
    let mut args = words(line);
    args.extend(["--work-dir", path.as_str()]);
    let mut child = std::process::Command::new(FLOE)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the floe binary runs");
    // stop it once some layers are written (or when it has finished anyway)
    let t0 = Instant::now();
    while dir.layer_files() < 12 && t0.elapsed() < Duration::from_secs(120) {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    let written = dir.layer_files();
    assert!(written >= 1, "no layer written");
    let resumed = figures(census(&format!("{line} --resume"), Some(&dir), 0).json());
    assert_eq!(resumed, plain, "resumed after {written} layers");
    assert_eq!(dir.layer_files(), 20);
}
