//! `floe levels`: the levels of a file, any game.

use super::source;
use crate::args::LevelsArgs;
use crate::out;
use crate::Done;
use floe::ops::LevelEntry;
use floe::Error;

/// `floe levels`.
pub fn run(a: LevelsArgs) -> Result<Done, Error> {
    let file = source(&a.file, &a.game)?.read()?;
    let infos = LevelEntry::all(&file.levels);
    if a.json {
        out::json(&infos);
    } else {
        for info in &infos {
            outln!("{:>3}  {:<24} {}", info.index, info.name, info.description);
        }
    }
    Ok(Done::Answered)
}
