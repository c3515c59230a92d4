//! Every game through the one game face: the same commands, flags and JSON keys on a small
//! level of each of the seven games (ice blocks, PushPush, Ice Tower, BoxOff, Pretzel,
//! Fujisan, ice path), each on the sample level the game brings in its folder
//! (`Info::sample`): a game added to the registry is covered with nothing listed here.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// (game, level text, fewest moves): each registered game's own sample level
/// (`Info::sample`, a file in its folder), so that a new game is covered by what it brings.
fn levels() -> Vec<(&'static str, &'static str, u64)> {
    floe::games::all()
        .iter()
        .map(|g| {
            let i = g.info();
            (i.name, i.sample.text, i.sample.fewest)
        })
        .collect()
}

/// The sample level of `game`.
fn sample(game: &str) -> Temp {
    let i = floe::games::find(game).unwrap().info();
    Temp::with(&format!("{game}.txt"), i.sample.text.as_bytes())
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .expect("a JSON object")
        .keys()
        .cloned()
        .collect()
}

fn files() -> Vec<(&'static str, Temp, u64)> {
    levels()
        .into_iter()
        .map(|(game, text, n)| (game, Temp::with(&format!("{game}.txt"), text.as_bytes()), n))
        .collect()
}

#[test]
fn every_registered_game_is_covered() {
    let registered: BTreeSet<&str> = floe::games::all().iter().map(|g| g.info().name).collect();
    // every sample is of its own game, and solved in its fewest moves
    for (game, text, n) in levels() {
        let f = Temp::with("sample.txt", text.as_bytes());
        let j = floe_json(&["solve", &f.path(), "--json"], 0);
        assert_eq!(
            (j["game"].as_str(), j["length"].as_u64()),
            (Some(game), Some(n)),
            "{game}"
        );
    }
    // and `floe games` lists each of them
    let out = floe(&["games"]).code(0).stdout;
    for g in &registered {
        assert!(out.contains(g), "{g} not in `floe games`:\n{out}");
    }
    // with its rules, in the text and in the JSON
    let json = floe_json(&["games", "--json"], 0);
    for g in &registered {
        let rules = floe::games::find(g).unwrap().info().rules;
        assert!(
            out.contains(&format!("\n  rules: {rules}\n")),
            "{g}'s rules not in `floe games`:\n{out}"
        );
        let entry = json
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == *g)
            .unwrap();
        assert_eq!(entry["rules"], rules, "{g}");
        assert!(entry["cells"]["glyphs"][0].get("look").is_none(), "{g}");
    }
}

#[test]
fn solve_json_has_the_same_keys_for_every_game() {
    let want: BTreeSet<String> = SOLVE_KEYS.iter().map(|s| s.to_string()).collect();
    for (game, f, n) in files() {
        let j = floe_json(&["solve", &f.path(), "--json"], 0);
        assert_eq!(keys(&j), want, "{game}: {j}");
        assert_eq!(j["game"], game);
        assert_eq!(
            (j["solved"].as_bool(), j["status"].as_str()),
            (Some(true), Some("solved"))
        );
        assert_eq!(j["length"], n, "{game}");
        assert_eq!(j["moves"].as_array().unwrap().len() as u64, n, "{game}");
        let pushes = floe::games::find(game).unwrap().info().moves_are_pushes();
        assert_eq!(
            j["pushes"],
            if pushes { n.into() } else { Value::Null },
            "{game}"
        );
        assert!(
            j["params"].is_object() && j["details"].is_object(),
            "{game}"
        );
        // every exact algorithm of the game agrees on the length
        let g = floe::games::find(game).unwrap();
        for a in g.info().algorithms {
            let k = floe_json(&["solve", &f.path(), "--algo", a.name, "--json"], 0);
            if a.name != "difficulty" {
                assert_eq!(k["length"], n, "{game} {}", a.name);
            }
            assert_eq!(keys(&k), want, "{game} {}", a.name);
        }
        // random play is seeded and reports the same keys
        let r = floe(&[
            "solve",
            &f.path(),
            "--algo",
            "random",
            "--seed",
            "3",
            "--json",
        ]);
        assert!(r.code == 0 || r.code == 1, "{game}: {}", r.stderr);
        assert_eq!(keys(&r.json()), want, "{game} random");
    }
}

