//! Samples of labelled PushPush boards for learning (`floe learn data`, Python's
//! `floe.dataset`): boards of a rectangle without walls drawn with a seed, each labelled
//! exactly (fewest pushes, the thesis's difficulty) and given to a split (80 % training, 10 %
//! validation, 10 % test) by its equivalence class ([`class_key`]), so that no board is
//! tested in a guise it was trained in.

use super::labels::{board_at, board_count, class_key, label};
use super::{Board, Variant};
use crate::error::Error;
use crate::game::dataset::{Dataset, DatasetOptions};
use crate::game::Game;
use crate::grid::Pos;
use crate::scene::Planes;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use rayon::prelude::*;
use std::collections::HashSet;

/// The three parts of a dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// 80 %: fits the weights.
    Train,
    /// 10 %: picks the epoch.
    Val,
    /// 10 %: the figures reported.
    Test,
}

impl Split {
    /// Its name in the file format.
    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Val => "val",
            Split::Test => "test",
        }
    }
    /// The split of a name.
    pub fn parse(s: &str) -> Option<Split> {
        match s {
            "train" => Some(Split::Train),
            "val" => Some(Split::Val),
            "test" => Some(Split::Test),
            _ => None,
        }
    }
}

/// The split of a class: a seeded hash of its key, 8 of 10 buckets to training.
pub fn split_of(key: u128, seed: u64) -> Split {
    let h = mix(mix(key as u64 ^ seed) ^ (key >> 64) as u64 ^ mix((key >> 32) as u64));
    match h % 10 {
        0..=7 => Split::Train,
        8 => Split::Val,
        _ => Split::Test,
    }
}

/// splitmix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One labelled board (at most 32 cells, no walls).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    /// Block cells (row-major bits).
    pub blocks: u32,
    /// The robot's cell.
    pub robot: u8,
    /// The target's cell.
    pub target: u8,
    /// Fewest pushes, −1 when unsolvable.
    pub pushes: i32,
    /// The difficulty (equation 3), when solvable.
    pub difficulty: Option<f32>,
    /// The class key.
    pub class: u128,
    /// Its part of the dataset.
    pub split: Split,
}

impl Example {
    /// The thesis's difficulty class: the difficulty rounded to the nearest integer (0–5).
    pub fn difficulty_class(&self) -> Option<u32> {
        self.difficulty.map(difficulty_class)
    }
}

/// The difficulty rounded to the nearest integer, halves up (0 to 5).
pub fn difficulty_class(d: f32) -> u32 {
    (d.round().clamp(0.0, 5.0)) as u32
}

/// A board from its bits.
pub fn to_board(
    rows: usize,
    cols: usize,
    blocks: u32,
    robot: u8,
    target: u8,
) -> Result<Board, Error> {
    let pos = |i: usize| Pos::new(i / cols, i % cols);
    let mut b = Board::new(rows, cols, pos(robot as usize), pos(target as usize))?;
    for i in 0..rows * cols {
        if blocks >> i & 1 == 1 {
            b.set_block(pos(i), true)?;
        }
    }
    Ok(b)
}

/// The bits of a board (no walls, at most 32 cells).
pub fn from_board(b: &Board) -> Result<(u32, u8, u8), Error> {
    let n = b.cells();
    if n > 32 {
        return Err(Error::invalid(format!(
            "the models take boards of at most 32 cells, not {n}"
        )));
    }
    let mut blocks = 0u32;
    for i in 0..n {
        let p = b.pos(i);
        if b.is_wall(p) {
            return Err(Error::invalid("the models take boards without walls"));
        }
        if b.has_block(p) {
            blocks |= 1 << i;
        }
    }
    Ok((blocks, b.index(b.robot()) as u8, b.index(b.target()) as u8))
}

/// Labels one board exactly.
pub fn labelled(b: &Board, split_seed: u64) -> Result<Example, Error> {
    let (blocks, robot, target) = from_board(b)?;
    let l = label(b, Variant::default())?;
    let class = class_key(b)?;
    Ok(Example {
        blocks,
        robot,
        target,
        pushes: l.pushes.map_or(-1, |p| p as i32),
        difficulty: l.difficulty.map(|d| d as f32),
        class,
        split: split_of(class, split_seed),
    })
}

