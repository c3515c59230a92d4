//! Pictures of scenes: a board, and a solution ([`Story`]) drawn as
//!
//! - [`arrows_svg`]: the start with each move as a numbered arrow from the pushed block's cell
//!   along its slide to where it stops;
//! - [`frames_svg`]: one small board per move (the board before the move, with its arrow),
//!   and the final board, in rows;
//! - [`animated_svg`]: the start board whose pieces move by SMIL animation (`animateTransform`
//!   per piece, `animate` of opacity for pieces that vanish or appear and for cells that
//!   change), looping, so it plays in a browser without script.
//!
//! Every game draws through its [`Scene`] (see [`crate::scene`]), so all games share one style
//! (the theses' conventions): ice white with a pale blue grid, normal floor beige, walls dark,
//! targets crossed in red, ice blocks blue, golden ice gold, the player a red disc, the
//! magician a purple one. Nothing here knows any game.
//!
//! Output is deterministic: pieces and cells are written in a fixed order and every number
//! with at most two decimals (four for animation key times).

use super::svg::{fmt_coord, polyline, Doc};
use crate::grid::Dir;
use crate::scene::{card_label, Arrow, Ground, Piece, PieceKind, Scene, Story};

// ---------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------

/// Options of a picture.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// Draw row and column numbers.
    pub coords: bool,
    /// Cell size in pixels; 0 chooses one from the board's size.
    pub cell: u32,
}

const GRID: &str = "#9fb3c2";
const ICE: &str = "#ffffff";
const FLOOR: &str = "#e6d8b8";
const WALL: &str = "#2e2e2e";
const TARGET: &str = "#c0392b";
const BLOCK: &str = "#2f7fd1";
const BLOCK_EDGE: &str = "#1b4f8a";
const GOLD: &str = "#e8b923";
const GOLD_EDGE: &str = "#9a7608";
const PLAYER: &str = "#e4572e";
const MAGICIAN: &str = "#7b3fa0";
pub(crate) const ARROW: &str = "#d62728";
const TABLE: &str = "#efe6d2";
const TEXT: &str = "#222222";
/// Token colours 1–9 (Okabe–Ito, then greys).
const TOKENS: [&str; 9] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000",
    "#999999",
];
/// Suit colours (spades black, hearts red, diamonds orange, clubs green, then more).
const SUITS: [&str; 8] = [
    "#222222", "#c0392b", "#d35400", "#1e8449", "#7d3c98", "#1f618d", "#7e5109", "#b7950b",
];

/// The cell size for a board (pixels): large for small boards, at least 10.
pub fn auto_cell(rows: usize, cols: usize) -> f64 {
    let m = rows.max(cols).max(1) as f64;
    (560.0 / m).floor().clamp(10.0, 48.0)
}

fn frame_cell(rows: usize, cols: usize) -> f64 {
    (360.0 / cols.max(1) as f64)
        .min(168.0 / rows.max(1) as f64)
        .floor()
        .clamp(6.0, 24.0)
}

/// Geometry of one board on the page.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geo {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) s: f64,
}

impl Geo {
    pub(crate) fn cell(&self, (r, c): (usize, usize)) -> (f64, f64) {
        (self.x + c as f64 * self.s, self.y + r as f64 * self.s)
    }
    fn centre(&self, at: (usize, usize)) -> (f64, f64) {
        let (x, y) = self.cell(at);
        (x + self.s / 2.0, y + self.s / 2.0)
    }
}

pub(crate) fn margin(style: &Style, s: f64) -> f64 {
    if style.coords {
        (s * 0.8).max(16.0).round()
    } else {
        0.0
    }
}

fn coords_font(s: f64) -> f64 {
    (s * 0.38).clamp(8.0, 13.0)
}

fn draw_coords(doc: &mut Doc, sc: &Scene, g: &Geo) {
    let f = coords_font(g.s);
    for c in 0..sc.cols {
        let (x, _) = g.centre((0, c));
        let label = sc.col_labels.get(c).map_or(String::new(), |l| l.clone());
        doc.text(
            "coord",
            x,
            g.y - f * 0.6,
            f,
            &label,
            &format!(" fill=\"{TEXT}\""),
        );
    }
    for r in 0..sc.rows {
        let (_, y) = g.centre((r, 0));
        doc.text(
            "coord",
            g.x - f * 0.9,
            y + f * 0.35,
            f,
            &r.to_string(),
            &format!(" fill=\"{TEXT}\""),
        );
    }
}

