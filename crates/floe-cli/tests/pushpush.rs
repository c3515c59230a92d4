//! `floe solve --game pushpush` and `floe census pushpush`: JSON contracts, the spec's 4×4
//! figures, errors.

mod common;

use common::*;

/// `floe <cmd> levels/pushpush.txt -l <level> <rest…>`.
fn on_level(cmd: &str, level: &str, rest: &[&str]) -> Run {
    let levels = bundled("pushpush.txt");
    floe(&[&[cmd, levels.as_str(), "-l", level][..], rest].concat())
}

#[test]
fn solve_json_contract_and_replay() {
    let levels = bundled("pushpush.txt");
    let doc = floe_json(&["solve", &levels, "--level", "hardest-4x4-a", "--json"], 0);
    assert_eq!(doc["game"], "pushpush");
    assert_eq!(doc["solved"], true);
    assert_eq!(u(&doc["pushes"]), 7);
    let moves = doc["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    for m in moves {
        assert!(m["row"].is_u64() && m["col"].is_u64() && m["dir"].is_string());
    }
    let d = &doc["difficulty"];
    let value = d["value"].as_f64().unwrap();
    assert!((0.0..=5.0).contains(&value));
    assert!(u(&d["solutions"]) >= 1 && u(&d["possible_moves"]) >= u(&d["solutions"]));
    // the same with A* and IDA*
    for algo in ["astar", "idastar"] {
        let doc = on_level("solve", "hardest-4x4-a", &["--algo", algo, "--json"])
            .code(0)
            .json();
        assert_eq!(u(&doc["pushes"]), 7, "{algo}");
    }
}

#[test]
fn game_line_selects_the_rules_and_the_flag_does_too() {
    let with_line = Temp::with("with-line.txt", b"Game: pushpush\n@$--\n##-.\n");
    let doc = floe_json(&["solve", &with_line.path(), "--json"], 0);
    assert_eq!(u(&doc["pushes"]), 1);
    let without = Temp::with("without.txt", b"@$--\n##-.\n");
    let doc = floe_json(
        &["solve", &without.path(), "--game", "pushpush", "--json"],
        0,
    );
    assert_eq!(u(&doc["pushes"]), 1);
    // without either, the file is read as ice blocks, where '@' and '.' mean other things
    let human = floe(&["solve", &with_line.path()]).code(0);
    assert!(human.stdout.contains("): 1 push,"), "{}", human.stdout);
}

#[test]
fn unsolvable_boards_are_proved_and_limits_exit_1() {
    let t = Temp::with("stuck.txt", b"Game: pushpush\n@$#.\n");
    let doc = floe_json(&["solve", &t.path(), "--json"], 0);
    assert_eq!(doc["solved"], false);
    assert_eq!(doc["status"], "unsolvable");
    let doc = on_level("solve", "hardest-4x4-a", &["--max-states", "5", "--json"])
        .code(1)
        .json();
    assert_eq!(doc["status"], "limit");
}

#[test]
fn pushpush_k_moves_rows() {
    let t = Temp::with("row.txt", b"Game: pushpush\n-#--.\n@$$--\n-#---\n");
    let doc = floe_json(&["solve", &t.path(), "--json"], 0);
    assert_eq!(doc["status"], "unsolvable");
    for k in ["2", "0"] {
        let doc = floe_json(&["solve", &t.path(), "--k", k, "--json"], 0);
        assert_eq!(u(&doc["pushes"]), 1, "k = {k}");
    }
}

#[test]
fn bad_boards_name_line_and_column() {
    for (text, line, col) in [
        ("Game: pushpush\n@-x.\n", 2, 3),
        ("Game: pushpush\n@--\n--\n.--\n", 3, 3),
        ("Game: pushpush\n---\n-.-\n", 2, 1),
        ("Game: pushpush\n@-.\n@--\n", 3, 1),
    ] {
        let t = Temp::with("bad.txt", text.as_bytes());
        let out = floe(&["solve", &t.path(), "--json"]).code(2);
        let prefix = format!("floe: {}:{line}:{col}: ", t.path());
        assert!(out.stderr.starts_with(&prefix), "{text:?}: {}", out.stderr);
        assert!(out.stdout.is_empty());
    }
    let t = Temp::with("ice-opts.txt", b"Game: pushpush\n@$--\n##-.\n");
    floe(&["solve", &t.path(), "--rules", "walk"]).code(2);
    floe(&["solve", &t.path(), "--algo", "difficulty"]).code(2);
    floe(&["solve", &t.path(), "--game", "chess"]).code(2);
}

