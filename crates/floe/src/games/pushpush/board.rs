//! A PushPush board as data, and its text format (spec `pushpush.md`, "Level format").
//!
//! ```text
//! ; a comment
//! Title: first
//! Game: pushpush
//! @-$-
//! -$$.
//! ----
//! ```
//!
//! `-` empty, `$` block, `@` robot, `.` target, `*` block on the target, `#` wall. Levels are
//! separated by blank lines; `Key: value` lines before a board are its headers (`Title:`,
//! `Game:`; others are kept). Every row of a board has the same length.

use crate::error::{Error, ParseError};
use crate::games::file::Reader;
use crate::grid::{Dir, Pos};
use std::fmt::Write as _;
use std::path::Path;

/// A PushPush board: a rectangle of cells, each empty, a block or a wall; one robot on an
/// empty cell; one target cell (which may hold a block), different from the robot's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    walls: Vec<bool>,
    blocks: Vec<bool>,
    robot: Pos,
    target: Pos,
    /// The `Title:` header.
    pub title: Option<String>,
    /// Comment lines (`;` stripped).
    pub comments: Vec<String>,
    /// Other headers, in order.
    pub meta: Vec<(String, String)>,
}

/// The largest board floe takes (cells).
pub const MAX_CELLS: usize = 1024;

impl Board {
    /// An empty board with the robot and the target at the given cells.
    pub fn new(rows: usize, cols: usize, robot: Pos, target: Pos) -> Result<Board, Error> {
        if rows == 0 || cols == 0 {
            return Err(Error::invalid(
                "a board needs at least one row and one column",
            ));
        }
        if rows.saturating_mul(cols) > MAX_CELLS {
            return Err(Error::invalid(format!(
                "a {rows}×{cols} board has more than {MAX_CELLS} cells, the most floe handles"
            )));
        }
        for (what, p) in [("robot", robot), ("target", target)] {
            if p.row >= rows || p.col >= cols {
                return Err(Error::invalid(format!(
                    "the {what} at ({}, {}) is outside the {rows}×{cols} board",
                    p.row, p.col
                )));
            }
        }
        if robot == target {
            return Err(Error::invalid(
                "the robot stands on the target: there is nothing to solve",
            ));
        }
        Ok(Board {
            rows,
            cols,
            walls: vec![false; rows * cols],
            blocks: vec![false; rows * cols],
            robot,
            target,
            title: None,
            comments: Vec::new(),
            meta: Vec::new(),
        })
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Cells.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
    /// The index of `p` (row-major).
    pub fn index(&self, p: Pos) -> usize {
        p.row * self.cols + p.col
    }
    /// The position of cell `i`.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i / self.cols, i % self.cols)
    }
    /// Whether `p` is on the board.
    pub fn contains(&self, p: Pos) -> bool {
        p.row < self.rows && p.col < self.cols
    }
    /// The neighbour of `p` towards `d`, if on the board.
    pub fn step(&self, p: Pos, d: Dir) -> Option<Pos> {
        p.step(d, self.rows, self.cols)
    }
    /// The robot's cell.
    pub fn robot(&self) -> Pos {
        self.robot
    }
    /// The target cell.
    pub fn target(&self) -> Pos {
        self.target
    }
    /// Whether a wall stands at `p`.
    pub fn is_wall(&self, p: Pos) -> bool {
        self.walls[self.index(p)]
    }
    /// Whether a block stands at `p`.
    pub fn has_block(&self, p: Pos) -> bool {
        self.blocks[self.index(p)]
    }
    /// Whether `p` is empty floor (no wall, no block; the robot may stand there).
    pub fn is_free(&self, p: Pos) -> bool {
        !self.is_wall(p) && !self.has_block(p)
    }
    /// Number of blocks.
    pub fn block_count(&self) -> usize {
        self.blocks.iter().filter(|&&b| b).count()
    }
    /// Puts or removes a block. Blocks cannot stand on walls or under the robot.
    pub fn set_block(&mut self, p: Pos, block: bool) -> Result<(), Error> {
        self.check(p)?;
        if block && (self.is_wall(p) || p == self.robot) {
            return Err(Error::invalid(format!(
                "no block can stand at ({}, {}): {}",
                p.row,
                p.col,
                if p == self.robot {
                    "the robot is there"
                } else {
                    "a wall is there"
                }
            )));
        }
        let i = self.index(p);
        self.blocks[i] = block;
        Ok(())
    }
    /// Puts or removes a wall. Walls cannot stand on the robot, the target or a block.
    pub fn set_wall(&mut self, p: Pos, wall: bool) -> Result<(), Error> {
        self.check(p)?;
        if wall && (p == self.robot || p == self.target || self.has_block(p)) {
            return Err(Error::invalid(format!(
                "no wall can stand at ({}, {}): the robot, the target or a block is there",
                p.row, p.col
            )));
        }
        let i = self.index(p);
        self.walls[i] = wall;
        Ok(())
    }
    /// Moves the robot to an empty cell. On the target, the board is solved (a replay may
    /// go on after that; the text format has no symbol for it and shows `+`).
    pub fn set_robot(&mut self, p: Pos) -> Result<(), Error> {
        self.check(p)?;
        if !self.is_free(p) {
            return Err(Error::invalid(format!(
                "the robot cannot stand at ({}, {}): it is not empty floor",
                p.row, p.col
            )));
        }
        self.robot = p;
        Ok(())
    }
    fn check(&self, p: Pos) -> Result<(), Error> {
        if self.contains(p) {
            Ok(())
        } else {
            Err(Error::invalid(format!(
                "({}, {}) is outside the {}×{} board",
                p.row, p.col, self.rows, self.cols
            )))
        }
    }
    /// The title, or `level N` (1-based) when there is none.
    pub fn display_name(&self, index: usize) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| format!("level {}", index + 1))
    }
    /// The board's rows in the text format (no headers).
    pub fn rows_text(&self) -> String {
        let mut s = String::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                s.push(self.symbol(Pos::new(r, c)));
            }
            s.push('\n');
        }
        s
    }
    /// The character of cell `p` in the text format.
    pub fn symbol(&self, p: Pos) -> char {
        match (
            self.is_wall(p),
            self.has_block(p),
            p == self.robot,
            p == self.target,
        ) {
            (true, ..) => '#',
            (_, true, _, true) => '*',
            (_, true, _, false) => '$',
            (_, _, true, true) => '+',
            (_, _, true, _) => '@',
            (_, _, _, true) => '.',
            _ => '-',
        }
    }
}

