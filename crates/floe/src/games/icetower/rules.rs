//! The rules on a plain grid: one push at a time, cell by cell, exactly as the spec states
//! them. Nothing here is shared with the fast [`engine`](super::engine); every solution the
//! solver returns is replayed here first, and the tests compare the two.
//!
//! The same code carries floe's semantics of arrows and dispensers (documented in
//! `docs/icetower.md` and on [`Board::push`]); static levels simply hold none.

use super::level::{Block, Tile, Tower};
use crate::grid::{Dir, Pos, Push};
use crate::search::Puzzle;
use std::collections::{HashSet, VecDeque};
use std::fmt;

/// A position during play: tiles (a fire put out is floor), blocks and the magician.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
    blocks: Vec<Option<Block>>,
    man: Pos,
}

/// How a pushed block ended its slide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It came to rest here.
    Rest(Pos),
    /// A regular block put out the fire here and vanished.
    Fire(Pos),
    /// A regular block fell into the recycler here.
    Recycler(Pos),
}

/// One legal push as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The push.
    pub push: Push,
    /// How the block's slide ended.
    pub end: End,
    /// The fires it put out, in order.
    pub fires_out: Vec<Pos>,
}

/// Why a push is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The cell is outside the map.
    OffMap,
    /// Neither a block nor a dispenser stands there.
    NoBlock,
    /// The magician would have to stand outside the map.
    PusherOffMap,
    /// The magician cannot walk to the cell he would push from.
    Unreachable(Pos),
    /// The block cannot move at all: the next cell stops it.
    Stuck(Option<Pos>, &'static str),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::OffMap => write!(f, "that cell is outside the map"),
            Illegal::NoBlock => write!(f, "there is no block there"),
            Illegal::PusherOffMap => {
                write!(f, "the magician would have to stand outside the map")
            }
            Illegal::Unreachable(p) => {
                write!(f, "the magician cannot walk to ({p}) to push from there")
            }
            Illegal::Stuck(Some(p), what) => {
                write!(f, "the block cannot move: ({p}) next to it is {what}")
            }
            Illegal::Stuck(None, what) => write!(f, "the block cannot move: {what}"),
        }
    }
}

impl Board {
    /// The start of `tower`.
    pub fn new(tower: &Tower) -> Board {
        let positions: Vec<Pos> = tower.positions().collect();
        Board {
            rows: tower.rows(),
            cols: tower.cols(),
            tiles: positions.iter().map(|&p| tower.tile(p)).collect(),
            blocks: positions.iter().map(|&p| tower.block(p)).collect(),
            man: tower.magician(),
        }
    }

    /// Where the magician stands.
    pub fn man(&self) -> Pos {
        self.man
    }
    /// The tile at `p` (a fire put out is floor).
    pub fn tile(&self, p: Pos) -> Tile {
        self.tiles[p.row * self.cols + p.col]
    }
    /// The block at `p`, if any.
    pub fn block(&self, p: Pos) -> Option<Block> {
        self.blocks[p.row * self.cols + p.col]
    }
    /// Fires still burning.
    pub fn fires_left(&self) -> usize {
        self.tiles.iter().filter(|&&t| t == Tile::Fire).count()
    }
    /// Puts out the fire at `p`, if one burns there (as a block reaching it would).
    pub fn put_out(&mut self, p: Pos) {
        let i = p.row * self.cols + p.col;
        if self.tiles[i] == Tile::Fire {
            self.tiles[i] = Tile::Floor;
        }
    }
    /// Whether every fire is out.
    pub fn solved(&self) -> bool {
        self.fires_left() == 0
    }

    fn step(&self, p: Pos, d: Dir) -> Option<Pos> {
        p.step(d, self.rows, self.cols)
    }

    /// Whether the magician may stand on `p`: floor or an arrow, with no block.
    fn walkable(&self, p: Pos) -> bool {
        matches!(self.tile(p), Tile::Floor | Tile::Arrow(_)) && self.block(p).is_none()
    }

    /// Where the magician ends up when he steps onto `p`: arrows carry him on in their
    /// direction while the next cell is walkable; `None` when they carry him round in a circle
    /// for ever (floe never lets him step there).
    fn carried(&self, p: Pos) -> Option<Pos> {
        let mut at = p;
        let mut seen = Vec::new();
        while let Tile::Arrow(a) = self.tile(at) {
            if seen.contains(&at) {
                return None;
            }
            seen.push(at);
            match self.step(at, a) {
                Some(n) if self.walkable(n) => at = n,
                _ => break,
            }
        }
        Some(at)
    }