fn ground_fill(gr: Ground) -> &'static str {
    match gr {
        Ground::Blank => "none",
        Ground::Ice | Ground::Target | Ground::Fire | Ground::Arrow(_) => ICE,
        Ground::Floor => FLOOR,
        Ground::Wall => WALL,
        Ground::Recycler => "#d3ecd9",
        Ground::Dispenser => "#5d6d7e",
        Ground::Table | Ground::Hole => TABLE,
        Ground::Space { summit: true, .. } => "#f4f8fb",
        Ground::Space { .. } => "#ddd3bf",
        Ground::Start => "#cfe3b4",
    }
}

/// Draws one cell's ground at `(x, y)`; `attrs` go on every element (for animation).
fn draw_ground(doc: &mut Doc, gr: Ground, x: f64, y: f64, s: f64, attrs: &str) {
    if gr == Ground::Blank {
        return;
    }
    let sw = fmt_coord((s / 40.0).max(0.5));
    doc.rect(
        "cell",
        x,
        y,
        s,
        s,
        &format!(
            " fill=\"{}\" stroke=\"{GRID}\" stroke-width=\"{sw}\"{attrs}",
            ground_fill(gr)
        ),
    );
    let c = (x + s / 2.0, y + s / 2.0);
    match gr {
        Ground::Target => target_cross(doc, x, y, s, "target", 0.08),
        Ground::Fire => {
            // a flame: a drop shape, orange with a yellow heart
            let d = flame(c.0, c.1, s * 0.36);
            doc.path("fire", &d, &format!(" fill=\"#f26b1d\"{attrs}"));
            let d = flame(c.0, c.1 + s * 0.08, s * 0.18);
            doc.path("fire-heart", &d, &format!(" fill=\"#ffd23f\"{attrs}"));
        }
        Ground::Recycler => {
            doc.circle(
                "recycler",
                c.0,
                c.1,
                s * 0.3,
                &format!(
                    " fill=\"none\" stroke=\"#2e8b57\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"{attrs}",
                    fmt_coord(s * 0.09),
                    fmt_coord(s * 0.4),
                    fmt_coord(s * 0.14)
                ),
            );
        }
        Ground::Arrow(d) => {
            let pts = triangle(c, s * 0.3, d);
            doc.path(
                "arrow-tile",
                &format!("{} Z", polyline(&pts)),
                &format!(" fill=\"#95a5a6\"{attrs}"),
            );
        }
        Ground::Dispenser => {
            let k = s * 0.25;
            let d = format!(
                "M{},{} L{},{} M{},{} L{},{}",
                fmt_coord(c.0 - k),
                fmt_coord(c.1),
                fmt_coord(c.0 + k),
                fmt_coord(c.1),
                fmt_coord(c.0),
                fmt_coord(c.1 - k),
                fmt_coord(c.0),
                fmt_coord(c.1 + k)
            );
            doc.path(
                "dispenser",
                &d,
                &format!(
                    " stroke=\"#ffffff\" stroke-width=\"{}\" fill=\"none\"{attrs}",
                    fmt_coord(s * 0.1)
                ),
            );
        }
        Ground::Hole => {
            let k = s * 0.08;
            doc.rect(
                "hole",
                x + k,
                y + k,
                s - 2.0 * k,
                s - 2.0 * k,
                &format!(
                    " rx=\"{}\" fill=\"none\" stroke=\"#b3a684\" stroke-dasharray=\"{} {}\"{attrs}",
                    fmt_coord(s * 0.08),
                    fmt_coord(s * 0.08),
                    fmt_coord(s * 0.06)
                ),
            );
        }
        Ground::Space { value, .. } => {
            doc.text(
                "value",
                c.0,
                y + s * 0.32,
                s * 0.3,
                &value.to_string(),
                &format!(" fill=\"{TEXT}\"{attrs}"),
            );
        }
        _ => {}
    }
}