/// Writes boards in the text format, headers and comments included, separated by blank lines.
pub fn write(boards: &[Board]) -> String {
    let mut out = String::new();
    for (i, b) in boards.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for c in &b.comments {
            let _ = writeln!(out, "; {c}");
        }
        if let Some(t) = &b.title {
            let _ = writeln!(out, "Title: {t}");
        }
        let _ = writeln!(out, "Game: pushpush");
        for (k, v) in &b.meta {
            let _ = writeln!(out, "{k}: {v}");
        }
        out.push_str(&b.rows_text());
    }
    out
}

/// How PushPush files are read (the grid games' shared format).
const READER: Reader = Reader {
    game: "pushpush",
    noun: "PushPush board",
    cells: "- $ @ . * #",
    says: |c, _| match c {
        ' ' => Some("a space is not a cell (use '-' for an empty cell)".into()),
        '+' => Some(
            "the robot cannot start on the target ('+'): there would be nothing to solve".into(),
        ),
        _ => None,
    },
    own_headers: true,
};

/// Parses every board of a text. All or nothing: the first error is returned with its line
/// and column.
pub fn parse(text: &str, file: &str) -> Result<Vec<Board>, ParseError> {
    READER.levels(text, file, |b| {
        Pending {
            rows: b.rows,
            title: b.title,
            comments: b.comments,
            meta: b.headers.into_iter().map(|h| (h.key, h.value)).collect(),
        }
        .finish(file)
    })
}

/// Reads and parses a file (`-` is standard input). Boards without a title are named after
/// the file.
pub fn load(path: &Path) -> Result<Vec<Board>, Error> {
    let (text, name) = crate::input::read_text(path)?;
    let mut boards = parse(&text, &name)?;
    if let Some(stem) = path
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| *s != "-")
    {
        let n = boards.len();
        for (i, b) in boards.iter_mut().enumerate() {
            if b.title.is_none() {
                b.title = Some(if n == 1 {
                    stem.to_string()
                } else {
                    format!("{stem}#{}", i + 1)
                });
            }
        }
    }
    Ok(boards)
}

