//! Inputs a hostile or careless user gives, and the limits every long run keeps: special
//! files (`/dev/null`, `/dev/zero`, a directory) and binary files as levels, move lists,
//! pictures, models and datasets; tokens of ten million characters; runs that would outgrow
//! the memory budget; Ctrl-C. Each case asserts the exit code, that nothing panicked, and a
//! bound on the time and on the memory the process held.

mod common;

use common::{big_unsolvable, bundled, floe_command, words, words_with, Temp, FLOE};
use serde_json::Value;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one watched run did.
struct Watched {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// The most memory the process was seen to hold (resident, sampled every 5 ms).
    peak_rss: u64,
    elapsed: Duration,
}

fn rss_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Runs floe with `args`, sends SIGINT after `interrupt_after` (if given), kills it after
/// `bound`; watches its memory meanwhile.
fn watched(args: &[&str], bound: Duration, interrupt_after: Option<Duration>) -> Watched {
    let mut child = floe_command(args).spawn().expect("the floe binary runs");
    let pid = child.id();
    // drain the pipes on their own threads, so that a chatty run cannot block on them
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let mut peak = 0;
    let mut signalled = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for floe") {
            break Some(status);
        }
        peak = peak.max(rss_of(pid).unwrap_or(0));
        if let Some(after) = interrupt_after {
            if !signalled && start.elapsed() >= after {
                signalled = true;
                let _ = Command::new("kill")
                    .args(["-INT", &pid.to_string()])
                    .status();
            }
        }
        if start.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    let w = Watched {
        code: status.and_then(|s| s.code()),
        stdout: text(out_thread.join().expect("reader")),
        stderr: text(err_thread.join().expect("reader")),
        peak_rss: peak,
        elapsed,
    };
    for (what, s) in [("stdout", &w.stdout), ("stderr", &w.stderr)] {
        assert!(
            !s.contains("panicked") && !s.contains("RUST_BACKTRACE"),
            "floe {args:?} panicked ({what}):\n{s}"
        );
    }
    w
}

/// Asserts that floe refuses `args` at once (exit 2 within 5 s, under 200 MiB) with a message
/// that contains `says`, of at most `longest` bytes.
fn refused(args: &[&str], says: &str) {
    let w = watched(args, Duration::from_secs(5), None);
    assert_eq!(
        w.code,
        Some(2),
        "floe {args:?}: exit {:?} (want 2) after {:?}, stderr:\n{}",
        w.code,
        w.elapsed,
        w.stderr
    );
    assert!(
        w.stderr.contains(says),
        "floe {args:?}: the message does not say '{says}':\n{}",
        w.stderr
    );
    assert!(
        w.stderr.len() < 600,
        "floe {args:?}: a message of {} bytes",
        w.stderr.len()
    );
    assert!(
        w.peak_rss < 200 << 20,
        "floe {args:?}: held {} bytes",
        w.peak_rss
    );
}

fn json(w: &Watched) -> Value {
    serde_json::from_str(&w.stdout)
        .unwrap_or_else(|e| panic!("not one JSON document ({e}):\n{}", w.stdout))
}

#[test]
fn special_files_are_refused_by_every_reader() {
    let zelda = bundled("zelda.txt");
    let dir = std::env::temp_dir();
    let dir = dir.to_str().expect("UTF-8");
    let binary = Temp::with("binary.bin", &[0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0]);
    for (file, says) in [
        ("/dev/null", "/dev/null"),
        ("/dev/zero", "/dev/zero"),
        (dir, "directory"),
        (binary.path().as_str(), binary.path().as_str()),
    ] {
        // an empty file is an empty move list, which verify checks
        let moves =
            (file != "/dev/null").then(|| vec!["verify", &zelda, "-l", "1", "--moves", file]);
        for args in [
            vec!["solve", file],
            vec!["levels", file],
            vec!["render", file, "-o", "/dev/null"],
            vec!["convert", file],
            vec!["space", file],
            vec!["image", file],
            vec!["predict", &zelda, "--model", file],
            vec!["learn", "train", "--data", file, "-o", "/dev/null"],
            vec!["learn", "eval", "--data", file, "--model", file],
        ]
        .into_iter()
        .chain(moves)
        {
            refused(&args, says);
        }
    }
}

