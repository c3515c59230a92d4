//! Fujisan (James Kyle, for the piecepack; spec `solitaire.md`): a 2 × 12 mountain of values;
//! the middle two columns are the summit. Four priests start off the mountain, one beside each
//! end of each row. One priest moves at a time:
//!
//! 1. at most one priest per space;
//! 2. a priest moves left or right along its row onto a space whose value equals the number
//!    of unoccupied spaces it travels, counting the destination and not its start; spaces
//!    holding other priests are jumped over and not counted;
//! 3. a priest on the mountain may move up or down within its column (never from the
//!    ground), so a priest's first move lands on the mountain;
//! 4. a priest on the summit no longer moves left or right (it may still move up or down); a
//!    priest may pass over the summit during a move.
//!
//! Solved when all four summit spaces hold priests.
//!
//! # Text format
//!
//! ```text
//! Game: fujisan
//! 3 1 4 0 2 5 1 2 3 4 0 1
//! 2 0 5 3 1 4 2 3 1 0 5 4
//! ```
//!
//! Two rows of values `0`–`9` (spaces between them optional). The width is even, 4 to 30;
//! the summit is the middle two columns (columns 5 and 6 of the usual 12).
//!
//! # Moves
//!
//! JSON `{"from": [r, c], "to": [r, c]}`, 0-based, row 0 at the top; the priests' starting
//! places are column −1 (left of the mountain) and column `width` (right of it). Text: one
//! `r1 c1 r2 c2` per line.
//!
//! # Engine
//!
//! A position is the `u64` of occupied places: bit `r · w + c` for the mountain, `2w + 2·side +
//! r` for the four starting places. The A* bound is the number of empty summit spaces (a move
//! fills at most one).

use super::{Document, Kind};
use crate::error::Error;
use crate::game::Engine;
use crate::search::Puzzle;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Narrowest and widest mountains.
pub const WIDTHS: std::ops::RangeInclusive<usize> = 4..=30;

/// A mountain: two rows of values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mountain {
    cols: usize,
    /// Row-major, `2 · cols` values.
    values: Vec<u8>,
}

impl Mountain {
    /// A mountain from its values (row-major: the top row, then the bottom row).
    pub fn new(cols: usize, values: Vec<u8>) -> Result<Mountain, Error> {
        if !WIDTHS.contains(&cols) || cols % 2 != 0 {
            return Err(Error::invalid(format!(
                "a Fujisan mountain has an even width from 4 to 30, not {cols}"
            )));
        }
        if values.len() != 2 * cols {
            return Err(Error::invalid(format!(
                "{} values given for a 2×{cols} mountain",
                values.len()
            )));
        }
        if let Some(v) = values.iter().find(|&&v| v > 9) {
            return Err(Error::invalid(format!("value {v} out of range 0–9")));
        }
        Ok(Mountain { cols, values })
    }

    pub(crate) fn from_rows(doc: &Document) -> Result<Mountain, Error> {
        if doc.rows.len() != 2 {
            let (line, _) = doc.rows.get(2).copied().unwrap_or((doc.end_line, ""));
            return Err(doc.err(
                line,
                1,
                format!("a Fujisan mountain has two rows, not {}", doc.rows.len()),
            ));
        }
        let mut values = Vec::new();
        let mut width = None;
        for &(line, text) in &doc.rows {
            let mut row = Vec::new();
            for (i, ch) in text.chars().enumerate() {
                match ch {
                    '0'..='9' => row.push(ch as u8 - b'0'),
                    c if c.is_whitespace() => {}
                    c => {
                        return Err(doc.err(
                            line,
                            i + 1,
                            format!("{} is not a value 0–9", crate::input::shown(c)),
                        ))
                    }
                }
            }
            match width {
                None => width = Some(row.len()),
                Some(w) if w != row.len() => {
                    return Err(doc.err(
                        line,
                        1,
                        format!("this row has {} values, the first row {w}", row.len()),
                    ))
                }
                _ => {}
            }
            values.extend(row);
        }
        Mountain::new(width.unwrap_or(0), values).map_err(|e| doc.at_board(e))
    }

