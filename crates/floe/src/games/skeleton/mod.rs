//! The skeleton game: the smallest complete game, to copy when adding one. It is compiled and
//! tested (the registry lists it in the library's own tests only), so it stays true to the
//! game interface as that changes.
//!
//! The game: a maze walked one step at a time. The player (`@`) steps up, down, left or right
//! onto floor (`-`), never onto a wall (`#`) nor off the board, and the level is solved when
//! he stands on the exit (`.`).
//!
//! ```text
//! Game: skeleton
//! Title: around the wall
//! @-#-
//! --#.
//! ----
//! ```
//!
//! To make a game of it (ARCHITECTURE.md, "Recipes"):
//!
//! 1. copy this folder to `games/<name>/` and rename every `skeleton`/`Skeleton` in it
//!    (`INFO`, `READER`, `write`'s `Game:` line, the sample's `Game:` line, the test);
//! 2. change the level (its cells and pieces), the rules ([`Game::apply`]: a move or why
//!    not), the fast engine ([`Engine`]: the same moves on a compact state, which every search
//!    runs on), the scene and the sample (with its fewest moves);
//! 3. add `pub mod <name>;` and its line to `registry!` in `games/mod.rs`, above `[tests]`
//!    (without the `#[cfg(test)]` this one has);
//! 4. run `cargo test -p floe --lib`: the conformance check (the file round trip, every move
//!    the engine lists against the rules by a brute-force search, every algorithm finding
//!    the sample's fewest moves, verify, space, analyze, play) and every cross-game test on
//!    the sample.
//!
//! Every command (`floe solve`, `floe graph`, …), endpoint and Python call then takes its
//! levels, and every cross-game test takes its sample.

use crate::error::{Error, ParseError};
use crate::game::{glyph, parse_move_words, Algo, Capabilities, Cells, Game, Info, Sample, Task};
use crate::games::file::Reader;
use crate::grid::{Dir, Pos};
use crate::scene::{straight, to_rc, Arrow, Change, Ground, PieceKind, Scene};
use crate::search::Puzzle;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The game (a unit struct: the registry holds it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Skeleton;

/// What the game says of itself: every front end's help, `floe games`, the page's legend
/// and palette, the checks of the one rule for parameters.
static INFO: Info = Info {
    name: "skeleton",
    aliases: &[],
    title: "skeleton maze",
    about: "the skeleton game: a maze walked one step at a time (a template for new games)",
    rules: "Goal: reach the exit. The player steps up, down, left or right onto floor, never \
            onto a wall.",
    sample: Sample {
        text: include_str!("sample.txt"),
        fewest: 6,
    },
    params: &[],
    formats: &["floe"],
    move_word: "move",
    algorithms: &[
        Algo::bfs("fewest moves, breadth-first search"),
        Algo::astar("fewest moves, A*"),
    ],
    random_moves: 10_000,
    capabilities: Capabilities::PLAIN,
    cells: Cells {
        glyphs: &[
            glyph("-", "floor", Ground::Floor, None),
            glyph("#", "a wall", Ground::Wall, None),
            glyph(".", "the exit", Ground::Target, None),
            glyph("@", "the player", Ground::Floor, Some(PieceKind::Player)),
        ],
        separator: "",
    },
};

/// A level: a rectangle of cells (`true`: a wall), the player's start and the exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The `Title:` header.
    pub title: Option<String>,
    rows: usize,
    cols: usize,
    walls: Vec<bool>,
    start: Pos,
    exit: Pos,
}

impl Level {
    fn wall(&self, p: Pos) -> bool {
        self.walls[p.row * self.cols + p.col]
    }

