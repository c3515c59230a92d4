//! What the game face answers: one shape for every game, the JSON contract of every front
//! end.

use super::Game;
use crate::error::Error;
use crate::scene::Story;
use crate::search::playout::SolverSpec;
use crate::search::{LimitKind, Stats};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A move of any game: its JSON form (the contract), its text form (what people read), and
/// the game's own value behind them.
#[derive(Clone)]
pub struct Move {
    typed: Arc<dyn Any + Send + Sync>,
    json: Value,
    text: String,
}

impl Move {
    /// Wraps a game's move.
    pub fn new<M: Serialize + fmt::Display + Send + Sync + 'static>(m: M) -> Move {
        let json = serde_json::to_value(&m).unwrap_or(Value::Null);
        let text = m.to_string();
        Move {
            typed: Arc::new(m),
            json,
            text,
        }
    }
    /// The move as JSON (`{"row": 3, "col": 4, "dir": "up"}` for a push).
    pub fn json(&self) -> &Value {
        &self.json
    }
    /// The move as text.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// The game's own move, if it is of type `M`.
    pub fn typed<M: 'static>(&self) -> Option<&M> {
        self.typed.downcast_ref()
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.text)
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.json == other.json
    }
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A solution was found and replayed.
    Solved,
    /// Every reachable position was explored (or the start is dead): there is none.
    Unsolvable,
    /// A limit stopped the search before it could answer.
    Limit,
    /// A randomised solver ended without a solution: no proof of anything.
    GaveUp,
}

impl Status {
    /// `solved`, `unsolvable`, `limit` or `gave-up`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
            Status::GaveUp => "gave-up",
        }
    }
    /// Whether this is an answer (solved or proved unsolvable): exit code 0 on the command
    /// line, 1 otherwise.
    pub fn answered(self) -> bool {
        matches!(self, Status::Solved | Status::Unsolvable)
    }
}

/// A solution's difficulty in one shape for every measure: the measure's name, its value,
/// and the figures it is made of.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difficulty {
    /// The measure: `kluiver` (moves + factor × block changes), `push-tree` (the PushPush
    /// thesis's equation 3).
    pub measure: &'static str,
    /// Its value.
    pub value: Value,
    /// The figures it is made of (`pushes`, `block_changes`, `factor`; `possible_moves`,
    /// `solutions`).
    #[serde(flatten)]
    pub parts: Map<String, Value>,
}

impl Difficulty {
    /// A measure with its value and parts.
    pub fn new(measure: &'static str, value: impl Into<Value>) -> Difficulty {
        Difficulty {
            measure,
            value: value.into(),
            parts: Map::new(),
        }
    }
    /// Adds a part.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Difficulty {
        self.parts.insert(key.to_string(), value.into());
        self
    }
    /// The value as a number.
    pub fn value_f64(&self) -> f64 {
        self.value.as_f64().unwrap_or(f64::NAN)
    }
    /// A part as a whole number.
    pub fn part_u64(&self, key: &str) -> Option<u64> {
        self.parts.get(key).and_then(Value::as_u64)
    }
}

impl fmt::Display for Difficulty {
    /// The measure in words: `difficulty 24 (9 pushes + 5 × 3 block changes)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |k: &str| self.parts.get(k).map(|v| v.to_string()).unwrap_or_default();
        match self.measure {
            "kluiver" => write!(
                f,
                "difficulty {} ({} pushes + {} × {} block changes)",
                self.value,
                part("pushes"),
                part("factor"),
                part("block_changes")
            ),
            "push-tree" => {
                let n = |k: &str, one: &str, many: &str| {
                    crate::render::plural(self.part_u64(k).unwrap_or(0) as usize, one, many)
                };
                write!(
                    f,
                    "difficulty {:.3} (thesis equation 3: {} among the {} of the tree of push \
                     sequences up to {})",
                    self.value_f64(),
                    n("solutions", "solution", "solutions"),
                    n("possible_moves", "move", "moves"),
                    n("pushes", "push", "pushes")
                )
            }
            other => write!(f, "difficulty {} ({other})", self.value),
        }
    }
}

/// Parameters in force, as a JSON object in their order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamValues(pub Vec<(&'static str, Value)>);

impl Serialize for ParamValues {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl fmt::Display for ParamValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k} {s}"),
                Value::Bool(true) => k.to_string(),
                Value::Bool(false) => format!("no {k}"),
                other => format!("{k} {other}"),
            })
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// The replayed solution behind a report: the pictures and boards are drawn from it without
/// replaying again.
pub(crate) trait ReplayObj: Send + Sync {
    fn story(&self) -> Result<Story, Error>;
    fn boards(&self) -> Vec<String>;
}

