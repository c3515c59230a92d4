//! What a game says about itself: name, parameters, algorithms, capabilities; and the
//! parameters a level is played with.

use crate::error::Error;
use crate::scene::{Ground, PieceKind};
use crate::search::Method;
use serde::{Serialize, Serializer};
use std::fmt;

/// Static facts about a game (OpenSpiel's `GameType`): one per game, returned by
/// [`Game::info`](super::Game::info). Its JSON is what `floe games --json` prints.
#[derive(Debug, Serialize)]
pub struct Info {
    /// The name on the command line and in `Game:` lines (`pushpush`).
    pub name: &'static str,
    /// Other names accepted for it (compared without case, spaces, `-` and `_`).
    pub aliases: &'static [&'static str],
    /// The name in prose (`PushPush`, `ice blocks`).
    pub title: &'static str,
    /// One line about the game.
    pub about: &'static str,
    /// The goal and the moves, in one or two plain sentences for a player, the goal first
    /// (`Goal: a block on every target. …`): what `floe games` and the play page show.
    pub rules: &'static str,
    /// A small level of it, from its own folder: what every test and check that takes a
    /// level of each game uses (`crates/floe-cli/tests/games.rs`, the Python tests, the
    /// conformance check), so that a new game brings its own.
    pub sample: Sample,
    /// The parameters a level of it may be played with (`k` of PushPush-k).
    pub params: &'static [Param],
    /// The file formats it reads and writes; the first is the default.
    pub formats: &'static [&'static str],
    /// What a move is called in prose: `push` when a move pushes a block (then the
    /// solution's length is also reported as `pushes`), else `move`.
    pub move_word: &'static str,
    /// The exact searches it can be solved with; the first is the default.
    pub algorithms: &'static [Algo],
    /// Default cap on the moves of one random game (`--algo random`).
    pub random_moves: u32,
    /// What it can do beyond solving.
    pub capabilities: Capabilities,
    /// How a board of it is written cell by cell, for editors.
    pub cells: Cells,
}

/// How a level's board is written as text, cell by cell: what an editor offers for a cell
/// and how it puts a row together. The board is the level's lines that are neither a
/// header (`Title: …`) nor a comment (`; …`).
#[derive(Debug, Serialize)]
pub struct Cells {
    /// Every symbol a cell may hold; the first is an empty cell.
    pub glyphs: &'static [Glyph],
    /// What stands between two cells of a row: nothing (one character per cell) or a space.
    pub separator: &'static str,
}

/// One symbol of a board's text and what it means.
#[derive(Debug, Serialize)]
pub struct Glyph {
    /// The symbol (`$`).
    pub text: &'static str,
    /// What it is (`a block on ice`).
    pub about: &'static str,
    /// How the game's scene draws a cell written with it (not in the JSON). Where the symbol
    /// alone cannot say, the usual look: a Fujisan space's is off the summit (`summit: false`),
    /// a Pretzel ace's is in the aces' column (on the table, never dealt into a hole).
    #[serde(skip)]
    pub look: Look,
}

/// A small level of a game and the fewest moves that solve it.
#[derive(Debug, Serialize)]
pub struct Sample {
    /// The level file's text (`include_str!` of the game folder's sample file).
    pub text: &'static str,
    /// The fewest moves (pushes in the pushing games) that solve it.
    pub fewest: u64,
}

/// How a board draws one cell: its ground and the piece standing on it, as the game's
/// [`scene`](super::Game::scene) draws a cell written with a [`Glyph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Look {
    /// The cell's ground.
    pub ground: Ground,
    /// The piece on it, if any.
    pub piece: Option<PieceKind>,
}

/// A [`Glyph`]: the symbol, what it means, and the ground and piece the board draws for it.
pub const fn glyph(
    text: &'static str,
    about: &'static str,
    ground: Ground,
    piece: Option<PieceKind>,
) -> Glyph {
    Glyph {
        text,
        about,
        look: Look { ground, piece },
    }
}

