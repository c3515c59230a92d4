//! One resolved request (ripgrep's `HiArgs` is the model): a level file read once, its game
//! detected, its level picked, the game's parameters applied. Every command of every front
//! end starts from one.

use super::level::{AnyGame, Level, LevelOf};
use crate::error::Error;
use crate::game::{Game, Params};
use crate::games::{find, game_line, spec};
use crate::input;
use std::path::Path;
use std::sync::Arc;

/// Every level of one file, of one game.
#[derive(Clone, Debug)]
pub struct LevelFile {
    /// The game.
    pub game: &'static dyn AnyGame,
    /// The file's name in messages (`<stdin>` for standard input).
    pub file: String,
    /// Its levels, named, with the parameters applied.
    pub levels: Vec<Level>,
}

impl LevelFile {
    /// Picks a level: `sel` is a 1-based number or a title (without regard to case); without
    /// it, the file's only level. Returns its 0-based index and the level.
    pub fn pick(&self, sel: Option<&str>) -> Result<(usize, Level), Error> {
        match sel {
            Some(s) => {
                input::select_titled(&self.levels, s, |l| l.title()).map(|(i, l)| (i, l.clone()))
            }
            None if self.levels.len() == 1 => Ok((0, self.levels[0].clone())),
            None => {
                let names: Vec<String> = self
                    .levels
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("{} {}", i + 1, l.name()))
                    .collect();
                Err(Error::invalid(format!(
                    "{} holds {} levels; pick one with --level N or --level NAME ({})",
                    self.file,
                    self.levels.len(),
                    names.join(", ")
                )))
            }
        }
    }
}

/// What a command asks for, before it is resolved: where the level comes from and how to
/// read it. Build it with [`Request::from_path`] or [`Request::from_text`], set what the
/// user gave, then [`Request::resolve`] (one level) or [`Request::read`] (the whole file).
#[derive(Clone, Debug, Default)]
pub struct Source {
    path: Option<std::path::PathBuf>,
    text: Option<(String, String)>,
    game: Option<String>,
    level: Option<String>,
    format: Option<String>,
    params: Params,
}

/// A resolved request: the level a command works on, and where it came from.
#[derive(Clone, Debug)]
pub struct Request {
    /// The game.
    pub game: &'static dyn AnyGame,
    /// The level, named, with its parameters applied.
    pub level: Level,
    /// The file's name in messages.
    pub file: String,
    /// Which level of the file it is (0-based).
    pub index: usize,
}

impl Request {
    /// A request for a level file (`-`: standard input).
    pub fn from_path(path: impl AsRef<Path>) -> Source {
        Source {
            path: Some(path.as_ref().to_path_buf()),
            ..Source::default()
        }
    }
    /// A request for a level file's text; `name` names it in messages.
    pub fn from_text(text: impl Into<String>, name: impl Into<String>) -> Source {
        Source {
            text: Some((text.into(), name.into())),
            ..Source::default()
        }
    }
}

impl Source {
    /// The game, by name or spec (`pushpush(k=2)`); without it a `Game:` line decides, else
    /// the first game of the registry (ice blocks).
    pub fn game(mut self, spec: Option<&str>) -> Source {
        self.game = spec.map(str::to_string);
        self
    }
    /// Which level: a 1-based number or a title.
    pub fn level(mut self, sel: Option<&str>) -> Source {
        self.level = sel.map(str::to_string);
        self
    }
    /// The file format, when it must not be detected.
    pub fn format(mut self, format: Option<&str>) -> Source {
        self.format = format.map(str::to_string);
        self
    }
    /// Parameters given as `k=2,dynamic`; they override the file's.
    pub fn params(mut self, text: &str) -> Source {
        if let Ok(p) = Params::parse(text) {
            self.params = p.or(&self.params);
        }
        self
    }
    /// Parameters given by flags; they override the file's.
    pub fn with_params(mut self, params: Params) -> Source {
        self.params = params.or(&self.params);
        self
    }

    /// Reads the file once, detects the game and parses every level.
    pub fn read(&self) -> Result<LevelFile, Error> {
        let (text, file) = match (&self.text, &self.path) {
            (Some((t, n)), _) => (t.clone(), n.clone()),
            (None, Some(p)) => input::read_text(p)?,
            (None, None) => return Err(Error::invalid("no level file given")),
        };
        let text = input::unify_line_ends(text);
        let from_line = game_line(&text, &file)?;
        let (game, params) = match (&self.game, from_line) {
            (Some(s), line) => {
                let (g, p) = spec(s)?;
                // the file's parameters apply only when it is a file of the same game
                let line = line
                    .filter(|(lg, _)| lg.info().name == g.info().name)
                    .map(|(_, lp)| lp)
                    .unwrap_or_default();
                (g, p.or(&line))
            }
            (None, Some((g, p))) => (g, p),
            (None, None) => (crate::games::all()[0], Params::new()),
        };
        let params = self.params.clone().or(&params);
        let levels = game.read(&text, &file, self.format.as_deref(), &params)?;
        Ok(LevelFile { game, file, levels })
    }

    /// Reads the file and picks the level.
    pub fn resolve(&self) -> Result<Request, Error> {
        let f = self.read()?;
        let (index, level) = f.pick(self.level.as_deref())?;
        Ok(Request {
            game: f.game,
            level,
            file: f.file,
            index,
        })
    }
}

/// A level made in code, whose game is found in the registry (here, above the registry,
/// rather than beside the rest of [`Level`], which the registry's entries return).
impl Level {
    /// A level of game `g` made in code (not read from a file), named `name`.
    pub fn new<G: Game>(g: G, level: G::Level, name: impl Into<String>) -> Level {
        Level {
            game: find(g.info().name).expect("every game is in the registry"),
            name: name.into(),
            obj: Arc::new(LevelOf { game: g, level }),
        }
    }
}

/// The level of `game` whose file, but for its `Game:` line, is `text`, for tests.
#[cfg(test)]
pub(crate) fn level_of(game: &str, text: &str) -> Level {
    Request::from_text(format!("Game: {game}\n{text}"), "t")
        .resolve()
        .unwrap()
        .level
}
