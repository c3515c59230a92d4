//! Integration tests of `floe solve --game boxoff|pretzel|fujisan` and `floe experiment`: the
//! JSON contracts, exit codes, `file:line:col` errors, determinism, and the spec's reference
//! figures (the shortest Fujisan solution has eight moves; the Ducking Crab and Duelling
//! Deuces rates of (4, 3) Sequential Suits through the exact enumeration).

mod common;

use common::*;
use serde_json::Value;

fn floe_in(args: &[&str], stdin: Option<&str>) -> Run {
    run_with(args, stdin.map(str::as_bytes))
}

/// Writes `text` to a fresh temporary file, removed when dropped.
fn file(text: &str) -> Temp {
    Temp::with("solitaire.txt", text.as_bytes())
}

fn path(t: &Temp) -> &str {
    t.0.to_str().unwrap()
}

const BOXOFF: &str = "Game: boxoff\nTitle: two pairs\n1 2 2 1\n3 3 4 4\n";
const PRETZEL: &str = "Game: pretzel\n2S -- 3S\n-- 3H 2H\n";
const FUJISAN: &str = "Game: fujisan\n0 4 0 2 5 1 1 5 5 3 0 3\n4 1 2 4 4 5 2 3 2 2 3 1\n";

#[test]
fn solve_json_contract_for_every_game() {
    for (text, game, length) in [
        (BOXOFF, "boxoff", 4),
        (PRETZEL, "pretzel", 2),
        (FUJISAN, "fujisan", 9),
    ] {
        let f = file(text);
        // the Game: line picks the rules
        let j = floe_json(&["solve", path(&f), "--json"], 0);
        for key in [
            "level", "game", "solved", "status", "moves", "length", "states", "seconds",
        ] {
            assert!(j.get(key).is_some(), "{game}: no {key} in {j}");
        }
        assert_eq!(j["game"], game);
        assert_eq!(j["solved"], true);
        assert_eq!(j["status"], "solved");
        assert_eq!(j["length"], length);
        assert_eq!(j["moves"].as_array().unwrap().len(), length);
        // every exact algorithm finds the same length
        for algo in ["bfs", "astar", "idastar"] {
            let k = floe_json(
                &["solve", path(&f), "--game", game, "--algo", algo, "--json"],
                0,
            );
            assert_eq!(k["length"], length, "{game} {algo}");
        }
    }
    let j = floe(&["solve", path(&file(BOXOFF)), "--json"]).json();
    assert_eq!(j["level"], "two pairs");
    assert_eq!(j["moves"][0]["remove"], serde_json::json!([[0, 1], [0, 2]]));
    let j = floe(&["solve", path(&file(PRETZEL)), "--json"]).json();
    assert_eq!(
        j["moves"][0],
        serde_json::json!({"card": "3S", "from": [0, 2], "to": [0, 1]})
    );
}

#[test]
fn unsolvable_limits_and_random() {
    let f = file("Game: boxoff\n1 2 1 2\n");
    let j = floe_json(&["solve", path(&f), "--json"], 0);
    assert_eq!(
        (j["solved"].clone(), j["status"].clone()),
        (Value::Bool(false), "unsolvable".into())
    );
    // a limit gives no answer: exit 1
    let f = file(FUJISAN);
    let j = floe_json(&["solve", path(&f), "--max-states", "5", "--json"], 1);
    assert_eq!(j["status"], "limit");
    assert_eq!(j["limit"], "max-states");
    // the random solver: seeded, exit 0 when it solves, 1 when not (no proof)
    let f = file(BOXOFF);
    let seeded = || {
        floe(&[
            "solve",
            path(&f),
            "--algo",
            "random",
            "--seed",
            "4",
            "--json",
        ])
    };
    let (a, b) = (seeded(), seeded());
    assert_eq!(a.json()["moves"], b.json()["moves"]);
    assert!(a.code == 0 || a.code == 1);
    assert_eq!(a.json()["solved"], a.code == 0);
    // an ice-only algorithm is a usage error
    floe(&["solve", path(&f), "--algo", "difficulty"]).code(2);
}

