//! A level of any game, as front ends hold it: [`AnyGame`] (a game of the registry as a
//! trait object) and [`Level`] (a level of some game, named, its parameters applied), both
//! written once over [`Game`] for every game. Behind a [`Level`] is a [`DynLevel`], the
//! game's own level ([`LevelOf`]) with its type erased.

use super::bench::bench_solvers;
use super::solve::{self, SolveOptions};
use super::space::{self, AnalyzeReport};
use super::verdict::{self, Verdict};
use super::verify;
use crate::analysis::solvers::{SolverBench, SolverSpec};
use crate::error::Error;
use crate::game::hardest::{Counts, HardestOptions, HardestReport};
use crate::game::{
    replay, scene_of, story_of, Game, Info, Move, ParamValues, Params, SolveReport, SpaceReport,
    Verified,
};
use crate::play::Session;
use crate::scene::{Scene, Story};
use crate::search::Limits;
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
    pub(super) obj: Arc<dyn DynLevel>,
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Level({} {})", self.game.info().name, self.name)
    }
}

/// A level of some game with the game's type erased: what [`Level`] asks of the game's own
/// level, each operation written once over [`Game`] (implemented by [`LevelOf`] alone).
pub(super) trait DynLevel: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn title(&self) -> Option<String>;
    fn describe(&self) -> String;
    fn params(&self) -> ParamValues;
    fn configure(&self, params: &Params) -> Result<Arc<dyn DynLevel>, Error>;
    fn write(&self, format: Option<&str>) -> Result<String, Error>;
    fn scene(&self, title: &str) -> Scene;
    fn solve(&self, name: &str, o: &SolveOptions) -> Result<SolveReport, Error>;
    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, Error>;
    fn verify(&self, name: &str, moves: &[Move], factor: Option<u64>) -> Result<Verified, Error>;
    fn story(&self, title: &str, moves: &[Move]) -> Result<Story, Error>;
    fn space(&self, name: &str, limits: &Limits) -> Result<SpaceReport, Error>;
    fn space_on(
        &self,
        name: &str,
        ex: &mut dyn crate::search::dist::Exchange,
        o: &crate::search::dist::DistOptions,
    ) -> Result<SpaceReport, Error>;
    fn estimate(&self) -> Option<crate::search::Estimate>;
    fn analyze(&self, name: &str, limits: &Limits) -> Result<AnalyzeReport, Error>;
    fn bench(
        &self,
        name: &str,
        spec: &SolverSpec,
        runs: u32,
        seed: u64,
        factor: Option<u64>,
        limits: &Limits,
    ) -> Result<SolverBench, Error>;
    fn session(&self, name: &str) -> Result<Session, Error>;
    fn verdict(&self, limits: &Limits) -> Result<Verdict, Error>;
}

/// A level of game `G` with its game: the [`DynLevel`] behind every [`Level`] of `G`.
pub(super) struct LevelOf<G: Game> {
    /// The game.
    pub(super) game: G,
    /// The game's own level.
    pub(super) level: G::Level,
}

