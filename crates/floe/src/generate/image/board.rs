//! The drawing board of a picture (section 5.2): the rectangle with its margin, the storage
//! and the train, the stage of each placement, and the starting board as a level.

use super::stage::{pack, sorted, Stage, NONE};
use crate::error::Error;
use crate::games::ice::{Cell, Level, WalkRule};
use crate::generate::picture::Picture;
use crate::grid::Pos;

/// Width of the margin around the drawing area.
pub const MARGIN: usize = 2;
/// Largest number of black pixels handled.
pub const MAX_PIXELS: usize = 256;

/// The drawing board of a picture (section 5.2).
#[derive(Clone, Debug)]
pub struct DrawingBoard {
    pub(super) picture: Picture,
    pub(super) pixels: Vec<Pos>,
    pub(super) rows: usize,
    pub(super) cols: usize,
    /// Pixel index of each rectangle cell (`NONE` for white cells).
    cell_pixel: Vec<u16>,
}

impl DrawingBoard {
    /// The drawing board of `picture`.
    pub fn new(picture: &Picture) -> Result<DrawingBoard, Error> {
        let pixels = picture.pixels();
        if pixels.len() > MAX_PIXELS {
            return Err(Error::invalid(format!(
                "the picture has {} black pixels; at most {MAX_PIXELS} are handled",
                pixels.len()
            )));
        }
        if picture.cols() + 2 * MARGIN > 64 {
            return Err(Error::invalid(format!(
                "the picture is {} pixels wide; at most {} are handled",
                picture.cols(),
                64 - 2 * MARGIN
            )));
        }
        let (rows, cols) = (picture.rows() + 2 * MARGIN, picture.cols() + 2 * MARGIN);
        let mut cell_pixel = vec![NONE; rows * cols];
        for (i, p) in pixels.iter().enumerate() {
            cell_pixel[(p.row + MARGIN) * cols + p.col + MARGIN] = i as u16;
        }
        Ok(DrawingBoard {
            picture: picture.clone(),
            rows,
            cols,
            pixels,
            cell_pixel,
        })
    }
    /// The picture.
    pub fn picture(&self) -> &Picture {
        &self.picture
    }
    /// The black pixels, row by row (picture coordinates).
    pub fn pixels(&self) -> &[Pos] {
        &self.pixels
    }
    /// Blocks waiting in the storage at the start.
    pub fn stored(&self) -> usize {
        self.pixels.len().saturating_sub(1)
    }
    /// Rows of the storage above the rectangle in the level text: a wall capping column 0,
    /// then a gap and a block for every stored block.
    pub fn storage_rows(&self) -> usize {
        2 * self.stored() + 1
    }
    pub(super) fn cell(&self, pixel: usize) -> u16 {
        let p = self.pixels[pixel];
        ((p.row + MARGIN) * self.cols + p.col + MARGIN) as u16
    }
    fn home(&self) -> [u16; 2] {
        let r = self.rows;
        let c = self.cols;
        [((r - 1) * c) as u16, ((r - 1) * c + 1) as u16]
    }
    pub(super) fn start(&self) -> [u16; 3] {
        let [a, b] = self.home();
        sorted([((self.rows - 2) * self.cols) as u16, a, b])
    }
    /// The search space for placing the next pixel when the pixels in `drawn` are done.
    pub(super) fn stage(&self, drawn: &[usize]) -> Stage {
        // k blocks fed: the tube is 2k cells long, capped by a stored block or the wall
        let walls: Vec<usize> = drawn.iter().map(|&i| self.cell(i) as usize).collect();
        Stage::new(self.rows, self.cols, &walls, 2 * drawn.len())
    }
    /// The pixel a position places: the two other blocks home and this one on a pixel.
    #[inline]
    pub(super) fn placed(&self, t: [u16; 3]) -> Option<usize> {
        let [a, b] = self.home();
        if !(t.contains(&a) && t.contains(&b)) {
            return None;
        }
        let c = *t.iter().find(|&&c| c != a && c != b)?;
        match self.cell_pixel.get(c as usize) {
            Some(&q) if q != NONE => Some(q as usize),
            _ => None,
        }
    }
    pub(super) fn goal(&self, pixel: usize) -> u64 {
        let [a, b] = self.home();
        pack(sorted([self.cell(pixel), a, b]))
    }

    /// The starting board as a level (rules `walk`): storage, tube, rectangle, train.
    pub fn level(&self) -> Level {
        let top = self.storage_rows();
        let mut level = Level::new(top + self.rows, self.cols).expect("a board of sane size");
        for r in 0..top {
            for c in 0..self.cols {
                let cell = match (r, c) {
                    (0, 0) => Cell::Wall,
                    (_, 0) => Cell::Ice,
                    _ => Cell::Floor,
                };
                level.set_cell(Pos::new(r, c), cell).expect("an empty cell");
            }
            // blocks at rows -1, -3, … above the rectangle
            if r > 0 && (top - r) % 2 == 1 {
                level.set_block(Pos::new(r, 0), true).expect("ice");
            }
        }
        for &p in &self.pixels {
            let at = Pos::new(top + p.row + MARGIN, p.col + MARGIN);
            level.set_cell(at, Cell::Target).expect("an empty cell");
        }
        for b in self.start() {
            let b = b as usize;
            let at = Pos::new(top + b / self.cols, b % self.cols);
            level.set_block(at, true).expect("ice");
        }
        level.rules = Some(WalkRule::Walk);
        level.title = Some(format!(
            "picture {}x{}, {} pixels",
            self.picture.rows(),
            self.picture.cols(),
            self.pixels.len()
        ));
        level
    }

    /// An engine cell as a level position (tube cells lie above the rectangle).
    pub(super) fn level_pos(&self, cell: u16) -> Pos {
        let top = self.storage_rows();
        let n_rect = self.rows * self.cols;
        let i = cell as usize;
        if i < n_rect {
            Pos::new(top + i / self.cols, i % self.cols)
        } else {
            Pos::new(top - 1 - (i - n_rect), 0)
        }
    }
}
