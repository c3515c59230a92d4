//! The physical solitaire puzzles of Goadrich and Droscha's study (spec `solitaire.md`):
//! BoxOff, Pretzel solitaire and Fujisan.
//!
//! Each game has its own module with the same parts:
//!
//! - a challenge type (`Board`, `Deal`, `Mountain`) with a text format (`parse`, `write`),
//! - an engine implementing [`Puzzle`] (compact states: a `u64` of tokens or priests, a byte
//!   array of cards), so every generic search of [`crate::search`] runs on it,
//! - a validator (`replay`) that replays a move list on a plain board, shares no code with the
//!   engine and names the first illegal move and why,
//! - the paper's diagnostic measures (pair equality, cyclic blockades, connectivity,
//!   counter-intuitive moves).
//!
//! This module holds what the three share: the [`Challenge`] enum that the command line and
//! the experiments use, [`solve`] (every algorithm, every answer replayed before it is
//! returned) and the [`random_playout`] solver of the paper (a uniformly random legal move
//! each step, no look-ahead).
//!
//! # File format
//!
//! One challenge per file. Lines starting with `;` or `#` are comments; blank lines are
//! ignored; `Key: value` headers (`Game:`, `Title:`) come before the board; the board rows
//! follow, in the game's own notation (see each module).

pub mod boxoff;
pub mod fujisan;
pub mod pretzel;

use crate::error::{Error, ParseError};
use crate::games::Game;
use crate::search::{self, Limits, Outcome, Puzzle, SearchResult, Stats, UnitCost};
use rand::{Rng, RngExt};
use serde::Serialize;
use std::time::{Duration, Instant};

/// A challenge of one of the three games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Challenge {
    /// A BoxOff board.
    BoxOff(boxoff::Board),
    /// A Pretzel deal.
    Pretzel(pretzel::Deal),
    /// A Fujisan mountain.
    Fujisan(fujisan::Mountain),
}

impl Challenge {
    /// Parses a challenge of `game` from `text`; `file` names it in error messages.
    pub fn parse(game: Game, text: &str, file: &str) -> Result<(Challenge, Option<String>), Error> {
        let doc = Document::parse(text, file, game)?;
        let title = doc.title.clone();
        let c = match game {
            Game::BoxOff => Challenge::BoxOff(boxoff::Board::from_rows(&doc)?),
            Game::Pretzel => Challenge::Pretzel(pretzel::Deal::from_rows(&doc)?),
            Game::Fujisan => Challenge::Fujisan(fujisan::Mountain::from_rows(&doc)?),
            other => {
                return Err(Error::invalid(format!(
                    "{other} is not a solitaire game (boxoff, pretzel, fujisan)"
                )))
            }
        };
        Ok((c, title))
    }

    /// The game.
    pub fn game(&self) -> Game {
        match self {
            Challenge::BoxOff(_) => Game::BoxOff,
            Challenge::Pretzel(_) => Game::Pretzel,
            Challenge::Fujisan(_) => Game::Fujisan,
        }
    }

    /// The challenge in its text format, with a `Game:` line.
    pub fn write(&self) -> String {
        let body = match self {
            Challenge::BoxOff(b) => b.write(),
            Challenge::Pretzel(d) => d.write(),
            Challenge::Fujisan(m) => m.write(),
        };
        format!("Game: {}\n{body}", self.game())
    }

    /// A one-line description: game and size.
    pub fn describe(&self) -> String {
        match self {
            Challenge::BoxOff(b) => b.describe(),
            Challenge::Pretzel(d) => d.describe(),
            Challenge::Fujisan(m) => m.describe(),
        }
    }
}

/// A move of any of the three games, as printed in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum AnyMove {
    /// A BoxOff removal.
    BoxOff(boxoff::Move),
    /// A Pretzel card move.
    Pretzel(pretzel::Move),
    /// A Fujisan priest move.
    Fujisan(fujisan::Move),
}

impl std::fmt::Display for AnyMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyMove::BoxOff(m) => m.fmt(f),
            AnyMove::Pretzel(m) => m.fmt(f),
            AnyMove::Fujisan(m) => m.fmt(f),
        }
    }
}

