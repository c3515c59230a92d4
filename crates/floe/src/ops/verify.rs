//! Verifying a move list of any game: replayed on the game's rules, legal or not, solving or
//! not, with the game's difficulty when it solves.

use super::solve::params_of;
use crate::error::Error;
use crate::game::{factor_of, replay, Game, IllegalMove, Move, Verified};

/// Replays a move list and says whether it is legal and solves the level.
pub(crate) fn verify<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    moves: &[G::Move],
    factor: Option<u64>,
) -> Result<Verified, Error> {
    g.check(level)?;
    let factor = factor_of(g, factor)?;
    let mut v = Verified {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        valid: false,
        solved: false,
        length: None,
        pushes: None,
        difficulty: None,
        error: None,
        end: String::new(),
    };
    match replay(g, level, moves) {
        Ok(r) => {
            let n = moves.len() as u64;
            v.valid = true;
            v.solved = r.solved;
            v.length = Some(n);
            v.pushes = g.info().moves_are_pushes().then_some(n);
            if r.solved {
                v.difficulty = g.difficulty(level, moves, &r.steps, factor)?;
            }
            v.end = g.position_text(level, r.positions.last().expect("the start"));
        }
        Err((i, reason)) => {
            v.error = Some(IllegalMove {
                index: i + 1,
                played: Move::new(moves[i].clone()),
                reason,
            });
            // the position before the illegal move
            if let Ok(r) = replay(g, level, &moves[..i]) {
                v.end = g.position_text(level, r.positions.last().expect("the start"));
            }
        }
    }
    Ok(v)
}
