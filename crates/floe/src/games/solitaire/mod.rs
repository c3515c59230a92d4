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
//! This module holds what the three share: [`Kind`] and the [`Challenge`] enum that the
//! experiments use, the shared file reader, and the three game faces ([`BoxOff`],
//! [`Pretzel`], [`Fujisan`] in [`game`](mod@game)). Solving, random play and everything else
//! generic come through the game face. The paper's random player, which the experiments run,
//! is [`Challenge::random_game`] ([`random_walk`](crate::search::playout::random_walk) on the
//! engines): a uniformly random legal move each step, giving up on a position it has visited
//! before in the game.
//!
//! # File format
//!
//! One challenge per file. Lines starting with `;` or `#` are comments; blank lines are
//! ignored; `Key: value` headers (`Game:`, `Title:`) come before the board; the board rows
//! follow, in the game's own notation (see each module).

pub mod boxoff;
pub mod fujisan;
pub mod game;
pub mod pretzel;

pub use game::{BoxOff, Fujisan, Pretzel, Sheet};

use crate::error::{Error, ParseError};
use crate::game::SolveReport;
use crate::ops::{solve_typed, SolveOptions};
use crate::search::playout::{random_walk, GiveUp, Walk};
use crate::search::Limits;
use rand::{Rng, RngExt};
use std::str::FromStr;

/// The three puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// BoxOff.
    BoxOff,
    /// Pretzel solitaire.
    Pretzel,
    /// Fujisan.
    Fujisan,
}

impl Kind {
    /// The three, in order.
    pub const ALL: [Kind; 3] = [Kind::BoxOff, Kind::Pretzel, Kind::Fujisan];
    /// The game's name (`boxoff`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::BoxOff => "boxoff",
            Kind::Pretzel => "pretzel",
            Kind::Fujisan => "fujisan",
        }
    }
    /// The game's name in prose (`BoxOff`).
    pub fn title(self) -> &'static str {
        match self {
            Kind::BoxOff => "BoxOff",
            Kind::Pretzel => "Pretzel",
            Kind::Fujisan => "Fujisan",
        }
    }
}

