//! Play sessions of the web page: the library's [`Session`] (the same game logic as `floe
//! play`), kept by the server under a hard-to-guess name for the client that started it.
//!
//! - **Whose**: a session answers its own client only (the page's cookie, or the
//!   `X-Floe-Client` header); another client gets 404 as for a session that does not exist.
//! - **How many**: a client keeps at most `--client-sessions` (its own least recently used
//!   goes first), and the server at most `--sessions`: beyond, the least recently used
//!   session of the client holding the most goes. A few clients, however busy, never end
//!   another's game; the page keeps the level and the moves and starts a new session when
//!   its own is gone anyway (`?moves=` replays them).
//! - **What they learn**: the verdicts of a level learn from each other (Ice Tower: the bounds
//!   of earlier A* searches, [`floe::play::Learning`]); the table belongs to the level, not
//!   to a session, so every player of a level profits from every other's questions. All
//!   tables together hold at most `--session-memory`; beyond, the least recently used are
//!   emptied. The bundled levels' tables are filled in the background when the server starts
//!   ([`warm`]).
//! - **Where they run**: keys are played at once on a blocking thread; questions to the
//!   solver (a hint, "still solvable?") take a slot of the play lane, which searches never
//!   take.

use super::api::{self, check_board, param, Kind, Pairs, LEVEL_NAME};
use super::guard::Client;
use super::reply::Reply;
use super::swatch::swatch;
use super::App;
use crate::args::LimitArgs;
use crate::cmd;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Extension, Path, Query, State};
use floe::game::{Keys, Move};
use floe::grid::Pos;
use floe::ops::{LevelEntry, Request};
use floe::play::{parse_keys, Action, Event, Learning, Session, Verdict};
use floe::render::board::Style;
use floe::render::marked::{geometry, marked_svg, Geometry, Ring};
use floe::request::{self as typed, Fields, Naming};
use floe::scene::{Ground, PieceKind, Scene};
use floe::Error;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The sessions, and the tables of what each level's verdicts learned.
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Kept>>,
    most: usize,
    per_client: usize,
    tables: Mutex<HashMap<String, Table>>,
    /// Bytes all tables may hold.
    memory: u64,
    made: AtomicU64,
    /// The levels' tables are being prepared ([`warm`]).
    pub warming: AtomicBool,
}

struct Kept {
    client: Client,
    session: Arc<Mutex<Session>>,
    used: Instant,
}

struct Table {
    learning: Learning,
    used: Instant,
}