#[test]
fn a_token_of_ten_million_characters_gives_a_short_message() {
    let huge = "Q".repeat(10_000_000);
    let mut cases = vec![
        ("ice.txt".to_string(), format!("Title: x\n{huge}\n")),
        ("kluiver.txt".to_string(), format!("8 8\n{huge}\n")),
        ("game.txt".to_string(), format!("Game: {huge}\n")),
    ];
    // every game of the registry's reader
    for g in floe::games::all() {
        let name = g.info().name;
        cases.push((format!("{name}.txt"), format!("Game: {name}\n{huge}\n")));
    }
    for (name, text) in cases {
        let f = Temp::with(&name, text.as_bytes());
        refused(&["solve", &f.path()], &f.path());
    }
    let moves = Temp::with("moves.txt", huge.as_bytes());
    refused(
        &[
            "verify",
            &bundled("zelda.txt"),
            "-l",
            "1",
            "--moves",
            &moves.path(),
        ],
        &moves.path(),
    );
}

#[test]
fn estimates_refuse_what_cannot_fit_unless_insisted() {
    // 9×9 with 9 blocks: up to 2.6 · 10^11 positions, terabytes
    refused(
        &["space", "--rows", "9", "--cols", "9", "--blocks", "9"],
        "memory budget",
    );
    refused(
        &["reach", "--rows", "9", "--cols", "9", "--blocks", "9"],
        "memory budget",
    );
    refused(
        &words("table space --max-rows 9 --max-cols 9 --max-blocks 9"),
        "memory budget",
    );
    // a census whose tables do not fit is refused before they are built
    refused(
        &words("census pushpush --rows 5 --cols 6 --max-memory 1G"),
        "memory budget",
    );
    // insisted: it runs, and stops cleanly at the budget
    let w = watched(
        &words("space --rows 9 --cols 9 --blocks 9 --force --max-memory 128M --json"),
        Duration::from_secs(60),
        None,
    );
    assert_eq!(w.code, Some(1), "{}", w.stderr);
    assert_eq!(json(&w)["limit"], "max-memory");
    assert!(
        w.stderr.contains("an estimate before the run"),
        "{}",
        w.stderr
    );
}

#[test]
fn the_memory_budget_stops_searches_cleanly() {
    let level = Temp::with("big.txt", big_unsolvable().as_bytes());
    let space = [
        "space", "--rows", "8", "--cols", "8", "--blocks", "8", "--force",
    ];
    let solve = ["solve", &level.path(), "--algo", "bfs"];
    let astar = ["solve", &level.path()];
    for args in [&space[..], &solve[..], &astar[..]] {
        let mut args = args.to_vec();
        args.extend(["--max-memory", "96M", "--json"]);
        let w = watched(&args, Duration::from_secs(60), None);
        assert_eq!(w.code, Some(1), "floe {args:?}: {}", w.stderr);
        let doc = json(&w);
        assert_eq!(doc["limit"], "max-memory", "{doc}");
        assert!(
            w.peak_rss < 160 << 20,
            "floe {args:?} held {} MiB with a budget of 96 MiB",
            w.peak_rss >> 20
        );
    }
}

#[test]
fn ctrl_c_ends_a_long_run_within_a_second_with_what_it_explored() {
    let w = watched(
        &[
            "space", "--rows", "8", "--cols", "8", "--blocks", "8", "--json",
        ],
        Duration::from_secs(30),
        Some(Duration::from_millis(800)),
    );
    assert_eq!(w.code, Some(130), "{}", w.stderr);
    assert!(
        w.elapsed < Duration::from_millis(800 + 1000 + 300),
        "ended {:?} after the start, Ctrl-C at 0.8 s",
        w.elapsed
    );
    let doc = json(&w);
    assert_eq!(doc["limit"], "interrupted");
    assert_eq!(doc["complete"], false);
    assert!(doc["states"].as_u64().unwrap() > 0, "{doc}");
    assert!(w.stderr.contains("floe: interrupted"), "{}", w.stderr);
}

#[test]
fn an_interrupted_run_leaves_the_old_file_whole() {
    let out = Temp::with("data.tsv", b"the old file\n");
    let dir = out.0.parent().expect("a directory").to_path_buf();
    let temps_before = leftovers(&dir);
    let w = watched(
        &[
            "learn",
            "data",
            "--rows",
            "5",
            "--cols",
            "5",
            "--count",
            "100000000",
            "-o",
            &out.path(),
        ],
        Duration::from_secs(30),
        Some(Duration::from_millis(500)),
    );
    assert_eq!(w.code, Some(130), "{}", w.stderr);
    assert!(
        w.elapsed < Duration::from_millis(500 + 1000 + 300),
        "{:?}",
        w.elapsed
    );
    assert_eq!(out.read(), "the old file\n");
    assert_eq!(leftovers(&dir), temps_before, "a temporary file was left");
}

