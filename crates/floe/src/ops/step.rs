//! A level played one move at a time, for any game: [`State`], a position of a level with
//! the moves that led to it, as OpenSpiel's `State` is (`floe.Level.start()` in Python).
//!
//! The legal moves at a position are those the game's engine generates there (the same
//! moves the state graph and the hints in play list, `verdict::legal_moves`), each named as
//! `floe solve` names moves and checked by the game's rules; a move is played by the rules
//! themselves ([`Game::apply`]), which say why one is illegal. An engine that prunes leaves
//! out the moves into positions it knows to be dead (Ice Tower's engine does: a block
//! pushed where no solution can follow); the rules still play them. A state never changes:
//! playing a move gives a new one. [`State::cells`] gives the position as one code per cell,
//! read from the game's scene ([`cell_code`]).

use super::level::Level;
use super::verdict::legal_moves;
use crate::error::Error;
use crate::game::{Game, Move};
use crate::scene::{Ground, PieceKind, Scene};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A position of a level with the moves played from its start to reach it.
#[derive(Clone)]
pub struct State {
    level: Level,
    obj: Arc<dyn DynState>,
    played: Option<Arc<Played>>,
    key: String,
    solved: bool,
}

/// The moves played to reach a state, shared with the states before it: a move costs the
/// same to play at any depth (the list is made only when asked for).
struct Played {
    last: Move,
    before: Option<Arc<Played>>,
    depth: usize,
}

impl Drop for Played {
    /// Drops the moves before it one after another, not by recursion: a state a million moves
    /// deep would otherwise overflow the stack when it goes.
    fn drop(&mut self) {
        let mut next = self.before.take();
        while let Some(p) = next {
            next = match Arc::try_unwrap(p) {
                Ok(mut alone) => alone.before.take(),
                // the rest is shared with another state, which keeps it
                Err(_) => None,
            };
        }
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({:?} after {} moves)", self.level, self.depth())
    }
}

/// A position of some game with the game's type erased: the [`StateOf`] behind a [`State`].
trait DynState: Send + Sync {
    /// The legal moves, in the engine's order.
    fn moves(&self) -> Result<Vec<Move>, Error>;
    /// The position after `m`, or why `m` cannot be played.
    fn play(&self, m: &Move) -> Result<Arc<dyn DynState>, Error>;
    /// Whether the position solves the level.
    fn solved(&self) -> bool;
    /// The game's key of the position (equal positions, equal keys).
    fn key(&self) -> String;
    /// The position in the game's notation.
    fn text(&self) -> String;
    /// The position as a scene (untitled).
    fn scene(&self) -> Scene;
    /// The game's own position.
    fn as_any(&self) -> &dyn Any;
}

/// A position of game `G` on its level.
struct StateOf<G: Game> {
    game: G,
    level: Arc<G::Level>,
    pos: G::Position,
}

impl<G: Game> DynState for StateOf<G> {
    fn moves(&self) -> Result<Vec<Move>, Error> {
        let (g, l) = (self.game, &*self.level);
        let mut out: Vec<G::Move> = Vec::new();
        for m in legal_moves(g, l, &self.pos)? {
            if out.contains(&m) {
                continue;
            }
            // the engine's moves are the rules' moves: a disagreement is a bug, not a move
            g.apply(l, &mut self.pos.clone(), &m).map_err(|why| {
                Error::Internal(format!(
                    "the engine lists the move {m}, which the rules refuse: {why}"
                ))
            })?;
            out.push(m);
        }
        Ok(out.into_iter().map(Move::new).collect())
    }
    fn play(&self, m: &Move) -> Result<Arc<dyn DynState>, Error> {
        let g = self.game;
        let typed = m.typed::<G::Move>().ok_or_else(|| {
            Error::invalid(format!("the move {m} is not a move of {}", g.info().title))
        })?;
        let mut pos = self.pos.clone();
        g.apply(&self.level, &mut pos, typed)
            .map_err(|why| Error::invalid(format!("the move {m} is illegal: {why}")))?;
        Ok(Arc::new(StateOf {
            game: g,
            level: self.level.clone(),
            pos,
        }))
    }
    fn solved(&self) -> bool {
        self.game.solved(&self.level, &self.pos)
    }
    fn key(&self) -> String {
        self.game.position_key(&self.level, &self.pos)
    }
    fn text(&self) -> String {
        self.game.position_text(&self.level, &self.pos)
    }
    fn scene(&self) -> Scene {
        self.game.scene(&self.level, &self.pos)
    }
    fn as_any(&self) -> &dyn Any {
        &self.pos
    }
}

