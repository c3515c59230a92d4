//! Pictures drawn with ice blocks (van den Akker 2024, section 5): the drawing board, the
//! short-train placement of one pixel at a time, the recursion that decides whether a picture
//! can be drawn, the complete push sequence, and the census of small pictures.
//!
//! # The drawing board (section 5.2)
//! A picture of `m × n` pixels is drawn on an ice rectangle of `(m + 4) × (n + 4)` cells: the
//! drawing area in the middle and a 2-cell margin around it. The pixels are targets. The
//! short train (three blocks) starts in the bottom-left corner of the margin, at
//! `(R-2, 0)`, `(R-1, 0)` and `(R-1, 1)`. Above column 0 a feeding tube leads up to the
//! storage: the `k − 1` further blocks a `k`-pixel picture needs wait in column 0 above the
//! rectangle, one every other row, so that the player (who walks on the normal floor beside
//! the column) can step behind the lowest one and push it down. It slides down the tube and
//! column 0 and stops on top of the two train blocks, at `(R-2, 0)`: the train is whole again.
//!
//! # One placement
//! Placing a pixel `p` with the pixels `W` already drawn means: from the train's start,
//! with the blocks on `W` never pushed again (they act as walls), push until one block rests
//! on `p` and the other two are back home at `(R-1, 0)` and `(R-1, 1)`; then a new block is
//! fed. Whether that is possible is decided exactly, by a breadth-first search over the
//! positions of the three train blocks, under the `walk` rule. One model choice, stated here
//! because it bounds the search: the player never walls himself off from the outside (every
//! push leaves him in the region that reaches the normal floor around the board). The board
//! text and the push sequence are replayed through [`crate::games::ice::replay`] with the
//! `walk` rule before anything is reported.
//!
//! # The recursion (section 5.3)
//! A picture `S` is drawable iff some pixel `p ∈ S` can be placed last on `S \ {p}` and
//! `S \ {p}` is drawable. [`Decider`] follows this from the full picture down, trying the
//! pixels with the most black neighbours first (a pixel stacked against its neighbours is the
//! usual last move), remembers every sub-picture found not drawable, and remembers per drawn
//! set `W` what the searches on it found. A search asks for one pixel and stops when a block
//! rests on it with the train home, noting every other pixel placed on the way (their pushes
//! are kept for the push sequence); a search that runs out without placing it has seen the
//! whole space, so it answers for every pixel on `W`.
//!
//! # Speed
//! A position is three cells; the visited set is one bit per set of three cells (ranked
//! combinatorially). Slides use a table of where a block stops on the empty stage, cut short
//! by the other two blocks. Whether the player can reach a cell is a flood fill from that
//! cell over per-row bit masks that fills whole runs of a row at once and stops as soon as it
//! touches the edge; a cheap test (the cell is on the edge or next to a free edge cell)
//! answers first. The 16×16 smiley takes about 2 s.

use super::picture::Picture;
use crate::error::Error;
use crate::games::ice::{format, replay, Level, WalkRule};
use crate::grid::{Dir, Pos, Push};
use rustc_hash::FxHashMap;
use serde::Serialize;

mod board;
mod census;
mod decide;
mod stage;

pub use board::DrawingBoard;
pub use census::{census, Census};
pub use decide::{figure_21, Decider, DrawLimits, Placement, Stopped, Witness, FIGURE_21};

use decide::{with, PixSet};
use stage::pack;

pub use board::{MARGIN, MAX_PIXELS};
use stage::NONE;

/// The answer for one picture.
#[derive(Clone, Debug, Serialize)]
pub struct ImageReport {
    /// Whether the picture can be drawn.
    pub creatable: bool,
    /// The starting board as level text.
    pub board: String,
    /// The drawing order (empty when not creatable).
    pub order: Vec<Placement>,
    /// Number of pushes of `moves`.
    pub pushes: usize,
    /// Every push from the starting board, feeding included (level coordinates).
    pub moves: Vec<Push>,
    /// Why not, when not creatable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<Witness>,
    /// Placement searches run while deciding.
    pub searches: u64,
    /// Positions visited by them.
    pub states: u64,
}

/// Decides `picture`, and when it can be drawn builds and checks the complete push sequence.
pub fn draw(picture: &Picture, limits: DrawLimits) -> Result<Result<ImageReport, Stopped>, Error> {
    let board = DrawingBoard::new(picture)?;
    let level = board.level();
    let board_text = format::write_floe(std::slice::from_ref(&level));
    let mut decider = Decider::new(&board, limits);
    let decision = match decider.decide() {
        Ok(d) => d,
        Err(s) => return Ok(Err(s)),
    };
    let (searches, states) = (decider.searches, decider.states);
    let order = match decision {
        Err(w) => {
            return Ok(Ok(ImageReport {
                creatable: false,
                board: board_text,
                order: Vec::new(),
                pushes: 0,
                moves: Vec::new(),
                witness: Some(w),
                searches,
                states,
            }))
        }
        Ok(o) => o,
    };
    let (placements, moves) = sequence(&board, &order, &decider.paths)?;
    check(&board, &level, &moves)?;
    Ok(Ok(ImageReport {
        creatable: true,
        board: board_text,
        order: placements,
        pushes: moves.len(),
        moves,
        witness: None,
        searches,
        states,
    }))
}

