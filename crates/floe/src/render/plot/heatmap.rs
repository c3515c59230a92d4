//! Heat maps: [`HeatMap`], a grid of categories coloured by value, with a colour bar.

use super::draw::rotate;
use super::{
    clamp_size, format_number, max_text_width, text_width, DEFAULT_HEIGHT, DEFAULT_WIDTH,
    FRAME_COLOUR, LABEL_SIZE, TEXT_COLOUR, TICK_SIZE, TITLE_SIZE,
};
use crate::render::svg::Doc;

/// A heat map: a grid of cells coloured by value, with a colour bar: how boards spread over
/// two measures at once (the PushPush thesis's Figures 13–15: difficulty against pushes and
/// against blocks).
///
/// Columns are categories along the horizontal axis, rows along the vertical axis from the
/// bottom up; `values[row][column]`. Cells with value 0 stay white; values that are not
/// finite or negative are skipped (counted by [`HeatMap::skipped`]). Colours run from pale
/// yellow (small) to dark purple (largest), on a linear or logarithmic scale.
#[derive(Clone, Debug)]
pub struct HeatMap {
    title: String,
    x_label: String,
    y_label: String,
    value_label: String,
    columns: Vec<String>,
    rows: Vec<String>,
    values: Vec<Vec<f64>>,
    width: f64,
    height: f64,
    log: bool,
}

/// Stops of the colour ramp (viridis, reversed: small values light).
const HEAT_STOPS: [(u8, u8, u8); 5] = [
    (253, 231, 37),
    (94, 201, 98),
    (33, 145, 140),
    (59, 82, 139),
    (68, 1, 84),
];

