//! Bar charts and histograms: [`BarChart`], one value per category (or integer bin) for each
//! [`BarSeries`], the series side by side or stacked.

use super::draw::{draw_grid, h_line, hairline, Svg};
use super::kit::{legend_entries, Swatch};
use super::layout::{place_legend, plan, Plan, Rect, XSource};
use super::{min_max, series_colour, shorten, Common, Legend, FRAME_COLOUR, MAX_CATEGORY_CHARS};
use crate::render::svg::escape;

/// One group of bars of a [`BarChart`]: a value per category, in category order.
#[derive(Clone, Debug)]
pub struct BarSeries {
    name: String,
    values: Vec<f64>,
    colour: Option<String>,
}

impl BarSeries {
    /// A series named `name` (legend text; empty for none) with one value per category.
    /// Missing values (a shorter list) count as 0; values beyond the last category are ignored.
    pub fn new(name: impl Into<String>, values: impl IntoIterator<Item = f64>) -> BarSeries {
        BarSeries {
            name: name.into(),
            values: values.into_iter().collect(),
            colour: None,
        }
    }

    /// Overrides the palette colour (any CSS colour).
    pub fn colour(mut self, colour: impl Into<String>) -> BarSeries {
        self.colour = Some(colour.into());
        self
    }
}

/// A bar chart or histogram: categories (or integer bins) on x, one bar per series and
/// category, grouped side by side (default) or stacked.
///
/// Without [`BarChart::categories`] or [`BarChart::integer_bins`] the categories are
/// `0, 1, 2, …` up to the longest series. Category labels that do not fit are thinned out
/// (every 2nd, 5th, 10th, … is shown) when all labels are numbers, and turned by 45° otherwise
/// (thinned too if even that does not fit). In stacked mode negative values stack downwards
/// from 0; on a logarithmic axis bars start at the bottom of the axis, a value 0 draws no bar
/// and negative values are skipped.
#[derive(Clone, Debug)]
pub struct BarChart {
    common: Common,
    categories: Vec<String>,
    series: Vec<BarSeries>,
    stacked: bool,
}

/// At most this many categories are kept (more are dropped).
pub const MAX_CATEGORIES: usize = 100_000;

impl BarChart {
    /// An empty chart with this title.
    pub fn new(title: impl Into<String>) -> BarChart {
        BarChart {
            common: Common::new(title.into()),
            categories: Vec::new(),
            series: Vec::new(),
            stacked: false,
        }
    }

    common_builders!();
    legend_builder!();

    /// Sets the category labels (at most [`MAX_CATEGORIES`]).
    pub fn categories<S: Into<String>>(mut self, labels: impl IntoIterator<Item = S>) -> BarChart {
        self.categories = labels
            .into_iter()
            .take(MAX_CATEGORIES)
            .map(Into::into)
            .collect();
        self
    }

    /// Sets the categories to the integers `lo..=hi` (a histogram's bins; at most
    /// [`MAX_CATEGORIES`]; none when `hi < lo`).
    pub fn integer_bins(mut self, lo: i64, hi: i64) -> BarChart {
        self.categories = (lo..=hi)
            .take(MAX_CATEGORIES)
            .map(|i| i.to_string())
            .collect();
        self
    }

    /// Adds a series.
    pub fn series(mut self, series: BarSeries) -> BarChart {
        self.series.push(series);
        self
    }

    /// Stacks the series on top of each other instead of side by side.
    pub fn stacked(mut self) -> BarChart {
        self.stacked = true;
        self
    }

    /// Puts the series side by side (the default).
    pub fn grouped(mut self) -> BarChart {
        self.stacked = false;
        self
    }

    /// The number of values that cannot be drawn (non-finite; negative on a log axis).
    pub fn skipped(&self) -> usize {
        self.values().1
    }

    fn category_count(&self) -> usize {
        if self.categories.is_empty() {
            self.series
                .iter()
                .map(|s| s.values.len())
                .max()
                .unwrap_or(0)
                .min(MAX_CATEGORIES)
        } else {
            self.categories.len()
        }
    }

