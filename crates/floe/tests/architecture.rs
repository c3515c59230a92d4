//! The architecture's invariants, stated as absences and checked on the source tree
//! (ARCHITECTURE.md, "Invariants"): the generic layers name no game, the game interface
//! imports nothing built on it, a game is reached only through the registry, the library
//! prints nothing, and no source file or function outgrows a reader.

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
    if !ships(path) {
        return String::new();
    }
    shipped(text)
}

/// Whether a file ships anything: not one that holds only unit tests (see [`shipped_file`]).
fn ships(path: &str) -> bool {
    !(path.ends_with("/tests.rs") || path.contains("/src/") && path.contains("/tests/"))
}

/// The text of a file before its unit tests: before the first `#[cfg(test)]` on a module
/// (`#[cfg(test)] mod tests`); one on another item (a registry entry the tests add, a
/// test-only game module declared `pub mod`) does not end what ships.
fn before_unit_tests(text: &str) -> &str {
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let rest = text[at + "#[cfg(test)]".len()..].trim_start();
        if rest.starts_with("mod ") {
            return &text[..at];
        }
        from = at + 1;
    }
    text
}

/// The text before its unit tests (`#[cfg(test)] mod …`), without comments.
fn shipped(text: &str) -> String {
    let body = before_unit_tests(text);
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

/// The games' folders under `games/` (each a module of the registry): read from the tree,
/// so that a new game is covered by every check that names them.
fn game_modules() -> Vec<String> {
    let dir = crates().join("floe/src/games");
    let mut v: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    assert!(v.len() >= 5, "the games' folders: {v:?}");
    v
}

fn game_paths() -> Vec<String> {
    let mut v = vec!["games::".to_string()];
    v.extend(game_modules().iter().map(|g| format!("{g}::")));
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

/// The longest a function may be, in lines from its `fn` to its closing brace: one that
/// outgrows it is cut into named steps.
const MAX_FUNCTION_LINES: usize = 200;

/// The functions of `text` with a body, as (name, line of its `fn`, lines up to its closing
/// brace), in the order they open. Comments, strings (raw ones too) and characters are
/// skipped, so that a brace in them is no brace; `fn(…)` is a type, and a function without a
/// body (a trait's declaration) has no length. A function inside another is listed too, and
/// counted in the other's lines.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut found: Vec<(String, usize, usize)> = Vec::new();
    // the open delimiters, each with the function whose body it opens
    let mut open: Vec<(char, Option<usize>)> = Vec::new();
    // a function named but not yet opened: its name, line and depth of delimiters
    let mut pending: Option<(String, usize, usize)> = None;
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            // block comments nest
            let mut depth = 0;
            loop {
                match (at(i), at(i + 1)) {
                    ('\0', _) => break,
                    ('/', '*') => (depth, i) = (depth + 1, i + 2),
                    ('*', '/') => {
                        (depth, i) = (depth - 1, i + 2);
                        if depth == 0 {
                            break;
                        }
                    }
                    (x, _) => {
                        line += usize::from(x == '\n');
                        i += 1;
                    }
                }
            }
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                // an escaped character is skipped, a new line after `\` counted
                if c[i] == '\\' {
                    i += 1;
                }
                line += usize::from(at(i) == '\n');
                i += 1;
            }
            i += 1;
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // an escaped character: up to its closing quote
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3; // a character
            } else {
                i += 1; // a lifetime or a label
            }
        } else if ident(ch) {
            let s = i;
            while i < c.len() && ident(c[i]) {
                i += 1;
            }
            let word: String = c[s..i].iter().collect();
            if matches!(word.as_str(), "r" | "br" | "cr") && matches!(at(i), '"' | '#') {
                // a raw string (or a raw identifier, `r#type`: no quote after the hashes)
                let mut hashes = 0;
                while at(i + hashes) == '#' {
                    hashes += 1;
                }
                if at(i + hashes) == '"' {
                    i += hashes + 1;
                    while i < c.len() && !(c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#')) {
                        line += usize::from(c[i] == '\n');
                        i += 1;
                    }
                    i += hashes + 1;
                }
            } else if word == "fn" {
                let fn_line = line;
                while at(i) == ' ' || at(i) == '\t' || at(i) == '\n' {
                    line += usize::from(at(i) == '\n');
                    i += 1;
                }
                let s = i;
                while i < c.len() && ident(c[i]) {
                    i += 1;
                }
                if i > s {
                    pending = Some((c[s..i].iter().collect(), fn_line, open.len()));
                }
            }
        } else {
            match ch {
                '{' => {
                    let body = match &pending {
                        Some((_, _, depth)) if *depth == open.len() => {
                            let (name, from, _) = pending.take().expect("a pending function");
                            found.push((name, from, 0));
                            Some(found.len() - 1)
                        }
                        _ => None,
                    };
                    open.push(('{', body));
                }
                '(' | '[' => open.push((ch, None)),
                '}' | ')' | ']' => {
                    if let Some((_, Some(f))) = open.pop() {
                        found[f].2 = line - found[f].1 + 1;
                    }
                }
                ';' if pending.as_ref().is_some_and(|p| p.2 == open.len()) => pending = None,
                _ => {}
            }
            i += 1;
        }
    }
    found
}

