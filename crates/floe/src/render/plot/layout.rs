//! Layout shared by the line plot, the bar chart and the box plot: margins from the texts, the
//! plot frame, both axes (numeric or categories along x), and where the legend goes.

use super::axis::{build_axis, Axis};
use super::kit::{legend_size, turned_label, LegendEntry};
use super::{
    max_text_width, text_width, AxisSpec, Common, Legend, LABEL_SIZE, TICK_SIZE, TITLE_SIZE,
};
use crate::render::svg::PIXEL_LIMIT;

/// A rectangle in pixels, `x0 ≤ x1`, `y0 ≤ y1` (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rect {
    pub(super) x0: f64,
    pub(super) y0: f64,
    pub(super) x1: f64,
    pub(super) y1: f64,
}

impl Rect {
    pub(super) fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    pub(super) fn height(&self) -> f64 {
        self.y1 - self.y0
    }

    pub(super) fn grow(&self, by: f64) -> Rect {
        Rect {
            x0: self.x0 - by,
            y0: self.y0 - by,
            x1: self.x1 + by,
            y1: self.y1 + by,
        }
    }

    pub(super) fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    pub(super) fn contains(&self, (x, y): (f64, f64)) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }
}

/// Categories along x: labels, which of them are shown, how.
#[derive(Clone, Debug)]
pub(super) struct CatAxis {
    pub(super) labels: Vec<String>,
    pub(super) sublabels: Vec<String>,
    pub(super) every: usize,
    pub(super) rotated: bool,
}

/// The horizontal axis of a laid-out plot.
#[derive(Clone, Debug)]
pub(super) enum XAxis {
    Numeric(Axis),
    Categories(CatAxis),
}

/// What goes along x: numbers (with the caller's wishes and the data range) or categories.
pub(super) enum XSource<'a> {
    Numeric {
        spec: &'a AxisSpec,
        data: Option<(f64, f64)>,
    },
    Categories {
        labels: &'a [String],
        sublabels: &'a [String],
    },
}

/// A laid-out plot: the frame (plot area) and both axes.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub(super) frame: Rect,
    pub(super) x: XAxis,
    pub(super) y: Axis,
}

impl Plan {
    pub(super) fn x_px(&self, v: f64) -> f64 {
        match &self.x {
            XAxis::Numeric(a) => clamp_px(self.frame.x0 + a.frac(v) * self.frame.width()),
            XAxis::Categories(_) => self.frame.x0,
        }
    }

    pub(super) fn y_px(&self, v: f64) -> f64 {
        clamp_px(self.frame.y1 - self.y.frac(v) * self.frame.height())
    }
}

/// `v`, clamped to the pixel range the SVG writer accepts (NaN becomes 0).
pub(super) fn clamp_px(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(-PIXEL_LIMIT, PIXEL_LIMIT)
    }
}

/// Do all labels read as numbers (then they are thinned rather than rotated)?
fn numeric_labels(labels: &[String]) -> bool {
    labels
        .iter()
        .all(|l| l.replace(',', "").trim().parse::<f64>().is_ok())
}

/// Lays out a plot: margins from the texts, then the axes. `legend_width` reserves room for
/// a legend to the right of the frame.
pub(super) fn plan(
    c: &Common,
    x_src: &XSource<'_>,
    y_data: Option<(f64, f64)>,
    y_zero: bool,
    legend_width: Option<f64>,
) -> Plan {
    let (w, h) = (c.width, c.height);
    let top = if c.title.is_empty() {
        16.0
    } else {
        12.0 + TITLE_SIZE + 12.0
    };
    let mut right = 16.0 + legend_width.map_or(0.0, |lw| lw + 12.0);
    let x_label_h = if c.x_label.is_empty() {
        0.0
    } else {
        8.0 + LABEL_SIZE * 1.2
    };
    // Category labels: turned by 45° if they do not fit side by side (judged with a guessed
    // left margin; the final layout keeps the decision).
    // `first_reach`: how far the first turned label reaches left of its band's centre.
    let (rotated, cat_h, first_reach) = match x_src {
        XSource::Numeric { .. } => (false, TICK_SIZE * 1.2, 0.0),
        XSource::Categories { labels, sublabels } => {
            let n = labels.len().max(1) as f64;
            let band = (w - 80.0 - right).max(40.0) / n;
            let max_w = max_text_width(labels.iter().chain(sublabels.iter()), TICK_SIZE);
            let rotated = max_w + 6.0 > band && !numeric_labels(labels);
            if rotated {
                let widths: Vec<f64> = (0..labels.len())
                    .map(|i| text_width(&turned_label(labels, sublabels, i), TICK_SIZE))
                    .collect();
                let max_w = widths.iter().copied().fold(0.0, f64::max);
                let reach = widths.first().map_or(0.0, |w0| {
                    w0 * std::f64::consts::FRAC_1_SQRT_2 - TICK_SIZE * 0.3
                });
                (
                    true,
                    (max_w + TICK_SIZE) * std::f64::consts::FRAC_1_SQRT_2,
                    reach,
                )
            } else {
                let sub_h = if sublabels.is_empty() {
                    0.0
                } else {
                    TICK_SIZE * 1.3
                };
                (false, TICK_SIZE * 1.2 + sub_h, 0.0)
            }
        }
    };
    let bottom = 8.0 + cat_h + x_label_h + 8.0;
    let ph = (h - top - bottom).max(40.0);
    let y = build_axis(&c.y, y_data, ph, false, y_zero);
    let y_label_w = if c.y_label.is_empty() {
        0.0
    } else {
        LABEL_SIZE * 1.2 + 8.0
    };
    let mut left = 10.0 + y_label_w + y.max_label_width(TICK_SIZE) + 10.0;
    if let XSource::Categories { labels, .. } = x_src {
        // Keep the first turned label inside the picture.
        let band = (w - left - right).max(40.0) / labels.len().max(1) as f64;
        left = left.max(first_reach - band / 2.0 + 6.0);
    }
    let frame = |right: f64| Rect {
        x0: left,
        y0: top,
        x1: left + (w - left - right).max(40.0),
        y1: top + ph,
    };
    let x = match x_src {
        XSource::Numeric { spec, data } => {
            let mut axis = build_axis(spec, *data, frame(right).width(), true, false);
            // Room for half of the last tick label right of the frame.
            let half = axis
                .labels
                .last()
                .map_or(0.0, |l| text_width(l, TICK_SIZE) / 2.0);
            if half + 6.0 > right {
                right = half + 6.0;
                axis = build_axis(spec, *data, frame(right).width(), true, false);
            }
            XAxis::Numeric(axis)
        }
        XSource::Categories { labels, sublabels } => {
            let n = labels.len().max(1);
            let band = frame(right).width() / n as f64;
            let max_w = max_text_width(labels.iter(), TICK_SIZE);
            let need = if rotated {
                TICK_SIZE * 1.4
            } else {
                let sub_w = max_text_width(sublabels.iter(), TICK_SIZE);
                max_w.max(sub_w) + 6.0
            };
            let mut every = 1usize;
            let steps = [1usize, 2, 5];
            'outer: for scale in [1usize, 10, 100, 1000, 10_000] {
                for s in steps {
                    every = s * scale;
                    if band * every as f64 >= need {
                        break 'outer;
                    }
                }
            }
            XAxis::Categories(CatAxis {
                labels: labels.to_vec(),
                sublabels: sublabels.to_vec(),
                every,
                rotated,
            })
        }
    };
    Plan {
        frame: frame(right),
        x,
        y,
    }
}

