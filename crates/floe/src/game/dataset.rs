//! What `floe.dataset` asks a game and answers: random boards of a size, each labelled
//! exactly and drawn as its learning environment's observation planes
//! ([`Game::dataset`](super::Game::dataset)). PushPush draws `floe learn data`'s boards.

use crate::error::Error;

/// What a dataset is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetOptions {
    /// Rows of every board.
    pub rows: usize,
    /// Columns of every board.
    pub cols: usize,
    /// How many boards (distinct).
    pub count: u64,
    /// Seed of the draw.
    pub seed: u64,
    /// Seed of the split (training, validation, test) of the boards' classes.
    pub split_seed: u64,
}

/// Labelled boards, one row each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// The game's name.
    pub game: &'static str,
    /// Rows of every board.
    pub rows: usize,
    /// Columns of every board.
    pub cols: usize,
    /// The planes of the observations (the game's learning environment's).
    pub planes: &'static [&'static str],
    /// `count × planes × rows × cols` bytes, 0 or 1.
    pub obs: Vec<u8>,
    /// Each board in the compact text of `floe learn data` (its rows joined by `/`).
    pub boards: Vec<String>,
    /// Fewest moves to solve each board, −1 when it cannot be.
    pub pushes: Vec<i32>,
    /// Each board's difficulty (the game's measure), NaN when unsolvable.
    pub difficulty: Vec<f32>,
    /// Each board's split: 0 training, 1 validation, 2 test.
    pub split: Vec<u8>,
    /// Each board's equivalence class (boards of a class share their labels and split).
    pub class: Vec<u128>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Dataset {
    /// How many boards.
    pub fn len(&self) -> usize {
        self.pushes.len()
    }
    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.pushes.is_empty()
    }
}

/// The refusal of a game that draws no random boards.
pub(crate) fn none(title: &str) -> Error {
    Error::invalid(format!(
        "floe.dataset draws random PushPush boards (those of floe learn data), not {title} boards; \
         a level's every position, labelled, is floe.env.table(level)"
    ))
}