    /// Values per series and category; unusable values become 0 and are counted.
    fn values(&self) -> (Vec<Vec<f64>>, usize) {
        let n = self.category_count();
        let log = self.common.y.log;
        let mut skipped = 0;
        let mut out = Vec::with_capacity(self.series.len());
        for s in &self.series {
            let mut row = vec![0.0; n];
            for (slot, &v) in row.iter_mut().zip(&s.values) {
                if v.is_finite() && (!log || v >= 0.0) {
                    *slot = v;
                } else {
                    skipped += 1;
                }
            }
            out.push(row);
        }
        (out, skipped)
    }

    /// Renders the chart.
    pub fn to_svg(&self) -> String {
        let c = &self.common;
        let log = c.y.log;
        let (values, skipped) = self.values();
        let n = self.category_count();
        let labels: Vec<String> = if self.categories.is_empty() {
            (0..n).map(|i| i.to_string()).collect()
        } else {
            self.categories
                .iter()
                .map(|s| shorten(s, MAX_CATEGORY_CHARS))
                .collect()
        };
        // The value range: bar tops (and bottoms when stacked).
        let mut tops = Vec::new();
        for i in 0..n {
            let (mut pos, mut neg) = (0.0, 0.0);
            for row in &values {
                let v = row[i];
                if self.stacked {
                    if v >= 0.0 {
                        pos += v;
                        tops.push(pos);
                    } else {
                        neg += v;
                        tops.push(neg);
                    }
                } else {
                    tops.push(v);
                }
            }
        }
        let y_data = if log {
            let positive = tops.iter().copied().filter(|&v| v > 0.0);
            // Half the smallest value as the bottom, so that the shortest bar stays visible.
            min_max(positive).map(|(lo, hi)| (lo / 2.0, hi))
        } else {
            min_max(tops.iter().copied())
        };
        let colours: Vec<String> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| series_colour(s.colour.as_deref(), i))
            .collect();
        let entries = legend_entries(self.series.iter().zip(&colours).map(|(s, colour)| {
            let swatch = Swatch::Block {
                colour: colour.clone(),
            };
            (s.name.as_str(), swatch)
        }));
        let x_src = XSource::Categories {
            labels: &labels,
            sublabels: &[],
        };
        let make = |legend_width: Option<f64>| {
            let plan = plan(c, &x_src, y_data, !log, legend_width);
            let bars = self.bars(&values, &plan);
            (plan, bars)
        };
        let hits = |bars: &Vec<(Rect, usize)>, r: &Rect| bars.iter().any(|(b, _)| b.overlaps(r));
        let (plan, bars, legend_at) = place_legend(c.legend, &entries, make, hits);

        let mut svg = Svg::begin(c.width, c.height, skipped);
        draw_grid(&mut svg, &plan);
        for (r, j) in &bars {
            let attrs = format!(r#" fill="{}""#, escape(&colours[*j]));
            svg.rect("bar", r, &attrs);
        }
        if !log {
            // The zero line, when it lies inside the frame.
            let y0 = plan.y_px(0.0);
            if y0 > plan.frame.y0 + 0.5 && y0 < plan.frame.y1 - 0.5 {
                let d = h_line(plan.frame.x0, y0, plan.frame.x1);
                svg.path("zero", &d, &hairline(FRAME_COLOUR));
            }
        }
        svg.finish(c, &plan, bars.is_empty(), &entries, legend_at)
    }

