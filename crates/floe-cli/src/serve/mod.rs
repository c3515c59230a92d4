//! `floe serve`: the web page and its JSON API on a local HTTP server (axum on hyper and
//! tokio).
//!
//! - [`api`]: the endpoints that mirror commands (`/api/solve` answers what `floe solve
//!   --json` prints), read through the command line's own parser so that every option,
//!   range and message is the command's;
//! - [`play`]: play sessions of the page (the library's [`floe::play::Session`]), each
//!   belonging to a client, and the bounds the verdicts of a level learned, shared by all its
//!   sessions;
//! - [`slots`]: the server's bounds on work: a lane of `--jobs` searches and a lane of
//!   `--play-jobs` hints and verdicts, each with a line fair between clients; stop flags by
//!   job name;
//! - [`guard`]: who asks and from where (a client cookie, the Host and Origin checks), the
//!   body's read timeout, and the security headers of every answer;
//! - [`page`]: the page itself, compiled into the binary, and the bundled levels.
//!
//! Searches run on threads of their own at a lower priority, hints and verdicts on tokio's
//! blocking threads, never on the threads that answer requests, so `/api/health` and key
//! presses answer while every search slot is busy. Connections are served by hyper with a
//! header read timeout that also ends silent kept-alive connections.

mod api;
mod guard;
mod page;
mod play;
mod reply;
mod slots;
mod swatch;

use crate::args::ServeArgs;
use crate::Done;
use axum::extract::ConnectInfo;
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use floe::Error;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What every request may use at most, whatever it asks for.
#[derive(Clone, Debug)]
pub(crate) struct Caps {
    pub max_states: u64,
    pub timeout: Duration,
    pub max_memory: Option<u64>,
    pub max_body: usize,
    /// Cells of a board the server draws or plays.
    pub max_cells: usize,
    /// Bytes of a picture or a play state.
    pub max_response: usize,
}

/// The server's state, shared by every request.
pub(crate) struct App {
    pub caps: Caps,
    /// Solves, enumerations, generation, experiments.
    pub searches: Arc<slots::Lane>,
    /// Hints, verdicts, pictures, checks.
    pub play: Arc<slots::Lane>,
    pub stops: Arc<slots::Stops>,
    pub sessions: play::Sessions,
    pub guard: guard::Guard,
    pub read_timeout: Duration,
    pub started: Instant,
}

impl App {
    /// The lane of work of `kind`.
    pub(crate) fn lane(&self, kind: api::Kind) -> &Arc<slots::Lane> {
        match kind {
            api::Kind::Search => &self.searches,
            api::Kind::Play | api::Kind::Check => &self.play,
        }
    }
}

/// The routes of the library's operations ([`floe::operations!`]): `POST /api/<name>`.
macro_rules! operation_routes {
    ($($name:ident => $ty:path,)*) => {
        fn operations(r: Router<Arc<App>>) -> Router<Arc<App>> {
            use floe::request::Operation;
            r $(.route(&format!("/api/{}", <$ty>::NAME), post(api::operation::<$ty>)))*
        }
        /// The names of those routes, for the list of endpoints.
        pub(crate) fn operation_names() -> Vec<&'static str> {
            use floe::request::Operation;
            vec![$(<$ty>::NAME),*]
        }
    };
}

floe::operations!(operation_routes);

/// The routes (also what the tests serve).
pub(crate) fn router(app: Arc<App>) -> Router {
    let body = axum::extract::DefaultBodyLimit::max(app.caps.max_body);
    let routes: [(&str, MethodRouter<Arc<App>>); 16] = [
        ("/", get(page::index)),
        ("/app.js", get(page::script)),
        ("/style.css", get(page::style)),
        ("/favicon.svg", get(page::icon)),
        ("/api/health", get(api::health)),
        ("/api/games", get(api::games)),
        ("/api/levels", get(page::levels).post(page::read_levels)),
        ("/api/render", post(api::render)),
        ("/api/picture", post(api::picture)),
        ("/api/hint", post(api::hint)),
        ("/api/generate", post(api::generate)),
        ("/api/experiment", post(api::experiment)),
        ("/api/stop", post(api::stop)),
        ("/api/play", post(play::start)),
        ("/api/play/{id}", post(play::act)),
        ("/api/play/{id}/verdict", post(play::verdict)),
    ];
    let routes = routes
        .into_iter()
        .fold(operations(Router::new()), |r, (path, to)| r.route(path, to));
    routes
        .fallback(api::not_found)
        .layer(body)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            guard::layer,
        ))
        .with_state(app)
}