#[test]
fn human_output_and_stdin() {
    let r = floe_in(
        &["solve", "-", "--game", "pretzel", "--boards"],
        Some(PRETZEL),
    )
    .code(0);
    assert!(r.stdout.contains("): 2 moves"), "{}", r.stdout);
    assert!(r.stdout.contains("1. 3S (0,2) → (0,1)"), "{}", r.stdout);
    let r = floe(&["solve", path(&file(FUJISAN)), "--boards"]).code(0);
    assert!(r.stdout.contains("): 9 moves"), "{}", r.stdout);
}

#[test]
fn bad_files_are_located_never_a_panic() {
    let cases: [(&str, &str, &str); 8] = [
        (
            "Game: boxoff\n12\n1x\n",
            "boxoff",
            ":3:2: 'x' is not a colour",
        ),
        (
            "Game: boxoff\n12\n1\n",
            "boxoff",
            ":3:1: this row has 1 cells",
        ),
        (
            "Game: pretzel\n2S 3S --\n2H 3H 2H\n",
            "pretzel",
            ":3:7: 2H appears twice",
        ),
        (
            "Game: pretzel\n2S 3S --\n2H AH --\n",
            "pretzel",
            ":3:4: AH: the aces",
        ),
        (
            "Game: fujisan\n1 2 3\n1 2 3\n",
            "fujisan",
            ":2:1: a Fujisan mountain has an even width",
        ),
        ("Game: fujisan\n1234\n", "fujisan", "two rows"),
        ("Game: chess\n1\n", "boxoff", ":1:7: unknown game 'chess'"),
        (
            "Game: boxoff\nColour: red\n11\n",
            "boxoff",
            ":2:1: unknown header",
        ),
    ];
    for (text, game, want) in cases {
        let f = file(text);
        let r = floe(&["solve", path(&f), "--game", game]).code(2);
        assert!(r.stderr.contains(want), "{text:?}: {}", r.stderr);
        assert!(r.stderr.contains(path(&f)), "{}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    // the flag and the file disagree
    let r = floe(&["solve", path(&file(BOXOFF)), "--game", "pretzel"]).code(2);
    assert!(
        r.stderr.contains("a boxoff challenge, not pretzel"),
        "{}",
        r.stderr
    );
    // options of other games
    floe(&["solve", path(&file(BOXOFF)), "--k", "2"]).code(2);
    // a challenge file holds one level: --level 1 picks it, --level 2 does not exist
    floe(&["solve", path(&file(BOXOFF)), "--level", "1"]).code(0);
    floe(&["solve", path(&file(BOXOFF)), "--level", "2"]).code(2);
}

fn without_seconds(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(o) => {
                o.remove("seconds");
                o.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn experiment_json_contract_and_determinism() {
    let args = [
        "experiment",
        "boxoff",
        "--rows",
        "4",
        "--cols",
        "6",
        "--colors",
        "4",
        "--setup",
        "ltiles",
        "--challenges",
        "200",
        "--trials",
        "10",
        "--seed",
        "7",
        "--json",
    ];
    let j = floe_json(&args, 0);
    for key in [
        "solvable",
        "random_solvable",
        "interest",
        "trials",
        "length",
        "metrics",
    ] {
        assert!(j.get(key).is_some(), "no {key}");
    }
    let trials = j["trials"].as_array().unwrap();
    assert_eq!(trials.len(), 10);
    let mean: f64 = trials
        .iter()
        .map(|t| t["solvable"].as_f64().unwrap())
        .sum::<f64>()
        / 10.0;
    assert!((mean - j["solvable"].as_f64().unwrap()).abs() < 1e-9);
    let interest = j["solvable"].as_f64().unwrap() - j["random_solvable"].as_f64().unwrap();
    assert!((interest - j["interest"].as_f64().unwrap()).abs() < 1e-12);
    assert_eq!(j["length"]["median"], 12.0);
    // the first solution found depth-first: the same 12 moves (every BoxOff solution has
    // h·w/2 moves)
    assert_eq!(j["dfs_first_length"], j["length"]);
    let solved = (200.0 * j["solvable"].as_f64().unwrap()).round() as u64;
    assert_eq!(j["length"]["histogram"]["12"].as_u64().unwrap(), solved);
    assert!(j["metrics"]["pair_equality"]["solvable"]["mean"].is_number());
    // the authors' random player (BoxOff positions never repeat: every game ends solved or
    // stuck)
    assert_eq!(j["random_player"], "revisit");
    assert_eq!(j["random_horizon"], Value::Null);
    let e = &j["random_endings"];
    assert_eq!(e["revisit"], 0);
    assert_eq!(e["horizon"], 0);
    assert_eq!(
        e["solved"].as_u64().unwrap() + e["stuck"].as_u64().unwrap(),
        200
    );
    assert_eq!(
        e["solved"].as_f64().unwrap() / 200.0,
        j["random_solvable"].as_f64().unwrap()
    );
    // the horizon changes no BoxOff game
    let mut capped = args.to_vec();
    capped.extend(["--random-horizon", "1000"]);
    let k = floe_json(&capped, 0);
    assert_eq!(k["random_player"], "horizon");
    assert_eq!(k["random_horizon"], 1000);
    assert_eq!(k["random_endings"], j["random_endings"]);
    assert_eq!(k["trials"], j["trials"]);
    // same seed, same numbers, whatever the threads
    let mut one = args.to_vec();
    one.extend(["--threads", "1"]);
    let k = floe_json(&one, 0);
    assert_eq!(without_seconds(j.clone()), without_seconds(k));
    // another seed, other challenges
    let mut other = args.to_vec();
    other[15] = "8";
    let k = floe_json(&other, 0);
    assert_ne!(j["trials"], k["trials"]);
}

#[test]
fn experiment_compare_adds_tests() {
    let j = floe(&[
        "experiment",
        "fujisan",
        "--compare",
        "shuffled,dominoes",
        "--challenges",
        "100",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(j["setups"].as_array().unwrap().len(), 2);
    let t = j["t_tests"].as_array().unwrap();
    assert_eq!(t.len(), 3);
    assert!(t[0]["student"]["p"].is_number());
    assert!(j["kruskal_wallis"]["h"].is_number());
    assert!(j["kruskal_wallis_counter_intuitive"]["p"].is_number());
    for s in j["setups"].as_array().unwrap() {
        // the authors' random player gives up on a repeated position: most Fujisan games end
        // that way, and few are solved (the paper: P(Sr) < 0.003)
        assert_eq!(s["random_player"], "revisit");
        assert!(s["random_endings"]["revisit"].as_u64().unwrap() > 80, "{s}");
        assert!(s["random_solvable"].as_f64().unwrap() < 0.05, "{s}");
        // a depth-first search's first solution is never shorter than the fewest moves
        assert!(
            s["dfs_first_length"]["min"].as_u64().unwrap() >= s["length"]["min"].as_u64().unwrap()
        );
        assert!(
            s["dfs_first_length"]["mean"].as_f64().unwrap() > s["length"]["mean"].as_f64().unwrap()
        );
        // the shortest Fujisan solution has eight moves (the paper, section IV-B2)
        assert!(s["length"]["min"].as_u64().unwrap() >= 8);
        assert!(s["metrics"]["connectivity"]["all"]["mean"].is_number());
        assert!(s["metrics"]["counter_intuitive"]["histogram"].is_object());
    }
}

#[test]
fn the_random_horizon_reading_of_fujisan() {
    // --random-horizon (formerly --playout-cap) plays on through repeated positions: a
    // quarter of the challenges fall to such a random walk
    let run = |extra: &[&str]| {
        let mut args = words("experiment fujisan --setup shuffled --challenges 200 --json");
        args.extend(extra);
        floe_json(&args, 0)
    };
    let authors = run(&[]);
    let capped = run(&["--random-horizon", "1000"]);
    assert_eq!(capped["random_horizon"], 1000);
    assert_eq!(capped["random_endings"]["revisit"], 0);
    assert!(capped["random_endings"]["horizon"].as_u64().unwrap() > 50);
    assert!(
        capped["random_solvable"].as_f64().unwrap()
            > 10.0 * authors["random_solvable"].as_f64().unwrap().max(0.001)
    );
    // the exact solver does not depend on the random player
    assert_eq!(capped["solvable"], authors["solvable"]);
    assert_eq!(capped["length"], authors["length"]);
    let old = run(&["--playout-cap", "1000"]);
    assert_eq!(without_seconds(old), without_seconds(capped));
    floe(&["experiment", "fujisan", "--random-horizon", "0"]).code(2);
    floe(&["experiment", "fujisan", "--random-horizon", "10000001"]).code(2);
}

#[test]
fn experiment_sweep_and_figures() {
    let dir = std::env::temp_dir().join(format!("floe-solitaire-svg-{}", std::process::id()));
    let r = floe(&[
        "experiment",
        "pretzel",
        "--suits",
        "4",
        "--ranks",
        "2-4",
        "--compare",
        "all",
        "--challenges",
        "50",
        "--trials",
        "5",
        "--svg",
        dir.to_str().unwrap(),
    ])
    .code(0);
    assert!(r.stdout.contains("Sweep"), "{}", r.stdout);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for want in [
        "solitaire-pretzel4x4-solvability.svg",
        "solitaire-pretzel4x3-lengths.svg",
        "solitaire-pretzel4-sweep-solvability.svg",
        "solitaire-pretzel4-sweep-interest.svg",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
        let svg = std::fs::read_to_string(dir.join(want)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exact_enumeration() {
    // (4, 3) Sequential Suits: 6⁴ deals; blockades at the deal in 1 − (5/6)²·(8/9) of them
    // (ducking crabs in spades and diamonds, 1/6 each; duelling deuces 1/9: the paper)
    let j = floe(&[
        "experiment",
        "pretzel",
        "--ranks",
        "3",
        "--setup",
        "sequential",
        "--exact",
        "--json",
    ])
    .code(0)
    .json();
    assert_eq!(j["deals"], 1296);
    assert_eq!(j["blockaded"], 496);
    assert_eq!(j["solvable"], 524);
    let j = floe_json(&words("experiment pretzel --ranks 2 --exact --json"), 0);
    assert_eq!(j["deals"], 1680);
    assert_eq!(j["solvable"], 1457);
    floe(&["experiment", "fujisan", "--exact"]).code(2);
}

#[test]
fn experiment_usage_errors() {
    floe(&["experiment", "boxoff", "--setup", "banded"]).code(2);
    floe(&[
        "experiment",
        "boxoff",
        "--rows",
        "6",
        "--cols",
        "8",
        "--colors",
        "3",
        "--setup",
        "ltiles",
    ])
    .code(2);
    floe(&["experiment", "pretzel", "--ranks", "12"]).code(2);
    floe(&["experiment", "ice"]).code(2);
    floe(&[
        "experiment",
        "fujisan",
        "--challenges",
        "5",
        "--trials",
        "10",
    ])
    .code(2);
    let r = floe(&["experiment", "fujisan", "--setup", "nope"]).code(2);
    assert!(r.stderr.contains("unknown setup"), "{}", r.stderr);
}

#[test]
fn generated_challenges_solve_as_files() {
    let dir = std::env::temp_dir().join(format!("floe-solitaire-gen-{}", std::process::id()));
    floe(&[
        "experiment",
        "boxoff",
        "--setup",
        "ltiles",
        "--generate",
        "3",
        "--out",
        dir.to_str().unwrap(),
    ])
    .code(0);
    let j = floe(&[
        "experiment",
        "boxoff",
        "--setup",
        "ltiles",
        "--challenges",
        "3",
        "--trials",
        "1",
        "--json",
    ])
    .code(0)
    .json();
    let mut solved = 0;
    for i in 0..3 {
        let f = dir.join(format!("boxoff4x6x4-ltiles-1-{i}.txt"));
        let k = floe_json(&["solve", f.to_str().unwrap(), "--json"], 0);
        solved += usize::from(k["solved"] == true);
    }
    assert_eq!(solved as f64 / 3.0, j["solvable"].as_f64().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_replays_move_lists_of_every_game() {
    for text in [BOXOFF, PRETZEL, FUJISAN] {
        let f = file(text);
        let sol = floe(&["solve", path(&f), "--json"]).code(0);
        let moves = file(&sol.stdout);
        let j = floe_json(&["verify", path(&f), "--moves", path(&moves), "--json"], 0);
        assert_eq!(
            (j["valid"].as_bool(), j["solved"].as_bool()),
            (Some(true), Some(true)),
            "{j}"
        );
        // the first move twice: the second is illegal
        let doc: Value = serde_json::from_str(&sol.stdout).unwrap();
        let first = doc["moves"][0].clone();
        let twice = file(&serde_json::json!([first.clone(), first]).to_string());
        let j = floe_json(&["verify", path(&f), "--moves", path(&twice), "--json"], 2);
        assert_eq!(j["valid"], false, "{j}");
        assert_eq!(j["error"]["index"], 2);
    }
}
