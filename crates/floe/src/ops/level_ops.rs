//! What a [`Level`] does, each operation declared once: [`on_game!`] reaches the game's own
//! level through the registry's [`visit`](crate::games::visit). Here, above the registry,
//! rather than in [`super::level`] beside [`Level`] itself, which the registry's entries
//! ([`AnyGame`](super::AnyGame)) return: so no file imports one that imports it back.

use super::bench::bench_solvers;
use super::level::{DynLevel, Level, LevelOf, Visit};
use super::solve::{self, SolveOptions};
use super::space::{self, AnalyzeReport};
use super::step::{self, State};
use super::verdict::{self, Verdict};
use super::verify;
use crate::analysis::solvers::{SolverBench, SolverSpec};
use crate::error::Error;
use crate::game::{
    illegal_replay, replay, scene_of, story_of, Game, Move, ParamValues, Params, SolveReport,
    SpaceReport, Verified,
};
use crate::play::Session;
use crate::scene::{Scene, Story};
use crate::search::{Limits, Tally};
use std::sync::Arc;

/// Runs `$body` on the game's own level behind `$level`, written once over [`Game`]:
/// `on_game!(level, (a: A, b: B) -> Out, |g, l, lv| body)` binds the game to `g`, its level
/// to `l`, the [`LevelOf`] to `lv` and the captured `a`, `b` (references) in `body`.
macro_rules! on_game {
    ($level:expr, ($($var:ident : $ty:ty),* $(,)?) -> $out:ty, |$g:ident, $l:ident, $lv:ident| $body:expr) => {{
        struct On<'a> {
            $($var: &'a $ty,)*
            _life: std::marker::PhantomData<&'a ()>,
        }
        impl Visit for On<'_> {
            type Out = $out;
            #[allow(unused_variables)]
            fn visit<G: Game>(self, $lv: &LevelOf<G>) -> $out {
                let ($g, $l) = ($lv.game, &$lv.level);
                $(let $var = self.$var;)*
                $body
            }
        }
        let on = On {
            $($var,)*
            _life: std::marker::PhantomData,
        };
        crate::games::visit($level.obj.as_level_of(), on)
            .expect("every level is of a game of the registry")
    }};
}

