//! The game interface: what a game is, and nothing that is built on it.
//!
//! A game implements [`Game`] (OpenSpiel's `Game`/`State` split is the model): its
//! [`Info`] (name, parameters, algorithms, capabilities), its file format (parse, write), its
//! rules on plain positions (start, apply one move, solved: the independent validator every
//! answer is replayed by, [`replay`]), its fast engine ([`Game::engine`]: a [`Puzzle`] for the
//! generic searches, chosen and compiled by the game, handed to a [`Task`]), and its pictures
//! (a [`Scene`] per position, a [`Change`] per move). Beside the traits are the parameters,
//! the moves as files give them, and the reports every game answers with.
//!
//! This module imports nothing above it: the operations written once for every game (solve,
//! verify, space, analyze, play, a level of any game) are in [`crate::ops`], the games in
//! [`crate::games`] (whose registry lists them), and the analyses in [`crate::analysis`].
//!
//! ```
//! use floe::games;
//! use floe::ops::{Request, SolveOptions};
//! let text = "Game: pushpush\nTitle: tiny\n@$--\n##-.\n";
//! let req = Request::from_text(text, "tiny.txt").params("k=1").resolve().unwrap();
//! let r = req.level.solve(&SolveOptions::default()).unwrap();
//! assert_eq!((r.game, r.length), ("pushpush", Some(1)));
//! assert_eq!(games::find("ice").unwrap().info().title, "ice blocks");
//! ```

pub mod dataset;
pub mod hardest;
mod info;
mod moves;
mod replay;
mod report;

pub use info::{
    glyph, split_spec, Algo, AlgoMethod, Capabilities, Cells, Glyph, Info, Keys, Learning, Look,
    Param, ParamKind, Params, Sample,
};
pub use moves::{parse_move_list, parse_move_words};
pub(crate) use replay::KeptReplay;
pub use replay::{illegal_replay, replay, scene_of, story_of, Replayed};
pub use report::{
    factor_of, kluiver, Computed, Difficulty, ExactDetails, IllegalMove, Move, ParamValues,
    RandomDetails, SolveDetails, SolveReport, SpaceReport, Status, Verified, DEFAULT_FACTOR,
    MAX_FACTOR,
};

use crate::error::Error;
use crate::grid::{Dir, Pos};
use crate::scene::{Change, Scene};
use crate::search::Puzzle;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// The pieces a dead core of a position is chosen from ([`Game::core_pieces`]), and how
/// the explanation speaks of a dead set of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorePieces {
    /// Their kind, in the plural: `blocks`, `targets`, `fires`, `rocks`.
    pub kind: &'static str,
    /// Their cells, in the order subsets are tried.
    pub cells: Vec<Pos>,
    /// What one dead piece can no longer do, after "this block" ("can no longer reach a
    /// target").
    pub one: &'static str,
    /// What several dead pieces can no longer do, after "these two blocks" ("can no longer
    /// all reach targets").
    pub many: &'static str,
    /// What is lost when no piece is needed to lose it ("the walls alone keep the robot from
    /// the target").
    pub none: &'static str,
}

/// Positions restricted to some of their pieces ([`Game::restricted`]): each a level and the
/// position to solve it from.
pub type Restricted<G> = Vec<(<G as Game>::Level, <G as Game>::Position)>;

/// Every choice of `k` of `items`, in order (for [`Game::restricted`]'s choices).
pub fn choices<T: Copy>(items: &[T], k: usize) -> Vec<Vec<T>> {
    let n = items.len();
    if k > n {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut at: Vec<usize> = (0..k).collect();
    loop {
        out.push(at.iter().map(|&i| items[i]).collect());
        if !next_choice(&mut at, n) {
            return out;
        }
    }
}

/// The choice of `at.len()` of `0..n` after `at` (sorted indices) in lexicographic order;
/// false when `at` was the last.
pub fn next_choice(at: &mut [usize], n: usize) -> bool {
    let k = at.len();
    let Some(i) = (0..k).rev().find(|&i| at[i] < n - k + i) else {
        return false;
    };
    at[i] += 1;
    for j in i + 1..k {
        at[j] = at[j - 1] + 1;
    }
    true
}

/// A game's fast engine: a [`Puzzle`] for the generic searches whose moves the game can name.
///
/// The bounds every generic algorithm needs (states shared between threads, moves copied into
/// search nodes) are part of it, so a [`Task`] can run any of them.
pub trait Engine: Puzzle<State: Send + Sync + 'static, Move: Copy + Send + Sync> + Sync {
    /// The game's move (what the player and the files see).
    type Public;
    /// The game's name for an engine move.
    fn public(&self, m: &Self::Move) -> Self::Public;
    /// The cells holding a piece (a block) in `s`, for analyses by cell (reach tables). Empty
    /// by default.
    fn pieces(&self, _s: &Self::State) -> Vec<Pos> {
        Vec::new()
    }
    /// Why the start position cannot be solved, when the engine sees it at once (nothing is
    /// then searched).
    fn dead_start(&self) -> Option<String> {
        None
    }
    /// `fast`, or `plain` for an engine that is the plain rules themselves.
    fn kind(&self) -> &'static str {
        "fast"
    }
}

