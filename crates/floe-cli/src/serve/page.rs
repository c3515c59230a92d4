//! The page (HTML, script and style compiled into the binary: nothing to install) and the
//! bundled level collections.

use super::api::Reply;
use axum::http::header;
use axum::response::IntoResponse;
use floe::game::{LevelEntry, Request};
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
struct LevelJson {
    #[serde(flatten)]
    info: LevelEntry,
    /// The level's file text.
    text: String,
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
            let levels = f
                .levels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    Ok(LevelJson {
                        info: LevelEntry::of(i, l),
                        text: l.to_text(None).map_err(|e| e.to_string())?,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Collection {
                file,
                game: f.game.info().name,
                levels,
            })
        })
        .collect()
});

/// `GET /api/levels`: the bundled collections, each level with its text.
pub(crate) async fn levels() -> Reply {
    match &*COLLECTIONS {
        Ok(c) => Reply::json(c, 0),
        Err(e) => Reply::internal(format!("a bundled level does not read: {e}")),
    }
}