impl Sessions {
    pub fn new(most: usize, per_client: usize, memory: u64) -> Sessions {
        Sessions {
            map: Mutex::new(HashMap::new()),
            most,
            per_client: per_client.min(most),
            tables: Mutex::new(HashMap::new()),
            memory,
            made: AtomicU64::new(0),
            warming: AtomicBool::new(false),
        }
    }
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Kept>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn tables(&self) -> MutexGuard<'_, HashMap<String, Table>> {
        self.tables.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Sessions kept now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }
    /// Bytes the tables hold.
    pub fn learned_bytes(&self) -> u64 {
        self.tables()
            .values()
            .map(|t| t.learning.bytes() as u64)
            .sum()
    }
    /// The table of the level `key`.
    fn learning(&self, key: &str) -> Learning {
        let mut tables = self.tables();
        let t = tables.entry(key.to_string()).or_insert_with(|| Table {
            learning: Learning::new(),
            used: Instant::now(),
        });
        t.used = Instant::now();
        t.learning.clone()
    }
    /// `s`, learning into its level's shared table.
    fn shared(&self, s: Session) -> Session {
        match s.level_key() {
            Some(key) if s.learns() => {
                let l = self.learning(&key);
                s.with_learning(&l)
            }
            _ => s,
        }
    }
    /// Empties the least recently used tables while all hold more than their memory; how
    /// many it emptied. (A table a question is using now is left for the next time.)
    fn trim(&self) -> usize {
        let tables = self.tables();
        let mut held: Vec<(Instant, &Table, u64)> = tables
            .values()
            .map(|t| (t.used, t, t.learning.bytes() as u64))
            .collect();
        let mut total: u64 = held.iter().map(|h| h.2).sum();
        held.sort_by_key(|h| h.0);
        let mut emptied = 0;
        for (_, t, bytes) in held {
            if total <= self.memory {
                break;
            }
            if bytes > 0 && t.learning.try_clear() {
                total -= bytes;
                emptied += 1;
            }
        }
        emptied
    }
    /// Keeps `s` for `client` under a new name (hard to guess: a counter and 64 random bits).
    fn keep(&self, client: &Client, s: Session) -> (String, Arc<Mutex<Session>>) {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let id = format!("{n:x}-{}", &super::guard::new_token()[..16]);
        let session = Arc::new(Mutex::new(s));
        let mut map = self.lock();
        // the client's own first, then the client holding the most
        loop {
            let mine = map.values().filter(|k| &k.client == client).count();
            let victim = if mine >= self.per_client {
                Some(client.clone())
            } else if map.len() >= self.most {
                let mut counts: HashMap<&Client, (usize, Instant)> = HashMap::new();
                for k in map.values() {
                    let e = counts.entry(&k.client).or_insert((0, k.used));
                    e.0 += 1;
                    e.1 = e.1.min(k.used);
                }
                counts
                    .into_iter()
                    .max_by_key(|(_, (n, oldest))| (*n, std::cmp::Reverse(*oldest)))
                    .map(|(c, _)| c.clone())
            } else {
                None
            };
            let Some(victim) = victim else { break };
            let Some(oldest) = map
                .iter()
                .filter(|(_, k)| k.client == victim)
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
                client: client.clone(),
                session: Arc::clone(&session),
                used: Instant::now(),
            },
        );
        (id, session)
    }
    /// The session called `id`, if it is `client`'s.
    fn get(&self, client: &Client, id: &str) -> Result<Arc<Mutex<Session>>, Reply> {
        let mut map = self.lock();
        match map.get_mut(id).filter(|k| &k.client == client) {
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

/// The time a level's first verdict may take while the levels are prepared.
const WARM_TIMEOUT: Duration = Duration::from_secs(10);

/// Fills the tables of the levels whose verdicts learn (Ice Tower) in the background, at a
/// low priority, so that the first player of such a level gets the answers of a level
/// solved already: the bundled levels (each start, then every position one move off its
/// optimal line: a player's likely first mistakes), then the levels of `--warm` (each
/// start, which also answers every position of its optimal line), within the play limits.
pub(crate) fn warm(app0: &Arc<App>, extra: Vec<String>) {
    let app = Arc::clone(app0);
    app.sessions.warming.store(true, Ordering::Relaxed);
    let spawned = std::thread::Builder::new()
        .name("floe-warm".into())
        .spawn(move || {
            struct Done<'a>(&'a AtomicBool);
            impl Drop for Done<'_> {
                fn drop(&mut self) {
                    self.0.store(false, Ordering::Relaxed);
                }
            }
            let _done = Done(&app.sessions.warming);
            api::lower_priority();
            let bundled = super::page::bundled_levels().into_iter().map(|t| (t, true));
            for (text, off_line) in bundled.chain(extra.into_iter().map(|t| (t, false))) {
                if floe::search::interrupted() {
                    return;
                }
                let Ok(req) = Request::from_text(text, LEVEL_NAME).resolve() else {
                    continue;
                };
                if check_board(&req.level, &app.caps).is_err() {
                    continue;
                }
                // in the background at a low priority: a busy machine slows it down, so the
                // play cap on time (2 s) would leave a level half prepared; the positions' cap
                // stays, the time is 10 s (at most the server's for searches)
                let limits =
                    floe::play::default_limits().timeout(WARM_TIMEOUT.min(app.caps.timeout));
                let Ok(s) = req.level.play().map(|s| s.with_limits(limits)) else {
                    continue;
                };
                if !s.learns() {
                    continue;
                }
                let mut s = app.sessions.shared(s);
                if off_line {
                    warm_line(&mut s);
                } else {
                    let _ = s.verdict();
                }
                app.sessions.trim();
            }
        });
    if let Err(e) = spawned {
        app0.sessions.warming.store(false, Ordering::Relaxed);
        eprintln!("floe: the levels' verdicts are not prepared ({e})");
    }
}