impl Level {
    /// Its title in the file, if it has one.
    pub fn title(&self) -> Option<String> {
        on_game!(self, () -> Option<String>, |g, l, lv| g.title(l).map(str::to_string))
    }
    /// The level in a few words (size rows×columns, pieces, parameters).
    pub fn describe(&self) -> String {
        on_game!(self, () -> String, |g, l, lv| g.describe(l))
    }
    /// The parameters in force.
    pub fn params(&self) -> ParamValues {
        on_game!(self, () -> ParamValues, |g, l, lv| ParamValues(g.params(l)))
    }
    /// The same level with more parameters (checked against the game's).
    pub fn configure(&self, params: &Params) -> Result<Level, Error> {
        let obj = on_game!(self, (params: Params) -> Result<Arc<dyn DynLevel>, Error>, |g, l, lv| {
            params.check(g.info())?;
            let mut level = l.clone();
            g.configure(&mut level, params)?;
            Ok(Arc::new(LevelOf { game: g, level }) as Arc<dyn DynLevel>)
        })?;
        Ok(Level {
            game: self.game,
            name: self.name.clone(),
            obj,
        })
    }
    /// The level alone as a file of its game (`format`: one of the game's formats).
    pub fn to_text(&self, format: Option<&str>) -> Result<String, Error> {
        let format = &format;
        on_game!(self, (format: Option<&'a str>) -> Result<String, Error>, |g, l, lv| {
            g.write(std::slice::from_ref(l), *format)
        })
    }
    /// Its start as a scene to draw.
    pub fn scene(&self) -> Scene {
        let name = &self.name;
        on_game!(self, (name: String) -> Scene, |g, l, lv| scene_of(g, l, name, &g.start(l)))
    }
    /// Solves it (see [`SolveOptions`]): every solution replayed by the game's rules.
    pub fn solve(&self, o: &SolveOptions) -> Result<SolveReport, Error> {
        let name = &self.name;
        on_game!(self, (name: String, o: SolveOptions) -> Result<SolveReport, Error>, |g, l, lv| {
            solve::solve(g, l, name, None, o)
        })
    }
    /// A move list of its game: JSON or the game's text form.
    pub fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, Error> {
        on_game!(self, (text: str, file: str) -> Result<Vec<Move>, Error>, |g, l, lv| {
            Ok(g.parse_moves(text, file)?.into_iter().map(Move::new).collect())
        })
    }
    /// Replays moves and says whether they are legal and solve it.
    pub fn verify(&self, moves: &[Move], factor: Option<u64>) -> Result<Verified, Error> {
        let name = &self.name;
        let factor = &factor;
        on_game!(self, (name: String, moves: [Move], factor: Option<u64>) -> Result<Verified, Error>, |g, l, lv| {
            verify::verify(g, l, name, &lv.moves(moves)?, *factor)
        })
    }
    /// The story of a move list, to draw (the moves must be legal).
    pub fn story(&self, moves: &[Move]) -> Result<Story, Error> {
        let name = &self.name;
        on_game!(self, (name: String, moves: [Move]) -> Result<Story, Error>, |g, l, lv| {
            let moves = lv.moves(moves)?;
            let r = replay(g, l, &moves)
                .map_err(|(i, why)| Error::invalid(illegal_replay("the moves", &moves, i, &why)))?;
            story_of(g, l, name, &moves, &r)
        })
    }
    /// Every position reachable from the start.
    pub fn space(&self, limits: &Limits) -> Result<SpaceReport, Error> {
        let name = &self.name;
        on_game!(self, (name: String, limits: Limits) -> Result<SpaceReport, Error>, |g, l, lv| {
            space::space(g, l, name, limits)
        })
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
        struct On<'a> {
            name: &'a str,
            ex: &'a mut dyn crate::search::dist::Exchange,
            o: &'a crate::search::dist::DistOptions,
        }
        impl Visit for On<'_> {
            type Out = Result<SpaceReport, Error>;
            fn visit<G: Game>(self, lv: &LevelOf<G>) -> Self::Out {
                space::space_on(lv.game, &lv.level, self.name, self.ex, self.o)
            }
        }
        let on = On {
            name: &self.name,
            ex,
            o,
        };
        crate::games::visit(self.obj.as_level_of(), on)
            .expect("every level is of a game of the registry")
    }
    /// What [`Level::space`] (and every exhaustive walk of the level's positions) will
    /// need, judged before it starts, when the game bounds its positions.
    pub fn estimate(&self) -> Option<crate::search::Estimate> {
        on_game!(self, () -> Option<crate::search::Estimate>, |g, l, lv| {
            space::estimate_typed(g, l)
        })
    }
    /// Reversibility and dead ends of the whole state graph.
    pub fn analyze(&self, limits: &Limits) -> Result<AnalyzeReport, Error> {
        let name = &self.name;
        on_game!(self, (name: String, limits: Limits) -> Result<AnalyzeReport, Error>, |g, l, lv| {
            space::analyze(g, l, name, limits)
        })
    }
    /// Runs a randomised solver `runs` times (seeds `seed`, `seed + 1`, …) and compares its
    /// solutions with the optimum; `told` hears the runs done.
    pub fn bench_solvers(
        &self,
        spec: &SolverSpec,
        runs: u32,
        seed: u64,
        factor: Option<u64>,
        limits: &Limits,
        told: Option<&Tally>,
    ) -> Result<SolverBench, Error> {
        let (name, runs, seed, factor, told) = (&self.name, &runs, &seed, &factor, &told);
        on_game!(
            self,
            (name: String, spec: SolverSpec, runs: u32, seed: u64, factor: Option<u64>, limits: Limits, told: Option<&'a Tally>)
                -> Result<SolverBench, Error>,
            |g, l, lv| bench_solvers(g, l, name, spec, *runs, *seed, *factor, limits, *told)
        )
    }
    /// A session to play it (refused when its rules cannot be played with its parameters).
    pub fn play(&self) -> Result<Session, Error> {
        let name = &self.name;
        on_game!(self, (name: String) -> Result<Session, Error>, |g, l, lv| {
            g.check(l)?;
            Ok(Session::new(g, l.clone(), name))
        })
    }
    /// Its start, to play one move at a time (refused when its rules cannot be played with
    /// its parameters).
    pub fn start(&self) -> Result<State, Error> {
        let level = self;
        on_game!(self, (level: Level) -> Result<State, Error>, |g, l, lv| step::start(g, l, level))
    }
    /// Its learning tables ([`super::env::Table`]): the whole state graph with numbered
    /// actions, exact distances and observation planes, within `limits` (`Ok(Err(…))` when
    /// a limit stops it); refused for a game without a learning environment.
    pub fn env_table(
        &self,
        limits: &Limits,
    ) -> Result<Result<super::env::Table, super::env::Stopped>, Error> {
        let name = &self.name;
        on_game!(self, (name: String, limits: Limits) -> Result<Result<super::env::Table, super::env::Stopped>, Error>, |g, l, lv| {
            super::env::build(g, l, name, limits)
        })
    }
    /// How many actions its learning environment has (0: its game has none).
    pub fn action_count(&self) -> usize {
        on_game!(self, () -> usize, |g, l, lv| g.action_count(l))
    }
    /// The number of a move of its game in its learning environment's actions.
    pub fn action(&self, m: &Move) -> Option<usize> {
        on_game!(self, (m: Move) -> Option<usize>, |g, l, lv| {
            m.typed::<G::Move>().and_then(|m| g.action(l, m))
        })
    }
    /// The solver's answer for the start: fewest moves and the first of them.
    pub fn verdict(&self, limits: &Limits) -> Result<Verdict, Error> {
        on_game!(self, (limits: Limits) -> Result<Verdict, Error>, |g, l, lv| {
            verdict::verdict(g, l, &g.start(l), limits)
        })
    }
}
