//! Integration tests of the `floe` binary: the JSON contracts, the spec's reference figures,
//! round trips (solve → verify, Kluiver → floe → Kluiver), exit codes (DESIGN.md principle 5)
//! and a corpus of malformed level files (`tests/malformed/`).
//!
//! Every run of the binary is checked for panic text. The whole file runs in well under a
//! second in release mode; the slowest test waits for a 200 ms `--timeout`.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The spec's reference figures for the Zelda rooms, in the order of `levels/zelda.txt`:
/// name, fewest pushes, reachable states (MCTOD: not in the spec, and slow), and the least
/// difficulty at factor 5 as difficulty / pushes / block changes.
const ROOMS: [(&str, u64, Option<u64>, [u64; 3]); 14] = [
    ("OOTIC", 7, Some(22), [7, 7, 0]),
    ("OOTGCIR", 3, Some(15), [3, 3, 0]),
    ("OOSSAS", 9, Some(5477), [24, 9, 3]),
    ("MCTOD", 5, None, [5, 5, 0]),
    ("TPSPR1", 5, Some(173), [10, 5, 1]),
    ("TPSPR2", 8, Some(1801), [18, 8, 2]),
    ("TPSPR3", 12, Some(1801), [27, 12, 3]),
    ("TPIBC1", 7, Some(334), [18, 8, 2]),
    ("TPIBC2", 10, Some(411), [29, 14, 3]),
    ("TPIBC3", 11, Some(1242), [28, 13, 3]),
    ("STST1", 5, Some(14), [5, 5, 0]),
    ("STST2", 7, Some(21), [7, 7, 0]),
    ("STST3", 6, Some(16), [6, 6, 0]),
    ("STST4", 6, Some(20), [6, 6, 0]),
];

// ---------------------------------------------------------------------------------------
// Helpers

fn zelda() -> String {
    bundled("zelda.txt")
}

/// `floe <cmd> levels/zelda.txt -l <room> <rest…>`.
fn on_room(cmd: &str, room: &str, rest: &[&str]) -> Run {
    let zelda = zelda();
    floe(&[&[cmd, zelda.as_str(), "-l", room][..], rest].concat())
}

/// `floe solve levels/zelda.txt -l <room> --algo <algo> --json`, exit 0.
fn solve_by(room: &str, algo: &str) -> Value {
    on_room("solve", room, &["--algo", algo, "--json"])
        .code(0)
        .json()
}

/// `floe verify levels/zelda.txt -l <room> --moves - <rest…>`, the moves on standard input.
fn verify_stdin(room: &str, rest: &[&str], moves: &[u8]) -> Run {
    let zelda = zelda();
    let head = ["verify", zelda.as_str(), "-l", room, "--moves", "-"];
    floe_stdin(&[&head[..], rest].concat(), moves)
}

fn kluiver(room: &str) -> String {
    path_str(
        &root()
            .join("../shared/levels/kluiver-zelda")
            .join(format!("{room}.txt")),
    )
}

fn malformed_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/malformed"))
}

/// The block changes of a solve or verify document (Kluiver's difficulty's parts).
fn changes_of(doc: &Value) -> u64 {
    u(&doc["difficulty"]["block_changes"])
}

/// The difficulty's value of a solve or verify document.
fn difficulty_of(doc: &Value) -> u64 {
    u(&doc["difficulty"]["value"])
}

/// The moves of a JSON document as (row, col, dir) triples.
fn moves_of(doc: &Value) -> Vec<(u64, u64, String)> {
    doc["moves"]
        .as_array()
        .expect("moves is an array")
        .iter()
        .map(|m| {
            (
                u(&m["row"]),
                u(&m["col"]),
                m["dir"].as_str().expect("dir is a string").to_string(),
            )
        })
        .collect()
}

/// The moves as a text list, one `row col dir` per line.
fn moves_text(doc: &Value) -> String {
    moves_of(doc)
        .iter()
        .map(|(r, c, d)| format!("{r} {c} {d}\n"))
        .collect()
}

/// The boards of a floe-format text: board rows grouped by level, padded with normal floor
/// to the level's width (comments, headers and blank lines dropped).
fn floe_boards(text: &str) -> Vec<Vec<String>> {
    let mut boards = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    let flush = |cur: &mut Vec<String>, boards: &mut Vec<Vec<String>>| {
        if !cur.is_empty() {
            let w = cur.iter().map(|r| r.chars().count()).max().unwrap_or(0);
            boards.push(
                cur.drain(..)
                    .map(|r| {
                        let n = r.chars().count();
                        r + &"=".repeat(w - n)
                    })
                    .collect(),
            );
        }
    };
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with(';') || line.contains(':') {
            flush(&mut cur, &mut boards);
        } else {
            cur.push(line.to_string());
        }
    }
    flush(&mut cur, &mut boards);
    boards
}

/// The boards of `levels/zelda.txt`, in order.
fn zelda_boards() -> Vec<Vec<String>> {
    floe_boards(&std::fs::read_to_string(root().join("levels/zelda.txt")).expect("zelda.txt"))
}

/// A replay of free-rule pushes written for these tests, independent of the library:
/// returns the block changes and whether every target ends under a block, or the 1-based
/// index of the first illegal push.
fn simulate(board: &[String], moves: &[(u64, u64, String)]) -> Result<(u64, bool), usize> {
    let grid: Vec<Vec<char>> = board.iter().map(|r| r.chars().collect()).collect();
    let (rows, cols) = (grid.len() as i64, grid[0].len() as i64);
    let cell = |r: i64, c: i64| -> char {
        if r < 0 || c < 0 || r >= rows || c >= cols {
            '='
        } else {
            grid[r as usize][c as usize]
        }
    };
    let mut blocks: BTreeSet<(i64, i64)> = BTreeSet::new();
    for r in 0..rows {
        for c in 0..cols {
            if matches!(cell(r, c), '$' | '*') {
                blocks.insert((r, c));
            }
        }
    }
    let slides = |ch: char| matches!(ch, '-' | '.' | '$' | '*' | '@' | '+');
    let mut last: Option<(i64, i64)> = None;
    let mut changes = 0;
    for (i, (r, c, d)) in moves.iter().enumerate() {
        let (r, c) = (*r as i64, *c as i64);
        let (dr, dc) = match d.as_str() {
            "up" => (-1, 0),
            "down" => (1, 0),
            "left" => (0, -1),
            "right" => (0, 1),
            _ => return Err(i + 1),
        };
        let pusher = (r - dr, c - dc);
        if !blocks.contains(&(r, c)) || cell(pusher.0, pusher.1) == '#' || blocks.contains(&pusher)
        {
            return Err(i + 1);
        }
        let mut at = (r, c);
        while slides(cell(at.0 + dr, at.1 + dc)) && !blocks.contains(&(at.0 + dr, at.1 + dc)) {
            at = (at.0 + dr, at.1 + dc);
        }
        if at == (r, c) {
            return Err(i + 1);
        }
        if last.is_some() && last != Some((r, c)) {
            changes += 1;
        }
        blocks.remove(&(r, c));
        blocks.insert(at);
        last = Some(at);
    }
    let solved = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| matches!(cell(r, c), '.' | '*' | '+'))
        .all(|p| blocks.contains(&p));
    Ok((changes, solved))
}