    /// The cells the magician can walk to (and stand on), as a row-major mask.
    pub fn reach(&self) -> Vec<bool> {
        let mut seen = vec![false; self.rows * self.cols];
        let mut queue = VecDeque::from([self.man]);
        seen[self.man.row * self.cols + self.man.col] = true;
        while let Some(p) = queue.pop_front() {
            for d in Dir::ALL {
                let Some(n) = self.step(p, d) else { continue };
                if !self.walkable(n) {
                    continue;
                }
                let Some(z) = self.carried(n) else { continue };
                let k = z.row * self.cols + z.col;
                if !seen[k] {
                    seen[k] = true;
                    queue.push_back(z);
                }
            }
        }
        seen
    }

    /// The magician's region, normalised: the first cell he can reach, row by row.
    pub fn region_key(&self) -> Pos {
        let r = self.reach();
        let k = r.iter().position(|&b| b).expect("he reaches his own cell");
        Pos::new(k / self.cols, k % self.cols)
    }

    /// Number of rows of the map.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Number of columns of the map.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// One step of the magician towards `d`, as he walks between pushes: onto floor or an
    /// arrow without a block (arrows then carry him on, as in [`Board::reach`]). Returns where
    /// he ends up, or what stops him; the board is unchanged when he cannot go.
    pub fn walk(&mut self, d: Dir) -> Result<Pos, &'static str> {
        let Some(n) = self.step(self.man, d) else {
            return Err("the edge of the map");
        };
        if self.block(n).is_some() {
            return Err("a block");
        }
        if !self.walkable(n) {
            return Err(self.tile(n).name());
        }
        let to = self
            .carried(n)
            .ok_or("arrows that would carry him round for ever")?;
        self.man = to;
        Ok(to)
    }

    /// This position as a level of its own (fires put out are floor), for solving from it.
    /// Fails when the magician stands where a level cannot start him (on an arrow).
    pub fn to_tower(&self, name: &str) -> Result<Tower, String> {
        Tower::from_parts(
            name,
            self.rows,
            self.cols,
            self.tiles.clone(),
            self.blocks.clone(),
            self.man,
        )
    }

    /// Plays one push. The rules (spec `icetower.md`), and floe's semantics of arrows and
    /// dispensers:
    /// - the magician walks to the cell behind the block (4-connected over floor without
    ///   blocks; arrows carry him on while they can) and pushes it away from himself; he
    ///   stays where he pushed from;
    /// - the block slides cell by cell. A regular block entering a fire puts it out and
    ///   vanishes; a golden block puts it out and slides on. A regular block entering a
    ///   recycler is destroyed; a golden one passes over it and may rest on it. It stops
    ///   before a wall, a block, a dispenser, the magician or the map's edge;
    /// - an arrow turns a block that enters it to the arrow's direction; a block whose slide
    ///   would repeat itself (round an arrow cycle) rests where it would start the round again;
    /// - pushing a dispenser makes a new regular block that slides away from the magician,
    ///   starting from the dispenser.
    ///
    /// On an illegal push the board is unchanged.
    pub fn push(&mut self, push: Push) -> Result<Step, Illegal> {
        let from = push.pos();
        if from.row >= self.rows || from.col >= self.cols {
            return Err(Illegal::OffMap);
        }
        let kind = match (self.block(from), self.tile(from)) {
            (Some(k), _) => k,
            (None, Tile::Dispenser) => Block::Ice,
            _ => return Err(Illegal::NoBlock),
        };
        let d = push.dir;
        let stand = self.step(from, d.opposite()).ok_or(Illegal::PusherOffMap)?;
        if !self.reach()[stand.row * self.cols + stand.col] {
            return Err(Illegal::Unreachable(stand));
        }
        let saved = self.blocks[from.row * self.cols + from.col];
        self.blocks[from.row * self.cols + from.col] = None;
        let man = stand;
        let mut at = from;
        let mut dir = d;
        let mut seen: HashSet<(Pos, Dir)> = HashSet::new();
        let mut fires_out = Vec::new();
        let end = loop {
            let next = self.step(at, dir);
            let stop = match next {
                None => Some("the edge of the map"),
                Some(n) if self.block(n).is_some() => Some("another block"),
                Some(n) if n == man => Some("the magician"),
                Some(n) => match self.tile(n) {
                    Tile::Wall => Some("a wall"),
                    Tile::Dispenser => Some("a dispenser"),
                    _ => None,
                },
            };
            if let Some(what) = stop {
                if at == from {
                    self.blocks[from.row * self.cols + from.col] = saved;
                    return Err(Illegal::Stuck(next, what));
                }
                break End::Rest(at);
            }
            let n = next.expect("not stopped, so on the map");
            let turned = match self.tile(n) {
                Tile::Arrow(a) => a,
                _ => dir,
            };
            if !seen.insert((n, turned)) {
                break End::Rest(at); // round a cycle: it would only repeat itself
            }
            at = n;
            dir = turned;
            match self.tile(at) {
                Tile::Fire => {
                    self.tiles[at.row * self.cols + at.col] = Tile::Floor;
                    fires_out.push(at);
                    if kind == Block::Ice {
                        break End::Fire(at);
                    }
                }
                Tile::Recycler if kind == Block::Ice => break End::Recycler(at),
                _ => {}
            }
        };
        if let End::Rest(p) = end {
            self.blocks[p.row * self.cols + p.col] = Some(kind);
        }
        self.man = man;
        Ok(Step {
            push,
            end,
            fires_out,
        })
    }

    /// The board in the community notation (no trailing spaces). A golden block on a
    /// recycler and the magician on an arrow show as the block and `@`.
    pub fn to_text(&self) -> String {
        super::level::map_text(self.rows, self.cols, self.man, |p| {
            self.block(p).map_or(self.tile(p).symbol(), |b| b.symbol())
        })
    }
}

