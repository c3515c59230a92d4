//! `floe levels`: the levels of a file, any game.

use super::source;
use crate::args::LevelsArgs;
use crate::out;
use crate::Done;
use floe::game::ParamValues;
use floe::Error;
use serde::Serialize;

/// What `floe levels --json` says of one level.
#[derive(Serialize)]
pub(crate) struct LevelInfo {
    index: usize,
    name: String,
    title: Option<String>,
    game: &'static str,
    rows: usize,
    cols: usize,
    description: String,
    params: ParamValues,
}

impl LevelInfo {
    /// The `i`-th (0-based) level of a file.
    pub(crate) fn of(i: usize, l: &floe::game::Level) -> LevelInfo {
        let scene = l.scene();
        LevelInfo {
            index: i + 1,
            name: l.name().to_string(),
            title: l.title(),
            game: l.game().info().name,
            rows: scene.rows,
            cols: scene.cols,
            description: l.describe(),
            params: l.params(),
        }
    }
}

/// `floe levels`.
pub fn run(a: LevelsArgs) -> Result<Done, Error> {
    let file = source(&a.file, &a.game)?.read()?;
    let infos: Vec<LevelInfo> = file
        .levels
        .iter()
        .enumerate()
        .map(|(i, l)| LevelInfo::of(i, l))
        .collect();
    if a.json {
        out::json(&infos);
    } else {
        for info in &infos {
            outln!("{:>3}  {:<24} {}", info.index, info.name, info.description);
        }
    }
    Ok(Done::Answered)
}
