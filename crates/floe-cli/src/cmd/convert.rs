//! `floe convert`: level files between the formats of their game (ice blocks: the floe
//! format and Kluiver's).

use super::source;
use crate::args::ConvertArgs;
use crate::out;
use crate::Done;
use floe::Error;

/// `floe convert`.
pub fn run(a: ConvertArgs) -> Result<Done, Error> {
    let file = source(&a.file, &a.game)?.read()?;
    let chosen = match &a.level {
        Some(sel) => vec![file.pick(Some(sel))?.1],
        None => file.levels.clone(),
    };
    let text = file.game.write(&chosen, a.to.as_deref())?;
    match &a.out {
        Some(path) => out::write_file(path, text)?,
        None => outp!("{text}"),
    }
    Ok(Done::Answered)
}