/// The temporary files floe writes beside an output (`.NAME.PID.tmp`).
fn leftovers(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    n.starts_with(".floe-cli-test") && n.ends_with(".tmp")
                })
                .count()
        })
        .unwrap_or(0)
}

/// An open 24×24 ice room with 10 blocks and a walled-in target: unsolvable, and its
/// positions run to billions.
fn open_room() -> String {
    let n = 24;
    let mut rows = vec![vec!['-'; n]; n];
    rows[0][..10].fill('$');
    rows[n - 1][n - 1] = '.';
    rows[n - 1][n - 2] = '#';
    rows[n - 2][n - 1] = '#';
    let board: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    format!("Title: open\n{}\n", board.join("\n"))
}

#[test]
fn a_doubling_beyond_the_budget_is_not_tried() {
    // With 700 MB of address space, the search's arrays doubling past a million positions
    // once made the allocator abort; the budget now stops the search before the doubling.
    let level = Temp::with("open.txt", open_room().as_bytes());
    let script = format!(
        "ulimit -v 700000 && exec {FLOE} solve {} --max-memory 256M --json",
        level.path()
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("memory allocation"), "{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["limit"], "max-memory");
}

/// Every `--timeout`/`--time` holds within a second (before: `generate --timeout 1` ran
/// 13–58 s, an exact `hardest icepath --time 2` 6.5–9.8 s), and Ctrl-C ends the exact
/// search within a second with its report (before: nothing was reported).
#[test]
fn limits_and_ctrl_c_hold_within_a_second_with_the_partial_report() {
    let w = watched(
        &words("generate --rows 9 --cols 9 --targets 3 --count 50 --min-pushes 12 --timeout 1"),
        Duration::from_secs(60),
        None,
    );
    assert_eq!(w.code, Some(1), "{}", w.stderr);
    assert!(
        w.elapsed < Duration::from_millis(2000 + 500),
        "{:?}",
        w.elapsed
    );
    let hardest = words("hardest icepath --rows 8 --cols 8 --rocks 7 --top 1 --json");
    let mut timed = hardest.clone();
    timed.extend(["--time", "2"]);
    let w = watched(&timed, Duration::from_secs(60), None);
    assert_eq!(w.code, Some(1), "{}", w.stderr);
    assert!(
        w.elapsed < Duration::from_millis(3000 + 500),
        "{:?}",
        w.elapsed
    );
    assert_eq!(json(&w)["limit"], "timeout");
    let w = watched(
        &hardest,
        Duration::from_secs(60),
        Some(Duration::from_millis(1000)),
    );
    assert_eq!(w.code, Some(130), "{}", w.stderr);
    assert!(
        w.elapsed < Duration::from_millis(1000 + 1000 + 300),
        "{:?}",
        w.elapsed
    );
    let doc = json(&w);
    assert_eq!(doc["limit"], "interrupted");
    assert_eq!(doc["levels"].as_array().map(Vec::len), Some(1), "{doc}");
}

/// The annealing of `hardest ice` holds `--time` within a second (before: `--time 1` ended
/// after 4.3–5.0 s, each restart's room enumerations looked at the clock every 16 steps);
/// a run that found no level exits 1 (before: `--time 100ms` printed no level, exit 0),
/// and the messages name `--time`, the flag given, not `--timeout`.
#[test]
fn the_annealing_holds_its_time_and_no_level_is_no_answer() {
    let anneal = "hardest ice --rows 9 --cols 9 --blocks 4 --targets 2 --anneal --top 1 --time";
    for (time, budget) in [("1", 1000), ("3", 3000)] {
        let mut a = words(anneal);
        a.push(time);
        let w = watched(&a, Duration::from_secs(60), None);
        assert!(
            w.elapsed < Duration::from_millis(budget + 1000),
            "--time {time}: {:?}",
            w.elapsed
        );
        assert!(matches!(w.code, Some(0 | 1)), "{}", w.stderr);
        if w.code == Some(0) {
            assert!(w.stdout.contains("(stopped by --time)"), "{}", w.stdout);
            assert!(w.stdout.contains("1. "), "{}", w.stdout);
        }
    }
    let mut a = words(anneal);
    a.push("100ms");
    let w = watched(&a, Duration::from_secs(60), None);
    assert_eq!(w.code, Some(1), "{}\n{}", w.stdout, w.stderr);
    assert!(
        w.stdout.contains("(stopped by --time)") && !w.stdout.contains("--timeout"),
        "{}",
        w.stdout
    );
    assert!(w.stderr.contains("no level found"), "{}", w.stderr);
    let w = watched(
        &words("hardest icepath --rows 8 --cols 8 --rocks 7 --top 1 --time 1"),
        Duration::from_secs(60),
        None,
    );
    assert_eq!(w.code, Some(1), "{}", w.stderr);
    assert!(
        w.stdout.contains("(stopped by --time)") && !w.stdout.contains("--timeout"),
        "{}",
        w.stdout
    );
}

/// Ctrl-C during `generate -o FILE` leaves FILE as it was (before: it was replaced by an
/// empty file), and a file written over keeps its permissions (before: 0600 came back 0644).
#[test]
fn generate_keeps_an_existing_output_and_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let out = Temp::with("levels.txt", b"the old levels\n");
    std::fs::set_permissions(&out.0, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut args = words("generate --rows 9 --cols 9 --targets 3 --count 50 --min-pushes 12 -o");
    let p = out.path();
    args.push(&p);
    let w = watched(
        &args,
        Duration::from_secs(60),
        Some(Duration::from_millis(500)),
    );
    assert_eq!(w.code, Some(130), "{}", w.stderr);
    assert!(w.stderr.contains("not written"), "{}", w.stderr);
    assert_eq!(out.read(), "the old levels\n");
    // written over: the same permissions
    let mut args = words("generate --rows 5 --cols 5 --count 2 -o");
    args.push(&p);
    let w = watched(&args, Duration::from_secs(60), None);
    assert_eq!(w.code, Some(0), "{}", w.stderr);
    assert!(out.read().contains("Title: generated"), "{}", out.read());
    let mode = std::fs::metadata(&out.0).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
}

/// An interrupted `generate --report` marks the rows it cut short, and shows no share for a
/// row where nothing was measured (before: unsettled rows showed as measured 0%).
#[test]
fn an_interrupted_report_marks_its_unsettled_rows() {
    let w = watched(
        &words("generate --report --rows 7 --cols 7 --samples 100000"),
        Duration::from_secs(60),
        Some(Duration::from_millis(700)),
    );
    assert_eq!(w.code, Some(130), "{}", w.stderr);
    assert!(w.stdout.contains("(interrupted)"), "{}", w.stdout);
    // a row of which nothing was measured shows no share at all
    for line in w.stdout.lines().filter(|l| l.contains("| 0 of")) {
        assert!(line.contains("—") && !line.contains('%'), "{line}");
    }
}

/// Counts past 2^64 are estimated, and refused for the right reason (before: 16×16 with 12
/// blocks skipped the estimate and ran unannounced; shared, it said "no perfect hash").
#[test]
fn positions_past_two_to_the_64_are_estimated_and_refused_for_the_right_reason() {
    refused(
        &words("space --rows 16 --cols 16 --blocks 12"),
        "1.3 × 10^20 positions",
    );
    refused(
        &words("space --rows 16 --cols 16 --blocks 12 --workers 2 --force"),
        "more than the 2^64 ranks",
    );
    refused(
        &words("table space --max-rows 16 --max-cols 16 --max-blocks 12"),
        "1.3 × 10^20 positions",
    );
}

/// Conversions that would lose a rule are refused (before: `convert --to kluiver` dropped
/// `Rules: walk`, and an unsolvable level became solvable, with exit 0); ranges that hold
/// nothing and flags of another game are refused by one rule.
#[test]
fn lossy_conversions_empty_ranges_and_foreign_flags_are_refused() {
    let walk = Temp::with("walk.txt", b"Title: w\nRules: walk\n$--\n---\n--.\n");
    refused(
        &words_with("convert {} --to kluiver", &[&walk.path()]),
        "walking rule",
    );
    refused(
        &words("table reach --min-size 5 --max-size 3"),
        "--min-size 5 is more than --max-size 3",
    );
    refused(
        &words("experiment fujisan --rows 9 --challenges 20"),
        "--rows does not apply to Fujisan: it is a flag of BoxOff",
    );
    refused(
        &words("experiment pretzel --challenges 5"),
        "--trials 10 (the default) is more than --challenges 5",
    );
    // a count of states that is negative, a word or a fraction says what it takes
    for bad in ["-3", "many", "2.5"] {
        refused(
            &words_with("space --rows 4 --cols 4 --blocks 2 --max-states {}", &[bad]),
            &format!(
                "invalid value '{bad}' for '--max-states <N>': a whole number from 0 to {}",
                u64::MAX
            ),
        );
    }
}
