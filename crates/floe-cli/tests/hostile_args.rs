//! Arguments a hostile or careless user gives: numbers that do not fit, sizes whose product
//! wraps, counts no run could finish, rates that are not numbers. Each must be refused at the
//! door (exit 2, a message naming the flag or the size, no panic) and at once.

mod common;

use common::{floe_command, FLOE};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A value of `usize` that wraps to a small product when multiplied by 2.
const WRAPS: &str = "9223372036854775809";
/// The largest `u64`, and more than any `u64`.
const HUGE: &str = "18446744073709551615";
const HUGER: &str = "99999999999999999999";

/// Runs floe with `args` for at most `bound`, killing it after; returns (exit code, stderr).
fn run_bounded(args: &[&str], bound: Duration) -> (Option<i32>, String) {
    let mut child = floe_command(args)
        .stdout(Stdio::null())
        .spawn()
        .expect("the floe binary runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for floe") {
            break Some(status);
        }
        if start.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut err)
        .expect("stderr is UTF-8");
    (status.and_then(|s| s.code()), err)
}

/// A path in the temporary directory, for outputs that a refused run must never write.
fn tmp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("floe-hostile-{}-{name}", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

/// Asserts that `line` (split at spaces) is refused within five seconds: exit 2, no panic,
/// and a message that contains `says`.
fn refused(line: &str, says: &str) {
    let args: Vec<&str> = line.split_whitespace().collect();
    let (code, err) = run_bounded(&args, Duration::from_secs(5));
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "floe {line}: panicked:\n{err}"
    );
    assert_eq!(
        code,
        Some(2),
        "floe {line}: exit {code:?} (want 2), stderr:\n{err}"
    );
    assert!(
        err.contains(says),
        "floe {line}: the message does not say '{says}':\n{err}"
    );
}

#[test]
fn sizes_whose_product_wraps_are_refused() {
    for (line, says) in [
        (format!("census pushpush --rows {WRAPS} --cols 2"), "--rows"),
        (format!("census pushpush --rows 2 --cols {WRAPS}"), "--cols"),
        (
            format!(
                "learn data --rows {WRAPS} --cols 2 --count 10 -o {}",
                tmp("x.tsv")
            ),
            "--rows",
        ),
        (
            format!("experiment boxoff --rows {WRAPS} --cols 2 --colors 2 --challenges 10"),
            "BoxOff boards have 1 to 64 cells",
        ),
        (
            "experiment boxoff --rows 9223372036854775812 --cols 2 --colors 2 --challenges 10"
                .to_string(),
            "BoxOff boards have 1 to 64 cells",
        ),
        (
            format!("space --rows {WRAPS} --cols 2 --blocks 1"),
            "too large",
        ),
        (
            format!("reach --rows {WRAPS} --cols 2 --blocks 1"),
            "too large",
        ),
        (
            format!("generate --rows {WRAPS} --cols 2 --targets 1"),
            "--rows",
        ),
        (
            format!("generate --rows 5 --cols 5 --targets {WRAPS}"),
            "--targets",
        ),
        (format!("image --census {WRAPS}"), "--census"),
        (
            format!("experiment pretzel --suits {WRAPS} --ranks 3"),
            "Pretzel takes",
        ),
    ] {
        refused(&line, says);
    }
}

#[test]
fn counts_no_run_could_finish_are_refused() {
    for (line, says) in [
        (
            format!("generate --rows 5 --cols 5 --targets 1 --count {HUGE}"),
            "--count",
        ),
        (format!("generate --report --samples {HUGE}"), "--samples"),
        (
            format!(
                "learn data --rows 3 --cols 3 --count {HUGE} -o {}",
                tmp("x.tsv")
            ),
            "--count",
        ),
        (
            format!(
                "learn train --rows 3 --cols 3 --count 100 --epochs {HUGE} -o {}",
                tmp("m.bin")
            ),
            "--epochs",
        ),
        (
            format!(
                "learn train --rows 3 --cols 3 --count 100 --width 100000 -o {}",
                tmp("m.bin")
            ),
            "--width",
        ),
        (
            format!(
                "learn train --rows 3 --cols 3 --count 100 --batch 0 -o {}",
                tmp("m.bin")
            ),
            "--batch",
        ),
        (
            "experiment boxoff --rows 2 --cols 2 --colors 2 --challenges 10 --threads 100000"
                .to_string(),
            "--threads",
        ),
        (
            format!("experiment boxoff --rows 2 --cols 2 --colors 2 --challenges {HUGER}"),
            "--challenges",
        ),
    ] {
        refused(&line, says);
    }
}