/// The exact algorithms, all returning a solution with the fewest moves or a proof that
/// there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// The game's fastest exact search: depth-first with a dead-state table for BoxOff (every
    /// BoxOff solution has the same length, so the first one found is a shortest one),
    /// breadth-first for Pretzel, A* (bound: empty summit spaces) for Fujisan.
    #[default]
    Auto,
    /// Breadth-first search.
    Bfs,
    /// A* with the game's admissible bound.
    AStar,
    /// IDA* with the same bound and a transposition table.
    IdaStar,
}

impl Algorithm {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Bfs => "bfs",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
        }
    }
}

pub use crate::search::Status;

/// The answer of [`solve`].
#[derive(Clone, Debug)]
pub struct Report {
    /// How the search ended.
    pub status: Status,
    /// The algorithm that ran (never `Auto`: the one it stands for).
    pub algorithm: &'static str,
    /// The solution (empty unless solved), replayed by the game's validator.
    pub moves: Vec<AnyMove>,
    /// What the search explored.
    pub stats: Stats,
}

/// Solves a challenge exactly with `algorithm`. Every solution is replayed by the game's
/// validator; a disagreement is an [`Error::Internal`].
pub fn solve(c: &Challenge, algorithm: Algorithm, limits: &Limits) -> Result<Report, Error> {
    match c {
        Challenge::BoxOff(b) => {
            let p = boxoff::BoxOff::new(b);
            let (r, name) = match algorithm {
                Algorithm::Auto => (boxoff::solve_dfs(&p, limits), "dfs"),
                a => (run_generic(&p, a, limits), a.name()),
            };
            let moves: Vec<boxoff::Move> = r
                .outcome
                .solution()
                .map(|m| m.iter().map(|&x| p.describe_move(x)).collect())
                .unwrap_or_default();
            check(&r, moves.len(), || {
                boxoff::replay(b, &moves).map(|x| x.solved)
            })?;
            report(r, name, moves.into_iter().map(AnyMove::BoxOff).collect())
        }
        Challenge::Pretzel(d) => {
            let p = pretzel::Pretzel::new(d);
            let a = match algorithm {
                Algorithm::Auto => Algorithm::Bfs,
                a => a,
            };
            let r = run_generic(&p, a, limits);
            let moves: Vec<pretzel::Move> = r
                .outcome
                .solution()
                .map(|m| m.iter().map(|&x| p.describe_move(x)).collect())
                .unwrap_or_default();
            check(&r, moves.len(), || {
                pretzel::replay(d, &moves).map(|x| x.solved)
            })?;
            report(
                r,
                a.name(),
                moves.into_iter().map(AnyMove::Pretzel).collect(),
            )
        }
        Challenge::Fujisan(m) => {
            let p = fujisan::Fujisan::new(m);
            let a = match algorithm {
                Algorithm::Auto => Algorithm::AStar,
                a => a,
            };
            let r = run_generic(&p, a, limits);
            let moves: Vec<fujisan::Move> = r
                .outcome
                .solution()
                .map(|s| s.iter().map(|&x| p.describe_move(x)).collect())
                .unwrap_or_default();
            check(&r, moves.len(), || {
                fujisan::replay(m, &moves).map(|x| x.solved)
            })?;
            report(
                r,
                a.name(),
                moves.into_iter().map(AnyMove::Fujisan).collect(),
            )
        }
    }
}

/// Runs one of the generic exact searches.
pub(crate) fn run_generic<P: Puzzle>(
    p: &P,
    algorithm: Algorithm,
    limits: &Limits,
) -> SearchResult<P::Move, u64> {
    match algorithm {
        Algorithm::Auto | Algorithm::Bfs => search::bfs(p, limits),
        Algorithm::AStar => search::astar(p, &UnitCost, limits),
        Algorithm::IdaStar => search::ida_star(p, limits, 1 << 22),
    }
}

/// Replays a found solution; any disagreement with the search is a bug, reported as such.
fn check<M, E: std::fmt::Display>(
    r: &SearchResult<M, u64>,
    len: usize,
    replay: impl FnOnce() -> Result<bool, E>,
) -> Result<(), Error> {
    if r.outcome.solution().is_none() {
        return Ok(());
    }
    match replay() {
        Ok(true) if Some(len as u64) == r.cost => Ok(()),
        Ok(true) => Err(Error::Internal(format!(
            "the search reported cost {:?} for a solution of {len} moves",
            r.cost
        ))),
        Ok(false) => Err(Error::Internal(
            "the search's solution does not solve the challenge on replay".into(),
        )),
        Err(e) => Err(Error::Internal(format!(
            "the search's solution is illegal on replay: {e}"
        ))),
    }
}