fn flame(cx: f64, cy: f64, r: f64) -> String {
    // a circle below, a point above
    format!(
        "M{},{} Q{},{} {},{} A{},{} 0 1 1 {},{} Q{},{} {},{} Z",
        fmt_coord(cx),
        fmt_coord(cy - r * 1.1),
        fmt_coord(cx + r * 0.2),
        fmt_coord(cy - r * 0.5),
        fmt_coord(cx + r * 0.7),
        fmt_coord(cy + r * 0.1),
        fmt_coord(r * 0.72),
        fmt_coord(r * 0.72),
        fmt_coord(cx - r * 0.7),
        fmt_coord(cy + r * 0.1),
        fmt_coord(cx - r * 0.2),
        fmt_coord(cy - r * 0.5),
        fmt_coord(cx),
        fmt_coord(cy - r * 1.1)
    )
}

fn triangle(c: (f64, f64), r: f64, d: Dir) -> Vec<(f64, f64)> {
    let (dr, dc) = d.delta();
    let (ux, uy) = (dc as f64, dr as f64);
    let (px, py) = (-uy, ux);
    vec![
        (c.0 + ux * r, c.1 + uy * r),
        (
            c.0 - ux * r * 0.6 + px * r * 0.8,
            c.1 - uy * r * 0.6 + py * r * 0.8,
        ),
        (
            c.0 - ux * r * 0.6 - px * r * 0.8,
            c.1 - uy * r * 0.6 - py * r * 0.8,
        ),
    ]
}

/// Draws a piece with its top-left corner at the origin of the current coordinate system.
fn piece_shapes(doc: &mut Doc, kind: PieceKind, s: f64) {
    let k = (s * 0.07).max(1.0);
    let sw = fmt_coord((s / 20.0).max(0.75));
    match kind {
        PieceKind::Block | PieceKind::Golden => {
            let (fill, edge) = if kind == PieceKind::Block {
                (BLOCK, BLOCK_EDGE)
            } else {
                (GOLD, GOLD_EDGE)
            };
            doc.rect(
                "block",
                k,
                k,
                s - 2.0 * k,
                s - 2.0 * k,
                &format!(
                    " rx=\"{}\" fill=\"{fill}\" stroke=\"{edge}\" stroke-width=\"{sw}\"",
                    fmt_coord(s * 0.12)
                ),
            );
            // a highlight, as on the theses' figures of ice
            doc.path(
                "shine",
                &format!(
                    "M{},{} L{},{}",
                    fmt_coord(s * 0.25),
                    fmt_coord(s * 0.25),
                    fmt_coord(s * 0.5),
                    fmt_coord(s * 0.25)
                ),
                &format!(
                    " stroke=\"#ffffff\" stroke-opacity=\"0.6\" stroke-width=\"{}\" stroke-linecap=\"round\"",
                    fmt_coord(s * 0.07)
                ),
            );
        }
        PieceKind::Player | PieceKind::Magician => {
            let fill = if kind == PieceKind::Player {
                PLAYER
            } else {
                MAGICIAN
            };
            doc.circle(
                "player",
                s / 2.0,
                s / 2.0,
                s * 0.3,
                &format!(" fill=\"{fill}\" stroke=\"#ffffff\" stroke-width=\"{sw}\""),
            );
        }
        PieceKind::Token(c) => {
            let fill = TOKENS[(c.max(1) as usize - 1) % TOKENS.len()];
            doc.circle(
                "token",
                s / 2.0,
                s / 2.0,
                s * 0.38,
                &format!(" fill=\"{fill}\" stroke=\"#444444\" stroke-width=\"{sw}\""),
            );
            let ink = if matches!(c, 5..=7) {
                "#000000"
            } else {
                "#ffffff"
            };
            doc.text(
                "label",
                s / 2.0,
                s * 0.64,
                s * 0.4,
                &c.to_string(),
                &format!(" fill=\"{ink}\" font-weight=\"bold\""),
            );
        }
        PieceKind::Card { suit, rank } => {
            doc.rect(
                "card",
                k,
                k,
                s - 2.0 * k,
                s - 2.0 * k,
                &format!(
                    " rx=\"{}\" fill=\"{}\" stroke=\"#555555\" stroke-width=\"{sw}\"",
                    fmt_coord(s * 0.08),
                    if rank == 1 { "#f2f2f2" } else { "#ffffff" }
                ),
            );
            doc.text(
                "label",
                s / 2.0,
                s * 0.62,
                s * 0.36,
                &card_label(suit, rank),
                &format!(
                    " fill=\"{}\" font-weight=\"bold\"",
                    SUITS[suit as usize % SUITS.len()]
                ),
            );
        }
        PieceKind::Priest => {
            doc.circle(
                "priest",
                s / 2.0,
                s * 0.7,
                s * 0.2,
                &format!(" fill=\"#333333\" stroke=\"#ffffff\" stroke-width=\"{sw}\""),
            );
        }
    }
}

