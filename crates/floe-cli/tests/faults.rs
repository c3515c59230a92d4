//! Fault injection: `space`, `reach` and the census, on one process and on two, killed at
//! seeded points (`FLOE_FAULT=crash@N`: the process kills itself as `kill -9` would at the
//! Nth point where a file becomes durable) and their work directories damaged by seeded
//! faults (a file cut short, a bit flipped, two files swapped, one copied over another, one
//! deleted, a number edited), then taken up again with `--resume`; and second runs started
//! into a folder in use. Every outcome must be the clean run's figures or a clear refusal
//! (exit 2 or 1, one line naming the work directory or a file of it, no panic), within a
//! time bound: never a wrong figure.
//!
//! The default suite runs a little over 200 seeded cases; `cargo test --release -p floe-cli
//! --test faults -- --ignored` runs ten times as many with other seeds.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one run may take.
const BOUND: Duration = Duration::from_secs(120);

/// SplitMix64: seeded, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// What is compared between runs.
#[derive(Clone, Copy)]
enum Kind {
    Space,
    Reach,
    Census,
}

impl Kind {
    fn figures(self, v: &Value) -> Value {
        let pick = |keys: &[&str]| {
            Value::Object(
                keys.iter()
                    .map(|k| (k.to_string(), v[*k].clone()))
                    .collect(),
            )
        };
        match self {
            Kind::Space => pick(&["states", "histogram", "depth", "complete", "limit"]),
            Kind::Reach => pick(&["moves", "states", "max", "limit"]),
            Kind::Census => {
                let mut v = v.clone();
                for k in ["seconds", "peak_memory_bytes", "computed", "table_bytes"] {
                    v.as_object_mut().unwrap().remove(k);
                }
                v
            }
        }
    }
}

/// A job the faults are tried on.
struct Target {
    name: &'static str,
    kind: Kind,
    /// The command without work directory and sharing flags.
    args: &'static str,
    /// Arguments that stop it part-way (a checkpointed state to damage).
    partial: &'static str,
    processes: usize,
    /// Points where a file becomes durable in a whole run, about (crash points are drawn
    /// up to a little beyond it: some runs end before their crash).
    points: u64,
}

const SPACE: Target = Target {
    name: "space",
    kind: Kind::Space,
    args: "space --rows 5 --cols 5 --blocks 4 --json --workers 2",
    partial: "--max-states 3000",
    processes: 1,
    points: 260,
};

const REACH: Target = Target {
    name: "reach",
    kind: Kind::Reach,
    args: "reach --rows 5 --cols 5 --blocks 3 --json --workers 2",
    partial: "--max-states 600",
    processes: 1,
    points: 150,
};

const CENSUS: Target = Target {
    name: "census",
    kind: Kind::Census,
    args: "census pushpush --rows 3 --cols 4 --json --workers 2",
    partial: "",
    processes: 1,
    points: 26,
};

const SPACE2: Target = Target {
    name: "space on 2 processes",
    kind: Kind::Space,
    args: "space --rows 5 --cols 5 --blocks 4 --json --workers 1",
    partial: "--max-states 3000",
    processes: 2,
    points: 130,
};

const CENSUS2: Target = Target {
    name: "census on 2 processes",
    kind: Kind::Census,
    args: "census pushpush --rows 3 --cols 4 --json --workers 1",
    partial: "",
    processes: 2,
    points: 13,
};