/// The functions of `files` longer than `max` lines, as "file:line: fn name has N lines".
fn long_functions(files: &[(String, String)], max: usize) -> Vec<String> {
    let mut long = Vec::new();
    for (path, text) in files {
        // the text before its unit tests as it is, comments and all (`functions` skips them,
        // and a `//` in a string is no comment)
        let shipped = if ships(path) {
            before_unit_tests(text)
        } else {
            ""
        };
        for (name, line, lines) in functions(shipped) {
            // a body never closed: the text was misread (or cut by `#[cfg(test)]` inside it)
            assert!(lines > 0, "{path}:{line}: fn {name} has no end");
            if lines > max {
                long.push(format!("{path}:{line}: fn {name} has {lines} lines"));
            }
        }
    }
    long
}

#[test]
fn no_function_outgrows_a_reader() {
    // Every crate's sources (crates/*/src), their unit tests left out as above.
    let mut dirs: Vec<String> = fs::read_dir(crates())
        .expect("crates/")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| format!("{}/src", p.file_name().unwrap().to_string_lossy()))
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 4, "{dirs:?}");
    let mut long = Vec::new();
    for dir in &dirs {
        long.extend(long_functions(&sources(dir), MAX_FUNCTION_LINES));
    }
    assert!(
        long.is_empty(),
        "functions longer than {MAX_FUNCTION_LINES} lines (cut each into named steps):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_function_lengths_are_measured() {
    // Braces in comments, strings and characters are not counted, a lifetime is no
    // character, `fn(u8)` is a type, a declaration has no body, an inner function is its own.
    let text = "/// fn doc() {\n\
        pub fn outer<'a>(x: &'a str, f: fn(u8) -> u8) -> [u8; 2] {\n\
        let s = \"}}\\\" {\"; let c = '}'; let e = '\\''; // }\n\
        let r = r#\"}\" }\"#; /* } /* } */ { */ let l = \"a \\\n b\";\n\
        fn inner() {\n\
        }\n\
        }\n\
        trait T { fn declared(&self); fn given(&self) { } }\n";
    assert_eq!(
        functions(text),
        vec![
            ("outer".to_string(), 2, 7),
            ("inner".to_string(), 6, 2),
            ("given".to_string(), 9, 1),
        ]
    );
    // one line over the bound is seen, with its file, line and length; unit tests are not
    let body = "    let x = 1;\n".repeat(198);
    let planted = vec![
        (
            "floe/src/x.rs".to_string(),
            format!("fn fits() {{\n{body}}}\nfn over() {{\n{body} \n}}\n"),
        ),
        (
            "floe/src/y.rs".to_string(),
            format!("#[cfg(test)]\nmod tests {{ fn long() {{\n{body}\n\n}} }}\n"),
        ),
        (
            "floe/src/z/tests.rs".to_string(),
            format!("fn long() {{\n{body}\n\n}}\n"),
        ),
    ];
    assert_eq!(
        long_functions(&planted, 200),
        vec!["floe/src/x.rs:201: fn over has 201 lines"]
    );
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

/// The library's layers from the ground up (ARCHITECTURE.md, "Layers"): a module imports
/// its own layer and those below it, and up only where the table says so.
const LAYERS: &[&[&str]] = &[
    &["error", "bits", "grid", "input", "mem", "say"],
    &["search"],
    &["scene", "render"],
    &["game"],
    &["games"],
    &["analysis", "generate"],
    &["ops"],
    &["play", "request"],
];

/// The imports up the Layers table admits, each closing no circle: (the files, from the
/// path's start; the module imported; why).
const UP: &[(&str, &str, &str)] = &[
    (
        "floe/src/games/mod.rs",
        "ops",
        "the registry names ops::AnyGame, LevelOf and Visit",
    ),
    (
        "floe/src/games/",
        "ops",
        "games solve their own levels: ops::solve_typed",
    ),
    (
        "floe/src/games/",
        "generate",
        "games offer generate::hardest's searches",
    ),
    (
        "floe/src/generate/",
        "ops",
        "generate::hardest verifies with ops::solve_typed",
    ),
    (
        "floe/src/ops/",
        "play",
        "ops::Level::play starts a play::Session",
    ),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every `crate::MODULE` a shipped line of the library names above its own layer, but
/// those `UP` admits.
fn imports_up(files: &[(String, String)]) -> Vec<String> {
    let mut hits = Vec::new();
    for (path, text) in files {
        let Some(own) = path
            .strip_prefix("floe/src/")
            .and_then(|p| p.split(['/', '.']).next())
            .and_then(layer_of)
        else {
            continue;
        };
        for (i, line) in shipped_file(path, text).lines().enumerate() {
            for (at, _) in line.match_indices("crate::") {
                let module: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let Some(layer) = layer_of(&module) else {
                    continue;
                };
                let admitted = UP
                    .iter()
                    .any(|(from, to, _)| path.starts_with(from) && *to == module);
                if layer > own && !admitted {
                    hits.push(format!("{path}:{}: crate::{module}", i + 1));
                }
            }
        }
    }
    hits
}

#[test]
fn no_import_runs_back_up() {
    let files = sources("floe/src");
    // every top-level module of the library has its layer
    for (path, _) in &files {
        let top = path
            .strip_prefix("floe/src/")
            .and_then(|p| p.split(['/', '.']).next())
            .unwrap_or("");
        assert!(
            top == "lib" || layer_of(top).is_some(),
            "{path}: the module `{top}` has no layer in LAYERS (ARCHITECTURE.md, \"Layers\")"
        );
    }
    let hits = imports_up(&files);
    assert!(
        hits.is_empty(),
        "imports that run back up the layers (ARCHITECTURE.md, \"Layers\"):\n{}",
        hits.join("\n")
    );
}

#[test]
fn an_import_up_is_seen() {
    let files = vec![
        (
            "floe/src/search/x.rs".to_string(),
            "use crate::render::thousands;\nuse crate::mem::y; // crate::ops::z\n".to_string(),
        ),
        (
            "floe/src/games/pushpush/y.rs".to_string(),
            "use crate::analysis::push_tree;\nuse crate::ops::solve_typed;\n".to_string(),
        ),
    ];
    assert_eq!(
        imports_up(&files),
        [
            "floe/src/search/x.rs:1: crate::render",
            "floe/src/games/pushpush/y.rs:1: crate::analysis"
        ]
    );
}

#[test]
fn what_ships_ends_at_the_first_test_module() {
    let text = "ONE\n#[cfg(test)]\npub mod skeleton;\nTWO\n#[cfg(test)]\nstatic X: u8 = 0;\nTHREE\n#[cfg(test)]\nmod tests { FOUR }\n";
    let kept = before_unit_tests(text);
    assert!(kept.contains("ONE") && kept.contains("TWO") && kept.contains("THREE"));
    assert!(!kept.contains("FOUR"), "{kept}");
    assert_eq!(before_unit_tests("x\n#[cfg(test)]\n  mod looks;\ny"), "x\n");
}