display_by_name!(Kind);

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        let g = crate::games::find(s).map_err(|e| e.to_string())?;
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == g.info().name)
            .ok_or_else(|| {
                format!(
                    "{} is not a solitaire puzzle (boxoff, pretzel, fujisan)",
                    g.info().name
                )
            })
    }
}

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
    /// Parses a challenge of `kind` from `text`; `file` names it in error messages.
    pub fn parse(kind: Kind, text: &str, file: &str) -> Result<(Challenge, Option<String>), Error> {
        let doc = Document::parse(text, file, kind)?;
        let title = doc.title.clone();
        let c = match kind {
            Kind::BoxOff => Challenge::BoxOff(boxoff::Board::from_rows(&doc)?),
            Kind::Pretzel => Challenge::Pretzel(pretzel::Deal::from_rows(&doc)?),
            Kind::Fujisan => Challenge::Fujisan(fujisan::Mountain::from_rows(&doc)?),
        };
        Ok((c, title))
    }

    /// The game.
    pub fn game(&self) -> Kind {
        match self {
            Challenge::BoxOff(_) => Kind::BoxOff,
            Challenge::Pretzel(_) => Kind::Pretzel,
            Challenge::Fujisan(_) => Kind::Fujisan,
        }
    }

    /// Solves the challenge with `algorithm`, by default its game's default exact search
    /// (BoxOff: depth-first with a dead-position table; Pretzel: breadth-first; Fujisan: A*),
    /// every solution replayed by the game's rules.
    pub fn solve(&self, algorithm: Option<&str>, limits: &Limits) -> Result<SolveReport, Error> {
        let o = SolveOptions {
            algorithm: algorithm.map(str::to_string),
            limits: limits.clone(),
            ..SolveOptions::default()
        };
        match self {
            Challenge::BoxOff(b) => solve_typed(BoxOff, &Sheet::new(b.clone()), &o),
            Challenge::Pretzel(d) => solve_typed(Pretzel, &Sheet::new(d.clone()), &o),
            Challenge::Fujisan(m) => solve_typed(Fujisan, &Sheet::new(m.clone()), &o),
        }
    }

    /// The paper's random player: from the start, one of the position's successors chosen
    /// uniformly at random each step, until the position is solved, no move is left, or
    /// `give_up` says so. [`GiveUp::Revisit`] is the player of the authors' published C#
    /// programs: it also stops, unsolved, when the position it picked was already visited in
    /// this game, and has no move horizon. [`GiveUp::Horizon`] plays on through repeated
    /// positions up to so many moves instead.
    pub fn random_game<G: Rng + ?Sized>(&self, give_up: GiveUp, rng: &mut G) -> Walk {
        use crate::search::Puzzle;
        fn go<P: Puzzle, G: Rng + ?Sized>(p: &P, give_up: GiveUp, rng: &mut G) -> Walk {
            random_walk(p, &p.start(), give_up, rng)
        }
        match self {
            Challenge::BoxOff(b) => go(&boxoff::BoxOff::new(b), give_up, rng),
            Challenge::Pretzel(d) => go(&pretzel::Pretzel::new(d), give_up, rng),
            Challenge::Fujisan(m) => go(&fujisan::Fujisan::new(m), give_up, rng),
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
        game: Kind,
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
                        let (g, _) = crate::games::spec(value.trim())
                            .map_err(|e| perr(file, n, value_col, e.to_string()))?;
                        let g = g.info().name;
                        if g != game.name() {
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

    /// A sheet's refusal of the whole board (`Error::Invalid`) placed at the board's first
    /// line; other errors as they are.
    pub(crate) fn at_board(&self, e: Error) -> Error {
        match e {
            Error::Invalid(m) => self.err(self.rows[0].0, 1, m),
            e => e,
        }
    }
}

/// A sheet's rows as its files write them: `rows` lines of `cols` cells, each cell's text
/// from `cell(row, col)`, separated by spaces.
pub(crate) fn write_rows(
    rows: usize,
    cols: usize,
    cell: impl Fn(usize, usize) -> String,
) -> String {
    let mut s = String::new();
    for r in 0..rows {
        let row: Vec<String> = (0..cols).map(|c| cell(r, c)).collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

pub(crate) fn perr(file: &str, line: usize, col: usize, message: impl Into<String>) -> ParseError {
    ParseError::new(file, line, col, message)
}

/// Fisher–Yates shuffle drawing `random_range(0..=i)` from the top down: written out here so
/// that a seed keeps meaning the same challenges whatever `rand`'s own shuffle does.
pub fn shuffle<T, G: Rng + ?Sized>(v: &mut [T], rng: &mut G) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// The game face's replay of `moves` from the puzzle `start` (for the tests of the three
/// puzzles): every position, or the 0-based index of the first illegal move and why.
#[cfg(test)]
pub(crate) fn replay<G: crate::game::Game<Level = Sheet<T>>, T: Clone>(
    g: G,
    start: &T,
    moves: &[G::Move],
) -> Result<crate::game::Replayed<G>, (usize, String)> {
    crate::game::replay(g, &Sheet::new(start.clone()), moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_split_headers_and_rows() {
        let d = Document::parse(
            "; c\nGame: boxoff\nTitle: t\n\n1 2\n2 1\n",
            "f",
            Kind::BoxOff,
        )
        .unwrap();
        assert_eq!(d.title.as_deref(), Some("t"));
        assert_eq!(d.rows, vec![(5, "1 2"), (6, "2 1")]);
        let e = Document::parse("Game: pretzel\n1 1\n", "f", Kind::BoxOff).unwrap_err();
        assert_eq!((e.line, e.col), (1, 7));
        let e = Document::parse("1 1\nTitle: x\n", "f", Kind::BoxOff).unwrap_err();
        assert_eq!(e.line, 2);
        let e = Document::parse("Colour: x\n", "f", Kind::BoxOff).unwrap_err();
        assert!(e.message.contains("unknown header"), "{e}");
        assert!(Document::parse("; nothing\n", "f", Kind::BoxOff).is_err());
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