/// Picks one board: a 1-based number or a title.
pub fn select<'a>(boards: &'a [Board], sel: &str) -> Result<(usize, &'a Board), Error> {
    crate::input::select_titled(boards, sel, |b| b.title.clone())
}

#[derive(Default)]
struct Pending {
    rows: Vec<(usize, String)>,
    title: Option<String>,
    comments: Vec<String>,
    meta: Vec<(String, String)>,
}

impl Pending {
    fn finish(self, file: &str) -> Result<Board, ParseError> {
        let err = |line: usize, col: usize, m: String| ParseError {
            file: file.to_string(),
            line,
            col,
            message: m,
        };
        let (first_line, first) = &self.rows[0];
        let cols = first.chars().count();
        let rows = self.rows.len();
        let mut robot = None;
        let mut target = None;
        for (r, (n, text)) in self.rows.iter().enumerate() {
            let len = text.chars().count();
            if len != cols {
                return Err(err(
                    *n,
                    len.min(cols) + 1,
                    format!(
                        "this row has {len} cells but the board's first row (line {first_line}) has {cols}; a PushPush board is a rectangle"
                    ),
                ));
            }
            for (c, ch) in text.chars().enumerate() {
                let here = (Pos::new(r, c), *n, c + 1);
                let slot = match ch {
                    '@' => &mut robot,
                    '.' | '*' => &mut target,
                    _ => continue,
                };
                if let Some((_, l, col)) = *slot {
                    let what = if ch == '@' { "robot" } else { "target" };
                    return Err(err(
                        *n,
                        c + 1,
                        format!("a second {what}; the first is at line {l}, column {col}"),
                    ));
                }
                *slot = Some(here);
            }
        }
        let Some((robot, _, _)) = robot else {
            return Err(err(*first_line, 1, "the board has no robot ('@')".into()));
        };
        let Some((target, _, _)) = target else {
            return Err(err(
                *first_line,
                1,
                "the board has no target ('.', or '*' for a block on the target)".into(),
            ));
        };
        let mut board = Board::new(rows, cols, robot, target)
            .map_err(|e| err(*first_line, 1, e.to_string()))?;
        for (r, (_, text)) in self.rows.iter().enumerate() {
            for (c, ch) in text.chars().enumerate() {
                let p = Pos::new(r, c);
                match ch {
                    '$' | '*' => board.blocks[r * cols + c] = true,
                    '#' => board.walls[r * cols + c] = true,
                    _ => {}
                }
                debug_assert!(board.contains(p));
            }
        }
        board.title = self.title;
        board.comments = self.comments;
        board.meta = self.meta;
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text = "; c\nTitle: a\n@-$-\n-$*#\n\n$-@.\n";
        let boards = parse(text, "t").unwrap();
        assert_eq!(boards.len(), 2);
        let b = &boards[0];
        assert_eq!((b.rows(), b.cols(), b.block_count()), (2, 4, 3));
        assert_eq!(b.robot(), Pos::new(0, 0));
        assert_eq!(b.target(), Pos::new(1, 2));
        assert!(b.has_block(b.target()) && b.is_wall(Pos::new(1, 3)));
        let again = parse(&write(&boards), "t").unwrap();
        assert_eq!(again[0].rows_text(), b.rows_text());
        assert_eq!(again[1].rows_text(), "$-@.\n");
        assert_eq!(again[0].title.as_deref(), Some("a"));
    }

    #[test]
    fn errors_are_located() {
        let cases = [
            ("@-.\n-x-\n", (2, 2)),
            ("@-.\n--\n", (2, 3)),
            ("@-.\n@--\n", (2, 1)),
            ("@-.\n--.\n", (2, 3)),
            ("---\n--.\n", (1, 1)),
            ("@--\n---\n", (1, 1)),
            ("+--\n---\n", (1, 1)),
            ("Game: ice\n@-.\n", (1, 7)),
            ("Title: x\n", (1, 1)),
            ("@ .\n", (1, 2)),
        ];
        for (text, (line, col)) in cases {
            let e = parse(text, "f").unwrap_err();
            assert_eq!((e.line, e.col), (line, col), "{text:?}: {}", e.message);
        }
    }
}