/// A replayed move list.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Each push as played.
    pub steps: Vec<Step>,
    /// The board after each push (`boards[i]` after push `i + 1`).
    pub boards: Vec<Board>,
    /// Whether every fire is out at the end.
    pub solved: bool,
}

/// A push of a list that breaks the rules, with its place in the list and why.
pub type IllegalMove = crate::grid::IllegalPush<Illegal>;

/// Replays `moves` from the start of `tower` and names the first illegal push.
pub fn replay(tower: &Tower, moves: &[Push]) -> Result<Replay, IllegalMove> {
    let mut board = Board::new(tower);
    let mut steps = Vec::with_capacity(moves.len());
    let mut boards = Vec::with_capacity(moves.len());
    for (index, &push) in moves.iter().enumerate() {
        let step = board.push(push).map_err(|reason| IllegalMove {
            index,
            push,
            reason,
        })?;
        steps.push(step);
        boards.push(board.clone());
    }
    Ok(Replay {
        steps,
        solved: board.solved(),
        boards,
    })
}

/// The rules as a [`Puzzle`] on plain boards: slow, simple, and the only search for levels
/// with arrows or dispensers. Positions are the board with the magician's region normalised
/// (static levels) or his cell (levels with arrows, where walking is not symmetric).
pub struct PlainPuzzle {
    start: Board,
    dynamic: bool,
}

impl PlainPuzzle {
    /// The puzzle of `tower`.
    pub fn new(tower: &Tower) -> PlainPuzzle {
        let mut start = Board::new(tower);
        let dynamic = tower.first_dynamic().is_some();
        if !dynamic {
            start.man = start.region_key();
        }
        PlainPuzzle { start, dynamic }
    }
}

impl crate::game::Engine for PlainPuzzle {
    type Public = Push;
    fn public(&self, m: &Push) -> Push {
        *m
    }
    fn pieces(&self, s: &Board) -> Vec<Pos> {
        (0..s.rows * s.cols)
            .filter(|&k| s.blocks[k].is_some())
            .map(|k| Pos::new(k / s.cols, k % s.cols))
            .collect()
    }
    fn kind(&self) -> &'static str {
        "plain"
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.fires_out.len();
        let fires = format!("{n} fire{}", if n == 1 { "" } else { "s" });
        let what = match self.end {
            End::Rest(p) if n == 0 => format!("rests at ({}, {})", p.row, p.col),
            End::Rest(p) => format!("puts out {fires} and rests at ({}, {})", p.row, p.col),
            End::Fire(p) => format!("puts out the fire at ({}, {})", p.row, p.col),
            End::Recycler(p) => format!("falls into the recycler at ({}, {})", p.row, p.col),
        };
        write!(
            f,
            "({}, {}) {}: {what}",
            self.push.row,
            self.push.col,
            self.push.dir.name()
        )
    }
}