/// The start of `level` (a level of `g`), as a [`State`] of `whole` (the same level, named):
/// refused when its rules cannot be played with its parameters.
pub(crate) fn start<G: Game>(g: G, level: &G::Level, whole: &Level) -> Result<State, Error> {
    g.check(level)?;
    let obj: Arc<dyn DynState> = Arc::new(StateOf {
        game: g,
        level: Arc::new(level.clone()),
        pos: g.start(level),
    });
    Ok(State::new(whole.clone(), obj, None))
}

impl State {
    fn new(level: Level, obj: Arc<dyn DynState>, played: Option<Arc<Played>>) -> State {
        State {
            level,
            key: obj.key(),
            solved: obj.solved(),
            obj,
            played,
        }
    }
    /// The level it is a position of.
    pub fn level(&self) -> &Level {
        &self.level
    }
    /// The legal moves, each as `floe solve` gives moves, in the engine's order (empty when
    /// no move can be played). Each is checked by the game's rules. A pruning engine leaves
    /// out the moves into positions it knows to be dead, which [`State::play`] still plays.
    pub fn moves(&self) -> Result<Vec<Move>, Error> {
        self.obj.moves()
    }
    /// The state after `m`, played by the game's rules; an illegal move (or one of another
    /// game) is refused with the rules' reason. `self` does not change.
    pub fn play(&self, m: &Move) -> Result<State, Error> {
        let obj = self.obj.play(m)?;
        let played = Arc::new(Played {
            last: m.clone(),
            before: self.played.clone(),
            depth: self.depth() + 1,
        });
        Ok(State::new(self.level.clone(), obj, Some(played)))
    }
    /// Plays the moves one after another; the first illegal one is refused with its place.
    pub fn play_all(&self, moves: &[Move]) -> Result<State, Error> {
        let mut s = self.clone();
        for (i, m) in moves.iter().enumerate() {
            s = s.play(m).map_err(|e| match e {
                Error::Invalid(why) => Error::invalid(format!("move {}: {why}", i + 1)),
                e => e,
            })?;
        }
        Ok(s)
    }
    /// Whether the position solves the level.
    pub fn solved(&self) -> bool {
        self.solved
    }
    /// The moves played from the start, in order.
    pub fn played(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(self.depth());
        let mut at = self.played.as_deref();
        while let Some(p) = at {
            out.push(p.last.clone());
            at = p.before.as_deref();
        }
        out.reverse();
        out
    }
    /// How many moves were played from the start.
    pub fn depth(&self) -> usize {
        self.played.as_ref().map_or(0, |p| p.depth)
    }
    /// The game's key of the position: two positions of a level with the same key are the
    /// same position for the rules (walking within a region changes nothing in PushPush).
    pub fn key(&self) -> &str {
        &self.key
    }
    /// The position in the game's notation.
    pub fn text(&self) -> String {
        self.obj.text()
    }
    /// The position as a scene to draw, titled with the level's name.
    pub fn scene(&self) -> Scene {
        let mut s = self.obj.scene();
        s.title = self.level.name().to_string();
        s
    }
    /// The game's own position, if the level is of `G`.
    pub fn typed<G: Game>(&self) -> Option<&G::Position> {
        self.obj.as_any().downcast_ref()
    }
    /// The position as one code per cell ([`cell_code`]): rows, columns and the codes row
    /// by row.
    pub fn cells(&self) -> (usize, usize, Vec<u16>) {
        let s = self.obj.scene();
        cells_of(&s)
    }
}