/// The push sequence drawing the pixels in `order`: per pixel the fewest pushes from the
/// train's start to the pixel with the train home (taken from `paths` when the decision
/// found them already), then the feeding push.
fn sequence(
    board: &DrawingBoard,
    order: &[usize],
    paths: &FxHashMap<(PixSet, usize), Vec<(u16, Dir)>>,
) -> Result<(Vec<Placement>, Vec<Push>), Error> {
    let mut moves = Vec::new();
    let mut placements = Vec::new();
    let top = board.storage_rows();
    for (k, &p) in order.iter().enumerate() {
        let stage = board.stage(&order[..k]);
        let drawn = order[..k].iter().fold([0u64; 4], |s, &i| with(s, i));
        let path = match paths.get(&(drawn, p)) {
            Some(path) => Some(path.clone()),
            None => {
                let goal = board.goal(p);
                stage.search(board.start(), |t| pack(t) == goal).path
            }
        }
        .ok_or_else(|| Error::Internal(format!("pixel {} of the order cannot be placed", k + 1)))?;
        // replay in engine cells to find the push that left a block on the pixel
        let target = board.cell(p);
        let mut blocks = board.start();
        let mut from = None;
        for &(cell, dir) in &path {
            let mut j = cell;
            loop {
                let n = stage.nb[j as usize][dir.index()];
                if n == NONE || blocks.contains(&n) {
                    break;
                }
                j = n;
            }
            let slot = blocks.iter().position(|&b| b == cell).expect("a block");
            blocks[slot] = j;
            if j == target {
                from = Some(dir.opposite());
            }
            moves.push(Push::new(board.level_pos(cell), dir));
        }
        let from = from.ok_or_else(|| Error::Internal("the pixel got no block".into()))?;
        let px = board.pixels[p];
        placements.push(Placement {
            row: px.row,
            col: px.col,
            from,
        });
        if k + 1 < order.len() {
            // feed: the lowest stored block, at row -(2k+1) above the rectangle
            moves.push(Push::new(Pos::new(top - (2 * k + 1), 0), Dir::Down));
        }
    }
    Ok((placements, moves))
}

/// Replays `moves` on the starting board under `walk` and checks the end: exactly the
/// picture in the drawing area, the storage empty.
fn check(board: &DrawingBoard, level: &Level, moves: &[Push]) -> Result<(), Error> {
    let r = replay(level, WalkRule::Walk, moves)
        .map_err(|e| Error::Internal(format!("the drawing does not replay: {e}")))?;
    let top = board.storage_rows();
    for row in 0..level.rows() {
        for col in 0..level.cols() {
            let at = Pos::new(row, col);
            let want = row >= top
                && row - top >= MARGIN
                && col >= MARGIN
                && board
                    .picture
                    .get(Pos::new(row - top - MARGIN, col - MARGIN));
            let in_area = row >= top
                && (MARGIN..board.rows - MARGIN).contains(&(row - top))
                && (MARGIN..board.cols - MARGIN).contains(&col);
            if (in_area || row < top) && r.end.has_block(at) != want {
                return Err(Error::Internal(format!(
                    "the drawing ends with the wrong board at ({at})"
                )));
            }
        }
    }
    if !r.solved {
        return Err(Error::Internal("the drawing leaves a pixel empty".into()));
    }
    Ok(())
}

/// The board after `moves` (which must replay) from `level` under `walk`.
pub fn finished(level: &Level, moves: &[Push]) -> Result<Level, Error> {
    replay(level, WalkRule::Walk, moves)
        .map(|r| r.end)
        .map_err(|e| Error::Internal(format!("the drawing does not replay: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn pic(art: &str) -> Picture {
        Picture::parse(art.as_bytes(), "t").unwrap()
    }

    #[test]
    fn a_small_picture_is_drawn_and_replays() {
        let p = pic("##\n#.\n");
        let r = draw(&p, DrawLimits::default()).unwrap().unwrap();
        assert!(r.creatable);
        assert_eq!(r.order.len(), 3);
        assert_eq!(r.pushes, r.moves.len());
        // the board text parses back and the moves end with exactly the picture
        let level = format::parse(&r.board, "b", None).unwrap().remove(0);
        let end = finished(&level, &r.moves).unwrap();
        let top = DrawingBoard::new(&p).unwrap().storage_rows();
        for q in [(0, 0), (0, 1), (1, 0)] {
            assert!(end.has_block(Pos::new(top + MARGIN + q.0, MARGIN + q.1)));
        }
        assert!(!end.has_block(Pos::new(top + MARGIN + 1, MARGIN + 1)));
        assert_eq!(
            end.block_count(),
            3 + 2,
            "the picture and the two train blocks"
        );
    }

    #[test]
    fn the_empty_picture_and_one_pixel() {
        let r = draw(&pic("..\n..\n"), DrawLimits::default())
            .unwrap()
            .unwrap();
        assert!(r.creatable);
        assert_eq!(r.pushes, 0);
        let r = draw(&pic(".#\n..\n"), DrawLimits::default())
            .unwrap()
            .unwrap();
        assert!(r.creatable);
        assert_eq!(r.order.len(), 1);
    }

    #[test]
    fn figure_21_configurations_are_not_creatable() {
        for (name, art) in [("x", "#.#\n.#.\n#.#\n"), ("plus", ".#.\n#.#\n.#.\n")] {
            let r = draw(&pic(art), DrawLimits::default()).unwrap().unwrap();
            assert!(!r.creatable, "{name}");
            assert!(r.moves.is_empty());
            assert_eq!(
                r.witness,
                Some(Witness::Configuration {
                    figure: name,
                    row: 0,
                    col: 0
                })
            );
        }
    }

    #[test]
    fn limits_stop_the_decision() {
        let limits = DrawLimits {
            max_searches: Some(0),
            ..DrawLimits::default()
        };
        let stopped = draw(&pic("##\n#.\n"), limits).unwrap().unwrap_err();
        assert_eq!(stopped.searches, 0);
        // no answer: `creatable` is null in the report
        assert_eq!(
            serde_json::to_string(&stopped).unwrap(),
            r#"{"creatable":null,"searches":0}"#
        );
    }
}
