//! The JSON API: endpoints that mirror the commands. A request's query parameters are the
//! command's flags without their dashes (`?algo=difficulty&factor=5`, `?max_states=1000`),
//! read by the command line's own parser, so that ranges, defaults and messages are the
//! command's; its body is the level file's text. The answer is what the command prints
//! with `--json`, with the HTTP status of its exit code (0 and 1: 200, 2: 400) and the exit
//! code itself in the `x-floe-exit` header.

use super::guard::Client;
use super::slots::Filed;
use super::{App, Caps};
use crate::args::{Cli, Command, LimitArgs};
use crate::cmd::{self, request};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Extension, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use clap::{CommandFactory, FromArgMatches};
use floe::play::parse_keys;
use floe::render::board::{animated_svg, arrows_svg, board_svg, frames_svg, Style};
use floe::Error;
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The name a request's level goes by in messages (`untitled:3:4: …`) and, when it has no
/// title, in play (`/api/play` and `POST /api/levels` take a `name` instead).
pub(crate) const LEVEL_NAME: &str = "untitled";

/// The name a client gave its level (`?name=qits001`), as the command line would take it as
/// a file's name, or [`LEVEL_NAME`].
pub(crate) fn level_name(q: &Pairs) -> String {
    let n = param(q, "name")
        .unwrap_or("")
        .trim()
        .trim_start_matches('-');
    let n: String = n.chars().filter(|c| !c.is_control()).take(80).collect();
    if n.trim().is_empty() {
        LEVEL_NAME.to_string()
    } else {
        n
    }
}

/// A message in the API's words: the command line's flags named as the query parameters
/// that stand for them (`'--rows <R>'` → `'rows'`, `--max-blocks` → `max_blocks`, `--level N`
/// → `level N`). Every error an endpoint answers goes through it.
pub(crate) fn api_words(msg: &str) -> String {
    let b = msg.as_bytes();
    let mut out = String::with_capacity(msg.len());
    let mut i = 0;
    while i < b.len() {
        let flag_start = b[i] == b'-'
            && b.get(i + 1) == Some(&b'-')
            && b.get(i + 2).is_some_and(u8::is_ascii_lowercase)
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'-'));
        if !flag_start {
            let c = msg[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let mut j = i + 2;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
            j += 1;
        }
        out.push_str(&msg[i + 2..j].replace('-', "_"));
        // clap's value name after the flag (`--rows <R>`, `--level <LEVEL>...`)
        let rest = &msg[j..];
        if let Some(after) = rest.strip_prefix(" <") {
            if let Some(end) = after.find('>') {
                if after[..end]
                    .bytes()
                    .all(|c| c.is_ascii_uppercase() || c == b'_' || c == b'-')
                {
                    j += 2 + end + 1;
                    while msg[j..].starts_with("...") {
                        j += 3;
                    }
                }
            }
        }
        i = j;
    }
    out
}

/// An answer: JSON or a picture, with a status and the command's exit code.
#[derive(Debug)]
pub(crate) struct Reply {
    status: StatusCode,
    body: Body,
    exit: Option<u8>,
}

#[derive(Debug)]
enum Body {
    /// JSON text, written as `floe … --json` writes it (pretty, keys in the command's order).
    Json(String),
    Svg(String),
}

