//! The ice path engine: a position is the player's cell, and every slide is looked up in a
//! table computed once per level.

use super::level::{Cell, Level};
use crate::grid::{Dir, Pos};
use crate::search::Puzzle;

/// A compiled level: where each move from each cell ends.
#[derive(Clone, Debug)]
pub struct Engine {
    cols: usize,
    /// `slide[cell * 4 + dir]`: where the move ends, the cell itself when it goes nowhere.
    slide: Vec<u16>,
    start: u16,
    exit: u16,
}

impl Engine {
    /// Compiles `level`, starting from `from` (a cell of the level) instead of its start.
    pub fn new(level: &Level, from: Option<Pos>) -> Engine {
        let (rows, cols) = (level.rows(), level.cols());
        let index = |p: Pos| (p.row * cols + p.col) as u16;
        let mut slide = vec![0u16; rows * cols * 4];
        for i in 0..rows * cols {
            let p = Pos::new(i / cols, i % cols);
            for d in Dir::ALL {
                slide[i * 4 + d.index()] = index(end_of_slide(level, p, d));
            }
        }
        Engine {
            cols,
            slide,
            start: index(from.unwrap_or(level.start())),
            exit: index(level.exit()),
        }
    }

    /// The cell of a state.
    pub fn pos(&self, s: u16) -> Pos {
        Pos::new(s as usize / self.cols, s as usize % self.cols)
    }
}

/// Where a move from `p` towards `d` ends, by walking the cells one by one: the table's
/// source, and the reason the engine agrees with the rules of [`super::game`].
fn end_of_slide(level: &Level, p: Pos, d: Dir) -> Pos {
    let mut at = p;
    if level.cell(p) == Cell::Rock {
        return at;
    }
    while let Some(next) = level.step(at, d) {
        match level.cell(next) {
            Cell::Rock => break,
            Cell::Ice => at = next,
            Cell::Floor | Cell::Exit => return next,
        }
    }
    at
}

impl Puzzle for Engine {
    type State = u16;
    type Move = Dir;

    fn start(&self) -> u16 {
        self.start
    }

    fn successors(&self, &s: &u16, out: &mut Vec<(Dir, u16)>) {
        if s == self.exit {
            return;
        }
        let base = s as usize * 4;
        for d in Dir::ALL {
            let to = self.slide[base + d.index()];
            if to != s {
                out.push((d, to));
            }
        }
    }

    fn is_goal(&self, &s: &u16) -> bool {
        s == self.exit
    }

    /// 0 on the exit, 1 in its row or column, 2 elsewhere (a move keeps a row or a column).
    fn lower_bound(&self, &s: &u16) -> u32 {
        let (p, e) = (self.pos(s), self.pos(self.exit));
        if s == self.exit {
            0
        } else if p.row == e.row || p.col == e.col {
            1
        } else {
            2
        }
    }

    fn rank_space(&self) -> Option<u64> {
        Some((self.slide.len() / 4) as u64)
    }

    fn rank(&self, &s: &u16) -> Option<u64> {
        Some(u64::from(s))
    }

    fn unrank(&self, r: u64) -> Option<u16> {
        (r < (self.slide.len() / 4) as u64).then_some(r as u16)
    }
}

impl crate::game::Engine for Engine {
    type Public = super::Move;

    fn public(&self, &dir: &Dir) -> super::Move {
        super::Move { dir }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{bfs, Limits, Outcome};

    fn engine(rows: &str) -> Engine {
        let level = super::super::level::parse(rows, "t").unwrap().remove(0);
        Engine::new(&level, None)
    }

    #[test]
    fn slides_stop_at_rocks_edges_floor_and_the_exit() {
        // @ slides right over ice to the floor cell (stops on it), then from floor steps
        // right onto ice and slides on to the rock
        let e = engine("@--=--#.\n");
        let mut out = Vec::new();
        e.successors(&e.start(), &mut out);
        assert_eq!(out, vec![(Dir::Right, 3)]);
        out.clear();
        e.successors(&3, &mut out);
        assert_eq!(out, vec![(Dir::Right, 5), (Dir::Left, 0)]);
        // the exit ends a slide
        let e = engine("@-.-\n");
        assert_eq!(
            bfs(&e, &Limits::none()).outcome,
            Outcome::Solved(vec![Dir::Right])
        );
        assert!(e.is_goal(&2));
        assert_eq!((e.lower_bound(&0), e.lower_bound(&2)), (1, 0));
    }

    #[test]
    fn an_unreachable_exit_is_proved_so() {
        let e = engine("@-#.\n");
        assert_eq!(bfs(&e, &Limits::none()).outcome, Outcome::Unsolvable);
    }
}
