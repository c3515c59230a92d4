//! The three games behind one interface, for [`Session`](super::Session). Nothing here
//! re-states a rule: pushes go through each game's own rule code (the validators' replays and
//! `apply`, the Ice Tower plain rules) and the solver questions through each game's solver.

use super::{Ground, Piece, Verdict};
use crate::games::ice::engine::{with_puzzle, IcePuzzle, IceTask, Walking};
use crate::games::ice::{self, Cell, Level, WalkRule};
use crate::games::icetower::{self as tower, Block, Tile};
use crate::games::pushpush::{self as pp, Variant};
use crate::grid::{Dir, Pos, Push};
use crate::search::{self, Limits, Outcome, StartAt};
use crate::{bits::Bits, Error};

/// A game's rules and the level's fixed parts.
#[derive(Clone, Debug)]
pub(crate) enum Rules {
    /// Ice blocks: the level (its start) and the walking rule.
    Ice { level: Level, rule: WalkRule },
    /// PushPush-1, -k or -*.
    Push { variant: Variant },
    /// Ice Tower; `dynamic` when the level has arrows or dispensers.
    Tower { name: String, dynamic: bool },
}

/// One position of a game.
#[derive(Clone, Debug)]
pub(crate) enum Position {
    /// Ice blocks: the pushes from the start (the validator replays them), the board after
    /// them without the player, and where the player stands (`None`: outside the board).
    Ice {
        moves: Vec<Push>,
        board: Level,
        player: Option<Pos>,
    },
    /// PushPush: the board with the robot.
    Push(pp::Board),
    /// Ice Tower: the plain-rules board with the magician.
    Tower(tower::Board),
}

/// What an arrow did in a game where the player walks.
pub(crate) enum Stepped {
    /// He walked to this cell.
    Walked(Pos),
    /// Something stops him (not a push: nothing is there to push).
    Blocked(String),
    /// He stands next to a block and pushes it.
    Push(Push),
}

impl Rules {
    /// Plays `push`: the new position and where the block came to rest (when it did), or
    /// why the push is illegal.
    pub(crate) fn push(
        &self,
        pos: &Position,
        push: Push,
    ) -> Result<(Position, Option<Pos>), String> {
        match (self, pos) {
            (Rules::Ice { level, rule }, Position::Ice { moves, .. }) => {
                let mut all = moves.clone();
                all.push(push);
                let r = ice::replay(level, *rule, &all).map_err(|e| e.reason.to_string())?;
                let to = r.steps.last().map(|s| s.to);
                let mut board = r.end;
                board
                    .set_player(None)
                    .expect("removing the player always succeeds");
                let player = push
                    .pos()
                    .step(push.dir.opposite(), level.rows(), level.cols());
                Ok((
                    Position::Ice {
                        moves: all,
                        board,
                        player,
                    },
                    to,
                ))
            }
            (Rules::Push { variant }, Position::Push(b)) => {
                let mut b = b.clone();
                pp::validate::apply(&mut b, push, *variant).map_err(|e| e.to_string())?;
                Ok((Position::Push(b), None))
            }
            (Rules::Tower { .. }, Position::Tower(b)) => {
                let mut b = b.clone();
                let step = b.push(push).map_err(|e| e.to_string())?;
                let to = match step.end {
                    tower::End::Rest(p) => Some(p),
                    _ => None,
                };
                Ok((Position::Tower(b), to))
            }
            _ => unreachable!("a session pairs rules and positions of one game"),
        }
    }

    /// An arrow in a game where the player walks (PushPush, Ice Tower): walk, or push the
    /// block in front. `None` for ice blocks, where arrows push the selected block.
    pub(crate) fn step(&self, pos: &mut Position, d: Dir) -> Option<Stepped> {
        match pos {
            Position::Ice { .. } => None,
            Position::Push(b) => Some(match b.step(b.robot(), d) {
                None => Stepped::Blocked("the edge of the board".into()),
                Some(n) if b.is_wall(n) => Stepped::Blocked("a wall".into()),
                Some(n) if b.has_block(n) => Stepped::Push(Push::new(n, d)),
                Some(n) => {
                    b.set_robot(n).expect("the cell is free");
                    Stepped::Walked(n)
                }
            }),
            Position::Tower(b) => {
                let man = b.man();
                Some(match man.step(d, b.rows(), b.cols()) {
                    None => Stepped::Blocked("the edge of the map".into()),
                    Some(n) if b.block(n).is_some() || b.tile(n) == Tile::Dispenser => {
                        Stepped::Push(Push::new(n, d))
                    }
                    Some(_) => match b.walk(d) {
                        Ok(to) => Stepped::Walked(to),
                        Err(what) => Stepped::Blocked(what.into()),
                    },
                })
            }
        }
    }