    /// The rows in the text format, the player at `player`.
    fn rows_text(&self, player: Pos) -> String {
        let mut s = String::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let p = Pos::new(r, c);
                s.push(if p == player {
                    '@'
                } else if p == self.exit {
                    '.'
                } else if self.wall(p) {
                    '#'
                } else {
                    '-'
                });
            }
            s.push('\n');
        }
        s
    }

    /// Where a step from `p` towards `d` leads, or why there is none.
    fn step(&self, p: Pos, d: Dir) -> Result<Pos, String> {
        match p.step(d, self.rows, self.cols) {
            None => Err(format!("the player cannot step {d}: the edge")),
            Some(q) if self.wall(q) => Err(format!("the player cannot step {d}: a wall")),
            Some(q) => Ok(q),
        }
    }
}

/// A move: a direction. JSON `{"dir": "up"}`, text `up` (or `u`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// Where to.
    pub dir: Dir,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.dir.name())
    }
}

/// A move as the rules played it (what pictures and the solution's lines show).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where the player stood.
    pub from: Pos,
    /// Where he stands now.
    pub to: Pos,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}) → ({})", self.from, self.to)
    }
}

/// How its files are read: the grid games' shared format.
const READER: Reader = Reader {
    game: "skeleton",
    noun: "skeleton maze",
    cells: "- # . @",
    says: |c, _| (c == ' ').then(|| "a space is not a cell (use '-' for floor)".to_string()),
    own_headers: false,
};

/// Every level of a text.
fn parse(text: &str, file: &str) -> Result<Vec<Level>, ParseError> {
    READER.levels(text, file, |b| {
        let err = |line, col, message: String| ParseError {
            file: file.to_string(),
            line,
            col,
            message,
        };
        let (first, cols) = (b.rows[0].0, b.rows[0].1.chars().count());
        let (mut walls, mut start, mut exit) = (Vec::new(), None, None);
        for (r, (n, row)) in b.rows.iter().enumerate() {
            if row.chars().count() != cols {
                return Err(err(*n, 1, format!("this row is not {cols} cells long")));
            }
            for (c, ch) in row.chars().enumerate() {
                let here = Some(Pos::new(r, c));
                match ch {
                    '@' if start.is_some() => return Err(err(*n, c + 1, "a second player".into())),
                    '.' if exit.is_some() => return Err(err(*n, c + 1, "a second exit".into())),
                    '@' => start = here,
                    '.' => exit = here,
                    _ => {}
                }
                walls.push(ch == '#');
            }
        }
        let (Some(start), Some(exit)) = (start, exit) else {
            return Err(err(
                first,
                1,
                "a maze has one player (@) and one exit (.)".into(),
            ));
        };
        Ok(Level {
            title: b.title,
            rows: b.rows.len(),
            cols,
            walls,
            start,
            exit,
        })
    })
}

impl Game for Skeleton {
    type Level = Level;
    type Move = Move;
    type Position = Pos;
    type Step = Step;