/// A folder of its own for one case.
fn scratch(name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!(
        "floe-faults-{}-{n}-{}",
        std::process::id(),
        name.replace(' ', "-")
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Free loopback ports, never the same twice in this test run (common::free_ports: lanes 6
/// to 11, beside tests/cluster.rs's).
fn free_ports(n: usize) -> Vec<u16> {
    common::free_ports(n, 6, 6)
}

/// What one process did.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn spawn(args: &[String], env: &[(String, String)]) -> Child {
    spawn_floe(args, env, 30)
}

fn wait(mut child: Child, what: &str) -> Outcome {
    let deadline = Instant::now() + BOUND;
    loop {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            let o = Outcome {
                code: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            };
            assert!(
                !o.stderr.contains("panicked") && !o.stderr.contains("RUST_BACKTRACE"),
                "{what}: a panic\n{}",
                o.stderr
            );
            return o;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {BOUND:?} (a spin or a wait for ever)");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

impl Target {
    /// The command line of process `i` into `work` (with `more` arguments).
    fn line(&self, work: &Path, hosts: Option<&Path>, i: usize, more: &str) -> Vec<String> {
        let mut a = owned_words(self.args, &[]);
        a.extend(owned_words(more, &[]));
        a.extend(["--work-dir".into(), path_str(work)]);
        if let Some(h) = hosts {
            a.extend([
                "--processes".into(),
                self.processes.to_string(),
                "--process".into(),
                i.to_string(),
                "--hostfile".into(),
                path_str(h),
            ]);
        }
        a
    }

    /// Runs every process of the job into `work`; process `faulty` with `env`.
    fn run(
        &self,
        work: &Path,
        more: &str,
        faulty: usize,
        env: &[(String, String)],
    ) -> Vec<Outcome> {
        let hosts = (self.processes > 1).then(|| {
            let h = work.with_extension("hosts");
            write_hostfile(&h, &free_ports(self.processes));
            h
        });
        let children: Vec<Child> = (0..self.processes)
            .map(|i| {
                let e = if i == faulty { env } else { &[] };
                spawn(&self.line(work, hosts.as_deref(), i, more), e)
            })
            .collect();
        children
            .into_iter()
            .enumerate()
            .map(|(i, c)| wait(c, &format!("{} process {i}", self.name)))
            .collect()
    }

    /// The clean run's figures.
    fn truth(&self) -> Value {
        let work = scratch(self.name);
        let out = self.run(&work.join("run"), "", usize::MAX, &[]);
        assert_eq!(out[0].code, Some(0), "{}", out[0].stderr);
        let _ = std::fs::remove_dir_all(&work);
        self.kind
            .figures(&serde_json::from_str(&out[0].stdout).unwrap())
    }

    /// Judges a run's processes: process 0 answered with the clean figures, or every process
    /// stopped with a clear refusal. Whether it answered.
    fn judge(&self, out: &[Outcome], truth: &Value, work: &Path, case: &str) -> bool {
        let o = &out[0];
        if o.code == Some(0) {
            let v: Value = serde_json::from_str(&o.stdout)
                .unwrap_or_else(|e| panic!("{case}: exit 0 without JSON ({e}):\n{}", o.stdout));
            assert_eq!(&self.kind.figures(&v), truth, "{case}: a wrong figure");
            for (i, p) in out.iter().enumerate().skip(1) {
                assert_eq!(p.code, Some(0), "{case}: process {i}:\n{}", p.stderr);
            }
            return true;
        }
        let w = path_str(work);
        for (i, p) in out.iter().enumerate() {
            assert!(
                matches!(p.code, Some(1) | Some(2)),
                "{case}: process {i} ended with {:?}:\n{}",
                p.code,
                p.stderr
            );
            assert!(
                p.stdout.trim().is_empty(),
                "{case}: process {i} answered:\n{}",
                p.stdout
            );
            let line = p.stderr.trim();
            assert!(
                line.starts_with("floe: ")
                    && (line.contains(&w) || line.contains("lost its connection")),
                "{case}: process {i}'s refusal names no file of {w}:\n{}",
                p.stderr
            );
        }
        false
    }
}

/// Every file under `dir`, in a fixed order.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Damages one file of `dir` one seeded way: what was done.
fn damage(dir: &Path, rng: &mut Rng) -> String {
    let files = files_under(dir);
    assert!(!files.is_empty(), "nothing to damage in {}", dir.display());
    let f = &files[rng.below(files.len() as u64) as usize];
    let other = &files[rng.below(files.len() as u64) as usize];
    let name = f.strip_prefix(dir).unwrap().display().to_string();
    let bytes = std::fs::read(f).unwrap();
    let len = bytes.len() as u64;
    match rng.below(6) {
        0 => {
            let to = rng.below(len);
            std::fs::write(f, &bytes[..to as usize]).unwrap();
            format!("{name} cut to {to} of {len} bytes")
        }
        1 if len > 0 => {
            let at = rng.below(len) as usize;
            let bit = rng.below(8);
            let mut b = bytes;
            b[at] ^= 1 << bit;
            std::fs::write(f, b).unwrap();
            format!("{name}: bit {bit} of byte {at} flipped")
        }
        2 => {
            let o = std::fs::read(other).unwrap();
            std::fs::write(other, &bytes).unwrap();
            std::fs::write(f, o).unwrap();
            format!(
                "{name} swapped with {}",
                other.strip_prefix(dir).unwrap().display()
            )
        }
        3 => {
            std::fs::copy(other, f).unwrap();
            format!(
                "{} copied over {name}",
                other.strip_prefix(dir).unwrap().display()
            )
        }
        4 => {
            std::fs::remove_file(f).unwrap();
            format!("{name} deleted")
        }
        _ => {
            // a number changed, as an editor would (a digit of the text, else a byte)
            let digits: Vec<usize> = (0..bytes.len())
                .filter(|&i| bytes[i].is_ascii_digit())
                .collect();
            let mut b = bytes;
            if digits.is_empty() {
                if b.is_empty() {
                    b.push(b'7');
                } else {
                    let at = rng.below(len) as usize;
                    b[at] = b[at].wrapping_add(1);
                }
            } else {
                let at = digits[rng.below(digits.len() as u64) as usize];
                b[at] = b'0' + ((b[at] - b'0' + 1 + rng.below(8) as u8) % 10);
            }
            std::fs::write(f, b).unwrap();
            format!("{name}: a number edited")
        }
    }
}

/// `crashes` runs killed at seeded points, then taken up; `damages` runs stopped part-way or
/// finished, their folder damaged, then taken up.
fn campaign(t: &Target, seed: u64, crashes: usize, damages: usize) {
    let truth = t.truth();
    let mut rng = Rng(seed);
    // how the cases ended: crashed, resumed to the figures, refused
    let (mut crashed, mut answered, mut refused) = (0, 0, 0);
    for c in 0..crashes {
        let at = 1 + rng.below(t.points + t.points / 10);
        let faulty = rng.below(t.processes as u64) as usize;
        let case = format!(
            "{} seed {seed}: crash {c} at point {at} of process {faulty}",
            t.name
        );
        let dir = scratch(t.name);
        let work = dir.join("run");
        let env = [("FLOE_FAULT".to_string(), format!("crash@{at}"))];
        let first = t.run(&work, "", faulty, &env);
        // a crash is a kill; the other processes stop cleanly, or finish if it came late
        if first[faulty].code.is_some() {
            t.judge(&first, &truth, &work, &format!("{case} (no crash)"));
        } else {
            crashed += 1;
        }
        for (i, p) in first.iter().enumerate() {
            if i != faulty {
                assert!(
                    matches!(p.code, Some(0) | Some(1) | Some(2)),
                    "{case}: process {i}: {:?}\n{}",
                    p.code,
                    p.stderr
                );
            }
        }
        let again = t.run(&work, "--resume", usize::MAX, &[]);
        if !t.judge(&again, &truth, &work, &format!("{case}, resumed")) {
            // only a run killed before its first checkpoint has nothing to take up
            assert!(
                again[0].stderr.contains("no checkpoint"),
                "{case}: a crash made the run impossible to resume:\n{}",
                again[0].stderr
            );
            let _ = std::fs::remove_dir_all(&work);
            let fresh = t.run(&work, "", usize::MAX, &[]);
            assert!(
                t.judge(&fresh, &truth, &work, &format!("{case}, afresh")),
                "{case}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    for d in 0..damages {
        let dir = scratch(t.name);
        let work = dir.join("run");
        let stopped = !t.partial.is_empty() && rng.below(2) == 0;
        let first = t.run(&work, if stopped { t.partial } else { "" }, usize::MAX, &[]);
        assert_eq!(
            first[0].code,
            Some(if stopped { 1 } else { 0 }),
            "{}",
            first[0].stderr
        );
        let what = damage(&work, &mut rng);
        let case = format!(
            "{} seed {seed}: damage {d} ({what}) after a {} run",
            t.name,
            if stopped { "stopped" } else { "finished" }
        );
        let again = t.run(&work, "--resume", usize::MAX, &[]);
        if t.judge(&again, &truth, &work, &case) {
            answered += 1;
        } else {
            refused += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    eprintln!(
        "{} seed {seed}: {crashed} of {crashes} runs crashed and were taken up; of {damages} \
         damaged folders, {answered} resumed to the clean figures and {refused} were refused",
        t.name
    );
    // the campaign saw what it is about
    assert!(crashed * 2 >= crashes, "{}: only {crashed} crashes", t.name);
    assert!(
        damages == 0 || refused > 0,
        "{}: no damage was ever refused",
        t.name
    );
}

#[test]
fn faults_in_space() {
    campaign(&SPACE, 1, 25, 35);
}

#[test]
fn faults_in_reach() {
    campaign(&REACH, 2, 15, 20);
}

#[test]
fn faults_in_the_census() {
    campaign(&CENSUS, 3, 20, 30);
}

#[test]
fn faults_in_two_processes() {
    campaign(&SPACE2, 4, 15, 15);
    campaign(&CENSUS2, 5, 10, 10);
}

/// A second run started into a folder in use, at seeded moments, of the same job or
/// another, with or without --resume: each run answers with its own clean figures or is
/// refused (the one that comes second while the other holds the folder).
#[test]
fn second_runs_into_a_folder_in_use() {
    let jobs = [
        Target {
            args: "space --rows 6 --cols 6 --blocks 4 --json --workers 2",
            ..SPACE
        },
        Target {
            args: "space --rows 6 --cols 6 --blocks 3 --json --workers 2",
            ..SPACE
        },
    ];
    let truths = [jobs[0].truth(), jobs[1].truth()];
    let mut rng = Rng(6);
    let mut refused = 0;
    for c in 0..12 {
        let dir = scratch("second");
        let work = dir.join("run");
        let first = spawn(&jobs[0].line(&work, None, 0, ""), &[]);
        std::thread::sleep(Duration::from_millis(rng.below(400)));
        let resume = rng.below(2) == 0;
        let j = rng.below(2) as usize;
        let second = jobs[j].run(&work, if resume { "--resume" } else { "" }, usize::MAX, &[]);
        let case = format!("second run {c} (resume: {resume}, {})", jobs[j].args);
        let first = wait(first, &case);
        jobs[0].judge(&[first], &truths[0], &work, &format!("{case}: the first"));
        if !jobs[j].judge(&second, &truths[j], &work, &format!("{case}: the second")) {
            refused += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(refused > 0, "no second run was ever refused");
}

/// Ten times the default cases, with other seeds (minutes).
#[test]
#[ignore]
fn many_faults() {
    for seed in 100..110 {
        campaign(&SPACE, seed, 25, 30);
        campaign(&REACH, seed, 15, 20);
        campaign(&CENSUS, seed, 20, 30);
        campaign(&SPACE2, seed, 15, 15);
        campaign(&CENSUS2, seed, 10, 10);
    }
}

/// Runs `floe ARGS` with files limited to `kib` KiB (`ulimit -f`, the signal ignored so that
/// a write beyond fails as on a full disk): exit code and standard error.
fn with_small_files(kib: u64, args: &[String]) -> (Option<i32>, String) {
    let script = format!("trap '' XFSZ; ulimit -f {kib}; exec \"$0\" \"$@\"");
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(FLOE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The temporary files under `dir` (`.NAME.PID.tmp`).
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with('.') && n.ends_with(".tmp")
        })
        .collect()
}

/// A write that fails for want of room removes its temporary file (before: a full disk left
/// `.layer-00016.bin.PID.tmp` in every worker's folder, and the census
/// `.layer-02.bin.PID.tmp`, still there after a successful --resume); a census taken up
/// again removes the temporary files a killed census left.
#[test]
fn a_full_disk_leaves_no_temporary_file() {
    let dir = scratch("small disk");
    let w = path_str(&dir.join("w"));
    let args: Vec<String> = owned_words(
        "space --rows 8 --cols 8 --blocks 5 --workers 2 --force --work-dir {}",
        &[&w],
    );
    let (code, err) = with_small_files(200, &args);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(temporaries(&dir), Vec::<PathBuf>::new(), "{err}");
    let c = path_str(&dir.join("c"));
    let census = |more: &str| -> Vec<String> {
        owned_words(
            &format!("census pushpush --rows 4 --cols 5 --json --work-dir {{}}{more}"),
            &[&c],
        )
    };
    let (code, err) = with_small_files(3, &census(""));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(temporaries(&dir), Vec::<PathBuf>::new(), "{err}");
    // a temporary file of a killed census is removed on --resume
    let stale = dir.join("c/.layer-05.bin.4000001.tmp");
    std::fs::write(&stale, b"half a layer").unwrap();
    let r = floe(
        &census(" --resume")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
    .code(0);
    assert!(r.stdout.contains("\"rows\""), "{}", r.stdout);
    assert_eq!(temporaries(&dir), Vec::<PathBuf>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
