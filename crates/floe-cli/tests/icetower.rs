//! Integration tests of `floe solve --game icetower`: the JSON contract, the spec's figures,
//! human output with boards, `Game:` lines, exit codes and clear errors.
//!
//! Levels are read from `../shared/levels/qits-icetower/`; every run is checked for panic
//! text. The whole file runs in a few seconds in release mode.

mod common;

use common::*;
use floe::games::icetower::{parse, replay, Tower};
use floe::grid::Push;
use serde_json::Value;
use std::path::Path;

fn load(path: &Path) -> Result<Tower, floe::ParseError> {
    let text = std::fs::read_to_string(path).unwrap();
    parse(&text, &path.display().to_string(), "t")
}

/// `floe solve <file> --game icetower <rest…>`.
fn solve_tower(file: &str, rest: &[&str]) -> Run {
    floe(&[&["solve", file, "--game", "icetower"][..], rest].concat())
}

/// A temporary level file from text.
fn temp(name: &str, contents: &str) -> Temp {
    Temp::with(name, contents.as_bytes())
}

fn moves(doc: &Value) -> Vec<Push> {
    serde_json::from_value(doc["moves"].clone()).expect("moves are {row, col, dir}")
}

/// Solves `name` and checks the JSON contract; the moves replay on the library's rules.
fn solve_json(name: &str, extra: &[&str]) -> Value {
    let path = qits(name);
    let doc = solve_tower(&path, &[&["--json"][..], extra].concat())
        .code(0)
        .json();
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
    let t = load(Path::new(&qits("qits002"))).unwrap();
    for p in &m {
        assert!(p.row < t.rows() && p.col < t.cols());
    }
    assert_eq!(m[0].row, 6);
}