fn report<M>(
    r: SearchResult<M, u64>,
    algorithm: &'static str,
    moves: Vec<AnyMove>,
) -> Result<Report, Error> {
    let status = match r.outcome {
        Outcome::Solved(_) => Status::Solved,
        Outcome::Unsolvable => Status::Unsolvable,
        Outcome::Limit(l) => Status::Limit(l),
    };
    Ok(Report {
        status,
        algorithm,
        moves,
        stats: r.stats,
    })
}

/// The paper's random solver: from the start, a uniformly random legal move each step (no
/// look-ahead) until the position is a goal, no move is left, or `cap` moves were made.
/// Returns the moves made when it ends on a goal (`Some(0)` when the start is one).
///
/// BoxOff games end by themselves (every move removes two tokens); Pretzel and Fujisan
/// positions can repeat, so the cap matters there (see `docs/solitaire.md`).
pub fn random_playout<P: Puzzle, G: Rng + ?Sized>(
    p: &P,
    cap: u32,
    rng: &mut G,
    buf: &mut Vec<(P::Move, P::State)>,
) -> Option<u32> {
    let mut state = p.start();
    if p.is_goal(&state) {
        return Some(0);
    }
    for made in 1..=cap {
        buf.clear();
        p.successors(&state, buf);
        if buf.is_empty() {
            return None;
        }
        let i = rng.random_range(0..buf.len());
        state = buf.swap_remove(i).1;
        if p.is_goal(&state) {
            return Some(made);
        }
    }
    None
}

/// The random playout of [`random_playout`] on any challenge, with a fresh buffer.
pub fn random_playout_challenge<G: Rng + ?Sized>(
    c: &Challenge,
    cap: u32,
    rng: &mut G,
) -> Option<u32> {
    match c {
        Challenge::BoxOff(b) => random_playout(&boxoff::BoxOff::new(b), cap, rng, &mut Vec::new()),
        Challenge::Pretzel(d) => {
            random_playout(&pretzel::Pretzel::new(d), cap, rng, &mut Vec::new())
        }
        Challenge::Fujisan(m) => {
            random_playout(&fujisan::Fujisan::new(m), cap, rng, &mut Vec::new())
        }
    }
}

/// [`random_solve`] with a `Pcg64Mcg` seeded with `seed`.
pub fn random_solve_seeded(
    c: &Challenge,
    cap: u32,
    seed: u64,
) -> Result<(Option<Vec<AnyMove>>, u32), Error> {
    use rand::SeedableRng;
    random_solve(c, cap, &mut rand_pcg::Pcg64Mcg::seed_from_u64(seed))
}

/// The random playout again, keeping the moves (for `floe solve --algo random`).
pub fn random_solve<G: Rng + ?Sized>(
    c: &Challenge,
    cap: u32,
    rng: &mut G,
) -> Result<(Option<Vec<AnyMove>>, u32), Error> {
    fn run<P: Puzzle, G: Rng + ?Sized>(p: &P, cap: u32, rng: &mut G) -> (Vec<P::Move>, bool) {
        let mut state = p.start();
        let mut path = Vec::new();
        let mut buf = Vec::new();
        let mut solved = p.is_goal(&state);
        while !solved && (path.len() as u32) < cap {
            buf.clear();
            p.successors(&state, &mut buf);
            if buf.is_empty() {
                break;
            }
            let i = rng.random_range(0..buf.len());
            let (m, s) = buf.swap_remove(i);
            path.push(m);
            state = s;
            solved = p.is_goal(&state);
        }
        (path, solved)
    }
    let bad = |e: String| Error::Internal(format!("a random game is illegal on replay: {e}"));
    let (moves, made): (Option<Vec<AnyMove>>, u32) = match c {
        Challenge::BoxOff(b) => {
            let p = boxoff::BoxOff::new(b);
            let (path, solved) = run(&p, cap, rng);
            let m: Vec<boxoff::Move> = path.iter().map(|&x| p.describe_move(x)).collect();
            let ok = boxoff::replay(b, &m)
                .map_err(|e| bad(e.to_string()))?
                .solved;
            if ok != solved {
                return Err(bad("the end position disagrees".into()));
            }
            let n = m.len() as u32;
            (
                solved.then(|| m.into_iter().map(AnyMove::BoxOff).collect()),
                n,
            )
        }
        Challenge::Pretzel(d) => {
            let p = pretzel::Pretzel::new(d);
            let (path, solved) = run(&p, cap, rng);
            let m: Vec<pretzel::Move> = path.iter().map(|&x| p.describe_move(x)).collect();
            let ok = pretzel::replay(d, &m)
                .map_err(|e| bad(e.to_string()))?
                .solved;
            if ok != solved {
                return Err(bad("the end position disagrees".into()));
            }
            let n = m.len() as u32;
            (
                solved.then(|| m.into_iter().map(AnyMove::Pretzel).collect()),
                n,
            )
        }
        Challenge::Fujisan(mt) => {
            let p = fujisan::Fujisan::new(mt);
            let (path, solved) = run(&p, cap, rng);
            let m: Vec<fujisan::Move> = path.iter().map(|&x| p.describe_move(x)).collect();
            let ok = fujisan::replay(mt, &m)
                .map_err(|e| bad(e.to_string()))?
                .solved;
            if ok != solved {
                return Err(bad("the end position disagrees".into()));
            }
            let n = m.len() as u32;
            (
                solved.then(|| m.into_iter().map(AnyMove::Fujisan).collect()),
                n,
            )
        }
    };
    Ok((moves, made))
}

