//! An ice path level as data, and its text format (see the [module](super) notes).

use crate::error::{Error, ParseError};
use crate::games::file::Reader;
use crate::grid::{Dir, Pos};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The ice path puzzle (see the [module](super) notes): the player slides over ice to the
/// exit.
#[derive(Clone, Copy, Debug, Default)]
pub struct IcePath;

/// A move: the direction the player sets off in. JSON `{"dir": "up"}`, text `up`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// Where to.
    pub dir: Dir,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.dir.name())
    }
}

/// One move as the rules played it: from where to where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The direction.
    pub dir: Dir,
    /// Where the player stood.
    pub from: Pos,
    /// Where he stopped.
    pub to: Pos,
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({}, {}) {:<5} → ({}, {})",
            self.from.row,
            self.from.col,
            self.dir.name(),
            self.to.row,
            self.to.col
        )
    }
}

/// Most cells of a level (positions are `u16`).
pub const MAX_CELLS: usize = 1 << 16;

/// What a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Ice: the player slides over it.
    Ice,
    /// Normal floor: the player stops on it.
    Floor,
    /// A rock: the player stops before it.
    Rock,
    /// The exit: reaching it solves the level.
    Exit,
}

impl Cell {
    fn symbol(self) -> char {
        match self {
            Cell::Ice => '-',
            Cell::Floor => '=',
            Cell::Rock => '#',
            Cell::Exit => '.',
        }
    }
}

/// An ice path level: a rectangle of cells, the player's start and one exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The `Title:` header.
    pub title: Option<String>,
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
    start: Pos,
    exit: Pos,
}

impl Level {
    /// A level from its cells (row-major), the player's start and the exit (which must be a
    /// [`Cell::Exit`]; the start must be ice or floor).
    pub fn new(rows: usize, cols: usize, cells: Vec<Cell>, start: Pos) -> Result<Level, Error> {
        if rows == 0 || cols == 0 || cells.len() != rows * cols {
            return Err(Error::invalid(format!(
                "an ice path level of {rows}×{cols} needs {} cells",
                rows.saturating_mul(cols)
            )));
        }
        if cells.len() > MAX_CELLS {
            return Err(Error::invalid(format!(
                "a {rows}×{cols} level has more than {MAX_CELLS} cells"
            )));
        }
        let exits: Vec<usize> = (0..cells.len())
            .filter(|&i| cells[i] == Cell::Exit)
            .collect();
        let [exit] = exits[..] else {
            return Err(Error::invalid(format!(
                "an ice path level has one exit, not {}",
                exits.len()
            )));
        };
        if start.row >= rows || start.col >= cols {
            return Err(Error::invalid(format!(
                "the player at ({start}) is outside the {rows}×{cols} level"
            )));
        }
        if !matches!(cells[start.row * cols + start.col], Cell::Ice | Cell::Floor) {
            return Err(Error::invalid(format!(
                "the player at ({start}) must stand on ice or normal floor"
            )));
        }
        Ok(Level {
            title: None,
            rows,
            cols,
            cells,
            start,
            exit: Pos::new(exit / cols, exit % cols),
        })
    }
    /// The rocks, row by row.
    pub fn rocks(&self) -> Vec<Pos> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == Cell::Rock)
            .map(|i| Pos::new(i / self.cols, i % self.cols))
            .collect()
    }
    /// The same level with only the rocks at `keep` (the others are ice).
    pub fn keeping_rocks(&self, keep: &[Pos]) -> Level {
        let mut l = self.clone();
        for p in self.rocks() {
            if !keep.contains(&p) {
                l.cells[p.row * self.cols + p.col] = Cell::Ice;
            }
        }
        l
    }
    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// The cell at `p`.
    pub fn cell(&self, p: Pos) -> Cell {
        self.cells[p.row * self.cols + p.col]
    }
    /// Where the player starts.
    pub fn start(&self) -> Pos {
        self.start
    }
    /// The exit.
    pub fn exit(&self) -> Pos {
        self.exit
    }
    /// Cells of a kind.
    pub fn count(&self, kind: Cell) -> usize {
        self.cells.iter().filter(|&&c| c == kind).count()
    }
    /// The neighbour of `p` towards `d`, if it is on the board.
    pub fn step(&self, p: Pos, d: Dir) -> Option<Pos> {
        p.step(d, self.rows, self.cols)
    }
    /// The rows in the text format, with the player at `player`.
    pub fn rows_text(&self, player: Pos) -> String {
        let mut s = String::with_capacity(self.rows * (self.cols + 1));
        for r in 0..self.rows {
            for c in 0..self.cols {
                let p = Pos::new(r, c);
                s.push(match (p == player, self.cell(p)) {
                    (true, Cell::Floor) => '&',
                    (true, _) => '@',
                    (false, cell) => cell.symbol(),
                });
            }
            s.push('\n');
        }
        s
    }
}