fn piece_class(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Block => "piece block-ice",
        PieceKind::Golden => "piece block-golden",
        PieceKind::Player => "piece player",
        PieceKind::Magician => "piece magician",
        PieceKind::Token(_) => "piece token",
        PieceKind::Card { .. } => "piece card",
        PieceKind::Priest => "piece priest",
    }
}

fn draw_pieces(doc: &mut Doc, sc: &Scene, g: &Geo) {
    for p in &sc.pieces {
        let (x, y) = g.cell(p.at);
        doc.open_group(
            piece_class(p.kind),
            &format!(
                " transform=\"translate({},{})\"",
                fmt_coord(x),
                fmt_coord(y)
            ),
        );
        piece_shapes(doc, p.kind, g.s);
        doc.close_group();
    }
}

fn draw_board(doc: &mut Doc, sc: &Scene, g: &Geo) {
    draw_grounds(doc, sc, g);
    draw_pieces(doc, sc, g);
    draw_targets_over(doc, sc, g);
}

fn draw_grounds(doc: &mut Doc, sc: &Scene, g: &Geo) {
    doc.open_group("board", "");
    for r in 0..sc.rows {
        for c in 0..sc.cols {
            let (x, y) = g.cell((r, c));
            draw_ground(doc, sc.ground[r * sc.cols + c], x, y, g.s, "");
        }
    }
    doc.close_group();
}

/// Targets stay visible under the blocks standing on them: their cross is drawn again on top.
fn draw_targets_over(doc: &mut Doc, sc: &Scene, g: &Geo) {
    for r in 0..sc.rows {
        for c in 0..sc.cols {
            if sc.ground[r * sc.cols + c] == Ground::Target {
                let (x, y) = g.cell((r, c));
                target_cross(doc, x, y, g.s, "target-over", 0.05);
            }
        }
    }
}

fn target_cross(doc: &mut Doc, x: f64, y: f64, s: f64, class: &str, width: f64) {
    let k = s * 0.25;
    let d = format!(
        "M{},{} L{},{} M{},{} L{},{}",
        fmt_coord(x + k),
        fmt_coord(y + k),
        fmt_coord(x + s - k),
        fmt_coord(y + s - k),
        fmt_coord(x + k),
        fmt_coord(y + s - k),
        fmt_coord(x + s - k),
        fmt_coord(y + k)
    );
    doc.path(
        class,
        &d,
        &format!(
            " stroke=\"{TARGET}\" stroke-width=\"{}\" stroke-linecap=\"round\" fill=\"none\"",
            fmt_coord(s * width)
        ),
    );
}

/// Which way an arrow's line is shifted so that a push and its reverse do not overlap.
fn offset_of(path: &[(usize, usize)], s: f64) -> (f64, f64) {
    if path.len() < 2 {
        return (0.0, 0.0);
    }
    let dr = path[1].0 as f64 - path[0].0 as f64;
    let dc = path[1].1 as f64 - path[0].1 as f64;
    let len = (dr * dr + dc * dc).sqrt().max(1.0);
    // to the right of the direction of travel
    (-dr / len * s * 0.12, dc / len * s * 0.12)
}

