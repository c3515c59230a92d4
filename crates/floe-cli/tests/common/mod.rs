//! Running the `floe` binary in tests: exit code, standard output and error, JSON, temporary
//! files. Shared by the integration test files (`mod common;`).
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub const FLOE: &str = env!("CARGO_BIN_EXE_floe");

pub fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

pub fn path_str(p: &Path) -> String {
    p.to_str().expect("test paths are UTF-8").to_string()
}

/// A level file bundled with floe: `levels/<name>`.
pub fn bundled(name: &str) -> String {
    path_str(&root().join("levels").join(name))
}

/// A qits Ice Tower level of the shared reference levels: `../shared/levels/qits-icetower/<name>`.
pub fn qits(name: &str) -> String {
    path_str(&root().join("../shared/levels/qits-icetower").join(name))
}

/// A JSON whole number.
pub fn u(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("expected a whole number, found {v}"))
}

/// The keys of `floe solve --json`, for every game (README, "The JSON of solve").
pub const SOLVE_KEYS: [&str; 17] = [
    "game",
    "level",
    "params",
    "algorithm",
    "solved",
    "status",
    "limit",
    "moves",
    "length",
    "pushes",
    "difficulty",
    "lower_bound",
    "states",
    "expanded",
    "depth",
    "seconds",
    "details",
];

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub args: Vec<String>,
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Asserts the exit code and returns the run.
    pub fn code(self, want: i32) -> Run {
        assert_eq!(
            self.code, want,
            "floe {:?}: exit code {} (want {want})\nstdout:\n{}\nstderr:\n{}",
            self.args, self.code, self.stdout, self.stderr
        );
        self
    }

    /// Standard output parsed as exactly one JSON document (nothing before or after it).
    pub fn json(&self) -> Value {
        let mut docs = serde_json::Deserializer::from_str(&self.stdout).into_iter::<Value>();
        let first = match docs.next() {
            Some(Ok(v)) => v,
            other => panic!(
                "floe {:?}: stdout is not a JSON document ({other:?}):\n{}",
                self.args, self.stdout
            ),
        };
        assert!(
            docs.next().is_none(),
            "floe {:?}: stdout holds more than one JSON document:\n{}",
            self.args,
            self.stdout
        );
        // and the strict parser agrees: one document, then only white space
        serde_json::from_str::<Value>(&self.stdout).expect("exactly one JSON document");
        first
    }
}

pub fn run_with(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(FLOE);
    cmd.args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("the floe binary runs");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // The binary may stop reading early (an error): a broken pipe here is not a failure.
        let _ = pipe.write_all(input);
    }
    let out = child.wait_with_output().expect("floe finishes");
    let run = Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        code: out
            .status
            .code()
            .expect("floe exits with a code, not a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    };
    for (what, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        assert!(
            !text.contains("panicked") && !text.contains("RUST_BACKTRACE"),
            "floe {:?} panicked ({what}):\n{text}",
            run.args
        );
    }
    run
}

pub fn floe(args: &[&str]) -> Run {
    run_with(args, None)
}

pub fn floe_stdin(args: &[&str], input: &[u8]) -> Run {
    run_with(args, Some(input))
}

/// The arguments of a command line written out as one string, split at white space (for
/// arguments without file names, which may hold spaces).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The words of `line`, as `words`, with each `{}` replaced by the next of `values` (file
/// names, say, which may hold spaces).
pub fn words_with<'a>(line: &'a str, values: &[&'a str]) -> Vec<&'a str> {
    let mut values = values.iter();
    let args = words(line)
        .into_iter()
        .map(|w| match w {
            "{}" => values.next().copied().expect("a value for every {}"),
            w => w,
        })
        .collect();
    assert!(values.next().is_none(), "a {{}} for every value");
    args
}

/// [`words_with`] as owned strings (for a command line kept or started later).
pub fn owned_words(line: &str, values: &[&str]) -> Vec<String> {
    words_with(line, values)
        .into_iter()
        .map(String::from)
        .collect()
}

/// Runs the binary, asserts the exit code and parses standard output as one JSON document.
pub fn floe_json(args: &[&str], code: i32) -> Value {
    floe(args).code(code).json()
}

/// A temporary file with a unique name, removed when dropped.
pub struct Temp(pub PathBuf);

impl Temp {
    pub fn new(name: &str) -> Temp {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        Temp(std::env::temp_dir().join(format!("floe-cli-test-{}-{n}-{name}", std::process::id())))
    }

    pub fn with(name: &str, contents: &[u8]) -> Temp {
        let t = Temp::new(name);
        std::fs::write(&t.0, contents).expect("write a temporary file");
        t
    }

    pub fn path(&self) -> String {
        path_str(&self.0)
    }

    pub fn read(&self) -> String {
        std::fs::read_to_string(&self.0).expect("read a temporary file")
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A 14×14 ice level with 7 blocks whose only target is walled in: unsolvable, and its
/// space is far beyond any test's limits.
pub fn big_unsolvable() -> String {
    let mut rows: Vec<Vec<char>> = vec![vec!['-'; 14]; 14];
    rows[0][..7].fill('$');
    rows[13][13] = '.';
    rows[13][12] = '#';
    rows[12][13] = '#';
    let board: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    format!("Title: big\n{}\n", board.join("\n"))
}

/// `n` free ports on the loopback interface, never the same twice in this test run, dealt
/// from the test file's own `lane` (0 to 11 of 1,000 ports each).
///
/// Ports the kernel picks (bind to port 0, then let go) can be picked again for another test
/// running beside before this test's processes bind them: a process then fails to listen,
/// or, worse, joins the other test's run. So the ports are dealt from a counter below the
/// kernel's ephemeral range (which starts at 32768), from a base that depends on the test
/// process and the lane, and each is checked free.
pub fn free_ports(n: usize, lane: u32, lanes: u32) -> Vec<u16> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let base = 20_000 + (std::process::id() % 600) * 20 + lane * 1_000;
    let mut ports = Vec::with_capacity(n);
    while ports.len() < n {
        let k = NEXT.fetch_add(1, Ordering::Relaxed);
        assert!(k < lanes * 1_000, "no free port left for the tests");
        let port = (20_000 + (base - 20_000 + k) % 12_000) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            ports.push(port);
        }
    }
    ports
}

/// Writes a hostfile of `ports` on the loopback interface to `path`.
pub fn write_hostfile(path: &Path, ports: &[u16]) {
    let lines: Vec<String> = ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// `floe ARGS` ready to start: standard input closed, the outputs piped.
pub fn floe_command<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Command {
    let mut c = Command::new(FLOE);
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Starts `floe ARGS` with its own environment (pairs added to this one) and
/// `FLOE_CONNECT_TIMEOUT` set to `connect_secs`: standard input closed, the outputs piped.
pub fn spawn_floe<K: AsRef<std::ffi::OsStr>, V: AsRef<std::ffi::OsStr>>(
    args: &[String],
    env: &[(K, V)],
    connect_secs: u32,
) -> std::process::Child {
    floe_command(args)
        .env("FLOE_CONNECT_TIMEOUT", connect_secs.to_string())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .spawn()
        .unwrap()
}