// ---------------------------------------------------------------------------------------
// 1. `floe solve --json` and the reference figures

#[test]
fn solve_json_contract() {
    let doc = floe_json(&["solve", &zelda(), "--level", "OOSSAS", "--json"], 0);
    for key in SOLVE_KEYS {
        assert!(doc.get(key).is_some(), "solve --json lacks {key:?}: {doc}");
    }
    assert_eq!(doc["game"], "ice");
    assert_eq!(doc["length"], doc["pushes"]);
    assert_eq!(doc["difficulty"]["measure"], "kluiver");
    assert_eq!(doc["level"], "OOSSAS");
    assert_eq!(doc["params"]["rules"], "free");
    assert_eq!(doc["algorithm"], "bfs");
    assert_eq!(doc["difficulty"]["factor"], 5);
    assert_eq!(doc["solved"], true);
    assert_eq!(doc["status"], "solved");
    assert!(doc["limit"].is_null());
    let pushes = u(&doc["pushes"]);
    let changes = changes_of(&doc);
    assert_eq!(pushes, 9);
    assert_eq!(difficulty_of(&doc), pushes + 5 * changes);
    assert!(u(&doc["states"]) > 0);
    let seconds = doc["seconds"].as_f64().expect("seconds is a number");
    assert!((0.0..60.0).contains(&seconds));
    let moves = doc["moves"].as_array().expect("moves is an array");
    assert_eq!(moves.len() as u64, pushes);
    for m in moves {
        let keys: BTreeSet<&str> = m
            .as_object()
            .expect("a move is an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, BTreeSet::from(["row", "col", "dir"]), "move {m}");
        // OOSSAS is 11 rows × 15 columns, walled all round: a block never sits on the border
        assert!((1..10).contains(&u(&m["row"])), "move {m}");
        assert!((1..14).contains(&u(&m["col"])), "move {m}");
        assert!(
            ["up", "down", "left", "right"].contains(&m["dir"].as_str().unwrap()),
            "move {m}"
        );
    }
    // an independent replay agrees: the moves are legal, count the block changes reported
    // and solve the room
    assert_eq!(
        simulate(&zelda_boards()[2], &moves_of(&doc)),
        Ok((changes, true))
    );
}

#[test]
fn fewest_pushes_by_name_and_by_number() {
    let boards = zelda_boards();
    for (i, (name, pushes, _, _)) in ROOMS.iter().enumerate() {
        let by_name = floe_json(&["solve", &zelda(), "--level", name, "--json"], 0);
        let number = (i + 1).to_string();
        let by_number = floe_json(&["solve", &zelda(), "--level", &number, "--json"], 0);
        for doc in [&by_name, &by_number] {
            assert_eq!(doc["level"], *name);
            assert_eq!(doc["solved"], true, "{name}");
            assert_eq!(u(&doc["pushes"]), *pushes, "{name}: fewest pushes");
            assert_eq!(doc["moves"].as_array().unwrap().len() as u64, *pushes);
            assert_eq!(
                simulate(&boards[i], &moves_of(doc)),
                Ok((changes_of(doc), true)),
                "{name}: an independent replay"
            );
        }
        assert_eq!(by_name["moves"], by_number["moves"], "{name}");
    }
    // titles are matched without regard to case
    let doc = on_room("solve", "tpibc2", &["--json"]).code(0).json();
    assert_eq!(doc["level"], "TPIBC2");
}

#[test]
fn least_difficulty_figures() {
    let boards = zelda_boards();
    for (i, (name, _, _, [difficulty, pushes, changes])) in ROOMS.into_iter().enumerate() {
        let doc = floe(&[
            "solve",
            &zelda(),
            "--level",
            name,
            "--algo",
            "difficulty",
            "--json",
        ])
        .code(0)
        .json();
        assert_eq!(doc["algorithm"], "difficulty");
        assert_eq!(doc["difficulty"]["factor"], 5);
        assert_eq!(
            [difficulty_of(&doc), u(&doc["pushes"]), changes_of(&doc)],
            [difficulty, pushes, changes],
            "{name}: difficulty / pushes / block changes at factor 5"
        );
        assert_eq!(
            simulate(&boards[i], &moves_of(&doc)),
            Ok((changes, true)),
            "{name}: an independent replay"
        );
    }
}

#[test]
fn kluiver_files_auto_detected_and_forced() {
    for (name, pushes, _, [difficulty, dpushes, dchanges]) in ROOMS {
        let file = kluiver(name);
        let auto = floe_json(&["solve", &file, "--json"], 0);
        let forced = floe_json(&["solve", &file, "--format", "kluiver", "--json"], 0);
        for doc in [&auto, &forced] {
            // Kluiver's files carry no titles: the level is named after the file
            assert_eq!(doc["level"], name);
            assert_eq!(u(&doc["pushes"]), pushes, "{name}");
        }
        assert_eq!(auto["moves"], forced["moves"]);
        // the same room in the floe file gives the same solution
        let floe_doc = floe_json(&["solve", &zelda(), "--level", name, "--json"], 0);
        assert_eq!(auto["moves"], floe_doc["moves"], "{name}");

        let dif = floe_json(&["solve", &file, "--algo", "difficulty", "--json"], 0);
        assert_eq!(
            [difficulty_of(&dif), u(&dif["pushes"]), changes_of(&dif)],
            [difficulty, dpushes, dchanges],
            "{name}"
        );
    }
}

#[test]
fn guided_searches_find_fewest_pushes_too() {
    for (name, pushes, _, _) in ROOMS {
        for algo in ["astar", "idastar"] {
            let doc = solve_by(name, algo);
            assert_eq!(doc["algorithm"], algo);
            assert_eq!(u(&doc["pushes"]), pushes, "{name} with {algo}");
        }
    }
}

#[test]
fn difficulty_uses_the_factor() {
    let at = |factor: &str, algo: &str| {
        on_room(
            "solve",
            "TPIBC2",
            &["--algo", algo, "--factor", factor, "--json"],
        )
        .code(0)
        .json()
    };
    let five = at("5", "bfs");
    let two = at("2", "bfs");
    let zero = at("0", "bfs");
    assert_eq!(two["difficulty"]["factor"], 2);
    // breadth-first search does not look at the factor: the same solution, scored differently
    assert_eq!(five["moves"], two["moves"]);
    let (p, c) = (u(&two["pushes"]), changes_of(&two));
    assert_eq!(p, 10);
    assert_eq!(difficulty_of(&two), p + 2 * c);
    assert_eq!(difficulty_of(&five), p + 5 * c);
    assert_eq!(difficulty_of(&zero), p);

    // least difficulty at factor 0 is fewest pushes; at factor 5 the spec's 29 / 14 / 3
    let d0 = at("0", "difficulty");
    assert_eq!(difficulty_of(&d0), 10);
    assert_eq!(u(&d0["pushes"]), 10);
    let d5 = at("5", "difficulty");
    assert_eq!(
        [difficulty_of(&d5), u(&d5["pushes"]), changes_of(&d5)],
        [29, 14, 3]
    );
    // at factor 2 the least difficulty can be no more than either solution scored at 2
    let d2 = at("2", "difficulty");
    let best2 = difficulty_of(&d2);
    assert_eq!(best2, u(&d2["pushes"]) + 2 * changes_of(&d2));
    assert!(best2 <= p + 2 * c);
    assert!(best2 <= 14 + 2 * 3);
}

// ---------------------------------------------------------------------------------------
// 2. solve → verify round trips

#[test]
fn solutions_verify_in_every_form() {
    for (name, _, _, _) in ROOMS {
        for algo in ["bfs", "difficulty"] {
            let solved = solve_by(name, algo);
            let want = |v: &Value| {
                assert_eq!(v["valid"], true, "{name} {algo}: {v}");
                assert_eq!(v["solved"], true, "{name} {algo}: {v}");
                assert!(v["error"].is_null());
                assert_eq!(v["pushes"], solved["pushes"]);

                assert_eq!(v["difficulty"], solved["difficulty"]);
                assert_eq!(v["level"], name);
            };
            // the whole solve document and just the list of moves, from a file
            let json = solved.to_string();
            let doc = Temp::with("solve.json", json.as_bytes());
            let list = Temp::with("moves.json", solved["moves"].to_string().as_bytes());
            for file in [&doc, &list] {
                let v = on_room("verify", name, &["--moves", &file.path(), "--json"])
                    .code(0)
                    .json();
                want(&v);
            }
            // the whole solve document on standard input
            let v = verify_stdin(name, &["--json"], json.as_bytes())
                .code(0)
                .json();
            want(&v);
            // text, one `row col dir` per line, against the Kluiver file of the same room
            let text = Temp::with("moves.txt", moves_text(&solved).as_bytes());
            let v = floe(&["verify", &kluiver(name), "--moves", &text.path(), "--json"])
                .code(0)
                .json();
            want(&v);
        }
    }
}

#[test]
fn verify_human_output_and_text_moves_with_comments() {
    let solved = on_room("solve", "TPIBC2", &["--json"]).code(0).json();
    let text = format!(
        "; the fewest-pushes solution of TPIBC2\n{}",
        moves_text(&solved)
    );
    let out = verify_stdin("TPIBC2", &[], text.as_bytes()).code(0);
    assert!(
        out.stdout.contains("10 pushes, every one legal"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("solved"), "{}", out.stdout);
    assert!(!out.stdout.contains("NOT solved"), "{}", out.stdout);

    // the factor of verify is the factor of the reported difficulty
    let v = verify_stdin("TPIBC2", &["--factor", "2", "--json"], text.as_bytes())
        .code(0)
        .json();
    assert_eq!(v["difficulty"]["factor"], 2);
    assert_eq!(difficulty_of(&v), u(&v["pushes"]) + 2 * changes_of(&v));
}

#[test]
fn broken_move_lists_name_the_illegal_push() {
    let solved = on_room("solve", "TPIBC2", &["--json"]).code(0).json();
    let mut moves = solved["moves"].as_array().unwrap().clone();
    // TPIBC2: `=--$ / -.-- / --.- / $--$`; (1, 1) is a target that holds no block
    // before the fourth push of this solution (the first three move other blocks).
    let first_three: Vec<(u64, u64)> = moves_of(&solved)[..3]
        .iter()
        .map(|(r, c, _)| (*r, *c))
        .collect();
    assert!(!first_three.contains(&(1, 1)));
    moves[3] = serde_json::json!({"row": 1, "col": 1, "dir": "up"});
    let broken_moves = Value::Array(moves);
    assert_eq!(
        simulate(
            &zelda_boards()[8],
            &moves_of(&serde_json::json!({ "moves": broken_moves }))
        ),
        Err(4)
    );
    let broken = Temp::with("broken.json", broken_moves.to_string().as_bytes());
    let v = on_room("verify", "TPIBC2", &["--moves", &broken.path(), "--json"])
        .code(2)
        .json();
    assert_eq!(v["valid"], false);
    assert_eq!(v["solved"], false);
    let err = &v["error"];
    assert_eq!(err["index"], 4, "1-based index of the illegal push: {v}");
    assert_eq!(
        err["move"],
        serde_json::json!({"row": 1, "col": 1, "dir": "up"})
    );
    let reason = err["reason"].as_str().expect("a reason");
    assert!(reason.contains("no block"), "{reason}");

    let human = on_room("verify", "TPIBC2", &["--moves", &broken.path()]).code(2);
    assert!(
        human.stdout.contains("move 4 ((1, 1) up) is illegal"),
        "{}",
        human.stdout
    );
    assert!(
        human.stderr.contains("move 4 ((1, 1) up) is illegal"),
        "{}",
        human.stderr
    );

    // a push that does not move its block is no move: the block at (0, 3) is in the top row
    let v = verify_stdin("TPIBC2", &["--json"], b"0 3 up\n")
        .code(2)
        .json();
    assert_eq!(v["valid"], false);
    assert_eq!(v["error"]["index"], 1);
    assert!(v["error"]["reason"]
        .as_str()
        .unwrap()
        .contains("cannot move"));

    // a block stopped by the block next to it
    let v = verify_stdin("TPIBC2", &["--json"], b"3 0 right\n3 3 left\n")
        .code(2)
        .json();
    assert_eq!(v["error"]["index"], 2);
    assert!(v["error"]["reason"]
        .as_str()
        .unwrap()
        .contains("another block"));

    // a legal prefix of a solution is valid but does not solve the level
    let prefix: String = moves_text(&solved)
        .lines()
        .take(3)
        .map(|l| l.to_string() + "\n")
        .collect();
    let v = verify_stdin("TPIBC2", &["--json"], prefix.as_bytes())
        .code(0)
        .json();
    assert_eq!(v["valid"], true);
    assert_eq!(v["solved"], false);
    assert_eq!(v["pushes"], 3);
}

#[test]
fn malformed_move_lists_are_bad_input() {
    let bad = Temp::with("bad-moves.txt", b"0 3 down\n3 0\n");
    let out = on_room("verify", "TPIBC2", &["--moves", &bad.path()]).code(2);
    let prefix = format!("floe: {}:2:", bad.path());
    assert!(out.stderr.starts_with(&prefix), "{}", out.stderr);

    let out = verify_stdin("TPIBC2", &["--json"], b"0 3 sideways\n").code(2);
    assert!(
        out.stderr.starts_with("floe: <stdin>:1:5: "),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("sideways"), "{}", out.stderr);

    let missing = Temp::new("no-such-moves.json");
    let out = on_room("verify", "1", &["--moves", &missing.path()]).code(2);
    assert!(out.stderr.contains(&missing.path()), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------
// 3. exit codes

/// A target in the middle of a one-row board: the block slides over it, both ways.
const UNSOLVABLE: &str = "; the block slides over the target\nTitle: stuck\n$-.-\n";

#[test]
fn a_proof_of_no_solution_is_an_answer() {
    let level = Temp::with("stuck.txt", UNSOLVABLE.as_bytes());
    for algo in ["bfs", "difficulty", "astar", "idastar"] {
        let doc = floe_json(&["solve", &level.path(), "--algo", algo, "--json"], 0);
        assert_eq!(doc["level"], "stuck");
        assert_eq!(doc["solved"], false, "{algo}");
        assert_eq!(doc["status"], "unsolvable", "{algo}");
        assert!(doc["limit"].is_null());
        assert!(doc["pushes"].is_null());
        assert_eq!(doc["moves"], serde_json::json!([]));
    }
    let out = floe(&["solve", &level.path()]).code(0);
    assert!(out.stdout.contains("no solution"), "{}", out.stdout);
    // the same level on standard input
    let doc = floe_stdin(&["solve", "-", "--json"], UNSOLVABLE.as_bytes())
        .code(0)
        .json();
    assert_eq!(doc["status"], "unsolvable");
}

#[test]
fn max_states_stops_cleanly_with_exit_1() {
    let doc = on_room("solve", "MCTOD", &["--max-states", "10", "--json"])
        .code(1)
        .json();
    assert_eq!(doc["solved"], false);
    assert_eq!(doc["status"], "limit");
    assert_eq!(doc["limit"], "max-states");
    assert!(doc["pushes"].is_null());
    assert!(u(&doc["states"]) <= 10 + 4 * 6, "{doc}");

    let out = on_room("solve", "MCTOD", &["--max-states", "10"]).code(1);
    assert!(out.stdout.contains("--max-states"), "{}", out.stdout);

    // space and reach stop counting
    let space = on_room("space", "MCTOD", &["--max-states", "10", "--json"]);
    let reach = floe(&words(
        "reach --rows 6 --cols 6 --blocks 3 --max-states 10 --json",
    ));
    for run in [space, reach] {
        let doc = run.code(1).json();
        assert_eq!(doc["complete"], false);
        assert_eq!(doc["limit"], "max-states");
    }
}

/// 14×14 ice, seven blocks in the top row and a target in the bottom right corner walled
/// off from the left and from above: no block can reach it, and the space is far too big
/// to explore in a fraction of a second.
#[test]
fn timeout_stops_cleanly_with_exit_1() {
    let level = Temp::with("big.txt", big_unsolvable().as_bytes());
    let start = std::time::Instant::now();
    let doc = floe_json(&["solve", &level.path(), "--timeout", "200ms", "--json"], 1);
    assert!(start.elapsed().as_secs_f64() < 10.0);
    assert_eq!(doc["solved"], false);
    assert_eq!(doc["status"], "limit");
    assert_eq!(doc["limit"], "timeout");
    assert!(u(&doc["states"]) > 0);

    let doc = floe_json(&["space", &level.path(), "--timeout", "0.1", "--json"], 1);
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["limit"], "timeout");
}

#[test]
fn bad_input_and_usage_exit_2() {
    let missing = Temp::new("no-such-level.txt");
    let out = floe(&["solve", &missing.path(), "--json"]).code(2);
    assert!(
        out.stderr.starts_with(&format!("floe: {}", missing.path())),
        "{}",
        out.stderr
    );

    // a multi-level file without --level says how to pick one
    let out = floe(&["solve", &zelda()]).code(2);
    assert!(out.stderr.contains("--level"), "{}", out.stderr);
    assert!(out.stderr.contains("TPIBC2"), "{}", out.stderr);
    floe(&["space", &zelda(), "--json"]).code(2);

    // unknown levels, by name and by number
    for sel in ["NOPE", "0", "15"] {
        let out = floe(&["solve", &zelda(), "--level", sel, "--json"]).code(2);
        assert!(out.stderr.starts_with("floe: "), "{}", out.stderr);
        assert!(out.stderr.contains(sel), "{sel}: {}", out.stderr);
    }

    // a malformed file (the corpus test covers many more)
    let bad = malformed_dir().join("floe-unknown-char.txt");
    floe(&["solve", &path_str(&bad), "--json"]).code(2);
    // a floe file read as Kluiver's
    floe(&["solve", &zelda(), "--format", "kluiver", "-l", "1"]).code(2);

    // usage
    floe(&["solve", &zelda(), "-l", "1", "--bogus"]).code(2);
    floe(&["solve", &zelda(), "-l", "1", "--algo", "nope"]).code(2);
    floe(&["solve", &zelda(), "-l", "1", "--timeout", "soon"]).code(2);
    floe(&["solve", &zelda(), "-l", "1", "--format", "xml"]).code(2);
    floe(&["bogus"]).code(2);
    floe(&[]).code(2);
    floe(&["reach"]).code(2);
    floe(&["reach", "--rows", "4", "--cols", "4"]).code(2);
    floe(&["reach", "--rows", "0", "--cols", "4", "--blocks", "3"]).code(2);
    floe(&["reach", "--rows", "2", "--cols", "2", "--blocks", "5"]).code(2);
    floe(&["verify", &zelda(), "-l", "1"]).code(2);
    floe(&["demo", "--bogus"]).code(2);

    // help and version are answers
    assert!(floe(&["--help"]).code(0).stdout.contains("solve"));
    floe(&["solve", "--help"]).code(0);
    // the version names the sources it was built from (8 hex digits), as the processes of a
    // shared run compare them
    let v = floe(&["--version"]).code(0).stdout;
    let digest = v
        .trim()
        .strip_prefix(&format!("floe {} (sources ", env!("CARGO_PKG_VERSION")))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        digest.len() == 8 && digest.chars().all(|c| c.is_ascii_hexdigit()),
        "{v}"
    );
}

// ---------------------------------------------------------------------------------------
// 4. the malformed corpus

/// Every file of `tests/malformed/` with the position its error must name.
const MALFORMED: [(&str, usize, usize); 23] = [
    ("empty.txt", 1, 1),
    ("floe-nul-byte.txt", 2, 3),
    ("kluiver-huge-size.txt", 1, 1),
    ("floe-only-comment.txt", 1, 1),
    ("floe-unknown-char.txt", 4, 5),
    ("floe-space-in-row.txt", 4, 3),
    ("floe-tab-in-row.txt", 3, 2),
    ("floe-two-players.txt", 6, 4),
    ("floe-bad-rules.txt", 3, 8),
    ("floe-unknown-game.txt", 3, 7),
    ("floe-empty-title.txt", 2, 7),
    ("floe-header-without-board.txt", 5, 1),
    ("floe-non-utf8.txt", 2, 11),
    ("floe-second-level-bad.txt", 7, 2),
    ("kluiver-row-too-short.txt", 3, 4),
    ("kluiver-row-too-long.txt", 3, 6),
    ("kluiver-too-few-rows.txt", 4, 6),
    ("kluiver-bad-char.txt", 4, 3),
    ("kluiver-zero-width.txt", 1, 1),
    ("kluiver-second-level-bad.txt", 6, 2),
    // `Title: Zürich caf\xe9`: the bad byte is the 18th character (columns count
    // characters, not bytes)
    ("floe-non-utf8-after-multibyte.txt", 2, 18),
    // a size line that is not two numbers: floe format, with a hint about Kluiver's
    ("kluiver-bad-size-line.txt", 1, 1),
    // a byte-order mark is skipped: the error is in the row after it
    ("floe-bom-bad-row.txt", 2, 3),
];

fn check_malformed(file: &str, line: usize, col: usize) {
    let path = path_str(&malformed_dir().join(file));
    let prefix = format!("floe: {path}:{line}:{col}: ");
    for args in [
        vec!["solve", path.as_str()],
        vec!["solve", path.as_str(), "--json"],
        vec!["levels", path.as_str()],
    ] {
        let out = floe(&args).code(2);
        assert!(
            out.stderr.starts_with(&prefix),
            "{file}: want stderr starting with {prefix:?}, got {:?}",
            out.stderr
        );
        let message = &out.stderr[prefix.len()..];
        assert!(
            message.trim().len() > 5 && message.trim_end().lines().count() == 1,
            "{file}: the message says what is wrong, on one line: {:?}",
            out.stderr
        );
        assert!(
            !message.trim_end().chars().any(char::is_control),
            "{file}: no control character reaches the terminal: {:?}",
            out.stderr
        );
        assert!(
            out.stdout.is_empty(),
            "{file}: nothing half-loaded: {}",
            out.stdout
        );
    }
    // nothing is written on failure
    let dest = Temp::new("converted.txt");
    floe(&["convert", &path, "-o", &dest.path()]).code(2);
    assert!(
        !dest.0.exists(),
        "{file}: convert wrote output for a bad file"
    );
}

#[test]
fn malformed_files_name_file_line_and_column() {
    // every file in the directory is in one of the tables
    let listed: BTreeSet<&str> = MALFORMED.iter().map(|(f, _, _)| *f).collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(malformed_dir())
        .expect("tests/malformed exists")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(
        on_disk.iter().map(String::as_str).collect::<BTreeSet<_>>(),
        listed,
        "tests/malformed and the tables in tests/cli.rs disagree"
    );
    for (file, line, col) in MALFORMED {
        check_malformed(file, line, col);
    }
}

// ---------------------------------------------------------------------------------------
// 5. convert

#[test]
fn kluiver_to_floe_to_kluiver_reproduces_the_file() {
    for (name, _, _, _) in ROOMS {
        let original = std::fs::read_to_string(kluiver(name)).expect("the Kluiver file");
        let floe_file = Temp::new(&format!("{name}.txt"));
        let out = floe(&["convert", &kluiver(name), "-o", &floe_file.path()]).code(0);
        assert!(out.stdout.is_empty());
        let text = floe_file.read();
        assert!(text.contains(&format!("Title: {name}")), "{text}");
        let back = floe(&["convert", &floe_file.path(), "--to", "kluiver"])
            .code(0)
            .stdout;
        assert_eq!(back.trim_end(), original.trim_end(), "{name}");
        // the same through standard input, with the formats named
        let back = floe_stdin(
            &["convert", "-", "--format", "floe", "--to", "kluiver"],
            text.as_bytes(),
        )
        .code(0)
        .stdout;
        assert_eq!(back.trim_end(), original.trim_end(), "{name}");
    }
}

#[test]
fn zelda_to_kluiver_and_back_keeps_the_boards() {
    let original = std::fs::read_to_string(root().join("levels/zelda.txt")).unwrap();
    let want = floe_boards(&original);
    assert_eq!(want.len(), 14);

    let k = Temp::new("zelda-kluiver.txt");
    floe(&["convert", &zelda(), "--to", "kluiver", "-o", &k.path()]).code(0);
    let ktext = k.read();
    assert_eq!(ktext.lines().next(), Some("8 7"), "OOTIC is 8 wide, 7 high");
    let back = floe(&["convert", &k.path(), "--to", "floe"]).code(0).stdout;
    assert_eq!(floe_boards(&back), want);

    // the level summaries agree too (titles are lost in Kluiver's format)
    let strip = |v: Value| -> Vec<Value> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|l| serde_json::json!([l["index"], l["rows"], l["cols"], l["description"]]))
            .collect()
    };
    let a = strip(floe_json(&["levels", &zelda(), "--json"], 0));
    let b = strip(floe_json(&["levels", &k.path(), "--json"], 0));
    assert_eq!(a, b);

    // one level only
    let one = floe(&["convert", &zelda(), "-l", "TPIBC2", "--to", "kluiver"])
        .code(0)
        .stdout;
    assert_eq!(one, "4 4\nX..O\n.T..\n..T.\nO..O\n");
}