/// Lays out the plot and places the legend: `make` lays out (given the room reserved for an
/// outside legend) and computes the drawn geometry, `hits` says whether a legend box would
/// cover some of it.
pub(super) fn place_legend<G>(
    legend: Legend,
    entries: &[LegendEntry],
    make: impl Fn(Option<f64>) -> (Plan, G),
    hits: impl Fn(&G, &Rect) -> bool,
) -> (Plan, G, Option<(f64, f64)>) {
    let size = legend_size(entries);
    let Some((lw, lh)) = size.filter(|_| legend != Legend::Hidden) else {
        let (p, g) = make(None);
        return (p, g, None);
    };
    let outside = |(p, g): (Plan, G)| {
        let at = (p.frame.x1 + 12.0, p.frame.y0);
        (p, g, Some(at))
    };
    let corner = |f: &Rect, l: Legend| {
        let x = match l {
            Legend::TopLeft | Legend::BottomLeft => f.x0 + 10.0,
            _ => f.x1 - 10.0 - lw,
        };
        let y = match l {
            Legend::TopLeft | Legend::TopRight => f.y0 + 10.0,
            _ => f.y1 - 10.0 - lh,
        };
        Rect {
            x0: x,
            y0: y,
            x1: x + lw,
            y1: y + lh,
        }
    };
    match legend {
        Legend::Outside => outside(make(Some(lw))),
        Legend::Auto => {
            let (p, g) = make(None);
            let fits = lw + 20.0 <= p.frame.width() && lh + 20.0 <= p.frame.height();
            let best = [
                Legend::TopRight,
                Legend::TopLeft,
                Legend::BottomRight,
                Legend::BottomLeft,
            ]
            .into_iter()
            .map(|l| corner(&p.frame, l))
            .find(|r| fits && !hits(&g, &r.grow(4.0)));
            match best {
                Some(r) => (p, g, Some((r.x0, r.y0))),
                None => outside(make(Some(lw))),
            }
        }
        fixed => {
            let (p, g) = make(None);
            let r = corner(&p.frame, fixed);
            (p, g, Some((r.x0, r.y0)))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::render::plot::testing::{attr_f64, count, find_class, parse};
    use crate::render::plot::{Legend, LinePlot, Series};

    #[test]
    fn legend_placement() {
        // Rising curve: the top right corner is covered, the top left is free.
        let rising = LinePlot::new("r").series(Series::new(
            "up",
            (0..=10).map(|i| (f64::from(i), f64::from(i * i))),
        ));
        let doc_s = rising.to_svg();
        let doc = parse(&doc_s);
        let legend = find_class(&doc, "legend");
        let frame = find_class(&doc, "frame");
        assert!(attr_f64(&legend, "x") < attr_f64(&frame, "x") + 20.0);
        assert!(attr_f64(&legend, "y") < attr_f64(&frame, "y") + 20.0);
        // Lines through every corner: the legend goes outside.
        let cross = LinePlot::new("x")
            .series(Series::new("a", vec![(0.0, 0.0), (1.0, 1.0)]))
            .series(Series::new("b", vec![(0.0, 1.0), (1.0, 0.0)]));
        let s = cross.to_svg();
        let doc = parse(&s);
        let legend = find_class(&doc, "legend");
        let frame = find_class(&doc, "frame");
        assert!(attr_f64(&legend, "x") > attr_f64(&frame, "x") + attr_f64(&frame, "width"));
        assert!(attr_f64(&legend, "x") + attr_f64(&legend, "width") <= 720.0);
        // Hidden, and no entries for unnamed series.
        let s = cross.clone().legend(Legend::Hidden).to_svg();
        assert_eq!(count(&parse(&s), "rect", "legend"), 0);
        let s = LinePlot::new("")
            .series(Series::new("", vec![(0.0, 0.0), (1.0, 1.0)]))
            .to_svg();
        assert_eq!(count(&parse(&s), "rect", "legend"), 0);
    }
}