impl Reply {
    /// A command's JSON with its exit code.
    pub fn json<T: Serialize>(value: &T, exit: u8) -> Reply {
        match serde_json::to_string_pretty(value) {
            Ok(mut v) => Reply {
                status: if exit == 2 {
                    StatusCode::BAD_REQUEST
                } else {
                    StatusCode::OK
                },
                body: Body::Json({
                    v.push('\n');
                    v
                }),
                exit: Some(exit),
            },
            Err(e) => Reply::internal(format!("the answer's JSON: {e}")),
        }
    }
    /// An SVG picture.
    pub fn svg(svg: String) -> Reply {
        Reply {
            status: StatusCode::OK,
            body: Body::Svg(svg),
            exit: Some(0),
        }
    }
    fn message(status: StatusCode, msg: String, exit: Option<u8>) -> Reply {
        Reply::with(status, &json!({ "error": msg }), exit)
    }
    fn with(status: StatusCode, v: &Value, exit: Option<u8>) -> Reply {
        let mut v = v.clone();
        if let Some(Value::String(e)) = v.get_mut("error") {
            *e = api_words(e);
        }
        let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
        text.push('\n');
        Reply {
            status,
            body: Body::Json(text),
            exit,
        }
    }
    /// Bad input: 400, exit code 2.
    pub fn bad(msg: impl Into<String>) -> Reply {
        Reply::message(StatusCode::BAD_REQUEST, msg.into(), Some(2))
    }
    /// Bad input with more to say than a message (`extra`'s fields beside `error`): 400.
    pub fn bad_with(msg: String, extra: Value) -> Reply {
        let mut v = json!({ "error": msg });
        if let (Some(m), Value::Object(x)) = (v.as_object_mut(), extra) {
            m.extend(x);
        }
        Reply::with(StatusCode::BAD_REQUEST, &v, Some(2))
    }
    /// Every search slot taken and the line full: 503.
    pub fn busy(msg: String) -> Reply {
        Reply::message(StatusCode::SERVICE_UNAVAILABLE, msg, None)
    }
    /// A job name in use: 409.
    pub fn conflict(msg: String) -> Reply {
        Reply::message(StatusCode::CONFLICT, msg, None)
    }
    /// A request from a place the server does not answer: 403 (its message is for whoever
    /// runs the server, and names the server's own flags).
    pub fn forbidden(msg: String) -> Reply {
        let mut text = serde_json::to_string_pretty(&json!({ "error": msg })).unwrap_or_default();
        text.push('\n');
        Reply {
            status: StatusCode::FORBIDDEN,
            body: Body::Json(text),
            exit: None,
        }
    }
    /// A body that did not arrive in time: 408.
    pub fn timed_out(msg: String) -> Reply {
        Reply::message(StatusCode::REQUEST_TIMEOUT, msg, None)
    }
    /// A body larger than the server reads: 413, exit code 2.
    pub fn too_large(msg: String) -> Reply {
        Reply::message(StatusCode::PAYLOAD_TOO_LARGE, msg, Some(2))
    }
    /// A board, or an answer, larger than the server draws or plays: 422, exit code 2.
    pub fn too_big(msg: String) -> Reply {
        Reply::message(StatusCode::UNPROCESSABLE_ENTITY, msg, Some(2))
    }
    /// A bug in floe: 500, exit code 1.
    pub fn internal(msg: String) -> Reply {
        Reply::message(StatusCode::INTERNAL_SERVER_ERROR, msg, Some(1))
    }
    /// Nothing there: 404.
    pub fn missing(msg: String) -> Reply {
        Reply::message(StatusCode::NOT_FOUND, msg, None)
    }
    /// An error as the command line reports it: bad input is 400 (with the line and column
    /// of a syntax error), a failed self-check 500.
    pub fn error(e: &Error) -> Reply {
        match e {
            Error::Internal(_) => Reply::internal(e.to_string()),
            Error::Parse(p) => Reply::with(
                StatusCode::BAD_REQUEST,
                &json!({ "error": e.to_string(), "line": p.line, "col": p.col }),
                Some(2),
            ),
            _ => Reply::bad(e.to_string()),
        }
    }
    /// The status.
    #[cfg(test)]
    pub fn status(&self) -> StatusCode {
        self.status
    }
    /// Refuses an answer larger than `max` bytes (`what` names it: "the picture").
    pub fn within(self, max: usize, what: &str) -> Reply {
        let len = match &self.body {
            Body::Json(t) | Body::Svg(t) => t.len(),
        };
        if len <= max {
            return self;
        }
        Reply::too_big(format!(
            "{what} would be {}, more than the server sends ({} at most): ask for a smaller \
             board or fewer moves",
            human_size(len),
            human_size(max)
        ))
    }
}