    /// Bar rectangles (clipped to the frame) with their series index; empty bars left out.
    fn bars(&self, values: &[Vec<f64>], plan: &Plan) -> Vec<(Rect, usize)> {
        let f = &plan.frame;
        let n = self.category_count();
        let k = values.len();
        if n == 0 || k == 0 {
            return Vec::new();
        }
        let band = f.width() / n as f64;
        let base = if plan.y.log { plan.y.lo } else { 0.0 };
        let mut out = Vec::new();
        for i in 0..n {
            let left = f.x0 + band * (i as f64 + 0.1);
            let (mut pos, mut neg) = (base, base);
            for (j, row) in values.iter().enumerate() {
                let v = row[i];
                let (x0, x1, from, to) = if self.stacked {
                    let (from, to) = if v >= 0.0 {
                        pos += v;
                        (pos - v, pos)
                    } else {
                        neg += v;
                        (neg - v, neg)
                    };
                    (left, left + band * 0.8, from, to)
                } else {
                    let w = band * 0.8 / k as f64;
                    (left + w * j as f64, left + w * (j + 1) as f64, base, v)
                };
                if v == 0.0 || (plan.y.log && to <= 0.0) {
                    continue;
                }
                let from = if plan.y.log {
                    from.max(plan.y.lo)
                } else {
                    from
                };
                let (ya, yb) = (plan.y_px(from), plan.y_px(to));
                let r = Rect {
                    x0,
                    x1,
                    y0: ya.min(yb).max(f.y0),
                    y1: ya.max(yb).min(f.y1),
                };
                if r.y1 - r.y0 >= 0.005 && r.x1 - r.x0 > 0.0 {
                    out.push((r, j));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::plot::testing::{
        assert_never_break, attr_f64, count, examples_dir, parse, texts,
    };

    /// The rectangles of the bars: x, y, width, height.
    fn bar_rects(doc: &roxmltree::Document<'_>) -> Vec<(f64, f64, f64, f64)> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("bar"))
            .map(|n| {
                (
                    attr_f64(&n, "x"),
                    attr_f64(&n, "y"),
                    attr_f64(&n, "width"),
                    attr_f64(&n, "height"),
                )
            })
            .collect()
    }

    #[test]
    fn bar_charts() {
        let a = [3.0, 7.0, 12.0, 6.0, 2.0];
        let b = [1.0, 4.0, 9.0, 8.0, 5.0];
        let grouped = BarChart::new("pushes")
            .x_label("pushes")
            .y_label("puzzles")
            .integer_bins(1, 5)
            .series(BarSeries::new("solvable", a))
            .series(BarSeries::new("unsolvable", b));
        let doc_s = grouped.to_svg();
        let doc = parse(&doc_s);
        assert_eq!(count(&doc, "rect", "bar"), 10);
        assert_eq!(count(&doc, "rect", "legend-block"), 2);
        let t = texts(&doc);
        for s in [
            "pushes",
            "puzzles",
            "solvable",
            "unsolvable",
            "1",
            "5",
            "0",
            "12",
        ] {
            assert!(t.iter().any(|x| x == s), "{s} in {t:?}");
        }
        // Bar heights are proportional to the values; all bars stand on the same base line.
        let bars = bar_rects(&doc);
        let unit = bars[0].3 / 3.0;
        let vals: Vec<f64> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
        for (bar, v) in bars.iter().zip(&vals) {
            assert!((bar.3 - v * unit).abs() < 0.03, "{bar:?} {v}");
            assert!((bar.1 + bar.3 - (bars[0].1 + bars[0].3)).abs() < 0.02);
        }
        // Stacked: the second bar of each category sits on the first.
        let stacked = grouped.clone().stacked().to_svg();
        let doc = parse(&stacked);
        let bars = bar_rects(&doc);
        assert_eq!(bars.len(), 10);
        for pair in bars.chunks(2) {
            assert!((pair[1].1 + pair[1].3 - pair[0].1).abs() < 0.02, "{pair:?}");
            assert_eq!(pair[0].0, pair[1].0);
        }
        // Zero values draw nothing; log axis keeps the smallest bar visible.
        let z = BarChart::new("")
            .series(BarSeries::new("", [0.0, 1.0, 0.0, 1000.0]))
            .log_y()
            .to_svg();
        let doc = parse(&z);
        assert_eq!(count(&doc, "rect", "bar"), 2);
        assert!(doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("bar"))
            .all(|n| attr_f64(&n, "height") > 10.0));
        // Many numeric bins are thinned, not rotated.
        let many = BarChart::new("")
            .integer_bins(0, 199)
            .series(BarSeries::new("", (0..200).map(f64::from)))
            .to_svg();
        let doc = parse(&many);
        let labels = doc
            .descendants()
            .filter(|n| {
                n.has_tag_name("text")
                    && n.attribute("transform").is_none()
                    && n.attribute("text-anchor") == Some("middle")
            })
            .count();
        assert!(labels > 5 && labels <= 25, "{labels}");
        // Long word labels are turned.
        let words = BarChart::new("")
            .categories((0..12).map(|i| format!("setup number {i}")))
            .series(BarSeries::new("", (0..12).map(f64::from)))
            .to_svg();
        assert!(words.contains("rotate(-45"));
    }

    #[test]
    fn escaping() {
        let bars = BarChart::new("<&>")
            .categories(["a&b", "<c>"])
            .series(BarSeries::new("\"q\"", vec![1.0, 2.0]))
            .to_svg();
        let t = texts(&parse(&bars));
        for s in ["<&>", "a&b", "<c>", "\"q\""] {
            assert!(t.iter().any(|x| x == s), "{s}");
        }
    }

    #[test]
    fn deterministic() {
        let b = || {
            BarChart::new("h")
                .integer_bins(0, 30)
                .series(BarSeries::new(
                    "a",
                    (0..31).map(|i| f64::from(i * (30 - i))),
                ))
                .series(BarSeries::new("b", (0..31).map(f64::from)))
                .stacked()
                .to_svg()
        };
        assert_eq!(b(), b());
    }

    #[test]
    fn edge_cases_never_break() {
        let plots = vec![
            BarChart::new("").to_svg(),
            BarChart::new("no series").integer_bins(0, 9).to_svg(),
            BarChart::new("zeros")
                .series(BarSeries::new("z", vec![0.0; 5]))
                .to_svg(),
            BarChart::new("log zeros")
                .log_y()
                .series(BarSeries::new("z", vec![0.0; 5]))
                .to_svg(),
            BarChart::new("reversed bins").integer_bins(5, 1).to_svg(),
        ];
        assert_never_break(plots, |a, b| {
            vec![
                BarChart::new("nasty")
                    .series(BarSeries::new("n", vec![a, b, 1.0]))
                    .stacked()
                    .to_svg(),
                BarChart::new("nasty")
                    .log_y()
                    .series(BarSeries::new("n", vec![a, b, 1.0]))
                    .to_svg(),
            ]
        });
    }

    /// Writes a stacked and a grouped bar chart to [`examples_dir`].
    #[test]
    #[ignore]
    fn write_examples() {
        let dir = examples_dir();
        let binom =
            |n: u32, k: u32| (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1));
        let total: Vec<f64> = (0..=15).map(|k| binom(15, k)).collect();
        let unsolvable: Vec<f64> = total
            .iter()
            .enumerate()
            .map(|(k, t)| (t * k as f64 / 15.0).round())
            .collect();
        let solvable: Vec<f64> = total.iter().zip(&unsolvable).map(|(t, u)| t - u).collect();
        BarChart::new("4×4 boards by number of blocks")
            .x_label("number of blocks")
            .y_label("boards")
            .integer_bins(0, 15)
            .series(BarSeries::new("solvable", solvable.clone()))
            .series(BarSeries::new("unsolvable", unsolvable.clone()))
            .stacked()
            .save(dir.join("floe-bars-stacked.svg"))
            .unwrap();
        BarChart::new("4×4 boards by number of blocks")
            .x_label("number of blocks")
            .y_label("boards")
            .integer_bins(0, 15)
            .series(BarSeries::new("solvable", solvable))
            .series(BarSeries::new("unsolvable", unsolvable))
            .save(dir.join("floe-bars-grouped.svg"))
            .unwrap();
    }
}