pub(crate) fn draw_arrow(doc: &mut Doc, arrow: &Arrow, g: &Geo) {
    let w = (g.s * 0.08).max(1.2);
    match arrow {
        Arrow::Path(path) => {
            let (ox, oy) = offset_of(path, g.s);
            let mut pts: Vec<(f64, f64)> = path
                .iter()
                .map(|&at| {
                    let (x, y) = g.centre(at);
                    (x + ox, y + oy)
                })
                .collect();
            pts.dedup();
            doc.open_group("arrow", "");
            if pts.len() >= 2 {
                // stop the line short of the tip, then draw the head
                let n = pts.len();
                let (a, b) = (pts[n - 2], pts[n - 1]);
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                let (ux, uy) = (dx / len, dy / len);
                let head = (w * 3.2).min(len * 0.9);
                let mut line = pts.clone();
                line[n - 1] = (b.0 - ux * head * 0.8, b.1 - uy * head * 0.8);
                doc.path(
                    "arrow-line",
                    &polyline(&line),
                    &format!(
                        " fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"{}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"",
                        fmt_coord(w)
                    ),
                );
                let (px, py) = (-uy, ux);
                let tri = [
                    b,
                    (
                        b.0 - ux * head + px * head * 0.55,
                        b.1 - uy * head + py * head * 0.55,
                    ),
                    (
                        b.0 - ux * head - px * head * 0.55,
                        b.1 - uy * head - py * head * 0.55,
                    ),
                ];
                doc.path(
                    "arrow-head",
                    &format!("{} Z", polyline(&tri)),
                    &format!(" fill=\"{ARROW}\""),
                );
            }
            doc.close_group();
        }
        Arrow::Pair(a, b) => {
            // a red ring round each token taken away, joined by a line
            let (pa, pb) = (g.centre(*a), g.centre(*b));
            let r = g.s * 0.44;
            doc.open_group("arrow", "");
            let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len > 2.0 * r {
                let (ux, uy) = (dx / len, dy / len);
                doc.path(
                    "arrow-line",
                    &polyline(&[
                        (pa.0 + ux * r, pa.1 + uy * r),
                        (pb.0 - ux * r, pb.1 - uy * r),
                    ]),
                    &format!(
                        " fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"{}\" stroke-linecap=\"round\"",
                        fmt_coord(w)
                    ),
                );
            }
            for p in [pa, pb] {
                doc.circle(
                    "arrow-end",
                    p.0,
                    p.1,
                    r,
                    &format!(
                        " fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"{}\"",
                        fmt_coord(w)
                    ),
                );
            }
            doc.close_group();
        }
    }
}

fn arrow_start(arrow: &Arrow, g: &Geo) -> (f64, f64) {
    match arrow {
        Arrow::Path(path) => {
            // at the back of the start cell, so the piece's own face stays readable
            let (ox, oy) = offset_of(path, g.s);
            let (x, y) = g.centre(path[0]);
            let (ux, uy) = match path.get(1) {
                Some(&(r, c)) => (
                    (c as f64 - path[0].1 as f64).signum(),
                    (r as f64 - path[0].0 as f64).signum(),
                ),
                None => (0.0, 0.0),
            };
            (x + ox - ux * g.s * 0.28, y + oy - uy * g.s * 0.28)
        }
        Arrow::Pair(a, b) => {
            let (pa, pb) = (g.centre(*a), g.centre(*b));
            ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0)
        }
    }
}