/// Bytes in words: `64 KiB`, `8 MiB`, `113.4 MiB`.
pub(crate) fn human_size(n: usize) -> String {
    let (v, unit) = if n >= 1 << 30 {
        (n as f64 / (1u64 << 30) as f64, "GiB")
    } else if n >= 1 << 20 {
        (n as f64 / (1u64 << 20) as f64, "MiB")
    } else if n >= 1 << 10 {
        (n as f64 / 1024.0, "KiB")
    } else {
        return format!("{n} bytes");
    };
    if v.fract() == 0.0 {
        format!("{v} {unit}")
    } else {
        format!("{v:.1} {unit}")
    }
}

/// Refuses a board of more cells than the server draws or plays (422, before any drawing).
pub(crate) fn check_board(level: &floe::ops::Level, caps: &Caps) -> Result<(), Reply> {
    let sc = level.scene();
    let cells = sc.rows.saturating_mul(sc.cols);
    if cells > caps.max_cells {
        return Err(Reply::too_big(format!(
            "the board is {}×{} ({} cells): the server draws and plays boards of at most {} \
             cells",
            crate::out::thousands(sc.rows as u64),
            crate::out::thousands(sc.cols as u64),
            crate::out::thousands(cells as u64),
            crate::out::thousands(caps.max_cells as u64)
        )));
    }
    Ok(())
}

impl From<Error> for Reply {
    fn from(e: Error) -> Reply {
        Reply::error(&e)
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let mut r = match self.body {
            Body::Json(text) => (
                self.status,
                [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
                text,
            )
                .into_response(),
            Body::Svg(s) => (
                self.status,
                [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
                s,
            )
                .into_response(),
        };
        let h = r.headers_mut();
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some(e) = self.exit {
            h.insert("x-floe-exit", HeaderValue::from(i32::from(e)));
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            h.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}

/// The query string as (name, value) pairs.
pub(crate) type Pairs = Vec<(String, String)>;

/// Where an endpoint's level comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LevelFrom {
    /// The body, always.
    Body,
    /// The body if there is one (`space` also takes `rows`, `cols` and `blocks`).
    BodyOrFlags,
    /// No level (`generate`, `experiment`).
    None,
}

/// An endpoint that mirrors a command.
struct Endpoint {
    /// The command's words (`["solve"]`).
    command: &'static [&'static str],
    /// Whether the command is asked for `--json`.
    json: bool,
    level: LevelFrom,
    /// Parameters the server reads itself and the command does not see.
    own: &'static [&'static str],
    /// Flags of the command the server does not take (files, pictures, threads, bounds).
    refused: &'static [&'static str],
    /// Parameters that are the command's positional arguments, in order (`game`).
    positional: &'static [&'static str],
    /// The lane its work runs in.
    kind: Kind,
}

/// Flags no endpoint takes: output files and directories, help, the memory bound and
/// `--force` (the server's caps decide), threads (the server shares its cores).
const NEVER: &[&str] = &[
    "help",
    "version",
    "json",
    "out",
    "output",
    "svg",
    "force",
    "max-memory",
    "threads",
    "script",
    "boards",
];