/// The answer of a solve, the same for every game (`floe solve --json`).
#[derive(Clone, Serialize)]
pub struct SolveReport {
    /// The game's name.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// The parameters in force.
    pub params: ParamValues,
    /// The algorithm that ran.
    pub algorithm: String,
    /// Whether a solution was found.
    pub solved: bool,
    /// How it ended.
    pub status: Status,
    /// The limit that stopped it (`max-states`, `timeout`).
    pub limit: Option<&'static str>,
    /// The solution (empty unless solved).
    pub moves: Vec<Move>,
    /// Its length in moves.
    pub length: Option<u64>,
    /// Its length again, where a move is a push (`null` in games whose moves are not).
    pub pushes: Option<u64>,
    /// The game's difficulty of the solution.
    pub difficulty: Option<Difficulty>,
    /// A lower bound on the fewest moves proved by the search (exact searches).
    pub lower_bound: Option<u32>,
    /// Search nodes stored.
    pub states: u64,
    /// Nodes expanded.
    pub expanded: u64,
    /// Deepest move count reached.
    pub depth: u32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// What only this kind of solver reports (the engine, the seed of a random run, …).
    pub details: SolveDetails,
    /// A sentence about the outcome for people (why the start is dead, why a random run
    /// stopped).
    #[serde(skip)]
    pub note: Option<String>,
    /// One line per move of the solution, as the replay saw it.
    #[serde(skip)]
    pub steps: Vec<String>,
    #[serde(skip)]
    pub(crate) replay: Option<Arc<dyn ReplayObj>>,
}

impl SolveReport {
    /// The start and the position after each move, in the game's text notation (empty
    /// unless solved).
    pub fn boards(&self) -> Vec<String> {
        self.replay.as_ref().map_or_else(Vec::new, |r| r.boards())
    }
    /// The solution as a story to draw (`None` unless solved).
    pub fn story(&self) -> Option<Result<Story, Error>> {
        self.replay.as_ref().map(|r| r.story())
    }
    /// The moves as the game's own type (empty if they are of another type).
    pub fn moves_of<M: Clone + 'static>(&self) -> Vec<M> {
        self.moves
            .iter()
            .filter_map(|m| m.typed::<M>().cloned())
            .collect()
    }
    /// A part of the difficulty as a whole number (`block_changes`).
    pub fn difficulty_part(&self, key: &str) -> Option<u64> {
        self.difficulty.as_ref().and_then(|d| d.part_u64(key))
    }
    /// The difficulty's value as a whole number (Kluiver's measure).
    pub fn difficulty_u64(&self) -> Option<u64> {
        self.difficulty.as_ref().and_then(|d| d.value.as_u64())
    }
    /// The limit as a [`LimitKind`].
    pub fn limit_kind(&self) -> Option<LimitKind> {
        self.limit
            .map(|l| LimitKind::from_name(l).unwrap_or(LimitKind::MaxStates))
    }
    pub(crate) fn fill_stats(&mut self, s: &Stats) {
        self.states = s.states;
        self.expanded = s.expanded;
        self.depth = s.depth;
        self.seconds = s.elapsed.as_secs_f64();
    }
}

/// What only one kind of solver adds to a solve's report (`details` in `floe solve --json`):
/// an exact search's engine and bounds, or a randomised solver's run. The keys of each are in
/// alphabetical order, the order the contract has always had.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SolveDetails {
    /// An exact search on the game's engine.
    Exact(ExactDetails),
    /// A run of a randomised solver (`random`, `mc`).
    Random(RandomDetails),
}

impl SolveDetails {
    /// An exact search's details.
    pub fn exact(&self) -> Option<&ExactDetails> {
        match self {
            SolveDetails::Exact(d) => Some(d),
            SolveDetails::Random(_) => None,
        }
    }
    /// A randomised solver's details.
    pub fn random(&self) -> Option<&RandomDetails> {
        match self {
            SolveDetails::Random(d) => Some(d),
            SolveDetails::Exact(_) => None,
        }
    }
}

/// What an exact search reports beside the common figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExactDetails {
    /// Why the start is dead, when it is: the search did not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead: Option<String>,
    /// The engine that ran ([`Engine::kind`](super::Engine::kind): `fast`, or `plain`).
    pub engine: &'static str,
    /// The engine's lower bound at the start (0 when the start is dead).
    pub start_bound: u32,
    /// The level's symmetries, the identity counted, when A* kept one position of each class
    /// (absent when there was nothing to fold).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetries: Option<usize>,
}

