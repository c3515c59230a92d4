//! Results on disk that cannot lie: every command that writes several files of one result
//! (`hardest --out`, `census --svg`, `experiment --svg`, `experiment --generate -o`) writes
//! them as a set, replacing the old set only when the new one is whole (and, for `hardest`,
//! at least as good), with the report printed even when the files cannot be written; files
//! written through symbolic links land where the link points, hard links are refused; and
//! memory the machine refuses (an address-space limit, `ulimit -v`; a cgroup's limit; an
//! allocation refused by `FLOE_FAULT=alloc@N`) ends a run cleanly with its report, never an
//! abort.

mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A folder of its own under the temporary directory, empty.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floe-outputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every file under `dir` (its subfolders' too) with its content, by path relative to it.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, d: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// What a run gave: its exit code (`None`: ended by a signal), standard output and error.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `floe ARGS` with the environment `env` added, through `sh -c PREFIX` when `prefix`
/// is given (a `ulimit`, say).
fn run(args: &[&str], env: &[(&str, &str)], prefix: Option<&str>) -> Outcome {
    let mut cmd = match prefix {
        Some(p) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("{p}; exec \"$0\" \"$@\""))
                .arg(FLOE);
            c
        }
        None => Command::new(FLOE),
    };
    cmd.args(args).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let o = Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !o.stderr.contains("panicked") && !o.stderr.contains("memory allocation of"),
        "floe {args:?} {env:?}: {}",
        o.stderr
    );
    o
}

/// `line` split at white space with each `{}` replaced by `path` (a path without spaces).
fn line(line: &str, path: &str) -> Vec<String> {
    line.split_whitespace()
        .map(|w| w.replace("{}", path))
        .collect()
}

/// The header and title lines of the first level of a `hardest` set in `dir`.
fn first_level(dir: &Path, stem: &str) -> String {
    std::fs::read_to_string(dir.join(format!("{stem}1.txt"))).unwrap()
}

/// `args` (a `hardest` run with `--out`) stopped by `--time`: the first of a few growing
/// times at which the run is stopped having found levels. A time so short that the run
/// found none (a loaded machine) must leave the folder as it was and say so; the next
/// time is tried then.
fn stopped_with_levels(args: &str, o: &str, out: &Path) -> (Outcome, &'static str) {
    for time in ["1ms", "3ms", "10ms", "30ms", "100ms"] {
        let before = contents(out);
        let r = run(
            &words_with(&format!("{args} --time {time}"), &[o]),
            &[],
            None,
        );
        assert_eq!(r.code, Some(1), "{time}: {}", r.stderr);
        if r.stderr.contains("this run found none") || contents(out) == before {
            assert_eq!(contents(out), before, "{time}: {}", r.stderr);
            continue;
        }
        return (r, time);
    }
    panic!("{args}: no time up to 100 ms stopped the run with levels found");
}