#[test]
fn learning_rates_must_be_finite_and_positive() {
    for rate in ["NaN", "inf", "1e30", "0", "--lr=-1", "x"] {
        let flag = if rate.starts_with("--") {
            rate.to_string()
        } else {
            format!("--lr {rate}")
        };
        refused(
            &format!(
                "learn train --rows 3 --cols 3 --count 100 {flag} -o {}",
                tmp("m.bin")
            ),
            "--lr",
        );
    }
}

#[test]
fn durations_that_do_not_fit_are_refused_by_every_command() {
    let level = concat!(env!("CARGO_MANIFEST_DIR"), "/../../levels/zelda.txt");
    for t in [
        HUGER,
        "1e300",
        "18000000000000000000",
        "5000000000h",
        "-1s",
        "NaN",
    ] {
        for cmd in [
            format!("solve {level} -l 1"),
            format!("space {level} -l 1"),
            format!("play {level} -l 1 --keys h"),
            "census pushpush --rows 3 --cols 3".to_string(),
            "experiment boxoff --rows 2 --cols 2 --colors 2 --challenges 1".to_string(),
            "image --census 2".to_string(),
            "generate --rows 5 --cols 5 --targets 1".to_string(),
        ] {
            // `=` keeps a leading minus from reading as a flag
            refused(&format!("{cmd} --timeout={t}"), "--timeout");
        }
    }
}

#[test]
fn the_bounds_admit_what_they_name() {
    // The edges of the ranges are accepted: a refusal above is the range, not the flag.
    let (code, err) = run_bounded(
        &words("experiment boxoff --rows 2 --cols 2 --colors 2 --challenges 10 --threads 256"),
        Duration::from_secs(20),
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = run_bounded(
        &words("census pushpush --rows 1 --cols 2"),
        Duration::from_secs(20),
    );
    assert_eq!(code, Some(0), "{err}");
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

#[test]
fn a_thread_count_from_the_environment_is_checked_like_an_argument() {
    for bad in ["100000", "-1", "many"] {
        let out = Command::new(FLOE)
            .args(["space", "--rows", "3", "--cols", "3", "--blocks", "2"])
            .env("RAYON_NUM_THREADS", bad)
            .stdin(Stdio::null())
            .output()
            .expect("the floe binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("RAYON_NUM_THREADS"), "{bad}: {err}");
    }
    let out = Command::new(FLOE)
        .args(["space", "--rows", "3", "--cols", "3", "--blocks", "2"])
        .env("RAYON_NUM_THREADS", "2")
        .stdin(Stdio::null())
        .output()
        .expect("the floe binary runs");
    assert_eq!(out.status.code(), Some(0));
}

/// Arguments whose message misled (before: `--candidate-states 0` was taken and ran 9.6 s
/// through a million candidates; `--layers 5-2` said "not a number of blocks or a range";
/// `generate --rows 1 --cols 1` spoke of 3 blocks never given), and what works is said.
#[test]
fn misleading_arguments_are_refused_with_what_to_give() {
    refused(
        "generate --rows 4 --cols 4 --candidate-states 0",
        "give 1 or more positions",
    );
    refused(
        "census pushpush --rows 3 --cols 3 --work-dir /nonexistent/x --layers 5-2",
        "range backwards: give the smaller number first (2-5)",
    );
    refused(
        "generate --rows 3 --cols 1 --targets 1 --max-blocks 5",
        "at most 5 blocks (--max-blocks)",
    );
    // the default (the targets and two more) fits the board
    let (code, err) = run_bounded(
        &words("generate --rows 1 --cols 3 --timeout 5"),
        Duration::from_secs(10),
    );
    assert!(
        !err.contains("--max-blocks") && matches!(code, Some(0 | 1)),
        "{err}"
    );
}
