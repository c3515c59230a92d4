//! The game and its level: [`PushPush`] (the game face's unit type, whose rules are in
//! [`game`](super::game)) and a [`Level`], a board with the variant it is played under.

use super::board::Board;
use super::engine::Variant;

/// PushPush-1, -k and -* (spec `pushpush.md`): a robot walks freely and pushes blocks, which
/// slide until they hit something, until it can walk onto the target.
#[derive(Clone, Copy, Debug, Default)]
pub struct PushPush;

/// A PushPush board with the variant it is played under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The board.
    pub board: Board,
    /// PushPush-1, -k or -*.
    pub variant: Variant,
}