impl Puzzle for PlainPuzzle {
    type State = Board;
    type Move = Push;
    fn start(&self) -> Board {
        self.start.clone()
    }
    fn successors(&self, s: &Board, out: &mut Vec<(Push, Board)>) {
        let reach = s.reach();
        for k in 0..s.rows * s.cols {
            if s.blocks[k].is_none() && s.tiles[k] != Tile::Dispenser {
                continue;
            }
            let from = Pos::new(k / s.cols, k % s.cols);
            for d in Dir::ALL {
                let Some(stand) = s.step(from, d.opposite()) else {
                    continue;
                };
                if !reach[stand.row * s.cols + stand.col] {
                    continue;
                }
                let mut t = s.clone();
                let push = Push::new(from, d);
                if t.push(push).is_ok() {
                    if !self.dynamic {
                        t.man = t.region_key();
                    }
                    out.push((push, t));
                }
            }
        }
    }
    fn is_goal(&self, s: &Board) -> bool {
        s.solved()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::icetower::level::parse;
    use crate::search::{bfs, Limits, Outcome};

    fn tower(text: &str) -> Tower {
        parse(text, "t", "t").unwrap()
    }

    fn push(r: usize, c: usize, d: Dir) -> Push {
        Push::new(Pos::new(r, c), d)
    }

    #[test]
    fn regular_ice_puts_out_one_fire_and_vanishes() {
        let t = tower("#######\n#@% **#\n#######\n");
        let mut b = Board::new(&t);
        let s = b.push(push(1, 2, Dir::Right)).unwrap();
        assert_eq!(s.end, End::Fire(Pos::new(1, 4)));
        assert_eq!(s.fires_out, vec![Pos::new(1, 4)]);
        assert_eq!(b.fires_left(), 1);
        assert_eq!(b.man(), Pos::new(1, 1));
        assert_eq!(b.to_text(), "#######\n#@   *#\n#######\n");
    }

    #[test]
    fn golden_ice_puts_out_several_fires_and_rests_on_a_recycler() {
        // the note's example: golden ice through four fires, resting on a recycler by a wall
        let t = tower("##-****$@##\n");
        let mut b = Board::new(&t);
        let s = b.push(push(0, 7, Dir::Left)).unwrap();
        assert_eq!(s.end, End::Rest(Pos::new(0, 2)));
        assert_eq!(s.fires_out.len(), 4);
        assert!(b.solved());
        assert_eq!(b.block(Pos::new(0, 2)), Some(Block::Golden));
        assert_eq!(b.tile(Pos::new(0, 2)), Tile::Recycler);
        assert_eq!(b.to_text(), "##$     @##\n");
    }

    #[test]
    fn golden_ice_on_a_recycler_can_be_pushed_on() {
        // the note asks whether a golden block resting on a recycler can be pushed on
        // afterwards: the spec says it can. Here it rests on the recycler by the wall, then
        // goes up through the fire.
        let t = tower("  *\n@$-#\n____\n");
        let mut b = Board::new(&t);
        assert_eq!(
            b.push(push(1, 1, Dir::Right)).unwrap().end,
            End::Rest(Pos::new(1, 2))
        );
        assert_eq!(b.tile(Pos::new(1, 2)), Tile::Recycler);
        let s = b.push(push(1, 2, Dir::Up)).unwrap();
        assert_eq!(s.fires_out, vec![Pos::new(0, 2)]);
        assert_eq!(s.end, End::Rest(Pos::new(0, 2)));
        assert_eq!(b.tile(Pos::new(1, 2)), Tile::Recycler, "the recycler stays");
        assert!(b.solved());
        // the magician never stands on a recycler, so he cannot push from one
        let t = tower("###\n# #\n#$#\n#-#\n# #\n#@#\n###\n");
        let mut b = Board::new(&t);
        assert_eq!(
            b.push(push(2, 1, Dir::Up)).unwrap_err(),
            Illegal::Unreachable(Pos::new(3, 1))
        );
    }

    #[test]
    fn regular_ice_falls_into_a_recycler() {
        let t = tower("#@% -*#\n");
        let mut b = Board::new(&t);
        let s = b.push(push(0, 2, Dir::Right)).unwrap();
        assert_eq!(s.end, End::Recycler(Pos::new(0, 4)));
        assert_eq!(b.fires_left(), 1);
    }

    #[test]
    fn the_magician_walks_only_on_floor() {
        // walled in by fire: he cannot reach the block's far side
        let t = tower("#####\n#@*%#\n#####\n");
        let mut b = Board::new(&t);
        assert_eq!(
            b.push(push(1, 3, Dir::Left)).unwrap_err(),
            Illegal::Unreachable(Pos::new(1, 4))
        );
        let reach = b.reach();
        assert_eq!(reach.iter().filter(|&&x| x).count(), 1);
        // the edge of the map stops a block; the pusher cell must be on the map
        let t = tower("@% \n");
        let mut b = Board::new(&t);
        assert_eq!(
            b.push(push(0, 1, Dir::Right)).unwrap().end,
            End::Rest(Pos::new(0, 2))
        );
        assert_eq!(
            b.push(push(0, 2, Dir::Left)).unwrap_err(),
            Illegal::PusherOffMap
        );
        assert_eq!(
            b.push(push(0, 2, Dir::Right)).unwrap_err(),
            Illegal::Stuck(None, "the edge of the map")
        );
        assert_eq!(
            b.push(push(0, 0, Dir::Right)).unwrap_err(),
            Illegal::NoBlock
        );
        assert_eq!(b.push(push(5, 0, Dir::Right)).unwrap_err(), Illegal::OffMap);
    }

    #[test]
    fn stuck_blocks_are_named() {
        let t = tower("#@%%#\n");
        let mut b = Board::new(&t);
        let e = b.push(push(0, 2, Dir::Right)).unwrap_err();
        assert_eq!(e, Illegal::Stuck(Some(Pos::new(0, 3)), "another block"));
        assert_eq!(b, Board::new(&t), "an illegal push changes nothing");
    }

    #[test]
    fn extinguished_fires_become_floor_for_walking() {
        // he must put out the fire to reach the second block
        let t = tower("#######\n#@%*  #\n#  # %#\n#####*#\n");
        let mut b = Board::new(&t);
        assert!(b.push(push(2, 5, Dir::Down)).is_err());
        b.push(push(1, 2, Dir::Right)).unwrap();
        b.push(push(2, 5, Dir::Down)).unwrap();
        assert!(b.solved());
    }

    #[test]
    fn replay_names_the_first_illegal_push() {
        let t = tower("#@% *#\n");
        let e = replay(&t, &[push(0, 2, Dir::Right), push(0, 3, Dir::Left)]).unwrap_err();
        assert_eq!(e.index, 1);
        assert_eq!(e.reason, Illegal::NoBlock);
        assert!(e.to_string().starts_with("push 2 (row 0, col 3, left)"));
        let r = replay(&t, &[push(0, 2, Dir::Right)]).unwrap();
        assert!(r.solved);
        assert_eq!(r.boards.len(), 1);
    }

    #[test]
    fn arrows_turn_blocks_and_carry_the_magician() {
        // the block turns down at the arrow and puts out the fire below it
        let t = tower("@% v\n   *\n");
        let mut b = Board::new(&t);
        let s = b.push(push(0, 1, Dir::Right)).unwrap();
        assert_eq!(s.end, End::Fire(Pos::new(1, 3)));
        // a block stops on an arrow when the arrow's way is blocked
        let t = tower("@% v\n   #\n");
        let mut b = Board::new(&t);
        assert_eq!(
            b.push(push(0, 1, Dir::Right)).unwrap().end,
            End::Rest(Pos::new(0, 3))
        );
        // the magician is carried: stepping on > takes him to the end of the arrows
        let t = tower("@>> \n");
        let b = Board::new(&t);
        let r = b.reach();
        assert_eq!(r, vec![true, false, false, true]);
        // a cycle of arrows: a block rests where it would go round again; the magician
        // never steps into it
        let t = tower("@%>v\n  ^<\n");
        let mut b = Board::new(&t);
        let s = b.push(push(0, 1, Dir::Right)).unwrap();
        assert_eq!(s.end, End::Rest(Pos::new(1, 2)));
        let b = Board::new(&tower("@>v\n ^<\n"));
        assert_eq!(b.reach().iter().filter(|&&x| x).count(), 2);
    }

    #[test]
    fn dispensers_emit_regular_ice() {
        let t = tower("@+ *\n");
        let mut b = Board::new(&t);
        let s = b.push(push(0, 1, Dir::Right)).unwrap();
        assert_eq!(s.end, End::Fire(Pos::new(0, 3)));
        assert_eq!(b.tile(Pos::new(0, 1)), Tile::Dispenser);
        // a dispenser stops blocks and the magician like a wall
        let t = tower("@% +\n");
        let mut b = Board::new(&t);
        assert_eq!(
            b.push(push(0, 1, Dir::Right)).unwrap().end,
            End::Rest(Pos::new(0, 2))
        );
        let e = b.push(push(0, 3, Dir::Left)).unwrap_err();
        assert_eq!(e, Illegal::PusherOffMap);
    }

    #[test]
    fn plain_search_solves_small_levels() {
        let t = tower("#######\n#@%*  #\n#  # %#\n#####*#\n");
        let r = bfs(&PlainPuzzle::new(&t), &Limits::none());
        let m = r.outcome.solution().unwrap().to_vec();
        assert_eq!(m.len(), 2);
        assert!(replay(&t, &m).unwrap().solved);
        let t = tower("#####\n#@*%#\n#####\n");
        assert_eq!(
            bfs(&PlainPuzzle::new(&t), &Limits::none()).outcome,
            Outcome::Unsolvable
        );
    }
}
