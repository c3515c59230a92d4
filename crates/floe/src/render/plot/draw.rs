//! Drawing shared by the line plot, the bar chart and the box plot: the SVG document, grid
//! lines, the frame with ticks, labels and title, "no data", and the legend.

use std::fmt::Write as _;

use super::kit::{legend_size, turned_label, LegendEntry, Swatch};
use super::layout::{Plan, Rect, XAxis};
use super::{
    char_width, text_width, Common, BOLD, FRAME_COLOUR, GRID_COLOUR, LABEL_SIZE, LEGEND_ROW,
    LEGEND_SIZE, LINE_WIDTH, MINOR_GRID_COLOUR, TEXT_COLOUR, TICK_SIZE, TITLE_SIZE,
};
use crate::render::svg::{escape, fmt_coord, FONT_FAMILY};

/// An SVG document being written.
pub(super) struct Svg {
    pub(super) s: String,
}

impl Svg {
    /// The start of a `w` × `h` picture: white background, and a comment when values were
    /// skipped.
    pub(super) fn begin(w: f64, h: f64, skipped: usize) -> Svg {
        let (w, h) = (fmt_coord(w), fmt_coord(h));
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\">\n"
        );
        if skipped > 0 {
            let _ = writeln!(
                s,
                "<!-- {skipped} value(s) skipped: not finite, or not positive on a log axis -->"
            );
        }
        let _ = writeln!(
            s,
            "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>"
        );
        Svg { s }
    }

    pub(super) fn rect(&mut self, class: &str, r: &Rect, attrs: &str) {
        let _ = writeln!(
            self.s,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{attrs}/>",
            fmt_coord(r.x0),
            fmt_coord(r.y0),
            fmt_coord(r.width().max(0.0)),
            fmt_coord(r.height().max(0.0))
        );
    }

    pub(super) fn path(&mut self, class: &str, d: &str, attrs: &str) {
        let _ = writeln!(self.s, "<path class=\"{class}\" d=\"{d}\"{attrs}/>");
    }

    /// Text with its baseline at `y`; `anchor` is `start`, `middle` or `end`; `attrs` is
    /// inserted verbatim (already escaped).
    fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, content: &str, attrs: &str) {
        let anchor_attr = if anchor == "start" {
            String::new()
        } else {
            format!(" text-anchor=\"{anchor}\"")
        };
        let _ = writeln!(
            self.s,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\"{anchor_attr} fill=\"{TEXT_COLOUR}\"{attrs}>{}</text>",
            fmt_coord(x),
            fmt_coord(y),
            fmt_coord(size),
            escape(content)
        );
    }

    /// Frame, ticks, labels and title over the data, "no data" when nothing was drawn, the
    /// legend `entries` at `legend_at`, and the end of the document.
    pub(super) fn finish(
        mut self,
        c: &Common,
        plan: &Plan,
        no_data: bool,
        entries: &[LegendEntry],
        legend_at: Option<(f64, f64)>,
    ) -> String {
        draw_frame(&mut self, c, plan);
        if no_data {
            draw_no_data(&mut self, &plan.frame);
        }
        if let Some((x, y)) = legend_at {
            draw_legend(&mut self, entries, x, y);
        }
        self.end()
    }

    fn end(mut self) -> String {
        self.s.push_str("</svg>\n");
        self.s
    }
}

/// The path data of a horizontal line from `(x0, y)` to `(x1, y)`.
pub(super) fn h_line(x0: f64, y: f64, x1: f64) -> String {
    format!("M{},{}H{}", fmt_coord(x0), fmt_coord(y), fmt_coord(x1))
}

/// The path data of a vertical line from `(x, y0)` to `(x, y1)`.
fn v_line(x: f64, y0: f64, y1: f64) -> String {
    format!("M{},{}V{}", fmt_coord(x), fmt_coord(y0), fmt_coord(y1))
}