/// An exhaustive `hardest` set is kept over a run stopped part-way, which goes to
/// `partial/` and says it is not proved the hardest (before: the 17-push exact set was
/// replaced by the stopped run's 12-push levels, their headers still saying "exact").
#[test]
fn a_stopped_hardest_run_keeps_the_exact_set_in_the_folder() {
    let d = scratch("hardest");
    let out = d.join("out");
    let o = path_str(&out);
    let cases = [
        (
            "ice --rows 5 --cols 5 --blocks 2 --walls 2",
            "hardest-ice-5x5-",
        ),
        (
            "icepath --rows 8 --cols 8 --rocks 4",
            "hardest-icepath-8x8-",
        ),
    ];
    for (question, stem) in cases {
        let args = format!("hardest {question} --out {{}} --json");
        let clean = run(&words_with(&args, &[&o]), &[], None);
        assert_eq!(clean.code, Some(0), "{}", clean.stderr);
        let exact = contents(&out);
        let size = &stem[stem.len() - 4..stem.len() - 1];
        assert!(first_level(&out, stem).starts_with(&format!(
            "; floe hardest {}, {}: exact\n",
            question.split(' ').next().unwrap(),
            size.replace('x', "×")
        )));
        // the same question stopped at once: the folder keeps the exact set
        let (stopped, _) = stopped_with_levels(&args, &o, &out);
        // its report is printed whole
        let report: serde_json::Value = serde_json::from_str(&stopped.stdout).unwrap();
        assert_eq!(report["exhaustive"], false);
        let kept: BTreeMap<_, _> = contents(&out)
            .into_iter()
            .filter(|(k, _)| !k.starts_with("partial/"))
            .collect();
        assert_eq!(kept, exact, "{}", stopped.stderr);
        let partial = first_level(&out.join("partial"), stem);
        assert!(
            partial.contains("the longest found, not proved the hardest"),
            "{partial}"
        );
        assert!(
            stopped
                .stderr
                .contains(&format!("{o} keeps its levels (exact, "))
                && stopped.stderr.contains(&format!("{o}/partial")),
            "{}",
            stopped.stderr
        );
        // a second exhaustive run replaces the set with its own (the same levels)
        let again = run(&words_with(&args, &[&o]), &[], None);
        assert_eq!(again.code, Some(0));
        let now: BTreeMap<_, _> = contents(&out)
            .into_iter()
            .filter(|(k, _)| !k.starts_with("partial/"))
            .collect();
        assert_eq!(now, exact);
        std::fs::remove_dir_all(&out).unwrap();
    }
    // a stopped run replaces a stopped run's set only when it is at least as long
    let args = "hardest ice --rows 5 --cols 5 --blocks 2 --walls 2 --out {}";
    let (_, time) = stopped_with_levels(args, &o, &out);
    let short = contents(&out);
    let ms: u64 = time.trim_end_matches("ms").parse().unwrap();
    let longer = run(
        &words_with(&format!("{args} --time {}ms", ms * 10), &[&o]),
        &[],
        None,
    );
    // ten times as long may finish the search (exit 0): its set replaces the stopped one
    assert!(matches!(longer.code, Some(0 | 1)), "{}", longer.stderr);
    let figure = |t: &str| -> u64 {
        t.lines().nth(1).unwrap()[2..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let before = figure(std::str::from_utf8(&short["hardest-ice-5x5-1.txt"]).unwrap());
    let after = figure(&first_level(&out, "hardest-ice-5x5-"));
    assert!(after >= before, "{before} -> {after}");
    // a file where the folder should be is named
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let r = run(
        &words_with(
            "hardest ice --rows 4 --cols 4 --blocks 2 --out {}",
            &[&path_str(&file)],
        ),
        &[],
        None,
    );
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("a file is there; --out names a folder"),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.is_empty(), "the levels are printed");
    let _ = std::fs::remove_dir_all(&d);
}

/// Ctrl-C in an exhaustive `hardest` over an exact set: the set is kept.
#[test]
fn an_interrupted_hardest_run_keeps_the_exact_set() {
    let d = scratch("interrupted");
    let o = path_str(&d.join("out"));
    let args = "hardest ice --rows 4 --cols 5 --blocks 3 --walls 1 --out {}";
    assert_eq!(run(&words_with(args, &[&o]), &[], None).code, Some(0));
    let exact = contents(&d.join("out"));
    let big = "hardest ice --rows 5 --cols 6 --blocks 3 --walls 2 --out {}";
    // the same folder, a set of another size beside: stop the long one
    let child = Command::new(FLOE)
        .args(words_with(big, &[&o]))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    // SAFETY: signals a child of this test
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    // stopped by Ctrl-C: 130, as a shell reports SIGINT
    assert_eq!(out.status.code(), Some(130));
    let now = contents(&d.join("out"));
    for (k, v) in &exact {
        assert_eq!(now.get(k), Some(v), "{k}");
    }
    // the stopped run's set of the other size says what it is
    let stopped = first_level(&d.join("out"), "hardest-ice-5x6-");
    assert!(
        stopped.contains("not proved the hardest"),
        "{stopped}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The temporary files of a set (`.NAME.PID.set.tmp`) or of one file (`.NAME.PID.tmp`).
fn temporaries(dir: &Path) -> Vec<String> {
    contents(dir)
        .into_keys()
        .filter(|k| {
            let n = k.rsplit('/').next().unwrap();
            n.starts_with('.') && n.ends_with(".tmp")
        })
        .collect()
}

/// A writer of several files, its old result and a new one, under a full disk at every
/// point where it writes: the old set stays whole, no temporary file is left, the report is
/// printed; without a fault the new set replaces the old whole, its stale members removed.
fn full_disk_at_every_point(name: &str, old: &str, new: &str, report: &str) {
    let d = scratch(name);
    let o = path_str(&d.join("out"));
    let old = line(old, &o);
    let new = line(new, &o);
    let old: Vec<&str> = old.iter().map(String::as_str).collect();
    let new: Vec<&str> = new.iter().map(String::as_str).collect();
    let first = run(&old, &[], None);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let before = contents(&d);
    assert!(before.len() >= 2, "{name}: {before:?}");
    let mut failed = 0;
    for at in 1..=40 {
        let fault = format!("full@{at}");
        let r = run(&new, &[("FLOE_FAULT", &fault)], None);
        if r.code == Some(0) {
            break;
        }
        failed += 1;
        assert_eq!(r.code, Some(2), "{name} {fault}: {}", r.stderr);
        assert!(
            r.stderr.contains("No space left on device") && r.stderr.contains(&o),
            "{name} {fault}: {}",
            r.stderr
        );
        assert!(r.stdout.contains(report), "{name} {fault}: {}", r.stdout);
        let now = contents(&d);
        assert!(
            now == before,
            "{name} {fault}: {} — files {:?} (before: {:?}), changed: {:?}",
            r.stderr,
            now.keys().collect::<Vec<_>>(),
            before.keys().collect::<Vec<_>>(),
            now.iter()
                .filter(|(k, v)| before.get(*k) != Some(*v))
                .map(|(k, _)| k)
                .collect::<Vec<_>>()
        );
        assert_eq!(temporaries(&d), Vec::<String>::new(), "{name} {fault}");
    }
    assert!(failed >= 2, "{name}: {failed} points");
    let clean = run(&new, &[], None);
    assert_eq!(clean.code, Some(0));
    let after = contents(&d);
    assert!(after != before, "{name}: the new set was not written");
    assert_eq!(temporaries(&d), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&d);
}

/// Before: a census's pictures over those of another census on a full disk left some of
/// each under one name, and the census was not printed.
#[test]
fn a_full_disk_leaves_each_set_of_files_whole() {
    full_disk_at_every_point(
        "census",
        "census pushpush --rows 3 --cols 3 --difficulty --svg {}/f.svg --json",
        "census pushpush --rows 3 --cols 4 --difficulty --svg {}/f.svg --json",
        "\"boards\"",
    );
    full_disk_at_every_point(
        "hardest",
        "hardest ice --rows 4 --cols 4 --blocks 2 --walls 1 --out {} --json",
        "hardest ice --rows 4 --cols 4 --blocks 2 --walls 2 --out {} --json",
        "\"levels\"",
    );
    full_disk_at_every_point(
        "experiment",
        "experiment boxoff --challenges 20 --trials 2 --svg {}",
        "experiment boxoff --challenges 30 --trials 3 --svg {}",
        "BoxOff",
    );
    full_disk_at_every_point(
        "challenges",
        "experiment boxoff --generate 3 --seed 1 -o {}",
        "experiment boxoff --generate 3 --seed 2 -o {}",
        "",
    );
}

/// A census whose pictures cannot be written at all (a file where their folder should be)
/// still prints the census, then says why the pictures were not written.
#[test]
fn a_census_is_printed_when_its_pictures_cannot_be_written() {
    let d = scratch("census-blocked");
    std::fs::write(d.join("M"), "a file").unwrap();
    let svg = path_str(&d.join("M/f.svg"));
    let r = run(
        &words_with("census pushpush --rows 3 --cols 3 --svg {} --json", &[&svg]),
        &[],
        None,
    );
    assert_eq!(r.code, Some(2));
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["boards"], 18432);
    assert!(r.stderr.contains("M/f.svg"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&d);
}

/// `-o` through a symbolic link writes the file it names (before: the link was replaced by
/// a file, the file it named kept its old content); a hard-linked file is refused, named.
#[test]
fn files_are_written_through_symbolic_links_and_hard_links_refused() {
    let d = scratch("links");
    let real = d.join("pictures/real.svg");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, "old").unwrap();
    let link = d.join("latest.svg");
    std::os::unix::fs::symlink("pictures/real.svg", &link).unwrap();
    let level = bundled("zelda.txt");
    let r = run(
        &words_with(
            "render {} --level OOSSAS -o {}",
            &[&level, &path_str(&link)],
        ),
        &[],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().starts_with("<svg"));
    assert_eq!(temporaries(&d), Vec::<String>::new());
    // a link to a link, and a dangling link (its file is made)
    let chain = d.join("chain.svg");
    std::os::unix::fs::symlink("latest.svg", &chain).unwrap();
    std::fs::write(&real, "old").unwrap();
    let r = run(
        &words_with(
            "render {} --level OOSSAS -o {}",
            &[&level, &path_str(&chain)],
        ),
        &[],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(std::fs::read_to_string(&real).unwrap().starts_with("<svg"));
    let dangling = d.join("new.txt");
    std::os::unix::fs::symlink("pictures/made.txt", &dangling).unwrap();
    let r = run(
        &words_with(
            "convert {} --level OOSSAS -o {}",
            &[&level, &path_str(&dangling)],
        ),
        &[],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(d.join("pictures/made.txt").is_file());
    // a link loop is refused by name
    let a = d.join("loop-a.svg");
    std::os::unix::fs::symlink("loop-b.svg", &a).unwrap();
    std::os::unix::fs::symlink("loop-a.svg", d.join("loop-b.svg")).unwrap();
    let r = run(
        &words_with("render {} --level OOSSAS -o {}", &[&level, &path_str(&a)]),
        &[],
        None,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("loop-a.svg"), "{}", r.stderr);
    // a hard link: refused, both names keep their content
    let hard = d.join("hard.svg");
    std::fs::write(&real, "old").unwrap();
    std::fs::hard_link(&real, &hard).unwrap();
    let r = run(
        &words_with(
            "render {} --level OOSSAS -o {}",
            &[&level, &path_str(&hard)],
        ),
        &[],
        None,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("hard.svg") && r.stderr.contains("2 hard links"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "old");
    // a set written through a link to a folder lands in the folder it names
    std::fs::create_dir_all(d.join("real-out")).unwrap();
    std::os::unix::fs::symlink("real-out", d.join("out-link")).unwrap();
    let r = run(
        &words_with(
            "hardest ice --rows 4 --cols 4 --blocks 2 --out {}",
            &[&path_str(&d.join("out-link"))],
        ),
        &[],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(d.join("real-out/hardest-ice-4x4-1.txt").is_file());
    let _ = std::fs::remove_dir_all(&d);
}

/// What a run under a limit must give: exit 0 with the clean figures, or exit 1 (a limit
/// reached) with its report, or a refusal before the run (exit 2, one line naming the
/// budget) — never a signal.
fn clean_or_stopped(o: &Outcome, what: &str) -> Option<serde_json::Value> {
    match o.code {
        // a census stopped reports nothing: it says where its layers are
        Some(1) if o.stdout.is_empty() => {
            assert!(
                o.stderr.contains("stopped by") && o.stderr.contains("memory"),
                "{what}: {}",
                o.stderr
            );
            None
        }
        Some(0) | Some(1) => {
            let v: serde_json::Value = serde_json::from_str(&o.stdout)
                .unwrap_or_else(|e| panic!("{what}: {e}: {}\n{}", o.stdout, o.stderr));
            if o.code == Some(1) {
                assert!(
                    o.stdout.contains("max-memory") || o.stderr.contains("memory"),
                    "{what}: {}\n{}",
                    o.stdout,
                    o.stderr
                );
            }
            Some(v)
        }
        Some(2) => {
            assert!(o.stderr.contains("memory"), "{what}: {}", o.stderr);
            None
        }
        other => panic!("{what}: ended with {other:?}: {}", o.stderr),
    }
}

/// Under an address-space limit (`ulimit -v`, what batch systems set): the default budget
/// is below the limit, a run too large for it is refused by its estimate, and forced it
/// stops cleanly at the budget with its report (before: `memory allocation of … bytes
/// failed`, a backtrace and SIGABRT, exit 134). Single process, two workers with a work
/// folder, the graph, and the census, taken up again to the clean run's figures.
#[test]
fn an_address_space_limit_ends_runs_cleanly() {
    let d = scratch("ulimit");
    let w = path_str(&d.join("w"));
    let c = path_str(&d.join("c"));
    let limit = "ulimit -v 600000";
    let small = run(
        &words("space --rows 5 --cols 5 --blocks 4 --json"),
        &[],
        Some(limit),
    );
    assert_eq!(small.code, Some(0), "{}", small.stderr);
    // the estimate names where its budget comes from
    let refused = run(
        &words("space --rows 9 --cols 9 --blocks 7 --json"),
        &[],
        Some(limit),
    );
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("(three quarters of the address space ulimit -v leaves)"),
        "{}",
        refused.stderr
    );
    // a --max-memory above the limit is no help: it says so
    let above = run(
        &words("space --rows 9 --cols 9 --blocks 7 --max-memory 8G --json"),
        &[],
        Some(limit),
    );
    assert_eq!(above.code, Some(2));
    assert!(
        above
            .stderr
            .contains("is more than this machine lets floe have"),
        "{}",
        above.stderr
    );
    let zelda = bundled("zelda.txt");
    let runs: Vec<(&str, Vec<&str>)> = vec![
        (
            "space",
            words("space --rows 8 --cols 8 --blocks 7 --force --json"),
        ),
        (
            "space on disk",
            words_with(
                "space --rows 8 --cols 8 --blocks 6 --force --workers 2 --work-dir {} --json",
                &[&w],
            ),
        ),
        (
            "graph",
            words_with("graph {} --level MCTOD --force --json", &[&zelda]),
        ),
    ];
    for (what, args) in runs {
        let t = Instant::now();
        let o = run(&args, &[], Some("ulimit -v 300000"));
        clean_or_stopped(&o, what);
        assert!(t.elapsed() < Duration::from_secs(60), "{what}");
    }
    // a census stopped by the limit is taken up without it to the clean run's figures
    let census = words_with(
        "census pushpush --rows 4 --cols 5 --work-dir {} --json",
        &[&c],
    );
    let o = run(&census, &[], Some("ulimit -v 160000"));
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    assert!(
        o.stderr.contains("run again with --resume to go on"),
        "{}",
        o.stderr
    );
    let resumed = run(&[census.as_slice(), &["--resume"]].concat(), &[], None);
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    let clean = run(
        &words("census pushpush --rows 4 --cols 5 --json"),
        &[],
        None,
    );
    let timeless = |t: &str| {
        let mut v: serde_json::Value = serde_json::from_str(t).unwrap();
        for k in ["seconds", "peak_memory_bytes", "computed", "table_bytes"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    assert_eq!(timeless(&resumed.stdout), timeless(&clean.stdout));
    let _ = std::fs::remove_dir_all(&d);
}

/// A cgroup's memory limit (read from `/sys/fs/cgroup`, here from a tree made to look like
/// it) sets the budget below it, and the refusal names it.
#[test]
fn a_cgroup_limit_sets_the_budget() {
    let d = scratch("cgroup");
    let group = d.join("jobs/job-7");
    std::fs::create_dir_all(&group).unwrap();
    std::fs::write(d.join("self"), "0::/jobs/job-7\n").unwrap();
    std::fs::write(group.join("memory.max"), format!("{}\n", 200u64 << 20)).unwrap();
    std::fs::write(group.join("memory.current"), format!("{}\n", 10u64 << 20)).unwrap();
    let root = path_str(&d);
    let r = run(
        &words("space --rows 9 --cols 9 --blocks 7 --json"),
        &[("FLOE_CGROUP_ROOT", &root)],
        None,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("(three quarters of what the cgroup's memory limit leaves)"),
        "{}",
        r.stderr
    );
    // the same run without the limit is not refused for memory
    let free = run(
        &words("space --rows 9 --cols 9 --blocks 7 --max-states 1000 --json"),
        &[("FLOE_CGROUP_ROOT", &root)],
        None,
    );
    assert_eq!(free.code, Some(1), "{}", free.stderr);
    let _ = std::fs::remove_dir_all(&d);
}

/// In the spirit of SQLite's allocation-failure tests: the Nth large allocation (64 KiB or
/// more) refused, for every N a run makes. Each run gives the clean run's figures or stops
/// cleanly as at its memory budget with its report — never an abort.
#[test]
fn a_refused_allocation_is_a_clean_stop() {
    let d = scratch("alloc");
    let figures = |v: &serde_json::Value| (v["states"].clone(), v["histogram"].clone());
    let jobs: Vec<(&str, String)> = vec![
        ("space", "space --rows 6 --cols 6 --blocks 5 --json".into()),
        (
            "space two workers",
            format!(
                "space --rows 6 --cols 6 --blocks 5 --workers 2 --work-dir {} --json",
                path_str(&d.join("w"))
            ),
        ),
        (
            "census",
            format!(
                "census pushpush --rows 4 --cols 4 --work-dir {} --json",
                path_str(&d.join("c"))
            ),
        ),
        (
            "graph",
            format!("graph {} --level OOSSAS --json", bundled("zelda.txt")),
        ),
    ];
    for (what, line) in jobs {
        let _ = std::fs::remove_dir_all(d.join("w"));
        let _ = std::fs::remove_dir_all(d.join("c"));
        let clean = run(&words(&line), &[], None);
        assert_eq!(clean.code, Some(0), "{what}: {}", clean.stderr);
        let want: serde_json::Value = serde_json::from_str(&clean.stdout).unwrap();
        let mut stopped = 0;
        for n in 1..=60 {
            let _ = std::fs::remove_dir_all(d.join("w"));
            let _ = std::fs::remove_dir_all(d.join("c"));
            let fault = format!("alloc@{n}");
            let o = run(&words(&line), &[("FLOE_FAULT", &fault)], None);
            let Some(v) = clean_or_stopped(&o, &format!("{what} {fault}")) else {
                stopped += usize::from(o.code == Some(1));
                continue;
            };
            if o.code == Some(0) {
                if what == "census" || what == "graph" {
                    let mut a = v.clone();
                    let mut b = want.clone();
                    for k in ["seconds", "peak_memory_bytes", "computed"] {
                        a.as_object_mut().unwrap().remove(k);
                        b.as_object_mut().unwrap().remove(k);
                    }
                    assert_eq!(a, b, "{what} {fault}");
                } else {
                    assert_eq!(figures(&v), figures(&want), "{what} {fault}");
                }
            } else {
                stopped += 1;
            }
        }
        assert!(stopped > 0, "{what}: no allocation was refused");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Runs `floe ARGS` as a user who may only read what the test made: as `nobody` when the
/// tests run as root (who may write anywhere), else as this user once `dir` is made
/// read-only.
fn as_reader(args: &[&str]) -> Outcome {
    // SAFETY: getuid has no preconditions
    if unsafe { libc::getuid() } == 0 {
        let prefix = "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" \"$@\"";
        let out = Command::new("sh")
            .arg("-c")
            .arg(prefix)
            .arg(FLOE)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        Outcome {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    } else {
        run(args, &[], None)
    }
}

/// Sets the write permission of everything under `dir` (and `dir`) on or off.
fn writable(dir: &Path, on: bool) {
    use std::os::unix::fs::PermissionsExt;
    fn walk(p: &Path, on: bool) {
        let Ok(m) = std::fs::symlink_metadata(p) else {
            return;
        };
        if m.is_dir() {
            for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
                walk(&e.path(), on);
            }
        }
        let mode = m.permissions().mode();
        let mode = if on { mode | 0o200 } else { mode & !0o222 } | 0o055;
        let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode));
    }
    walk(dir, on);
}

/// A shared results folder that may only be read: a finished run and a finished census are
/// answered from their files with `--resume` (before: `…/worker-0/lock: Permission denied`);
/// an unfinished one is refused, naming the folder and the way on; nothing is written.
#[test]
fn finished_runs_are_read_from_a_folder_that_may_only_be_read() {
    let d = scratch("read-only");
    let at = |name: &str| path_str(&d.join(name));
    let timeless = |t: &str| {
        let mut v: serde_json::Value = serde_json::from_str(t).unwrap();
        for k in [
            "seconds",
            "peak_memory_bytes",
            "peak_rss_bytes",
            "computed",
            "resumed_at",
            "disk_bytes",
        ] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let space = "space --rows 6 --cols 6 --blocks 4 --workers 2 --work-dir {} --json";
    let census = "census pushpush --rows 3 --cols 4 --work-dir {} --json";
    let first_space = run(&words_with(space, &[&at("s")]), &[], None);
    let first_census = run(&words_with(census, &[&at("c")]), &[], None);
    assert_eq!(first_space.code, Some(0));
    assert_eq!(first_census.code, Some(0));
    // unfinished: killed at a point where a file became durable
    let crash = [("FLOE_FAULT", "crash@3")];
    run(
        &words_with(space, &[&at("s-part")]),
        &[("FLOE_FAULT", "crash@20")],
        None,
    );
    run(
        &words_with(
            "census pushpush --rows 4 --cols 5 --work-dir {}",
            &[&at("c-part")],
        ),
        &crash,
        None,
    );
    writable(&d, false);
    let before = contents(&d);
    let resume = |command: &str, dir: &str| {
        let args = line(&format!("{command} --resume"), dir);
        as_reader(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let s = resume(space, &at("s"));
    assert_eq!(s.code, Some(0), "{}", s.stderr);
    let figures = |t: &str| {
        let v = timeless(t);
        (
            v["states"].clone(),
            v["histogram"].clone(),
            v["complete"].clone(),
        )
    };
    assert_eq!(figures(&s.stdout), figures(&first_space.stdout));
    let c = resume(census, &at("c"));
    assert_eq!(c.code, Some(0), "{}", c.stderr);
    assert_eq!(timeless(&c.stdout), timeless(&first_census.stdout));
    for (what, line, dir) in [
        ("space", space, at("s-part")),
        (
            "census",
            "census pushpush --rows 4 --cols 5 --work-dir {} --json",
            at("c-part"),
        ),
    ] {
        let r = resume(line, &dir);
        assert_eq!(r.code, Some(2), "{what}: {}", r.stderr);
        assert!(
            r.stderr.contains(&dir)
                && r.stderr.contains("may only be read here")
                && r.stderr
                    .contains("Copy the folder to a place this user may write"),
            "{what}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("put back the file"), "{}", r.stderr);
    }
    // a fresh run there is refused by name
    let fresh = as_reader(&words_with(space, &[&format!("{}/new", at("s"))]));
    assert_eq!(fresh.code, Some(2));
    assert!(fresh.stderr.contains("new"), "{}", fresh.stderr);
    assert!(contents(&d) == before, "a reader wrote in the folder");
    writable(&d, true);
    // the unfinished ones, made writable again, are taken up to the clean figures
    let args = line(&format!("{space} --resume"), &at("s-part"));
    let s = run(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        &[],
        None,
    );
    assert_eq!(s.code, Some(0), "{}", s.stderr);
    assert_eq!(
        timeless(&s.stdout)["states"],
        timeless(&first_space.stdout)["states"]
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The messages of issue-53's cases name the file, the worker and the way on, and every
/// input a run cannot use is refused at once (each seen failing before: the old words are
/// in the assertions' comments).
#[test]
fn messages_name_the_way_on_and_inputs_are_bounded() {
    let refused = |line: &str, says: &str| {
        let t = Instant::now();
        let o = run(&words(line), &[], None);
        assert_eq!(o.code, Some(2), "{line}: {}", o.stderr);
        assert!(o.stderr.contains(says), "{line}: {}", o.stderr);
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{line}: {:?}",
            t.elapsed()
        );
    };
    // before: 1,048,576 candidates tried, exit 1
    refused(
        "generate --rows 1 --cols 1",
        "a 1×1 board has no level of 3 or more pushes",
    );
    refused(
        "generate --rows 6 --cols 6 --candidate-states 3",
        "--candidate-states 3 is too few for levels of 3 or more pushes",
    );
    // before: "0 rocks do not fit a 1×1 board: at most 0"
    refused(
        "hardest icepath --rows 1 --cols 1",
        "a 1×1 board is too small for an ice path",
    );
    refused(
        "hardest ice --rows 4 --cols 4 --anneal --steps 2000000000",
        "--steps",
    );
    // before: past 30 s (the largest cell, 64 blocks, does not fit the edge: no estimate)
    refused(
        "table space --max-rows 16 --max-cols 16 --max-blocks 64",
        "the table's largest cell, 16×16 with 60 blocks",
    );
    // before: accepted up to 1,024 (512 workers on 2 cores did not end within 100 s)
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    refused(
        &format!(
            "space --rows 4 --cols 4 --blocks 2 --workers {}",
            8 * cores + 1
        ),
        &format!("at most {} on this machine's {cores} cores", 8 * cores),
    );
    // before: "File exists (os error 17)"
    let d = scratch("messages");
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let f = path_str(&file);
    let o = run(
        &words_with("experiment boxoff --generate 2 -o {}", &[&f]),
        &[],
        None,
    );
    assert_eq!(o.code, Some(2));
    assert!(
        o.stderr.contains("a file is there; -o names a folder"),
        "{}",
        o.stderr
    );
    // a budget above the machine is said before the run (before: not a word)
    let o = run(
        &words("space --rows 4 --cols 4 --blocks 2 --max-memory 64T --json"),
        &[],
        None,
    );
    assert_eq!(o.code, Some(0));
    assert!(
        o.stderr
            .contains("--max-memory 64.0 TiB is more than this machine lets floe have"),
        "{}",
        o.stderr
    );
    // a control character in --keys is shown by its code (before: echoed raw)
    let o = run(
        &words_with(
            "play {} --level OOSSAS --keys {}",
            &[&bundled("zelda.txt"), "x\u{1b}[2J"],
        ),
        &[],
        None,
    );
    assert!(!o.stderr.contains('\u{1b}'), "{:?}", o.stderr);
    assert!(o.stderr.contains("\\u{1b}"), "{:?}", o.stderr);
    // a full disk in a shared run names the layer's file and the way on (before: "cannot
    // write a layer file: No space left on device")
    let w = path_str(&d.join("w"));
    let o = run(
        &words_with(
            "space --rows 8 --cols 8 --blocks 5 --workers 2 --force --work-dir {}",
            &[&w],
        ),
        &[],
        Some("trap '' XFSZ; ulimit -f 200"),
    );
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("{w}/worker-"))
            && o.stderr.contains(".bin: cannot write layer")
            && o.stderr
                .contains("the same command with --resume takes the run up"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// SIGTERM (what a batch system sends) stops a run as Ctrl-C does, with its partial report,
/// and exits with 143 (before: 130, and the report said "Ctrl-C"); Ctrl-C of `table
/// patterns` says so (before: "stopped by --interrupted", a flag that does not exist).
#[test]
fn sigterm_exits_143_and_interrupts_are_named() {
    let stop = |line: &str, signal: i32| {
        let child = Command::new(FLOE)
            .args(words(line))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(800));
        // SAFETY: signals a child of this test
        unsafe { libc::kill(child.id() as i32, signal) };
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = stop(
        "space --rows 9 --cols 9 --blocks 7 --force --timeout 60s",
        libc::SIGTERM,
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(out.contains("stopped by SIGTERM"), "{out}");
    let (code, _, err) = stop("table patterns --min-size 6 --max-size 10", libc::SIGINT);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("stopped by Ctrl-C") && !err.contains("--interrupted"),
        "{err}"
    );
}

/// After a newcomer's fault injection: a set killed between its renames (`FLOE_FAULT=crash@N`
/// at every point) leaves the next run free to write (before: new files beside old ones,
/// and hidden backups that made every later run refuse "2 hard links"); the next set there
/// puts the old one back first, then writes its own whole.
#[test]
fn a_set_killed_at_any_point_is_put_in_order_by_the_next_run() {
    let d = scratch("crash-set");
    let o = path_str(&d.join("out"));
    let old = line("hardest icepath --rows 5 --cols 5 --rocks 2 --out {}", &o);
    let new = line("hardest icepath --rows 5 --cols 5 --rocks 3 --out {}", &o);
    let old: Vec<&str> = old.iter().map(String::as_str).collect();
    let new: Vec<&str> = new.iter().map(String::as_str).collect();
    // the sets of a clean run of each, for comparison
    assert_eq!(run(&new, &[], None).code, Some(0));
    let want_new = contents(&d.join("out"));
    std::fs::remove_dir_all(d.join("out")).unwrap();
    assert_eq!(run(&old, &[], None).code, Some(0));
    let want_old = contents(&d.join("out"));
    let mut crashed = 0;
    for at in 1..=30 {
        std::fs::remove_dir_all(d.join("out")).unwrap();
        assert_eq!(run(&old, &[], None).code, Some(0));
        let fault = format!("crash@{at}");
        let r = run(&new, &[("FLOE_FAULT", &fault)], None);
        if r.code == Some(0) {
            break;
        }
        crashed += 1;
        assert_eq!(r.code, None, "{fault}: {}", r.stderr);
        // whatever the crash left, the next run of either writes its set whole
        let again = run(&old, &[], None);
        assert_eq!(again.code, Some(0), "{fault}: {}", again.stderr);
        assert!(contents(&d.join("out")) == want_old, "{fault}: old set");
        let r = run(&new, &[("FLOE_FAULT", &fault)], None);
        assert_eq!(r.code, None);
        let fresh = run(&new, &[], None);
        assert_eq!(fresh.code, Some(0), "{fault}: {}", fresh.stderr);
        assert!(contents(&d.join("out")) == want_new, "{fault}: new set");
    }
    assert!(crashed >= 5, "{crashed}");
    let _ = std::fs::remove_dir_all(&d);
}

/// After a newcomer's fault injection: `solve` of a level whose rank space is large (MCTOD:
/// a 256 MiB array of visited bits up front) under `ulimit -v` (before: abort, exit 134, and
/// a server answering it died); a generation under allocation faults gives the seed's
/// levels or says memory ran short; a table stopped by a limit says so; a link to a folder
/// that is not there is named.
#[test]
fn what_a_newcomers_faults_found_holds() {
    let zelda = bundled("zelda.txt");
    let clean = run(
        &words_with("solve {} --level MCTOD --json", &[&zelda]),
        &[],
        None,
    );
    let want: serde_json::Value = serde_json::from_str(&clean.stdout).unwrap();
    for limit in ["ulimit -v 200000", "ulimit -v 300000", "ulimit -v 400000"] {
        let o = run(
            &words_with("solve {} --level MCTOD --json", &[&zelda]),
            &[],
            Some(limit),
        );
        assert_eq!(o.code, Some(0), "{limit}: {}", o.stderr);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(v["pushes"], want["pushes"], "{limit}");
    }
    let gen = "generate --rows 6 --cols 6 --count 2 --min-pushes 4 --json";
    let clean = run(&words(gen), &[], None);
    let levels = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap()["levels"].clone();
    for n in [1, 2, 5, 20, 80] {
        let fault = format!("alloc@{n}");
        let o = run(&words(gen), &[("FLOE_FAULT", &fault)], None);
        match o.code {
            Some(0) => assert_eq!(levels(&o.stdout), levels(&clean.stdout), "{fault}"),
            Some(1) => assert!(
                o.stderr.contains("memory ran short"),
                "{fault}: {}",
                o.stderr
            ),
            other => panic!("{fault}: {other:?} {}", o.stderr),
        }
    }
    let o = run(
        &words("table space --max-rows 6 --max-cols 7 --max-blocks 6 --max-states 50000"),
        &[],
        None,
    );
    assert_eq!(o.code, Some(1));
    assert!(
        o.stderr
            .contains("cells stopped by --max-states (their counts are lower bounds"),
        "{}",
        o.stderr
    );
    let d = scratch("dangling");
    std::os::unix::fs::symlink("/nonexistent/floe-dir", d.join("dang")).unwrap();
    let o = run(
        &words_with(
            "hardest icepath --rows 4 --cols 4 --rocks 1 --out {}",
            &[&path_str(&d.join("dang"))],
        ),
        &[],
        None,
    );
    assert_eq!(o.code, Some(2));
    assert!(
        o.stderr
            .contains("is a symbolic link to /nonexistent/floe-dir, which does not exist"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The server under `ulimit -v` answers a solve whose visited bits do not fit the address
/// space, and stays up (before: the allocation aborted the whole server, exit 134, every
/// session lost).
#[test]
fn the_server_under_an_address_space_limit_answers_and_stays_up() {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 300000; exec \"$0\" serve --addr 127.0.0.1:0 --jobs 1")
        .arg(FLOE)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    let body = std::fs::read(bundled("zelda.txt")).unwrap();
    let ask = |path: &str, body: &[u8]| -> String {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    };
    for _ in 0..2 {
        let answer = ask("/api/solve?level=MCTOD", &body);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("\"pushes\": 5"), "{answer}");
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the server is still up"
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// A damaged file of worker 1 gets the way on that worker 0's gets (before: none), and a
/// byte flipped in a file's version reads as damage, not as a file of another format.
#[test]
fn worker_ones_damage_gets_the_way_on_and_a_flipped_version_is_damage() {
    let d = scratch("worker-1");
    let w = path_str(&d.join("w"));
    let line_of = "space --rows 6 --cols 6 --blocks 4 --workers 2 --work-dir {} --json";
    assert_eq!(run(&words_with(line_of, &[&w]), &[], None).code, Some(0));
    let file = d.join("w/worker-1/layer-00005.bin");
    let good = std::fs::read(&file).unwrap();
    let resume_line = format!("{line_of} --resume");
    let resume = words_with(&resume_line, &[&w]);
    for (at, says) in [
        (100, "its checksum does not match its contents;"),
        (8, "(its header reads as format"),
    ] {
        let mut bad = good.clone();
        bad[at] ^= 2;
        std::fs::write(&file, &bad).unwrap();
        let o = run(&resume, &[], None);
        assert_eq!(o.code, Some(2), "{}", o.stderr);
        assert!(
            o.stderr.contains("worker 1 of 2: ")
                && o.stderr.contains(says)
                && o.stderr
                    .contains(&format!("The run cannot be taken up from {w} as it is")),
            "{}",
            o.stderr
        );
        assert!(!o.stderr.contains("this floe reads format"), "{}", o.stderr);
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// After a second newcomer's fault injection: two floe writing sets into one folder at once
/// leave one set whole (before: mixed and half sets, both exit 0); under a tiny address-space
/// limit every command refuses or stops in words (before: a segfault at 50 MB, rayon's panic
/// at 60 MB); a single file's temporary file left by a crash goes with the next write there.
#[test]
fn two_writers_tiny_limits_and_crashed_single_files() {
    let d = scratch("two-writers");
    let o = path_str(&d.join("S"));
    let a = line(
        "hardest ice --rows 4 --cols 4 --blocks 2 --top 5 --out {}",
        &o,
    );
    let b = line(
        "hardest ice --rows 4 --cols 4 --blocks 2 --top 3 --by difficulty --out {}",
        &o,
    );
    for _ in 0..20 {
        let _ = std::fs::remove_dir_all(d.join("S"));
        let spawn = |args: &[String]| {
            Command::new(FLOE)
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (x, y) = (spawn(&a), spawn(&b));
        let (x, y) = (x.wait_with_output().unwrap(), y.wait_with_output().unwrap());
        assert!(x.status.success() && y.status.success());
        let files = contents(&d.join("S"));
        let by_difficulty = files
            .values()
            .filter(|t| String::from_utf8_lossy(t).contains("least difficulty"))
            .count();
        assert!(
            (files.len() == 5 && by_difficulty == 0) || (files.len() == 3 && by_difficulty == 3),
            "{:?}",
            files.keys().collect::<Vec<_>>()
        );
    }
    for limit in [30_000, 50_000, 60_000, 120_000] {
        for args in [
            "--version",
            "hardest ice --rows 4 --cols 4 --blocks 2",
            "space --rows 6 --cols 6 --blocks 3",
        ] {
            let o = run(&words(args), &[], Some(&format!("ulimit -v {limit}")));
            assert!(
                matches!(o.code, Some(0..=2)),
                "{limit} {args}: {:?} {}",
                o.code,
                o.stderr
            );
        }
    }
    let r = d.join("R");
    std::fs::create_dir_all(&r).unwrap();
    let out = path_str(&r.join("r.svg"));
    let zelda = bundled("zelda.txt");
    let render = words_with("render {} --level OOSSAS -o {}", &[&zelda, &out]);
    let crashed = run(&render, &[("FLOE_FAULT", "crash@1")], None);
    assert_eq!(crashed.code, None);
    assert_eq!(run(&render, &[], None).code, Some(0));
    assert_eq!(temporaries(&r), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&d);
}