#[test]
fn census_json_contract_4x4() {
    let doc = floe_json(&words("census pushpush --rows 4 --cols 4 --json"), 0);
    assert_eq!(u(&doc["boards"]), 7_864_320);
    assert_eq!(u(&doc["unsolvable"]), 3_668_048);
    assert_eq!(u(&doc["by_pushes"]["0"]), 2_424_312);
    assert_eq!(u(&doc["by_pushes"]["1"]), 1_356_840);
    let by_blocks = doc["by_blocks"].as_array().unwrap();
    assert_eq!(u(&by_blocks[0]["solvable"]), 240);
    assert_eq!(u(&by_blocks[15]["unsolvable"]), 240);
    let total: u64 = by_blocks
        .iter()
        .map(|r| u(&r["solvable"]) + u(&r["unsolvable"]))
        .sum();
    assert_eq!(total, 7_864_320);
    let hardest = &doc["hardest"];
    let d = u(&hardest["pushes"]);
    assert_eq!(u(&doc["by_pushes"][d.to_string()]), u(&hardest["count"]));
    let boards = hardest["boards"].as_array().unwrap();
    assert!(!boards.is_empty());
    // every listed hardest board solves alone in exactly that many pushes
    for b in boards {
        let t = Temp::with(
            "hard.txt",
            format!("Game: pushpush\n{}", b.as_str().unwrap()).as_bytes(),
        );
        let one = floe_json(&["solve", &t.path(), "--json"], 0);
        assert_eq!(u(&one["pushes"]), d);
    }
    let c = &doc["classes"];
    assert!(u(&c["both"]) < u(&c["symmetry"]) && u(&c["symmetry"]) < u(&c["robot_region"]));
    assert!(u(&c["robot_region"]) < 7_864_320);
}

#[test]
fn census_difficulty_and_pictures() {
    let svg = Temp::new("census.svg");
    let line = "census pushpush --rows 3 --cols 3 --difficulty --svg {} --json";
    let doc = floe_json(&words_with(line, &[&svg.path()]), 0);
    let d = &doc["difficulty"];
    assert_eq!(d["bin_width"].as_f64(), Some(0.1));
    for (p, bins) in d["by_pushes"].as_object().unwrap() {
        let n: u64 = bins.as_array().unwrap().iter().map(u).sum();
        assert_eq!(
            n,
            u(&doc["by_pushes"][p]),
            "difficulty histogram at {p} pushes"
        );
    }
    assert!(svg.read().starts_with("<svg"));
    let stem = svg.0.with_extension("");
    for suffix in [
        "pushes",
        "pushes-by-blocks",
        "difficulty-by-pushes",
        "difficulty-by-blocks",
    ] {
        let p = std::path::PathBuf::from(format!("{}-{suffix}.svg", stem.display()));
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        assert!(text.starts_with("<svg"), "{suffix}");
        let _ = std::fs::remove_file(&p);
    }
}

#[test]
fn census_refuses_what_it_cannot_do() {
    floe(&words("census pushpush --rows 6 --cols 6")).code(2);
    floe(&words("census pushpush --rows 1 --cols 1")).code(2);
    floe(&words("census pushpush --rows 0 --cols 4")).code(2);
    floe(&words("census pushpush --rows 4 --cols 4 --max-states 10")).code(1);
}

#[test]
fn verify_replays_and_names_the_illegal_push() {
    let sol = Temp::new("sol.json");
    let out = on_level("solve", "hardest-5x5", &["--json"]).code(0);
    std::fs::write(&sol.0, &out.stdout).unwrap();
    let doc = on_level("verify", "hardest-5x5", &["--moves", &sol.path(), "--json"])
        .code(0)
        .json();
    assert_eq!(
        (doc["valid"].as_bool(), doc["solved"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(u(&doc["pushes"]), 13);
    // the first push, repeated: the block has gone
    let moves = Temp::with("moves.txt", b"1 4 up\n1 4 up\n");
    let doc = on_level(
        "verify",
        "hardest-5x5",
        &["--moves", &moves.path(), "--json"],
    )
    .code(2)
    .json();
    assert_eq!(doc["valid"], false);
    assert_eq!(u(&doc["error"]["index"]), 2);
    assert!(doc["error"]["reason"]
        .as_str()
        .unwrap()
        .contains("no block"));
    // legal but not solved
    let moves = Temp::with("one.txt", b"1 4 up\n");
    let out = on_level("verify", "hardest-5x5", &["--moves", &moves.path()]).code(0);
    assert!(
        out.stdout.contains("the level is NOT solved"),
        "{}",
        out.stdout
    );
}