    pub(crate) fn solved(&self, pos: &Position) -> bool {
        match pos {
            Position::Ice { board, .. } => board.is_solved(),
            Position::Push(b) => pp::validate::is_solved(b),
            Position::Tower(b) => b.solved(),
        }
    }

    /// Cells that hold a block, row by row.
    pub(crate) fn blocks(&self, pos: &Position) -> Vec<Pos> {
        match pos {
            Position::Ice { board, .. } => board.blocks().collect(),
            Position::Push(b) => (0..b.cells())
                .map(|i| b.pos(i))
                .filter(|&p| b.has_block(p))
                .collect(),
            Position::Tower(b) => (0..b.rows() * b.cols())
                .map(|i| Pos::new(i / b.cols(), i % b.cols()))
                .filter(|&p| b.block(p).is_some())
                .collect(),
        }
    }

    pub(crate) fn size(&self, pos: &Position) -> (usize, usize) {
        match pos {
            Position::Ice { board, .. } => (board.rows(), board.cols()),
            Position::Push(b) => (b.rows(), b.cols()),
            Position::Tower(b) => (b.rows(), b.cols()),
        }
    }

    /// Ground, piece and whether the player (robot, magician) stands on `p`.
    pub(crate) fn cell(&self, pos: &Position, p: Pos) -> (Ground, Option<Piece>, bool) {
        match (self, pos) {
            (Rules::Ice { rule, .. }, Position::Ice { board, player, .. }) => {
                let ground = match board.cell(p) {
                    Cell::Ice => Ground::Ice,
                    Cell::Target => Ground::Target,
                    Cell::Floor => Ground::Floor,
                    Cell::Wall => Ground::Wall,
                };
                let piece = board.has_block(p).then_some(Piece::Block);
                (ground, piece, *rule == WalkRule::Walk && *player == Some(p))
            }
            (_, Position::Push(b)) => {
                let ground = if b.is_wall(p) {
                    Ground::Wall
                } else if b.target() == p {
                    Ground::Target
                } else {
                    Ground::Ice
                };
                (
                    ground,
                    b.has_block(p).then_some(Piece::Block),
                    b.robot() == p,
                )
            }
            (_, Position::Tower(b)) => {
                let ground = match b.tile(p) {
                    Tile::Floor => Ground::Ice,
                    Tile::Wall => Ground::Wall,
                    Tile::Fire => Ground::Fire,
                    Tile::Recycler => Ground::Recycler,
                    Tile::Arrow(d) => Ground::Arrow(d),
                    Tile::Dispenser => Ground::Dispenser,
                };
                let piece = b.block(p).map(|k| match k {
                    Block::Ice => Piece::Block,
                    Block::Golden => Piece::Golden,
                });
                (ground, piece, b.man() == p)
            }
            _ => unreachable!("a session pairs rules and positions of one game"),
        }
    }

    /// The position in the game's own text notation.
    pub(crate) fn text(&self, pos: &Position) -> String {
        match pos {
            Position::Ice { board, .. } => {
                let mut s = String::new();
                for r in 0..board.rows() {
                    for c in 0..board.cols() {
                        let p = Pos::new(r, c);
                        let (ground, piece, man) = self.cell(pos, p);
                        s.push(match (ground, piece.is_some(), man) {
                            (Ground::Target, true, _) => '*',
                            (Ground::Target, false, true) => '+',
                            (Ground::Target, false, false) => '.',
                            (_, true, _) => '$',
                            (Ground::Floor, ..) => '=',
                            (Ground::Wall, ..) => '#',
                            (_, false, true) => '@',
                            _ => '-',
                        });
                    }
                    s.push('\n');
                }
                s
            }
            Position::Push(b) => b.rows_text(),
            Position::Tower(b) => b.to_text(),
        }
    }

