//! An ice block level as data: cells, blocks, optional player, title and walking rule.

use crate::grid::{Dir, Pos};
use crate::Error;
use std::str::FromStr;

/// Zelda-style ice blocks (spec `ice-blocks.md`): push the blocks, which slide until
/// something stops them, until every target holds one. Its rules and pictures, the game face,
/// are in [`game`](super::game).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ice;

/// What a cell of the board is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Ice floor: blocks slide over it, the player walks on it.
    Ice,
    /// An ice floor cell that wants a block.
    Target,
    /// Normal floor: the player walks on it, a sliding block stops before it.
    Floor,
    /// Wall: nobody stands here, blocks stop before it.
    Wall,
}

impl Cell {
    /// Whether a block may stand here (ice floor or target).
    #[inline]
    pub fn holds_blocks(self) -> bool {
        matches!(self, Cell::Ice | Cell::Target)
    }
}

/// How the player gets around (spec: "Two walking rules").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WalkRule {
    /// Kluiver: the player climbs over walls and reaches any cell without a wall or block.
    #[default]
    Free,
    /// van den Akker: the player walks 4-connected over cells without walls or blocks,
    /// starting from his cell or, when the level gives none, from outside the board.
    Walk,
}

impl WalkRule {
    /// `free` or `walk`.
    pub fn name(self) -> &'static str {
        match self {
            WalkRule::Free => "free",
            WalkRule::Walk => "walk",
        }
    }
}

display_by_name!(WalkRule);

impl FromStr for WalkRule {
    type Err = String;
    fn from_str(s: &str) -> Result<WalkRule, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "free" => Ok(WalkRule::Free),
            "walk" => Ok(WalkRule::Walk),
            other => Err(format!(
                "unknown walking rule '{other}': expected 'free' or 'walk'"
            )),
        }
    }
}

/// An ice block level. Cells are stored row-major; everything outside is normal floor.
///
/// The invariants (checked by every constructor and setter): blocks stand only on ice or
/// target cells, and the player, if any, stands on an ice or target cell without a block
/// (the text format has symbols for exactly these: `@` and `+`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Name of the level (`Title:` line, or the file name for Kluiver's format).
    pub title: Option<String>,
    /// Walking rule set by the level (`Rules:` line); `None` leaves the choice to the caller.
    pub rules: Option<WalkRule>,
    /// Comment lines that preceded the level, without the leading `;`.
    pub comments: Vec<String>,
    /// Other `Key: value` header lines, kept in order so conversions preserve them.
    pub meta: Vec<(String, String)>,
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
    blocks: Vec<bool>,
    player: Option<Pos>,
}

impl Level {
    /// A `rows × cols` board of ice floor without blocks.
    pub fn new(rows: usize, cols: usize) -> Result<Level, Error> {
        if rows == 0 || cols == 0 {
            return Err(Error::invalid(format!(
                "a board needs at least one row and one column, not {rows}×{cols}"
            )));
        }
        let n = rows
            .checked_mul(cols)
            .filter(|&n| n <= 1 << 20)
            .ok_or_else(|| Error::invalid(format!("a {rows}×{cols} board is too large")))?;
        Ok(Level {
            title: None,
            rules: None,
            comments: Vec::new(),
            meta: Vec::new(),
            rows,
            cols,
            cells: vec![Cell::Ice; n],
            blocks: vec![false; n],
            player: None,
        })
    }