    /// Parses a mountain from a file's text (see the module documentation).
    pub fn parse(text: &str, file: &str) -> Result<Mountain, Error> {
        Mountain::from_rows(&Document::parse(text, file, Kind::Fujisan)?)
    }

    /// The two rows (no headers).
    pub fn write(&self) -> String {
        super::write_rows(2, self.cols, |r, c| self.get(r, c).to_string())
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// The value at row `r` (0 or 1), column `c`.
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.values[r * self.cols + c]
    }
    /// The values, row-major.
    pub fn values(&self) -> &[u8] {
        &self.values
    }
    /// The two summit columns.
    pub fn summit(&self) -> [usize; 2] {
        [self.cols / 2 - 1, self.cols / 2]
    }
    /// Whether column `c` is a summit column.
    pub fn is_summit(&self, c: usize) -> bool {
        self.summit().contains(&c)
    }

    /// "Fujisan: 2×12 mountain".
    pub fn describe(&self) -> String {
        format!("Fujisan: 2×{} mountain", self.cols)
    }

    /// The paper's *connectivity*: step A is connected to step B when a rule-2 move from B to
    /// A exists on the empty mountain (a value in column A equals the distance |A − B|, in
    /// either row). Moves start from non-summit columns only (summit priests cannot move
    /// sideways). The figure is the mean, over the columns A, of the number of columns A is
    /// connected to.
    pub fn connectivity(&self) -> f64 {
        let w = self.cols;
        let mut links = 0u32;
        for a in 0..w {
            for b in 0..w {
                if a == b || self.is_summit(b) {
                    continue;
                }
                let d = a.abs_diff(b) as u8;
                if self.get(0, a) == d || self.get(1, a) == d {
                    links += 1;
                }
            }
        }
        f64::from(links) / w as f64
    }

    /// Whether every column holds a different unordered pair of values (the restriction the
    /// paper found to raise the solvability of shuffled challenges).
    pub fn distinct_steps(&self) -> bool {
        let mut seen = std::collections::HashSet::new();
        (0..self.cols).all(|c| {
            let (a, b) = (self.get(0, c), self.get(1, c));
            seen.insert((a.min(b), a.max(b)))
        })
    }

    /// Distance of a place from the summit in columns (the starting places count as one
    /// column beyond the ends).
    pub fn distance(&self, col: i64) -> u64 {
        let [lo, hi] = self.summit().map(|x| x as i64);
        if col < lo {
            (lo - col) as u64
        } else if col > hi {
            (col - hi) as u64
        } else {
            0
        }
    }

    /// Counter-intuitive moves of a move list: moves that take a priest farther from the
    /// summit (the paper, after Jarušek and Pelánek).
    pub fn counter_intuitive(&self, moves: &[Move]) -> usize {
        moves
            .iter()
            .filter(|m| self.distance(m.to[1]) > self.distance(m.from[1]))
            .count()
    }
}

/// A priest's move. Columns −1 and `width` are the starting places beside the mountain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// Where the priest was: `[row, column]`.
    pub from: [i64; 2],
    /// Where it went.
    pub to: [i64; 2],
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({},{}) → ({},{})",
            self.from[0], self.from[1], self.to[0], self.to[1]
        )
    }
}

/// The engine.
#[derive(Clone, Debug)]
pub struct Fujisan {
    w: usize,
    values: Vec<u8>,
    max_value: u8,
    start: u64,
    summit: u64,
}

impl Fujisan {
    /// Compiles a mountain.
    pub fn new(m: &Mountain) -> Fujisan {
        let w = m.cols;
        let start = 0b1111u64 << (2 * w);
        let [a, b] = m.summit();
        let summit = (1u64 << a) | (1 << b) | (1 << (w + a)) | (1 << (w + b));
        Fujisan {
            w,
            values: m.values.clone(),
            max_value: m.values.iter().copied().max().unwrap_or(0),
            start,
            summit,
        }
    }

    /// `[row, column]` of a place (columns −1 and `w` for the starting places).
    pub fn place(&self, p: u8) -> [i64; 2] {
        let (p, w) = (p as usize, self.w);
        if p < 2 * w {
            [(p / w) as i64, (p % w) as i64]
        } else {
            let g = p - 2 * w;
            [(g % 2) as i64, if g < 2 { -1 } else { w as i64 }]
        }
    }

