//! Pretzel solitaire (de Bruijn; spec `solitaire.md`): k suits of n ranks dealt face up into
//! k rows of n columns; the aces go to a column on the left (suit i in row i), leaving k
//! holes. A card moves into a hole when it is of the same suit as, and one rank above, the
//! card immediately left of the hole (the ace column counts for column 0); nothing moves into
//! a hole right of a hole or right of the top rank. Solved when every row holds its own suit
//! in ascending order from the ace (the holes end in the last column).
//!
//! # Text format
//!
//! ```text
//! Game: pretzel
//! 3S 2H -- 4C
//! 4S 3D 2D --
//! 2S 4D 3C 3H
//! 2C -- 4H --
//! ```
//!
//! k rows of n cells (the aces are not written: row i's ace is suit i): a card is its rank
//! (`2`–`9`, `T` or `10`, `J`, `Q`, `K`) and suit (`S H D C` for suits 1–4, then `R B G Y`),
//! a hole is `--` (or `.`). Every card of ranks 2..n of the k suits appears once, with k
//! holes. At most 40 cells and 8 suits; ranks up to 13.
//!
//! # Moves
//!
//! JSON `{"card": "3H", "from": [r, c], "to": [r, c]}` (0-based, row 0 at the top, column 0
//! right of the aces); text: the card, optionally followed by the destination `r c` (a card
//! can only ever go to the hole right of the card one rank below it).
//!
//! # Engine
//!
//! A position is the array of cells, one byte each (`suit · n + rank`, 0 for a hole). Each
//! hole admits at most one card, so a position has at most k moves. Positions holding a
//! cyclic blockade (see [`Blockades`]) are dropped from the successors: they can never be
//! solved, so the search stays exact and shortest solutions keep their length.

use super::{Document, Kind};
use crate::error::Error;
use crate::search::Puzzle;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Most cells (k · n) of a deal.
pub const MAX_CELLS: usize = 40;
/// Most suits.
pub const MAX_SUITS: usize = 8;
/// Most ranks.
pub const MAX_RANKS: usize = 13;
/// Suit letters, suit 1 first.
pub const SUIT_LETTERS: [char; MAX_SUITS] = crate::scene::SUIT_LETTERS;

/// A card: suit (0-based) and rank (1 = ace).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    /// 0-based suit: 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs.
    pub suit: u8,
    /// 1 = ace, …, 13 = king.
    pub rank: u8,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::scene::card_label(self.suit, self.rank))
    }
}

impl std::str::FromStr for Card {
    type Err = String;
    fn from_str(s: &str) -> Result<Card, String> {
        let up = s.to_ascii_uppercase();
        let Some(last) = up.chars().last() else {
            return Err("empty card".into());
        };
        let suit = SUIT_LETTERS
            .iter()
            .position(|&c| c == last)
            .ok_or_else(|| format!("'{s}' has no suit letter (S H D C R B G Y) at its end"))?;
        let r = &up[..up.len() - last.len_utf8()];
        let rank = match r {
            "A" => 1,
            "T" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            x => x
                .parse::<u8>()
                .ok()
                .filter(|v| (1..=13).contains(v))
                .ok_or_else(|| format!("'{s}' has no rank (2–10, T, J, Q, K)"))?,
        };
        Ok(Card {
            suit: suit as u8,
            rank,
        })
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A deal: `cells[r * n + c]` is 0 for a hole or the card `suit · n + rank`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    suits: usize,
    ranks: usize,
    cells: Vec<u8>,
}

impl Deal {
    /// A deal from its cells (row-major; 0 = hole, else `suit · ranks + rank` with rank
    /// 2..=ranks). Checks that every card appears once and there are `suits` holes.
    pub fn new(suits: usize, ranks: usize, cells: Vec<u8>) -> Result<Deal, Error> {
        if suits == 0 || suits > MAX_SUITS {
            return Err(Error::invalid(format!(
                "Pretzel takes 1 to {MAX_SUITS} suits, not {suits}"
            )));
        }
        if !(2..=MAX_RANKS).contains(&ranks) {
            return Err(Error::invalid(format!(
                "Pretzel takes 2 to {MAX_RANKS} ranks, not {ranks}"
            )));
        }
        if suits * ranks > MAX_CELLS {
            return Err(Error::invalid(format!(
                "a Pretzel deal has at most {MAX_CELLS} cards; {suits} suits of {ranks} ranks have {}",
                suits * ranks
            )));
        }
        if cells.len() != suits * ranks {
            return Err(Error::invalid(format!(
                "{} cells given for {suits} rows of {ranks}",
                cells.len()
            )));
        }
        let mut seen = vec![false; suits * ranks + 1];
        for &c in &cells {
            if c == 0 {
                continue;
            }
            let (s, r) = ((c as usize - 1) / ranks, (c as usize - 1) % ranks + 1);
            if s >= suits || r < 2 {
                return Err(Error::invalid(format!(
                    "cell value {c} is not a card of this deal"
                )));
            }
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(Error::invalid(format!(
                    "card {} appears twice",
                    card_of(c, ranks)
                )));
            }
        }
        let holes = cells.iter().filter(|&&c| c == 0).count();
        if holes != suits {
            return Err(Error::invalid(format!(
                "a deal of {suits} suits has {suits} holes (where the aces were), not {holes}"
            )));
        }
        Ok(Deal {
            suits,
            ranks,
            cells,
        })
    }

