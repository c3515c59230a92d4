//! Integration tests of `floe solve --game icetower`: the JSON contract, the spec's figures,
//! human output with boards, `Game:` lines, exit codes and clear errors.
//!
//! Levels are read from `../shared/levels/qits-icetower/`; every run is checked for panic
//! text. The whole file runs in a few seconds in release mode.

use floe::games::icetower::{load, replay};
use floe::grid::Push;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const FLOE: &str = env!("CARGO_BIN_EXE_floe");

fn level(name: &str) -> String {
    let p = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/levels/qits-icetower"
    ))
    .join(name);
    p.to_str().unwrap().to_string()
}

struct Run {
    args: Vec<String>,
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn code(self, want: i32) -> Run {
        assert_eq!(
            self.code, want,
            "floe {:?}: exit {} (want {want})\nstdout:\n{}\nstderr:\n{}",
            self.args, self.code, self.stdout, self.stderr
        );
        self
    }
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "floe {:?}: not one JSON document ({e}):\n{}",
                self.args, self.stdout
            )
        })
    }
}

fn floe_with(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(FLOE)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("floe runs");
    if let Some(input) = stdin {
        let _ = child.stdin.take().unwrap().write_all(input);
    }
    let out = child.wait_with_output().unwrap();
    let run = Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        code: out.status.code().expect("an exit code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    for t in [&run.stdout, &run.stderr] {
        assert!(
            !t.contains("panicked"),
            "floe {:?} panicked:\n{t}",
            run.args
        );
    }
    run
}

fn floe(args: &[&str]) -> Run {
    floe_with(args, None)
}

/// A temporary level file, removed when dropped.
struct Temp(PathBuf);