#[test]
fn space_analyze_graph_and_verify_on_every_game() {
    for (game, f, n) in files() {
        let p = f.path();
        let s = floe_json(&["space", &p, "--json"], 0);
        assert_eq!(s["game"], game);
        assert_eq!(s["complete"], true, "{game}: {s}");
        let states = s["states"].as_u64().unwrap();
        let hist: u64 = s["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(hist, states, "{game}: the histogram counts every position");
        assert!(
            s["depth"].as_u64().unwrap() >= n,
            "{game}: a solution is within the depth"
        );

        let a = floe_json(&["analyze", &p, "--json"], 0);
        assert_eq!(a["game"], game);
        assert_eq!(
            a["states"].as_u64(),
            Some(states),
            "{game}: analyze and space agree"
        );
        assert!(
            a["solvable_states"].as_u64().unwrap() >= 1,
            "{game}: the start is solvable"
        );
        assert_eq!(
            a["solvable_states"].as_u64().unwrap() + a["unsolvable_states"].as_u64().unwrap(),
            states,
            "{game}"
        );

        // the state graph: as many positions as space counts, the nearest solved one at the
        // fewest moves, and analyze's solvable positions
        let g = floe_json(&["graph", &p, "--json"], 0);
        assert_eq!(g["game"], game);
        assert_eq!(
            (g["states"].as_u64(), g["nearest_solved"].as_u64()),
            (Some(states), Some(n)),
            "{game}: {g}"
        );
        assert_eq!(g["solvable_count"], a["solvable_states"], "{game}");
        assert_eq!(g["positions"].as_array().unwrap().len() as u64, states);

        // the solution verifies; its first move twice does not, with exit 2
        let sol = floe(&["solve", &p, "--json"]).code(0);
        let moves = Temp::with("moves.json", sol.stdout.as_bytes());
        let v = floe_json(&["verify", &p, "--moves", &moves.path(), "--json"], 0);
        assert_eq!(
            (v["valid"].as_bool(), v["solved"].as_bool()),
            (Some(true), Some(true))
        );
        assert_eq!(v["length"], n);
        if n >= 2 {
            let doc: Value = serde_json::from_str(&sol.stdout).unwrap();
            let first = doc["moves"][0].clone();
            let twice = Temp::with(
                "twice.json",
                serde_json::json!([first, first]).to_string().as_bytes(),
            );
            let v = floe_json(&["verify", &p, "--moves", &twice.path(), "--json"], 2);
            assert_eq!(
                (v["valid"].as_bool(), v["error"]["index"].as_u64()),
                (Some(false), Some(2)),
                "{game}: {v}"
            );
        }
    }
}

#[test]
fn play_the_hints_to_the_end_on_every_game() {
    for (game, f, n) in files() {
        let keys = vec!["H"; n as usize].join(" ");
        let doc = floe_json(&["play", &f.path(), "--keys", &keys, "--json"], 0);
        assert_eq!(doc["game"], game);
        assert_eq!(doc["solved"], true, "{game}: {doc}");
        assert_eq!(doc["length"], n, "{game}");
        // undo all, redo all: solved again
        let back = format!(
            "{keys} {} {}",
            vec!["u"; n as usize].join(" "),
            vec!["r"; n as usize].join(" ")
        );
        let doc = floe_json(&["play", &f.path(), "--keys", &back, "--json"], 0);
        assert_eq!(doc["solved"], true, "{game}: {doc}");
    }
}

#[test]
fn levels_render_and_convert_on_every_game() {
    for (game, f, _) in files() {
        let p = f.path();
        let l = floe_json(&["levels", &p, "--json"], 0);
        assert_eq!(l[0]["game"], game, "{l}");
        let svg = Temp::new("level.svg");
        floe(&["render", &p, "-o", &svg.path()]).code(0);
        assert!(svg.read().starts_with("<svg"), "{game}");
        // a level written back in the game's format reads again as the same level
        let out = Temp::new("again.txt");
        floe(&["convert", &p, "-o", &out.path()]).code(0);
        let a = floe(&["solve", &p, "--json"]).json();
        let b = floe(&["solve", &out.path(), "--json"]).json();
        assert_eq!(
            (a["game"].clone(), a["length"].clone()),
            (b["game"].clone(), b["length"].clone()),
            "{game}"
        );
    }
}

#[test]
fn a_flag_of_another_game_is_refused_by_one_rule() {
    let icepath = sample("icepath");
    let e = floe(&["solve", &icepath.path(), "--k", "2"]).code(2).stderr;
    assert!(e.contains("--k does not apply to ice path levels"), "{e}");
    let e = floe(&["solve", &icepath.path(), "--algo", "difficulty"])
        .code(2)
        .stderr;
    assert!(e.contains("difficulty"), "{e}");
    let boxoff = sample("boxoff");
    let e = floe(&["space", &boxoff.path(), "--dynamic"]).code(2).stderr;
    assert!(
        e.contains("--dynamic does not apply to BoxOff levels"),
        "{e}"
    );
}

#[test]
fn ice_path_in_words() {
    let f = sample("icepath");
    let out = floe(&["solve", &f.path()]).code(0).stdout;
    assert!(out.contains("first steps: 3×5 cave"), "{out}");
    assert!(
        out.contains("solved (fewest moves, breadth-first search): 3 moves"),
        "{out}"
    );
    assert!(out.contains("(0, 3) down  → (2, 3)"), "{out}");
    let m = Temp::with("m.txt", b"down right\nright\n");
    let out = floe(&["verify", &f.path(), "--moves", &m.path()])
        .code(0)
        .stdout;
    assert!(
        out.contains("3 moves, every one legal; the level is solved"),
        "{out}"
    );
    let m = Temp::with("bad.txt", b"down\nleft\n");
    let e = floe(&["verify", &f.path(), "--moves", &m.path()]).code(2);
    assert!(
        e.stdout
            .contains("move 2 (left) is illegal: the player cannot move left: the edge"),
        "{}",
        e.stdout
    );
    let caves = bundled("icepath.txt");
    for (level, n) in [("1", 3), ("rocky", 11), ("great cave", 11)] {
        let j = floe_json(&["solve", &caves, "-l", level, "--json"], 0);
        assert_eq!(j["length"], n, "{level}");
    }
    let e = floe(&["solve", "-", "--game", "icepath"]);
    let e = if e.code == 2 { e.stderr } else { e.stdout };
    assert!(e.contains("no ice path level"), "{e}");
}