    /// A deal from a full layout of all `suits · ranks` cards including the aces (as dealt):
    /// the aces are taken out, leaving holes.
    pub fn from_layout(suits: usize, ranks: usize, layout: &[Card]) -> Result<Deal, Error> {
        let cells = layout
            .iter()
            .map(|c| {
                if c.rank == 1 {
                    0
                } else {
                    c.suit * ranks as u8 + c.rank
                }
            })
            .collect();
        Deal::new(suits, ranks, cells)
    }

    pub(crate) fn from_rows(doc: &Document) -> Result<Deal, Error> {
        let suits = doc.rows.len();
        let mut ranks = None;
        let mut cards: Vec<(usize, usize, Option<Card>)> = Vec::new();
        for &(line, text) in &doc.rows {
            let toks = Document::tokens(text);
            match ranks {
                None => ranks = Some(toks.len()),
                Some(n) if n != toks.len() => {
                    return Err(doc.err(
                        line,
                        1,
                        format!("this row has {} cells, the first row {n}", toks.len()),
                    ))
                }
                _ => {}
            }
            for (col, t) in toks {
                let card = if t == "--" || t == "." {
                    None
                } else {
                    let c = t.parse::<Card>().map_err(|m| doc.err(line, col, m))?;
                    if c.rank == 1 {
                        // named as the file writes it (`1S` or `AS`)
                        return Err(doc.err(
                            line,
                            col,
                            format!("{t}: the aces are not dealt into the grid (they form the column on the left)"),
                        ));
                    }
                    Some(c)
                };
                cards.push((line, col, card));
            }
        }
        let ranks = ranks.unwrap_or(0);
        let first = doc.rows[0].0;
        if suits > MAX_SUITS {
            return Err(doc.err(
                doc.rows[MAX_SUITS].0,
                1,
                format!("at most {MAX_SUITS} rows (suits)"),
            ));
        }
        if !(2..=MAX_RANKS).contains(&ranks) || suits * ranks > MAX_CELLS {
            return Err(doc.err(
                first,
                1,
                format!(
                    "{suits} rows of {ranks} cells: Pretzel takes 2 to {MAX_RANKS} columns and at most {MAX_CELLS} cells"
                ),
            ));
        }
        let mut seen = vec![None; suits * ranks + 1];
        let mut cells = Vec::with_capacity(cards.len());
        for &(line, col, card) in &cards {
            let Some(c) = card else {
                cells.push(0);
                continue;
            };
            if c.suit as usize >= suits {
                return Err(doc.err(
                    line,
                    col,
                    format!(
                        "{c}: a deal with {suits} rows has suits {}",
                        suit_list(suits)
                    ),
                ));
            }
            if c.rank as usize > ranks {
                return Err(doc.err(
                    line,
                    col,
                    format!("{c}: a deal with {ranks} columns has ranks up to {ranks}"),
                ));
            }
            let id = c.suit as usize * ranks + c.rank as usize;
            if let Some((l0, c0)) = seen[id] {
                return Err(doc.err(
                    line,
                    col,
                    format!("{c} appears twice (first at line {l0}, column {c0})"),
                ));
            }
            seen[id] = Some((line, col));
            cells.push(id as u8);
        }
        for (id, s) in seen.iter().enumerate().skip(1) {
            if s.is_none() && (id - 1) % ranks + 1 >= 2 {
                return Err(doc.err(
                    doc.end_line,
                    1,
                    format!("card {} is missing", card_of(id as u8, ranks)),
                ));
            }
        }
        Deal::new(suits, ranks, cells).map_err(|e| doc.at_board(e))
    }

