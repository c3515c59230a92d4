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

/// Every level file of a folder and those below it.
fn level_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            level_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

#[test]
fn every_cell_written_is_a_glyph_of_its_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // every game's own sample (the registry's), the bundled levels and the fuzzers' seeds
    let mut requests: Vec<(String, floe::ops::Source)> = games::all()
        .iter()
        .map(|g| {
            let name = format!("{}'s sample", g.info().name);
            (
                name.clone(),
                Request::from_text(g.info().sample.text, &name),
            )
        })
        .collect();
    let mut paths = Vec::new();
    level_files(&root.join("levels"), &mut paths);
    level_files(&root.join("fuzz/levels"), &mut paths);
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap();
        // the qits Ice Tower maps do not say their game: read them as Ice Tower
        let name = p.display().to_string();
        let req = Request::from_text(text, &name);
        requests.push((name, req));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (f, req) in requests {
        let Ok(file) = req.read() else {
            // a fuzzer's seed another game's reader takes (a map without its Game: line) is
            // read by the game tests; the samples and the bundled collections all read
            assert!(f.contains("fuzz/levels/"), "{f} does not read");
            continue;
        };
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
