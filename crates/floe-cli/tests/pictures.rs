//! Integration tests of the pictures: `floe render` for every game and `floe solve --svg`
//! (arrows, `--frames`, `--animate`). Every SVG must parse as XML and hold the expected
//! elements; a few small ones are compared byte for byte with golden files in
//! `tests/golden/`. After an intended change of the drawing, regenerate them with
//! `FLOE_BLESS=1 cargo test --release -p floe-cli --test pictures` and look at the diff.

mod common;

use common::*;
use std::path::PathBuf;

const ICE: &str = "Title: corridor\n=======\n=$--$.#\n=-----#\n=.=####\n";
const PUSHPUSH: &str = "Title: small\nGame: pushpush\n@$-.\n$---\n----\n";
const TOWER: &str =
    "Game: icetower\nTitle: fire and gold\n########\n#@ %  *#\n#  $  -#\n#     *#\n########\n";
const BOXOFF: &str = "Game: boxoff\nTitle: three rows\n1 2 2 1\n3 3 4 4\n5 6 6 5\n";
const PRETZEL: &str = "Game: pretzel\nTitle: two suits\n3S 2H -- 4S\n4H 2S 3H --\n";
const FUJISAN: &str =
    "Game: fujisan\nTitle: a mountain\n0 4 0 2 5 1 1 5 5 3 0 3\n4 1 2 4 4 5 2 3 2 2 3 1\n";

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compares `svg` with the golden file `name`, or writes it when `FLOE_BLESS=1`.
fn golden(name: &str, svg: &str) {
    let path = golden_dir().join(name);
    if std::env::var("FLOE_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, svg).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with FLOE_BLESS=1 to create it)",
            path.display()
        )
    });
    assert!(
        want == svg,
        "{name} differs from its golden file; if the change is intended, regenerate with FLOE_BLESS=1"
    );
}

/// Parses an SVG and counts elements by tag and (optionally) class.
struct Svg {
    text: String,
}

impl Svg {
    fn new(text: String) -> Svg {
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{text}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        Svg { text }
    }
    fn count(&self, tag: &str, class: &str) -> usize {
        let doc = roxmltree::Document::parse(&self.text).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter(|n| class.is_empty() || n.attribute("class") == Some(class))
            .count()
    }
}

fn level(name: &str, text: &str) -> Temp {
    Temp::with(name, text.as_bytes())
}

/// `floe render` of a level to a file; returns the SVG.
fn render(text: &str, extra: &[&str]) -> Svg {
    let l = level("level.txt", text);
    let out = Temp::new("board.svg");
    let mut args = vec!["render", &l.0.to_str().unwrap(), "-o"];
    let o = out.path();
    args.push(&o);
    args.extend_from_slice(extra);
    floe(&args).code(0);
    Svg::new(out.read())
}

/// `floe solve --svg` of a level; returns the SVG and the number of moves.
fn solve_svg(text: &str, extra: &[&str]) -> (Svg, usize) {
    let l = level("level.txt", text);
    let out = Temp::new("solution.svg");
    let p = l.path();
    let o = out.path();
    let mut args = vec!["solve", &p, "--json", "--svg", &o];
    args.extend_from_slice(extra);
    let doc = floe(&args).code(0).json();
    assert_eq!(doc["solved"], true, "{doc}");
    let n = doc["moves"].as_array().unwrap().len();
    (Svg::new(out.read()), n)
}

