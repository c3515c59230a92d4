//! Every symbol a game writes its boards with ([`Info::cells`]) looks as the game's own scene
//! draws a cell written with it ([`Glyph::look`](crate::game::Glyph)): checked cell by cell
//! on the start scene of every bundled level, and of a few levels written here so that every
//! symbol of every game is met at least once.

use super::all;
use crate::game::{Info, Look};
use crate::ops::{Level, Request};
use crate::scene::{card_label, Ground, PieceKind};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folders of the bundled collections (`levels/images` holds pictures, not levels).
const COLLECTIONS: [&str; 3] = ["levels", "levels/icetower", "levels/solitaire"];

/// Levels written here for the symbols no bundled level holds, each with the parameters it
/// is read with.
const EXTRA: [(&str, &str); 10] = [
    ("Game: ice\nRules: walk\n@-$.\n=#*-\n", ""),
    ("Game: ice\nRules: walk\n+-$\n", ""),
    ("Game: pushpush\n@$#-\n---*\n", ""),
    (
        "Game: icetower\n#######\n#@%$*-#\n#^v<>+#\n#######\n",
        "dynamic",
    ),
    // named by its title: its name stands only in its folder and on its registry lines
    ("Game: ice path\n&-#\n--.\n", ""),
    (
        "Game: boxoff\n1 2 3 4 5 6 7 8 9 .\n. 9 8 7 6 5 4 3 2 1\n",
        "",
    ),
    // a deal has at most 40 cells: three suits of 13 ranks, then four of 10
    (
        "Game: pretzel\n\
         2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS --\n\
         2H 3H 4H 5H 6H 7H 8H 9H TH JH QH -- KH\n\
         -- 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD\n",
        "",
    ),
    (
        "Game: pretzel\n\
         2S 3S 4S 5S 6S 7S 8S 9S TS --\n\
         2H 3H 4H 5H 6H 7H 8H 9H -- TH\n\
         -- 2D 3D 4D 5D 6D 7D 8D 9D TD\n\
         TC 9C 8C 7C 6C 5C 4C -- 3C 2C\n",
        "",
    ),
    (
        "Game: fujisan\n0 1 2 3 4 5 0 1 2 3 4 5\n5 4 3 2 1 0 5 4 3 2 1 0\n",
        "",
    ),
    ("Game: fujisan\n3 1 4 0 2 5\n2 0 5 3 1 4\n", ""),
];

/// Pretzel cards no deal can hold: clubs are the fourth suit, and four suits of 11 ranks or
/// more are more than the 40 cells of the largest deal.
const UNDEALT: [&str; 3] = ["JC", "QC", "KC"];

/// Scene columns left and right of the text's columns: where a game's text does not lie
/// cell for cell on its scene, the known offset.
fn margins(info: &Info) -> (usize, usize) {
    match info.name {
        // the aces' column is scene column 0, left of the deal (the text holds no aces)
        "pretzel" => (1, 0),
        // the priests' starting places are scene columns 0 and width + 1, beside the
        // mountain the text gives
        "fujisan" => (1, 1),
        _ => (0, 0),
    }
}

/// The board lines of a level's text: neither headers (`Title: …`) nor comments.
fn board_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
        .filter(|l| {
            let head = l.split(':').next().unwrap_or("");
            !(l.contains(':') && head.chars().all(|c| c.is_ascii_alphabetic() || c == ' '))
        })
        .collect()
}

/// What the scene draws on a cell: its ground and its one piece (two pieces on one cell of
/// a start scene fail).
fn drawn(scene: &crate::scene::Scene, at: (usize, usize), what: &str) -> Look {
    let pieces: Vec<PieceKind> = scene
        .pieces
        .iter()
        .filter(|p| p.at == at)
        .map(|p| p.kind)
        .collect();
    assert!(pieces.len() <= 1, "{what}: pieces {pieces:?} on one cell");
    Look {
        ground: scene.ground(at),
        piece: pieces.first().copied(),
    }
}

