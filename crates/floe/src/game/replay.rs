//! A move list replayed on a game's plain rules ([`Game::apply`], the validator every answer
//! is checked by), and the pictures drawn from a replay: the scene of a position, the story
//! of a move list. Written once over [`Game`]; the operations and the analyses rely on it.

use super::report::ReplayObj;
use super::Game;
use crate::error::Error;
use crate::scene::{Scene, Story};
use std::fmt;

/// A move list replayed on a game's plain rules.
#[derive(Clone, Debug)]
pub struct Replayed<G: Game> {
    /// The start and the position after each move.
    pub positions: Vec<G::Position>,
    /// What each move did.
    pub steps: Vec<G::Step>,
    /// Whether the last position solves the level.
    pub solved: bool,
}

/// Replays `moves` from the start of `level` on the game's rules: every position and step,
/// or the 0-based index of the first illegal move and why.
pub fn replay<G: Game>(
    g: G,
    level: &G::Level,
    moves: &[G::Move],
) -> Result<Replayed<G>, (usize, String)> {
    let mut pos = g.start(level);
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut steps = Vec::with_capacity(moves.len());
    positions.push(pos.clone());
    for (i, m) in moves.iter().enumerate() {
        let step = g.apply(level, &mut pos, m).map_err(|why| (i, why))?;
        steps.push(step);
        positions.push(pos.clone());
    }
    let solved = g.solved(level, &pos);
    Ok(Replayed {
        positions,
        steps,
        solved,
    })
}

/// Why `moves` do not replay, as messages say it: `"{what} does not replay: move N (M) is
/// illegal: WHY"` (`i` is the 0-based index [`replay`] gives).
pub fn illegal_replay<M: fmt::Display>(what: &str, moves: &[M], i: usize, why: &str) -> String {
    format!(
        "{what} does not replay: move {} ({}) is illegal: {why}",
        i + 1,
        moves[i]
    )
}

/// A solution kept, replayed, behind a [`SolveReport`](super::SolveReport): its pictures
/// and boards are drawn from it without replaying again.
pub(crate) struct KeptReplay<G: Game> {
    /// The game.
    pub(crate) game: G,
    /// The level.
    pub(crate) level: G::Level,
    /// The title of its pictures.
    pub(crate) title: String,
    /// The moves.
    pub(crate) moves: Vec<G::Move>,
    /// Their replay.
    pub(crate) replayed: Replayed<G>,
}

impl<G: Game> ReplayObj for KeptReplay<G> {
    fn story(&self) -> Result<Story, Error> {
        story_of(
            self.game,
            &self.level,
            &self.title,
            &self.moves,
            &self.replayed,
        )
    }
    fn boards(&self) -> Vec<String> {
        self.replayed
            .positions
            .iter()
            .map(|p| self.game.position_text(&self.level, p))
            .collect()
    }
}

/// The scene of a position with its title.
pub fn scene_of<G: Game>(g: G, level: &G::Level, title: &str, pos: &G::Position) -> Scene {
    let mut s = g.scene(level, pos);
    s.title = title.to_string();
    s
}

/// The story of a replayed move list.
pub fn story_of<G: Game>(
    g: G,
    level: &G::Level,
    title: &str,
    moves: &[G::Move],
    r: &Replayed<G>,
) -> Result<Story, Error> {
    let start = scene_of(g, level, title, &r.positions[0]);
    let changes = moves
        .iter()
        .zip(&r.steps)
        .zip(&r.positions)
        .map(|((m, s), before)| g.change(level, before, m, s));
    Story::build(start, changes)
}