#[test]
fn a_player_cannot_go_to_kluivers_format() {
    let level = Temp::with(
        "player.txt",
        b"Title: with player\nRules: walk\n=@=\n-$-\n-.-\n",
    );
    // the level itself is fine
    floe(&["solve", &level.path(), "--json"]).code(0);
    let dest = Temp::new("player-kluiver.txt");
    let out = floe(&[
        "convert",
        &level.path(),
        "--to",
        "kluiver",
        "-o",
        &dest.path(),
    ])
    .code(2);
    assert!(out.stderr.starts_with("floe: "), "{}", out.stderr);
    assert!(out.stderr.contains("player"), "{}", out.stderr);
    assert!(out.stderr.contains("Kluiver"), "{}", out.stderr);
    assert!(!dest.0.exists(), "nothing is written");
    let out = floe(&["convert", &level.path(), "--to", "kluiver"]).code(2);
    assert!(out.stdout.is_empty());
}

/// A level of a game of one format is not written in another game's format (before: `convert
/// levels/pushpush.txt --to kluiver` wrote PushPush's floe format, exit 0).
#[test]
fn convert_refuses_a_format_the_game_does_not_have() {
    for (file, game) in [("pushpush.txt", "PushPush"), ("icepath.txt", "ice path")] {
        let path = bundled(file);
        let dest = Temp::new("other-format.kl");
        let out = floe(&[
            "convert",
            &path,
            "--to",
            "kluiver",
            "-l",
            "1",
            "-o",
            &dest.path(),
        ])
        .code(2);
        assert!(
            out.stderr.contains("'kluiver' is not a format of")
                && out.stderr.contains(game)
                && out.stderr.contains("floe format"),
            "{}",
            out.stderr
        );
        assert!(!dest.0.exists(), "nothing is written");
        // its own format is still written
        floe(&["convert", &path, "--to", "floe", "-l", "1"]).code(0);
    }
}