/// The levels of the files of `--warm`, each file read as its `Game:` line says or, without
/// one, as the game that reads it.
pub(crate) fn warm_levels(paths: &[std::path::PathBuf]) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    for p in paths {
        let (text, _) = floe::input::read_text(p)?;
        let name = p.display().to_string();
        let f = super::page::file_levels(&text, &name, None, None)
            .map_err(|e| Error::invalid(format!("--warm: {e}")))?;
        out.extend(f.levels.into_iter().map(|l| l.text));
    }
    Ok(out)
}

/// Asks the verdict of each position along the hinted line from the start, and of each
/// position one legal move off it.
fn warm_line(s: &mut Session) {
    loop {
        let Ok(Verdict::Solvable { moves, next }) = s.verdict() else {
            return;
        };
        if moves == 0 || floe::search::interrupted() {
            return;
        }
        for m in s.legal_moves() {
            if Some(&m) != next.as_ref() && matches!(s.play_move(&m), Event::Moved { .. }) {
                let _ = s.verdict();
                s.apply(Action::Undo);
            }
        }
        let Some(next) = next else { return };
        if !matches!(s.play_move(&next), Event::Moved { .. }) {
            return;
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

/// One kind of cell or piece on the board, for the page's legend.
#[derive(Serialize)]
struct LegendJson {
    /// What it is, in the game's words.
    name: String,
    /// It alone, drawn as the board draws it.
    svg: String,
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
    /// The kinds of cells and pieces of the level (in the answer that starts a session).
    #[serde(skip_serializing_if = "Option::is_none")]
    legend: Option<Vec<LegendJson>>,
}

fn state(id: &str, s: &Session) -> StateJson {
    let view = s.view();
    // games played by picking moves name them by cells: the picture numbers its rows and
    // columns as the moves do (Pretzel's aces column, Fujisan's starting places)
    let style = Style {
        coords: s.keys() == Keys::PickMove,
        cell: 0,
    };
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
        legend: None,
    }
}

/// A ground's name, for a board whose text does not say (any game).
fn ground_name(g: Ground) -> Option<&'static str> {
    Some(match g {
        Ground::Blank => return None,
        Ground::Ice => "ice",
        Ground::Floor => "normal floor",
        Ground::Wall => "a wall",
        Ground::Target => "a target",
        Ground::Fire => "a fire",
        Ground::Recycler => "a recycler",
        Ground::Arrow(_) => "an arrow",
        Ground::Dispenser => "a dispenser",
        Ground::Table => "the table",
        Ground::Hole => "a place for a card",
        Ground::Space { .. } => "a space of the mountain, with its value",
        Ground::Start => "a priest's starting place",
    })
}

/// A piece's name, likewise.
fn piece_name(p: PieceKind) -> &'static str {
    match p {
        PieceKind::Block => "a block",
        PieceKind::Golden => "golden ice",
        PieceKind::Player => "the player",
        PieceKind::Magician => "the magician",
        PieceKind::Token(_) => "a token",
        PieceKind::Card { .. } => "a card",
        PieceKind::Priest => "a priest",
    }
}

/// The most entries of a legend in the game's symbols.
const LEGEND_MOST: usize = 8;

/// The kinds of cells of the board, each drawn alone: in the game's own words (its symbols'
/// meanings, `Info::cells`) where the board's text lies cell for cell on the picture, else
/// by what the picture shows.
fn legend(info: &floe::game::Info, scene: &Scene, board: &str) -> Vec<LegendJson> {
    let sep = info.cells.separator;
    let rows: Vec<Vec<&str>> = board
        .lines()
        .map(|l| {
            if sep.is_empty() {
                l.char_indices()
                    .map(|(i, c)| &l[i..i + c.len_utf8()])
                    .collect()
            } else {
                l.split(sep).collect()
            }
        })
        .collect();
    let aligned = rows.len() == scene.rows
        && rows.iter().all(|r| r.len() <= scene.cols)
        && rows.iter().any(|r| r.len() == scene.cols);
    // a symbol per card or colour says little: then what the picture shows
    let glyphs = aligned && {
        let mut distinct: Vec<&str> = rows.iter().flatten().copied().collect();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() <= LEGEND_MOST
    };
    let mut out: Vec<LegendJson> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for r in 0..scene.rows {
        let row = rows.get(r).filter(|_| glyphs);
        for c in 0..scene.cols {
            let text = row.and_then(|row| row.get(c).copied());
            let glyph = text.and_then(|t| info.cells.glyphs.iter().find(|g| g.text == t));
            let piece = scene.pieces.iter().find(|p| p.at == (r, c));
            let name = match (glyph, piece, ground_name(scene.ground((r, c)))) {
                (Some(g), _, _) => g.about,
                (None, Some(p), _) => piece_name(p.kind),
                (None, None, Some(g)) => g,
                (None, None, None) => continue,
            };
            if scene.ground((r, c)) == Ground::Blank && piece.is_none() || seen.contains(&name) {
                continue;
            }
            seen.push(name);
            out.push(LegendJson {
                name: name.to_string(),
                svg: swatch(scene, (r, c), name),
            });
        }
    }
    out
}

