//! Play sessions of the web page: the library's [`Session`] (the same game logic as `floe
//! play`) kept by the server under a name, at most `--sessions` of them (the least recently
//! used goes first). Keys are played at once; questions to the solver (a hint, "still
//! solvable?") take a search slot like any search.

use super::api::{cap, param, Pairs, Reply, LEVEL_NAME};
use super::App;
use crate::args::{Cli, Command};
use crate::cmd;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use clap::Parser;
use floe::game::{Keys, Move};
use floe::grid::Pos;
use floe::play::{parse_keys, Action, Session, Verdict};
use floe::render::board::Style;
use floe::render::marked::{geometry, marked_svg, Geometry, Ring};
use floe::Error;
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The sessions.
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Kept>>,
    most: usize,
    /// Bytes all sessions may hold for what their verdicts learned.
    memory: u64,
    made: AtomicU64,
}

struct Kept {
    session: Arc<Mutex<Session>>,
    used: Instant,
}

impl Sessions {
    pub fn new(most: usize, memory: u64) -> Sessions {
        Sessions {
            map: Mutex::new(HashMap::new()),
            most,
            memory,
            made: AtomicU64::new(0),
        }
    }
    /// Drops the least recently used sessions but `keep` while the sessions hold more than
    /// their memory for what their verdicts learned. Returns how many were dropped.
    fn trim(&self, keep: &str) -> usize {
        let mut map = self.lock();
        // a session busy elsewhere (locked) is counted as empty this time
        let mut held: Vec<(Instant, String, u64)> = map
            .iter()
            .map(|(id, k)| {
                let bytes = k
                    .session
                    .try_lock()
                    .map(|s| s.learned_bytes() as u64)
                    .unwrap_or(0);
                (k.used, id.clone(), bytes)
            })
            .collect();
        let mut total: u64 = held.iter().map(|h| h.2).sum();
        held.sort();
        let mut dropped = 0;
        for (_, id, bytes) in held {
            if total <= self.memory {
                break;
            }
            if id != keep && bytes > 0 {
                map.remove(&id);
                total -= bytes;
                dropped += 1;
            }
        }
        dropped
    }
    /// Sessions kept now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Keeps `s` under a new name (hard to guess: a counter and a random number).
    fn keep(&self, s: Session) -> (String, Arc<Mutex<Session>>) {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        let id = format!("{n:x}-{:016x}", h.finish());
        let session = Arc::new(Mutex::new(s));
        let mut map = self.lock();
        while map.len() >= self.most {
            let Some(oldest) = map
                .iter()
                .min_by_key(|(_, k)| k.used)
                .map(|(id, _)| id.clone())
            else {
                break;
            };
            map.remove(&oldest);
        }
        map.insert(
            id.clone(),
            Kept {
                session: Arc::clone(&session),
                used: Instant::now(),
            },
        );
        (id, session)
    }
    /// The session called `id`.
    fn get(&self, id: &str) -> Result<Arc<Mutex<Session>>, Reply> {
        let mut map = self.lock();
        match map.get_mut(id) {
            Some(k) => {
                k.used = Instant::now();
                Ok(Arc::clone(&k.session))
            }
            None => Err(Reply::missing(format!(
                "no play session '{}': it ended or the server restarted; load the level again",
                floe::input::shown_word(id)
            ))),
        }
    }
}

/// The solver's answer as the page shows it.
#[derive(Serialize)]
struct VerdictJson {
    /// `yes`, `no`, `unknown` (a limit stopped the solver), or `null` if it failed.
    solvable: Option<&'static str>,
    /// Fewest moves still needed, when solvable.
    to_go: Option<u32>,
    /// The next move of such a solution.
    next: Option<Move>,
    limit: Option<&'static str>,
    error: Option<String>,
    /// In words.
    said: String,
}

fn verdict_json(v: &Result<Verdict, String>, word: &str) -> VerdictJson {
    match v {
        Ok(v) => VerdictJson {
            solvable: Some(v.name()),
            to_go: match v {
                Verdict::Solvable { moves, .. } => Some(*moves),
                _ => None,
            },
            next: match v {
                Verdict::Solvable { next, .. } => next.clone(),
                _ => None,
            },
            limit: match v {
                Verdict::Unknown(k) => Some(k.name()),
                _ => None,
            },
            error: None,
            said: v.say(word),
        },
        Err(m) => VerdictJson {
            solvable: None,
            to_go: None,
            next: None,
            limit: None,
            error: Some(m.clone()),
            said: format!("the solver failed: {m}"),
        },
    }
}