/// Numbers at the arrows' starts; moves starting at the same point share one label ("1,5").
fn draw_numbers(doc: &mut Doc, arrows: &[(usize, &Arrow)], g: &Geo) {
    // (rounded position, position, move numbers)
    type Label = ((i64, i64), (f64, f64), Vec<usize>);
    let mut labels: Vec<Label> = Vec::new();
    for &(n, a) in arrows {
        let p = arrow_start(a, g);
        let key = ((p.0 * 100.0).round() as i64, (p.1 * 100.0).round() as i64);
        match labels.iter_mut().find(|l| l.0 == key) {
            Some(l) => l.2.push(n),
            None => labels.push((key, p, vec![n])),
        }
    }
    let f = (g.s * 0.3).clamp(7.0, 12.0);
    for (_, p, ns) in labels {
        let text = ns
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let w = (text.chars().count() as f64 * f * 0.62 + f * 0.6).max(f * 1.3);
        doc.open_group("number", "");
        doc.rect(
            "number-box",
            p.0 - w / 2.0,
            p.1 - f * 0.7,
            w,
            f * 1.4,
            &format!(
                " rx=\"{}\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"{ARROW}\" stroke-width=\"1\"",
                fmt_coord(f * 0.7)
            ),
        );
        doc.text(
            "number-text",
            p.0,
            p.1 + f * 0.36,
            f,
            &text,
            &format!(" fill=\"{TEXT}\" font-weight=\"bold\""),
        );
        doc.close_group();
    }
}

pub(crate) fn cell_size(sc: &Scene, style: &Style) -> f64 {
    if style.cell > 0 {
        f64::from(style.cell.clamp(4, 200))
    } else {
        auto_cell(sc.rows, sc.cols)
    }
}

/// A document sized for the board of `sc`, with coordinates if asked, and its geometry.
fn framed_doc(sc: &Scene, style: &Style) -> (Doc, Geo) {
    let s = cell_size(sc, style);
    let m = margin(style, s);
    let pad = 4.0;
    let g = Geo {
        x: pad + m,
        y: pad + m,
        s,
    };
    let mut doc = Doc::new(
        2.0 * pad + m + sc.cols as f64 * s,
        2.0 * pad + m + sc.rows as f64 * s,
        &sc.title,
    );
    if style.coords {
        draw_coords(&mut doc, sc, &g);
    }
    (doc, g)
}

/// A document holding the board of `sc` (with coordinates if asked), and its geometry.
pub(crate) fn board_doc(sc: &Scene, style: &Style) -> (Doc, Geo) {
    let (mut doc, g) = framed_doc(sc, style);
    draw_board(&mut doc, sc, &g);
    (doc, g)
}

/// Width and height in pixels of [`board_svg`]'s picture of `sc` (as written in it: to two
/// decimals).
pub fn size_of(sc: &Scene, style: &Style) -> (f64, f64) {
    let s = cell_size(sc, style);
    let m = margin(style, s);
    let pad = 4.0;
    let round = |x: f64| (x * 100.0).round() / 100.0;
    (
        round(2.0 * pad + m + sc.cols as f64 * s),
        round(2.0 * pad + m + sc.rows as f64 * s),
    )
}

/// A picture of a board.
pub fn board_svg(sc: &Scene, style: &Style) -> String {
    board_doc(sc, style).0.finish()
}

/// The start with every move as a numbered arrow.
pub fn arrows_svg(story: &Story, style: &Style) -> String {
    let (mut doc, g) = board_doc(&story.start, style);
    let arrows: Vec<(usize, &Arrow)> = story
        .acts
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.arrow.as_ref().map(|x| (i + 1, x)))
        .collect();
    doc.open_group("moves", "");
    for &(_, a) in &arrows {
        draw_arrow(&mut doc, a, &g);
    }
    draw_numbers(&mut doc, &arrows, &g);
    doc.close_group();
    doc.finish()
}

