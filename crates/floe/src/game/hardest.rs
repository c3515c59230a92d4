//! What `floe hardest` is asked and answers, for every game that has such a search
//! ([`Game::hardest`](super::Game::hardest)): the options ([`HardestOptions`]: the size, the
//! counts, exact or annealing, what is maximised) and the verified report
//! ([`HardestReport`]). The searches themselves are in [`crate::generate::hardest`].

use super::{Move, ParamValues, Params};
use crate::error::Error;
use crate::search::Limits;
use serde::Serialize;
use serde_json::{Map, Value};

/// Exact searches refuse to start beyond this many placements (boards times starts, or
/// rooms times block sets, up to symmetry): at a few million a second on one core that is
/// about an hour.
pub const MAX_EXACT: u64 = 10_000_000_000;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// Every placement up to symmetry: the answer is the hardest there is.
    #[default]
    Exact,
    /// Simulated annealing from seeded restarts: the longest found, no proof.
    Anneal,
}

impl Method {
    /// `exact` or `anneal`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::Anneal => "anneal",
        }
    }
}

/// What "hardest" measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum By {
    /// The fewest moves (pushes) of a solution.
    #[default]
    Length,
    /// The least difficulty of a solution (games with a difficulty measure: ice blocks,
    /// Kluiver's pushes + factor × block changes).
    Difficulty,
}

impl By {
    /// `length` or `difficulty`.
    pub fn name(self) -> &'static str {
        match self {
            By::Length => "length",
            By::Difficulty => "difficulty",
        }
    }
}

/// What to search for. Counts a game does not use must stay `None` (each game refuses the
/// others by their flag names).
#[derive(Clone, Debug)]
pub struct HardestOptions {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The game's parameters (`rules`, `k`).
    pub params: Params,
    /// Ice path: rocks on the board.
    pub rocks: Option<usize>,
    /// Ice blocks: blocks.
    pub blocks: Option<usize>,
    /// Ice blocks: targets (default 1).
    pub targets: Option<usize>,
    /// Ice blocks: at most this many walls inside the room.
    pub walls: Option<usize>,
    /// Ice blocks: at most this many normal floor cells inside the room.
    pub floor: Option<usize>,
    /// What is maximised.
    pub by: By,
    /// Block-change factor of the difficulty (default [`DEFAULT_FACTOR`](super::DEFAULT_FACTOR)).
    pub factor: Option<u64>,
    /// Exact or annealing.
    pub method: Method,
    /// Seed of the annealing.
    pub seed: u64,
    /// Annealing restarts, each from its own seed.
    pub restarts: usize,
    /// Annealing steps per restart.
    pub steps: u64,
    /// How many levels to list, longest first.
    pub top: usize,
    /// `timeout` bounds the run (the annealing stops there and reports its best; an exact
    /// search stopped by it is not exhaustive); the stop flag and Ctrl-C end it too.
    pub limits: Limits,
    /// Refuse an exact search of more placements than this.
    pub max_exact: u64,
}

impl HardestOptions {
    /// An exact search of a `rows × cols` board, 10 levels listed.
    pub fn new(rows: usize, cols: usize) -> HardestOptions {
        HardestOptions {
            rows,
            cols,
            params: Params::new(),
            rocks: None,
            blocks: None,
            targets: None,
            walls: None,
            floor: None,
            by: By::Length,
            factor: None,
            method: Method::Exact,
            seed: 1,
            restarts: 8,
            steps: 20_000,
            top: 10,
            limits: Limits::none(),
            max_exact: MAX_EXACT,
        }
    }

    /// Refuses a count that this game does not use, by its flag.
    pub fn refuse(&self, game: &str, unused: &[(&str, bool)]) -> Result<(), Error> {
        for &(flag, given) in unused {
            if given {
                return Err(Error::invalid(format!("--{flag} does not apply to {game}")));
            }
        }
        Ok(())
    }

    /// The refusal of an exact search of `count` placements, when it is over `cap`.
    pub fn check_exact(&self, count: u64, cap: u64, what: &str) -> Result<(), Error> {
        if count > cap {
            return Err(Error::invalid(format!(
                "an exact search of {what} would try {} placements, more than the {} it takes; \
                 use --anneal (with --seed and --time) instead",
                crate::render::thousands(count),
                crate::render::thousands(cap)
            )));
        }
        Ok(())
    }
}

/// One level of the answer, verified.
#[derive(Clone, Debug, Serialize)]
pub struct HardLevel {
    /// The level file.
    pub level: String,
    /// Fewest moves.
    pub length: u64,
    /// Least difficulty (`--by difficulty`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<u64>,
    /// An optimal solution (fewest moves), as the exact solver found it.
    pub moves: Vec<Move>,
    /// What the game says of the level.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The answer of `floe hardest --json`.
#[derive(Clone, Debug, Serialize)]
pub struct HardestReport {
    /// The game's name.
    pub game: &'static str,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The counts searched (`rocks`; `blocks`, `targets`, `walls`, `floor`).
    pub counts: Map<String, Value>,
    /// The game's parameters.
    pub params: ParamValues,
    /// `exact` or `anneal`.
    pub method: &'static str,
    /// `length` or `difficulty`.
    pub by: &'static str,
    /// The annealing's seed, restarts and steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Annealing restarts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restarts: Option<usize>,
    /// Annealing steps per restart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// Placements evaluated.
    pub searched: u64,
    /// Every placement was evaluated: the first level is the hardest there is.
    pub exhaustive: bool,
    /// Levels of the best value up to symmetry (exact searches).
    pub best_count: Option<u64>,
    /// The limit that stopped the search (`timeout`, `interrupted`).
    pub limit: Option<&'static str>,
    /// Wall-clock seconds, the verification included.
    pub seconds: f64,
    /// The levels, hardest first.
    pub levels: Vec<HardLevel>,
}