impl Info {
    /// Whether moves push blocks (`move_word` is `push`).
    pub fn moves_are_pushes(&self) -> bool {
        self.move_word == "push"
    }
    /// The plural of [`Info::move_word`].
    pub fn moves_word(&self) -> &'static str {
        if self.moves_are_pushes() {
            "pushes"
        } else {
            "moves"
        }
    }
    /// The exact search called `name` (or one of its aliases).
    pub fn algorithm(&self, name: &str) -> Option<&'static Algo> {
        let key = name.trim().to_ascii_lowercase();
        self.algorithms
            .iter()
            .find(|a| a.name == key || a.aliases.contains(&key.as_str()))
    }
    /// The default exact search.
    pub fn default_algorithm(&self) -> &'static Algo {
        &self.algorithms[0]
    }
    /// The names of the algorithms `floe solve --algo` takes for this game: the exact ones,
    /// then `random` and `mc`.
    pub fn algorithm_names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.algorithms.iter().map(|a| a.name).collect();
        v.extend(["random", "mc"]);
        v
    }
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }
    /// Whether `name` names this game.
    pub fn is_called(&self, name: &str) -> bool {
        let key = normalise(name);
        key == normalise(self.name) || self.aliases.iter().any(|a| normalise(a) == key)
    }
}

/// A name compared without case, spaces, `-` and `_`.
pub(crate) fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// An exact search a game offers, by name.
#[derive(Debug, Serialize)]
pub struct Algo {
    /// The name `--algo` takes.
    pub name: &'static str,
    /// Other names for it.
    pub aliases: &'static [&'static str],
    /// The search.
    #[serde(serialize_with = "method_name")]
    pub method: AlgoMethod,
    /// What it finds, in words (`fewest pushes, breadth-first search`).
    pub about: &'static str,
}

impl Algo {
    /// Breadth-first search, `bfs`.
    pub const fn bfs(about: &'static str) -> Algo {
        Algo::search("bfs", &[], Method::Bfs, about)
    }
    /// A*, `astar` (also `a*`).
    pub const fn astar(about: &'static str) -> Algo {
        Algo::search("astar", &["a*"], Method::AStar, about)
    }
    /// A* that also proves positions dead ([`Method::AStarProving`]), `astar` (also `a*`).
    pub const fn astar_proving(about: &'static str) -> Algo {
        Algo::search("astar", &["a*"], Method::AStarProving, about)
    }
    /// IDA* with a transposition table of `table` entries, `idastar` (also `ida*`, `ida`).
    pub const fn idastar(table: usize, about: &'static str) -> Algo {
        Algo::search(
            "idastar",
            &["ida*", "ida"],
            Method::IdaStar { table },
            about,
        )
    }
    /// Depth-first search for the first solution, `dfs`.
    pub const fn dfs(about: &'static str) -> Algo {
        Algo::search("dfs", &[], Method::DepthFirst, about)
    }
    const fn search(
        name: &'static str,
        aliases: &'static [&'static str],
        method: Method,
        about: &'static str,
    ) -> Algo {
        Algo {
            name,
            aliases,
            method: AlgoMethod::Search(method),
            about,
        }
    }
}

/// The search behind an [`Algo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgoMethod {
    /// A search of [`crate::search::run`].
    Search(Method),
    /// Least difficulty: [`Method::LeastChanges`] at the block-change factor of the request.
    LeastChanges,
}

/// The search of an [`Algo`] in words (`A*`).
fn method_name<S: Serializer>(m: &AlgoMethod, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&match m {
        AlgoMethod::Search(m) => m.to_string(),
        AlgoMethod::LeastChanges => "Dijkstra on block changes".to_string(),
    })
}

/// What a game can do beyond solving and playing.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Capabilities {
    /// Its engine has a perfect hash: enumerations keep one bit per possible position.
    pub perfect_hash: bool,
    /// The difficulty measure of its solutions (`kluiver`, `push-tree`), if it has one.
    pub difficulty: Option<&'static str>,
    /// Kluiver's block-change factor applies (`--factor`, `--algo difficulty`).
    pub block_changes: bool,
    /// How the arrow keys play it.
    pub keys: Keys,
    /// Its learning environment (`floe/Ice-v0` in Python), if a fixed action encoding fits
    /// it.
    pub learning: Option<&'static Learning>,
}

