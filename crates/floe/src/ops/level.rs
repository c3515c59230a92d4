//! A level of any game, as front ends hold it: [`AnyGame`] (a game of the registry as a
//! trait object) and [`Level`] (a level of some game, named, its parameters applied), both
//! written once over [`Game`] for every game. Behind a [`Level`] is a [`DynLevel`], the
//! game's own level ([`LevelOf`]) with its type erased.

use crate::error::Error;
use crate::game::hardest::{Counts, HardestOptions, HardestReport};
use crate::game::{Game, Info, Move, ParamValues, Params};
use serde::Serialize;
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A game as front ends see it: every game of the registry is one (see
/// [`crate::games::all`]).
pub trait AnyGame: Send + Sync + 'static {
    /// Static facts: name, parameters, algorithms, capabilities.
    fn info(&self) -> &'static Info;
    /// Every level of a file, named and with `params` applied (checked first), or one error.
    /// `file` is the name used in messages and, for a file of one untitled level, the level's
    /// name.
    fn read(
        &'static self,
        text: &str,
        file: &str,
        format: Option<&str>,
        params: &Params,
    ) -> Result<Vec<Level>, Error>;
    /// Levels of this game in one of its formats (`None`: its first).
    fn write(&self, levels: &[Level], format: Option<&str>) -> Result<String, Error>;
    /// The hardest levels of a size ([`crate::generate::hardest`]), each verified.
    fn hardest(&self, o: &HardestOptions, counts: &Counts) -> Result<HardestReport, Error>;
    /// Random boards of a size, labelled ([`Game::dataset`]).
    fn dataset(
        &self,
        o: &crate::game::dataset::DatasetOptions,
    ) -> Result<crate::game::dataset::Dataset, Error>;
}

impl fmt::Debug for dyn AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