/// A session's state, as the page draws it.
#[derive(Serialize)]
struct StateJson {
    session: String,
    game: &'static str,
    level: String,
    /// How keys play the game: `select-block`, `walk` or `pick-move`.
    keys: Keys,
    move_word: &'static str,
    length: usize,
    redo: usize,
    solved: bool,
    message: String,
    moves: Vec<Move>,
    hint: Option<Move>,
    selected: Option<Pos>,
    cursor: Option<Pos>,
    /// Where the player (robot, magician) stands, in games that have one.
    actor: Option<Pos>,
    /// The position in the game's text notation.
    board: String,
    rows: usize,
    cols: usize,
    /// The picture: the board with the hint's arrow and the selection.
    svg: String,
    /// Where the cells are in the picture.
    geometry: Geometry,
    /// The solver's answer for this position, if it was asked already.
    verdict: Option<VerdictJson>,
}

fn state(id: &str, s: &Session) -> StateJson {
    let view = s.view();
    let style = Style::default();
    let mut rings = Vec::new();
    if let Some(p) = s.selected() {
        rings.push(((p.row, p.col), Ring::Selected));
    }
    if let Some(p) = s.cursor() {
        rings.push(((p.row, p.col), Ring::Cursor));
    }
    let svg = marked_svg(&view.scene, &style, view.arrow.as_ref(), &rings);
    StateJson {
        session: id.to_string(),
        game: s.info().name,
        level: s.name().to_string(),
        keys: s.keys(),
        move_word: s.move_word(),
        length: s.move_count(),
        redo: s.redo_count(),
        solved: s.is_solved(),
        message: s.message().to_string(),
        moves: s.moves(),
        hint: s.hint(),
        selected: s.selected(),
        cursor: s.cursor(),
        actor: view
            .cells
            .iter()
            .position(|c| c.actor)
            .map(|i| Pos::new(i / view.cols.max(1), i % view.cols.max(1))),
        board: s.board_text(),
        rows: view.rows,
        cols: view.cols,
        geometry: geometry(&view.scene, &style),
        svg,
        verdict: s.known_verdict().map(|v| verdict_json(&v, s.move_word())),
    }
}

fn locked(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    s.lock().unwrap_or_else(|p| p.into_inner())
}

/// `POST /api/play?level=…&game=…`: a session of the level in the body.
pub(crate) async fn start(
    State(app): State<Arc<App>>,
    q: Result<Query<Pairs>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Reply {
    let Ok(Query(q)) = q else {
        return Reply::bad("the query string is not name=value pairs");
    };
    let text = match body {
        Ok(b) => match floe::input::text_of(b.to_vec(), LEVEL_NAME) {
            Ok(t) if !t.trim().is_empty() => t,
            Ok(_) => {
                return Reply::bad("the request's body is the level file's text, and it is empty")
            }
            Err(e) => return Reply::error(&e),
        },
        Err(e) => return Reply::bad(format!("the request body: {e}")),
    };
    let mut argv = vec![
        "floe".to_string(),
        "play".into(),
        LEVEL_NAME.into(),
        "--keys=".into(),
    ];
    for name in [
        "level",
        "game",
        "format",
        "rules",
        "k",
        "param",
        "max-states",
        "timeout",
    ] {
        for (k, v) in q.iter().filter(|(k, _)| k.replace('_', "-") == name) {
            let _ = k;
            argv.push(format!("--{name}={v}"));
        }
    }
    if q.iter().any(|(k, v)| k == "dynamic" && v != "false") {
        argv.push("--dynamic".into());
    }
    let mut a = match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Play(a),
        }) => a,
        Ok(_) => return Reply::internal("parsed as another command".into()),
        Err(e) => return Reply::bad(super::api::clap_message(&e)),
    };
    a.level.text = Some(text);
    let play = floe::play::default_limits();
    let default = (
        play.max_states.unwrap_or(app.caps.max_states),
        play.timeout.unwrap_or(app.caps.timeout),
    );
    // a session's questions are short and many: no stop flag of their own
    cap(
        &mut a.limits,
        &app.caps,
        Arc::new(std::sync::atomic::AtomicBool::new(false)),
        Some(default),
    );
    a.limits.stop = None;
    let app2 = Arc::clone(&app);
    let made = tokio::task::spawn_blocking(move || -> Result<StateJson, Error> {
        let s = cmd::play::load(&a)?;
        let (id, s) = app2.sessions.keep(s);
        let s = locked(&s);
        Ok(state(&id, &s))
    })
    .await;
    match made {
        Ok(Ok(st)) => Reply::json(&st, 0),
        Ok(Err(e)) => Reply::error(&e),
        Err(_) => Reply::internal("the work failed inside floe (a bug)".into()),
    }
}