/// What a game's learning environment is (Gymnasium's `floe/<env>-v0`, [`crate::ops::env`]):
/// its name, the planes of its observations and how its actions are numbered. The planes are
/// named as [`crate::scene::plane_names`] names a cell's ground and piece; the game numbers a
/// move with [`Game::action`](super::Game::action).
#[derive(Debug, Serialize)]
pub struct Learning {
    /// The environment's name (`Ice` in `floe/Ice-v0`).
    pub env: &'static str,
    /// The observation's planes, in order (`wall`, `ice`, …): a cell lights the plane of
    /// its ground and those of its piece.
    pub planes: &'static [&'static str],
    /// How a move is numbered, in words.
    pub actions: &'static str,
}

impl Capabilities {
    /// A game the player walks with the arrow keys, without a perfect hash, a difficulty
    /// measure or block changes: what a game has unless it says otherwise
    /// (`..Capabilities::PLAIN`).
    pub const PLAIN: Capabilities = Capabilities {
        perfect_hash: false,
        difficulty: None,
        block_changes: false,
        keys: Keys::Walk,
        learning: None,
    };
}

/// How a player moves with the keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Keys {
    /// A block is selected (tab) and the arrows push it (ice blocks).
    SelectBlock,
    /// The arrows walk the player, and push what stands in front (PushPush, Ice Tower) or
    /// slide him (ice path).
    #[default]
    Walk,
    /// Tab runs through the legal moves and enter plays the one shown (the solitaire
    /// puzzles).
    PickMove,
}

/// A parameter of a game (`k` of PushPush-k).
#[derive(Debug, Serialize)]
pub struct Param {
    /// Its name (`k`), also the command-line flag (`--k`).
    pub name: &'static str,
    /// What it means.
    pub about: &'static str,
    /// Its values.
    pub kind: ParamKind,
}

/// The values a [`Param`] takes.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamKind {
    /// A whole number in a range.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// On or off (`dynamic`, `dynamic=true`, `dynamic=false`).
    Flag,
    /// One of a few names.
    Choice(&'static [&'static str]),
}

/// The parameters a level is played with, as given (by flags, a `Game:` line such as
/// `Game: pushpush(k=2)`, or a game spec): checked against the game's [`Info::params`] by
/// one rule for every game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    items: Vec<(String, String, String)>,
}

impl Params {
    /// No parameters.
    pub fn new() -> Params {
        Params::default()
    }
    /// Adds `name = value`; `origin` names where it came from in messages (`--k`, `k=`).
    pub fn set(&mut self, name: &str, value: impl Into<String>, origin: impl Into<String>) {
        self.items.retain(|(n, _, _)| n != name);
        self.items
            .push((name.to_string(), value.into(), origin.into()));
    }
    /// The same, for chaining.
    pub fn with(mut self, name: &str, value: impl Into<String>) -> Params {
        let origin = format!("{name}=");
        self.set(name, value, origin);
        self
    }
    /// Parses `k=2,dynamic` (a flag alone means on).
    pub fn parse(text: &str) -> Result<Params, String> {
        let mut p = Params::new();
        for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = match part.split_once('=') {
                Some((n, v)) => (n.trim(), v.trim()),
                None => (part, "true"),
            };
            if name.is_empty() {
                return Err(format!("'{part}' names no parameter"));
            }
            p.set(name, value, format!("{name}="));
        }
        Ok(p)
    }
    /// Whether no parameter is given.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// The parameters, in order: name and value.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.items.iter().map(|(n, v, _)| (n.as_str(), v.as_str()))
    }
    /// Adds the parameters of `other` that this one does not set.
    pub fn or(mut self, other: &Params) -> Params {
        for (n, v, o) in &other.items {
            if !self.items.iter().any(|(m, _, _)| m == n) {
                self.items.push((n.clone(), v.clone(), o.clone()));
            }
        }
        self
    }
    /// The value given for `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.items
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, _)| v.as_str())
    }
    /// Refuses any parameter `info` does not have, or a value it does not take: the one rule
    /// for every game and every front end.
    pub fn check(&self, info: &Info) -> Result<(), Error> {
        for (name, value, origin) in &self.items {
            let Some(param) = info.param(name) else {
                let takes = if info.params.is_empty() {
                    "it takes none".to_string()
                } else {
                    let names: Vec<String> = info
                        .params
                        .iter()
                        .map(|p| format!("--{}", p.name))
                        .collect();
                    format!("it takes {}", names.join(", "))
                };
                return Err(Error::invalid(format!(
                    "{origin} does not apply to {} levels ({takes})",
                    info.title
                )));
            };
            param.kind.parse(value).map_err(|m| {
                Error::invalid(format!(
                    "{origin}: {m} ({} {}: {})",
                    info.title, name, param.about
                ))
            })?;
        }
        Ok(())
    }
    /// A whole-number parameter, if given (checked by [`Params::check`] first).
    pub fn int(&self, name: &str) -> Option<i64> {
        self.get(name).and_then(|v| v.trim().parse().ok())
    }
    /// A flag, if given.
    pub fn flag(&self, name: &str) -> Option<bool> {
        self.get(name).and_then(|v| parse_flag(v).ok())
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.iter().map(|(n, v)| format!("{n}={v}")).collect();
        f.write_str(&parts.join(","))
    }
}