    /// A move in mountain coordinates.
    pub fn describe_move(&self, (from, to): (u8, u8)) -> Move {
        Move {
            from: self.place(from),
            to: self.place(to),
        }
    }

    #[inline]
    fn lateral(&self, s: u64, from: usize, r: usize, c: i64, d: i64, f: &mut impl FnMut(u8, u8)) {
        let w = self.w as i64;
        let mut count = 0u8;
        let mut x = c + d;
        while (0..w).contains(&x) {
            let i = r * self.w + x as usize;
            if s & (1 << i) == 0 {
                count += 1;
                if self.values[i] == count {
                    f(from as u8, i as u8);
                }
                if count >= self.max_value {
                    break;
                }
            }
            x += d;
        }
    }

    #[inline]
    fn each_move(&self, s: u64, mut f: impl FnMut(u8, u8)) {
        let w = self.w;
        let mut bits = s;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if p < 2 * w {
                let (r, c) = (p / w, p % w);
                let q = (1 - r) * w + c;
                if s & (1 << q) == 0 {
                    f(p as u8, q as u8);
                }
                if s & self.summit & (1 << p) == 0 {
                    self.lateral(s, p, r, c as i64, 1, &mut f);
                    self.lateral(s, p, r, c as i64, -1, &mut f);
                }
            } else {
                let g = p - 2 * w;
                let r = g % 2;
                if g < 2 {
                    self.lateral(s, p, r, -1, 1, &mut f);
                } else {
                    self.lateral(s, p, r, w as i64, -1, &mut f);
                }
            }
        }
    }
}

impl Fujisan {
    /// The engine's position with the priests at `priests`.
    pub fn state_of(&self, priests: &Priests) -> u64 {
        let w = self.w as i64;
        priests.iter().fold(0u64, |s, &[r, c]| {
            let bit = if c < 0 {
                2 * w + r
            } else if c >= w {
                2 * w + 2 + r
            } else {
                r * w + c
            };
            s | 1 << bit
        })
    }
}

impl Engine for Fujisan {
    type Public = Move;
    fn public(&self, &m: &(u8, u8)) -> Move {
        self.describe_move(m)
    }
}

impl Puzzle for Fujisan {
    type State = u64;
    /// (from place, to place).
    type Move = (u8, u8);

    fn start(&self) -> u64 {
        self.start
    }
    fn successors(&self, s: &u64, out: &mut Vec<((u8, u8), u64)>) {
        self.each_move(*s, |a, b| out.push(((a, b), (s & !(1 << a)) | (1 << b))));
    }
    fn for_each_next<F: FnMut(u64)>(&self, s: &u64, mut f: F) {
        self.each_move(*s, |a, b| f((s & !(1 << a)) | (1 << b)));
    }
    fn is_goal(&self, s: &u64) -> bool {
        s & self.summit == self.summit
    }
    fn lower_bound(&self, s: &u64) -> u32 {
        (self.summit & !s).count_ones()
    }
}

/// Where the four priests stand: `[row, column]`, the starting places as columns −1 and
/// `width`.
pub type Priests = [[i64; 2]; 4];

/// The priests at the start: beside each end of each row.
pub fn start_priests(m: &Mountain) -> Priests {
    let w = m.cols as i64;
    [[0, -1], [1, -1], [0, w], [1, w]]
}

/// Whether all four summit spaces hold priests.
pub fn summit_reached(m: &Mountain, priests: &Priests) -> bool {
    let [a, b] = m.summit().map(|x| x as i64);
    [[0, a], [0, b], [1, a], [1, b]]
        .iter()
        .all(|p| priests.contains(p))
}