/// What a run of a randomised solver reports beside the common figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RandomDetails {
    /// Random attempts made, possible or not.
    pub attempts: u64,
    /// BasicMC's moves chosen at random because no candidate scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blind_steps: Option<u32>,
    /// Moves made (the solution's length when solved).
    pub moves_made: u64,
    /// Random games played (BasicMC; 1 for the random algorithm).
    pub playouts: u64,
    /// The seed of the run.
    pub seed: u64,
    /// The solver and its parameters (`{"count", "max_moves", "name", "playouts"}`).
    #[serde(serialize_with = "keys_sorted")]
    pub solver: SolverSpec,
}

/// `v` with its keys in alphabetical order (as a JSON value holds them), at every depth.
fn keys_sorted<T: Serialize, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    serde_json::to_value(v)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}

impl fmt::Debug for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SolveReport")
            .field("game", &self.game)
            .field("level", &self.level)
            .field("status", &self.status)
            .field("moves", &self.moves)
            .finish_non_exhaustive()
    }
}

/// The first illegal move of a move list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IllegalMove {
    /// 1-based number of the move in the list.
    pub index: usize,
    /// The move.
    #[serde(rename = "move")]
    pub played: Move,
    /// Why it is illegal, in the rules' words.
    pub reason: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}) is illegal: {}",
            self.index, self.played, self.reason
        )
    }
}

/// A checked move list (`floe verify --json`).
#[derive(Clone, Debug, Serialize)]
pub struct Verified {
    /// The game's name.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// The parameters in force.
    pub params: ParamValues,
    /// Whether every move is legal.
    pub valid: bool,
    /// Whether the moves solve the level.
    pub solved: bool,
    /// Moves in the list when valid.
    pub length: Option<u64>,
    /// The same, where moves are pushes.
    pub pushes: Option<u64>,
    /// The game's difficulty of the moves, when valid and solved.
    pub difficulty: Option<Difficulty>,
    /// The first illegal move.
    pub error: Option<IllegalMove>,
    /// The position after the last legal move, in the game's notation.
    #[serde(skip)]
    pub end: String,
}

/// Every position reachable from a level's start (`floe space --json`).
#[derive(Clone, Debug, Serialize)]
pub struct SpaceReport {
    /// The game's name.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// The parameters in force.
    pub params: ParamValues,
    /// Positions reached.
    pub states: u64,
    /// Most moves from the start to a position.
    pub depth: u32,
    /// Positions per number of moves from the start.
    pub histogram: Vec<u64>,
    /// Whether every reachable position was counted.
    pub complete: bool,
    /// The limit that stopped it.
    pub limit: Option<&'static str>,
    /// Positions expanded.
    pub expanded: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Bytes of the visited index at its largest.
    pub index_bytes: usize,
    /// Peak resident memory of the process, when the front end measures it.
    pub peak_rss_bytes: Option<u64>,
    /// How it was computed, when shared by several workers or kept on disk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed: Option<Computed>,
}

/// How an enumeration shared by workers, or kept on disk, was computed.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Computed {
    /// The engine that linked the workers (`timely`, or `one worker`).
    pub engine: String,
    /// Processes.
    pub processes: usize,
    /// Workers (threads) per process.
    pub workers_per_process: usize,
    /// The work directory (layers on disk, checkpoints), if any.
    pub work_dir: Option<String>,
    /// The layer the run was taken up at, when resumed.
    pub resumed_at: Option<u32>,
    /// Bytes the workers of this process keep in the work directory.
    pub disk_bytes: u64,
    /// Positions owned by each worker of this process.
    pub owned: Vec<u64>,
}

/// The block-change factor of Kluiver's difficulty when none is given.
pub const DEFAULT_FACTOR: u64 = 5;
/// Largest block-change factor accepted: difficulties stay far from overflow.
pub const MAX_FACTOR: u64 = 1_000_000_000;

/// The block-change factor of `o` for game `g`: refused where it does not apply.
pub fn factor_of<G: Game>(g: G, o: Option<u64>) -> Result<u64, Error> {
    let info = g.info();
    match o {
        Some(_) if !info.capabilities.block_changes => Err(Error::invalid(format!(
            "--factor is the block-change factor of Kluiver's difficulty; {} levels have no block changes",
            info.title
        ))),
        Some(f) if f > MAX_FACTOR => Err(Error::invalid(format!(
            "the block-change factor {f} is above the largest accepted, {MAX_FACTOR}"
        ))),
        Some(f) => Ok(f),
        None => Ok(DEFAULT_FACTOR),
    }
}

/// The difficulty in Kluiver's measure from the number of moves and block changes.
pub fn kluiver(moves: u64, block_changes: u64, factor: u64) -> Difficulty {
    let value = moves.saturating_add(factor.saturating_mul(block_changes));
    Difficulty::new("kluiver", value)
        .with("factor", factor)
        .with("pushes", moves)
        .with("block_changes", block_changes)
}