    /// A key that tells positions apart for the solver: blocks and what the player can
    /// reach. Walking within his region does not change it (PushPush, static Ice Tower), so a
    /// hint survives a walk; under the ice blocks' `walk` rule and among Ice Tower's arrows
    /// his exact cell is kept.
    pub(crate) fn key(&self, pos: &Position) -> String {
        match (self, pos) {
            (_, Position::Ice { player, .. }) => format!("{}{player:?}", self.text(pos)),
            (_, Position::Push(b)) => {
                let region = pp::validate::walkable(b).iter().position(|&w| w);
                let blocks = b.rows_text().replace('@', "-").replace('+', ".");
                format!("{blocks}{region:?}")
            }
            (Rules::Tower { dynamic: false, .. }, Position::Tower(b)) => {
                format!("{}{:?}", b.to_text().replace('@', " "), b.region_key())
            }
            (_, Position::Tower(b)) => format!("{}{:?}", b.to_text(), b.man()),
        }
    }

    /// Fewest pushes from `pos` to a solution and the first of them, by exact search within
    /// `limits`; every solution found is replayed by the game's rules before it is trusted.
    pub(crate) fn analyse(&self, pos: &Position, limits: &Limits) -> Result<Verdict, Error> {
        if self.solved(pos) {
            return Ok(Verdict::Solvable {
                pushes: 0,
                next: None,
            });
        }
        let outcome = match (self, pos) {
            (
                Rules::Ice { level, rule },
                Position::Ice {
                    moves,
                    board,
                    player,
                },
            ) => {
                let task = IceFrom {
                    blocks: board.blocks().collect(),
                    player: *player,
                    limits,
                };
                let outcome = with_puzzle(level, *rule, task)??;
                if let Outcome::Solved(rest) = &outcome {
                    let mut all = moves.clone();
                    all.extend_from_slice(rest);
                    let r = ice::replay(level, *rule, &all)
                        .map_err(|e| Error::Internal(format!("the hint does not replay: {e}")))?;
                    if !r.solved {
                        return Err(Error::Internal(
                            "the hint replays but leaves a target empty".into(),
                        ));
                    }
                }
                outcome
            }
            (Rules::Push { variant }, Position::Push(b)) => {
                let o = pp::SolveOptions {
                    variant: *variant,
                    search: pp::Search::Bfs,
                    limits: limits.clone(),
                    difficulty: false,
                };
                pp::solve(b, &o)?.outcome
            }
            (Rules::Tower { name, dynamic }, Position::Tower(b)) => {
                let t = b.to_tower(name).map_err(|m| {
                    Error::invalid(format!("this position cannot be solved from: {m}"))
                })?;
                let o = tower::SolveOptions {
                    algorithm: tower::Algorithm::AStar,
                    prune: true,
                    dynamic: *dynamic,
                    limits: limits.clone(),
                };
                let r = tower::solve(&t, &o)?;
                match r.status {
                    search::Status::Solved => Outcome::Solved(r.moves),
                    search::Status::Unsolvable => Outcome::Unsolvable,
                    search::Status::Limit(k) => Outcome::Limit(k),
                }
            }
            _ => unreachable!("a session pairs rules and positions of one game"),
        };
        Ok(match outcome {
            Outcome::Solved(m) => Verdict::Solvable {
                pushes: m.len() as u32,
                next: m.first().copied(),
            },
            Outcome::Unsolvable => Verdict::Unsolvable,
            Outcome::Limit(k) => Verdict::Unknown(k),
        })
    }
}

/// Breadth-first search from a given ice block position on the compiled engine.
struct IceFrom<'a> {
    blocks: Vec<Pos>,
    player: Option<Pos>,
    limits: &'a Limits,
}

impl IceTask for IceFrom<'_> {
    type Output = Result<Outcome<Push>, Error>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
        let start = p.state_from(&self.blocks, self.player)?;
        let from = StartAt { puzzle: p, start };
        let r = search::bfs(&from, self.limits);
        Ok(match r.outcome {
            Outcome::Solved(m) => Outcome::Solved(m.iter().map(|m| p.push(m)).collect()),
            Outcome::Unsolvable => Outcome::Unsolvable,
            Outcome::Limit(k) => Outcome::Limit(k),
        })
    }
}
