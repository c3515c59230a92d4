//! The architecture's invariants, stated as absences and checked on the source tree
//! (ARCHITECTURE.md, "Invariants"): the generic layers name no game, the game interface
//! imports nothing built on it, a game is reached only through the registry, the library
//! prints nothing, and no source file outgrows a reader.

use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's `crates/` folder.
fn crates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/floe has a parent")
        .to_path_buf()
}

/// Every `.rs` file below `dir`, sorted, as (path relative to `crates/`, text).
fn sources(dir: &str) -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    let root = crates();
    let mut paths = Vec::new();
    walk(&root.join(dir), &mut paths);
    paths.sort();
    assert!(!paths.is_empty(), "no sources below {dir}");
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, text)
        })
        .collect()
}

/// The text of a file before its unit tests (`#[cfg(test)]`), without comments: what ships.
/// A file that holds only unit tests (`tests.rs`, declared `#[cfg(test)] mod tests;`) ships
/// nothing, nor do the files of its submodules (`tests/*.rs` beside it).
fn shipped_file(path: &str, text: &str) -> String {
    if path.ends_with("/tests.rs") || path.contains("/src/") && path.contains("/tests/") {
        return String::new();
    }
    shipped(text)
}

/// The text before its unit tests (`#[cfg(test)]`), without comments.
fn shipped(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The places (file:line) where a shipped line contains one of `needles`.
fn find(files: &[(String, String)], needles: &[&str]) -> Vec<String> {
    let mut hits = Vec::new();
    for (path, text) in files {
        for (i, line) in shipped_file(path, text).lines().enumerate() {
            if let Some(n) = needles.iter().find(|n| line.contains(*n)) {
                hits.push(format!("{path}:{}: {n}", i + 1));
            }
        }
    }
    hits
}

const GAME_MODULES: &[&str] = &["ice", "pushpush", "icetower", "solitaire", "icepath"];

fn game_paths() -> Vec<String> {
    let mut v = vec!["games::".to_string()];
    v.extend(GAME_MODULES.iter().map(|g| format!("{g}::")));
    v
}

#[test]
fn the_generic_layers_name_no_game() {
    let needles = game_paths();
    let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
    for dir in ["floe/src/search", "floe/src/render"] {
        let hits = find(&sources(dir), &needles);
        assert!(hits.is_empty(), "{dir} names a game:\n{}", hits.join("\n"));
    }
    let scene = vec![(
        "floe/src/scene.rs".to_string(),
        fs::read_to_string(crates().join("floe/src/scene.rs")).unwrap(),
    )];
    let hits = find(&scene, &needles);
    assert!(
        hits.is_empty(),
        "scene.rs names a game:\n{}",
        hits.join("\n")
    );
}

#[test]
fn play_reaches_games_only_through_the_registry() {
    let files: Vec<(String, String)> = sources("floe/src/play")
        .into_iter()
        .map(|(p, t)| (p, t.replace("crate::games::REGISTRY", "the registry")))
        .collect();
    let hits = find(&files, &["games::"]);
    assert!(hits.is_empty(), "play names a game:\n{}", hits.join("\n"));
}

/// The modules built on the game interface: `game/` may import none of them.
const ABOVE_THE_GAME_INTERFACE: &[&str] = &[
    "crate::analysis",
    "crate::generate",
    "crate::play",
    "crate::games",
    "crate::ops",
    // a path that climbs out of game/ (`super::super::…`) or a grouped import of the crate's
    // modules (`crate::{…}`) could hide one of the above
    "super::super",
    "crate::{",
];

/// The places where the files of `dir` import a module of `above`.
fn imports_from_above(dir: &str, above: &[&str]) -> Vec<String> {
    find(&sources(dir), above)
}

#[test]
fn the_game_interface_imports_nothing_above_it() {
    // game/ is the interface every layer is built on: the traits, the parameters, the moves,
    // the replay, the requests and the reports. The operations (ops/), the games and their
    // registry (games/), the analyses, the generators and play import it, never the other
    // way round; a re-export in game/ of something above it would be such an import too.
    let hits = imports_from_above("floe/src/game", ABOVE_THE_GAME_INTERFACE);
    assert!(
        hits.is_empty(),
        "game/ imports a module built on it:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_search_imports_no_game_layer() {
    // The generic algorithms know puzzles only: neither the game interface nor anything
    // built on it.
    let mut above = vec!["crate::game"];
    above.extend_from_slice(ABOVE_THE_GAME_INTERFACE);
    let hits = imports_from_above("floe/src/search", &above);
    assert!(
        hits.is_empty(),
        "search/ imports a game layer:\n{}",
        hits.join("\n")
    );
}

#[test]
fn analyses_for_every_game_name_no_game() {
    // analysis/ice and analysis/solitaire are about one game each; the modules beside them
    // (reversibility, randomised solvers, statistics, the push tree) run on every game.
    let files: Vec<(String, String)> = sources("floe/src/analysis")
        .into_iter()
        .filter(|(p, _)| !p.contains("/analysis/ice/") && !p.contains("/analysis/solitaire/"))
        .collect();
    assert!(files.len() >= 4, "{files:?}");
    let needles = game_paths();
    let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
    let hits = find(&files, &needles);
    assert!(
        hits.is_empty(),
        "a generic analysis names a game:\n{}",
        hits.join("\n")
    );
}

#[test]
fn a_game_folder_is_referenced_only_by_its_registry_line() {
    // The ice path game was added as one folder plus its module's line and its registry line
    // in games/mod.rs: nothing else in the workspace may name it, so the game face alone
    // carries it to every command.
    let mut files = Vec::new();
    for dir in ["floe/src", "floe-cli/src", "floe-learn/src", "floe-py/src"] {
        files.extend(
            sources(dir)
                .into_iter()
                .filter(|(p, _)| !p.starts_with("floe/src/games/icepath/")),
        );
    }
    let hits = find(&files, &["icepath", "IcePath"]);
    // the two lines by what they say, wherever they stand in the file
    let registry = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/mod.rs"),
    )
    .unwrap();
    let line_of = |text: &str| {
        let n = registry
            .lines()
            .position(|l| l.trim() == text)
            .unwrap_or_else(|| panic!("games/mod.rs has no line `{text}`"));
        format!("floe/src/games/mod.rs:{}: icepath", n + 1)
    };
    assert_eq!(
        hits,
        vec![line_of("pub mod icepath;"), line_of("icepath => IcePath;")],
        "the ice path game is named outside its folder and the registry line"
    );
}

#[test]
fn the_libraries_print_nothing() {
    // Output is shaped by the front ends; the libraries return values and errors, and the
    // Python module hands them to Python (a notebook's cell shows what it returns).
    for dir in ["floe/src", "floe-learn/src", "floe-py/src"] {
        let hits = find(
            &sources(dir),
            &["println!", "print!(", "eprintln!", "eprint!(", "dbg!("],
        );
        assert!(hits.is_empty(), "{dir} prints:\n{}", hits.join("\n"));
    }
}

#[test]
fn no_file_is_written_but_whole() {
    // Every output file goes through `floe::mem::write_whole` (a temporary file renamed into
    // place), so a killed run never leaves a truncated one; only `mem` and its folder (run
    // files, the lock) open files for writing.
    for dir in ["floe/src", "floe-cli/src", "floe-learn/src", "floe-py/src"] {
        let files: Vec<(String, String)> = sources(dir)
            .into_iter()
            .filter(|(path, _)| !path.ends_with("/mem.rs") && !path.contains("/src/mem/"))
            .collect();
        let hits = find(&files, &["fs::write(", "File::create(", "OpenOptions"]);
        assert!(
            hits.is_empty(),
            "{dir} writes files by hand:\n{}",
            hits.join("\n")
        );
    }
}

#[test]
fn no_source_file_outgrows_a_reader() {
    for dir in ["floe/src", "floe-cli/src", "floe-learn/src", "floe-py/src"] {
        for (path, text) in sources(dir) {
            let lines = text.lines().count();
            assert!(lines <= 1000, "{path} has {lines} lines (at most 1,000)");
        }
    }
}

#[test]
fn the_checks_see_what_they_look_for() {
    // The searches above must be able to fail: a planted name is found, a comment is not.
    let planted = vec![(
        "x.rs".to_string(),
        "use crate::games::ice::Level; // games::pushpush\nfn f() { println!(\"x\") }\n\
         #[cfg(test)]\nmod tests { use crate::games::icetower; }\n"
            .to_string(),
    )];
    assert_eq!(find(&planted, &["games::"]), vec!["x.rs:1: games::"]);
    assert_eq!(find(&planted, &["pushpush::"]), Vec::<String>::new());
    assert_eq!(find(&planted, &["icetower"]), Vec::<String>::new());
    assert_eq!(find(&planted, &["println!"]), vec!["x.rs:2: println!"]);
    let tests_only = vec![(
        "a/tests.rs".to_string(),
        "use crate::games::ice;\n".to_string(),
    )];
    assert_eq!(find(&tests_only, &["games::"]), Vec::<String>::new());
    // an upward import in the game interface is seen, in any of its forms; a doc link is not
    let upward = vec![(
        "floe/src/game/x.rs".to_string(),
        "//! see [`crate::ops::Level`]\nuse crate::ops::Level;\nuse crate::{games, grid};\n\
         fn f() { super::super::play::x() }\n"
            .to_string(),
    )];
    assert_eq!(
        find(&upward, ABOVE_THE_GAME_INTERFACE),
        vec![
            "floe/src/game/x.rs:2: crate::ops",
            "floe/src/game/x.rs:3: crate::{",
            "floe/src/game/x.rs:4: super::super",
        ]
    );
}