impl<P: Engine> Engine for crate::search::StartAt<'_, P> {
    type Public = P::Public;
    fn public(&self, m: &Self::Move) -> P::Public {
        self.puzzle.public(m)
    }
    fn pieces(&self, s: &Self::State) -> Vec<Pos> {
        self.puzzle.pieces(s)
    }
    fn kind(&self) -> &'static str {
        self.puzzle.kind()
    }
}

/// Work to do on a game's engine, whatever its concrete type: the one way to reach a game's
/// [`Puzzle`] (games pick the bit-set width of their states when they compile a level, so the
/// engine's type is known only inside [`Game::engine`]).
pub trait Task<M> {
    /// What the work returns.
    type Output;
    /// Does the work on the compiled level.
    fn run<E: Engine<Public = M>>(self, engine: &E) -> Self::Output;
}

/// What an arrow key does in play (see [`Game::arrow`]).
#[derive(Clone, Debug)]
pub enum ArrowKey<M, P> {
    /// A move.
    Move(M),
    /// The player walks to the cell (no move is counted); the new position.
    Walk(P, Pos),
    /// Nothing happens, for this reason.
    Blocked(String),
    /// The arrows do not play this game (or need a selected block first).
    Nothing,
}

impl<M, P: Clone> ArrowKey<M, P> {
    /// The player walks on a copy of `pos`: `walk` moves the player on it and says where to,
    /// or why the player cannot go.
    pub fn walk<E: fmt::Display>(pos: &P, walk: impl FnOnce(&mut P) -> Result<Pos, E>) -> Self {
        let mut p = pos.clone();
        match walk(&mut p) {
            Ok(to) => ArrowKey::Walk(p, to),
            Err(why) => ArrowKey::Blocked(why.to_string()),
        }
    }
}

