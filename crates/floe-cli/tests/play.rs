//! Integration tests of `floe play` without a terminal: key scripts (`--keys`, `--script`)
//! drive the same game as the terminal front end, for each of the three games. Levels: the
//! bundled `levels/*.txt`, small temporary files, and Ice Tower maps from
//! `../shared/levels/qits-icetower/`. The whole file runs in a few seconds in release mode.

mod common;

use common::*;
use floe::games::ice::{self, WalkRule};
use floe::grid::Push;
use serde_json::Value;

/// `floe play ARGS --keys KEYS --json`, exit 0, the JSON contract checked.
fn play(args: &[&str], keys: &str) -> Value {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--keys", keys, "--json"]);
    let doc = floe(&all).code(0).json();
    for key in [
        "level", "game", "steps", "length", "solved", "solvable", "to_go", "moves", "board",
        "message",
    ] {
        assert!(doc.get(key).is_some(), "no {key:?} in {doc}");
    }
    assert_eq!(doc["length"], doc["moves"].as_array().unwrap().len());
    doc
}

fn event(doc: &Value, i: usize) -> String {
    doc["steps"][i]["event"].as_str().unwrap().to_string()
}

fn moves(doc: &Value) -> Vec<Push> {
    serde_json::from_value(doc["moves"].clone()).unwrap()
}

const SMALL_ICE: &str = "Title: small\n$--$\n---.\n";

#[test]
fn ice_blocks_solved_by_keys() {
    let f = Temp::with("small.txt", SMALL_ICE.as_bytes());
    let doc = play(&[&f.path()], "right tab down");
    assert_eq!(doc["game"], "ice");
    assert_eq!(doc["level"], "small");
    assert_eq!(doc["solved"], true);
    assert_eq!(doc["length"], 2);
    assert_eq!(doc["solvable"], "yes");
    assert_eq!(doc["to_go"], 0);
    assert_eq!(doc["board"], "--$-\n---*\n");
    assert_eq!(event(&doc, 2), "pushed (0, 3) down: solved!");
    // the moves replay on the library's validator
    let level = ice::parse(SMALL_ICE, "t", None).unwrap().remove(0);
    assert!(
        ice::replay(&level, WalkRule::Free, &moves(&doc))
            .unwrap()
            .solved
    );
    // human output
    let r = floe(&["play", &f.path(), "--keys", "right tab down"]).code(0);
    assert!(r.stdout.contains("2 pushes, solved"), "{}", r.stdout);
    assert!(
        r.stdout.contains("moves: (0, 0) right, (0, 3) down"),
        "{}",
        r.stdout
    );
}

#[test]
fn undo_redo_restart_and_a_script_file() {
    let f = Temp::with("small.txt", SMALL_ICE.as_bytes());
    let start = "$--$\n---.\n";
    let doc = play(&[&f.path()], "right tab down u u");
    assert_eq!(
        (doc["length"].as_u64(), doc["board"].as_str()),
        (Some(0), Some(start))
    );
    assert_eq!(event(&doc, 3), "took back (0, 3) down");
    let doc = play(&[&f.path()], "right tab down u u r ctrl-y");
    assert_eq!(doc["length"], 2);
    assert_eq!(doc["solved"], true);
    let doc = play(&[&f.path()], "right tab down R r");
    assert_eq!(doc["length"], 0);
    assert_eq!(doc["board"], start);
    assert_eq!(doc["message"], "nothing to redo");
    // q ends the script
    let doc = play(&[&f.path()], "right q down");
    assert_eq!(
        (doc["played"].as_u64(), doc["length"].as_u64()),
        (Some(2), Some(1))
    );
    // the same keys from a file
    let keys = Temp::with("keys.txt", b"right\ntab\ndown\n");
    let doc = floe(&["play", &f.path(), "--script", &keys.path(), "--json"])
        .code(0)
        .json();
    assert_eq!(doc["solved"], true);
}

#[test]
fn ice_hints_followed_solve_a_zelda_room_in_the_fewest_pushes() {
    let zelda = bundled("zelda.txt");
    let doc = play(&[&zelda, "--level", "OOTIC", "--max-states", "100000"], "h");
    assert_eq!(doc["solvable"], "yes");
    assert_eq!(doc["to_go"], 7);
    assert!(event(&doc, 0).starts_with("hint: push "), "{doc}");
    let doc = play(&[&zelda, "--level", "OOTIC"], &["H"; 7].join(" "));
    assert_eq!(
        (doc["solved"].as_bool(), doc["length"].as_u64()),
        (Some(true), Some(7))
    );
}

#[test]
fn illegal_pushes_are_reported_and_change_nothing() {
    let f = Temp::with("small.txt", SMALL_ICE.as_bytes());
    let doc = play(&[&f.path()], "left");
    assert_eq!(doc["length"], 0);
    let e = event(&doc, 0);
    assert!(
        e.starts_with("illegal push (0, 0) left: the block cannot move"),
        "{e}"
    );
    // the walk rule: the player is walled in, the cell below the block is out of his reach
    let walled = Temp::with("walled.txt", b"#####\n#@#--\n###$.\n-----\n");
    let doc = play(&[&walled.path(), "--rules", "walk"], "up");
    assert!(event(&doc, 0).contains("cannot walk to"), "{doc}");
    assert_eq!(doc["solvable"], "no");
    let doc = play(&[&walled.path(), "--rules", "free"], "up");
    assert_eq!(event(&doc, 0), "pushed (2, 3) up");
}

