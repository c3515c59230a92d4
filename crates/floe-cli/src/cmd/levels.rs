//! `floe levels`: the levels of a file, any game.

use super::source;
use crate::args::LevelsArgs;
use crate::out;
use crate::Done;
use floe::game::ParamValues;
use floe::Error;
use serde::Serialize;

#[derive(Serialize)]
struct LevelInfo {
    index: usize,
    name: String,
    title: Option<String>,
    game: &'static str,
    rows: usize,
    cols: usize,
    description: String,
    params: ParamValues,
}

/// `floe levels`.
pub fn run(a: LevelsArgs) -> Result<Done, Error> {
    let file = source(&a.file, &a.game)?.read()?;
    let infos: Vec<LevelInfo> = file
        .levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let scene = l.scene();
            LevelInfo {
                index: i + 1,
                name: l.name().to_string(),
                title: l.title(),
                game: file.game.info().name,
                rows: scene.rows,
                cols: scene.cols,
                description: l.describe(),
                params: l.params(),
            }
        })
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
