//! `floe image`: pictures drawn with ice blocks. JSON contract, independent replay through
//! `floe verify`, witnesses, input formats, errors and exit codes.

mod common;
use common::{floe, floe_stdin, path_str, root, Temp};

fn smiley() -> String {
    path_str(&root().join("levels/images/smiley.txt"))
}

#[test]
fn image_json_replays_through_verify() {
    let pic = Temp::with("l.txt", b"##\n#.\n");
    let doc = floe(&["image", &pic.path(), "--json"]).code(0).json();
    assert_eq!(doc["creatable"], true);
    let moves = doc["moves"].as_array().unwrap();
    assert_eq!(doc["pushes"].as_u64().unwrap() as usize, moves.len());
    let order = doc["order"].as_array().unwrap();
    assert_eq!(order.len(), 3);
    for p in order {
        assert!(p["row"].is_u64() && p["col"].is_u64());
        assert!(["up", "down", "left", "right"].contains(&p["from"].as_str().unwrap()));
    }
    // the board text and the moves, checked by the independent validator under `walk`
    let board = Temp::with("board.txt", doc["board"].as_str().unwrap().as_bytes());
    let json = serde_json::to_string(&doc).unwrap();
    let v = floe_stdin(
        &[
            "verify",
            &board.path(),
            "--moves",
            "-",
            "--rules",
            "walk",
            "--json",
        ],
        json.as_bytes(),
    )
    .code(0)
    .json();
    assert_eq!(v["valid"], true);
    assert_eq!(v["solved"], true);
}

#[test]
fn image_not_creatable_names_a_witness() {
    let pic = Temp::with("x.pbm", b"P1\n3 3\n1 0 1\n0 1 0\n1 0 1\n");
    let doc = floe(&["image", &pic.path(), "--json"]).code(0).json();
    assert_eq!(doc["creatable"], false);
    assert_eq!(doc["witness"]["kind"], "configuration");
    assert_eq!(doc["witness"]["figure"], "x");
    assert_eq!(doc["moves"].as_array().unwrap().len(), 0);
    let human = floe(&["image", &pic.path()]).code(0);
    assert!(human.stdout.contains("not creatable"), "{}", human.stdout);
}

#[test]
fn image_reads_raw_pbm_and_draws_svg() {
    // P4: 3×2, rows "#.#" and ".#." packed most significant bit first
    let pic = Temp::with("r.pbm", b"P4\n3 2\n\xa0\x40");
    let svg = Temp::new("out.svg");
    let doc = floe(&["image", &pic.path(), "--json", "--svg", &svg.path()])
        .code(0)
        .json();
    assert_eq!(doc["creatable"], true);
    assert_eq!(doc["order"].as_array().unwrap().len(), 3);
    let text = svg.read();
    assert!(text.starts_with("<svg") && text.contains("</svg>"));
}

#[test]
fn image_errors_and_limits() {
    let bad = Temp::with("bad.txt", b"#.\n#?\n");
    let run = floe(&["image", &bad.path()]).code(2);
    assert!(run.stderr.contains(":2:2:"), "{}", run.stderr);
    floe(&["image", "/nonexistent/picture.pbm"]).code(2);
    let cut = Temp::with("cut.pbm", b"P1\n4 4\n1 0 1\n");
    let run = floe(&["image", &cut.path(), "--json"]).code(2);
    assert!(run.stdout.is_empty());
    let pic = Temp::with("l.txt", b"##\n#.\n");
    let run = floe(&["image", &pic.path(), "--json", "--max-searches", "0"]).code(1);
    assert!(run.json()["creatable"].is_null());
    floe(&["image", "--census", "9"]).code(2);
}

#[test]
fn image_census_up_to_2() {
    let doc = floe(&["image", "--census", "2", "--json"]).code(0).json();
    let sizes = doc.as_array().unwrap();
    assert_eq!(sizes.len(), 4);
    for s in sizes {
        assert_eq!(s["pictures"], s["creatable"]);
    }
}

/// The bundled 16×16 smiley with 58 pixels (about 20 s in release on one core).
#[test]
#[ignore]
fn smiley_is_creatable() {
    let doc = floe(&["image", &smiley(), "--json"]).code(0).json();
    assert_eq!(doc["creatable"], true);
    assert_eq!(doc["order"].as_array().unwrap().len(), 58);
}