#[test]
fn bad_keys_and_missing_terminals_are_usage_errors() {
    let f = Temp::with("small.txt", SMALL_ICE.as_bytes());
    let r = floe(&["play", &f.path(), "--keys", "right jump"]).code(2);
    assert!(
        r.stderr.contains("key 2: unknown key 'jump'"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty());
    // standard output is a pipe here: without keys there is nothing sensible to draw on
    let r = floe(&["play", &f.path()]).code(2);
    assert!(r.stderr.contains("needs a terminal"), "{}", r.stderr);
    let r = floe(&["play", &f.path(), "--json"]).code(2);
    assert!(r.stderr.contains("--json goes with --keys"), "{}", r.stderr);
    // options of other games are refused by the one rule for every game
    let r = floe(&["play", &f.path(), "--k", "2", "--keys", "q"]).code(2);
    assert!(
        r.stderr.contains("--k does not apply to ice blocks levels"),
        "{}",
        r.stderr
    );
    // a broken level: file:line:col
    let bad = Temp::with("bad.txt", b"$-x\n");
    let r = floe(&["play", &bad.path(), "--keys", "q"]).code(2);
    assert!(r.stderr.contains(":1:3:"), "{}", r.stderr);
}

#[test]
fn pushpush_robot_walks_pushes_and_can_lose() {
    let pp = bundled("pushpush.txt");
    // one-way: pushing up loses; the hint then says so
    let doc = play(&[&pp, "--level", "one-way"], "up h");
    assert_eq!(doc["game"], "pushpush");
    assert_eq!(doc["solvable"], "no");
    assert!(event(&doc, 1).starts_with("no hint"), "{doc}");
    // undo, walk round, push from the right
    let doc = play(&[&pp, "--level", "one-way"], "up u right up left");
    assert_eq!(event(&doc, 2), "walked to (row 2, col 2)");
    assert_eq!(doc["solved"], true);
    assert_eq!(doc["length"], 1);
    // walking into a wall is no push
    let doc = play(&[&pp, "--level", "one-way"], "right right");
    assert!(event(&doc, 1).starts_with("cannot walk there"), "{doc}");
    assert_eq!(doc["length"], 0);
    // the hardest 4×4 board: the hints find its 7 pushes
    let doc = play(&[&pp, "--level", "hardest-4x4-a"], &["H"; 7].join(" "));
    assert_eq!(
        (doc["solved"].as_bool(), doc["length"].as_u64()),
        (Some(true), Some(7))
    );
    let r = pp_replay(&pp, &moves(&doc));
    assert!(r);
}

fn pp_replay(file: &str, moves: &[Push]) -> bool {
    use floe::games::pushpush::{board, replay, Variant};
    let boards = board::load(std::path::Path::new(file)).unwrap();
    let (_, b) = board::select(&boards, "hardest-4x4-a").unwrap();
    replay(b, moves, Variant::default()).unwrap().solved
}

#[test]
fn icetower_magician_walks_pushes_and_follows_hints() {
    let q = qits("qits002");
    let g = ["--game", "icetower"];
    // left of the magician is a fire, above him a wall; right of him a block
    let doc = play(&[&q, g[0], g[1]], "left up right right right right");
    assert_eq!(doc["game"], "icetower");
    assert_eq!(event(&doc, 0), "cannot walk there: a fire");
    assert_eq!(event(&doc, 1), "cannot walk there: a wall");
    assert_eq!(event(&doc, 2), "pushed (6, 3) right");
    assert_eq!(event(&doc, 3), "walked to (row 6, col 3)");
    assert!(
        event(&doc, 5).starts_with("illegal push (6, 5) right"),
        "{doc}"
    );
    assert_eq!(doc["length"], 1);
    // the hints solve it in its 8 pushes (spec figure)
    let doc = play(&[&q, g[0], g[1]], &["H"; 8].join(" "));
    assert_eq!(
        (doc["solved"].as_bool(), doc["length"].as_u64()),
        (Some(true), Some(8))
    );
    let t = floe::games::icetower::parse(&std::fs::read_to_string(&q).unwrap(), &q, "q").unwrap();
    assert!(
        floe::games::icetower::replay(&t, &moves(&doc))
            .unwrap()
            .solved
    );
    // undo and restart
    let doc = play(&[&q, g[0], g[1]], "H H u R");
    assert_eq!(doc["length"], 0);
    // arrows and dispensers only with --dynamic, as for floe solve
    let dynamic = Temp::with("dyn.txt", b"Game: icetower\n@% v\n   *\n");
    let r = floe(&["play", &dynamic.path(), "--keys", "q"]).code(2);
    assert!(
        r.stderr.contains(":2:4: an arrow (v) is a dynamic element"),
        "{}",
        r.stderr
    );
    let doc = play(&[&dynamic.path(), "--dynamic"], "H");
    assert_eq!(doc["solved"], true);
    // a limit gives "unknown", never a guess
    let doc = play(&[&qits("w21"), g[0], g[1], "--max-states", "50"], "h");
    assert_eq!(doc["solvable"], "unknown");
    assert_eq!(doc["limit"], "max-states");
}