// ---------------------------------------------------------------------------------------
// 6. reach and space

fn table(v: &Value) -> Vec<Vec<Option<u64>>> {
    v["moves"]
        .as_array()
        .expect("moves is a table")
        .iter()
        .map(|row| {
            row.as_array()
                .expect("a row")
                .iter()
                .map(|x| x.as_u64())
                .collect()
        })
        .collect()
}

fn full(rows: &[&[u64]]) -> Vec<Vec<Option<u64>>> {
    rows.iter()
        .map(|r| r.iter().map(|&x| Some(x)).collect())
        .collect()
}

#[test]
fn reach_tables_of_the_spec() {
    let doc = floe_json(&words("reach --rows 4 --cols 4 --blocks 3 --json"), 0);
    let want: &[&[u64]] = &[&[0, 0, 0, 2], &[3, 3, 5, 4], &[3, 3, 5, 4], &[1, 1, 1, 2]];
    assert_eq!(table(&doc), full(want));
    assert_eq!(
        [u(&doc["rows"]), u(&doc["cols"]), u(&doc["blocks"])],
        [4, 4, 3]
    );
    assert_eq!(u(&doc["max"]), 5);
    let sum: u64 = want.iter().flat_map(|r| r.iter()).sum();
    assert!((doc["mean"].as_f64().unwrap() - sum as f64 / 16.0).abs() < 1e-9);
    assert_eq!(u(&doc["states"]), 428, "the spec's 3 blocks on 4×4");
    assert_eq!(doc["complete"], true);

    let doc = floe_json(&words("reach --rows 5 --cols 5 --blocks 3 --json"), 0);
    let want: &[&[u64]] = &[
        &[0, 0, 0, 3, 2],
        &[3, 3, 5, 6, 4],
        &[5, 7, 9, 10, 6],
        &[3, 3, 5, 6, 4],
        &[1, 1, 1, 4, 2],
    ];
    assert_eq!(table(&doc), full(want));
    assert_eq!(u(&doc["max"]), 10);
    let sum: u64 = want.iter().flat_map(|r| r.iter()).sum();
    assert!((doc["mean"].as_f64().unwrap() - sum as f64 / 25.0).abs() < 1e-9);
    assert_eq!(u(&doc["states"]), 1242, "the spec's 3 blocks on 5×5");

    let out = floe(&["reach", "--rows", "5", "--cols", "5", "--blocks", "3"]).code(0);
    assert!(out.stdout.contains(" 5  7  9 10  6\n"), "{}", out.stdout);
    assert!(out.stdout.contains("max 10"), "{}", out.stdout);
}