#[test]
fn render_draws_every_game() {
    let ice = render(ICE, &["--coords"]);
    assert_eq!(ice.count("g", "piece block-ice"), 2);
    assert_eq!(ice.count("path", "target"), 2);
    assert_eq!(ice.count("rect", "cell"), 28);
    assert_eq!(ice.count("text", "coord"), 7 + 4);
    golden("render-ice.svg", &ice.text);

    let pp = render(PUSHPUSH, &[]);
    assert_eq!(pp.count("g", "piece block-ice"), 2);
    assert_eq!(pp.count("g", "piece player"), 1);
    golden("render-pushpush.svg", &pp.text);

    let tower = render(TOWER, &[]);
    assert_eq!(tower.count("g", "piece block-ice"), 1);
    assert_eq!(tower.count("g", "piece block-golden"), 1);
    assert_eq!(tower.count("g", "piece magician"), 1);
    assert_eq!(tower.count("path", "fire"), 2);
    assert_eq!(tower.count("circle", "recycler"), 1);
    golden("render-icetower.svg", &tower.text);

    let boxoff = render(BOXOFF, &[]);
    assert_eq!(boxoff.count("g", "piece token"), 12);
    golden("render-boxoff.svg", &boxoff.text);

    let pretzel = render(PRETZEL, &["--coords"]);
    // two aces and six cards; two holes are drawn under nothing
    assert_eq!(pretzel.count("g", "piece card"), 8);
    assert_eq!(pretzel.count("rect", "hole"), 8);
    assert!(pretzel.text.contains(">AS</text>") && pretzel.text.contains(">4H</text>"));

    let fujisan = render(FUJISAN, &["--coords"]);
    assert_eq!(fujisan.count("g", "piece priest"), 4);
    assert_eq!(fujisan.count("text", "value"), 24);
    assert!(fujisan.text.contains(">-1</text>") && fujisan.text.contains(">12</text>"));
    golden("render-fujisan.svg", &fujisan.text);
}

#[test]
fn render_is_deterministic_and_sized() {
    let a = render(TOWER, &["--cell", "20"]);
    let b = render(TOWER, &["--cell", "20"]);
    assert_eq!(a.text, b.text);
    // 8 columns of 20 px and a 4 px border on each side
    assert!(
        a.text.contains("width=\"168\" height=\"108\""),
        "{}",
        &a.text[..200]
    );
}

#[test]
fn render_to_stdout_and_json() {
    let l = level("level.txt", ICE);
    let run = floe(&["render", &l.path()]).code(0);
    Svg::new(run.stdout.clone());
    let out = Temp::new("board.svg");
    let j = floe(&["render", &l.path(), "-o", &out.path(), "--json"])
        .code(0)
        .json();
    assert_eq!(j["game"], "ice");
    assert_eq!(j["level"], "corridor");
    assert_eq!((j["rows"].as_u64(), j["cols"].as_u64()), (Some(4), Some(7)));
    assert_eq!(j["bytes"].as_u64(), Some(out.read().len() as u64));
    assert!(j["width"].as_f64().unwrap() > 0.0);
}

#[test]
fn render_errors_are_clear() {
    let l = level("level.txt", ICE);
    // --json needs a file for the picture
    let r = floe(&["render", &l.path(), "--json"]).code(2);
    assert!(r.stderr.contains("-o FILE"), "{}", r.stderr);
    // a bad level names its line and column
    let bad = level("bad.txt", "#####\n#$x.#\n");
    let r = floe(&["render", &bad.path(), "-o", "/dev/null"]).code(2);
    assert!(r.stderr.contains("bad.txt:2:3"), "{}", r.stderr);
    // --level is refused for one-level games
    let t = level("t.txt", TOWER);
    floe(&["render", &t.path(), "--level", "2"]).code(2);
    // --frames without --svg
    floe(&["solve", &l.path(), "--frames"]).code(2);
    floe(&[
        "solve",
        &l.path(),
        "--svg",
        "x.svg",
        "--frames",
        "--animate",
    ])
    .code(2);
    assert!(!std::path::Path::new("x.svg").exists());
}

#[test]
fn solutions_as_numbered_arrows() {
    let (ice, n) = solve_svg(ICE, &[]);
    assert_eq!(ice.count("g", "arrow"), n);
    assert!(ice.count("g", "number") >= 1);
    let numbers: String = (1..=n).map(|i| i.to_string()).collect();
    assert!(!numbers.is_empty());
    golden("solve-ice-arrows.svg", &ice.text);

    let (tower, n) = solve_svg(TOWER, &[]);
    assert_eq!(tower.count("g", "arrow"), n);
    let (pp, n) = solve_svg(PUSHPUSH, &[]);
    assert_eq!(pp.count("g", "arrow"), n);
    let (boxoff, n) = solve_svg(BOXOFF, &[]);
    assert_eq!(n, 6);
    assert_eq!(boxoff.count("g", "arrow"), 6);
    assert_eq!(boxoff.count("circle", "arrow-end"), 12);
    let (pretzel, n) = solve_svg(PRETZEL, &[]);
    assert_eq!(pretzel.count("g", "arrow"), n);
    let (fujisan, n) = solve_svg(FUJISAN, &["--coords"]);
    assert_eq!(fujisan.count("g", "arrow"), n);
}