fn parse_flag(v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "" | "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        other => Err(format!("'{other}' is not on or off (true or false)")),
    }
}

impl ParamKind {
    /// Checks a value.
    fn parse(&self, v: &str) -> Result<(), String> {
        match self {
            ParamKind::Int { min, max } => match v.trim().parse::<i64>() {
                Ok(x) if (*min..=*max).contains(&x) => Ok(()),
                _ => Err(format!("'{v}' is not a whole number from {min} to {max}")),
            },
            ParamKind::Flag => parse_flag(v).map(|_| ()),
            ParamKind::Choice(names) => {
                if names.iter().any(|n| n.eq_ignore_ascii_case(v.trim())) {
                    Ok(())
                } else {
                    Err(format!("'{v}' is not one of {}", names.join(", ")))
                }
            }
        }
    }
}

/// Splits a game spec `pushpush(k=2)` into the name and its parameters.
pub fn split_spec(spec: &str) -> Result<(&str, Params), String> {
    let spec = spec.trim();
    match spec.split_once('(') {
        None => Ok((spec, Params::new())),
        Some((name, rest)) => {
            let inner = rest
                .trim_end()
                .strip_suffix(')')
                .ok_or_else(|| format!("'{spec}': the parameters end with ')'"))?;
            Ok((name.trim(), Params::parse(inner)?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static INFO: Info = Info {
        name: "toy",
        aliases: &["toy game"],
        title: "toy",
        about: "a toy",
        rules: "Goal: win. Move.",
        sample: Sample {
            text: "-\n",
            fewest: 0,
        },
        params: &[
            Param {
                name: "k",
                about: "rows pushed",
                kind: ParamKind::Int { min: 0, max: 9 },
            },
            Param {
                name: "fast",
                about: "go fast",
                kind: ParamKind::Flag,
            },
        ],
        formats: &["floe"],
        move_word: "move",
        algorithms: &[],
        random_moves: 10,
        capabilities: Capabilities::PLAIN,
        cells: Cells {
            glyphs: &[glyph("-", "floor", Ground::Floor, None)],
            separator: "",
        },
    };

    #[test]
    fn params_are_checked_by_one_rule() {
        let mut p = Params::new();
        p.set("k", "2", "--k");
        p.set("fast", "true", "--fast");
        assert!(p.check(&INFO).is_ok());
        assert_eq!(p.int("k"), Some(2));
        assert_eq!(p.flag("fast"), Some(true));
        let mut bad = Params::new();
        bad.set("rules", "walk", "--rules");
        let e = bad.check(&INFO).unwrap_err().to_string();
        assert_eq!(
            e,
            "--rules does not apply to toy levels (it takes --k, --fast)"
        );
        let e = Params::parse("k=12")
            .unwrap()
            .check(&INFO)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'12' is not a whole number from 0 to 9"), "{e}");
    }

    #[test]
    fn specs_split() {
        let (name, p) = split_spec("pushpush(k=2, fast)").unwrap();
        assert_eq!(name, "pushpush");
        assert_eq!(p.get("k"), Some("2"));
        assert_eq!(p.get("fast"), Some("true"));
        assert_eq!(split_spec("ice").unwrap().0, "ice");
        assert!(split_spec("ice(k=1").is_err());
        assert!(INFO.is_called("Toy-Game"));
    }
}
