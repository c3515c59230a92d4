//! The JSON API: endpoints that mirror the commands. A request's query parameters are the
//! command's flags without their dashes (`?algo=difficulty&factor=5`, `?max_states=1000`),
//! read into the library's typed requests (`floe::request`), the same the command line
//! flattens into its commands, so that ranges, defaults and messages are the command's; its
//! body is the level file's text. The answer is what the command prints with `--json`, with
//! the HTTP status of its exit code (0 and 1: 200, 2: 400) and the exit code itself in the
//! `x-floe-exit` header.

use super::guard::Client;
use super::reply::{human_size, Reply};
use super::slots::Filed;
use super::{App, Caps};
use crate::args::{GameArgs, LimitArgs};
use crate::cmd;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Extension, Query, State};
use axum::http::StatusCode;
use floe::play::parse_keys;
use floe::render::board::{animated_svg, arrows_svg, board_svg, frames_svg};
use floe::request::{self as typed, Context, Fields, Naming, Operation};
use floe::Error;
use serde_json::json;
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

/// The query string as (name, value) pairs.
pub(crate) type Pairs = Vec<(String, String)>;

/// Where an endpoint's level comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LevelFrom {
    /// The body, always.
    Body,
    /// The body if there is one (`space` also takes `rows`, `cols` and `blocks`).
    BodyOrSize,
    /// No level (`generate`, `experiment`).
    None,
}

/// The work a request asks for, once read: run in its lane with the server's caps and a stop
/// flag.
type Work = Box<dyn FnOnce(&Caps, Arc<AtomicBool>) -> Result<Reply, Error> + Send>;

/// An endpoint that mirrors a command.
struct Endpoint {
    /// Its path under `/api/` (`solve`).
    path: &'static str,
    level: LevelFrom,
    /// The lane its work runs in.
    kind: Kind,
    /// Reads the query (and the level's text, if any) into the work it asks for.
    read: fn(&Pairs, Option<String>) -> Result<Work, Reply>,
}

/// Parameters of the library's requests that no endpoint takes: the memory bound and
/// `force` (the server's caps decide), threads (the server shares its cores).
const REFUSED: &[&str] = &["max_memory", "force", "threads"];

/// The value of query parameter `name` (the last one given).
pub(crate) fn param<'a>(q: &'a Pairs, name: &str) -> Option<&'a str> {
    q.iter()
        .rev()
        .find(|(k, _)| k.replace('_', "-") == name)
        .map(|(_, v)| v.as_str())
}

/// Reads the query of `/api/{path}` into `groups`; `own` are the parameters the endpoint
/// reads itself.
fn read(q: &Pairs, path: &str, groups: &mut [&mut dyn Fields], own: &[&str]) -> Result<(), Reply> {
    typed::read(q, &format!("/api/{path}"), groups, own, REFUSED).map_err(Reply::bad)
}

