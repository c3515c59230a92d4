//! BoxOff (Stephen Meyers; spec `solitaire.md`): an h × w grid of coloured tokens. A move
//! removes two tokens of the same colour when every other cell of the smallest rectangle
//! containing both is already empty (adjacent tokens always qualify). Solved when the grid is
//! empty.
//!
//! # Text format
//!
//! ```text
//! Game: boxoff
//! Title: a (4, 6, 4) challenge
//! 1 2 2 3 4 1
//! 3 4 1 1 2 3
//! 4 2 3 4 4 1
//! 2 3 1 2 3 4
//! ```
//!
//! One line per row, one character per cell (spaces between cells are optional): a colour
//! `1`–`9`, or `.` for a cell already emptied. At most 64 cells.
//!
//! # Moves
//!
//! A move names the two cells, 0-based, row 0 at the top: JSON `{"remove": [[r1, c1], [r2,
//! c2]]}`, text `r1 c1 r2 c2` (one move per line).
//!
//! # Engine
//!
//! A position is the `u64` of cells still holding a token. Every same-colour pair of cells is
//! listed once with the mask of the other cells of its rectangle, so a move is legal when both
//! bits are set and `state & rect == 0`. Every solution removes all tokens, two per move, so
//! all solutions have the same length: [`dfs_first`](crate::search::dfs_first), a
//! depth-first search remembering the positions it has proved dead, returns a shortest
//! solution and is exact (the game's default search); it visits the same positions as
//! breadth-first search when there is no solution, and far fewer when there is.

use super::{Document, Kind};
use crate::error::Error;
use crate::game::Engine;
use crate::search::Puzzle;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Most cells a board may have (the engine's state is a `u64`).
pub const MAX_CELLS: usize = 64;

/// A BoxOff board: `cells[r * cols + c]` is a colour 1–9, or 0 for an empty cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl Board {
    /// A board from its cells (row-major; 0 = empty, 1–9 = colour).
    pub fn new(rows: usize, cols: usize, cells: Vec<u8>) -> Result<Board, Error> {
        if rows == 0 || cols == 0 {
            return Err(Error::invalid(
                "a BoxOff board needs at least one row and one column",
            ));
        }
        if rows * cols > MAX_CELLS {
            return Err(Error::invalid(format!(
                "a BoxOff board has at most {MAX_CELLS} cells; {rows}×{cols} has {}",
                rows * cols
            )));
        }
        if cells.len() != rows * cols {
            return Err(Error::invalid(format!(
                "{} cells given for a {rows}×{cols} board",
                cells.len()
            )));
        }
        if let Some(&c) = cells.iter().find(|&&c| c > 9) {
            return Err(Error::invalid(format!("colour {c} out of range 1–9")));
        }
        Ok(Board { rows, cols, cells })
    }

    pub(crate) fn from_rows(doc: &Document) -> Result<Board, Error> {
        let mut cells = Vec::new();
        let mut cols = None;
        for &(line, text) in &doc.rows {
            let mut row = Vec::new();
            for (i, ch) in text.chars().enumerate() {
                match ch {
                    '1'..='9' => row.push(ch as u8 - b'0'),
                    '.' => row.push(0),
                    c if c.is_whitespace() => {}
                    c => {
                        return Err(doc.err(
                            line,
                            i + 1,
                            format!(
                                "{} is not a colour (1–9) or an empty cell (.)",
                                crate::input::shown(c)
                            ),
                        ))
                    }
                }
            }
            match cols {
                None => cols = Some(row.len()),
                Some(w) if w != row.len() => {
                    return Err(doc.err(
                        line,
                        1,
                        format!("this row has {} cells, the first row {w}", row.len()),
                    ))
                }
                _ => {}
            }
            cells.extend(row);
            if cells.len() > MAX_CELLS {
                return Err(doc.err(
                    line,
                    1,
                    format!("a BoxOff board has at most {MAX_CELLS} cells"),
                ));
            }
        }
        let rows = doc.rows.len();
        Board::new(rows, cols.unwrap_or(0), cells).map_err(|e| doc.at_board(e))
    }

    /// Parses a board from a file's text (see the module documentation).
    pub fn parse(text: &str, file: &str) -> Result<Board, Error> {
        Board::from_rows(&Document::parse(text, file, Kind::BoxOff)?)
    }

    /// The board rows (no headers): cells separated by spaces.
    pub fn write(&self) -> String {
        super::write_rows(self.rows, self.cols, |r, c| match self.get(r, c) {
            0 => ".".to_string(),
            x => x.to_string(),
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
    /// The colour at row `r`, column `c` (0 = empty).
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.cols + c]
    }
    /// The cells, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// The largest colour number used.
    pub fn colours(&self) -> usize {
        self.cells.iter().copied().max().unwrap_or(0) as usize
    }
    /// Tokens on the board.
    pub fn tokens(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// "BoxOff (4, 6, 4): 24 tokens".
    pub fn describe(&self) -> String {
        format!(
            "BoxOff ({}, {}, {}): {} tokens",
            self.rows,
            self.cols,
            self.colours(),
            self.tokens()
        )
    }

    /// The paper's *pair equality*: the share of orthogonally adjacent cell pairs holding two
    /// tokens of the same colour (pairs with an empty cell count as unequal). A 4 × 6 board
    /// has 38 such pairs.
    pub fn pair_equality(&self) -> f64 {
        let (mut equal, mut pairs) = (0u32, 0u32);
        for r in 0..self.rows {
            for c in 0..self.cols {
                let x = self.get(r, c);
                if c + 1 < self.cols {
                    pairs += 1;
                    equal += u32::from(x != 0 && x == self.get(r, c + 1));
                }
                if r + 1 < self.rows {
                    pairs += 1;
                    equal += u32::from(x != 0 && x == self.get(r + 1, c));
                }
            }
        }
        if pairs == 0 {
            0.0
        } else {
            f64::from(equal) / f64::from(pairs)
        }
    }
}

/// A move: the two cells whose tokens are removed (0-based row, column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The two cells, `[[r1, c1], [r2, c2]]`.
    pub remove: [[usize; 2]; 2],
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [[a, b], [c, d]] = self.remove;
        write!(f, "remove ({a},{b}) ({c},{d})")
    }
}