    /// An empty board (only ice floor) with `k` blocks placed as the spec's reference
    /// figures place them: the top row from the left, then clockwise along the edge.
    pub fn empty_board(rows: usize, cols: usize, k: usize) -> Result<Level, Error> {
        let mut level = Level::new(rows, cols)?;
        let edge = edge_clockwise(rows, cols);
        if k > edge.len() {
            return Err(Error::invalid(format!(
                "{k} blocks do not fit along the edge of a {rows}×{cols} board (at most {})",
                edge.len()
            )));
        }
        for &p in &edge[..k] {
            level.set_block(p, true)?;
        }
        level.title = Some(format!("empty {rows}x{cols}, {k} blocks"));
        Ok(level)
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Whether `p` is on the board.
    pub fn contains(&self, p: Pos) -> bool {
        p.row < self.rows && p.col < self.cols
    }
    fn idx(&self, p: Pos) -> usize {
        p.row * self.cols + p.col
    }
    fn check(&self, p: Pos) -> Result<usize, Error> {
        if self.contains(p) {
            Ok(self.idx(p))
        } else {
            Err(Error::invalid(format!(
                "({p}) is outside the {}×{} board",
                self.rows, self.cols
            )))
        }
    }
    /// The cell at `p`; outside the board is normal floor.
    pub fn cell(&self, p: Pos) -> Cell {
        if self.contains(p) {
            self.cells[self.idx(p)]
        } else {
            Cell::Floor
        }
    }
    /// Whether a block stands at `p`.
    pub fn has_block(&self, p: Pos) -> bool {
        self.contains(p) && self.blocks[self.idx(p)]
    }
    /// The player's cell, if the level gives one.
    pub fn player(&self) -> Option<Pos> {
        self.player
    }

    /// Sets the cell at `p`. Fails if that would put a block or the player on a cell that
    /// cannot hold them.
    pub fn set_cell(&mut self, p: Pos, cell: Cell) -> Result<(), Error> {
        let i = self.check(p)?;
        if self.blocks[i] && !cell.holds_blocks() {
            return Err(Error::invalid(format!(
                "({p}) holds a block, so it cannot become {}",
                cell_name(cell)
            )));
        }
        if self.player == Some(p) && !cell.holds_blocks() {
            return Err(Error::invalid(format!(
                "the player stands at ({p}), so it cannot become {}",
                cell_name(cell)
            )));
        }
        self.cells[i] = cell;
        Ok(())
    }

    /// Puts a block on `p` or takes it away.
    pub fn set_block(&mut self, p: Pos, block: bool) -> Result<(), Error> {
        let i = self.check(p)?;
        if block {
            if !self.cells[i].holds_blocks() {
                return Err(Error::invalid(format!(
                    "a block cannot stand on {} at ({p})",
                    cell_name(self.cells[i])
                )));
            }
            if self.player == Some(p) {
                return Err(Error::invalid(format!(
                    "the player stands at ({p}), so no block can"
                )));
            }
        }
        self.blocks[i] = block;
        Ok(())
    }

    /// Places the player (or removes him with `None`).
    pub fn set_player(&mut self, p: Option<Pos>) -> Result<(), Error> {
        if let Some(p) = p {
            let i = self.check(p)?;
            if self.blocks[i] {
                return Err(Error::invalid(format!(
                    "the player cannot stand on a block at ({p})"
                )));
            }
            if !self.cells[i].holds_blocks() {
                return Err(Error::invalid(format!(
                    "the player's start must be ice floor or a target (the format writes him \
                     as '@' or '+'), not {} at ({p})",
                    cell_name(self.cells[i])
                )));
            }
        }
        self.player = p;
        Ok(())
    }

    /// Every position, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Pos::new(r, c)))
    }
    /// Positions of the blocks, row by row.
    pub fn blocks(&self) -> impl Iterator<Item = Pos> + '_ {
        self.positions().filter(|&p| self.has_block(p))
    }
    /// Positions of the targets, row by row.
    pub fn targets(&self) -> impl Iterator<Item = Pos> + '_ {
        self.positions().filter(|&p| self.cell(p) == Cell::Target)
    }
    /// Number of blocks.
    pub fn block_count(&self) -> usize {
        self.blocks.iter().filter(|&&b| b).count()
    }
    /// Number of targets.
    pub fn target_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Target).count()
    }
    /// Whether every target holds a block.
    pub fn is_solved(&self) -> bool {
        self.targets().all(|p| self.has_block(p))
    }
    /// Moves every block to `blocks` (which must be valid block cells).
    pub fn with_blocks(&self, blocks: &[Pos]) -> Result<Level, Error> {
        let mut l = self.clone();
        l.blocks.iter_mut().for_each(|b| *b = false);
        if let Some(p) = l.player {
            if blocks.contains(&p) {
                l.player = None;
            }
        }
        for &p in blocks {
            l.set_block(p, true)?;
        }
        Ok(l)
    }
    /// The name to show: the title, or `level N` for the `index`-th (0-based) level.
    pub fn display_name(&self, index: usize) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| format!("level {}", index + 1))
    }
    /// The neighbour of `p` in direction `d`, if on the board.
    pub fn step(&self, p: Pos, d: Dir) -> Option<Pos> {
        p.step(d, self.rows, self.cols)
    }
}