    /// Parses a deal from a file's text (see the module documentation).
    pub fn parse(text: &str, file: &str) -> Result<Deal, Error> {
        Deal::from_rows(&Document::parse(text, file, Kind::Pretzel)?)
    }

    /// The board rows (no headers).
    pub fn write(&self) -> String {
        super::write_rows(self.suits, self.ranks, |r, c| {
            match self.cells[r * self.ranks + c] {
                0 => "--".to_string(),
                x => format!("{:>2}", card_of(x, self.ranks).to_string()),
            }
        })
    }

    /// Suits (rows).
    pub fn suits(&self) -> usize {
        self.suits
    }
    /// Ranks (columns).
    pub fn ranks(&self) -> usize {
        self.ranks
    }
    /// The cells, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// The card at row `r`, column `c`, if any.
    pub fn card(&self, r: usize, c: usize) -> Option<Card> {
        match self.cells[r * self.ranks + c] {
            0 => None,
            x => Some(card_of(x, self.ranks)),
        }
    }

    /// "Pretzel (4, 8): 4 suits of 8 ranks".
    pub fn describe(&self) -> String {
        format!(
            "Pretzel ({}, {}): {} suits of {} ranks",
            self.suits, self.ranks, self.suits, self.ranks
        )
    }

    /// The cyclic blockades of the deal (see [`Blockades`]).
    pub fn blockades(&self) -> Blockades {
        blockades(&self.cells, self.suits, self.ranks)
    }
}

fn suit_list(k: usize) -> String {
    SUIT_LETTERS[..k]
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The card of a cell value.
pub fn card_of(id: u8, ranks: usize) -> Card {
    let i = id as usize - 1;
    Card {
        suit: (i / ranks) as u8,
        rank: (i % ranks + 1) as u8,
    }
}

/// Cyclic blockades present in a position: shapes that freeze cards forever, so the
/// position cannot be solved (de Bruijn; the paper's section V). Both are exact: a 2 can only
/// ever move to column 0 of its own suit's row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blockades {
    /// *Ducking crabs*: suits s whose 2 lies in the last column while their 3 occupies the
    /// 2's goal cell (row s, column 0). The 2 can only go there; the 3 can only go right of the
    /// 2, where there is no cell.
    pub ducking_crabs: Vec<usize>,
    /// *Duelling deuces*: cycles of 2s in column 0, each in the goal cell of the next (the
    /// paper's shape is the 2-cycle, 2♣ in the hearts row and 2♥ in the clubs row; longer
    /// cycles freeze the same way). Each cycle lists its suits, smallest first.
    pub duelling_deuces: Vec<Vec<usize>>,
}

impl Blockades {
    /// Whether there is any.
    pub fn any(&self) -> bool {
        !self.ducking_crabs.is_empty() || !self.duelling_deuces.is_empty()
    }
}