fn locked(s: &Mutex<Session>) -> MutexGuard<'_, Session> {
    s.lock().unwrap_or_else(|p| p.into_inner())
}

/// A state as an answer, within the server's cap on answers.
fn reply(st: &StateJson, app: &App) -> Reply {
    Reply::json(st, 0).within(app.caps.max_response, "the board's state")
}

/// The moves of a `moves` parameter (a JSON list, or the game's text form), played on `s`
/// in turn; an error names the first that does not replay.
fn replay(s: &mut Session, text: &str) -> Result<(), Error> {
    let moves = s.parse_moves(text, "<moves>")?;
    play_all(s, &moves)
}

/// Plays `moves` in turn; an error names the first that does not replay (those before it
/// stay played).
fn play_all(s: &mut Session, moves: &[Move]) -> Result<(), Error> {
    for (i, m) in moves.iter().enumerate() {
        match s.play_move(m) {
            Event::Moved { .. } => {}
            Event::Illegal { reason, .. } => {
                return Err(Error::invalid(format!(
                    "moves: move {} ({m}) does not replay: {reason}",
                    i + 1
                )))
            }
            e => {
                return Err(Error::invalid(format!(
                    "moves: move {} ({m}) does not replay: {}",
                    i + 1,
                    e.say(s.move_word())
                )))
            }
        }
    }
    Ok(())
}

/// `POST /api/play?level=…&game=…&moves=…`: a session of the level in the body (after the
/// moves, if given).
pub(crate) async fn start(
    State(app): State<Arc<App>>,
    Extension(client): Extension<Client>,
    q: Result<Query<Pairs>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Reply {
    let Ok(Query(q)) = q else {
        return Reply::bad("the query string is not name=value pairs");
    };
    let name = api::level_name(&q);
    let text = match body {
        Ok(b) => match floe::input::text_of(b.to_vec(), &name) {
            Ok(t) if !t.trim().is_empty() => t,
            Ok(_) => return Reply::bad("the request's body (the level file's text) is empty"),
            Err(e) => return Reply::error(&e),
        },
        Err(e) => return Reply::bad(format!("the request body: {e}")),
    };
    // the level, the game and the limits; other parameters are the page's own and ignored
    let asked: Pairs = q
        .iter()
        .filter(|(k, _)| play_params().contains(&k.replace('-', "_").as_str()))
        .cloned()
        .collect();
    let (mut level, mut limits) = (typed::LevelPick::default(), LimitArgs::default());
    if let Err(e) = typed::read(
        &asked,
        "/api/play",
        &mut [&mut level, &mut limits],
        &[],
        &[],
    ) {
        return Reply::bad(e);
    }
    // a session's questions are short and many: no stop flag of their own
    let limits = api::play_caps(&limits, &app.caps);
    let moves = param(&q, "moves").map(str::to_string);
    let app2 = Arc::clone(&app);
    let made = api::on_thread(Kind::Play, move || -> Result<Reply, Error> {
        if level.level.is_none() {
            if let Some(r) = several_levels(&text, &level.game) {
                return Ok(r);
            }
        }
        let req = level.resolve(&text, &name, Naming::Query)?;
        if let Err(r) = check_board(&req.level, &app2.caps) {
            return Ok(r);
        }
        let mut s = cmd::play::load(req, &limits, None)?;
        if let Some(m) = &moves {
            replay(&mut s, m)?;
        }
        let s = app2.sessions.shared(s);
        let scene = s.view().scene;
        let (id, s) = app2.sessions.keep(&client, s);
        let s = locked(&s);
        let mut st = state(&id, &s);
        st.legend = Some(legend(s.info(), &scene, &st.board));
        Ok(reply(&st, &app2))
    })
    .await;
    match made {
        Some(Ok(r)) => r,
        Some(Err(e)) => Reply::error(&e),
        None => Reply::internal("the work failed inside floe (a bug)".into()),
    }
}

/// The parameters `POST /api/play` reads into its requests: the level's (its game's
/// parameters from the registry) and the limits of its hints.
fn play_params() -> Vec<&'static str> {
    let mut names = Vec::new();
    typed::LevelPick::default().names(&mut names);
    names.extend(["max_states", "timeout"]);
    names
}