/// The cells of the board's edge: the top row from the left, then clockwise.
pub fn edge_clockwise(rows: usize, cols: usize) -> Vec<Pos> {
    let mut v = Vec::new();
    let mut push = |p: Pos| {
        if !v.contains(&p) {
            v.push(p)
        }
    };
    for c in 0..cols {
        push(Pos::new(0, c));
    }
    for r in 1..rows {
        push(Pos::new(r, cols - 1));
    }
    for c in (0..cols.saturating_sub(1)).rev() {
        push(Pos::new(rows - 1, c));
    }
    for r in (1..rows.saturating_sub(1)).rev() {
        push(Pos::new(r, 0));
    }
    v
}

/// Human name of a cell kind, with article.
pub fn cell_name(c: Cell) -> &'static str {
    match c {
        Cell::Ice => "ice floor",
        Cell::Target => "a target",
        Cell::Floor => "normal floor",
        Cell::Wall => "a wall",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_order_is_clockwise_from_top_left() {
        let e = edge_clockwise(3, 4);
        let want = [
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 3),
            (2, 3),
            (2, 2),
            (2, 1),
            (2, 0),
            (1, 0),
        ];
        assert_eq!(e, want.map(|(r, c)| Pos::new(r, c)));
        assert_eq!(edge_clockwise(1, 3).len(), 3);
        assert_eq!(edge_clockwise(3, 1).len(), 3);
        assert_eq!(edge_clockwise(2, 2).len(), 4);
    }

    #[test]
    fn empty_board_places_blocks_along_the_edge() {
        let l = Level::empty_board(4, 4, 6).unwrap();
        let b: Vec<_> = l.blocks().collect();
        assert_eq!(
            b,
            [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3)].map(|(r, c)| Pos::new(r, c))
        );
        assert!(Level::empty_board(3, 3, 9).is_err());
        assert!(Level::empty_board(0, 3, 1).is_err());
    }

    #[test]
    fn invariants_are_enforced() {
        let mut l = Level::new(2, 3).unwrap();
        l.set_cell(Pos::new(0, 0), Cell::Wall).unwrap();
        assert!(l.set_block(Pos::new(0, 0), true).is_err());
        assert!(l.set_player(Some(Pos::new(0, 0))).is_err());
        l.set_cell(Pos::new(0, 1), Cell::Floor).unwrap();
        assert!(l.set_player(Some(Pos::new(0, 1))).is_err());
        l.set_player(Some(Pos::new(0, 2))).unwrap();
        assert!(l.set_cell(Pos::new(0, 2), Cell::Floor).is_err());
        l.set_player(None).unwrap();
        l.set_block(Pos::new(1, 1), true).unwrap();
        assert!(l.set_cell(Pos::new(1, 1), Cell::Floor).is_err());
        assert!(l.set_player(Some(Pos::new(1, 1))).is_err());
        assert!(l.set_block(Pos::new(5, 5), true).is_err());
        assert_eq!(l.cell(Pos::new(9, 9)), Cell::Floor);
        l.set_cell(Pos::new(1, 2), Cell::Target).unwrap();
        assert!(!l.is_solved());
        let l2 = l.with_blocks(&[Pos::new(1, 2)]).unwrap();
        assert!(l2.is_solved());
        assert_eq!(l2.block_count(), 1);
    }
}