/// Checks every cell of `level`'s text against its start scene; adds the symbols met to
/// `seen` (game, symbol) and returns the number of cells checked.
fn check(level: &Level, seen: &mut BTreeSet<(&'static str, &'static str)>) -> usize {
    let info = level.game().info();
    let what = format!("{} {}", info.name, level.name());
    let scene = level.scene();
    let text = level.to_text(None).unwrap();
    let sep = info.cells.separator;
    let rows: Vec<Vec<&str>> = board_lines(&text)
        .into_iter()
        .map(|l| {
            if sep.is_empty() {
                l.char_indices()
                    .map(|(i, c)| &l[i..i + c.len_utf8()])
                    .collect()
            } else {
                l.split(sep).collect()
            }
        })
        .collect();
    let (left, right) = margins(info);
    assert_eq!(rows.len(), scene.rows, "{what}: rows of text and scene");
    // Ice Tower's text drops a row's trailing floor: rows may be shorter, never longer
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
    assert_eq!(
        left + widest + right,
        scene.cols,
        "{what}: columns of text and scene"
    );
    let mut checked = 0;
    for (r, row) in rows.iter().enumerate() {
        for (c, &t) in row.iter().enumerate() {
            let glyph = info
                .cells
                .glyphs
                .iter()
                .find(|g| g.text == t)
                .unwrap_or_else(|| panic!("{what}: '{t}' is no symbol of the game"));
            let at = (r, c + left);
            let mut look = drawn(&scene, at, &what);
            // a Fujisan space's symbol cannot say whether it is on the summit (the middle
            // columns, which depend on the width): its look is the one off the summit
            if let Ground::Space {
                value,
                summit: true,
            } = look.ground
            {
                look.ground = Ground::Space {
                    value,
                    summit: false,
                };
            }
            assert_eq!(
                glyph.look, look,
                "{what}: '{t}' at row {r}, column {c} is drawn otherwise"
            );
            seen.insert((info.name, glyph.text));
            checked += 1;
        }
    }
    // the aces Pretzel's text leaves out are drawn in the scene's column 0
    if info.name == "pretzel" {
        for r in 0..scene.rows {
            let look = drawn(&scene, (r, 0), &what);
            let Some(PieceKind::Card { suit, rank: 1 }) = look.piece else {
                panic!("{what}: no ace at row {r}, column 0 ({look:?})");
            };
            let label = card_label(suit, 1);
            let glyph = info.cells.glyphs.iter().find(|g| g.text == label);
            let glyph = glyph.unwrap_or_else(|| panic!("{what}: no symbol {label}"));
            assert_eq!(glyph.look, look, "{what}: {label} is drawn otherwise");
            seen.insert((info.name, glyph.text));
            checked += 1;
        }
    }
    checked
}

/// The bundled level files, in order.
fn bundled() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in COLLECTIONS {
        let mut here: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "txt"))
            .collect();
        here.sort();
        files.extend(here);
    }
    files
}

#[test]
fn every_bundled_level_is_drawn_as_its_symbols_say() {
    let mut seen = BTreeSet::new();
    let mut cells: Vec<(&str, usize)> = Vec::new();
    for path in bundled() {
        let file = Request::from_path(&path).read().unwrap();
        assert!(!file.levels.is_empty(), "{}", path.display());
        for level in &file.levels {
            let n = check(level, &mut seen);
            assert!(
                n > 0,
                "{}: {}: no cell checked",
                path.display(),
                level.name()
            );
            let name = file.game.info().name;
            match cells.iter_mut().find(|(g, _)| *g == name) {
                Some((_, k)) => *k += n,
                None => cells.push((name, n)),
            }
        }
    }
    // each game's sample too (a game new to the registry has no bundled file yet)
    for g in all() {
        let file = Request::from_text(g.info().sample.text, "sample")
            .read()
            .unwrap();
        for level in &file.levels {
            let n = check(level, &mut seen);
            let name = file.game.info().name;
            match cells.iter_mut().find(|(g, _)| *g == name) {
                Some((_, k)) => *k += n,
                None => cells.push((name, n)),
            }
        }
    }
    // every game has a level, and its cells were compared
    for g in all() {
        let name = g.info().name;
        assert!(
            cells.iter().any(|&(c, n)| c == name && n > 0),
            "no level of {name} was checked"
        );
    }
}

#[test]
fn every_symbol_of_every_game_is_drawn_as_it_says() {
    let mut seen = BTreeSet::new();
    for path in bundled() {
        for level in &Request::from_path(&path).read().unwrap().levels {
            check(level, &mut seen);
        }
    }
    for g in all() {
        for level in &Request::from_text(g.info().sample.text, "sample")
            .read()
            .unwrap()
            .levels
        {
            check(level, &mut seen);
        }
    }
    for (text, params) in EXTRA {
        let file = Request::from_text(text, "extra")
            .params(params)
            .read()
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        for level in &file.levels {
            check(level, &mut seen);
        }
    }
    for g in all() {
        let info = g.info();
        for glyph in info.cells.glyphs {
            if info.name == "pretzel" && UNDEALT.contains(&glyph.text) {
                // no deal holds them: drawn as the same rank of spades is, in its own suit
                assert!(!seen.contains(&(info.name, glyph.text)), "{}", glyph.text);
                let spade = format!("{}S", &glyph.text[..1]);
                let spade = info.cells.glyphs.iter().find(|g| g.text == spade).unwrap();
                assert!(seen.contains(&(info.name, spade.text)), "{}", spade.text);
                let Some(PieceKind::Card { rank, .. }) = spade.look.piece else {
                    panic!("{}: {:?}", spade.text, spade.look);
                };
                let clubs = Look {
                    piece: Some(PieceKind::Card { suit: 3, rank }),
                    ..spade.look
                };
                assert_eq!(glyph.look, clubs, "{}", glyph.text);
                continue;
            }
            assert!(
                seen.contains(&(info.name, glyph.text)),
                "{}: the symbol '{}' ({}) was never checked against a scene",
                info.name,
                glyph.text,
                glyph.about
            );
        }
    }
}