/// One same-colour pair of cells with the other cells of its rectangle.
#[derive(Clone, Copy, Debug)]
struct Pair {
    a: u8,
    b: u8,
    both: u64,
    rect: u64,
}

/// The engine: a board compiled to pair masks. States are `u64` sets of occupied cells.
#[derive(Clone, Debug)]
pub struct BoxOff {
    cols: usize,
    pairs: Vec<Pair>,
    start: u64,
    /// Per colour, the mask of its cells (for the parity test).
    colour_masks: Vec<u64>,
}

impl BoxOff {
    /// Compiles a board.
    pub fn new(b: &Board) -> BoxOff {
        let n = b.cells.len();
        let mut start = 0u64;
        let mut colour_masks = vec![0u64; 10];
        for (i, &c) in b.cells.iter().enumerate() {
            if c != 0 {
                start |= 1 << i;
                colour_masks[c as usize] |= 1 << i;
            }
        }
        let mut pairs = Vec::new();
        for a in 0..n {
            for bb in a + 1..n {
                if b.cells[a] == 0 || b.cells[a] != b.cells[bb] {
                    continue;
                }
                let (r1, c1) = (a / b.cols, a % b.cols);
                let (r2, c2) = (bb / b.cols, bb % b.cols);
                let mut rect = 0u64;
                for r in r1.min(r2)..=r1.max(r2) {
                    for c in c1.min(c2)..=c1.max(c2) {
                        rect |= 1 << (r * b.cols + c);
                    }
                }
                let both = (1u64 << a) | (1u64 << bb);
                pairs.push(Pair {
                    a: a as u8,
                    b: bb as u8,
                    both,
                    rect: rect & !both,
                });
            }
        }
        colour_masks.retain(|&m| m != 0);
        BoxOff {
            cols: b.cols,
            pairs,
            start,
            colour_masks,
        }
    }

    /// A move in board coordinates.
    pub fn describe_move(&self, (a, b): (u8, u8)) -> Move {
        let cell = |i: u8| [i as usize / self.cols, i as usize % self.cols];
        Move {
            remove: [cell(a), cell(b)],
        }
    }

    /// Whether some colour has an odd number of tokens left (then no removal sequence can
    /// empty the board).
    pub fn parity_dead(&self, state: u64) -> bool {
        self.colour_masks
            .iter()
            .any(|&m| (state & m).count_ones() % 2 == 1)
    }

    #[inline]
    fn each_move(&self, s: u64, mut f: impl FnMut(&Pair)) {
        for p in &self.pairs {
            if s & p.both == p.both && s & p.rect == 0 {
                f(p);
            }
        }
    }
}

impl Engine for BoxOff {
    type Public = Move;
    fn public(&self, &m: &(u8, u8)) -> Move {
        self.describe_move(m)
    }
    fn dead_start(&self) -> Option<String> {
        self.parity_dead(self.start).then(|| {
            "a colour has an odd number of tokens: no sequence of removals empties the board"
                .to_string()
        })
    }
}