#[test]
fn human_output_shows_every_board() {
    let r = solve_tower(&qits("c99-2"), &["--boards"]).code(0);
    // sizes are rows × columns, as for every game
    assert!(
        r.stdout
            .starts_with("c99-2: 14×20 map, 2 ice blocks, 2 golden blocks, 6 fires\n"),
        "{}",
        r.stdout
    );
    // the default search for Ice Tower is A*
    assert!(
        r.stdout.contains("solved (fewest pushes, A*): 7 pushes"),
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
    // without --boards only the pushes
    let r = solve_tower(&qits("c99-2"), &[]).code(0);
    assert_eq!(
        r.stdout.lines().filter(|l| l.starts_with("    #")).count(),
        0
    );
    let r = solve_tower(&qits("qits003"), &[]).code(0);
    assert!(r.stdout.contains("no solution"), "{}", r.stdout);
}

#[test]
fn game_line_selects_the_rules() {
    let f = temp("tiny.txt", "Game: icetower\n#######\n#@% * #\n#######\n");
    let doc = floe_json(&["solve", &f.path(), "--json"], 0);
    assert_eq!(doc["game"], "icetower");
    assert_eq!(doc["pushes"], 1);
    assert_eq!(
        doc["moves"][0]["row"], 1,
        "rows count from the first map line"
    );
    // standard input works too
    let doc = run_with(
        &["solve", "-", "--game", "icetower", "--json"],
        Some(b"#@% *#\n"),
    )
    .code(0)
    .json();
    assert_eq!(doc["pushes"], 1);
}

#[test]
fn notation_underscores_short_lines_and_notes() {
    let f = temp(
        "lvl",
        "#######\n#@%_*\n#######\n\nthis note is not part of the map\n",
    );
    let doc = solve_tower(&f.path(), &["--json"]).code(0).json();
    assert_eq!(doc["pushes"], 1);
}

#[test]
fn limits_exit_with_one_and_report_a_bound() {
    let doc = solve_tower(&qits("w21"), &["--json", "--max-states", "2000"])
        .code(1)
        .json();
    assert_eq!(doc["status"], "limit");
    assert_eq!(doc["limit"], "max-states");
    assert_eq!(doc["solved"], false);
    let lb = doc["lower_bound"].as_u64().unwrap();
    assert!((12..=21).contains(&lb), "{lb}");
    solve_tower(&qits("h49"), &["--timeout", "200ms"]).code(1);
}

#[test]
fn astar_up_to_a_move_cap_proves_the_fewest_exceed_it() {
    // w21 needs 21 pushes: A* capped at 19 proves more than 19, storing fewer positions
    let whole = solve_json("w21", &["--algo", "astar"]);
    let doc = solve_tower(
        &qits("w21"),
        &["--json", "--algo", "astar", "--max-moves", "19"],
    )
    .code(1)
    .json();
    assert_eq!(doc["status"], "limit");
    assert_eq!(doc["limit"], "max-moves");
    assert_eq!(doc["solved"], false);
    let lb = doc["lower_bound"].as_u64().unwrap();
    assert!((20..=21).contains(&lb), "{lb}");
    assert!(doc["states"].as_u64() < whole["states"].as_u64(), "{doc}");
    let human = solve_tower(&qits("w21"), &["--algo", "astar", "--max-moves", "19"]).code(1);
    assert!(human.stdout.contains("at least 20"), "{}", human.stdout);
    // at the optimum or above it, the answer is the optimum
    for cap in ["21", "30"] {
        let doc = solve_json("w21", &["--algo", "astar", "--max-moves", cap]);
        assert_eq!(doc["pushes"], 21);
    }
    // exact searches other than A* have no cap
    let r = solve_tower(&qits("w21"), &["--algo", "bfs", "--max-moves", "19"]).code(2);
    assert!(r.stderr.contains("--max-moves caps A*"), "{}", r.stderr);
}

#[test]
fn bad_input_is_a_clear_error() {
    let wide = format!("@{}\n", " ".repeat(20));
    for (name, text, said) in [
        ("bad", "#####\n#@%x#\n#####\n", ":2:4: unexpected 'x'"),
        ("two", "#@@#\n", ":1:3: a second magician"),
        ("none", "# % * #\n", "no magician"),
        ("wide", &wide, ":1:21: the map is wider than 20 columns"),
    ] {
        let f = temp(name, text);
        let r = solve_tower(&f.path(), &[]).code(2);
        assert!(r.stderr.contains(said), "{name}: {}", r.stderr);
        if said.starts_with(':') {
            assert!(
                r.stderr.contains(&format!("{}{said}", f.path())),
                "{name}: {}",
                r.stderr
            );
        }
    }
    let r = solve_tower("/nonexistent/level", &[]).code(2);
    assert!(r.stderr.contains("/nonexistent/level"), "{}", r.stderr);
    let f = temp("bin", "\u{0}\u{1}");
    solve_tower(&f.path(), &[]).code(2);
    // options of other games are refused, not ignored
    let r = solve_tower(&qits("w21"), &["--rules", "walk"]).code(2);
    assert!(r.stderr.contains("--rules"), "{}", r.stderr);
    let r = solve_tower(&qits("w21"), &["--algo", "difficulty"]).code(2);
    assert!(r.stderr.contains("astar"), "{}", r.stderr);
}

#[test]
fn dynamic_elements_need_the_flag() {
    let f = temp("arrows", "#######\n#@% v #\n#   * #\n#######\n");
    let r = solve_tower(&f.path(), &[]).code(2);
    assert!(
        r.stderr.contains(&format!(
            "{}:2:5: an arrow (v) is a dynamic element",
            f.path()
        )),
        "{}",
        r.stderr
    );
    let doc = solve_tower(&f.path(), &["--dynamic", "--json"])
        .code(0)
        .json();
    assert_eq!(doc["pushes"], 1);
    assert_eq!(doc["details"]["engine"], "plain");
    let f = temp("dispenser", "#####\n#@+*#\n#####\n");
    solve_tower(&f.path(), &[]).code(2);
    let doc = solve_tower(&f.path(), &["--dynamic", "--json"])
        .code(0)
        .json();
    assert_eq!(doc["pushes"], 1);
    assert_eq!(
        doc["moves"][0]["col"], 2,
        "the dispenser's cell is the pushed one"
    );
}