/// The level of a request's text, as the command line resolves a file's.
fn resolve(level: &typed::LevelPick, text: &str) -> Result<floe::ops::Request, Error> {
    level.resolve(text, LEVEL_NAME, Naming::Query)
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

/// `l` bounded by the server's caps (a client may ask for less, never for more); without a
/// client's figure, `default` (or the cap) applies.
pub(crate) fn cap(l: &LimitArgs, caps: &Caps, default: Option<(u64, Duration)>) -> LimitArgs {
    let (n, t) = default.unwrap_or((caps.max_states, caps.timeout));
    LimitArgs {
        max_states: Some(l.max_states.unwrap_or(n).min(caps.max_states)),
        timeout: Some(l.timeout.unwrap_or(t).min(caps.timeout)),
        max_memory: caps.max_memory,
        force: false,
    }
}

/// The search limits of `l`, stopped by `stop`.
fn stopped(l: &LimitArgs, stop: Arc<AtomicBool>) -> floe::search::Limits {
    let mut s = l.limits();
    s.stop = Some(stop);
    s
}

/// The limits of play questions (hints, verdicts): the play defaults within the caps.
pub(crate) fn play_caps(l: &LimitArgs, caps: &Caps) -> LimitArgs {
    let play = floe::play::default_limits();
    let default = (
        play.max_states.unwrap_or(caps.max_states),
        play.timeout.unwrap_or(caps.timeout),
    );
    cap(l, caps, Some(default))
}

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

/// Reads, checks and parses a request, then runs its work in its lane.
async fn answer(
    app: Arc<App>,
    client: Client,
    ep: &Endpoint,
    q: Result<Query<Pairs>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Reply {
    let q = match q {
        Ok(Query(q)) => q,
        Err(e) => return Reply::bad(format!("the query string: {}", e.body_text())),
    };
    let text = match body_text(body, app.caps.max_body) {
        Ok(t) => t,
        Err(r) => return r,
    };
    match (ep.level, &text) {
        (LevelFrom::Body, None) => {
            return Reply::bad("the request's body (the level file's text) is empty")
        }
        (LevelFrom::None, Some(_)) => {
            return Reply::bad(format!(
                "/api/{} takes no body: its options are query parameters",
                ep.path
            ))
        }
        (LevelFrom::BodyOrSize, None) if param(&q, "rows").is_none() => {
            return Reply::bad(
                "give the level file's text as the body, or rows, cols and blocks (an empty \
                 ice board)",
            )
        }
        _ => {}
    }
    let work = match (ep.read)(&q, text) {
        Ok(w) => w,
        Err(r) => return r,
    };
    let job = param(&q, "job").map(str::to_string);
    run(&app, &client, ep.kind, job.as_deref(), work).await
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

macro_rules! endpoint {
    ($name:ident, $path:literal, $level:expr, $kind:expr, $read:expr) => {
        pub(crate) async fn $name(
            State(app): State<Arc<App>>,
            Extension(client): Extension<Client>,
            q: Result<Query<Pairs>, QueryRejection>,
            body: Result<Bytes, BytesRejection>,
        ) -> Reply {
            static EP: Endpoint = Endpoint {
                path: $path,
                level: $level,
                kind: $kind,
                read: $read,
            };
            answer(app, client, &EP, q, body).await
        }
    };
}

endpoint!(render, "render", LevelFrom::Body, Kind::Check, |q, text| {
    let (mut level, mut render) = (typed::LevelPick::default(), typed::Render::default());
    read(q, "render", &mut [&mut level, &mut render], &["job"])?;
    let text = text.unwrap_or_default();
    Ok(Box::new(move |caps, _| {
        let req = resolve(&level, &text)?;
        if let Err(r) = check_board(&req.level, caps) {
            return Ok(r);
        }
        let svg = board_svg(&req.level.scene(), &cmd::render::style(&render));
        Ok(Reply::svg(svg).within(caps.max_response, "the picture"))
    }))
});

endpoint!(
    picture,
    "picture",
    LevelFrom::Body,
    Kind::Check,
    |q, text| {
        let (mut level, mut render) = (typed::LevelPick::default(), typed::Render::default());
        read(
            q,
            "picture",
            &mut [&mut level, &mut render],
            &["job", "moves", "style"],
        )?;
        let moves = param(q, "moves").map(str::to_string);
        let how = param(q, "style").unwrap_or("arrows").to_string();
        let text = text.unwrap_or_default();
        Ok(Box::new(move |caps, _| {
            let moves = moves.ok_or_else(|| {
                Error::invalid("moves: the solution to draw (JSON, or one move per line)")
            })?;
            let req = resolve(&level, &text)?;
            if let Err(r) = check_board(&req.level, caps) {
                return Ok(r);
            }
            let moves = req.level.parse_moves(&moves, "<moves>")?;
            let v = req.level.verify(&moves, None)?;
            if let Some(e) = v.error {
                return Err(Error::invalid(format!("<moves>: {e}")));
            }
            let story = req.level.story(&moves)?;
            let style = cmd::render::style(&render);
            Ok(Reply::svg(match how.as_str() {
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
        }))
    }
);

endpoint!(hint, "hint", LevelFrom::Body, Kind::Check, |q, text| {
    let (mut level, mut limits) = (typed::LevelPick::default(), LimitArgs::default());
    read(q, "hint", &mut [&mut level, &mut limits], &["job", "keys"])?;
    let keys = param(q, "keys").unwrap_or("").to_string();
    let text = text.unwrap_or_default();
    Ok(Box::new(move |caps, stop| {
        let limits = play_caps(&limits, caps);
        let actions = parse_keys(&keys).map_err(Error::invalid)?;
        let req = resolve(&level, &text)?;
        if let Err(r) = check_board(&req.level, caps) {
            return Ok(r);
        }
        let mut s = cmd::play::load(req, &limits, Some(stop))?;
        Ok(Reply::json(&cmd::play::script(&mut s, &actions), 0))
    }))
});

/// The endpoint of an operation of the library's list ([`floe::operations!`]),
/// `/api/<name>`: the level file's text as the body (or, for an operation that takes one,
/// the size of an empty ice board in the query), the level's and the operation's parameters
/// in the query, its limits within the server's caps, its report as JSON (exit code 1 when
/// a limit stopped it, 2 with the report when it shows the input wrong). A check (`verify`)
/// runs in the play lane, a search in the searches'.
pub(crate) async fn operation<O: Operation>(
    State(app): State<Arc<App>>,
    Extension(client): Extension<Client>,
    q: Result<Query<Pairs>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Reply {
    let ep = Endpoint {
        path: O::NAME,
        level: if O::BOARD {
            LevelFrom::BodyOrSize
        } else {
            LevelFrom::Body
        },
        kind: if O::CHECK { Kind::Check } else { Kind::Search },
        read: read_operation::<O>,
    };
    answer(app, client, &ep, q, body).await
}

/// Where the level of an operation comes from: the body's text, or an empty ice board.
enum LevelOf {
    Text(typed::LevelPick, String),
    Board(typed::EmptyBoard, GameArgs),
}

impl LevelOf {
    fn resolve(&self) -> Result<floe::ops::Request, Error> {
        match self {
            LevelOf::Text(pick, text) => resolve(pick, text),
            LevelOf::Board(empty, game) => cmd::empty_board(empty, game, Naming::Query),
        }
    }
}

/// The level of `/api/<path>` for an operation that also takes an empty ice board: the
/// body, or `rows`, `cols` and `blocks` (never both).
fn board_or_text(
    empty: typed::EmptyBoard,
    game: GameArgs,
    text: Option<String>,
) -> Result<LevelOf, Reply> {
    match text {
        Some(_) if empty.given() => Err(Reply::bad(
            "rows, cols and blocks make an empty ice board: send them without a body",
        )),
        Some(text) => Ok(LevelOf::Text(
            typed::LevelPick {
                level: empty.level,
                game,
            },
            text,
        )),
        None if empty.level.is_some() => Err(Reply::bad(
            "level: which level of the body, and there is none (rows, cols and blocks make \
             one board)",
        )),
        None => match empty.size() {
            Err(m) => Err(Reply::bad(m)),
            Ok(_) => Ok(LevelOf::Board(empty, game)),
        },
    }
}

/// The work of `/api/<name>` for operation `O`.
fn read_operation<O: Operation>(q: &Pairs, text: Option<String>) -> Result<Work, Reply> {
    let mut op = O::default();
    let level = if O::BOARD {
        let (mut empty, mut game) = (typed::EmptyBoard::default(), GameArgs::default());
        read(q, O::NAME, &mut [&mut empty, &mut game, &mut op], &["job"])?;
        board_or_text(empty, game, text)?
    } else {
        let mut pick = typed::LevelPick::default();
        read(q, O::NAME, &mut [&mut pick, &mut op], &["job"])?;
        LevelOf::Text(pick, text.unwrap_or_default())
    };
    Ok(Box::new(move |caps, stop| {
        if let Some(l) = op.limits_mut() {
            *l = cap(l, caps, None);
        }
        let req = level.resolve()?;
        let cx = Context {
            stop: Some(stop),
            naming: Naming::Query,
            ..Context::default()
        };
        let r = req
            .level
            .run(&op, &cx)
            .map_err(|e| e.in_level(req.level.name()))?;
        let code = if op.refused(&r).is_some() {
            2
        } else if O::complete(&r) {
            0
        } else {
            1
        };
        let reply = Reply::json(&r, code);
        if reply.len() > caps.max_response {
            return Ok(Reply::too_big(format!(
                "the answer would be {}, more than the server sends ({} at most): ask for \
                 less (the operation's parameters: {}), a smaller level, or start the server \
                 with a larger --max-response",
                human_size(reply.len()),
                human_size(caps.max_response),
                O::parameters()
                    .into_iter()
                    .filter(|p| !REFUSED.contains(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(reply)
    }))
}

/// The most levels one `/api/generate` asks for.
const MOST_LEVELS: usize = 100;

endpoint!(
    generate,
    "generate",
    LevelFrom::None,
    Kind::Search,
    |q, _| {
        let (mut levels, mut budget) =
            (typed::Generate::default(), typed::GenerateBudget::default());
        read(q, "generate", &mut [&mut levels, &mut budget], &["job"])?;
        if levels.count > MOST_LEVELS {
            return Err(Reply::bad(format!(
                "count: at most {MOST_LEVELS} levels per request"
            )));
        }
        Ok(Box::new(move |caps, stop| {
            budget.timeout = Some(budget.timeout.unwrap_or(caps.timeout).min(caps.timeout));
            budget.candidate_states = budget.candidate_states.min(caps.max_states);
            let batch = floe::generate::retrograde::generate(&levels.request(
                &budget,
                Some(stop),
                Naming::Query,
            )?)?;
            let report = batch.report(levels.count);
            Ok(Reply::json(&report, if report.complete { 0 } else { 1 }))
        }))
    }
);

/// The most challenges one `/api/experiment` plays per setup, and generates.
const MOST_CHALLENGES: u64 = 100_000;

endpoint!(
    experiment,
    "experiment",
    LevelFrom::None,
    Kind::Search,
    |q, _| {
        let (mut run, mut limits) = (typed::Experiment::default(), LimitArgs::default());
        read(q, "experiment", &mut [&mut run, &mut limits], &["job"])?;
        if run.challenges > MOST_CHALLENGES || run.generate.is_some_and(|n| n > 1000) {
            return Err(Reply::bad(format!(
                "challenges: at most {MOST_CHALLENGES} per request (and generate: at most 1,000)"
            )));
        }
        Ok(Box::new(move |caps, stop| {
            let limits: LimitArgs = cap(&limits, caps, None);
            let o =
                cmd::experiment::compute(&run, stopped(&limits, stop), Some(1), None, |_| None)?;
            Ok(Reply::json(
                &o.report(&run),
                if o.limited() { 1 } else { 0 },
            ))
        }))
    }
);

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

/// `GET /api/games`: what `floe games --json` prints, and for the page's editor each
/// symbol's cell as the board draws it (`cells.glyphs[i].svg`).
pub(crate) async fn games() -> Reply {
    let mut out = Vec::new();
    for g in floe::games::all() {
        let info = g.info();
        let mut v = serde_json::to_value(info).unwrap_or_default();
        if let Some(glyphs) = v
            .pointer_mut("/cells/glyphs")
            .and_then(|x| x.as_array_mut())
        {
            for (entry, svg) in glyphs.iter_mut().zip(super::swatch::glyph_swatches(info)) {
                entry["svg"] = json!(svg);
            }
        }
        out.push(v);
    }
    Reply::json(&out, 0)
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
        "no such page or endpoint: {}; the API is /api/{}render, picture, hint, generate, \
         experiment, stop, play (POST) and /api/health, games, levels (GET) (docs/web.md)",
        floe::input::shown_word(uri.path()),
        super::operation_names()
            .iter()
            .map(|n| format!("{n}, "))
            .collect::<String>()
    ))
}