/// A game: what it is, its files, its rules, its engine and its pictures. Implemented by
/// one unit struct per game (`games::ice::Ice`); everything else is written once over it.
pub trait Game: Copy + Default + Send + Sync + 'static {
    /// A level as read from a file, with its parameters.
    type Level: Clone + Send + Sync + 'static;
    /// A move, as files, JSON and people write it.
    type Move: Clone + PartialEq + fmt::Debug + fmt::Display + Serialize + Send + Sync + 'static;
    /// A position on the plain rules (not the engine's compact state).
    type Position: Clone + fmt::Debug + Send + Sync + 'static;
    /// What one move did, as the replay saw it; its `Display` is the line printed for the move
    /// in a solution (`(3, 4) up → (0, 4)`).
    type Step: Clone + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// Static facts: name, parameters, algorithms, capabilities.
    fn info(&self) -> &'static Info;

    /// Every level of a file, or one error with its line and column. `format` is one of
    /// [`Info::formats`] (`None`: the game detects it).
    fn parse(
        &self,
        text: &str,
        file: &str,
        format: Option<&str>,
    ) -> Result<Vec<Self::Level>, Error>;
    /// Levels in a file format of the game (`None`: the first of [`Info::formats`]).
    fn write(&self, levels: &[Self::Level], format: Option<&str>) -> Result<String, Error>;
    /// The level's title, if the file gives one.
    fn title<'a>(&self, level: &'a Self::Level) -> Option<&'a str>;
    /// The level in a few words: size, pieces, parameters (`7×7 board, 3 blocks, 3 targets,
    /// rules free`). Sizes are rows×columns.
    fn describe(&self, level: &Self::Level) -> String;
    /// Applies parameters (already checked against [`Info::params`]). Default: nothing to
    /// apply (a game without parameters).
    fn configure(&self, _level: &mut Self::Level, _params: &Params) -> Result<(), Error> {
        Ok(())
    }
    /// The parameters in force, for reports (`{"k": 1}`). Default: none.
    fn params(&self, _level: &Self::Level) -> Vec<(&'static str, Value)> {
        Vec::new()
    }
    /// Refuses a level its rules cannot be played on with these parameters (Ice Tower's
    /// arrows without `dynamic`). Every operation that plays, solves or replays asks first;
    /// drawing and listing do not. Default: every level can be played.
    fn check(&self, _level: &Self::Level) -> Result<(), Error> {
        Ok(())
    }

    /// The start position.
    fn start(&self, level: &Self::Level) -> Self::Position;
    /// Plays one move on the plain rules, or says why it is illegal. This is the validator:
    /// it shares no code with the engine.
    fn apply(
        &self,
        level: &Self::Level,
        pos: &mut Self::Position,
        m: &Self::Move,
    ) -> Result<Self::Step, String>;
    /// Whether the position solves the level.
    fn solved(&self, level: &Self::Level, pos: &Self::Position) -> bool;
    /// A move list: JSON (a list of moves, or a `floe solve --json` document) or the game's
    /// text form, one move per line.
    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Self::Move>, Error>;
    /// The game's difficulty of a solution (`None` when the game has no measure). `steps` is
    /// the replay of `moves`; `factor` is the block-change factor where one applies.
    fn difficulty(
        &self,
        _level: &Self::Level,
        _moves: &[Self::Move],
        _steps: &[Self::Step],
        _factor: u64,
    ) -> Result<Option<Difficulty>, Error> {
        Ok(None)
    }
    /// The position in the game's text notation.
    fn position_text(&self, level: &Self::Level, pos: &Self::Position) -> String;
    /// A key that tells positions apart for the solver: positions with the same key have the
    /// same answers (walking within a region changes nothing). Default: the text.
    fn position_key(&self, level: &Self::Level, pos: &Self::Position) -> String {
        self.position_text(level, pos)
    }

    /// Compiles the level (from `from` instead of its start, when given) into the game's
    /// engine and runs `task` on it.
    fn engine<T: Task<Self::Move>>(
        &self,
        level: &Self::Level,
        from: Option<&Self::Position>,
        task: T,
    ) -> Result<T::Output, Error>;

    /// The scene of a position (its title is set by the caller).
    fn scene(&self, level: &Self::Level, pos: &Self::Position) -> Scene;
    /// What a move does to the scene of `before`; `step` is its replay.
    fn change(
        &self,
        level: &Self::Level,
        before: &Self::Position,
        m: &Self::Move,
        step: &Self::Step,
    ) -> Change;

    /// What an arrow key does at `pos` (`selected`: the selected block, for games that select
    /// one). Default: nothing.
    fn arrow(
        &self,
        _level: &Self::Level,
        _pos: &Self::Position,
        _dir: Dir,
        _selected: Option<Pos>,
    ) -> ArrowKey<Self::Move, Self::Position> {
        ArrowKey::Nothing
    }
    /// The blocks a player can select at `pos`, row by row (games played by selecting a
    /// block). Default: none.
    fn selectable(&self, _level: &Self::Level, _pos: &Self::Position) -> Vec<Pos> {
        Vec::new()
    }
    /// Where the moved block rests after a move (the new selection). Default: none.
    fn rests(&self, _step: &Self::Step) -> Option<Pos> {
        None
    }
    /// The block a move moves (selected when the move is taken back). Default: none.
    fn moved_block(&self, _m: &Self::Move) -> Option<Pos> {
        None
    }

    /// The pieces of `pos` a dead core is chosen from ([`crate::ops::explain`]): the blocks,
    /// targets, fires or rocks whose every subset the explanation may try alone. Default:
    /// none (a game without a notion of a lost position, such as the solitaires).
    fn core_pieces(&self, _level: &Self::Level, _pos: &Self::Position) -> Option<CorePieces> {
        None
    }
    /// `pos` restricted to the pieces at `keep` (cells of [`Game::core_pieces`]; the others
    /// taken away), as the levels to solve from the position given with each: the
    /// restriction is dead when none of them can be solved. Most games give one; ice blocks
    /// whose blocks must each find a target give one per choice of as many targets.
    fn restricted(
        &self,
        _level: &Self::Level,
        _pos: &Self::Position,
        _keep: &[Pos],
    ) -> Result<Restricted<Self>, Error> {
        Err(Error::invalid(format!(
            "{} has no pieces to explain a lost position by",
            self.info().title
        )))
    }

    /// How many actions the level's learning environment has ([`Learning`]): every move of
    /// the level has a number below it ([`Game::action`]). Default: none (a game without a
    /// learning environment).
    fn action_count(&self, _level: &Self::Level) -> usize {
        0
    }
    /// The number of a move in the level's fixed action encoding ([`Learning::actions`]
    /// says it in words), below [`Game::action_count`]; `None` for a move the encoding
    /// cannot name. Default: none.
    fn action(&self, _level: &Self::Level, _m: &Self::Move) -> Option<usize> {
        None
    }

    /// Random boards of a size, each labelled exactly and drawn as the observation of its
    /// learning environment ([`dataset`]). Default: refused, for a game that draws none.
    fn dataset(&self, _o: &dataset::DatasetOptions) -> Result<dataset::Dataset, Error> {
        Err(dataset::none(self.info().title))
    }

    /// The hardest levels of a size (`floe hardest`, [`crate::generate::hardest`]): the
    /// game's own search, whose levels [`crate::generate::hardest::report`] verifies, with the
    /// game's counts read from `counts` into its typed options (a count it does not have is
    /// refused). Default: refused, for a game that has no such search.
    fn hardest(
        &self,
        _o: &hardest::HardestOptions,
        _counts: &hardest::Counts,
    ) -> Result<hardest::HardestReport, Error> {
        Err(Error::invalid(format!(
            "floe hardest searches ice blocks, PushPush and the ice path, not {}",
            self.info().title
        )))
    }
}
