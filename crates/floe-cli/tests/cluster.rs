//! Enumerations shared by workers and processes (docs/cluster.md): 2 and 4 processes on
//! 127.0.0.1 give the single-process answers; layers on disk under a small memory cap give
//! the in-memory answer; a run killed mid-way and resumed gives the uninterrupted answer.
//! Every process is bounded in time and killed if it overstays.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a process of these tests may run.
const BOUND: Duration = Duration::from_secs(180);

/// `n` free ports on the loopback interface (common::free_ports, this file's 12 lanes).
fn free_ports(n: usize) -> Vec<u16> {
    common::free_ports(n, 0, 12)
}

/// A folder of its own for one test, removed first.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floe-cluster-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn start(args: &[String]) -> Child {
    Command::new(FLOE)
        .args(args)
        .env("FLOE_CONNECT_TIMEOUT", "60")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` at most until `deadline` (then kills it and fails).
fn finish(mut child: Child, deadline: Instant, what: &str) -> (i32, String, String) {
    loop {
        if let Some(_status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            );
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {BOUND:?}; killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `floe ARGS` as `n` processes of `workers` workers each, linked on 127.0.0.1;
/// process 0's JSON (the others must print nothing on standard output).
fn on_processes(n: usize, workers: usize, args: &[&str]) -> Value {
    // a folder of its own for every call: tests run side by side, and a hostfile shared by
    // two of them would link one test's processes into the other's run
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("hosts-{n}-{call}"));
    let hosts = dir.join("hosts");
    write_hostfile(&hosts, &free_ports(n));
    let deadline = Instant::now() + BOUND;
    let children: Vec<Child> = (0..n)
        .map(|i| {
            let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            a.extend([
                "--processes".into(),
                n.to_string(),
                "--process".into(),
                i.to_string(),
                "--workers".into(),
                workers.to_string(),
                "--hostfile".into(),
                path_str(&hosts),
            ]);
            start(&a)
        })
        .collect();
    let mut first = None;
    for (i, c) in children.into_iter().enumerate() {
        let (code, out, err) = finish(c, deadline, &format!("process {i} of {n}"));
        assert_eq!(code, 0, "process {i} of {n}: {args:?}\n{err}");
        if i == 0 {
            first = Some(
                serde_json::from_str::<Value>(&out)
                    .unwrap_or_else(|e| panic!("process 0 printed no JSON ({e}):\n{out}\n{err}")),
            );
        } else {
            assert!(
                out.is_empty(),
                "process {i} wrote on standard output: {out}"
            );
            assert!(err.contains(&format!("process {i} of {n}")), "{err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    first.unwrap()
}

/// The figures two runs of `space` must share.
fn counts(v: &Value) -> (u64, Value, u64, bool) {
    (
        u(&v["states"]),
        v["histogram"].clone(),
        u(&v["depth"]),
        v["complete"].as_bool().unwrap(),
    )
}

#[test]
fn space_cells_on_two_and_four_processes_equal_one_process() {
    for (rows, cols, blocks) in [("5", "5", "4"), ("4", "7", "3"), ("6", "6", "5")] {
        let args = [
            "space", "--rows", rows, "--cols", cols, "--blocks", blocks, "--json",
        ];
        let one = floe_json(&args, 0);
        assert!(one.get("computed").is_none(), "{one}");
        for (n, w) in [(2, 1), (2, 2), (4, 1)] {
            let shared = on_processes(n, w, &args);
            assert_eq!(
                counts(&shared),
                counts(&one),
                "{rows}×{cols}, {blocks}: {n}×{w}"
            );
            // every position was expanded once, somewhere: process 0 says the run's count,
            // not its own share
            assert_eq!(shared["expanded"], one["expanded"], "{n}×{w}");
            let c = &shared["computed"];
            assert_eq!(c["engine"], "timely");
            assert_eq!(u(&c["processes"]), n as u64);
            assert_eq!(u(&c["workers_per_process"]), w as u64);
            // process 0 owns its share, not everything
            let owned: u64 = c["owned"].as_array().unwrap().iter().map(u).sum();
            assert!(owned > 0 && owned < u(&one["states"]), "{c}");
        }
    }
    // the reference figure: Kluiver's count for 5×5 with 4 blocks
    let v = on_processes(
        2,
        1,
        &[
            "space", "--rows", "5", "--cols", "5", "--blocks", "4", "--json",
        ],
    );
    assert_eq!(u(&v["states"]), 9541);
}

#[test]
fn reach_and_the_space_table_on_two_processes_equal_one_process() {
    let args = [
        "reach", "--rows", "6", "--cols", "6", "--blocks", "3", "--json",
    ];
    let one = floe_json(&args, 0);
    let two = on_processes(2, 1, &args);
    assert_eq!(two["moves"], one["moves"]);
    assert_eq!(two["states"], one["states"]);
    assert_eq!(two["max"], one["max"]);

    let args = [
        "table",
        "space",
        "--max-rows",
        "4",
        "--max-cols",
        "5",
        "--max-blocks",
        "3",
        "--json",
    ];
    let one = floe_json(&args, 0);
    let two = on_processes(2, 1, &args);
    let cells = |v: &Value| -> Vec<(Value, Value, Value, Value)> {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["rows"].clone(),
                    c["cols"].clone(),
                    c["blocks"].clone(),
                    c["states"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(cells(&two), cells(&one));
    assert_eq!(two["formulas"], one["formulas"]);
}

/// A census's figures without the run's own (time, memory, how it was computed).
fn census_figures(v: &Value) -> Value {
    let mut v = v.clone();
    for k in ["seconds", "peak_memory_bytes", "computed"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn the_census_on_two_and_four_processes_equals_one_process() {
    let args = ["census", "pushpush", "--rows", "4", "--cols", "4", "--json"];
    let one = floe_json(&args, 0);
    // the thesis's figure: 7,864,320 boards of 4×4
    assert_eq!(u(&one["boards"]), 7_864_320);
    for (n, w) in [(2, 1), (4, 1), (2, 2)] {
        let shared = on_processes(n, w, &args);
        assert_eq!(census_figures(&shared), census_figures(&one), "{n}×{w}");
        assert_eq!(u(&shared["computed"]["processes"]), n as u64);
    }
    // with the difficulty, and its layers kept per process and taken up again
    let work = scratch("census");
    let w = path_str(&work.join("run"));
    let args = [
        "census",
        "pushpush",
        "--rows",
        "3",
        "--cols",
        "4",
        "--difficulty",
        "--json",
    ];
    let one = floe_json(&args, 0);
    let mut with_dir = args.to_vec();
    with_dir.extend(["--work-dir", &w]);
    let shared = on_processes(2, 1, &with_dir);
    assert_eq!(census_figures(&shared), census_figures(&one));
    assert!(work.join("run/process-0").is_dir() && work.join("run/process-1").is_dir());
    with_dir.push("--resume");
    let resumed = on_processes(2, 1, &with_dir);
    assert_eq!(census_figures(&resumed), census_figures(&one));
    let _ = std::fs::remove_dir_all(&work);
}

/// The checkpointed layer of worker 0, once there is one.
fn checkpointed_layer(work: &Path) -> Option<u64> {
    let (_, payload) = floe::mem::read_foreign(&work.join("worker-0/checkpoint.bin"))?;
    serde_json::from_slice::<Value>(&payload).ok()?["layer"].as_u64()
}

#[test]
fn layers_on_disk_under_a_small_memory_cap_equal_the_run_in_memory() {
    let work = scratch("disk");
    let board = [
        "space", "--rows", "7", "--cols", "7", "--blocks", "6", "--json",
    ];
    let memory = floe_json(&board, 0);
    assert_eq!(u(&memory["states"]), 10_557_566);
    let mut args = board.to_vec();
    let w = path_str(&work.join("run"));
    args.extend(["--workers", "2", "--work-dir", &w, "--max-memory", "64M"]);
    let disk = floe_json(&args, 0);
    assert_eq!(counts(&disk), counts(&memory));
    assert_eq!(disk["expanded"], memory["expanded"]);
    let peak = u(&disk["peak_rss_bytes"]);
    assert!(peak < 64 << 20, "peak memory {peak} over the cap");
    // in memory: two bits per possible position (seen, and in which layer), C(49, 6) =
    // 13,983,816 of them, and a bit per 32,768 for each layer's pages
    let bytes = (2 * 13_983_816u64).div_ceil(64) * 8;
    assert!(
        (bytes..=bytes + 4096).contains(&u(&memory["index_bytes"])),
        "in memory {}",
        memory["index_bytes"]
    );
    let c = &disk["computed"];
    assert!(u(&c["disk_bytes"]) >= 5 * u(&memory["states"]), "{c}");
    // a second fresh run into the same folder is refused; --resume answers at once
    let again = floe(&args).code(2);
    assert!(again.stderr.contains("--resume"), "{}", again.stderr);
    args.push("--resume");
    let resumed = floe_json(&args, 0);
    assert_eq!(counts(&resumed), counts(&memory));
    assert_eq!(u(&resumed["expanded"]), 0);
    let _ = std::fs::remove_dir_all(&work);
}

/// 8×8 with 7 blocks has C(64, 7) = 621,216,192 possible positions: 78 MB of visited bits,
/// more than 64 MiB leaves beside the rest, so they stay on disk (`seen.bin`). Stopped after
/// some layers, then taken up further: the same layers as in memory.
#[test]
fn visited_bits_on_disk_under_a_small_memory_cap_equal_the_bits_in_memory() {
    let work = scratch("bits");
    let w = path_str(&work.join("run"));
    let board = |states: &'static str| {
        vec![
            "space",
            "--rows",
            "8",
            "--cols",
            "8",
            "--blocks",
            "7",
            "--json",
            "--max-states",
            states,
        ]
    };
    // the same limits on the shared path with the bits in memory (a limit exits with 1)
    let mut reference = board("3000000");
    reference.extend(["--workers", "2"]);
    let memory = floe_json(&reference, 1);
    let mut args = board("1000000");
    args.extend(["--workers", "2", "--work-dir", &w, "--max-memory", "64M"]);
    let first = floe(&args).code(1);
    assert!(
        first.stderr.contains("the visited bits on disk"),
        "{}",
        first.stderr
    );
    let first = first.json();
    let layers = first["histogram"].as_array().unwrap().len();
    assert!(layers >= 5, "{first}");
    assert_eq!(
        first["histogram"].as_array().unwrap()[..],
        memory["histogram"].as_array().unwrap()[..layers]
    );
    // C(64, 7) = 621,216,192 ranks in 9,480 blocks of 65,536 (the last short), 4,740 a
    // worker: a bit a rank, in whole words
    assert_eq!(621_216_192u64.div_ceil(1 << 16), 9_480);
    for k in 0..2 {
        let bits = work.join(format!("run/worker-{k}/seen.bin"));
        assert_eq!(
            std::fs::metadata(&bits).unwrap().len(),
            (4_740u64 << 16).div_ceil(64) * 8
        );
    }
    // taken up to the next limit: the bits are rebuilt on disk from the layer files
    let mut more = board("3000000");
    more.extend([
        "--workers",
        "2",
        "--work-dir",
        &w,
        "--max-memory",
        "64M",
        "--resume",
    ]);
    let resumed = floe_json(&more, 1);
    assert_eq!(resumed["histogram"], memory["histogram"]);
    for v in [&memory, &first, &resumed] {
        assert_eq!(v["limit"], "max-states", "{v}");
    }
    assert_eq!(u(&resumed["states"]), u(&memory["states"]));
    assert!(u(&resumed["peak_rss_bytes"]) < 64 << 20, "{resumed}");
    assert_eq!(u(&resumed["computed"]["resumed_at"]) as usize, layers - 1);
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn a_run_killed_mid_way_and_resumed_equals_an_uninterrupted_run() {
    let work = scratch("kill");
    let w = path_str(&work.join("run"));
    let board = [
        "space", "--rows", "7", "--cols", "7", "--blocks", "6", "--json",
    ];
    let whole = floe_json(&board, 0);
    let mut args: Vec<String> = board.iter().map(|s| s.to_string()).collect();
    args.extend([
        "--workers".into(),
        "2".into(),
        "--work-dir".into(),
        w.clone(),
    ]);
    let mut child = start(&args);
    let deadline = Instant::now() + BOUND;
    let mut killed_at = None;
    while Instant::now() < deadline {
        if let Some(l) = checkpointed_layer(&work.join("run")).filter(|&l| l >= 6) {
            child.kill().unwrap();
            killed_at = Some(l);
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.wait();
    let killed_at = killed_at.expect("the run was killed after layer 6");
    assert!(
        killed_at < u(&whole["depth"]),
        "it finished before the kill"
    );
    args.push("--resume".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let resumed = floe_json(&refs, 0);
    assert_eq!(counts(&resumed), counts(&whole));
    // worker 0 had finished layer `killed_at`; worker 1 may be a layer behind it or have
    // finished one more before the kill landed, and the run resumes at their common layer
    let at = u(&resumed["computed"]["resumed_at"]);
    assert!(
        at + 1 >= killed_at && at <= killed_at + 1,
        "{at} after a kill at {killed_at}"
    );
    assert!(u(&resumed["expanded"]) < u(&whole["states"]));
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn a_resume_without_workers_says_what_it_took_and_what_to_give() {
    // the first run with one worker more than a process takes by default, so that the
    // default differs from it on any machine
    let work = scratch("default-workers");
    let w = path_str(&work.join("run"));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let first = (cores + 1).to_string();
    let board = ["space", "--rows", "5", "--cols", "5", "--blocks", "4"];
    let with = |more: &[&str]| {
        let mut a: Vec<&str> = board.to_vec();
        a.extend_from_slice(&["--work-dir", &w]);
        a.extend_from_slice(more);
        floe(&a)
    };
    let done = with(&["--workers", &first, "--json"]).code(0).json();
    let r = with(&["--resume"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    for want in [
        format!("--workers: {cores} here, {first} in the checkpoint"),
        format!("take it up with --workers {first} (one process)"),
        format!("No --workers was given, so this process took {cores}"),
    ] {
        assert!(r.stderr.contains(&want), "{want:?} in {}", r.stderr);
    }
    // a --workers given that differs is refused without the word on the default
    let other = (cores + 2).to_string();
    let r = with(&["--workers", &other, "--resume"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("--workers: {other} here")),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("No --workers"), "{}", r.stderr);
    // with the checkpoint's number the finished run answers its figures again
    let again = with(&["--workers", &first, "--resume", "--json"])
        .code(0)
        .json();
    assert_eq!(counts(&again), counts(&done));
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn a_run_stopped_by_max_states_says_that_its_resume_needs_a_larger_one() {
    let work = scratch("max-states-resume");
    let w = path_str(&work.join("run"));
    let board = ["space", "--rows", "6", "--cols", "6", "--blocks", "5"];
    let whole = floe_json(&[&board[..], &["--json"]].concat(), 0);
    let with = |more: &[&str]| {
        let mut a: Vec<&str> = board.to_vec();
        a.extend_from_slice(&["--workers", "1", "--work-dir", &w, "--json"]);
        a.extend_from_slice(more);
        floe(&a)
    };
    let stopped = with(&["--max-states", "5000"]).code(1);
    assert!(
        stopped
            .stderr
            .contains("with a larger --max-states or none"),
        "{}",
        stopped.stderr
    );
    // as it says: the same limit stops the resumed run again, none takes it to the end
    let again = with(&["--max-states", "5000", "--resume"]).code(1);
    assert_eq!(again.json()["complete"], false);
    let done = with(&["--resume"]).code(0).json();
    assert_eq!(counts(&done), counts(&whole));
    // a damaged file: refused by name, and the refusal says the two ways on
    let layer = work.join("run").join("worker-0").join("layer-00002.bin");
    let mut bytes = std::fs::read(&layer).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x10;
    std::fs::write(&layer, bytes).unwrap();
    let r = with(&["--resume"]).code(2);
    for want in [
        "layer-00002.bin: its checksum does not match",
        "The run cannot be taken up from",
        "start the run afresh in an empty folder (the same command without --resume)",
    ] {
        assert!(r.stderr.contains(want), "{want:?} in {}", r.stderr);
    }
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn what_cannot_be_shared_is_refused_clearly() {
    // PushPush positions have no perfect hash to share them by
    let r = floe(&[
        "space",
        &bundled("pushpush.txt"),
        "--level",
        "1",
        "--workers",
        "2",
    ])
    .code(2);
    assert!(
        r.stderr.contains("(pushpush") && r.stderr.contains("no perfect hash"),
        "{}",
        r.stderr
    );
    // ice blocks whose player walks: the game and the rule are named
    let r = floe(&words(
        "space --rows 4 --cols 4 --blocks 2 --rules walk --workers 2",
    ))
    .code(2);
    assert!(
        r.stderr.contains("(ice, rules walk): no perfect hash"),
        "{}",
        r.stderr
    );
    let r = floe(&[
        "space", "--rows", "4", "--cols", "4", "--blocks", "2", "--resume",
    ])
    .code(2);
    assert!(r.stderr.contains("--work-dir"), "{}", r.stderr);
    let r = floe(&words(
        "space --rows 4 --cols 4 --blocks 2 --processes 2 --process 2",
    ))
    .code(2);
    assert!(r.stderr.contains("numbered 0 to 1"), "{}", r.stderr);
    let dir = scratch("hostfile");
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, "127.0.0.1:1\n").unwrap();
    let r = floe(&[
        "space",
        "--rows",
        "4",
        "--cols",
        "4",
        "--blocks",
        "2",
        "--processes",
        "2",
        "--hostfile",
        &path_str(&hosts),
    ])
    .code(2);
    assert!(
        r.stderr.contains("1 address for 2 processes"),
        "{}",
        r.stderr
    );
    // a run that cannot fit the memory budget in one process is refused before it starts
    let r = floe(&words(
        "space --rows 9 --cols 9 --blocks 9 --workers 1 --max-memory 1G",
    ))
    .code(2);
    assert!(r.stderr.contains("processes or more"), "{}", r.stderr);
    // one whose visited bits on disk still leave too little room is refused with the budget
    // that would take it, and makes no folder
    let work = dir.join("bits");
    let at = path_str(&work);
    let mut args = words("space --rows 8 --cols 8 --blocks 7 --workers 2 --max-memory 64M");
    args.extend(["--work-dir", &at]);
    let r = floe(&args).code(2);
    assert!(
        r.stderr.contains("even with the visited bits on disk")
            && r.stderr.contains("--max-memory 73M or more"),
        "{}",
        r.stderr
    );
    assert!(!work.exists());
    // a file where the folder should be
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    // a small board on two workers in `into`, and more flags
    let small_in = |into: &Path, more: &[&str]| {
        let at = path_str(into);
        let mut args = words("space --rows 4 --cols 4 --blocks 2 --workers 2 --work-dir");
        args.push(&at);
        args.extend(more);
        floe(&args).code(2)
    };
    let r = small_in(&file, &[]);
    assert!(r.stderr.contains("is a file, not a folder"), "{}", r.stderr);
    // nothing to take up in a folder never used: said, and no folder made
    let r = small_in(&work, &["--resume"]);
    assert!(r.stderr.contains("nothing to resume"), "{}", r.stderr);
    assert!(!work.exists(), "a refused resume made {}", work.display());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The search-space cells beyond the thesis's table that docs/ice-blocks.md quotes, with
/// layers on disk: minutes to most of an hour on two cores, so not in the default suite
/// (`cargo test --release -p floe-cli --test cluster -- --ignored cells_beyond_the_table`).
#[test]
#[ignore]
fn cells_beyond_the_table() {
    for (rows, cols, blocks, states, depth) in [
        ("8", "8", "7", 469_048_908, 48),
        ("9", "9", "6", 172_930_510, 47),
        ("9", "9", "7", 2_278_811_910, 55),
    ] {
        let work = scratch(&format!("cell-{rows}x{cols}-{blocks}"));
        let w = path_str(&work.join("run"));
        let v = floe_json(
            &[
                "space",
                "--rows",
                rows,
                "--cols",
                cols,
                "--blocks",
                blocks,
                "--workers",
                "2",
                "--work-dir",
                &w,
                "--json",
            ],
            0,
        );
        assert_eq!(
            (u(&v["states"]), u(&v["depth"])),
            (states, depth),
            "{rows}×{cols}, {blocks}"
        );
        let _ = std::fs::remove_dir_all(&work);
    }
}

/// A hostfile of `n` free loopback addresses in a folder of its own.
fn hostfile(n: usize) -> (PathBuf, PathBuf) {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("pair-{call}"));
    let hosts = dir.join("hosts");
    write_hostfile(&hosts, &free_ports(n));
    (dir, hosts)
}

/// Starts process `i` of two with its own arguments (and environment).
fn process_of_two(i: usize, args: &[&str], hosts: &Path, env: &[(&str, &str)]) -> Child {
    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    a.extend([
        "--processes".into(),
        "2".into(),
        "--process".into(),
        i.to_string(),
        "--hostfile".into(),
        path_str(hosts),
    ]);
    if !a.iter().any(|x| x == "--workers") {
        a.extend(["--workers".into(), "1".into()]);
    }
    spawn_floe(&a, env, 60)
}

/// Two processes, each with its own arguments: their exit codes, outputs and errors (no
/// panic in any).
fn pair(a0: &[&str], a1: &[&str], env1: &[(&str, &str)]) -> Vec<(i32, String, String)> {
    let (dir, hosts) = hostfile(2);
    let deadline = Instant::now() + BOUND;
    let c0 = process_of_two(0, a0, &hosts, &[]);
    let c1 = process_of_two(1, a1, &hosts, env1);
    let out: Vec<_> = [c0, c1]
        .into_iter()
        .enumerate()
        .map(|(i, c)| finish(c, deadline, &format!("process {i}")))
        .collect();
    for (code, o, e) in &out {
        assert!(
            !e.contains("panicked") && !e.contains("RUST_BACKTRACE"),
            "a panic ({code}):\n{o}\n{e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Processes started for different jobs or layouts never merge their work: both refuse,
/// each naming the difference (before, 4×4 and 2×8 censuses were merged into a wrong
/// answer with exit 0, and other --blocks or --workers panicked both processes).
#[test]
fn processes_of_different_jobs_refuse_each_other_and_say_why() {
    fn census(more: &str) -> Vec<&str> {
        let mut w = words("census pushpush --json");
        w.extend(words(more));
        w
    }
    let level_file = Temp::with(
        "two-levels.txt",
        b"Title: one\n$----\n-----\n-----\n----.\n\nTitle: two\n-$---\n-----\n-----\n----.\n",
    );
    let lf = level_file.path();
    let scratch_dir = scratch("greeting-work-dir");
    let wd = path_str(&scratch_dir.join("run"));
    let wd1 = path_str(&scratch_dir.join("run-1"));
    for (a0, a1, needles) in [
        (
            census("--rows 4 --cols 4"),
            census("--rows 2 --cols 8"),
            vec![
                "--rows: 4 here, 2 at process 1",
                "--cols: 4 here, 8 at process 1",
            ],
        ),
        (
            census("--rows 3 --cols 3 --k 1"),
            census("--rows 3 --cols 3 --k 2"),
            vec!["--k: 1 here, 2 at process 1"],
        ),
        (
            words("space --rows 5 --cols 5 --blocks 4 --json"),
            words("space --rows 5 --cols 5 --blocks 3 --json"),
            vec!["--blocks: 4 here, 3 at process 1"],
        ),
        (
            words("space --rows 5 --cols 5 --blocks 4 --json"),
            words("space --rows 5 --cols 5 --blocks 4 --json --workers 2"),
            vec!["--workers: 1 here, 2 at process 1"],
        ),
        (
            words_with("space {} --level 1 --json", &[&lf]),
            words_with("space {} --level 2 --json", &[&lf]),
            vec!["the level: \"one\" here, \"two\" at process 1"],
        ),
        (
            words("space --rows 5 --cols 5 --blocks 4 --json"),
            words("reach --rows 5 --cols 5 --blocks 4 --json"),
            vec!["the command: space here, reach at process 1"],
        ),
        // one process on disk beside one in memory would leave a run that no resume takes up
        (
            words_with(
                "space --rows 5 --cols 5 --blocks 4 --json --work-dir {}",
                &[&wd],
            ),
            words("space --rows 5 --cols 5 --blocks 4 --json"),
            vec!["--work-dir: given here, not given at process 1"],
        ),
        // and one that takes a run up beside one that starts it afresh
        (
            words_with(
                "space --rows 5 --cols 5 --blocks 4 --json --work-dir {} --resume",
                &[&wd],
            ),
            words_with(
                "space --rows 5 --cols 5 --blocks 4 --json --work-dir {}",
                &[&wd1],
            ),
            vec!["--resume: given here, not given at process 1"],
        ),
    ] {
        let out = pair(&a0, &a1, &[]);
        for (i, (code, o, e)) in out.iter().enumerate() {
            assert_eq!(*code, 2, "process {i} of {a0:?} / {a1:?}:\n{o}\n{e}");
            assert!(o.is_empty(), "process {i} answered: {o}");
            assert!(e.contains("belongs to another run"), "{e}");
        }
        for n in needles {
            assert!(
                out[0].2.contains(n),
                "process 0 should name {n:?}:\n{}",
                out[0].2
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch_dir);
}

#[test]
fn a_hostfile_with_one_address_twice_is_refused() {
    let dir = scratch("twice");
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, "127.0.0.1:23999\n127.0.0.1:23999\n").unwrap();
    let h = path_str(&hosts);
    let r = floe(&words_with(
        "space --rows 4 --cols 4 --blocks 2 --processes 2 --process 0 --hostfile {}",
        &[&h],
    ))
    .code(2);
    assert!(
        r.stderr.contains("address of process 0 and of process 1"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A full disk at one process stops both with its own message (before: "worker 1 failed
/// (its own message says why)", and the message was never printed).
#[test]
fn a_full_disk_at_one_process_stops_both_with_its_message() {
    let work = scratch("full");
    let w0 = path_str(&work.join("p0"));
    let w1 = path_str(&work.join("p1"));
    let base = "space --rows 6 --cols 6 --blocks 5 --json --work-dir";
    let out = pair(
        &words_with(&format!("{base} {{}}"), &[&w0]),
        &words_with(&format!("{base} {{}}"), &[&w1]),
        &[("FLOE_FAULT", "full@9")],
    );
    for (i, (code, o, e)) in out.iter().enumerate() {
        assert_eq!(*code, 2, "process {i}:\n{o}\n{e}");
        assert!(e.contains("No space left on device"), "process {i}: {e}");
    }
    assert!(out[0].2.contains("worker 1 of 2"), "{}", out[0].2);
    let _ = std::fs::remove_dir_all(&work);
}

/// A process killed mid-run: the other stops at once with exit 1 and its own message (before:
/// a panic with a backtrace, "timely communication error: socket closed"), and both taken up
/// again with --resume give the uninterrupted figures.
#[test]
fn a_lost_peer_stops_the_other_cleanly_and_the_run_resumes() {
    let work = scratch("lost");
    let whole = floe_json(&words("space --rows 7 --cols 7 --blocks 6 --json"), 0);
    let (dir, hosts) = hostfile(2);
    let w = [path_str(&work.join("p0")), path_str(&work.join("p1"))];
    let args = |i: usize| {
        words_with(
            "space --rows 7 --cols 7 --blocks 6 --json --work-dir {}",
            &[&w[i]],
        )
    };
    let deadline = Instant::now() + BOUND;
    let c0 = process_of_two(0, &args(0), &hosts, &[]);
    let mut c1 = process_of_two(1, &args(1), &hosts, &[]);
    // kill process 1 once a few layers are checkpointed
    while checkpointed_layer(&work.join("p0")).is_none_or(|l| l < 8) {
        assert!(Instant::now() < deadline, "no layer 8 in time");
        std::thread::sleep(Duration::from_millis(5));
    }
    c1.kill().unwrap();
    let _ = c1.wait();
    let (code, o, e) = finish(c0, deadline, "process 0");
    assert_eq!(code, 1, "{o}\n{e}");
    assert!(
        e.contains("process 0 lost its connection to process 1") && !e.contains("panicked"),
        "{e}"
    );
    assert!(o.is_empty(), "{o}");
    // taken up again: the uninterrupted figures
    let r: Vec<Vec<&str>> = (0..2)
        .map(|i| {
            let mut a = args(i);
            a.push("--resume");
            a
        })
        .collect();
    let deadline = Instant::now() + BOUND;
    let c0 = process_of_two(0, &r[0], &hosts, &[]);
    let c1 = process_of_two(1, &r[1], &hosts, &[]);
    let (code1, _, e1) = finish(c1, deadline, "process 1");
    let (code0, o0, e0) = finish(c0, deadline, "process 0");
    assert_eq!((code0, code1), (0, 0), "{e0}\n{e1}");
    let v: Value = serde_json::from_str(&o0).unwrap();
    assert_eq!(counts(&v), counts(&whole));
    assert!(v["computed"]["resumed_at"].as_u64().is_some(), "{v}");
    let _ = std::fs::remove_dir_all(&work);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two runs into one folder (before: 7×7 with 6 blocks and with 5 gave 10,569,182
/// positions, depth 28, where the right figures are 10,557,566 and 36): the second is
/// refused with the first's process, and the first gives the right figures.
#[test]
fn a_second_run_into_a_folder_in_use_is_refused() {
    let work = scratch("second");
    let w = path_str(&work.join("run"));
    let first: Vec<String> = owned_words(
        "space --rows 7 --cols 7 --blocks 6 --workers 2 --json --work-dir {}",
        &[&w],
    );
    let first = start(&first);
    let deadline = Instant::now() + BOUND;
    let lock = work.join("run/worker-0/lock");
    while std::fs::read_to_string(&lock).map_or(true, |t| t.is_empty()) {
        assert!(Instant::now() < deadline, "no lock in time");
        std::thread::sleep(Duration::from_millis(2));
    }
    for more in ["", " --resume"] {
        let second = floe(&words_with(
            &format!("space --rows 7 --cols 7 --blocks 5 --workers 2 --json --work-dir {{}}{more}"),
            &[&w],
        ))
        .code(2);
        assert!(
            second.stderr.contains("is in use by another run")
                && second.stderr.contains(&format!("process {}", first.id())),
            "{}",
            second.stderr
        );
        // nothing is wrong with the folder's files: no advice to put one back
        assert!(
            !second.stderr.contains("put back the file"),
            "{}",
            second.stderr
        );
    }
    let (code, o, e) = finish(first, deadline, "the first run");
    assert_eq!(code, 0, "{e}");
    let v: Value = serde_json::from_str(&o).unwrap();
    assert_eq!((u(&v["states"]), u(&v["depth"])), (10_557_566, 36));
    let _ = std::fs::remove_dir_all(&work);
}

/// Sends `signal` (`STOP`, `CONT`) to a child process.
fn signal(child: &Child, signal: &str) {
    let ok = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal} {}", child.id());
}

/// A peer frozen mid-run (SIGSTOP) no longer holds the other past its --timeout (before:
/// process 0 of `--timeout 2` waited 20.9 s for its frozen peer to be continued): process 0
/// stops within about a second of its deadline, exit 1, naming the peer that did not
/// answer; its checkpoint stays, and both taken up again give the uninterrupted figures.
#[test]
fn a_frozen_peer_does_not_hold_the_other_past_its_timeout() {
    let work = scratch("frozen");
    let (dir, hosts) = hostfile(2);
    let w = [path_str(&work.join("p0")), path_str(&work.join("p1"))];
    let args = |i: usize, more: &'static str| {
        let mut a = words_with(
            "space --rows 8 --cols 8 --blocks 5 --json --work-dir {}",
            &[&w[i]],
        );
        a.extend(words(more));
        a
    };
    let deadline = Instant::now() + BOUND;
    let t0 = Instant::now();
    let c0 = process_of_two(0, &args(0, "--timeout 3"), &hosts, &[]);
    let c1 = process_of_two(1, &args(1, "--timeout 3"), &hosts, &[]);
    // freeze process 1 once both are under way (a layer checkpointed)
    while checkpointed_layer(&work.join("p0")).is_none_or(|l| l < 2) {
        assert!(Instant::now() < deadline, "no layer 2 in time");
        std::thread::sleep(Duration::from_millis(5));
    }
    let early = t0.elapsed() < Duration::from_secs(3);
    signal(&c1, "STOP");
    let (code, o, e) = finish(c0, deadline, "process 0");
    let took = t0.elapsed();
    signal(&c1, "CONT");
    let (code1, _, e1) = finish(c1, deadline, "process 1");
    assert_eq!(code, 1, "{o}\n{e}");
    assert!(
        e.contains("process 1 (127.0.0.1:") && e.contains("did not answer"),
        "{e}"
    );
    assert!(e.contains("--resume") && !e.contains("panicked"), "{e}");
    // one sentence, its words one space apart
    assert!(e.contains("within 500 ms of it (stopped"), "{e}");
    assert!(!e.trim_end().contains("  "), "{e}");
    if early {
        // 3 s of timeout, half a second of patience, and the start of two processes
        assert!(
            took < Duration::from_millis(4_600),
            "process 0 took {took:?}"
        );
    }
    assert_eq!(code1, 1, "{e1}");
    assert!(!e1.contains("panicked"), "{e1}");
    let layer = checkpointed_layer(&work.join("p0")).expect("process 0's checkpoint");
    // taken up again: the uninterrupted figures
    let deadline = Instant::now() + BOUND;
    let c0 = process_of_two(0, &args(0, "--resume"), &hosts, &[]);
    let c1 = process_of_two(1, &args(1, "--resume"), &hosts, &[]);
    let (code1, _, e1) = finish(c1, deadline, "process 1");
    let (code0, o0, e0) = finish(c0, deadline, "process 0");
    assert_eq!((code0, code1), (0, 0), "{e0}\n{e1}");
    let v: Value = serde_json::from_str(&o0).unwrap();
    let whole = floe_json(&words("space --rows 8 --cols 8 --blocks 5 --json"), 0);
    assert_eq!(counts(&v), counts(&whole));
    assert!(
        v["computed"]["resumed_at"].as_u64() >= Some(layer.min(1)),
        "{v}"
    );
    let _ = std::fs::remove_dir_all(&work);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that accepts connections on a peer's port and says nothing: the process that
/// connects stops within its connection time, naming the address and what may listen there
/// (before: blamed on "a floe of an earlier version").
#[test]
fn a_silent_listener_on_a_peers_port_is_named_as_such() {
    let (dir, hosts) = hostfile(2);
    let text = std::fs::read_to_string(&hosts).unwrap();
    let addr = text.lines().next().unwrap().to_string();
    let listener = std::net::TcpListener::bind(&addr).unwrap();
    // accept and hold every connection, silent
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    let t = Instant::now();
    let c1 = process_of_two(
        1,
        &words("space --rows 4 --cols 4 --blocks 2 --json"),
        &hosts,
        &[("FLOE_CONNECT_TIMEOUT", "2")],
    );
    let (code, _, e) = finish(c1, Instant::now() + BOUND, "process 1");
    assert_ne!(code, 0, "{e}");
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    assert!(
        e.contains(&format!(
            "what listens at {addr} is not a floe process of this run"
        )) && !e.contains("earlier version"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