/// `POST /api/play/{id}?keys=…` (key names as `floe play --keys` takes them, clicks as
/// `click:ROW:COL`) or `?move=…` (a move of the game, as `verify` reads it).
pub(crate) async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    q: Result<Query<Pairs>, QueryRejection>,
) -> Reply {
    let Ok(Query(q)) = q else {
        return Reply::bad("the query string is not name=value pairs");
    };
    let s = match app.sessions.get(&id) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let actions = match (param(&q, "keys").or(param(&q, "key")), param(&q, "move")) {
        (Some(k), None) => match parse_keys(k) {
            Ok(a) => Some(a),
            Err(e) => return Reply::bad(format!("keys: {e}")),
        },
        (None, Some(_)) => None,
        _ => return Reply::bad(
            "give keys=KEYS (up down left right tab enter u r R h H click:ROW:COL) or move=MOVE",
        ),
    };
    let mv = param(&q, "move").map(str::to_string);
    let asks_solver = actions.as_ref().is_some_and(|a| {
        a.iter()
            .any(|x| matches!(x, Action::Hint | Action::FollowHint))
    });
    let work = move || -> Result<Reply, Error> {
        let mut g = locked(&s);
        match (&actions, &mv) {
            (Some(actions), _) => {
                for a in actions {
                    g.apply(*a);
                }
            }
            (None, Some(text)) => {
                let m = parse_move(&g, text)?;
                g.play_move(&m);
            }
            (None, None) => {}
        }
        Ok(Reply::json(&state(&id, &g), 0))
    };
    if asks_solver {
        super::api::run(&app, None, move |_, _| work()).await
    } else {
        match tokio::task::spawn_blocking(work).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => Reply::error(&e),
            Err(_) => Reply::internal("the work failed inside floe (a bug)".into()),
        }
    }
}

/// One move of the session's game from text (JSON or the game's text form).
fn parse_move(s: &Session, text: &str) -> Result<Move, Error> {
    let mut moves = s.parse_moves(text, "<move>")?;
    if moves.len() != 1 {
        return Err(Error::invalid(format!(
            "move: one move, not {}",
            moves.len()
        )));
    }
    Ok(moves.remove(0))
}

/// `POST /api/play/{id}/verdict`: asks the solver about the current position (within the
/// session's limits: by default 2,000,000 positions and 2 s).
pub(crate) async fn verdict(State(app): State<Arc<App>>, Path(id): Path<String>) -> Reply {
    let s = match app.sessions.get(&id) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let app2 = Arc::clone(&app);
    super::api::run(&app, None, move |_, _| {
        let job = locked(&s).job();
        let answer = job.run();
        let reply = {
            let mut g = locked(&s);
            g.store(answer);
            Reply::json(&state(&id, &g), 0)
        };
        app2.sessions.trim(&id);
        Ok(reply)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session of a bundled Ice Tower map, its start verdict asked (what the page does
    /// first), so that it holds what that search learned.
    fn asked(sessions: &Sessions) -> String {
        let text = include_str!("../../../../levels/icetower/golden-path.txt");
        let req = floe::game::Request::from_text(text, "golden-path.txt")
            .resolve()
            .unwrap();
        let mut s = req.level.play().unwrap();
        assert!(matches!(
            s.verdict(),
            Ok(floe::play::Verdict::Solvable { .. })
        ));
        assert!(s.learned_bytes() > 0, "the verdict learned nothing");
        sessions.keep(s).0
    }

    #[test]
    fn sessions_beyond_their_memory_are_dropped_oldest_first() {
        let roomy = Sessions::new(10, u64::MAX);
        let ids: Vec<String> = (0..3).map(|_| asked(&roomy)).collect();
        assert_eq!(roomy.trim(&ids[2]), 0);
        assert_eq!(roomy.len(), 3);
        // room for about one session: the oldest go, the one asking stays
        let one = locked(&roomy.get(&ids[0]).unwrap()).learned_bytes() as u64;
        let tight = Sessions::new(10, one + one / 2);
        let ids: Vec<String> = (0..3).map(|_| asked(&tight)).collect();
        assert_eq!(tight.trim(&ids[1]), 2);
        assert!(tight.get(&ids[1]).is_ok());
        assert!(tight.get(&ids[0]).is_err() && tight.get(&ids[2]).is_err());
    }
}