/// The blockades of a position given as cells.
pub fn blockades(cells: &[u8], k: usize, n: usize) -> Blockades {
    let mut b = Blockades::default();
    if n >= 3 {
        for s in 0..k {
            let two = (s * n + 2) as u8;
            let three = (s * n + 3) as u8;
            if cells[s * n] == three {
                if let Some(p) = cells.iter().position(|&c| c == two) {
                    if p % n == n - 1 {
                        b.ducking_crabs.push(s);
                    }
                }
            }
        }
    }
    let mut done = vec![false; k];
    for start in 0..k {
        if done[start] {
            continue;
        }
        let mut cycle = Vec::new();
        let mut row = start;
        loop {
            let c = cells[row * n];
            if c == 0 || (c as usize - 1) % n + 1 != 2 {
                break;
            }
            let suit = (c as usize - 1) / n;
            if suit == row || cycle.len() > k {
                break;
            }
            cycle.push(row);
            row = suit;
            if row == start {
                for &r in &cycle {
                    done[r] = true;
                }
                cycle.sort_unstable();
                b.duelling_deuces.push(std::mem::take(&mut cycle));
                break;
            }
        }
    }
    b
}

/// Whether a position holds a blockade (the fast test used to prune the search).
#[inline]
fn blocked(cells: &[u8], k: usize, n: usize) -> bool {
    if n >= 3 {
        for s in 0..k {
            if cells[s * n] as usize == s * n + 3 {
                let two = (s * n + 2) as u8;
                if let Some(p) = cells.iter().position(|&c| c == two) {
                    if p % n == n - 1 {
                        return true;
                    }
                }
            }
        }
    }
    for start in 0..k {
        let mut row = start;
        for _ in 0..k {
            let c = cells[row * n] as usize;
            if c == 0 || (c - 1) % n + 1 != 2 {
                break;
            }
            let suit = (c - 1) / n;
            if suit == row {
                break;
            }
            row = suit;
            if row == start {
                return true;
            }
        }
    }
    false
}

/// A move: the card, where it was and the hole it went to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The card moved.
    pub card: Card,
    /// Where it was (0-based row, column; column 0 is right of the aces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<[usize; 2]>,
    /// The hole it went to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<[usize; 2]>,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.card)?;
        if let Some([r, c]) = self.from {
            write!(f, " ({r},{c})")?;
        }
        if let Some([r, c]) = self.to {
            write!(f, " → ({r},{c})")?;
        }
        Ok(())
    }
}

/// The engine's position: one byte per cell.
pub type Cells = [u8; MAX_CELLS];

/// The engine.
#[derive(Clone, Debug)]
pub struct Pretzel {
    k: usize,
    n: usize,
    len: usize,
    start: Cells,
    goal: Cells,
    prune: bool,
}

impl Pretzel {
    /// Compiles a deal; positions with a cyclic blockade are pruned.
    pub fn new(d: &Deal) -> Pretzel {
        let mut start = [0u8; MAX_CELLS];
        start[..d.cells.len()].copy_from_slice(&d.cells);
        let mut goal = [0u8; MAX_CELLS];
        for r in 0..d.suits {
            for c in 0..d.ranks - 1 {
                goal[r * d.ranks + c] = (r * d.ranks + c + 2) as u8;
            }
        }
        Pretzel {
            k: d.suits,
            n: d.ranks,
            len: d.cells.len(),
            start,
            goal,
            prune: true,
        }
    }

    /// The same engine without blockade pruning (for cross-checks).
    pub fn without_pruning(mut self) -> Pretzel {
        self.prune = false;
        self
    }

    /// Whether the start holds a cyclic blockade.
    pub fn start_blocked(&self) -> bool {
        blocked(&self.start[..self.len], self.k, self.n)
    }

    /// A move in deal coordinates.
    pub fn describe_move(&self, (card, from, to): (u8, u8, u8)) -> Move {
        let rc = |i: u8| [i as usize / self.n, i as usize % self.n];
        Move {
            card: card_of(card, self.n),
            from: Some(rc(from)),
            to: Some(rc(to)),
        }
    }

    #[inline]
    fn each_move(&self, s: &Cells, mut f: impl FnMut(u8, usize, usize)) {
        let n = self.n;
        let cells = &s[..self.len];
        for (h, &c) in cells.iter().enumerate() {
            if c != 0 {
                continue;
            }
            let col = h % n;
            let left = if col == 0 {
                (h / n) * n + 1
            } else {
                cells[h - 1] as usize
            };
            if left == 0 || left % n == 0 {
                continue;
            }
            let want = (left + 1) as u8;
            if let Some(p) = cells.iter().position(|&x| x == want) {
                f(want, p, h);
            }
        }
    }
}

