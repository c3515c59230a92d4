//! `floe verify`: replays a move list on any game's rules and names the first illegal move.
//! A list with an illegal move is bad input: the report is printed and the exit code is 2.

use super::{count, indent, request};
use crate::args::VerifyArgs;
use crate::out;
use crate::Done;
use floe::Error;

/// `floe verify`.
pub fn run(a: VerifyArgs) -> Result<Done, Error> {
    if a.level.file.as_os_str() == "-" && a.moves.as_os_str() == "-" {
        return Err(Error::invalid(
            "the level and the moves cannot both come from standard input",
        ));
    }
    let req = request(&a.level)?;
    let (text, file) = floe::input::read_text(&a.moves)?;
    let moves = req.level.parse_moves(&text, &file)?;
    let v = req.level.verify(&moves, a.verify.factor)?;
    let info = req.game.info();
    if a.json {
        out::json(&v);
    } else {
        let name = req.level.name();
        match &v.error {
            None => {
                let mut line = format!(
                    "{name}: {}, every one legal; the level is {}solved",
                    count(v.length.unwrap_or(0), info.move_word, info.moves_word()),
                    if v.solved { "" } else { "NOT " }
                );
                if let Some(d) = &v.difficulty {
                    line.push_str(&format!(" ({d})"));
                }
                outln!("{line}");
                if !v.solved {
                    outp!("{}", indent(&v.end));
                }
            }
            Some(e) => outln!("{name}: {e}"),
        }
    }
    match v.error {
        None => Ok(Done::Answered),
        Some(e) => Err(Error::invalid(format!("{file}: {e}"))),
    }
}
