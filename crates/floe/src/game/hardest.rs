//! What `floe hardest` is asked and answers, for every game that has such a search
//! ([`Game::hardest`](super::Game::hardest)): the options every game shares
//! ([`HardestOptions`]: the size, exact or annealing, what is maximised), the counts of the
//! game's own options by name ([`Counts`], the form the erased face carries) and the
//! verified report ([`HardestReport`]). Each game's typed options (its counts, their defaults
//! and ranges) are beside its search: `IceHardest` and `PushPushHardest` in
//! [`crate::generate::hardest`], the ice path's in its folder.

use super::{Info, Move, ParamValues, Params};
use crate::error::Error;
use crate::search::{Limits, Tally};
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

/// What every game's search is asked (the game's own counts are its typed options, or
/// [`Counts`] through the erased face).
#[derive(Clone, Debug)]
pub struct HardestOptions {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The game's parameters (`rules`, `k`).
    pub params: Params,
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
    /// Told each new best length of an anytime annealing (`--time`), with the seconds
    /// since the start (the command line prints it; the library prints nothing).
    pub on_best: Option<OnBest>,
    /// Told how far the search is ([`Tally`]): the exact search's parts done of all its parts
    /// (each part the placements that share their first pieces), the annealing's steps of all
    /// its steps or, with a time limit, milliseconds of the limit; PushPush's census tells its
    /// progress through `limits`.
    pub progress: Option<Tally>,
}

/// A callback told each new best length of an anytime search and the seconds it took.
#[derive(Clone)]
pub struct OnBest(pub std::sync::Arc<dyn Fn(u64, f64) + Send + Sync>);

impl std::fmt::Debug for OnBest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnBest")
    }
}

impl HardestOptions {
    /// An exact search of a `rows × cols` board, 10 levels listed.
    pub fn new(rows: usize, cols: usize) -> HardestOptions {
        HardestOptions {
            rows,
            cols,
            params: Params::new(),
            by: By::Length,
            factor: None,
            method: Method::Exact,
            seed: 1,
            restarts: 8,
            steps: 20_000,
            top: 10,
            limits: Limits::none(),
            max_exact: MAX_EXACT,
            on_best: None,
            progress: None,
        }
    }

    /// Refuses what no game's search takes: parameters that are not the game's (`info`), no
    /// level to list, an annealing without a restart or a step. Every search checks it
    /// first, so a typed call is checked as [`crate::ops::hardest()`] is.
    pub fn check(&self, info: &Info) -> Result<(), Error> {
        self.params.check(info)?;
        if self.top == 0 {
            return Err(Error::invalid("--top must list at least one level"));
        }
        if self.method == Method::Anneal && (self.restarts == 0 || self.steps == 0) {
            return Err(Error::invalid(
                "the annealing needs at least one restart and one step",
            ));
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

/// A game's counts by name (`rocks`; `blocks`, `targets`, `walls`, `floor`), as the front ends
/// give them to [`crate::ops::hardest()`] and [`Game::hardest`](super::Game::hardest)
/// carries them: each game reads the names it knows into its own typed options (defaults
/// for the counts not given) and refuses the first other one by its flag, in the order they
/// were given.
///
/// ```
/// use floe::game::hardest::Counts;
/// let c = Counts::new().with("blocks", 3).with("walls", 2);
/// assert_eq!(c.get("blocks"), Some(3));
/// let [blocks, walls, floor] = c.read("a room", ["blocks", "walls", "floor"]).unwrap();
/// assert_eq!((blocks, walls, floor), (Some(3), Some(2), None));
/// let e = c.read("a game of blocks (it counts --blocks)", ["blocks"]).unwrap_err();
/// assert_eq!(e.to_string(), "--walls does not apply to a game of blocks (it counts --blocks)");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    given: Vec<(String, usize)>,
}

impl Counts {
    /// No count given: every game's defaults.
    pub fn new() -> Counts {
        Counts::default()
    }
    /// `name` set to `value`, for chaining.
    pub fn with(mut self, name: &str, value: usize) -> Counts {
        self.set(name, value);
        self
    }
    /// Sets `name` to `value` (a name given again keeps its place, with the new value).
    pub fn set(&mut self, name: &str, value: usize) {
        match self.given.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.given.push((name.to_string(), value)),
        }
    }
    /// Sets `name` when a value is given (a flag or keyword left out sets nothing).
    pub fn set_given(&mut self, name: &str, value: Option<usize>) {
        if let Some(v) = value {
            self.set(name, v);
        }
    }
    /// The value given for `name`.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.given.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }
    /// Whether no count is given.
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
    }
    /// The counts in the order they were given: name and value.
    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        self.given.iter().map(|(n, v)| (n.as_str(), *v))
    }
    /// The values of the names `known` (each `None` when not given), or the refusal of the
    /// first count given that is not one of them: `--NAME does not apply to GAME`.
    pub fn read<const N: usize>(
        &self,
        game: &str,
        known: [&str; N],
    ) -> Result<[Option<usize>; N], Error> {
        if let Some((name, _)) = self
            .given
            .iter()
            .find(|(n, _)| !known.contains(&n.as_str()))
        {
            return Err(Error::invalid(format!("--{name} does not apply to {game}")));
        }
        Ok(known.map(|name| self.get(name)))
    }
    /// The counts as the report's `counts` map (name → number).
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(n, v)| (n.to_string(), Value::from(v)))
            .collect()
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
    /// The counts searched (`rocks`; `blocks`, `targets`, `walls`, `floor`; PushPush's census:
    /// `boards`, `hardest_boards`).
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

impl HardestReport {
    /// Each level's text and fewest moves, hardest first (what two searches that should
    /// agree are compared by).
    pub fn level_lengths(&self) -> Vec<(String, u64)> {
        self.levels
            .iter()
            .map(|l| (l.level.clone(), l.length))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_keep_the_order_they_were_given_in() {
        let mut c = Counts::new();
        assert!(c.is_empty());
        c.set_given("walls", Some(2));
        c.set_given("rocks", None);
        c.set("blocks", 3);
        c.set("walls", 1);
        assert_eq!(c.iter().collect::<Vec<_>>(), [("walls", 1), ("blocks", 3)]);
        assert_eq!((c.get("walls"), c.get("rocks")), (Some(1), None));
        assert_eq!(c, Counts::new().with("walls", 1).with("blocks", 3));
        let map = c.to_map();
        assert_eq!(
            (map["walls"].as_u64(), map["blocks"].as_u64()),
            (Some(1), Some(3))
        );
        assert_eq!(map.len(), 2);
    }

    #[test]
    fn a_game_reads_its_counts_and_refuses_the_first_other() {
        let c = Counts::new().with("blocks", 2).with("floor", 1);
        assert_eq!(
            c.read("g", ["blocks", "targets", "floor"]).unwrap(),
            [Some(2), None, Some(1)]
        );
        assert_eq!(Counts::new().read("g", ["rocks"]).unwrap(), [None]);
        // the first count given that the game does not know, by its flag
        let two = Counts::new()
            .with("floor", 1)
            .with("blocks", 2)
            .with("rocks", 3);
        let e = two
            .read("the toy (it counts --rocks)", ["rocks"])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "--floor does not apply to the toy (it counts --rocks)"
        );
        let e = two.read("PushPush", []).unwrap_err();
        assert_eq!(e.to_string(), "--floor does not apply to PushPush");
    }
}