/// The codes of a scene's cells, row by row ([`cell_code`]), with its rows and columns.
pub fn cells_of(s: &Scene) -> (usize, usize, Vec<u16>) {
    let mut codes: Vec<u16> = (0..s.rows * s.cols)
        .map(|i| ground_code(s.ground[i]))
        .collect();
    for p in &s.pieces {
        let (r, c) = p.at;
        if r < s.rows && c < s.cols {
            codes[r * s.cols + c] = cell_code(s.ground[r * s.cols + c], Some(p.kind));
        }
    }
    (s.rows, s.cols, codes)
}

/// What the ground of a cell adds to its code: 0 blank, 1 ice (also PushPush's and Ice
/// Tower's floor), 2 floor, 3 wall, 4 target, 5 fire, 6 recycler, 7 to 10 an arrow up,
/// right, down, left, 11 dispenser, 12 table, 13 hole, 14 a priest's start, 16 + v a space
/// of value v (Fujisan; v up to 15).
pub const GROUND_CODES: u16 = 32;

fn ground_code(g: Ground) -> u16 {
    match g {
        Ground::Blank => 0,
        Ground::Ice => 1,
        Ground::Floor => 2,
        Ground::Wall => 3,
        Ground::Target => 4,
        Ground::Fire => 5,
        Ground::Recycler => 6,
        Ground::Arrow(d) => 7 + d as u16,
        Ground::Dispenser => 11,
        Ground::Table => 12,
        Ground::Hole => 13,
        Ground::Start => 14,
        Ground::Space { value, .. } => 16 + u16::from(value.min(15)),
    }
}

fn piece_code(p: PieceKind) -> u16 {
    match p {
        PieceKind::Block => 1,
        PieceKind::Golden => 2,
        PieceKind::Player => 3,
        PieceKind::Magician => 4,
        PieceKind::Priest => 5,
        PieceKind::Token(colour) => 5 + u16::from(colour.min(9)),
        PieceKind::Card { suit, rank } => 16 + 13 * u16::from(suit) + u16::from(rank.max(1)) - 1,
    }
}