/// Plays one move with the rules written out on plain coordinates (independently of the
/// engine), or says why it is illegal.
pub fn apply(m: &Mountain, priests: &mut Priests, mv: &Move) -> Result<(), String> {
    let w = m.cols as i64;
    let on_mountain = |[r, c]: [i64; 2]| (0..2).contains(&r) && (0..w).contains(&c);
    let ([r1, c1], [r2, c2]) = (mv.from, mv.to);
    let Some(who) = priests.iter().position(|&p| p == mv.from) else {
        return Err(format!("no priest stands at ({r1},{c1})"));
    };
    if c1 == c2 && !on_mountain(mv.from) {
        return Err("a priest on the ground cannot move up or down".into());
    }
    if !on_mountain(mv.to) {
        return Err(format!(
            "({r2},{c2}) is not a space of the mountain (rows 0–1, columns 0–{})",
            w - 1
        ));
    }
    if priests.contains(&mv.to) {
        return Err(format!("({r2},{c2}) already holds a priest"));
    }
    if c1 == c2 {
        // up or down within a column of the mountain: always allowed onto a free space
    } else if r1 == r2 {
        if on_mountain(mv.from) && m.is_summit(c1 as usize) {
            return Err(format!(
                "the priest at ({r1},{c1}) is on the summit and can no longer move sideways"
            ));
        }
        let (lo, hi) = (c1.min(c2), c1.max(c2));
        let passed = (lo + 1..hi)
            .filter(|&c| !priests.contains(&[r1, c]))
            .count()
            + 1;
        let v = m.get(r2 as usize, c2 as usize) as usize;
        if v != passed {
            return Err(format!(
                "the priest travels {passed} unoccupied space{} to ({r2},{c2}), whose value is {v}",
                if passed == 1 { "" } else { "s" }
            ));
        }
    } else {
        return Err(format!(
            "({r1},{c1}) → ({r2},{c2}) is neither along a row nor up or down a column"
        ));
    }
    priests[who] = mv.to;
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
        Ok(Move {
            from: [a, b],
            to: [c, d],
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solitaire::replay;
    use crate::search::{astar, bfs, Limits, Outcome, UnitCost};

    fn mountain(s: &str) -> Mountain {
        Mountain::parse(s, "t").unwrap()
    }

    #[test]
    fn parse_and_write() {
        let m = mountain("Game: fujisan\n314025123401\n205314231054\n");
        assert_eq!(m.cols(), 12);
        assert_eq!(m.get(1, 2), 5);
        assert_eq!(m.summit(), [5, 6]);
        assert_eq!(mountain(&m.write()), m);
        let e = Mountain::parse("1 2 3\n1 2 3\n", "f")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("f:1:1: a Fujisan mountain has an even width"),
            "{e}"
        );
        let e = Mountain::parse("1234\n12x4\n", "f")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "f:2:3: 'x' is not a value 0–9");
        let e = Mountain::parse("1234\n", "f").unwrap_err().to_string();
        assert!(e.contains("two rows"), "{e}");
    }

    /// Moves from the start of a mountain, as (from, to) coordinates.
    fn moves_from_start(m: &Mountain) -> Vec<Move> {
        let p = Fujisan::new(m);
        let mut out = Vec::new();
        p.successors(&p.start(), &mut out);
        out.into_iter().map(|(x, _)| p.describe_move(x)).collect()
    }

    #[test]
    fn rule_two_counts_unoccupied_spaces() {
        // top row: from the left start, a 1 in column 0, a 3 in column 2; from the right, a 2
        // in column 10 (two spaces: 11 and 10)
        let m = mountain("1 0 3 0 0 0 0 0 0 0 2 0\n0 0 0 0 0 0 0 0 0 0 0 0\n");
        let mut got: Vec<String> = moves_from_start(&m).iter().map(|x| x.to_string()).collect();
        got.sort();
        assert_eq!(
            got,
            vec!["(0,-1) → (0,0)", "(0,-1) → (0,2)", "(0,12) → (0,10)"]
        );
        // an occupied space is jumped over and not counted
        let mv = |a: [i64; 2], b: [i64; 2]| Move { from: a, to: b };
        let m = mountain("1 2 0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0 0 0\n");
        let r = replay(
            super::super::Fujisan,
            &m,
            &[mv([0, -1], [0, 0]), mv([0, 12], [0, 1])],
        );
        assert!(r.is_err()); // from the right, column 1 is 11 spaces away
                             // a priest climbs at column 0 of the bottom row and steps up; the top-row priest then
                             // jumps over it onto column 1 (one unoccupied space travelled)
        let m = mountain("5 1 0 0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0 0 0 0 0\n");
        let moves = [mv([1, -1], [1, 0]), mv([1, 0], [0, 0]), mv([0, -1], [0, 1])];
        assert!(replay(super::super::Fujisan, &m, &moves).is_ok());
        let p = Fujisan::new(&m);
        let mut s = p.start();
        for x in &moves {
            let mut out = Vec::new();
            p.successors(&s, &mut out);
            let (_, t) = out
                .iter()
                .find(|(y, _)| p.describe_move(*y) == *x)
                .expect("generated");
            s = *t;
        }
        let e = replay(
            super::super::Fujisan,
            &m,
            &[mv([1, -1], [1, 0]), mv([0, -1], [0, 1])],
        )
        .unwrap_err();
        assert!(e.1.contains("travels 2 unoccupied spaces"), "{e:?}");
    }

    #[test]
    fn summit_and_vertical_rules() {
        let m = mountain("1 1 1 1 1 1 1 1 1 1 1 1\n1 1 1 1 1 1 1 1 1 1 1 1\n");
        let mv = |a: [i64; 2], b: [i64; 2]| Move { from: a, to: b };
        let e = replay(super::super::Fujisan, &m, &[mv([0, -1], [1, -1])]).unwrap_err();
        assert!(e.1.contains("ground"), "{e:?}");
        let walk: Vec<Move> = (0..6).map(|c| mv([0, c - 1], [0, c])).collect();
        let r = replay(super::super::Fujisan, &m, &walk).unwrap();
        assert!(!r.solved);
        let mut more = walk.clone();
        more.push(mv([0, 5], [0, 6]));
        let e = replay(super::super::Fujisan, &m, &more).unwrap_err();
        assert!(e.1.contains("summit"), "{e:?}");
        more.pop();
        more.push(mv([0, 5], [1, 5]));
        assert!(replay(super::super::Fujisan, &m, &more).is_ok());
        // all-ones mountain: solvable; A* and BFS agree on the length
        let p = Fujisan::new(&m);
        let a = astar(&p, &UnitCost, &Limits::none());
        let b = bfs(&p, &Limits::none());
        assert_eq!(a.cost, b.cost);
        let sol: Vec<Move> = a
            .outcome
            .solution()
            .unwrap()
            .iter()
            .map(|&x| p.describe_move(x))
            .collect();
        assert!(replay(super::super::Fujisan, &m, &sol).unwrap().solved);
    }

    #[test]
    fn zero_summit_column_is_unsolvable() {
        let m = mountain("1 1 1 1 1 0 1 1 1 1 1 1\n1 1 1 1 1 0 1 1 1 1 1 1\n");
        let p = Fujisan::new(&m);
        assert_eq!(
            astar(&p, &UnitCost, &Limits::none()).outcome,
            Outcome::Unsolvable
        );
    }

    #[test]
    fn metrics() {
        let m = mountain("1 1 1 1 1 1 1 1 1 1 1 1\n1 1 1 1 1 1 1 1 1 1 1 1\n");
        // every column A is reached from its non-summit neighbours at distance 1
        // columns 0 and 11: one neighbour; 4 and 7: one (the other is the summit); 5, 6: one
        // (4 or 7; the other neighbour is the summit); the rest two.
        let expect = 18.0 / 12.0;
        assert!(
            (m.connectivity() - expect).abs() < 1e-12,
            "{}",
            m.connectivity()
        );
        assert!(!m.distinct_steps());
        assert_eq!(m.distance(-1), 6);
        assert_eq!(m.distance(12), 6);
        assert_eq!(m.distance(5), 0);
        assert_eq!(m.distance(9), 3);
        let mv = |a: [i64; 2], b: [i64; 2]| Move { from: a, to: b };
        assert_eq!(
            m.counter_intuitive(&[mv([0, 3], [0, 9]), mv([0, 3], [0, 4])]),
            1
        );
    }
}