const SOLVE: Endpoint = Endpoint {
    command: &["solve"],
    json: true,
    level: LevelFrom::Body,
    own: &["job"],
    refused: &["frames", "animate", "coords"],
    positional: &[],
    kind: Kind::Search,
};
const VERIFY: Endpoint = Endpoint {
    command: &["verify"],
    json: true,
    level: LevelFrom::Body,
    own: &["job", "moves"],
    refused: &[],
    positional: &[],
    kind: Kind::Check,
};
const RENDER: Endpoint = Endpoint {
    command: &["render"],
    json: false,
    level: LevelFrom::Body,
    own: &["job"],
    refused: &[],
    positional: &[],
    kind: Kind::Check,
};
const PICTURE: Endpoint = Endpoint {
    command: &["render"],
    json: false,
    level: LevelFrom::Body,
    own: &["job", "moves", "style"],
    refused: &[],
    positional: &[],
    kind: Kind::Check,
};
const HINT: Endpoint = Endpoint {
    command: &["play"],
    json: true,
    level: LevelFrom::Body,
    own: &["job"],
    refused: &[],
    positional: &[],
    kind: Kind::Check,
};
const SPACE: Endpoint = Endpoint {
    command: &["space"],
    json: true,
    level: LevelFrom::BodyOrFlags,
    own: &["job"],
    refused: &[],
    positional: &[],
    kind: Kind::Search,
};
const GENERATE: Endpoint = Endpoint {
    command: &["generate"],
    json: true,
    level: LevelFrom::None,
    own: &["job"],
    refused: &["report"],
    positional: &[],
    kind: Kind::Search,
};
const EXPERIMENT: Endpoint = Endpoint {
    command: &["experiment"],
    json: true,
    level: LevelFrom::None,
    own: &["job", "game"],
    refused: &[],
    positional: &["game"],
    kind: Kind::Search,
};

/// The value of query parameter `name` (the last one given).
pub(crate) fn param<'a>(q: &'a Pairs, name: &str) -> Option<&'a str> {
    q.iter()
        .rev()
        .find(|(k, _)| k.replace('_', "-") == name)
        .map(|(_, v)| v.as_str())
}

thread_local! {
    /// The command line's definition, built once per thread (building it costs more than
    /// reading a request).
    static CLI: std::cell::RefCell<clap::Command> = std::cell::RefCell::new(Cli::command());
}

/// `argv` read by the command line's parser.
pub(crate) fn parse_cli(argv: &[String]) -> Result<Cli, clap::Error> {
    CLI.with(|c| {
        let mut m = c.borrow_mut().try_get_matches_from_mut(argv)?;
        Cli::from_arg_matches_mut(&mut m)
    })
}

/// The command line an endpoint's request stands for, parsed by the command line's parser.
fn parse(ep: &Endpoint, q: &Pairs, has_level: bool) -> Result<Command, Reply> {
    let argv = CLI.with(|c| argv_of(&c.borrow(), ep, q, has_level))?;
    parse_cli(&argv)
        .map(|c| c.command)
        .map_err(|e| Reply::bad(clap_message(&e)))
}

/// The command line's words for an endpoint's request.
fn argv_of(
    cli: &clap::Command,
    ep: &Endpoint,
    q: &Pairs,
    has_level: bool,
) -> Result<Vec<String>, Reply> {
    let sub = ep
        .command
        .iter()
        .try_fold(cli, |c, name| c.find_subcommand(name))
        .ok_or_else(|| Reply::internal(format!("no command {:?}", ep.command)))?;
    let mut argv: Vec<String> = vec!["floe".into()];
    argv.extend(ep.command.iter().map(|s| s.to_string()));
    if has_level {
        argv.push(LEVEL_NAME.into());
    }
    for p in ep.positional {
        let v = param(q, p).ok_or_else(|| Reply::bad(format!("{p}: required")))?;
        if v.starts_with('-') {
            return Err(Reply::bad(format!(
                "{p}: a name, not '{}'",
                floe::input::shown_word(v)
            )));
        }
        argv.push(v.to_string());
    }
    if ep.json {
        argv.push("--json".into());
    }
    if ep.command == ["verify"] {
        // the moves come as a parameter; the command only needs a name for them
        argv.push("--moves=<moves>".into());
    }
    for (k, v) in q {
        let name = k.replace('_', "-");
        if ep.own.contains(&name.as_str()) {
            continue;
        }
        let taken: Vec<String> = sub
            .get_arguments()
            .filter_map(|a| a.get_long())
            .filter(|l| !NEVER.contains(l) && !ep.refused.contains(l))
            .filter(|l| !ep.own.contains(l))
            .map(|l| l.replace('-', "_"))
            .chain(ep.own.iter().map(|s| s.replace('-', "_")))
            .collect();
        let Some(arg) = sub
            .get_arguments()
            .find(|a| a.get_long() == Some(name.as_str()))
            .filter(|_| taken.contains(&name.replace('-', "_")))
        else {
            return Err(Reply::bad(format!(
                "unknown parameter '{}' for /api/{}: it takes {}",
                floe::input::shown_word(k),
                ep_path(ep),
                taken.join(", ")
            )));
        };
        if arg.get_action().takes_values() {
            argv.push(format!("--{name}={v}"));
        } else {
            match v.as_str() {
                "" | "true" | "1" | "yes" | "on" => argv.push(format!("--{name}")),
                "false" | "0" | "no" | "off" => {}
                _ => {
                    return Err(Reply::bad(format!(
                        "{k}: a switch, true or false (not '{}')",
                        floe::input::shown_word(v)
                    )))
                }
            }
        }
    }
    Ok(argv)
}