/// One small board per move (the board before it, with its arrow) and the final board.
pub fn frames_svg(story: &Story, style: &Style) -> String {
    let scenes = story.scenes();
    let sc = &story.start;
    let s = if style.cell > 0 {
        f64::from(style.cell.clamp(4, 200))
    } else {
        frame_cell(sc.rows, sc.cols)
    };
    let (bw, bh) = (sc.cols as f64 * s, sc.rows as f64 * s);
    let caption = 16.0;
    let gap = 12.0;
    let pad = 6.0;
    let per_row = ((1200.0 / (bw + gap)).floor() as usize)
        .clamp(1, 8)
        .min(scenes.len());
    let lines = scenes.len().div_ceil(per_row);
    let mut doc = Doc::new(
        2.0 * pad + per_row as f64 * (bw + gap) - gap,
        2.0 * pad + lines as f64 * (bh + caption + gap) - gap,
        &sc.title,
    );
    for (i, scene) in scenes.iter().enumerate() {
        let (col, line) = (i % per_row, i / per_row);
        let x = pad + col as f64 * (bw + gap);
        let y = pad + line as f64 * (bh + caption + gap);
        let g = Geo {
            x,
            y: y + caption,
            s,
        };
        doc.open_group("frame", "");
        let label = if i < story.acts.len() {
            format!("move {}", i + 1)
        } else {
            "end".to_string()
        };
        doc.text(
            "frame-caption",
            x + bw / 2.0,
            y + caption - 4.0,
            11.0,
            &label,
            &format!(" fill=\"{TEXT}\""),
        );
        draw_board(&mut doc, scene, &g);
        if let Some(a) = story.acts.get(i).and_then(|a| a.arrow.as_ref()) {
            draw_arrow(&mut doc, a, &g);
        }
        doc.close_group();
    }
    doc.finish()
}

/// Seconds the animation holds the start, per move, and at the end.
const HOLD_START: f64 = 1.0;
const PER_MOVE: f64 = 1.0;
const HOLD_END: f64 = 2.0;
/// When in its slot a move starts (the pusher has stepped behind the block).
const MOVE_AT: f64 = 0.25;

fn slide_time(cells: usize) -> f64 {
    (0.08 * cells as f64).clamp(0.25, 0.7)
}

/// A key time (fraction of the loop) precise to a hundredth of a second: four decimals for
/// loops up to 100 s, more for long solutions.
fn key(t: f64, total: f64) -> String {
    let digits = ((total.max(1.0) * 100.0).log10().ceil() as usize).clamp(4, 9);
    let unit = 10_i64.pow(digits as u32);
    let v = ((t / total).clamp(0.0, 1.0) * unit as f64).round() as i64;
    let s = format!("{}.{:0digits$}", v / unit, v % unit);
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s.is_empty() {
        "0".into()
    } else {
        s
    }
}