impl Puzzle for BoxOff {
    type State = u64;
    /// The two cells (row-major indices) whose tokens are removed.
    type Move = (u8, u8);

    fn start(&self) -> u64 {
        self.start
    }
    fn successors(&self, s: &u64, out: &mut Vec<((u8, u8), u64)>) {
        self.each_move(*s, |p| out.push(((p.a, p.b), s & !p.both)));
    }
    fn for_each_next<F: FnMut(u64)>(&self, s: &u64, mut f: F) {
        self.each_move(*s, |p| f(s & !p.both));
    }
    fn is_goal(&self, s: &u64) -> bool {
        *s == 0
    }
    /// Every move removes two tokens: exact, not just admissible.
    fn lower_bound(&self, s: &u64) -> u32 {
        s.count_ones().div_ceil(2)
    }
}

/// Plays one move on the plain grid (independently of the engine), or says why it is illegal.
pub fn apply(b: &mut Board, m: &Move) -> Result<(), String> {
    let [[r1, c1], [r2, c2]] = m.remove;
    for (r, c) in [(r1, c1), (r2, c2)] {
        if r >= b.rows || c >= b.cols {
            return Err(format!("({r},{c}) is off the {}×{} board", b.rows, b.cols));
        }
        if b.cells[r * b.cols + c] == 0 {
            return Err(format!("({r},{c}) holds no token"));
        }
    }
    if (r1, c1) == (r2, c2) {
        return Err(format!("({r1},{c1}) is named twice"));
    }
    let (x, y) = (b.cells[r1 * b.cols + c1], b.cells[r2 * b.cols + c2]);
    if x != y {
        return Err(format!(
            "({r1},{c1}) holds colour {x} and ({r2},{c2}) colour {y}"
        ));
    }
    for r in r1.min(r2)..=r1.max(r2) {
        for c in c1.min(c2)..=c1.max(c2) {
            if (r, c) != (r1, c1) && (r, c) != (r2, c2) && b.cells[r * b.cols + c] != 0 {
                return Err(format!(
                    "({r},{c}) inside their rectangle still holds a token"
                ));
            }
        }
    }
    b.cells[r1 * b.cols + c1] = 0;
    b.cells[r2 * b.cols + c2] = 0;
    Ok(())
}