/// The path of an endpoint (`solve`).
fn ep_path(ep: &Endpoint) -> &'static str {
    match ep.command {
        ["play"] => "hint",
        [c, ..] => c,
        [] => "",
    }
}

/// The first line of a command-line error, without `error: `.
pub(crate) fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("bad parameters");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    match lines.next() {
        // "the following required arguments were not provided:" and the list
        Some(next) if first.ends_with(':') => format!("{first} {next}"),
        _ => first.to_string(),
    }
}

/// The request's body as the level's text: valid UTF-8 without NUL bytes, at most the
/// server's body size.
fn body_text(body: Result<Bytes, BytesRejection>, max: usize) -> Result<Option<String>, Reply> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Reply::message(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is larger than {max} bytes, more than the server reads"),
                Some(2),
            )
        } else {
            Reply::bad(format!("the request body: {e}"))
        }
    })?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    floe::input::text_of(bytes.to_vec(), LEVEL_NAME)
        .map(Some)
        .map_err(Reply::from)
}

/// Bounds `l` by the server's caps (a client may ask for less, never for more); without a
/// client's figure, `default` (or the cap) applies.
pub(crate) fn cap(
    l: &mut LimitArgs,
    caps: &Caps,
    stop: Arc<AtomicBool>,
    default: Option<(u64, Duration)>,
) {
    let (n, t) = default.unwrap_or((caps.max_states, caps.timeout));
    l.max_states = Some(l.max_states.unwrap_or(n).min(caps.max_states));
    l.timeout = Some(l.timeout.unwrap_or(t).min(caps.timeout));
    l.max_memory = caps.max_memory;
    l.force = false;
    l.stop = Some(stop);
}

type Work = fn(Command, &Caps, Arc<AtomicBool>, &Pairs) -> Result<Reply, Error>;

/// Which lane an endpoint's work runs in (see [`super::slots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Searches that may run long (solve, space, generate, experiment), at a lower priority
    /// than everything else the server does.
    Search,
    /// A game in play: a session's verdicts and hints (served first in the play lane).
    Play,
    /// What a designer waits for: a level's verdict, pictures, checks (the play lane, after
    /// the games in play).
    Check,
}