#[test]
fn reach_on_a_level() {
    let out = on_room("reach", "TPIBC1", &[]).code(0);
    assert!(out.stdout.contains("TPIBC1"), "{}", out.stdout);
    let doc = on_room("reach", "TPIBC1", &["--json"]).code(0).json();
    assert_eq!(doc["level"], "TPIBC1");
    let t = table(&doc);
    assert_eq!((t.len(), t[0].len()), (5, 3));
    // the blocks start at (0, 2), (4, 0) and (4, 2)
    assert_eq!([t[0][2], t[4][0], t[4][2]], [Some(0); 3]);
    assert_eq!(
        u(&doc["states"]),
        334,
        "the spec's reachable states of TPIBC1"
    );

    // a Kluiver file; cells of normal floor are never reached
    let doc = floe_json(&["reach", &kluiver("OOTIC"), "--json"], 0);
    let t = table(&doc);
    assert_eq!((t.len(), t[0].len()), (7, 8));
    assert_eq!(t[0][0], None, "(0, 0) of OOTIC is normal floor");
    assert_eq!(t[0][6], Some(0), "the block starts at (0, 6)");
    assert_eq!(u(&doc["states"]), 22);
    // one block: a position is the cell the block rests on
    let reached = t.iter().flatten().flatten().count() as u64;
    assert_eq!(reached, 22);
    assert_eq!(t[6][4], Some(7), "the target (6, 4) is 7 pushes away");
}

