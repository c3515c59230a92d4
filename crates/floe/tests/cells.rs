//! The symbols each game offers an editor (`Info::cells`) are the symbols its levels are
//! written with: every cell of every bundled and test level of every game is one of them.

use floe::games;
use floe::ops::Request;
use std::path::Path;

/// The board lines of a level's text: neither headers nor comments.
fn board_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
        .filter(|l| {
            let head = l.split(':').next().unwrap_or("");
            !(l.contains(':') && head.chars().all(|c| c.is_ascii_alphabetic() || c == ' '))
        })
        .collect()
}

#[test]
fn every_cell_written_is_a_glyph_of_its_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = [
        "levels/zelda.txt",
        "levels/pushpush.txt",
        "levels/icepath.txt",
        "fuzz/levels/icetower.txt",
        "fuzz/levels/boxoff.txt",
        "fuzz/levels/pretzel.txt",
        "fuzz/levels/fujisan.txt",
    ];
    let mut seen = std::collections::BTreeSet::new();
    for f in files {
        let file = Request::from_path(root.join(f)).read().unwrap();
        let info = file.game.info();
        seen.insert(info.name);
        let glyphs: Vec<&str> = info.cells.glyphs.iter().map(|g| g.text).collect();
        assert!(!glyphs.is_empty(), "{}", info.name);
        for level in &file.levels {
            let text = level.to_text(None).unwrap();
            for line in board_lines(&text) {
                let cells: Vec<String> = if info.cells.separator.is_empty() {
                    line.chars().map(String::from).collect()
                } else {
                    line.split(info.cells.separator).map(String::from).collect()
                };
                for c in cells {
                    assert!(
                        glyphs.contains(&c.as_str()),
                        "{f}, {}: '{c}' is not one of {glyphs:?}",
                        level.name()
                    );
                }
            }
        }
    }
    assert_eq!(
        seen.len(),
        games::all().len(),
        "a level of every game was read"
    );
}