/// Parses a move list: JSON (a list of moves, or a `floe solve --json` document) or text with
/// one `r1 c1 r2 c2` per line.
pub fn parse_moves(text: &str, file: &str) -> Result<Vec<Move>, Error> {
    crate::game::parse_move_list(text, file, |line| {
        let n = super::numbers(line)?;
        let [a, b, c, d] = n[..] else {
            return Err("expected four numbers: r1 c1 r2 c2".to_string());
        };
        let u = |x: i64| usize::try_from(x).map_err(|_| format!("{x} is not a row or column"));
        Ok(Move {
            remove: [[u(a)?, u(b)?], [u(c)?, u(d)?]],
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solitaire::replay;
    use crate::search::{bfs, dfs_first as solve_dfs, Limits, Outcome};

    fn board(s: &str) -> Board {
        Board::parse(s, "t").unwrap()
    }

    #[test]
    fn parse_and_write_round_trip() {
        let b = board("Game: boxoff\n12\n2.\n");
        assert_eq!((b.rows(), b.cols(), b.tokens(), b.colours()), (2, 2, 3, 2));
        assert_eq!(b.write(), "1 2\n2 .\n");
        assert_eq!(board(&b.write()), b);
    }

    #[test]
    fn parse_errors_are_located() {
        let e = Board::parse("12\n1x\n", "f").unwrap_err().to_string();
        assert_eq!(e, "f:2:2: 'x' is not a colour (1–9) or an empty cell (.)");
        let e = Board::parse("12\n1\n", "f").unwrap_err().to_string();
        assert!(e.starts_with("f:2:1: this row has 1 cells"), "{e}");
        let big = "11111111\n".repeat(9);
        assert!(Board::parse(&big, "f")
            .unwrap_err()
            .to_string()
            .contains("at most 64"));
    }

    #[test]
    fn rectangle_rule() {
        // 1 2 1: the two 1s are blocked by the 2 until... the 2 can never go: unsolvable
        let b = board("121\n");
        let p = BoxOff::new(&b);
        let mut out = Vec::new();
        p.successors(&p.start(), &mut out);
        assert!(out.is_empty());
        assert_eq!(solve_dfs(&p, &Limits::none()).outcome, Outcome::Unsolvable);
        // 1 2 2 1: remove the 2s, then the 1s
        let b = board("1221\n");
        let p = BoxOff::new(&b);
        let r = solve_dfs(&p, &Limits::none());
        assert_eq!(r.outcome, Outcome::Solved(vec![(1, 2), (0, 3)]));
        // diagonal pair: the other two cells of the 2×2 rectangle must be empty
        let b = board("12\n21\n");
        let p = BoxOff::new(&b);
        assert_eq!(solve_dfs(&p, &Limits::none()).outcome, Outcome::Unsolvable);
        let b = board("1.\n.1\n");
        assert!(solve_dfs(&BoxOff::new(&b), &Limits::none())
            .outcome
            .solution()
            .is_some());
    }

    #[test]
    fn dfs_agrees_with_bfs() {
        use crate::games::solitaire::shuffle;
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut solved = 0;
        for _ in 0..200 {
            let mut cells: Vec<u8> = (0..16).map(|i| (i % 4) as u8 + 1).collect();
            shuffle(&mut cells, &mut rng);
            let b = Board::new(4, 4, cells).unwrap();
            let p = BoxOff::new(&b);
            let d = solve_dfs(&p, &Limits::none());
            let r = bfs(&p, &Limits::none());
            assert_eq!(
                d.outcome.solution().is_some(),
                r.outcome.solution().is_some()
            );
            assert_eq!(d.cost, r.cost);
            if let Some(m) = d.outcome.solution() {
                solved += 1;
                let moves: Vec<Move> = m.iter().map(|&x| p.describe_move(x)).collect();
                assert!(replay(super::super::BoxOff, &b, &moves).unwrap().solved);
            }
        }
        assert!(solved > 20 && solved < 200, "{solved}");
    }

    #[test]
    fn validator_names_the_illegal_move() {
        let b = board("1221\n");
        let m = |a: [usize; 2], c: [usize; 2]| Move { remove: [a, c] };
        let e = replay(super::super::BoxOff, &b, &[m([0, 0], [0, 3])]).unwrap_err();
        assert_eq!(e.0, 0);
        assert!(e.1.contains("(0,1) inside their rectangle"), "{e:?}");
        let e = replay(
            super::super::BoxOff,
            &b,
            &[m([0, 1], [0, 2]), m([0, 1], [0, 0])],
        )
        .unwrap_err();
        assert_eq!((e.0, e.1.as_str()), (1, "(0,1) holds no token"));
        let e = replay(super::super::BoxOff, &b, &[m([0, 0], [0, 1])]).unwrap_err();
        assert!(e.1.contains("colour 1"), "{e:?}");
        let e = replay(super::super::BoxOff, &b, &[m([0, 0], [5, 1])]).unwrap_err();
        assert!(e.1.contains("off the"), "{e:?}");
        let r = replay(super::super::BoxOff, &b, &[m([0, 1], [0, 2])]).unwrap();
        assert!(!r.solved);
        assert_eq!(r.positions.last().unwrap().write(), "1 . . 1\n");
    }

    #[test]
    fn pair_equality_counts_adjacent_pairs() {
        // 4×6 has 38 adjacent pairs
        let b = board(&"111111\n".repeat(4));
        assert_eq!(b.pair_equality(), 1.0);
        let b = board("121212\n212121\n121212\n212121\n");
        assert_eq!(b.pair_equality(), 0.0);
        let b = board("112233\n445566\n778899\n123456\n");
        assert!((b.pair_equality() - 9.0 / 38.0).abs() < 1e-12);
    }

    #[test]
    fn parity() {
        let p = BoxOff::new(&board("112\n"));
        assert!(p.parity_dead(p.start()));
        assert!(p.dead_start().is_some());
        assert!(BoxOff::new(&board("1122\n")).dead_start().is_none());
        assert_eq!(solve_dfs(&p, &Limits::none()).outcome, Outcome::Unsolvable);
    }

    #[test]
    fn move_lists_parse() {
        let m = parse_moves("0 1 0 2\n0 0 0 3\n", "f").unwrap();
        assert_eq!(m[1].remove, [[0, 0], [0, 3]]);
        let j = parse_moves(r#"{"moves": [{"remove": [[0,1],[0,2]]}]}"#, "f").unwrap();
        assert_eq!(j[0].remove, [[0, 1], [0, 2]]);
        let e = parse_moves("0 1 0\n", "f").unwrap_err().to_string();
        assert!(e.starts_with("f:1:1:"), "{e}");
    }
}