/// Reads, checks and parses a request, then runs `work` in its lane.
async fn answer(
    app: Arc<App>,
    client: Client,
    ep: &'static Endpoint,
    q: Result<Query<Pairs>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
    work: Work,
) -> Reply {
    let q = match q {
        Ok(Query(q)) => q,
        Err(e) => return Reply::bad(format!("the query string: {}", e.body_text())),
    };
    let text = match body_text(body, app.caps.max_body) {
        Ok(t) => t,
        Err(r) => return r,
    };
    let has_level = match (ep.level, &text) {
        (LevelFrom::Body, None) => {
            return Reply::bad("the request's body (the level file's text) is empty")
        }
        (LevelFrom::None, Some(_)) => {
            return Reply::bad(format!(
                "/api/{} takes no body: its options are query parameters",
                ep_path(ep)
            ))
        }
        (LevelFrom::BodyOrFlags, None) if param(&q, "rows").is_none() => {
            return Reply::bad(
                "give the level file's text as the body, or rows, cols and blocks (an empty \
                 ice board)",
            )
        }
        (_, t) => t.is_some(),
    };
    let mut command = match parse(ep, &q, has_level) {
        Ok(c) => c,
        Err(r) => return r,
    };
    if let Some(t) = text {
        set_text(&mut command, t);
    }
    let job = param(&q, "job").map(str::to_string);
    run(&app, &client, ep.kind, job.as_deref(), move |caps, stop| {
        work(command, caps, stop, &q)
    })
    .await
}

/// Runs `work` in the lane of `kind` with a stop flag filed under `job`; a panic is a 500.
pub(crate) async fn run<F>(
    app: &Arc<App>,
    client: &Client,
    kind: Kind,
    job: Option<&str>,
    work: F,
) -> Reply
where
    F: FnOnce(&Caps, Arc<AtomicBool>) -> Result<Reply, Error> + Send + 'static,
{
    let flag = Arc::new(AtomicBool::new(false));
    let filed: Filed = match app.stops.file(job, Arc::clone(&flag)) {
        Ok(f) => f,
        Err(r) => return r,
    };
    let lane = app.lane(kind);
    let permit = match lane.take(client, kind == Kind::Play).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let caps = app.caps.clone();
    let done = on_thread(kind, move || {
        let _permit = permit;
        work(&caps, flag)
    })
    .await;
    drop(filed);
    match done {
        Some(Ok(r)) => r,
        Some(Err(e)) => Reply::error(&e),
        None => Reply::internal("the work failed inside floe (a bug)".into()),
    }
}

/// Runs `f` off the threads that answer requests: a search on a thread of its own at a
/// lower scheduling priority (so that the play lane, the pages and the key presses keep the
/// processor when searches fill it), anything else on tokio's blocking threads. `None`: it
/// panicked.
pub(crate) async fn on_thread<T, F>(kind: Kind, f: F) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let guarded = move || std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    match kind {
        Kind::Play | Kind::Check => tokio::task::spawn_blocking(guarded).await.ok().flatten(),
        Kind::Search => {
            let (tx, rx) = tokio::sync::oneshot::channel();
            let spawned = std::thread::Builder::new()
                .name("floe-search".into())
                .spawn(move || {
                    lower_priority();
                    let _ = tx.send(guarded());
                });
            match spawned {
                Ok(_) => rx.await.ok().flatten(),
                Err(_) => None,
            }
        }
    }
}

/// Lowers the calling thread's scheduling priority (`nice` 10, Linux; elsewhere nothing).
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority only read their arguments; on Linux, PRIO_PROCESS with
    // a thread id sets that thread's nice value alone.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// Puts the request's text where the command reads its level.
fn set_text(c: &mut Command, text: String) {
    match c {
        Command::Solve(a) => a.level.text = Some(text),
        Command::Verify(a) => a.level.text = Some(text),
        Command::Render(a) => a.level.text = Some(text),
        Command::Play(a) => a.level.text = Some(text),
        Command::Space(a) => a.job.board.text = Some(text),
        _ => {}
    }
}

macro_rules! endpoint {
    ($name:ident, $ep:expr, $work:expr) => {
        pub(crate) async fn $name(
            State(app): State<Arc<App>>,
            Extension(client): Extension<Client>,
            q: Result<Query<Pairs>, QueryRejection>,
            body: Result<Bytes, BytesRejection>,
        ) -> Reply {
            answer(app, client, &$ep, q, body, $work).await
        }
    };
}

endpoint!(solve, SOLVE, |c, caps, stop, _| {
    let Command::Solve(mut a) = c else {
        unreachable!("parsed as solve")
    };
    cap(&mut a.limits, caps, stop, None);
    let req = request(&a.level)?;
    let r = cmd::solve::report(&req, &a, a.limits.limits())?;
    Ok(Reply::json(&r, if r.status.answered() { 0 } else { 1 }))
});