impl<G: Game> AnyGame for G {
    fn info(&self) -> &'static Info {
        Game::info(self)
    }
    fn read(
        &'static self,
        text: &str,
        file: &str,
        format: Option<&str>,
        params: &Params,
    ) -> Result<Vec<Level>, Error> {
        let g = *self;
        let info = g.info();
        if let Some(f) = format {
            if !info.formats.iter().any(|x| x.eq_ignore_ascii_case(f)) {
                return Err(Error::invalid(format!(
                    "--format {f}: {} files are in the {} format",
                    info.title,
                    info.formats.join(" or ")
                )));
            }
        }
        params.check(info)?;
        let mut levels = g.parse(text, file, format)?;
        let count = levels.len();
        let base = base_name(file);
        levels
            .drain(..)
            .enumerate()
            .map(|(i, mut l)| {
                g.configure(&mut l, params)?;
                let name = match g.title(&l) {
                    Some(t) => t.to_string(),
                    None if count > 1 => format!("level {}", i + 1),
                    None => base.clone(),
                };
                Ok(Level {
                    game: self,
                    name,
                    obj: Arc::new(LevelOf { game: g, level: l }),
                })
            })
            .collect()
    }
    fn write(&self, levels: &[Level], format: Option<&str>) -> Result<String, Error> {
        let typed: Vec<G::Level> = levels
            .iter()
            .map(|l| {
                l.typed::<G>().cloned().ok_or_else(|| {
                    Error::invalid(format!(
                        "a {} level cannot be written as a {} file",
                        l.game().info().title,
                        self.info().title
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        // a game of one format writes only that one (a format of another game is refused,
        // not ignored); a game of several checks the name itself
        let formats = self.info().formats;
        if let (Some(f), [only]) = (format, formats) {
            if !f.trim().eq_ignore_ascii_case(only) {
                return Err(Error::invalid(format!(
                    "'{}' is not a format of {} levels: they are written in the {only} format \
                     only (--to {only}, or no --to)",
                    f.trim(),
                    self.info().title
                )));
            }
        }
        self.write(&typed, format)
    }
    fn hardest(&self, o: &HardestOptions, counts: &Counts) -> Result<HardestReport, Error> {
        Game::hardest(self, o, counts)
    }
    fn dataset(
        &self,
        o: &crate::game::dataset::DatasetOptions,
    ) -> Result<crate::game::dataset::Dataset, Error> {
        Game::dataset(self, o)
    }
}

/// The name of a file without its directory and extension (`<stdin>` stays as it is).
fn base_name(file: &str) -> String {
    if file.starts_with('<') {
        return file.to_string();
    }
    std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned())
}

/// A level of any game, named, with its parameters applied: what every command works on.
#[derive(Clone)]
pub struct Level {
    pub(super) game: &'static dyn AnyGame,
    pub(super) name: String,
    pub(crate) obj: Arc<dyn DynLevel>,
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Level({} {})", self.game.info().name, self.name)
    }
}

/// A level of some game with the game's type erased: the [`LevelOf`] behind a [`Level`].
/// Every operation reaches the game's own level through [`crate::games::visit`] (the macro
/// [`on_game!`]), so none is declared here.
pub(crate) trait DynLevel: Send + Sync {
    /// The game's own level.
    fn as_any(&self) -> &dyn Any;
    /// The [`LevelOf`] itself, for [`crate::games::visit`].
    fn as_level_of(&self) -> &dyn Any;
}

/// A level of game `G` with its game: the [`DynLevel`] behind every [`Level`] of `G`.
pub(crate) struct LevelOf<G: Game> {
    /// The game.
    pub(crate) game: G,
    /// The game's own level.
    pub(crate) level: G::Level,
}

/// A visitor of the game's own level behind a [`Level`]: the registry's
/// [`visit`](crate::games::visit) calls it with the level's concrete game, so that an
/// operation ([`crate::request::Operation`], or a method of [`Level`] through [`on_game!`])
/// is written once over [`Game`] and declared nowhere else.
pub(crate) trait Visit {
    /// What it answers.
    type Out;
    /// Visits a level of `G`.
    fn visit<G: Game>(self, level: &LevelOf<G>) -> Self::Out;
}

impl<G: Game> DynLevel for LevelOf<G> {
    fn as_any(&self) -> &dyn Any {
        &self.level
    }
    fn as_level_of(&self) -> &dyn Any {
        self
    }
}

impl<G: Game> LevelOf<G> {
    /// The game's own moves of `moves`, each checked to be of this game.
    pub(crate) fn moves(&self, moves: &[Move]) -> Result<Vec<G::Move>, Error> {
        moves
            .iter()
            .map(|m| {
                m.typed::<G::Move>().cloned().ok_or_else(|| {
                    Error::invalid(format!(
                        "the move {m} is not a move of {}",
                        self.game.info().title
                    ))
                })
            })
            .collect()
    }
}

impl Level {
    /// Its game.
    pub fn game(&self) -> &'static dyn AnyGame {
        self.game
    }
    /// Its name: the file's title for it, else `level N` in a file of several, else the
    /// file's name without its extension.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The same level under another name.
    pub fn renamed(mut self, name: impl Into<String>) -> Level {
        self.name = name.into();
        self
    }
    /// The game's own level, if this is a level of `G`.
    pub fn typed<G: Game>(&self) -> Option<&G::Level> {
        self.obj.as_any().downcast_ref::<G::Level>()
    }
}

/// What `floe levels --json` says of one level of a file (the web page's level list and the
/// Python module's `Level.info()` say the same).
#[derive(Clone, Debug, Serialize)]
pub struct LevelEntry {
    /// 1-based place in its file.
    pub index: usize,
    /// Its name (title, else number).
    pub name: String,
    /// Its title, if it has one.
    pub title: Option<String>,
    /// Its game.
    pub game: &'static str,
    /// Rows of its picture.
    pub rows: usize,
    /// Columns of its picture.
    pub cols: usize,
    /// One line about it.
    pub description: String,
    /// The parameters in force.
    pub params: ParamValues,
}

impl LevelEntry {
    /// The entry of `level`, the `i`-th (0-based) of its file.
    pub fn of(i: usize, level: &Level) -> LevelEntry {
        let scene = level.scene();
        LevelEntry {
            index: i + 1,
            name: level.name().to_string(),
            title: level.title(),
            game: level.game().info().name,
            rows: scene.rows,
            cols: scene.cols,
            description: level.describe(),
            params: level.params(),
        }
    }
    /// The entries of every level of `levels`, a file's, in order.
    pub fn all(levels: &[Level]) -> Vec<LevelEntry> {
        levels
            .iter()
            .enumerate()
            .map(|(i, l)| LevelEntry::of(i, l))
            .collect()
    }
}