impl crate::game::Engine for Pretzel {
    type Public = Move;
    fn public(&self, &m: &(u8, u8, u8)) -> Move {
        self.describe_move(m)
    }
}

impl Puzzle for Pretzel {
    type State = Cells;
    /// (card, from cell, to cell), cells row-major.
    type Move = (u8, u8, u8);

    fn start(&self) -> Cells {
        self.start
    }
    fn successors(&self, s: &Cells, out: &mut Vec<((u8, u8, u8), Cells)>) {
        self.each_move(s, |card, from, to| {
            let mut t = *s;
            t[to] = card;
            t[from] = 0;
            if !self.prune || !blocked(&t[..self.len], self.k, self.n) {
                out.push(((card, from as u8, to as u8), t));
            }
        });
    }
    fn for_each_next<F: FnMut(Cells)>(&self, s: &Cells, mut f: F) {
        self.each_move(s, |card, from, to| {
            let mut t = *s;
            t[to] = card;
            t[from] = 0;
            if !self.prune || !blocked(&t[..self.len], self.k, self.n) {
                f(t);
            }
        });
    }
    fn is_goal(&self, s: &Cells) -> bool {
        *s == self.goal
    }
    /// Cards not on their goal cell: a move places at most one.
    fn lower_bound(&self, s: &Cells) -> u32 {
        s[..self.len]
            .iter()
            .zip(&self.goal[..self.len])
            .filter(|(a, g)| **a != 0 && a != g)
            .count() as u32
    }
}

/// Plays one move on a plain grid of cards (independently of the engine), or says why it is
/// illegal; the move as played, with where the card was and went.
pub fn apply(d: &mut Deal, m: &Move) -> Result<Move, String> {
    let (k, n) = (d.suits, d.ranks);
    let grid: Vec<Option<Card>> = d
        .cells
        .iter()
        .map(|&c| (c != 0).then(|| card_of(c, n)))
        .collect();
    let find = |c: Card| grid.iter().position(|&x| x == Some(c));
    let c = m.card;
    if c.suit as usize >= k || c.rank < 2 || c.rank as usize > n {
        return Err(format!("{c} is not a card of this deal's grid"));
    }
    let at = find(c).expect("every card of the grid is somewhere");
    if let Some([r, col]) = m.from {
        if [at / n, at % n] != [r, col] {
            return Err(format!(
                "{c} is at ({},{}), not ({r},{col})",
                at / n,
                at % n
            ));
        }
    }
    // the only cell the card may go to: right of its predecessor
    let target = if c.rank == 2 {
        Some(c.suit as usize * n)
    } else {
        let before = find(Card {
            suit: c.suit,
            rank: c.rank - 1,
        })
        .expect("in the grid");
        (before % n + 1 < n).then_some(before + 1)
    };
    let to = match m.to {
        Some([r, col]) => {
            if r >= k || col >= n {
                return Err(format!("({r},{col}) is off the {k}×{n} grid"));
            }
            r * n + col
        }
        None => match target {
            Some(t) => t,
            None => {
                return Err(format!(
                    "{c}'s predecessor lies in the last column: {c} has nowhere to go"
                ))
            }
        },
    };
    if grid[to].is_some() {
        return Err(format!("({},{}) is not a hole", to / n, to % n));
    }
    if target != Some(to) {
        let left = if to % n == 0 {
            format!("the ace of {}", SUIT_LETTERS[to / n])
        } else {
            match grid[to - 1] {
                Some(x) => x.to_string(),
                None => "a hole".to_string(),
            }
        };
        return Err(format!(
            "the hole ({},{}) is right of {left}; {c} may only follow {}",
            to / n,
            to % n,
            if c.rank == 2 {
                format!("the ace of {}", SUIT_LETTERS[c.suit as usize])
            } else {
                Card {
                    suit: c.suit,
                    rank: c.rank - 1,
                }
                .to_string()
            }
        ));
    }
    d.cells[to] = d.cells[at];
    d.cells[at] = 0;
    Ok(Move {
        card: c,
        from: Some([at / n, at % n]),
        to: Some([to / n, to % n]),
    })
}