#[test]
fn solutions_as_frames() {
    for text in [ICE, PUSHPUSH, TOWER, BOXOFF, PRETZEL, FUJISAN] {
        let (f, n) = solve_svg(text, &["--frames"]);
        assert_eq!(f.count("g", "frame"), n + 1, "{text}");
        assert_eq!(f.count("g", "arrow"), n, "{text}");
        assert_eq!(f.count("text", "frame-caption"), n + 1);
    }
    let (pp, _) = solve_svg(PUSHPUSH, &["--frames"]);
    golden("solve-pushpush-frames.svg", &pp.text);
}

/// Every animation element has as many values as key times, key times start at 0, never go
/// back, and (for motion) end at 1.
fn check_animations(svg: &Svg) {
    let doc = roxmltree::Document::parse(&svg.text).unwrap();
    for n in doc.descendants() {
        if !(n.has_tag_name("animate") || n.has_tag_name("animateTransform")) {
            continue;
        }
        let values = n.attribute("values").unwrap().split(';').count();
        let keys: Vec<f64> = n
            .attribute("keyTimes")
            .unwrap()
            .split(';')
            .map(|k| k.parse().unwrap())
            .collect();
        assert_eq!(values, keys.len());
        assert_eq!(keys[0], 0.0);
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
        if n.attribute("calcMode") != Some("discrete") {
            assert_eq!(*keys.last().unwrap(), 1.0);
        }
        assert_eq!(n.attribute("repeatCount"), Some("indefinite"));
    }
}

#[test]
fn solutions_animated() {
    for text in [ICE, PUSHPUSH, TOWER, BOXOFF, PRETZEL, FUJISAN] {
        check_animations(&solve_svg(text, &["--animate"]).0);
    }
    // every piece that moves has one animateTransform; the total duration is shared
    let (ice, _) = solve_svg(ICE, &["--animate"]);
    assert_eq!(ice.count("animateTransform", ""), 2);
    assert!(ice.text.contains("repeatCount=\"indefinite\""));
    // Ice Tower: the regular block vanishes in the fire (opacity), a fire goes out (a cell
    // change shown from its time on), the magician moves
    let (tower, n) = solve_svg(TOWER, &["--animate"]);
    assert!(n >= 2);
    assert!(tower.count("animate", "") >= 2);
    assert!(tower.count("g", "change") >= 1);
    assert!(tower.count("animateTransform", "") >= 2);
    let durations: std::collections::BTreeSet<&str> = tower
        .text
        .match_indices("dur=\"")
        .map(|(i, _)| {
            let rest = &tower.text[i + 5..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(durations.len(), 1, "one shared duration: {durations:?}");
    // BoxOff: tokens only vanish
    let (boxoff, _) = solve_svg(BOXOFF, &["--animate"]);
    assert_eq!(boxoff.count("animate", ""), 12);
    assert_eq!(boxoff.count("animateTransform", ""), 0);
    let (fujisan, _) = solve_svg(FUJISAN, &["--animate"]);
    assert_eq!(fujisan.count("animateTransform", ""), 4);
    golden("solve-fujisan-animated.svg", &fujisan.text);
}

#[test]
fn no_solution_no_picture() {
    let l = level("l.txt", "Game: boxoff\nTitle: stuck\n1 2 1 2\n");
    let out = Temp::new("none.svg");
    let r = floe(&["solve", &l.path(), "--svg", &out.path()]).code(0);
    assert!(r.stderr.contains("no picture"), "{}", r.stderr);
    assert!(!out.0.exists());
}