impl<G: Game> LevelOf<G> {
    fn moves(&self, moves: &[Move]) -> Result<Vec<G::Move>, Error> {
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

impl<G: Game> DynLevel for LevelOf<G> {
    fn as_any(&self) -> &dyn Any {
        &self.level
    }
    fn title(&self) -> Option<String> {
        self.game.title(&self.level).map(str::to_string)
    }
    fn describe(&self) -> String {
        self.game.describe(&self.level)
    }
    fn params(&self) -> ParamValues {
        ParamValues(self.game.params(&self.level))
    }
    fn configure(&self, params: &Params) -> Result<Arc<dyn DynLevel>, Error> {
        params.check(self.game.info())?;
        let mut level = self.level.clone();
        self.game.configure(&mut level, params)?;
        Ok(Arc::new(LevelOf {
            game: self.game,
            level,
        }))
    }
    fn write(&self, format: Option<&str>) -> Result<String, Error> {
        self.game.write(std::slice::from_ref(&self.level), format)
    }
    fn scene(&self, title: &str) -> Scene {
        let start = self.game.start(&self.level);
        scene_of(self.game, &self.level, title, &start)
    }
    fn solve(&self, name: &str, o: &SolveOptions) -> Result<SolveReport, Error> {
        solve::solve(self.game, &self.level, name, None, o)
    }
    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, Error> {
        Ok(self
            .game
            .parse_moves(text, file)?
            .into_iter()
            .map(Move::new)
            .collect())
    }
    fn verify(&self, name: &str, moves: &[Move], factor: Option<u64>) -> Result<Verified, Error> {
        verify::verify(self.game, &self.level, name, &self.moves(moves)?, factor)
    }
    fn story(&self, title: &str, moves: &[Move]) -> Result<Story, Error> {
        let moves = self.moves(moves)?;
        let r = replay(self.game, &self.level, &moves).map_err(|(i, why)| {
            Error::invalid(format!(
                "the moves do not replay: move {} ({}) is illegal: {why}",
                i + 1,
                moves[i]
            ))
        })?;
        story_of(self.game, &self.level, title, &moves, &r)
    }
    fn space(&self, name: &str, limits: &Limits) -> Result<SpaceReport, Error> {
        space::space(self.game, &self.level, name, limits)
    }
    fn space_on(
        &self,
        name: &str,
        ex: &mut dyn crate::search::dist::Exchange,
        o: &crate::search::dist::DistOptions,
    ) -> Result<SpaceReport, Error> {
        space::space_on(self.game, &self.level, name, ex, o)
    }
    fn estimate(&self) -> Option<crate::search::Estimate> {
        space::estimate_typed(self.game, &self.level)
    }
    fn analyze(&self, name: &str, limits: &Limits) -> Result<AnalyzeReport, Error> {
        space::analyze(self.game, &self.level, name, limits)
    }
    fn bench(
        &self,
        name: &str,
        spec: &SolverSpec,
        runs: u32,
        seed: u64,
        factor: Option<u64>,
        limits: &Limits,
    ) -> Result<SolverBench, Error> {
        bench_solvers(
            self.game,
            &self.level,
            name,
            spec,
            runs,
            seed,
            factor,
            limits,
        )
    }
    fn session(&self, name: &str) -> Result<Session, Error> {
        self.game.check(&self.level)?;
        Ok(Session::new(self.game, self.level.clone(), name))
    }
    fn verdict(&self, limits: &Limits) -> Result<Verdict, Error> {
        let start = self.game.start(&self.level);
        verdict::verdict(self.game, &self.level, &start, limits)
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
    /// Its title in the file, if it has one.
    pub fn title(&self) -> Option<String> {
        self.obj.title()
    }
    /// The level in a few words (size rows×columns, pieces, parameters).
    pub fn describe(&self) -> String {
        self.obj.describe()
    }
    /// The parameters in force.
    pub fn params(&self) -> ParamValues {
        self.obj.params()
    }
    /// The same level with more parameters (checked against the game's).
    pub fn configure(&self, params: &Params) -> Result<Level, Error> {
        Ok(Level {
            game: self.game,
            name: self.name.clone(),
            obj: self.obj.configure(params)?,
        })
    }
    /// The level alone as a file of its game (`format`: one of the game's formats).
    pub fn to_text(&self, format: Option<&str>) -> Result<String, Error> {
        self.obj.write(format)
    }
    /// Its start as a scene to draw.
    pub fn scene(&self) -> Scene {
        self.obj.scene(&self.name)
    }
    /// Solves it (see [`SolveOptions`]): every solution replayed by the game's rules.
    pub fn solve(&self, o: &SolveOptions) -> Result<SolveReport, Error> {
        self.obj.solve(&self.name, o)
    }
    /// A move list of its game: JSON or the game's text form.
    pub fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, Error> {
        self.obj.parse_moves(text, file)
    }
    /// Replays moves and says whether they are legal and solve it.
    pub fn verify(&self, moves: &[Move], factor: Option<u64>) -> Result<Verified, Error> {
        self.obj.verify(&self.name, moves, factor)
    }
    /// The story of a move list, to draw (the moves must be legal).
    pub fn story(&self, moves: &[Move]) -> Result<Story, Error> {
        self.obj.story(&self.name, moves)
    }
    /// Every position reachable from the start.
    pub fn space(&self, limits: &Limits) -> Result<SpaceReport, Error> {
        self.obj.space(&self.name, limits)
    }
    /// [`Level::space`] shared by the workers that `ex` links (each calls this with the same
    /// level and options), out of core and resumable with a work directory
    /// ([`crate::search::dist`]). Needs a game whose positions have an invertible perfect
    /// hash. Every worker gets the report; `computed` says by how many workers.
    pub fn space_on(
        &self,
        ex: &mut dyn crate::search::dist::Exchange,
        o: &crate::search::dist::DistOptions,
    ) -> Result<SpaceReport, Error> {
        self.obj.space_on(&self.name, ex, o)
    }
    /// What [`Level::space`] (and every exhaustive walk of the level's positions) will
    /// need, judged before it starts, when the game bounds its positions.
    pub fn estimate(&self) -> Option<crate::search::Estimate> {
        self.obj.estimate()
    }
    /// Reversibility and dead ends of the whole state graph.
    pub fn analyze(&self, limits: &Limits) -> Result<AnalyzeReport, Error> {
        self.obj.analyze(&self.name, limits)
    }
    /// Runs a randomised solver `runs` times (seeds `seed`, `seed + 1`, …) and compares its
    /// solutions with the optimum.
    pub fn bench_solvers(
        &self,
        spec: &SolverSpec,
        runs: u32,
        seed: u64,
        factor: Option<u64>,
        limits: &Limits,
    ) -> Result<SolverBench, Error> {
        self.obj.bench(&self.name, spec, runs, seed, factor, limits)
    }
    /// A session to play it (refused when its rules cannot be played with its parameters).
    pub fn play(&self) -> Result<Session, Error> {
        self.obj.session(&self.name)
    }
    /// The solver's answer for the start: fewest moves and the first of them.
    pub fn verdict(&self, limits: &Limits) -> Result<Verdict, Error> {
        self.obj.verdict(limits)
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
}