/// Why a move of a move list is illegal: which move (0-based) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 0-based index of the move in the list.
    pub index: usize,
    /// What is wrong, in words.
    pub reason: String,
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "move {}: {}", self.index + 1, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// Parses a move list: JSON (a list of moves, or an object whose `moves` field is one, such as
/// a `floe solve --json` document) or text with one move per line, read by `line` (blank lines
/// and `;`/`#` comments are skipped).
pub(crate) fn parse_move_list<M: serde::de::DeserializeOwned>(
    text: &str,
    file: &str,
    line: impl Fn(&str) -> Result<M, String>,
) -> Result<Vec<M>, Error> {
    let t = text.trim_start();
    if t.starts_with('[') || t.starts_with('{') {
        let json_err = |e: serde_json::Error| {
            Error::Parse(perr(
                file,
                e.line().max(1),
                e.column().max(1),
                format!("bad move list: {e}"),
            ))
        };
        let v: serde_json::Value = serde_json::from_str(text).map_err(json_err)?;
        let list = match v {
            serde_json::Value::Object(mut o) => match o.remove("moves") {
                Some(m) => m,
                None => {
                    return Err(Error::Parse(perr(
                        file,
                        1,
                        1,
                        "a JSON object with a \"moves\" list was expected",
                    )))
                }
            },
            other => other,
        };
        return serde_json::from_value(list)
            .map_err(|e| Error::Parse(perr(file, 1, 1, format!("bad move list: {e}"))));
    }
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let s = l.trim();
        if s.is_empty() || s.starts_with(';') || s.starts_with('#') {
            continue;
        }
        let col = l.len() - l.trim_start().len() + 1;
        out.push(line(s).map_err(|m| Error::Parse(perr(file, i + 1, col, m)))?);
    }
    Ok(out)
}

/// The integers of a line separated by spaces or commas.
pub(crate) fn numbers(line: &str) -> Result<Vec<i64>, String> {
    line.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>()
                .map_err(|_| format!("'{t}' is not a number"))
        })
        .collect()
}

/// A parsed challenge file: headers and board rows with their line numbers.
#[derive(Clone, Debug)]
pub(crate) struct Document<'a> {
    /// The file's name, for messages.
    pub file: &'a str,
    /// The `Title:` header.
    pub title: Option<String>,
    /// Board rows: 1-based line number and the line.
    pub rows: Vec<(usize, &'a str)>,
    /// Line after the last one, for "missing" messages.
    pub end_line: usize,
}