/// A file of several levels and no `level`: 400 with the list to choose from.
fn several_levels(text: &str, game: &crate::args::GameArgs) -> Option<Reply> {
    let f = Request::from_text(text, LEVEL_NAME)
        .game(game.game.as_deref())
        .read()
        .ok()?;
    if f.levels.len() < 2 {
        return None;
    }
    let levels = LevelEntry::all(&f.levels);
    Some(Reply::bad_with(
        format!(
            "the file holds {} levels: choose one with the level parameter (a number from 1 \
             or a title)",
            levels.len()
        ),
        serde_json::json!({ "levels": levels }),
    ))
}

/// `POST /api/play/{id}?keys=…` (key names as `floe play --keys` takes them, clicks as
/// `click:ROW:COL`), `?move=…` (a move of the game, as `verify` reads it) or `?moves=…`
/// (several, played in turn).
pub(crate) async fn act(
    State(app): State<Arc<App>>,
    Extension(client): Extension<Client>,
    Path(id): Path<String>,
    q: Result<Query<Pairs>, QueryRejection>,
) -> Reply {
    let Ok(Query(q)) = q else {
        return Reply::bad("the query string is not name=value pairs");
    };
    let s = match app.sessions.get(&client, &id) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let keys = param(&q, "keys").or(param(&q, "key"));
    let given = param(&q, "move")
        .map(|m| (m, true))
        .or(param(&q, "moves").map(|m| (m, false)));
    let actions =
        match (keys, given) {
            (Some(k), None) => match parse_keys(k) {
                Ok(a) => Some(a),
                Err(e) => return Reply::bad(format!("keys: {e}")),
            },
            (None, Some(_)) => None,
            _ => return Reply::bad(
                "give keys=KEYS (up down left right tab enter u r R h H click:ROW:COL), move=MOVE \
             or moves=MOVES",
            ),
        };
    let given = given.map(|(m, one)| (m.to_string(), one));
    let asks_solver = actions.as_ref().is_some_and(|a| {
        a.iter()
            .any(|x| matches!(x, Action::Hint | Action::FollowHint))
    });
    let app2 = Arc::clone(&app);
    let work = move || -> Result<Reply, Error> {
        let mut g = locked(&s);
        match (&actions, &given) {
            (Some(actions), _) => {
                for a in actions {
                    g.apply(*a);
                }
            }
            (None, Some((text, true))) => {
                let m = parse_move(&g, text)?;
                g.play_move(&m);
            }
            (None, Some((text, false))) => {
                let moves = g.parse_moves(text, "<moves>")?;
                if let Err(e) = play_all(&mut g, &moves) {
                    // the moves before the one that does not replay stay played
                    let mut st = state(&id, &g);
                    st.message = e.to_string();
                    return Ok(reply(&st, &app2));
                }
            }
            (None, None) => {}
        }
        Ok(reply(&state(&id, &g), &app2))
    };
    if asks_solver {
        api::run(&app, &client, Kind::Play, None, move |_, _| work()).await
    } else {
        match api::on_thread(Kind::Play, work).await {
            Some(Ok(r)) => r,
            Some(Err(e)) => Reply::error(&e),
            None => Reply::internal("the work failed inside floe (a bug)".into()),
        }
    }
}