/// One cell's code: `32 × piece + ground` ([`GROUND_CODES`] = 32). The ground is as
/// [`GROUND_CODES`] says; the piece 0 none, 1 block, 2 golden ice, 3 player (robot),
/// 4 magician, 5 priest, 5 + c a token of colour c (1 to 9), 16 + 13 × suit + rank − 1 a
/// card (suit 0-based, rank 1 = ace).
pub fn cell_code(ground: Ground, piece: Option<PieceKind>) -> u16 {
    GROUND_CODES * piece.map_or(0, piece_code) + ground_code(ground)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::level_of;
    use crate::ops::SolveOptions;

    /// Plays `level`'s solution move by move from its start.
    fn solves_step_by_step(level: &Level) {
        let r = level.solve(&SolveOptions::default()).unwrap();
        let moves = r.moves.clone();
        assert!(!moves.is_empty());
        let mut s = level.start().unwrap();
        assert!(!s.solved());
        for m in &moves {
            let legal = s.moves().unwrap();
            assert!(
                legal.iter().any(|x| x.json() == m.json()),
                "{m} is not among {legal:?}"
            );
            s = s.play(m).unwrap();
        }
        assert!(s.solved());
        assert_eq!(s.played().len(), moves.len());
        let again = level.start().unwrap().play_all(&moves).unwrap();
        assert_eq!(again.key(), s.key());
    }

    #[test]
    fn pushpush_steps_to_its_solution() {
        let level = level_of("pushpush", "@$--\n##-.\n");
        solves_step_by_step(&level);
        let s = level.start().unwrap();
        assert_eq!(s.moves().unwrap().len(), 1);
        let (rows, cols, codes) = s.cells();
        assert_eq!((rows, cols), (2, 4));
        // the robot on floor, then a block on floor
        assert_eq!(codes[0], cell_code(Ground::Ice, Some(PieceKind::Player)));
        assert_eq!(codes[1], 32 + 1);
        assert_eq!(codes[4], 3);
    }

    #[test]
    fn an_illegal_move_is_refused_with_the_rules_reason_and_changes_nothing() {
        let level = level_of("pushpush", "@$--\n##-.\n");
        let s = level.start().unwrap();
        let m = &s.moves().unwrap()[0];
        let after = s.play(m).unwrap();
        assert!(after.solved());
        assert!(!s.solved());
        assert!(s.played().is_empty());
        // the block is on the target: pushing it again would push it off the board
        let legal = after.moves().unwrap();
        assert!(!legal.iter().any(|x| x.json() == m.json()));
        let e = after.play(m).unwrap_err().to_string();
        assert!(e.contains("illegal"), "{e}");
        // a move of another game
        let other = level_of("icepath", "@---#\n-#---\n---=.\n");
        let o = &other.start().unwrap().moves().unwrap()[0];
        let e = s.play(o).unwrap_err().to_string();
        assert!(e.contains("not a move of"), "{e}");
    }

    #[test]
    fn a_state_a_million_moves_deep_is_dropped_without_overflowing_the_stack() {
        // a block sliding to and fro along a row, never on the target
        let level = level_of("ice", "$--\n---\n--.\n");
        let mut s = level.start().unwrap();
        let (right, left) = (
            Move::new(crate::grid::Push::new(
                crate::grid::Pos::new(0, 0),
                crate::grid::Dir::Right,
            )),
            Move::new(crate::grid::Push::new(
                crate::grid::Pos::new(0, 2),
                crate::grid::Dir::Left,
            )),
        );
        let kept = {
            for _ in 0..500 {
                s = s.play(&right).unwrap().play(&left).unwrap();
            }
            s.clone()
        };
        // a million moves on a thread with a small stack: the drop goes one move at a time
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || {
                let mut s = s;
                for _ in 0..500_000 {
                    s = s.play(&right).unwrap().play(&left).unwrap();
                }
                assert_eq!(s.depth(), 1_001_000);
                drop(s);
            })
            .unwrap()
            .join()
            .unwrap();
        // the moves shared with a state still held are kept
        assert_eq!(kept.played().len(), 1000);
    }

    #[test]
    fn equal_positions_have_equal_keys() {
        let level = level_of("pushpush", "@-$-.\n");
        let s = level.start().unwrap();
        let once = s.play(&s.moves().unwrap()[0]).unwrap();
        assert_ne!(s.key(), once.key());
        assert_eq!(once.key(), s.play_all(&once.played()).unwrap().key());
    }

    #[test]
    fn every_game_steps() {
        // each registered game's own sample level
        for g in crate::games::all() {
            let (file, text) = (g.info().name, g.info().sample.text);
            let level = crate::ops::Request::from_text(text, file)
                .level(Some("1"))
                .resolve()
                .unwrap()
                .level;
            let s = level.start().unwrap();
            let moves = s.moves().unwrap();
            assert!(!moves.is_empty(), "{file}");
            let next = s.play(&moves[0]).unwrap();
            assert_eq!(next.played().len(), 1);
            let (rows, cols, codes) = next.cells();
            assert_eq!(codes.len(), rows * cols);
            let scene = level.scene();
            assert_eq!((rows, cols), (scene.rows, scene.cols));
            // a key reads as the game's notation and words, not the engine's types
            for key in [s.key(), next.key()] {
                assert!(
                    ["Some(", "None", "Pos {"].iter().all(|d| !key.contains(d)),
                    "{file}: {key:?}"
                );
            }
        }
        // the keys' words: where the player, the robot's region, the man stand
        let walk = level_of("ice", "Rules: walk\n@$-.\n").start().unwrap();
        assert!(
            walk.key().ends_with("player at row 0, col 0\n"),
            "{}",
            walk.key()
        );
        let robot = level_of("pushpush", "@-$-.\n").start().unwrap();
        assert!(
            robot.key().ends_with("robot's region from row 0, col 0\n"),
            "{}",
            robot.key()
        );
    }
}