/// Attributes of an unfilled outline one pixel wide.
pub(super) fn hairline(colour: &str) -> String {
    format!(r#" fill="none" stroke="{colour}" stroke-width="1""#)
}

/// The `transform` attribute turning by `degrees` about `(x, y)`.
pub(super) fn rotate(degrees: i32, x: f64, y: f64) -> String {
    format!(
        " transform=\"rotate({degrees} {} {})\"",
        fmt_coord(x),
        fmt_coord(y)
    )
}

/// Grid lines (under the data).
pub(super) fn draw_grid(svg: &mut Svg, plan: &Plan) {
    let f = &plan.frame;
    let mut minor = String::new();
    let mut major = String::new();
    for &t in &plan.y.minor {
        minor.push_str(&h_line(f.x0, plan.y_px(t), f.x1));
    }
    for &t in &plan.y.ticks {
        major.push_str(&h_line(f.x0, plan.y_px(t), f.x1));
    }
    if let XAxis::Numeric(a) = &plan.x {
        for &t in &a.minor {
            minor.push_str(&v_line(plan.x_px(t), f.y0, f.y1));
        }
        for &t in &a.ticks {
            major.push_str(&v_line(plan.x_px(t), f.y0, f.y1));
        }
    }
    if !minor.is_empty() {
        svg.path("grid-minor", &minor, &hairline(MINOR_GRID_COLOUR));
    }
    if !major.is_empty() {
        svg.path("grid", &major, &hairline(GRID_COLOUR));
    }
}

/// Frame, ticks, tick labels, axis labels and title (over the data).
fn draw_frame(svg: &mut Svg, c: &Common, plan: &Plan) {
    let f = &plan.frame;
    svg.rect("frame", f, &hairline(FRAME_COLOUR));
    let mut ticks = String::new();
    // y ticks and labels
    for (t, label) in plan.y.ticks.iter().zip(&plan.y.labels) {
        let y = plan.y_px(*t);
        let _ = write!(ticks, "M{},{}h-5", fmt_coord(f.x0), fmt_coord(y));
        svg.text(
            f.x0 - 8.0,
            y + TICK_SIZE * 0.35,
            TICK_SIZE,
            "end",
            label,
            "",
        );
    }
    let label_y = f.y1 + 8.0 + TICK_SIZE * 0.8;
    match &plan.x {
        XAxis::Numeric(a) => {
            for (t, label) in a.ticks.iter().zip(&a.labels) {
                let x = plan.x_px(*t);
                let _ = write!(ticks, "M{},{}v5", fmt_coord(x), fmt_coord(f.y1));
                svg.text(x, label_y, TICK_SIZE, "middle", label, "");
            }
        }
        XAxis::Categories(cat) => {
            let n = cat.labels.len().max(1);
            let band = f.width() / n as f64;
            for (i, label) in cat.labels.iter().enumerate() {
                if i % cat.every.max(1) != 0 {
                    continue;
                }
                let x = f.x0 + band * (i as f64 + 0.5);
                let _ = write!(ticks, "M{},{}v5", fmt_coord(x), fmt_coord(f.y1));
                let sub = cat.sublabels.get(i);
                if cat.rotated {
                    let (tx, ty) = (x + TICK_SIZE * 0.3, f.y1 + 10.0);
                    let text = turned_label(&cat.labels, &cat.sublabels, i);
                    svg.text(tx, ty, TICK_SIZE, "end", &text, &rotate(-45, tx, ty));
                } else {
                    svg.text(x, label_y, TICK_SIZE, "middle", label, "");
                    if let Some(s) = sub {
                        svg.text(
                            x,
                            label_y + TICK_SIZE * 1.3,
                            TICK_SIZE,
                            "middle",
                            s,
                            " fill-opacity=\"0.75\"",
                        );
                    }
                }
            }
        }
    }
    if !ticks.is_empty() {
        svg.path("ticks", &ticks, &hairline(FRAME_COLOUR));
    }
    let (w, h) = (c.width, c.height);
    let cx = (f.x0 + f.x1) / 2.0;
    if !c.x_label.is_empty() {
        svg.text(
            cx,
            h - 8.0 - LABEL_SIZE * 0.25,
            LABEL_SIZE,
            "middle",
            &c.x_label,
            "",
        );
    }
    if !c.y_label.is_empty() {
        // Just left of the tick labels (at 10 + 0.9 em from the left edge with the standard
        // margin; closer to the frame when turned category labels widened the margin).
        let x = f.x0 - plan.y.max_label_width(TICK_SIZE) - 18.0 - LABEL_SIZE * 0.3;
        let y = (f.y0 + f.y1) / 2.0;
        svg.text(x, y, LABEL_SIZE, "middle", &c.y_label, &rotate(-90, x, y));
    }
    if !c.title.is_empty() {
        // Centred over the frame if it fits there, else over the picture, in a smaller font
        // (down to 10 px) and, if even that is too wide, shortened with "…". Bold text is
        // about 10% wider than the estimate for regular text.
        let tw = text_width(&c.title, TITLE_SIZE) * BOLD;
        let (x, size, title) = if tw <= f.width() {
            (cx, TITLE_SIZE, c.title.clone())
        } else {
            let avail = w - 20.0;
            let size = (TITLE_SIZE * avail / tw).clamp(10.0, TITLE_SIZE);
            (w / 2.0, size, fit_text(&c.title, size * BOLD, avail))
        };
        svg.text(
            x,
            12.0 + TITLE_SIZE * 0.8,
            size,
            "middle",
            &title,
            " font-weight=\"bold\"",
        );
    }
}

/// `s`, shortened with "…" so that its estimated width at `size` is at most `avail`.
fn fit_text(s: &str, size: f64, avail: f64) -> String {
    if text_width(s, size) <= avail {
        return s.to_string();
    }
    let budget = avail - text_width("…", size);
    let mut used = 0.0;
    let mut out = String::new();
    for ch in s.chars() {
        used += char_width(ch) * size;
        if used > budget {
            break;
        }
        out.push(ch);
    }
    out.push('…');
    out
}

fn draw_no_data(svg: &mut Svg, f: &Rect) {
    svg.text(
        (f.x0 + f.x1) / 2.0,
        (f.y0 + f.y1) / 2.0 + LABEL_SIZE * 0.35,
        LABEL_SIZE,
        "middle",
        "no data",
        " class=\"no-data\" fill-opacity=\"0.6\"",
    );
}

fn draw_legend(svg: &mut Svg, entries: &[LegendEntry], x: f64, y: f64) {
    let Some((w, h)) = legend_size(entries) else {
        return;
    };
    svg.rect(
        "legend",
        &Rect {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + h,
        },
        r##" fill="#ffffff" fill-opacity="0.9" stroke="#bbbbbb" stroke-width="1""##,
    );
    for (i, e) in entries.iter().enumerate() {
        let cy = y + 6.0 + LEGEND_ROW * (i as f64 + 0.5);
        match &e.swatch {
            Swatch::Line { colour, dash } => {
                let attrs = format!(
                    r#" fill="none" stroke="{}" stroke-width="{}"{}"#,
                    escape(colour),
                    fmt_coord(LINE_WIDTH),
                    dash.attribute()
                );
                svg.path("legend-line", &h_line(x + 8.0, cy, x + 34.0), &attrs);
            }
            Swatch::Block { colour } => {
                let r = Rect {
                    x0: x + 14.0,
                    y0: cy - 5.0,
                    x1: x + 28.0,
                    y1: cy + 5.0,
                };
                svg.rect(
                    "legend-block",
                    &r,
                    &format!(r#" fill="{}""#, escape(colour)),
                );
            }
        }
        svg.text(
            x + 40.0,
            cy + LEGEND_SIZE * 0.35,
            LEGEND_SIZE,
            "start",
            &e.name,
            " class=\"legend-text\"",
        );
    }
}
