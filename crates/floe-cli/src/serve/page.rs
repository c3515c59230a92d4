//! The page (HTML, script and style compiled into the binary: nothing to install) and the
//! bundled level collections.

use super::api::{level_name, param, Pairs};
use super::reply::Reply;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::Query;
use axum::http::header;
use axum::response::IntoResponse;
use floe::ops::{LevelEntry, Request};
use serde::Serialize;
use std::sync::LazyLock;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// The bundled collections: every level file of `levels/` (listed by `build.rs`), compiled
/// in; Ice Tower maps and solitaire challenges are one level per file.
const BUNDLED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

pub(crate) async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INDEX,
    )
}

pub(crate) async fn script() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        SCRIPT,
    )
}

/// A blue ice block on white.
const ICON: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">\
<rect width=\"16\" height=\"16\" fill=\"#fff\"/><rect x=\"2\" y=\"2\" width=\"12\" height=\"12\" \
rx=\"2\" fill=\"#2f7fd1\" stroke=\"#1b4f8a\"/></svg>";

pub(crate) async fn icon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], ICON)
}

pub(crate) async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        STYLE,
    )
}

/// A level of a collection: what `floe levels --json` says of it, and its text.
#[derive(Serialize)]
pub(crate) struct LevelJson {
    #[serde(flatten)]
    info: LevelEntry,
    /// The level's file text.
    pub text: String,
}

#[derive(Serialize)]
struct Collection {
    file: &'static str,
    game: &'static str,
    levels: Vec<LevelJson>,
}

static COLLECTIONS: LazyLock<Result<Vec<Collection>, String>> = LazyLock::new(|| {
    BUNDLED
        .iter()
        .map(|&(file, text)| {
            let f = Request::from_text(text, file)
                .read()
                .map_err(|e| e.to_string())?;
            let levels = listed(&f.levels).map_err(|e| e.to_string())?;
            Ok(Collection {
                file,
                game: f.game.info().name,
                levels,
            })
        })
        .collect()
});

/// The levels of a file as the page lists them: each one's entry and its text.
fn listed(levels: &[floe::ops::Level]) -> Result<Vec<LevelJson>, floe::Error> {
    levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            Ok(LevelJson {
                info: LevelEntry::of(i, l),
                text: l.to_text(None)?,
            })
        })
        .collect()
}

/// `GET /api/levels`: the bundled collections, each level with its text.
pub(crate) async fn levels() -> Reply {
    match &*COLLECTIONS {
        Ok(c) => Reply::json(c, 0),
        Err(e) => Reply::internal(format!("a bundled level does not read: {e}")),
    }
}

/// The text of every bundled level.
pub(crate) fn bundled_levels() -> Vec<String> {
    match &*COLLECTIONS {
        Ok(c) => c
            .iter()
            .flat_map(|c| c.levels.iter().map(|l| l.text.clone()))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// A file's levels, as `POST /api/levels` answers them.
#[derive(Serialize)]
pub(crate) struct FileJson {
    /// The game its levels were read as.
    game: &'static str,
    /// Whether the file names its game (a `Game:` line): when not, `games` are the games
    /// whose reader takes it, and the page lets the player choose.
    named: bool,
    games: Vec<&'static str>,
    pub levels: Vec<LevelJson>,
}

/// `POST /api/levels` (body: a level file; `game`, `format` as query parameters): its
/// levels with their texts, and which games read it when it does not say.
pub(crate) async fn read_levels(
    q: Result<Query<Pairs>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Reply {
    let Ok(Query(q)) = q else {
        return Reply::bad("the query string is not name=value pairs");
    };
    let name = level_name(&q);
    let text = match body.map(|b| floe::input::text_of(b.to_vec(), &name)) {
        Ok(Ok(t)) if !t.trim().is_empty() => t,
        Ok(Ok(_)) => return Reply::bad("the request's body (a level file's text) is empty"),
        Ok(Err(e)) => return Reply::error(&e),
        Err(e) => return Reply::bad(format!("the request body: {e}")),
    };
    let game = param(&q, "game").map(str::to_string);
    let format = param(&q, "format").map(str::to_string);
    let done = tokio::task::spawn_blocking(move || {
        file_levels(&text, &name, game.as_deref(), format.as_deref())
    })
    .await;
    match done {
        Ok(Ok(f)) => Reply::json(&f, 0),
        Ok(Err(e)) => Reply::error(&e),
        Err(_) => Reply::internal("the work failed inside floe (a bug)".into()),
    }
}

/// Most levels `POST /api/levels` lists.
const MOST_LISTED: usize = 2000;

pub(crate) fn file_levels(
    text: &str,
    name: &str,
    game: Option<&str>,
    format: Option<&str>,
) -> Result<FileJson, floe::Error> {
    let read = |g: Option<&str>| Request::from_text(text, name).game(g).format(format).read();
    let named = floe::games::game_line(text, name)?.is_some();
    // the games that read it, when neither the file nor the client says
    let games: Vec<&'static str> = if named || game.is_some() {
        Vec::new()
    } else {
        floe::games::all()
            .iter()
            .map(|g| g.info().name)
            .filter(|&name| read(Some(name)).is_ok_and(|f| !f.levels.is_empty()))
            .collect()
    };
    let f = match (game, games.first()) {
        (Some(g), _) => read(Some(g))?,
        (None, _) if named => read(None)?,
        // the default reader's message when no game reads it
        (None, None) => read(None)?,
        (None, Some(&first)) => match read(None) {
            Ok(f) if games.contains(&f.game.info().name) => f,
            _ => read(Some(first))?,
        },
    };
    if f.levels.len() > MOST_LISTED {
        return Err(floe::Error::invalid(format!(
            "the file holds {} levels: the page lists at most {MOST_LISTED}; split it",
            f.levels.len()
        )));
    }
    let mut levels = listed(&f.levels)?;
    // a level without a title keeps the file's name when it is played on its own
    for l in levels.iter_mut().filter(|l| l.info.title.is_none()) {
        let title = format!("Title: {}\n", l.info.name.replace('\n', " "));
        let at = if l.text.starts_with("Game:") {
            l.text.find('\n').map_or(l.text.len(), |i| i + 1)
        } else {
            0
        };
        l.text.insert_str(at, &title);
    }
    Ok(FileJson {
        game: f.game.info().name,
        named,
        games: if named || game.is_some() {
            vec![f.game.info().name]
        } else {
            games
        },
        levels,
    })
}