    fn info(&self) -> &'static Info {
        &INFO
    }

    fn parse(&self, text: &str, file: &str, _: Option<&str>) -> Result<Vec<Level>, Error> {
        Ok(parse(text, file)?)
    }

    fn write(&self, levels: &[Level], _: Option<&str>) -> Result<String, Error> {
        let texts: Vec<String> = levels
            .iter()
            .map(|l| {
                let title = l.title.as_ref().map(|t| format!("Title: {t}\n"));
                format!(
                    "Game: skeleton\n{}{}",
                    title.unwrap_or_default(),
                    l.rows_text(l.start)
                )
            })
            .collect();
        Ok(texts.join("\n"))
    }

    fn title<'a>(&self, level: &'a Level) -> Option<&'a str> {
        level.title.as_deref()
    }

    fn describe(&self, l: &Level) -> String {
        format!("{}×{} maze", l.rows, l.cols)
    }

    // The rules, on plain coordinates: the authority every search answer is replayed by.
    fn start(&self, level: &Level) -> Pos {
        level.start
    }

    fn apply(&self, level: &Level, pos: &mut Pos, m: &Move) -> Result<Step, String> {
        if *pos == level.exit {
            return Err("the player is out".into());
        }
        let to = level.step(*pos, m.dir)?;
        let step = Step { from: *pos, to };
        *pos = to;
        Ok(step)
    }

    fn solved(&self, level: &Level, pos: &Pos) -> bool {
        *pos == level.exit
    }

    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, Error> {
        parse_move_words(text, file, |w| Ok(Move { dir: w.parse()? }))
    }

    fn position_text(&self, level: &Level, pos: &Pos) -> String {
        level.rows_text(*pos)
    }

    fn engine<T: Task<Move>>(
        &self,
        level: &Level,
        from: Option<&Pos>,
        task: T,
    ) -> Result<T::Output, Error> {
        let start = from.copied().unwrap_or(level.start);
        if start.row >= level.rows || start.col >= level.cols || level.wall(start) {
            return Err(Error::invalid(format!(
                "the player cannot stand at ({start})"
            )));
        }
        Ok(task.run(&Engine { level, start }))
    }

    // The picture: the ground of each cell and the pieces on it; what a move changes.
    fn scene(&self, level: &Level, pos: &Pos) -> Scene {
        let mut s = Scene::new(level.rows, level.cols, "");
        for r in 0..level.rows {
            for c in 0..level.cols {
                let p = Pos::new(r, c);
                s.set(
                    (r, c),
                    if p == level.exit {
                        Ground::Target
                    } else if level.wall(p) {
                        Ground::Wall
                    } else {
                        Ground::Floor
                    },
                );
            }
        }
        s.add(PieceKind::Player, to_rc(*pos));
        s
    }

    fn change(&self, _: &Level, _: &Pos, _: &Move, step: &Step) -> Change {
        let path = straight(to_rc(step.from), to_rc(step.to));
        Change {
            arrow: Some(Arrow::Path(path.clone())),
            slides: vec![path],
            ..Change::default()
        }
    }
}

/// The fast engine every search runs on: a position is the player's cell as one number.
/// (This one asks the level at each step; a real game precomputes what it can.)
pub struct Engine<'a> {
    level: &'a Level,
    start: Pos,
}

impl Engine<'_> {
    fn cell(&self, s: u32) -> Pos {
        Pos::new(s as usize / self.level.cols, s as usize % self.level.cols)
    }
    fn number(&self, p: Pos) -> u32 {
        (p.row * self.level.cols + p.col) as u32
    }
}

impl Puzzle for Engine<'_> {
    type State = u32;
    type Move = Dir;

    fn start(&self) -> u32 {
        self.number(self.start)
    }

    fn successors(&self, &s: &u32, out: &mut Vec<(Dir, u32)>) {
        if self.is_goal(&s) {
            return;
        }
        for d in Dir::ALL {
            if let Ok(q) = self.level.step(self.cell(s), d) {
                out.push((d, self.number(q)));
            }
        }
    }

    fn is_goal(&self, &s: &u32) -> bool {
        self.cell(s) == self.level.exit
    }

    // admissible: each step moves one cell
    fn lower_bound(&self, &s: &u32) -> u32 {
        let (p, e) = (self.cell(s), self.level.exit);
        (p.row.abs_diff(e.row) + p.col.abs_diff(e.col)) as u32
    }
}

impl crate::game::Engine for Engine<'_> {
    type Public = Move;

    fn public(&self, &dir: &Dir) -> Move {
        Move { dir }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skeleton_conforms() {
        let failures = crate::ops::conformance::check(crate::games::find("skeleton").unwrap());
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn its_rules_refuse_walls_and_the_edge() {
        let l = parse(INFO.sample.text, "t").unwrap().remove(0);
        let mut at = Skeleton.start(&l);
        let e = Skeleton.apply(&l, &mut at, &Move { dir: Dir::Up });
        assert!(e.unwrap_err().contains("the edge"));
        at = Pos::new(0, 1);
        let e = Skeleton.apply(&l, &mut at, &Move { dir: Dir::Right });
        assert!(e.unwrap_err().contains("a wall"));
        let e = parse("@-\n--\n", "t").unwrap_err();
        assert!(e.message.contains("one player (@) and one exit"), "{e}");
    }
}