fn heat_colour(t: f64) -> String {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (HEAT_STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(HEAT_STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (HEAT_STOPS[i], HEAT_STOPS[i + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + (f64::from(q) - f64::from(p)) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

impl HeatMap {
    /// A heat map with a title.
    pub fn new(title: impl Into<String>) -> HeatMap {
        HeatMap {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            value_label: String::new(),
            columns: Vec::new(),
            rows: Vec::new(),
            values: Vec::new(),
            width: f64::from(DEFAULT_WIDTH),
            height: f64::from(DEFAULT_HEIGHT),
            log: false,
        }
    }

    /// Label of the horizontal axis.
    pub fn x_label(mut self, label: impl Into<String>) -> HeatMap {
        self.x_label = label.into();
        self
    }

    /// Label of the vertical axis.
    pub fn y_label(mut self, label: impl Into<String>) -> HeatMap {
        self.y_label = label.into();
        self
    }

    /// What the colours mean (written by the colour bar).
    pub fn value_label(mut self, label: impl Into<String>) -> HeatMap {
        self.value_label = label.into();
        self
    }

    /// The column categories, left to right.
    pub fn columns(mut self, labels: Vec<String>) -> HeatMap {
        self.columns = labels;
        self
    }

    /// The row categories, bottom to top.
    pub fn rows(mut self, labels: Vec<String>) -> HeatMap {
        self.rows = labels;
        self
    }

    /// The values, `values[row][column]`; missing cells count as 0.
    pub fn values(mut self, values: Vec<Vec<f64>>) -> HeatMap {
        self.values = values;
        self
    }

    /// Colours on a logarithmic scale (log of 1 + value).
    pub fn log_scale(mut self) -> HeatMap {
        self.log = true;
        self
    }

    /// Size in pixels (default 720 × 480); clamped to 200–20000 × 150–20000.
    pub fn size(mut self, width: u32, height: u32) -> HeatMap {
        (self.width, self.height) = clamp_size(width, height);
        self
    }

    fn value(&self, r: usize, c: usize) -> f64 {
        self.values
            .get(r)
            .and_then(|row| row.get(c))
            .copied()
            .unwrap_or(0.0)
    }

    /// Values that cannot be drawn (not finite, or negative).
    pub fn skipped(&self) -> usize {
        self.values
            .iter()
            .flatten()
            .filter(|v| !v.is_finite() || **v < 0.0)
            .count()
    }

    save_builder!();

    /// The SVG.
    pub fn to_svg(&self) -> String {
        let (nc, nr) = (self.columns.len().max(1), self.rows.len().max(1));
        let max = self
            .values
            .iter()
            .flatten()
            .copied()
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold(0.0_f64, f64::max);
        let scale = |v: f64| -> f64 {
            if max <= 0.0 {
                0.0
            } else if self.log {
                (1.0 + v).ln() / (1.0 + max).ln()
            } else {
                v / max
            }
        };
        let y_text = max_text_width(&self.rows, TICK_SIZE);
        let left = 28.0 + y_text + if self.y_label.is_empty() { 0.0 } else { 20.0 };
        let top = if self.title.is_empty() { 16.0 } else { 40.0 };
        let bottom = 40.0 + if self.x_label.is_empty() { 0.0 } else { 18.0 };
        let right = 120.0;
        let pw = (self.width - left - right).max(20.0);
        let ph = (self.height - top - bottom).max(20.0);
        let (cw, ch) = (pw / nc as f64, ph / nr as f64);
        let mut doc = Doc::new(self.width, self.height, &self.title);
        let skipped = self.skipped();
        if skipped > 0 {
            doc.raw(&format!(
                "<!-- {skipped} value(s) skipped: not finite, or negative -->\n"
            ));
        }
        let ink = format!(" fill=\"{TEXT_COLOUR}\"");
        if !self.title.is_empty() {
            doc.text(
                "title",
                self.width / 2.0,
                24.0,
                TITLE_SIZE,
                &self.title,
                &format!("{ink} font-weight=\"bold\""),
            );
        }
        // cells
        doc.open_group("cells", "");
        for r in 0..nr {
            for c in 0..nc {
                let v = self.value(r, c);
                if !(v.is_finite() && v > 0.0) {
                    continue;
                }
                let x = left + c as f64 * cw;
                let y = top + (nr - 1 - r) as f64 * ch;
                doc.rect(
                    "cell",
                    x,
                    y,
                    cw,
                    ch,
                    &format!(" fill=\"{}\"", heat_colour(scale(v))),
                );
            }
        }
        doc.close_group();
        doc.rect(
            "frame",
            left,
            top,
            pw,
            ph,
            &format!(" fill=\"none\" stroke=\"{FRAME_COLOUR}\""),
        );
        // tick labels, thinned so that they do not overlap
        let widest = max_text_width(&self.columns, TICK_SIZE);
        let every_x = ((widest + 6.0) / cw).ceil().max(1.0) as usize;
        for (c, l) in self.columns.iter().enumerate() {
            if c % every_x != 0 {
                continue;
            }
            let x = left + (c as f64 + 0.5) * cw;
            doc.text("tick", x, top + ph + 16.0, TICK_SIZE, l, &ink);
        }
        let every_y = ((TICK_SIZE * 1.4) / ch).ceil().max(1.0) as usize;
        for (r, l) in self.rows.iter().enumerate() {
            if r % every_y != 0 {
                continue;
            }
            let y = top + (nr - 1 - r) as f64 * ch + ch / 2.0 + TICK_SIZE * 0.35;
            doc.text(
                "tick",
                left - 6.0 - text_width(l, TICK_SIZE) / 2.0,
                y,
                TICK_SIZE,
                l,
                &ink,
            );
        }
        if !self.x_label.is_empty() {
            doc.text(
                "axis-label",
                left + pw / 2.0,
                top + ph + 38.0,
                LABEL_SIZE,
                &self.x_label,
                &ink,
            );
        }
        if !self.y_label.is_empty() {
            let (x, y) = (14.0, top + ph / 2.0);
            doc.text(
                "axis-label",
                x,
                y,
                LABEL_SIZE,
                &self.y_label,
                &format!("{ink}{}", rotate(-90, x, y)),
            );
        }
        // the colour bar (legend)
        let bx = left + pw + 18.0;
        let steps = 40;
        let bh = ph / steps as f64;
        doc.open_group("legend", "");
        for i in 0..steps {
            let t = (i as f64 + 0.5) / steps as f64;
            doc.rect(
                "legend-step",
                bx,
                top + ph - (i + 1) as f64 * bh,
                14.0,
                bh + 0.3,
                &format!(" fill=\"{}\"", heat_colour(t)),
            );
        }
        let unscale = |t: f64| -> f64 {
            if self.log {
                (t * (1.0 + max).ln()).exp() - 1.0
            } else {
                t * max
            }
        };
        for t in [0.0, 0.5, 1.0] {
            let y = top + ph - t * ph + TICK_SIZE * 0.35;
            let label = format_number(unscale(t));
            doc.text(
                "legend-tick",
                bx + 20.0 + text_width(&label, TICK_SIZE) / 2.0,
                y,
                TICK_SIZE,
                &label,
                &ink,
            );
        }
        if !self.value_label.is_empty() {
            let (x, y) = (bx + 80.0, top + ph / 2.0);
            doc.text(
                "legend-label",
                x,
                y,
                LABEL_SIZE,
                &self.value_label,
                &format!("{ink}{}", rotate(90, x, y)),
            );
        }
        doc.close_group();
        if max <= 0.0 {
            doc.text(
                "no-data",
                left + pw / 2.0,
                top + ph / 2.0,
                LABEL_SIZE,
                "no data",
                &ink,
            );
        }
        doc.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_map_cells_legend_and_determinism() {
        let h = HeatMap::new("boards")
            .x_label("pushes")
            .y_label("difficulty")
            .value_label("boards")
            .columns(vec!["1".into(), "2".into(), "3".into()])
            .rows(vec!["0".into(), "0.1".into()])
            .values(vec![vec![1.0, 0.0, 3.0], vec![f64::NAN, 2.0, 5.0]]);
        let svg = h.to_svg();
        assert_eq!(svg, h.to_svg());
        assert_eq!(h.skipped(), 1);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let class = |c: &str| {
            doc.descendants()
                .filter(|n| n.attribute("class") == Some(c))
                .count()
        };
        assert_eq!(class("cell"), 4);
        assert_eq!(class("legend-step"), 40);
        assert_eq!(class("legend-tick"), 3);
        assert!(svg.contains(">boards</text>"));
        // the largest value gets the darkest colour, the smallest a light one
        assert!(svg.contains(&format!("fill=\"{}\"", heat_colour(1.0))));
        assert_eq!(heat_colour(0.0), "#fde725");
        assert_eq!(heat_colour(1.0), "#440154");
        let empty = HeatMap::new("none").to_svg();
        assert!(empty.contains("no data"));
        roxmltree::Document::parse(&empty).unwrap();
    }
}