/// Whether every suit is in order from its ace.
pub fn is_solved(d: &Deal) -> bool {
    let (k, n) = (d.suits, d.ranks);
    (0..k).all(|r| (0..n - 1).all(|c| d.cells[r * n + c] as usize == r * n + c + 2))
}

/// Parses a move list: JSON (a list of moves, or a `floe solve --json` document) or text with
/// one card per line, optionally followed by its destination `r c`.
pub fn parse_moves(text: &str, file: &str) -> Result<Vec<Move>, Error> {
    crate::game::parse_move_list(text, file, |line| {
        let mut it = line.split_whitespace();
        let card: Card = it.next().unwrap_or("").parse()?;
        let rest: Vec<&str> = it.collect();
        let usage = "expected a card, optionally followed by the row and column it goes to";
        let to = match rest.len() {
            0 => None,
            2 => {
                // a comma is a separator too: `3S , 5` holds one number
                let [r, c] = super::numbers(&rest.join(" "))?[..] else {
                    return Err(usage.into());
                };
                let u =
                    |x: i64| usize::try_from(x).map_err(|_| format!("{x} is not a row or column"));
                Some([u(r)?, u(c)?])
            }
            _ => return Err(usage.into()),
        };
        Ok(Move {
            card,
            from: None,
            to,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solitaire::replay;
    use crate::games::solitaire::shuffle;
    use crate::search::{bfs, Limits, Outcome};
    use rand::SeedableRng;

    fn deal(s: &str) -> Deal {
        Deal::parse(s, "t").unwrap()
    }

    #[test]
    fn cards_parse_and_print() {
        for s in ["2S", "TH", "KD", "9C", "QY"] {
            assert_eq!(s.parse::<Card>().unwrap().to_string(), s);
        }
        assert_eq!("10h".parse::<Card>().unwrap().to_string(), "TH");
        assert!("1X".parse::<Card>().is_err());
        assert!("ZS".parse::<Card>().is_err());
    }

    #[test]
    fn a_solved_deal_and_a_one_move_deal() {
        let d = deal("2S 3S --\n2H 3H --\n");
        let p = Pretzel::new(&d);
        assert!(p.is_goal(&p.start()));
        let d = deal("2S -- 3S\n2H 3H --\n");
        let r = bfs(&Pretzel::new(&d), &Limits::none());
        assert_eq!(r.cost, Some(1));
        let p = Pretzel::new(&d);
        let m: Vec<Move> = r
            .outcome
            .solution()
            .unwrap()
            .iter()
            .map(|&x| p.describe_move(x))
            .collect();
        assert_eq!(m[0].to_string(), "3S (0,2) → (0,1)");
        assert!(replay(super::super::Pretzel, &d, &m).unwrap().solved);
    }

    #[test]
    fn parse_errors() {
        let e = Deal::parse("2S 3S --\n2H 3H 2H\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:2:7: 2H appears twice"), "{e}");
        let e = Deal::parse("2S 3S --\n2H AH --\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("aces are not dealt"), "{e}");
        // an ace is named as the file writes it
        let e = Deal::parse("2S 3S --\n2H 1H --\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:2:4: 1H: the aces are not dealt"), "{e}");
        let e = Deal::parse("2S 3S --\n2H 3D --\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:2:4: 3D"), "{e}");
        let e = Deal::parse("2S 3S --\n2H -- --\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("3H is missing"), "{e}");
        let e = Deal::parse("2S 3S\n2H\n", "f").unwrap_err().to_string();
        assert!(e.starts_with("f:2:1: this row has 1"), "{e}");
    }

    #[test]
    fn blockades_are_found() {
        // Ducking crab in spades: 3S in the 2S goal cell, 2S in the last column.
        let d = deal("3S -- --\n2H 3H 2S\n");
        let b = d.blockades();
        assert_eq!(b.ducking_crabs, vec![0]);
        assert_eq!(
            bfs(&Pretzel::new(&d).without_pruning(), &Limits::none()).outcome,
            Outcome::Unsolvable
        );
        // Duelling deuces: 2H in the spades row's goal, 2S in the hearts row's.
        let d = deal("2H 3S --\n2S 3H --\n");
        assert_eq!(d.blockades().duelling_deuces, vec![vec![0, 1]]);
        assert_eq!(
            bfs(&Pretzel::new(&d).without_pruning(), &Limits::none()).outcome,
            Outcome::Unsolvable
        );
        // a 3-cycle of deuces
        let d = deal("2H 3S --\n2D 3H --\n2S 3D --\n");
        assert_eq!(d.blockades().duelling_deuces, vec![vec![0, 1, 2]]);
        assert!(!deal("2S -- 3S\n2H 3H --\n").blockades().any());
    }

    #[test]
    fn pruning_keeps_answers_and_lengths() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let (mut solvable, mut blocked_start) = (0, 0);
        for _ in 0..300 {
            let mut layout: Vec<Card> = (0..4u8)
                .flat_map(|s| (1..=4u8).map(move |r| Card { suit: s, rank: r }))
                .collect();
            shuffle(&mut layout, &mut rng);
            let d = Deal::from_layout(4, 4, &layout).unwrap();
            let p = Pretzel::new(&d);
            let a = bfs(&p, &Limits::none());
            let b = bfs(&p.clone().without_pruning(), &Limits::none());
            assert_eq!(a.cost, b.cost);
            if d.blockades().any() {
                blocked_start += 1;
                assert_eq!(b.outcome, Outcome::Unsolvable);
            }
            if let Some(m) = a.outcome.solution() {
                solvable += 1;
                let moves: Vec<Move> = m.iter().map(|&x| p.describe_move(x)).collect();
                assert!(replay(super::super::Pretzel, &d, &moves).unwrap().solved);
                assert!(a.stats.states <= b.stats.states);
            }
        }
        assert!(
            solvable > 0 && blocked_start > 0,
            "{solvable} {blocked_start}"
        );
    }

    #[test]
    fn moves_with_a_destination_of_other_than_two_numbers_are_refused() {
        for text in ["3S , 5\n", "3S 1,0 2\n", "3S ,, ,\n"] {
            let e = parse_moves(text, "m").unwrap_err().to_string();
            assert!(e.starts_with("m:1:1: expected a card"), "{text:?}: {e}");
        }
        assert_eq!(parse_moves("3S 1, 0\n", "m").unwrap()[0].to, Some([1, 0]));
    }

    #[test]
    fn validator_names_the_illegal_move() {
        let d = deal("2S -- 3S\n-- 3H 2H\n");
        let mv = |s: &str| parse_moves(s, "m").unwrap();
        let e = replay(super::super::Pretzel, &d, &mv("3H\n")).unwrap_err();
        assert!(e.1.contains("nowhere to go"), "{e:?}");
        let e = replay(super::super::Pretzel, &d, &mv("3S 1 0\n")).unwrap_err();
        assert!(e.1.contains("right of the ace of H"), "{e:?}");
        let e = replay(super::super::Pretzel, &d, &mv("5S\n")).unwrap_err();
        assert!(e.1.contains("not a card"), "{e:?}");
        let r = replay(super::super::Pretzel, &d, &mv("3S\n2H\n")).unwrap();
        assert!(r.solved, "{}", r.positions.last().unwrap().write());
        let e = replay(super::super::Pretzel, &d, &mv("3S\n2H\n3H\n")).unwrap_err();
        assert_eq!(e.0, 2);
        assert!(e.1.contains("is not a hole"), "{e:?}");
    }

    #[test]
    fn lower_bound_is_admissible() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        for _ in 0..100 {
            let mut layout: Vec<Card> = (0..3u8)
                .flat_map(|s| (1..=4u8).map(move |r| Card { suit: s, rank: r }))
                .collect();
            shuffle(&mut layout, &mut rng);
            let d = Deal::from_layout(3, 4, &layout).unwrap();
            let p = Pretzel::new(&d);
            let r = bfs(&p, &Limits::none());
            if let Some(c) = r.cost {
                assert!(u64::from(p.lower_bound(&p.start())) <= c);
                let a = crate::search::astar(&p, &crate::search::UnitCost, &Limits::none());
                assert_eq!(a.cost, Some(c));
            }
        }
    }
}