#[test]
fn space_counts_of_the_spec() {
    let doc = floe_json(&["space", &zelda(), "--level", "TPIBC3", "--json"], 0);
    assert_eq!(u(&doc["states"]), 1242);
    assert_eq!(doc["complete"], true);
    // every room but MCTOD (seconds, not milliseconds), from the Kluiver files
    for (name, _, states, _) in ROOMS {
        let Some(states) = states else { continue };
        let doc = floe_json(&["space", &kluiver(name), "--json"], 0);
        assert_eq!(u(&doc["states"]), states, "{name}");
        if let Some(h) = doc["histogram"].as_array() {
            assert_eq!(h.iter().map(u).sum::<u64>(), states, "{name}: histogram");
        }
    }
    let out = floe(&["space", &kluiver("TPIBC3")]).code(0);
    assert!(out.stdout.contains("1,242"), "{}", out.stdout);
}

// ---------------------------------------------------------------------------------------
// 7. one JSON document per --json run; demo

#[test]
fn every_json_command_prints_one_document() {
    let solved = on_room("solve", "OOTIC", &["--json"]).code(0).json();
    let moves = Temp::with("ootic.json", solved.to_string().as_bytes());
    let runs: Vec<Vec<String>> = vec![
        vec!["solve".into(), zelda(), "-l".into(), "OOTIC".into()],
        vec![
            "solve".into(),
            zelda(),
            "-l".into(),
            "OOTIC".into(),
            "--boards".into(),
        ],
        vec!["space".into(), zelda(), "-l".into(), "OOTIC".into()],
        vec!["reach".into(), zelda(), "-l".into(), "OOTIC".into()],
        vec![
            "reach".into(),
            "--rows".into(),
            "3".into(),
            "--cols".into(),
            "3".into(),
            "--blocks".into(),
            "2".into(),
        ],
        vec![
            "verify".into(),
            zelda(),
            "-l".into(),
            "OOTIC".into(),
            "--moves".into(),
            moves.path(),
        ],
        vec!["levels".into(), zelda()],
        vec!["levels".into(), kluiver("OOTIC")],
        vec!["demo".into()],
    ];
    for mut args in runs {
        args.push("--json".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let v = floe_json(&args, 0);
        assert!(v.is_object() || v.is_array(), "{args:?}: {v}");
    }
}

#[test]
fn demo_reports_every_room() {
    let doc = floe_json(&["demo", "--json"], 0);
    let rows = doc.as_array().expect("a list of rooms");
    assert_eq!(rows.len(), ROOMS.len());
    for (row, (name, pushes, states, [difficulty, dpushes, dchanges])) in rows.iter().zip(ROOMS) {
        assert_eq!(row["level"], name);
        assert_eq!(u(&row["pushes"]), pushes, "{name}");
        assert_eq!(u(&row["difficulty"]), difficulty, "{name}");
        assert_eq!(u(&row["difficulty_pushes"]), dpushes, "{name}");
        assert_eq!(u(&row["difficulty_block_changes"]), dchanges, "{name}");
        if let Some(states) = states {
            assert_eq!(u(&row["states"]), states, "{name}");
        }
        assert_eq!(row["moves"].as_array().unwrap().len() as u64, pushes);
    }

    let out = floe(&["demo"]).code(0);
    for (name, _, _, _) in ROOMS {
        assert!(out.stdout.contains(name), "demo does not mention {name}");
    }
}

// ---------------------------------------------------------------------------------------
// 8. levels

#[test]
fn levels_lists_the_zelda_rooms() {
    let doc = floe_json(&["levels", &zelda(), "--json"], 0);
    let levels = doc.as_array().expect("a list of levels");
    assert_eq!(levels.len(), 14);
    for (i, (l, (name, _, _, _))) in levels.iter().zip(ROOMS).enumerate() {
        assert_eq!(u(&l["index"]), i as u64 + 1);
        assert_eq!(l["title"], name);
        assert_eq!(l["name"], name);
        assert_eq!(l["game"], "ice");
        assert!(u(&l["rows"]) > 0 && u(&l["cols"]) > 0);
        assert_eq!(l["params"]["rules"], "free");
    }
    let ossas = &levels[2];
    assert_eq!([u(&ossas["rows"]), u(&ossas["cols"])], [11, 15]);
    assert_eq!(
        ossas["description"],
        "11×15 board, 3 blocks, 3 targets, rules free"
    );

    let out = floe(&["levels", &zelda()]).code(0);
    for (name, _, _, _) in ROOMS {
        assert!(out.stdout.contains(name), "{name}");
    }
    assert_eq!(out.stdout.lines().count(), 14);
}

// ---------------------------------------------------------------------------------------
// output to a closed pipe

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = Command::new(FLOE)
        .args(["demo", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the floe binary runs");
    // close the reading end before floe prints anything
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("floe finishes");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

// ---------------------------------------------------------------------------------------
// analysis commands

/// `floe table <line> --json`: one of the theses' tables, as JSON.
fn table_json(line: &str) -> Value {
    floe_json(&words(&format!("table {line} --json")), 0)
}

#[test]
fn space_of_an_empty_board_and_the_table() {
    let doc = floe_json(&words("space --rows 4 --cols 5 --blocks 3 --json"), 0);
    assert_eq!(u(&doc["states"]), 744);
    let doc = table_json("space --max-rows 4 --max-cols 5 --max-blocks 3");
    let cells = doc["cells"].as_array().unwrap();
    // sizes 2×2..2×5, 3×3..3×5, 4×4, 4×5 = 9, blocks 1..=3
    assert_eq!(cells.len(), 27);
    let c = cells
        .iter()
        .find(|c| c["rows"] == 4 && c["cols"] == 4 && c["blocks"] == 3)
        .unwrap();
    assert_eq!(u(&c["states"]), 428);
    assert_eq!(c["formula_holds"], true);
    assert_eq!(doc["formulas"][0]["fails"][0], "2x2");
    let md = floe(&words(
        "table space --max-rows 3 --max-cols 3 --max-blocks 2",
    ))
    .code(0)
    .stdout;
    assert!(md.contains("| blocks | 2×2 | 2×3 | 3×3 |"), "{md}");
}

#[test]
fn reach_and_strip_tables() {
    let doc = table_json("reach --min-size 4 --max-size 5 --blocks 3,4");
    let t = doc["tables"].as_array().unwrap();
    assert_eq!(t.len(), 4);
    let five = t
        .iter()
        .find(|c| c["rows"] == 5 && c["blocks"] == 3)
        .unwrap();
    assert_eq!(u(&five["max"]), 10);
    let doc = table_json("strip --heights 2 --max-width 12 --blocks 3");
    let s = &doc["series"][0];
    assert_eq!(s["closed_form"]["text"], "⌊3n/2⌋ − 5");
    assert_eq!(u(&doc["thesis_pattern"][0]["holds_from"]), 7);
    let text = floe(&words("table patterns --max-size 5 --blocks 3"))
        .code(0)
        .stdout;
    assert!(text.contains("| 5×5 | Yes (10 pushes) |"), "{text}");
}

#[test]
fn analyze_reports_the_contract_fields() {
    let mut doc = on_room("analyze", "STST3", &["--json"]).code(0).json();
    // the command's document is the library's report, field for field (its field names are
    // pinned by the report's own test), but for the clock and the memory the command measures
    let level = floe::ops::Request::from_path(zelda())
        .level(Some("STST3"))
        .resolve()
        .unwrap()
        .level;
    let mut lib =
        serde_json::to_value(level.analyze(&floe::search::Limits::none()).unwrap()).unwrap();
    for d in [&mut doc, &mut lib] {
        assert!(d["seconds"].as_f64().is_some(), "{d}");
        d["seconds"] = 0.into();
    }
    assert!(doc["peak_rss_bytes"].as_u64().unwrap() > 0);
    doc["peak_rss_bytes"] = Value::Null;
    assert_eq!(doc, lib);
    assert_eq!(u(&doc["states"]), 16);
    assert_eq!(doc["entirely_reversible"], false);
    assert_eq!(
        u(&doc["solvable_states"]) + u(&doc["unsolvable_states"]),
        16
    );
    let doc = on_room("analyze", "MCTOD", &["--max-states", "1000", "--json"])
        .code(1)
        .json();
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["limit"], "max-states");
}

#[test]
fn profile_writes_json_csv_and_svg() {
    let svg = Temp::new("profile.svg");
    let csv = Temp::new("profile.csv");
    let (svg_path, csv_path) = (svg.path(), csv.path());
    let args = words_with(
        "--factors 0,5,100 --svg {} --csv {} --json",
        &[&svg_path, &csv_path],
    );
    let doc = on_room("profile", "TPSPR1", &args).code(0).json();
    assert_eq!(u(&doc["states"]), 173);
    let f = doc["factors"].as_array().unwrap();
    assert_eq!(f.len(), 3);
    assert_eq!(u(&f[0]["max"]), 11);
    let last = f[2]["cumulative"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last[0].as_f64(), Some(1.0));
    assert_eq!(u(&last[1]), 173);
    let picture = svg.read();
    assert!(picture.starts_with("<svg") && picture.contains("factor 100"));
    assert!(picture.matches("<polyline").count() + picture.matches("<path").count() >= 3);
    let table = csv.read();
    assert!(table.starts_with("factor,difficulty,normalised,positions,cumulative\n"));
    assert!(table.lines().any(|l| l.starts_with("100,")));
}

#[test]
fn patterns_annotate_a_solution() {
    let level = Temp::with(
        "train.txt",
        b"$$$---\n------\n------\n---.--\n------\n------\n",
    );
    let doc = floe_json(&["patterns", &level.path(), "--json"], 0);
    assert_eq!(doc["solved"], true);
    assert_eq!(u(&doc["trains"]), 1);
    let moves = doc["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 12);
    assert!(moves[8..].iter().all(|m| m["pattern"] == "train"));
    assert!(moves[..8].iter().all(|m| m["pattern"].is_null()));
}

#[test]
fn randomised_solvers_are_seeded() {
    let run = |seed: &str| {
        let mc = words_with("--algo mc --playouts 500 --seed {} --json", &[seed]);
        on_room("solve", "TPIBC1", &mc).json()
    };
    let a = run("7");
    let b = run("7");
    assert_eq!(a["moves"], b["moves"]);
    assert_eq!(a["details"]["solver"]["name"], "mc");
    if a["solved"] == true {
        assert!(u(&a["pushes"]) >= 7);
    }
    // a cap too small to solve: no proof, so exit 1
    let capped = words("--algo random --max-moves 3 --json");
    let doc = on_room("solve", "TPIBC2", &capped).code(1).json();
    assert_eq!(doc["solved"], false);
    assert_eq!(doc["status"], "gave-up");
    let mc = words("--algo mc --playouts 200 --runs 5 --json");
    let doc = on_room("bench-solvers", "STST2", &mc).code(0).json();
    assert_eq!(u(&doc["runs"]), 5);
    assert_eq!(u(&doc["optimum"]["fewest_moves"]["length"]), 7);
    assert!(doc["success_rate"].as_f64().unwrap() >= 0.0);
    on_room("bench-solvers", "STST2", &["--algo", "bfs"]).code(2);
}

#[test]
fn a_randomised_run_in_words_counts_the_draws_and_games_of_its_details() {
    // the text is read from the same details the JSON prints
    for (room, rest) in [
        ("TPIBC1", "--algo mc --playouts 200 --seed 3"),
        ("TPIBC2", "--algo random --seed 3"),
    ] {
        let text = on_room("solve", room, &words(rest)).stdout;
        let doc = on_room("solve", room, &words(&format!("{rest} --json"))).json();
        let d = &doc["details"];
        let (draws, games) = (u(&d["attempts"]), u(&d["playouts"]));
        assert!(draws > 0 && games > 0, "{d}");
        let line = format!(
            "{} random draws, {} game{} in ",
            floe::render::thousands(draws),
            floe::render::thousands(games),
            if games == 1 { "" } else { "s" }
        );
        assert!(text.contains(&line), "{line:?} not in\n{text}");
    }
}

#[test]
fn line_ends_of_every_system_read_alike() {
    // Unix, Windows and classic Mac line ends: the same level, the same answer
    let mut answers = Vec::new();
    for end in ["\n", "\r\n", "\r"] {
        let text = ["Title: ends", "$-.", "", "Title: second", "-$-.", ""].join(end);
        let f = Temp::with("ends.txt", text.as_bytes());
        let doc = floe(&["solve", &f.path(), "-l", "second", "--json"])
            .code(0)
            .json();
        answers.push((doc["level"].clone(), doc["length"].clone()));
    }
    assert_eq!(answers[0], (Value::from("second"), Value::from(1)));
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    // and an error in a CR-only file names the right line
    let f = Temp::with("ends.txt", b"Title: x\r$-.\r\rTitle: y\r-Q\r");
    let out = floe(&["solve", &f.path(), "-l", "y"]).code(2);
    assert!(out.stderr.contains("ends.txt:5:2:"), "{}", out.stderr);
}

#[test]
fn astar_with_a_cap_proves_a_bound_on_every_game_that_has_astar() {
    // OOSSAS needs 9 pushes: capped at 5, A* proves more are needed (exit 1, no solution);
    // capped at 9 or above, it answers the optimum. Ice blocks' `astar` is the plain A*,
    // which a cap turns into the bounded one, as on Ice Tower.
    let doc = on_room(
        "solve",
        "OOSSAS",
        &["--algo", "astar", "--max-moves", "5", "--json"],
    )
    .code(1)
    .json();
    assert_eq!(doc["status"], "limit", "{doc}");
    assert_eq!(doc["limit"], "max-moves");
    assert_eq!(doc["solved"], false);
    assert!(u(&doc["lower_bound"]) > 5, "{doc}");
    for cap in ["9", "40"] {
        let doc = on_room(
            "solve",
            "OOSSAS",
            &["--algo", "astar", "--max-moves", cap, "--json"],
        )
        .code(0)
        .json();
        assert_eq!(u(&doc["pushes"]), 9, "cap {cap}: {doc}");
    }
    let push = bundled("pushpush.txt");
    // PushPush's walled needs 1 push: capped at 0, a proof that it needs more
    let doc = floe(&[
        "solve",
        &push,
        "-l",
        "walled",
        "--algo",
        "astar",
        "--max-moves",
        "0",
        "--json",
    ])
    .code(1)
    .json();
    assert_eq!(doc["limit"], "max-moves", "{doc}");
    // other exact searches have no cap
    let r = on_room("solve", "OOSSAS", &["--algo", "bfs", "--max-moves", "5"]).code(2);
    assert!(r.stderr.contains("--max-moves caps A*"), "{}", r.stderr);
}

#[test]
fn graph_gives_every_position_of_a_room_with_its_distance() {
    let zelda = zelda();
    let doc = floe_json(&["graph", &zelda, "--level", "TPIBC3", "--json"], 0);
    assert_eq!(
        (
            u(&doc["states"]),
            u(&doc["depth"]),
            u(&doc["nearest_solved"])
        ),
        (1242, 17, 11)
    );
    let positions = doc["positions"].as_array().unwrap();
    let distance = doc["distance"].as_array().unwrap();
    assert_eq!((positions.len(), distance.len()), (1242, 1242));
    assert!(doc.get("moves").is_none(), "moves only when asked for");
    // the text says the same figures
    let text = floe(&["graph", &zelda, "--level", "TPIBC3"]).code(0).stdout;
    assert!(
        text.contains("1,242 positions") && text.contains("the farthest is 17 pushes"),
        "{text}"
    );
    assert!(text.contains("the nearest 11 pushes away"), "{text}");
    // moves on demand, positions left out on demand
    let doc = floe_json(
        &[
            "graph",
            &zelda,
            "--level",
            "TPIBC3",
            "--moves",
            "--no-positions",
            "--json",
        ],
        0,
    );
    assert_eq!(
        doc["moves"].as_array().unwrap().len() as u64,
        u(&doc["edges"])
    );
    assert!(doc.get("positions").is_none());
    // a limit: no graph, exit code 1
    let doc = floe_json(
        &[
            "graph",
            &zelda,
            "--level",
            "TPIBC3",
            "--max-states",
            "50",
            "--json",
        ],
        1,
    );
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["distance"].as_array().unwrap().len(), 0);
    assert_eq!(
        (doc["depth"].clone(), doc["indptr"].clone()),
        (Value::Null, serde_json::json!([0]))
    );
    // a graph beyond the memory budget stops cleanly at it: no graph, exit code 1
    let doc = floe_json(
        &[
            "graph",
            &zelda,
            "--level",
            "MCTOD",
            "--max-memory",
            "64M",
            "--json",
        ],
        1,
    );
    assert_eq!(
        (doc["complete"].clone(), doc["limit"].clone()),
        (false.into(), "max-memory".into())
    );
    // a flag of another command is a usage error
    floe(&["graph", &zelda, "--level", "TPIBC3", "--algo", "bfs"]).code(2);
}

#[test]
fn an_enumeration_beyond_the_budget_is_refused_naming_the_level_once() {
    let args = [
        "space",
        "--rows",
        "9",
        "--cols",
        "9",
        "--blocks",
        "12",
        "--max-memory",
        "64M",
    ];
    let out = floe(&args).code(2);
    assert!(
        out.stderr
            .starts_with("floe: empty 9x9, 12 blocks: up to 70,724,320,184,700 positions"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.matches("empty 9x9").count(), 1, "{}", out.stderr);
    assert!(out.stdout.is_empty());
}
