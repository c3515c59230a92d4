//! Boards as a player sees them: the picture of [`board_svg`](super::board::board_svg) with
//! the arrow of a hinted (or shown) move and rings around the selected piece and the cursor,
//! and where the cells are in it (for front ends that take clicks).

use super::board::{board_doc, cell_size, draw_arrow, margin, size_of, Style, ARROW};
use super::svg::fmt_coord;
use crate::scene::{Arrow, Scene};

/// Where [`board_svg`](super::board::board_svg) and [`marked_svg`] put the cells: the top-left corner of cell (0, 0)
/// and the side of a cell, in the picture's pixels; and the picture's size. A front end
/// that takes clicks on the picture finds the cell with it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Geometry {
    /// Left edge of column 0.
    pub x: f64,
    /// Top edge of row 0.
    pub y: f64,
    /// Side of a cell.
    pub cell: f64,
    /// Width of the picture.
    pub width: f64,
    /// Height of the picture.
    pub height: f64,
}

/// The geometry of `sc`'s picture in `style`.
pub fn geometry(sc: &Scene, style: &Style) -> Geometry {
    let s = cell_size(sc, style);
    let m = margin(style, s);
    let (width, height) = size_of(sc, style);
    Geometry {
        x: 4.0 + m,
        y: 4.0 + m,
        cell: s,
        width,
        height,
    }
}

/// A ring drawn around a cell by [`marked_svg`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ring {
    /// The selected piece (solid).
    Selected,
    /// The cursor (dashed).
    Cursor,
}

/// A board as a player sees it: the scene, the arrow of a hinted (or shown) move, and rings
/// around the selected cell and the cursor (cells are (row, column)).
pub fn marked_svg(
    sc: &Scene,
    style: &Style,
    arrow: Option<&Arrow>,
    rings: &[((usize, usize), Ring)],
) -> String {
    let (mut doc, g) = board_doc(sc, style);
    if !rings.is_empty() {
        doc.open_group("rings", "");
        for &(at, ring) in rings {
            if at.0 >= sc.rows || at.1 >= sc.cols {
                continue;
            }
            let (x, y) = g.cell(at);
            let w = (g.s * 0.08).max(1.5);
            let (class, dash) = match ring {
                Ring::Selected => ("selected", String::new()),
                Ring::Cursor => (
                    "cursor",
                    format!(" stroke-dasharray=\"{}\"", fmt_coord(w * 2.0)),
                ),
            };
            doc.rect(
                class,
                x + w / 2.0,
                y + w / 2.0,
                g.s - w,
                g.s - w,
                &format!(
                    " fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"{}\"{dash}",
                    fmt_coord(w)
                ),
            );
        }
        doc.close_group();
    }
    if let Some(a) = arrow {
        doc.open_group("moves", "");
        draw_arrow(&mut doc, a, &g);
        doc.close_group();
    }
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Request;

    #[test]
    fn geometry_agrees_with_the_picture_and_marks_are_drawn() {
        let req = Request::from_text("$--$\n---.\n", "t").resolve().unwrap();
        let sc = req.level.scene();
        for coords in [false, true] {
            let style = Style { coords, cell: 30 };
            let g = geometry(&sc, &style);
            assert_eq!(g.cell, 30.0);
            assert_eq!((g.width, g.height), size_of(&sc, &style));
            assert_eq!(g.x + 4.0 * g.cell + 4.0, g.width, "coords {coords}");
            assert_eq!(g.y + 2.0 * g.cell + 4.0, g.height);
        }
        let style = Style::default();
        let plain = marked_svg(&sc, &style, None, &[]);
        assert_eq!(plain, super::super::board::board_svg(&sc, &style));
        let arrow = Arrow::Path(vec![(0, 3), (1, 3)]);
        let svg = marked_svg(
            &sc,
            &style,
            Some(&arrow),
            &[
                ((0, 3), Ring::Selected),
                ((1, 1), Ring::Cursor),
                ((9, 9), Ring::Cursor),
            ],
        );
        roxmltree::Document::parse(&svg).expect("well-formed");
        assert_eq!(svg.matches("class=\"selected\"").count(), 1);
        assert_eq!(
            svg.matches("class=\"cursor\"").count(),
            1,
            "off-board rings are left out"
        );
        assert!(svg.contains("class=\"moves\""));
    }
}