endpoint!(verify, VERIFY, |c, _, _, q| {
    let Command::Verify(a) = c else {
        unreachable!("parsed as verify")
    };
    let moves = param(q, "moves")
        .ok_or_else(|| Error::invalid("moves: the move list (JSON, or one move per line)"))?;
    let req = request(&a.level)?;
    let moves = req.level.parse_moves(moves, "<moves>")?;
    let v = req.level.verify(&moves, a.factor)?;
    Ok(Reply::json(&v, if v.error.is_some() { 2 } else { 0 }))
});

endpoint!(render, RENDER, |c, caps, _, _| {
    let Command::Render(a) = c else {
        unreachable!("parsed as render")
    };
    let req = request(&a.level)?;
    if let Err(r) = check_board(&req.level, caps) {
        return Ok(r);
    }
    let style = Style {
        coords: a.coords,
        cell: a.cell.unwrap_or(0),
    };
    Ok(Reply::svg(board_svg(&req.level.scene(), &style)).within(caps.max_response, "the picture"))
});

endpoint!(picture, PICTURE, |c, caps, _, q| {
    let Command::Render(a) = c else {
        unreachable!("parsed as render")
    };
    let moves = param(q, "moves").ok_or_else(|| {
        Error::invalid("moves: the solution to draw (JSON, or one move per line)")
    })?;
    let req = request(&a.level)?;
    if let Err(r) = check_board(&req.level, caps) {
        return Ok(r);
    }
    let moves = req.level.parse_moves(moves, "<moves>")?;
    let v = req.level.verify(&moves, None)?;
    if let Some(e) = v.error {
        return Err(Error::invalid(format!("<moves>: {e}")));
    }
    let story = req.level.story(&moves)?;
    let style = Style {
        coords: a.coords,
        cell: a.cell.unwrap_or(0),
    };
    Ok(Reply::svg(match param(q, "style").unwrap_or("arrows") {
        "arrows" => arrows_svg(&story, &style),
        "frames" => frames_svg(&story, &style),
        "animate" | "animation" => animated_svg(&story, &style),
        other => {
            return Err(Error::invalid(format!(
                "style: arrows, frames or animate (not '{}')",
                floe::input::shown_word(other)
            )))
        }
    })
    .within(caps.max_response, "the picture"))
});

endpoint!(hint, HINT, |c, caps, stop, q| {
    let Command::Play(mut a) = c else {
        unreachable!("parsed as play")
    };
    let play = floe::play::default_limits();
    let default = (
        play.max_states.unwrap_or(caps.max_states),
        play.timeout.unwrap_or(caps.timeout),
    );
    cap(&mut a.limits, caps, stop, Some(default));
    let actions = parse_keys(param(q, "keys").unwrap_or("")).map_err(Error::invalid)?;
    if let Err(r) = check_board(&request(&a.level)?.level, caps) {
        return Ok(r);
    }
    let mut s = cmd::play::load(&a)?;
    Ok(Reply::json(&cmd::play::script(&mut s, &actions), 0))
});

endpoint!(space, SPACE, |c, caps, stop, _| {
    let Command::Space(a) = c else {
        unreachable!("parsed as space")
    };
    if a.cluster.active() {
        return Err(Error::invalid(
            "the server does not share enumerations between workers or keep them on disk: \
             run `floe space` with those flags on the command line",
        ));
    }
    let mut a = a.job;
    cap(&mut a.limits, caps, stop, None);
    let req = cmd::board_request(&a.board)?;
    let r = cmd::space::report(&req, &a, &a.limits.limits())?;
    Ok(Reply::json(&r, if r.complete { 0 } else { 1 }))
});

/// The most levels one `/api/generate` asks for.
const MOST_LEVELS: usize = 100;