/// One move of the session's game from text (JSON or the game's text form).
fn parse_move(s: &Session, text: &str) -> Result<Move, Error> {
    let mut moves = s.parse_moves(text, "<move>")?;
    if moves.len() != 1 {
        return Err(Error::invalid(format!(
            "move: one move, not {} (moves= takes several)",
            moves.len()
        )));
    }
    Ok(moves.remove(0))
}

/// `POST /api/play/{id}/verdict`: asks the solver about the current position (within the
/// session's limits: by default 2,000,000 positions and 2 s).
pub(crate) async fn verdict(
    State(app): State<Arc<App>>,
    Extension(client): Extension<Client>,
    Path(id): Path<String>,
) -> Reply {
    let s = match app.sessions.get(&client, &id) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let app2 = Arc::clone(&app);
    api::run(&app, &client, Kind::Play, None, move |_, _| {
        let job = locked(&s).job();
        let answer = job.run();
        let reply = {
            let mut g = locked(&s);
            g.store(answer);
            reply(&state(&id, &g), &app2)
        };
        app2.sessions.trim();
        Ok(reply)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session of a bundled Ice Tower map.
    fn tower() -> Session {
        let text = include_str!("../../../../levels/icetower/golden-path.txt");
        let req = Request::from_text(text, "golden-path.txt")
            .resolve()
            .unwrap();
        req.level.play().unwrap()
    }

    #[test]
    fn the_sessions_of_a_level_share_what_its_verdicts_learned() {
        let sessions = Sessions::new(10, 10, u64::MAX);
        let mut a = sessions.shared(tower());
        assert!(matches!(a.verdict(), Ok(Verdict::Solvable { .. })));
        let held = sessions.learned_bytes();
        assert!(held > 0, "the verdict learned nothing");
        // another player's session of the same level answers from the same table
        let b = sessions.shared(tower());
        assert_eq!(b.learned_bytes() as u64, held);
        // tables beyond the memory are emptied
        let tight = Sessions::new(10, 10, 1);
        let mut c = tight.shared(tower());
        let _ = c.verdict();
        assert!(tight.learned_bytes() > 0);
        assert_eq!(tight.trim(), 1);
        assert_eq!(tight.learned_bytes(), 0);
        // other games learn nothing and share nothing
        let ice = Request::from_text("$-.\n", "t").resolve().unwrap();
        let s = sessions.shared(ice.level.play().unwrap());
        assert!(!s.learns());
        assert_eq!(sessions.tables().len(), 1);
    }

    #[test]
    fn a_client_evicts_its_own_sessions_first_then_the_largest_holder() {
        let s = Sessions::new(4, 3, u64::MAX);
        let ice = || {
            Request::from_text("$-.\n", "t")
                .resolve()
                .unwrap()
                .level
                .play()
                .unwrap()
        };
        let (a, b) = (Client::new("a"), Client::new("b"));
        let mine = s.keep(&a, ice()).0;
        let theirs: Vec<String> = (0..10).map(|_| s.keep(&b, ice()).0).collect();
        assert!(s.get(&a, &mine).is_ok(), "b ended a's session");
        assert!(s.get(&b, &mine).is_err(), "b reached a's session");
        // b keeps its three most recent
        assert_eq!(theirs.iter().filter(|id| s.get(&b, id).is_ok()).count(), 3);
        assert!(s.get(&b, &theirs[9]).is_ok());
        // the server is full (4): a new client's session takes the place of the largest
        // holder's oldest
        let c = Client::new("c");
        let cs = s.keep(&c, ice()).0;
        assert_eq!(s.len(), 4);
        assert!(s.get(&c, &cs).is_ok() && s.get(&a, &mine).is_ok());
        assert_eq!(theirs.iter().filter(|id| s.get(&b, id).is_ok()).count(), 2);
    }

    #[test]
    fn the_legend_names_what_the_board_shows() {
        let s = tower();
        let names: Vec<String> = legend(s.info(), &s.view().scene, &s.board_text())
            .into_iter()
            .map(|l| {
                assert!(l.svg.starts_with("<svg"));
                l.name
            })
            .collect();
        for want in ["floor", "a wall", "a fire", "golden ice", "the magician"] {
            assert!(
                names.iter().any(|n| n.starts_with(want)),
                "{want}: {names:?}"
            );
        }
    }
}