impl Temp {
    fn with(name: &str, contents: &str) -> Temp {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!(
            "floe-icetower-test-{}-{n}-{name}",
            std::process::id()
        ));
        std::fs::write(&p, contents).unwrap();
        Temp(p)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn moves(doc: &Value) -> Vec<Push> {
    serde_json::from_value(doc["moves"].clone()).expect("moves are {row, col, dir}")
}

/// Solves `name` and checks the JSON contract; the moves replay on the library's rules.
fn solve_json(name: &str, extra: &[&str]) -> Value {
    let path = level(name);
    let mut args = vec!["solve", path.as_str(), "--game", "icetower", "--json"];
    args.extend_from_slice(extra);
    let doc = floe(&args).code(0).json();
    for key in [
        "level", "game", "solved", "status", "pushes", "moves", "states", "seconds",
    ] {
        assert!(doc.get(key).is_some(), "{name}: no {key:?} in {doc}");
    }
    assert_eq!(doc["game"], "icetower");
    assert_eq!(doc["level"], name);
    if doc["solved"] == true {
        let m = moves(&doc);
        assert_eq!(doc["pushes"].as_u64(), Some(m.len() as u64));
        let t = load(Path::new(&path)).unwrap();
        assert!(replay(&t, &m).unwrap().solved, "{name}: the moves replay");
        assert_eq!(doc["lower_bound"], doc["pushes"]);
    }
    doc
}

#[test]
fn spec_figures_through_the_binary() {
    for (name, want) in [("w21", 21), ("c99-2", 7), ("qits002", 8)] {
        for algo in ["astar", "bfs"] {
            let doc = solve_json(name, &["--algo", algo]);
            assert_eq!(doc["status"], "solved", "{name} {algo}");
            assert_eq!(doc["pushes"], want, "{name} {algo}");
            assert_eq!(doc["algorithm"], algo);
        }
    }
    let doc = solve_json("qits003", &[]);
    assert_eq!(doc["solved"], false);
    assert_eq!(doc["status"], "unsolvable");
    assert_eq!(doc["pushes"], Value::Null);
    assert_eq!(doc["moves"], Value::Array(vec![]));
    assert!(doc["states"].as_u64().unwrap() >= 1);
}

#[test]
fn moves_are_map_coordinates_of_the_pushed_block() {
    // qits002: the first push must be a block of row 6 (0-based, border included)
    let doc = solve_json("qits002", &["--algo", "idastar"]);
    let m = moves(&doc);
    assert_eq!(m.len(), 8);
    let t = load(Path::new(&level("qits002"))).unwrap();
    for p in &m {
        assert!(p.row < t.rows() && p.col < t.cols());
    }
    assert_eq!(m[0].row, 6);
}

#[test]
fn human_output_shows_every_board() {
    let r = floe(&["solve", &level("c99-2"), "--game", "icetower"]).code(0);
    assert!(
        r.stdout
            .starts_with("c99-2: 20×14 map, 2 ice blocks, 2 golden blocks, 6 fires\n"),
        "{}",
        r.stdout
    );
    // the default search of `floe solve` is breadth-first
    assert!(
        r.stdout
            .contains("solved (breadth-first search): 7 pushes at fewest"),
        "{}",
        r.stdout
    );
    for i in 1..=7 {
        assert!(
            r.stdout.contains(&format!("\n{i:>4}. (")),
            "push {i}:\n{}",
            r.stdout
        );
    }
    // the start board and one board per push, each 14 lines in the community notation
    let board_lines = r.stdout.lines().filter(|l| l.starts_with("    #")).count();
    assert_eq!(board_lines, 8 * 14, "{}", r.stdout);
    assert!(r.stdout.contains("puts out"));
    let r = floe(&["solve", &level("qits003"), "--game", "icetower"]).code(0);
    assert!(r.stdout.contains("no solution"), "{}", r.stdout);
}

#[test]
fn game_line_selects_the_rules() {
    let f = Temp::with("tiny.txt", "Game: icetower\n#######\n#@% * #\n#######\n");
    let doc = floe(&["solve", f.path(), "--json"]).code(0).json();
    assert_eq!(doc["game"], "icetower");
    assert_eq!(doc["pushes"], 1);
    assert_eq!(
        doc["moves"][0]["row"], 1,
        "rows count from the first map line"
    );
    // standard input works too
    let doc = floe_with(
        &["solve", "-", "--game", "icetower", "--json"],
        Some(b"#@% *#\n"),
    )
    .code(0)
    .json();
    assert_eq!(doc["pushes"], 1);
}

#[test]
fn notation_underscores_short_lines_and_notes() {
    let f = Temp::with(
        "lvl",
        "#######\n#@%_*\n#######\n\nthis note is not part of the map\n",
    );
    let doc = floe(&["solve", f.path(), "--game", "icetower", "--json"])
        .code(0)
        .json();
    assert_eq!(doc["pushes"], 1);
}

#[test]
fn limits_exit_with_one_and_report_a_bound() {
    let doc = floe(&[
        "solve",
        &level("w21"),
        "--game",
        "icetower",
        "--json",
        "--max-states",
        "2000",
    ])
    .code(1)
    .json();
    assert_eq!(doc["status"], "limit");
    assert_eq!(doc["limit"], "max-states");
    assert_eq!(doc["solved"], false);
    let lb = doc["lower_bound"].as_u64().unwrap();
    assert!((12..=21).contains(&lb), "{lb}");
    floe(&[
        "solve",
        &level("h49"),
        "--game",
        "icetower",
        "--timeout",
        "200ms",
    ])
    .code(1);
}

#[test]
fn bad_input_is_a_clear_error() {
    let f = Temp::with("bad", "#####\n#@%x#\n#####\n");
    let r = floe(&["solve", f.path(), "--game", "icetower"]).code(2);
    assert!(
        r.stderr
            .contains(&format!("{}:2:4: unexpected 'x'", f.path())),
        "{}",
        r.stderr
    );
    let f = Temp::with("two", "#@@#\n");
    let r = floe(&["solve", f.path(), "--game", "icetower"]).code(2);
    assert!(r.stderr.contains(":1:3: a second magician"), "{}", r.stderr);
    let f = Temp::with("none", "# % * #\n");
    let r = floe(&["solve", f.path(), "--game", "icetower"]).code(2);
    assert!(r.stderr.contains("no magician"), "{}", r.stderr);
    let f = Temp::with("wide", &format!("@{}\n", " ".repeat(20)));
    let r = floe(&["solve", f.path(), "--game", "icetower"]).code(2);
    assert!(
        r.stderr.contains(":1:21: the map is wider than 20 columns"),
        "{}",
        r.stderr
    );
    let r = floe(&["solve", "/nonexistent/level", "--game", "icetower"]).code(2);
    assert!(r.stderr.contains("/nonexistent/level"), "{}", r.stderr);
    let f = Temp::with("bin", "\u{0}\u{1}");
    floe(&["solve", f.path(), "--game", "icetower"]).code(2);
    // options of other games are refused, not ignored
    let r = floe(&[
        "solve",
        &level("w21"),
        "--game",
        "icetower",
        "--rules",
        "walk",
    ])
    .code(2);
    assert!(r.stderr.contains("--rules"), "{}", r.stderr);
    let r = floe(&[
        "solve",
        &level("w21"),
        "--game",
        "icetower",
        "--algo",
        "difficulty",
    ])
    .code(2);
    assert!(r.stderr.contains("astar"), "{}", r.stderr);
}

#[test]
fn dynamic_elements_need_the_flag() {
    let f = Temp::with("arrows", "#######\n#@% v #\n#   * #\n#######\n");
    let r = floe(&["solve", f.path(), "--game", "icetower"]).code(2);
    assert!(
        r.stderr.contains(&format!(
            "{}:2:5: an arrow (v) is a dynamic element",
            f.path()
        )),
        "{}",
        r.stderr
    );
    let doc = floe(&[
        "solve",
        f.path(),
        "--game",
        "icetower",
        "--dynamic",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(doc["pushes"], 1);
    assert_eq!(doc["engine"], "plain");
    let f = Temp::with("dispenser", "#####\n#@+*#\n#####\n");
    floe(&["solve", f.path(), "--game", "icetower"]).code(2);
    let doc = floe(&[
        "solve",
        f.path(),
        "--game",
        "icetower",
        "--dynamic",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(doc["pushes"], 1);
    assert_eq!(
        doc["moves"][0]["col"], 2,
        "the dispenser's cell is the pushed one"
    );
}