endpoint!(generate, GENERATE, |c, caps, stop, _| {
    let Command::Generate(mut a) = c else {
        unreachable!("parsed as generate")
    };
    if a.count > MOST_LEVELS {
        return Err(Error::invalid(format!(
            "count: at most {MOST_LEVELS} levels per request"
        )));
    }
    a.timeout = Some(a.timeout.unwrap_or(caps.timeout).min(caps.timeout));
    a.candidate_states = a.candidate_states.min(caps.max_states);
    let batch = floe::generate::retrograde::generate(&cmd::generate::request(&a, Some(stop))?)?;
    let complete = batch.levels.len() == a.count;
    Ok(Reply::json(
        &cmd::generate::json(&batch, a.count),
        if complete { 0 } else { 1 },
    ))
});

/// The most challenges one `/api/experiment` plays per setup, and generates.
const MOST_CHALLENGES: u64 = 100_000;

endpoint!(experiment, EXPERIMENT, |c, caps, stop, _| {
    let Command::Experiment(mut a) = c else {
        unreachable!("parsed as experiment")
    };
    if a.challenges > MOST_CHALLENGES || a.generate.is_some_and(|n| n > 1000) {
        return Err(Error::invalid(format!(
            "challenges: at most {MOST_CHALLENGES} per request (and generate: at most 1,000)"
        )));
    }
    cap(&mut a.limits, caps, stop, None);
    a.threads = Some(1);
    let o = cmd::experiment::compute(&a, |_| None)?;
    Ok(Reply::json(
        &cmd::experiment::json(&a, &o),
        if o.limited() { 1 } else { 0 },
    ))
});

/// `GET /api/health`: the server answers, and how busy it is.
pub(crate) async fn health(State(app): State<Arc<App>>) -> Reply {
    Reply::json(
        &json!({
            "status": "ok",
            "version": env!("CARGO_PKG_VERSION"),
            "uptime_seconds": app.started.elapsed().as_secs_f64(),
            "searches": app.searches.running(),
            "waiting": app.searches.waiting(),
            "jobs": app.searches.jobs(),
            "play": {
                "running": app.play.running(),
                "waiting": app.play.waiting(),
                "jobs": app.play.jobs(),
            },
            "sessions": app.sessions.len(),
            "learned_bytes": app.sessions.learned_bytes(),
            "preparing": app.sessions.warming.load(std::sync::atomic::Ordering::Relaxed),
            "max_states": app.caps.max_states,
            "timeout_seconds": app.caps.timeout.as_secs_f64(),
        }),
        0,
    )
}

/// `GET /api/games`: what `floe games --json` prints.
pub(crate) async fn games() -> Reply {
    let infos: Vec<_> = floe::games::all().iter().map(|g| g.info()).collect();
    Reply::json(&infos, 0)
}

/// `POST /api/stop?job=NAME`: raises the stop flag of a running job.
pub(crate) async fn stop(
    State(app): State<Arc<App>>,
    q: Result<Query<Pairs>, QueryRejection>,
) -> Reply {
    let Ok(Query(q)) = q else {
        return Reply::bad("the query string is not name=value pairs");
    };
    let Some(name) = param(&q, "job") else {
        return Reply::bad("job: the name the job was started with (?job=NAME)");
    };
    if let Err(r) = super::slots::check_name(name) {
        return r;
    }
    if app.stops.stop(name) {
        Reply::json(&json!({ "stopped": name }), 0)
    } else {
        Reply::missing(format!(
            "no running job called '{name}' (it may have ended)"
        ))
    }
}

/// Anything else: 404 with the list of endpoints.
pub(crate) async fn not_found(uri: axum::http::Uri) -> Reply {
    Reply::missing(format!(
        "no such page or endpoint: {}; the API is /api/solve, verify, render, picture, hint, \
         space, generate, experiment, stop, play (POST) and /api/health, games, levels (GET) \
         (docs/web.md)",
        floe::input::shown_word(uri.path())
    ))
}