/// `count` distinct boards of `rows × cols` drawn uniformly (without replacement) with
/// `seed`, each labelled exactly and assigned to a split by its class. `progress` hears the
/// number labelled so far now and then.
pub fn sample(
    rows: usize,
    cols: usize,
    count: u64,
    seed: u64,
    split_seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Example>, Error> {
    // saturating: sizes that would wrap are refused, never taken for small ones
    let n = rows.saturating_mul(cols);
    if !(2..=32).contains(&n) {
        return Err(Error::invalid(format!(
            "datasets take boards of 2 to 32 cells, not {rows}×{cols}"
        )));
    }
    let total = board_count(rows, cols);
    if count > total {
        return Err(Error::invalid(format!(
            "a {rows}×{cols} board has only {total} boards, fewer than {count}"
        )));
    }
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut seen = HashSet::with_capacity(count as usize);
    let mut picks = Vec::with_capacity(count as usize);
    while (picks.len() as u64) < count {
        if picks.len() % (1 << 16) == 0 && crate::search::interrupted() {
            return Err(Error::invalid("sampling interrupted; nothing is written"));
        }
        let i = rng.random_range(0..total);
        if seen.insert(i) {
            picks.push(i);
        }
    }
    let done = std::sync::atomic::AtomicU64::new(0);
    let examples = picks
        .par_chunks(1024)
        .map(|chunk| {
            if crate::search::interrupted() {
                return Err(Error::invalid("labelling interrupted; nothing is written"));
            }
            let out = chunk
                .iter()
                .map(|&i| labelled(&board_at(rows, cols, i)?, split_seed))
                .collect::<Result<Vec<_>, Error>>();
            let d = done.fetch_add(chunk.len() as u64, std::sync::atomic::Ordering::Relaxed);
            progress(d + chunk.len() as u64);
            out
        })
        .collect::<Result<Vec<_>, Error>>()?
        .into_iter()
        .flatten()
        .collect();
    Ok(examples)
}

/// A board's rows joined by `/` (`-` empty, `$` block, `@` robot, `.` target, `*` block on
/// the target).
pub fn board_text(rows: usize, cols: usize, blocks: u32, robot: u8, target: u8) -> String {
    let mut s = String::with_capacity(rows * (cols + 1));
    for r in 0..rows {
        if r > 0 {
            s.push('/');
        }
        for c in 0..cols {
            let i = r * cols + c;
            let block = blocks >> i & 1 == 1;
            s.push(match (block, i == robot as usize, i == target as usize) {
                (true, _, true) => '*',
                (true, ..) => '$',
                (_, true, _) => '@',
                (_, _, true) => '.',
                _ => '-',
            });
        }
    }
    s
}

/// `floe.dataset`'s PushPush boards: [`sample`]'s, each drawn as the observation of its
/// learning environment (the planes of [`PushPush`](super::PushPush)'s environment).
pub fn dataset(o: &DatasetOptions) -> Result<Dataset, Error> {
    let began = std::time::Instant::now();
    let g = super::PushPush;
    let planes = g
        .info()
        .capabilities
        .learning
        .expect("PushPush has a learning environment")
        .planes;
    let examples = sample(o.rows, o.cols, o.count, o.seed, o.split_seed, &|_| {})?;
    let size = planes.len() * o.rows * o.cols;
    let mut obs = vec![0u8; examples.len() * size];
    let lit = Planes::new(planes);
    obs.par_chunks_mut(size.max(1))
        .zip(&examples)
        .try_for_each(|(out, e)| {
            let board = to_board(o.rows, o.cols, e.blocks, e.robot, e.target)?;
            let level = super::Level {
                board: board.clone(),
                variant: Variant::default(),
            };
            lit.observe(&g.scene(&level, &board), out)
        })?;
    Ok(Dataset {
        game: g.info().name,
        rows: o.rows,
        cols: o.cols,
        planes,
        obs,
        boards: examples
            .iter()
            .map(|e| board_text(o.rows, o.cols, e.blocks, e.robot, e.target))
            .collect(),
        pushes: examples.iter().map(|e| e.pushes).collect(),
        difficulty: examples
            .iter()
            .map(|e| e.difficulty.unwrap_or(f32::NAN))
            .collect(),
        split: examples
            .iter()
            .map(|e| match e.split {
                Split::Train => 0,
                Split::Val => 1,
                Split::Test => 2,
            })
            .collect(),
        class: examples.iter().map(|e| e.class).collect(),
        seconds: began.elapsed().as_secs_f64(),
    })
}