/// The solution played by SMIL animation in a loop.
pub fn animated_svg(story: &Story, style: &Style) -> String {
    let sc = &story.start;
    let n = story.acts.len();
    let total = HOLD_START + n as f64 * PER_MOVE + HOLD_END;
    let dur = format!("{}s", fmt_coord(total));
    let (mut doc, g) = framed_doc(sc, style);
    let s = g.s;
    draw_grounds(&mut doc, sc, &g);
    // cells that change: the new ground drawn on top, shown from the moment it changes
    doc.open_group("changes", "");
    for (i, act) in story.acts.iter().enumerate() {
        let t = HOLD_START + i as f64 * PER_MOVE + MOVE_AT;
        for &(at, gr) in &act.ground {
            let (x, y) = g.cell(at);
            // when the sliding block reaches the cell
            let when = act
                .slides
                .iter()
                .find_map(|(_, path)| {
                    path.iter().position(|&c| c == at).map(|j| {
                        let steps = path.len().saturating_sub(1).max(1) as f64;
                        t + slide_time(path.len().saturating_sub(1)) * j as f64 / steps
                    })
                })
                .unwrap_or(t + slide_time(1));
            doc.open_group("change", " opacity=\"0\"");
            draw_ground(&mut doc, gr, x, y, s, "");
            doc.raw(&format!(
                "<animate attributeName=\"opacity\" values=\"0;1;0\" keyTimes=\"0;{};1\" calcMode=\"discrete\" dur=\"{dur}\" repeatCount=\"indefinite\"/>\n",
                key(when, total)
            ));
            doc.close_group();
        }
    }
    doc.close_group();
    // every piece that ever exists, with its keyframes
    let mut all: Vec<Piece> = sc.pieces.clone();
    for act in &story.acts {
        all.extend(act.added.iter().copied());
    }
    for p in &all {
        // (time, cell-position in pixels) keyframes and visibility changes
        let born = story
            .acts
            .iter()
            .position(|a| a.added.iter().any(|q| q.id == p.id));
        let mut frames: Vec<(f64, (f64, f64))> = Vec::new();
        let mut pos = g.cell(p.at);
        frames.push((0.0, pos));
        let mut shown_at: Option<f64> = born.map(|_| 0.0);
        let mut gone_at: Option<f64> = None;
        for (i, act) in story.acts.iter().enumerate() {
            let t0 = HOLD_START + i as f64 * PER_MOVE;
            if let Some((id, at)) = act.pusher {
                if id == p.id {
                    let to = g.cell(at);
                    if to != pos {
                        frames.push((t0, pos));
                        frames.push((t0 + MOVE_AT * 0.6, to));
                        pos = to;
                    }
                }
            }
            if born == Some(i) {
                shown_at = Some(t0 + MOVE_AT);
            }
            if let Some((_, path)) = act.slides.iter().find(|(id, _)| *id == p.id) {
                let t = t0 + MOVE_AT;
                let d = slide_time(path.len().saturating_sub(1));
                // waypoints: the corners of the path, at times proportional to distance
                let steps = path.len().saturating_sub(1).max(1) as f64;
                frames.push((t, pos));
                for (j, &c) in path.iter().enumerate().skip(1) {
                    let corner = j + 1 == path.len() || {
                        let (a, b, e) = (path[j - 1], c, path[j + 1]);
                        (b.0 as isize - a.0 as isize, b.1 as isize - a.1 as isize)
                            != (e.0 as isize - b.0 as isize, e.1 as isize - b.1 as isize)
                    };
                    if corner {
                        frames.push((t + d * j as f64 / steps, g.cell(c)));
                    }
                }
                pos = g.cell(*path.last().expect("a slide has a cell"));
                if act.removed.contains(&p.id) {
                    gone_at = Some(t + d);
                }
            } else if act.removed.contains(&p.id) {
                gone_at = Some(t0 + MOVE_AT + slide_time(1));
            }
            if gone_at.is_some() {
                break;
            }
        }
        let (x, y) = frames[0].1;
        let start_opacity = if born.is_some() { " opacity=\"0\"" } else { "" };
        doc.open_group(
            piece_class(p.kind),
            &format!(
                " transform=\"translate({},{})\"{start_opacity}",
                fmt_coord(x),
                fmt_coord(y)
            ),
        );
        piece_shapes(&mut doc, p.kind, s);
        if frames.len() > 1 {
            frames.push((total, frames.last().expect("non-empty").1));
            let values: Vec<String> = frames
                .iter()
                .map(|(_, (x, y))| format!("{},{}", fmt_coord(*x), fmt_coord(*y)))
                .collect();
            let times: Vec<String> = frames.iter().map(|(t, _)| key(*t, total)).collect();
            doc.raw(&format!(
                "<animateTransform attributeName=\"transform\" type=\"translate\" values=\"{}\" keyTimes=\"{}\" dur=\"{dur}\" repeatCount=\"indefinite\"/>\n",
                values.join(";"),
                times.join(";")
            ));
        }
        if shown_at.is_some() || gone_at.is_some() {
            let on = shown_at.map_or(0.0, |t| t);
            let (values, times) = match gone_at {
                Some(off) if on > 0.0 => (
                    "0;1;0".to_string(),
                    format!("0;{};{}", key(on, total), key(off, total)),
                ),
                Some(off) => ("1;0".to_string(), format!("0;{}", key(off, total))),
                None => ("0;1".to_string(), format!("0;{}", key(on, total))),
            };
            doc.raw(&format!(
                "<animate attributeName=\"opacity\" values=\"{values}\" keyTimes=\"{times}\" calcMode=\"discrete\" dur=\"{dur}\" repeatCount=\"indefinite\"/>\n"
            ));
        }
        doc.close_group();
    }
    draw_targets_over(&mut doc, sc, &g);
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_times() {
        assert_eq!(key(0.0, 4.0), "0");
        assert_eq!(key(1.0, 4.0), "0.25");
        assert_eq!(key(4.0, 4.0), "1");
        assert_eq!(key(1.0, 3.0), "0.3333");
        // a long loop keeps a hundredth of a second apart
        assert_eq!(key(1.0, 1621.0), "0.000617");
        assert_ne!(key(100.25, 1621.0), key(100.5, 1621.0));
    }
}
