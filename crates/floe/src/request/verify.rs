//! The request of `floe verify` (`/api/verify`, `floe.verify`): a move list replayed on a
//! level's rules, the first illegal move named ([`crate::ops::verify`]).

use super::fields;
use super::operation::{Context, Operation};
use super::value::{number, some};
use crate::error::Error;
use crate::game::{Game, Verified};
use crate::ops::Level;
use crate::say::{count, indent};
use serde::{Deserialize, Deserializer};
use std::path::PathBuf;

/// Where a move list comes from: its text (a query parameter, a Python keyword, JSON), or a
/// file the command line names (`-`: standard input), read when the operation runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Moves {
    /// None given.
    #[default]
    None,
    /// The moves' text: JSON, or the game's text form with one move per line.
    Text(String),
    /// A file of them.
    File(PathBuf),
}

impl Moves {
    /// A file's path as the command line gives it.
    pub fn file(s: &str) -> Result<Moves, String> {
        if s.is_empty() {
            return Err("a file of moves (`-`: standard input)".into());
        }
        Ok(Moves::File(PathBuf::from(s)))
    }
    /// A file's path as the command line gives it, or none for an empty text (a flag with
    /// a default).
    pub fn file_or_none(s: &str) -> Result<Moves, String> {
        if s.is_empty() {
            return Ok(Moves::None);
        }
        Moves::file(s)
    }
    /// A text of moves (a query parameter, a keyword).
    pub(crate) fn text(s: &str) -> Result<Moves, String> {
        Ok(Moves::Text(s.to_string()))
    }
    /// The moves' text and the name messages give it (`<moves>`, the file's name); `what`
    /// names the parameter when none was given.
    pub fn read(&self, what: &str) -> Result<(String, String), Error> {
        match self {
            Moves::None => Err(Error::invalid(format!(
                "{what}: none given: the move list (JSON, or one move per line) is needed"
            ))),
            Moves::Text(t) => Ok((t.clone(), "<moves>".into())),
            Moves::File(p) => crate::input::read_text(p),
        }
    }
    /// The moves read and parsed as `game`'s; `what` names the parameter when none was
    /// given (an error).
    pub fn parse<G: Game>(&self, game: G, what: &str) -> Result<Vec<G::Move>, Error> {
        let (text, file) = self.read(what)?;
        game.parse_moves(&text, &file)
    }
    /// What of the request reads standard input (`--moves -`), for [`Operation::stdin`].
    pub fn stdin(&self) -> Option<&'static str> {
        matches!(self, Moves::File(p) if p.as_os_str() == "-").then_some("the moves")
    }
    /// The name messages give the moves.
    pub(crate) fn name(&self) -> String {
        match self {
            Moves::File(p) if p.as_os_str() == "-" => "<stdin>".into(),
            Moves::File(p) => p.display().to_string(),
            _ => "<moves>".into(),
        }
    }
}

/// The moves' text in JSON (a string).
pub(super) fn moves_text<'de, D: Deserializer<'de>>(d: D) -> Result<Moves, D::Error> {
    Ok(match Option::<String>::deserialize(d)? {
        None => Moves::None,
        Some(t) => Moves::Text(t),
    })
}

/// `floe verify`: the moves, and how their difficulty is reported.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Verify {
    /// The moves: a JSON list, a `floe solve --json` document, or the game's text form with
    /// one move per line; `-` reads standard input.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "FILE", required = true, value_parser = Moves::file)
    )]
    #[serde(deserialize_with = "moves_text")]
    pub moves: Moves,
    /// Ice blocks: block-change factor for the reported difficulty (default 5).
    #[cfg_attr(feature = "cli", arg(long, value_name = "F"))]
    pub factor: Option<u64>,
}

fields!(Verify {
    moves: Moves::text,
    factor: some(number)
});

impl Operation for Verify {
    const NAME: &'static str = "verify";
    const ABOUT: &'static str =
        "Check a move list against a level and say which move is illegal and why";
    const CHECK: bool = true;
    type Report = Verified;

    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<Verified, Error> {
        let moves = self.moves.parse(game, &cx.naming.of("moves"))?;
        crate::ops::verify::verify(game, level, name, &moves, self.factor)
    }

    fn refused(&self, v: &Verified) -> Option<String> {
        v.error
            .as_ref()
            .map(|e| format!("{}: {e}", self.moves.name()))
    }

    fn stdin(&self) -> Option<&'static str> {
        self.moves.stdin()
    }

    fn text(&self, v: &Verified, level: &Level) -> String {
        let info = level.game().info();
        let name = level.name();
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
                line.push('\n');
                if !v.solved {
                    line.push_str(&indent(&v.end));
                }
                line
            }
            Some(e) => format!("{name}: {e}\n"),
        }
    }
}
