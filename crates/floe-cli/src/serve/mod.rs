//! `floe serve`: the web page and its JSON API on a local HTTP server (axum on tokio).
//!
//! - [`api`]: the endpoints that mirror commands (`/api/solve` answers what `floe solve
//!   --json` prints), read through the command line's own parser so that every option,
//!   range and message is the command's;
//! - [`play`]: play sessions of the page (the library's [`floe::play::Session`]);
//! - [`slots`]: the server's bounds: at most `--jobs` searches at once and a line of
//!   `--queue` requests, stop flags by job name;
//! - [`page`]: the page itself, compiled into the binary, and the bundled levels.
//!
//! Searches run on tokio's blocking threads, never on the threads that answer requests, so
//! `/api/health` answers while every search slot is busy.

mod api;
mod page;
mod play;
mod slots;

use crate::args::ServeArgs;
use crate::Done;
use axum::routing::{get, post};
use axum::Router;
use floe::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What every request may use at most, whatever it asks for.
#[derive(Clone, Debug)]
pub(crate) struct Caps {
    pub max_states: u64,
    pub timeout: Duration,
    pub max_memory: Option<u64>,
    pub max_body: usize,
}

/// The server's state, shared by every request.
pub(crate) struct App {
    pub caps: Caps,
    pub slots: slots::Slots,
    pub stops: Arc<slots::Stops>,
    pub sessions: play::Sessions,
    pub started: Instant,
}

/// The routes (also what the tests serve).
pub(crate) fn router(app: Arc<App>) -> Router {
    let body = axum::extract::DefaultBodyLimit::max(app.caps.max_body);
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/favicon.svg", get(page::icon))
        .route("/api/health", get(api::health))
        .route("/api/games", get(api::games))
        .route("/api/levels", get(page::levels))
        .route("/api/solve", post(api::solve))
        .route("/api/verify", post(api::verify))
        .route("/api/render", post(api::render))
        .route("/api/picture", post(api::picture))
        .route("/api/hint", post(api::hint))
        .route("/api/space", post(api::space))
        .route("/api/generate", post(api::generate))
        .route("/api/experiment", post(api::experiment))
        .route("/api/stop", post(api::stop))
        .route("/api/play", post(play::start))
        .route("/api/play/{id}", post(play::act))
        .route("/api/play/{id}/verdict", post(play::verdict))
        .fallback(api::not_found)
        .layer(body)
        .with_state(app)
}

/// The state for `a`.
pub(crate) fn app(a: &ServeArgs) -> Arc<App> {
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    Arc::new(App {
        caps: Caps {
            max_states: a.max_states,
            timeout: a.timeout,
            max_memory: a.max_memory.or_else(floe::mem::default_budget),
            max_body: a.max_body,
        },
        slots: slots::Slots::new(jobs, a.queue),
        stops: Arc::new(slots::Stops::default()),
        sessions: play::Sessions::new(a.sessions, a.session_memory),
        started: Instant::now(),
    })
}

/// `floe serve`.
pub fn run(a: ServeArgs) -> Result<Done, Error> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(512)
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the server's runtime: {e}")))?;
    rt.block_on(serve(a))
}

async fn serve(a: ServeArgs) -> Result<Done, Error> {
    let listener = tokio::net::TcpListener::bind(a.addr)
        .await
        .map_err(|e| Error::invalid(format!("cannot listen on {}: {e}", a.addr)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let url = format!("http://{addr}/");
    let app = app(&a);
    eprintln!(
        "floe: serving {url} ({} searches at once, {} positions and {} each at most; Ctrl-C stops)",
        app.slots.jobs(),
        crate::out::thousands(app.caps.max_states),
        crate::out::human_time(app.caps.timeout)
    );
    if !addr.ip().is_loopback() {
        eprintln!("floe: {addr} answers other machines too; the server has no authentication");
    }
    if a.open {
        open_browser(&url);
    }
    axum::serve(listener, router(app))
        .with_graceful_shutdown(interrupted())
        .await
        .map_err(|e| Error::Internal(format!("the server stopped: {e}")))?;
    Ok(Done::Answered)
}

/// Resolves once Ctrl-C (or SIGTERM) raised the interrupt flag; running searches see the
/// flag too and end.
async fn interrupted() {
    while !floe::search::interrupted() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens `url` in the default browser, if there is a way to (a failure is only said).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("floe: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