/// Writes levels with their headers, separated by blank lines.
pub fn write(levels: &[Level]) -> String {
    let mut out = String::new();
    for (i, l) in levels.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("Game: icepath\n");
        if let Some(t) = &l.title {
            out.push_str(&format!("Title: {t}\n"));
        }
        out.push_str(&l.rows_text(l.start));
    }
    out
}

/// How the ice path's files are read (the grid games' shared format).
const READER: Reader = Reader {
    game: "icepath",
    noun: "ice path level",
    cells: "- = # @ & .",
    says: |c, _| (c == ' ').then(|| "a space is not a cell (use '-' for ice)".to_string()),
    own_headers: false,
};

/// Parses every level of a text; all or nothing, the first error with its line and column.
pub fn parse(text: &str, file: &str) -> Result<Vec<Level>, ParseError> {
    let err = |line: usize, col: usize, message: String| ParseError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    READER.levels(text, file, |b| {
        let rows: Vec<(usize, &str)> = b.rows.iter().map(|(n, r)| (*n, r.as_str())).collect();
        level_of(&rows, b.title, &err)
    })
}

/// One level from its rows.
fn level_of(
    rows: &[(usize, &str)],
    title: Option<String>,
    err: &impl Fn(usize, usize, String) -> ParseError,
) -> Result<Level, ParseError> {
    let width = rows[0].1.chars().count();
    let mut cells = Vec::new();
    let mut start: Option<(Pos, usize, usize)> = None;
    for (r, &(n, line)) in rows.iter().enumerate() {
        let len = line.chars().count();
        if len != width {
            return Err(err(
                n,
                len.min(width) + 1,
                format!("this row has {len} cells, the first row {width}"),
            ));
        }
        for (c, ch) in line.chars().enumerate() {
            let cell = match ch {
                '-' => Cell::Ice,
                '=' => Cell::Floor,
                '#' => Cell::Rock,
                '.' => Cell::Exit,
                '@' | '&' => {
                    if let Some((_, l, k)) = start {
                        return Err(err(
                            n,
                            c + 1,
                            format!("a second player (the first is at line {l}, column {k})"),
                        ));
                    }
                    start = Some((Pos::new(r, c), n, c + 1));
                    if ch == '@' {
                        Cell::Ice
                    } else {
                        Cell::Floor
                    }
                }
                other => {
                    let what = match other {
                        ' ' => "a space is not a cell (use '-' for ice)".to_string(),
                        '\t' => "a tab is not a cell".to_string(),
                        c => format!("unexpected character {}", crate::input::shown(c)),
                    };
                    return Err(err(n, c + 1, format!("{what}; expected - = # @ & .")));
                }
            };
            cells.push(cell);
        }
    }
    let (first, last) = (rows[0].0, rows[rows.len() - 1].0);
    let Some((start, _, _)) = start else {
        return Err(err(
            first,
            1,
            "no player (@ on ice, & on normal floor)".into(),
        ));
    };
    let mut level = Level::new(rows.len(), width, cells, start).map_err(|e| {
        err(
            if e.to_string().contains("exit") {
                last
            } else {
                first
            },
            1,
            e.to_string(),
        )
    })?;
    level.title = title;
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_write_round_trip() {
        let text = "Game: icepath\nTitle: a cave\n@---#\n-#---\n---=.\n";
        let levels = parse(text, "t").unwrap();
        assert_eq!(levels.len(), 1);
        let l = &levels[0];
        assert_eq!(l.title.as_deref(), Some("a cave"));
        assert_eq!((l.rows(), l.cols()), (3, 5));
        assert_eq!(l.start(), Pos::new(0, 0));
        assert_eq!(l.exit(), Pos::new(2, 4));
        assert_eq!(l.cell(Pos::new(2, 3)), Cell::Floor);
        assert_eq!(write(&levels), text);
        // the player on normal floor
        let l = &parse("&-.\n", "t").unwrap()[0];
        assert_eq!(l.cell(l.start()), Cell::Floor);
        assert_eq!(l.rows_text(l.start()), "&-.\n");
    }

    #[test]
    fn errors_are_located() {
        for (text, line, col, what) in [
            ("@-x.\n", 1, 3, "unexpected character"),
            ("@--\n-.\n", 2, 3, "this row has 2 cells"),
            ("---\n--.\n", 1, 1, "no player"),
            ("@-@.\n", 1, 3, "a second player"),
            ("@--\n", 1, 1, "one exit, not 0"),
            ("@..\n", 1, 1, "one exit, not 2"),
            ("Game: pushpush\n@-.\n", 1, 7, "not an ice path"),
            ("Colour: red\n@-.\n", 1, 1, "unknown header"),
            ("; nothing\n", 1, 1, "no ice path level"),
        ] {
            let e = parse(text, "f").unwrap_err();
            assert_eq!((e.line, e.col), (line, col), "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }
}
