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
                name.starts_with("layer-") && name.ends_with(".bin")
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

/// Rewrites a census layer file with its figures edited and its checksum made right again
/// (what a tool that edits the file, or a bug, would leave).
fn edit_layer(path: &Path, edit: impl Fn(&mut Value)) {
    let (seal, payload) = floe::mem::read_foreign(path).expect("a whole layer file");
    let mut v: Value = serde_json::from_slice(&payload).unwrap();
    edit(&mut v["layer"]);
    floe::mem::write_sealed(path, seal, &serde_json::to_vec(&v).unwrap()).unwrap();
}

/// A census's layer files damaged, edited, moved, deleted: resumed, the census either gives
/// the figures of the census in one go or refuses, naming the file (before: an edited
/// histogram gave 199,229,441 boards for 4×5, which has exactly 20 · 19 · 2^19 =
/// 199,229,440).
#[test]
fn census_layers_damaged_or_edited_are_refused_never_merged() {
    let line = "census pushpush --rows 4 --cols 5 --json";
    let plain = figures(census(line, None, 0).json());
    assert_eq!(u(&plain["boards"]), 20 * 19 * (1 << 19));
    let dir = TempDir::new("census-edited");
    census(line, Some(&dir), 0);
    let saved: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let restore = || {
        for (p, b) in &saved {
            std::fs::write(p, b).unwrap();
        }
    };
    let layer = |k: usize| dir.0.join(format!("layer-{k:02}.bin"));
    let resume = format!("{line} --resume");
    type Damage = Box<dyn Fn()>;
    let (l9, l8) = (layer(9), layer(8));
    let cases: Vec<(&str, Damage)> = vec![
        (
            "one more unsolvable board",
            Box::new(move || {
                edit_layer(&l9, |l| l["unsolvable"] = (u(&l["unsolvable"]) + 1).into())
            }),
        ),
        ("boards moved between pushes", {
            let l = layer(9);
            Box::new(move || {
                edit_layer(&l, |l| {
                    let a = u(&l["by_pushes"][0]);
                    l["by_pushes"][0] = (a - 1).into();
                    l["by_pushes"][1] = (u(&l["by_pushes"][1]) + 1).into();
                    l["positions"] = (u(&l["positions"]) + 1).into();
                })
            })
        }),
        ("a bit flipped", {
            let l = layer(9);
            Box::new(move || {
                let mut b = std::fs::read(&l).unwrap();
                b[200] ^= 0x20;
                std::fs::write(&l, b).unwrap();
            })
        }),
        ("cut short", {
            let l = layer(3);
            Box::new(move || {
                let b = std::fs::read(&l).unwrap();
                std::fs::write(&l, &b[..b.len() - 20]).unwrap();
            })
        }),
        ("copied over another", {
            let (from, to) = (l8.clone(), layer(9));
            Box::new(move || {
                std::fs::copy(&from, &to).unwrap();
            })
        }),
    ];
    for (what, damage) in &cases {
        restore();
        damage();
        let r = census(&resume, Some(&dir), 2);
        assert!(r.stderr.contains("layer-0"), "{what}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{what}: {}", r.stdout);
    }
    // a deleted layer is computed again
    restore();
    std::fs::remove_file(layer(5)).unwrap();
    assert_eq!(figures(census(&resume, Some(&dir), 0).json()), plain);
}

/// A second census into a folder in use is refused with the first's process; a layer file
/// of floe before checksums is refused too.
#[test]
fn a_census_folder_in_use_or_of_an_older_floe_is_refused() {
    let dir = TempDir::new("census-in-use");
    let held = floe::mem::Lock::acquire(&dir.0, "census pushpush").unwrap();
    let r = census("census pushpush --rows 3 --cols 3 --json", Some(&dir), 2);
    assert!(r.stderr.contains("in use by another run"), "{}", r.stderr);
    drop(held);
    census("census pushpush --rows 3 --cols 3 --json", Some(&dir), 0);
    std::fs::write(dir.0.join("layer-00.json"), "{\"format\": 1}").unwrap();
    let r = census(
        "census pushpush --rows 3 --cols 3 --json --resume",
        Some(&dir),
        2,
    );
    assert!(r.stderr.contains("older floe"), "{}", r.stderr);
}

/// `--timeout` holds within a second whatever the census does (before: `--timeout 1` took
/// 1.87 s on 5×5, 2.4 s with `--difficulty` and up to 3.9 s on two workers with a work
/// directory: each layer counted its own timeout, and the clock was read between push
/// steps only).
#[test]
fn the_census_holds_its_timeout_within_a_second() {
    let dir = TempDir::new("census-timeout");
    for more in [
        "",
        " --difficulty",
        " --workers 2 --work-dir {}",
        " --work-dir {}",
        " --work-dir {} --resume",
    ] {
        if !more.contains("--resume") {
            let _ = std::fs::remove_dir_all(&dir.0);
        }
        let line = format!("census pushpush --rows 5 --cols 5 --timeout 1{more}");
        let d = dir.path();
        let args = if more.contains("{}") {
            words_with(&line, &[&d])
        } else {
            words(&line)
        };
        let t = Instant::now();
        let r = floe(&args).code(1);
        let took = t.elapsed();
        assert!(took < Duration::from_millis(2000), "{line}: {took:?}");
        assert!(r.stderr.contains("stopped by --timeout"), "{}", r.stderr);
    }
}