/// The number of cores.
fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The state for `a`.
pub(crate) fn app(a: &ServeArgs, loopback: bool) -> Arc<App> {
    let jobs = a.jobs.unwrap_or_else(cores);
    let play_jobs = a.play_jobs.unwrap_or_else(|| cores().max(2));
    Arc::new(App {
        caps: Caps {
            max_states: a.max_states,
            timeout: a.timeout,
            max_memory: a.max_memory.or_else(floe::mem::default_budget),
            max_body: a.max_body,
            max_cells: a.max_cells,
            max_response: a.max_response,
        },
        searches: slots::Lane::new("searches", jobs, a.queue),
        play: slots::Lane::new(
            "hints and verdicts",
            play_jobs,
            PLAY_QUEUE.max(4 * play_jobs),
        ),
        stops: Arc::new(slots::Stops::default()),
        sessions: play::Sessions::new(a.sessions, a.client_sessions, a.session_memory),
        guard: guard::Guard {
            loopback,
            origins: a.allow_origin.clone(),
        },
        read_timeout: a.read_timeout,
        started: Instant::now(),
    })
}

/// Requests that may wait for a play slot (at least four per slot).
const PLAY_QUEUE: usize = 64;

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

async fn serve(mut a: ServeArgs) -> Result<Done, Error> {
    let warm = play::warm_levels(&a.warm)?;
    if let Some(port) = a.port {
        a.addr = SocketAddr::from(([127, 0, 0, 1], port));
    }
    let listener = tokio::net::TcpListener::bind(a.addr)
        .await
        .map_err(|e| Error::invalid(format!("cannot listen on {}: {e}", a.addr)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Internal(e.to_string()))?;
    let url = format!("http://{addr}/");
    let app = app(&a, addr.ip().is_loopback());
    eprintln!(
        "floe: serving {url} ({} searches and {} hints at once, {} positions and {} each at \
         most; Ctrl-C stops)",
        app.searches.jobs(),
        app.play.jobs(),
        crate::out::thousands(app.caps.max_states),
        crate::out::human_time(app.caps.timeout)
    );
    if !addr.ip().is_loopback() {
        eprintln!(
            "floe: {addr} answers other machines too; the server has no authentication, and \
             it does not check the name a request uses for it"
        );
    }
    play::warm(&app, warm);
    if a.open {
        open_browser(&url);
    }
    accept(listener, router(Arc::clone(&app)), app.read_timeout).await;
    Ok(Done::Answered)
}

/// Serves connections until Ctrl-C: HTTP/1.1 with keep-alive, a connection closed when its
/// client takes longer than `read_timeout` to send a request's headers (or says nothing for
/// that long between requests). On Ctrl-C the server stops accepting, lets the answers under
/// way finish (running searches see the interrupt and end) and waits for them at most 10 s.
async fn accept(listener: tokio::net::TcpListener, routes: Router, read_timeout: Duration) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut open = tokio::task::JoinSet::new();
    let mut stopping = std::pin::pin!(interrupted());
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut stopping => break,
            got = listener.accept() => match got {
                Ok(s) => s,
                // out of file descriptors and the like: wait a moment, go on
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            // reap finished connections as they end
            Some(_) = open.join_next(), if !open.is_empty() => continue,
        };
        let _ = stream.set_nodelay(true);
        let service =
            routes
                .clone()
                .map_request(move |mut r: axum::http::Request<hyper::body::Incoming>| {
                    r.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                    r.map(axum::body::Body::new)
                });
        let service = hyper_util::service::TowerToHyperService::new(service);
        let mut stop = stop_rx.clone();
        open.spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .keep_alive(true);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while open.join_next().await.is_some() {}
    })
    .await;
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
