//! `floe explain`: why a position is lost — the push that lost it and a dead core — as text
//! and JSON, from a file of moves or standard input, with its exit codes and wrong arguments.

mod common;

use common::*;
use serde_json::Value;

const PUSHPUSH: &[u8] = b"Game: pushpush\nTitle: edge\n@$--.\n-----\n-$---\n";

fn cells(doc: &Value) -> Vec<(u64, u64)> {
    doc["core"]["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| (u(&c["row"]), u(&c["col"])))
        .collect()
}

#[test]
fn the_push_that_lost_it_and_the_core_are_said_and_given_as_json() {
    let level = Temp::with("explain-edge.txt", PUSHPUSH);
    let moves = Temp::with("explain-edge.moves", b"0 1 right\n2 1 right\n");
    let args = ["explain", &level.path(), "--moves", &moves.path()];
    let text = floe(&args).code(0).stdout;
    assert_eq!(
        text.lines().next().unwrap(),
        "edge: after 2 pushes: This block can no longer be moved out of the robot's way. \
         Push 1, (0, 1) right, lost it: take back 2 pushes to save it."
    );
    assert!(
        text.contains("dead core: 1 of the 2 blocks, (0, 4), the smallest"),
        "{text}"
    );
    assert!(text.contains("; 2 sets tried alone\n"), "{text}");
    let doc = floe_json(&[&args[..], &["--json"]].concat(), 0);
    assert_eq!(doc["standing"], "lost");
    assert_eq!(
        (u(&doc["lost_at"]["index"]), u(&doc["lost_at"]["undo"])),
        (1, 2)
    );
    assert_eq!(doc["lost_at"]["played"]["dir"], "right");
    assert_eq!(cells(&doc), [(0, 4)]);
    assert_eq!(doc["core"]["kind"], "blocks");
    // the moves on standard input, the same answer
    let piped = floe_stdin(
        &["explain", &level.path(), "--moves", "-", "--json"],
        b"0 1 right\n2 1 right\n",
    )
    .code(0)
    .json();
    assert_eq!(piped["core"], doc["core"]);
}

#[test]
fn a_start_that_cannot_be_solved_is_explained_without_moves() {
    // qits003: unsolvable, the level file's last line says so
    let doc = floe_json(
        &[
            "explain",
            &qits("qits003"),
            "--game",
            "icetower",
            "--timeout",
            "60s",
            "--json",
        ],
        0,
    );
    assert_eq!(doc["standing"], "lost");
    assert_eq!(doc["lost_from_start"], true);
    assert_eq!(doc["core"]["kind"], "fires");
    assert_eq!(doc["core"]["smallest"], true);
    assert!(!cells(&doc).is_empty());
    let text = doc["sentence"].as_str().unwrap();
    assert!(
        text.ends_with("The level cannot be solved from its start."),
        "{text}"
    );
}

#[test]
fn a_solvable_position_is_not_lost_and_a_limit_says_so_with_exit_1() {
    let doc = floe_json(
        &["explain", &bundled("zelda.txt"), "-l", "OOTIC", "--json"],
        0,
    );
    assert_eq!(
        (doc["standing"].as_str(), u(&doc["to_go"])),
        (Some("solvable"), 7)
    );
    assert!(doc["core"].is_null());
    // the whole explanation within one position: the solver cannot tell
    let doc = floe_json(
        &[
            "explain",
            &bundled("zelda.txt"),
            "-l",
            "OOSSAS",
            "--max-states",
            "1",
            "--json",
        ],
        1,
    );
    assert_eq!(doc["standing"], "unknown");
    assert_eq!(doc["limit"], "max-states");
}

#[test]
fn a_cap_on_sets_answers_a_dead_set_not_proved_smallest_with_exit_1() {
    let tower = Temp::with(
        "explain-tower.txt",
        b"Game: icetower\n#########\n#*  %  *#\n#   @   #\n#########\n",
    );
    let doc = floe_json(&["explain", &tower.path(), "--subsets", "2", "--json"], 1);
    assert_eq!(doc["core"]["smallest"], false);
    assert_eq!(doc["core"]["stopped"], "subsets");
    let text = floe(&["explain", &tower.path(), "--subsets", "2"])
        .code(1)
        .stdout;
    assert!(text.contains("not proved the smallest"), "{text}");
}

#[test]
fn wrong_arguments_and_illegal_moves_are_refused_with_exit_2() {
    let level = Temp::with("explain-wrong.txt", PUSHPUSH);
    for bad in [
        "0",
        "-1",
        "1.5",
        "ten",
        "99999999999999999999",
        "1000000001",
    ] {
        let out = floe(&["explain", &level.path(), "--subsets", bad]).code(2);
        assert!(out.stderr.contains("--subsets"), "{bad}: {}", out.stderr);
    }
    let moves = Temp::with("explain-wrong.moves", b"0 1 up\n");
    let out = floe(&["explain", &level.path(), "--moves", &moves.path()]).code(2);
    assert!(
        out.stderr.contains("move 1") && out.stderr.contains("illegal"),
        "{}",
        out.stderr
    );
    let out = floe(&["explain", &level.path(), "--moves", "/no/such/file"]).code(2);
    assert!(out.stderr.contains("/no/such/file"), "{}", out.stderr);
}

#[test]
fn a_game_without_pieces_says_where_the_position_stands() {
    // the solitaires have no pieces to explain a loss by: the standing alone
    let doc = floe_json(
        &["explain", &bundled("solitaire/boxoff-1.txt"), "--json"],
        0,
    );
    assert!(doc["core"].is_null());
    assert!(
        ["solvable", "lost"].contains(&doc["standing"].as_str().unwrap()),
        "{doc}"
    );
}