impl<'a> Document<'a> {
    pub(crate) fn parse(
        text: &'a str,
        file: &'a str,
        game: Game,
    ) -> Result<Document<'a>, ParseError> {
        let mut title = None;
        let mut rows = Vec::new();
        let mut end_line = 1;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            end_line = n + 1;
            let t = line.trim();
            if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
                continue;
            }
            if let Some((key, value)) = t.split_once(':') {
                let col = line.len() - line.trim_start().len() + 1;
                if !rows.is_empty() {
                    return Err(perr(
                        file,
                        n,
                        col,
                        "headers (Key: value) come before the board",
                    ));
                }
                let value_col =
                    col + key.chars().count() + 1 + (value.len() - value.trim_start().len());
                match key.trim().to_ascii_lowercase().as_str() {
                    "game" => {
                        let g: Game = value
                            .trim()
                            .parse()
                            .map_err(|m: String| perr(file, n, value_col, m))?;
                        if g != game {
                            return Err(perr(
                                file,
                                n,
                                value_col,
                                format!("this file is a {g} challenge, not {game}"),
                            ));
                        }
                    }
                    "title" => title = Some(value.trim().to_string()),
                    other => {
                        return Err(perr(
                            file,
                            n,
                            col,
                            format!("unknown header '{other}' (expected Game or Title)"),
                        ))
                    }
                }
                continue;
            }
            rows.push((n, line));
        }
        if rows.is_empty() {
            return Err(perr(
                file,
                end_line.saturating_sub(1).max(1),
                1,
                format!("no {game} board in the file"),
            ));
        }
        Ok(Document {
            file,
            title,
            rows,
            end_line,
        })
    }

    /// Whitespace-separated tokens of a row with their 1-based columns.
    pub(crate) fn tokens(line: &str) -> Vec<(usize, &str)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, ch) in line.char_indices() {
            if ch.is_whitespace() {
                if let Some(s) = start.take() {
                    out.push((s, &line[s..i]));
                }
            } else if start.is_none() {
                start = Some(i);
            }
        }
        if let Some(s) = start {
            out.push((s, &line[s..]));
        }
        out.into_iter()
            .map(|(b, t)| (line[..b].chars().count() + 1, t))
            .collect()
    }

    pub(crate) fn err(&self, line: usize, col: usize, message: impl Into<String>) -> Error {
        Error::Parse(perr(self.file, line, col, message))
    }
}

pub(crate) fn perr(file: &str, line: usize, col: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        file: file.to_string(),
        line,
        col,
        message: message.into(),
    }
}

/// A minimal budget for the game-specific searches (the generic one is private to
/// [`crate::search`]): a state cap and a clock read every 1,024 nodes.
pub(crate) struct Budget {
    max_states: Option<u64>,
    deadline: Option<Instant>,
    start: Instant,
    ticks: u32,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        let start = Instant::now();
        Budget {
            max_states: limits.max_states,
            deadline: limits.timeout.map(|t| start + t),
            start,
            ticks: 1023,
        }
    }
    #[inline]
    pub(crate) fn over(&mut self, stored: u64) -> Option<search::LimitKind> {
        if matches!(self.max_states, Some(m) if stored >= m) {
            return Some(search::LimitKind::MaxStates);
        }
        self.ticks += 1;
        if self.ticks >= 1024 {
            self.ticks = 0;
            if matches!(self.deadline, Some(d) if Instant::now() >= d) {
                return Some(search::LimitKind::Timeout);
            }
        }
        None
    }
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Fisher–Yates shuffle drawing `random_range(0..=i)` from the top down: written out here so
/// that a seed keeps meaning the same challenges whatever `rand`'s own shuffle does.
pub fn shuffle<T, G: Rng + ?Sized>(v: &mut [T], rng: &mut G) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_split_headers_and_rows() {
        let d = Document::parse(
            "; c\nGame: boxoff\nTitle: t\n\n1 2\n2 1\n",
            "f",
            Game::BoxOff,
        )
        .unwrap();
        assert_eq!(d.title.as_deref(), Some("t"));
        assert_eq!(d.rows, vec![(5, "1 2"), (6, "2 1")]);
        let e = Document::parse("Game: pretzel\n1 1\n", "f", Game::BoxOff).unwrap_err();
        assert_eq!((e.line, e.col), (1, 7));
        let e = Document::parse("1 1\nTitle: x\n", "f", Game::BoxOff).unwrap_err();
        assert_eq!(e.line, 2);
        let e = Document::parse("Colour: x\n", "f", Game::BoxOff).unwrap_err();
        assert!(e.message.contains("unknown header"), "{e}");
        assert!(Document::parse("; nothing\n", "f", Game::BoxOff).is_err());
        assert_eq!(Document::tokens("  ab  c"), vec![(3, "ab"), (7, "c")]);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let mut v: Vec<u32> = (0..50).collect();
        shuffle(&mut v, &mut rng);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert_ne!(v, s);
    }
}
