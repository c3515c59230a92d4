//! Line plots: [`LinePlot`], named [`Series`] of `(x, y)` points drawn as lines (optionally
//! as step functions, optionally against logarithmic axes), each with its colour and [`Dash`]
//! pattern; and the line geometry: points to pixels, clipping at the frame, merging vertices.

use std::fmt::Write as _;

use super::draw::{draw_grid, Svg};
use super::kit::{legend_entries, Dash, Swatch};
use super::layout::{clamp_px, place_legend, plan, Plan, Rect, XSource};
use super::{min_max, placeable, series_colour, AxisSpec, Common, Legend, LINE_WIDTH, PALETTE};
use crate::render::svg::{escape, fmt_coord, fmt_hundredths};

/// One curve of a [`LinePlot`].
#[derive(Clone, Debug)]
pub struct Series {
    name: String,
    points: Vec<(f64, f64)>,
    step: bool,
    markers: bool,
    colour: Option<String>,
    dash: Option<Dash>,
}

impl Series {
    /// A series named `name` (the legend text; empty for no legend entry). Points are joined
    /// in the given order (they are not sorted).
    pub fn new(name: impl Into<String>, points: impl IntoIterator<Item = (f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points: points.into_iter().collect(),
            step: false,
            markers: false,
            colour: None,
            dash: None,
        }
    }

    /// Draws the series as a step function: from each point horizontally to the next point's
    /// x, then vertically to its y (a cumulative count holds its value until the next point).
    pub fn step(mut self) -> Series {
        self.step = true;
        self
    }

    /// Also marks every point with a dot. (A series with a single point always gets one.)
    pub fn markers(mut self) -> Series {
        self.markers = true;
        self
    }

    /// Overrides the palette colour (any CSS colour: `#rrggbb`, `teal`, …).
    pub fn colour(mut self, colour: impl Into<String>) -> Series {
        self.colour = Some(colour.into());
        self
    }

    /// Sets the dash pattern (default: solid, or cycling when the plot asks for it).
    pub fn dash(mut self, dash: Dash) -> Series {
        self.dash = Some(dash);
        self
    }
}

/// A line plot: several [`Series`] against linear (or logarithmic) axes.
///
/// Series `i` is drawn in `PALETTE[i % 8]`; solid unless [`LinePlot::cycle_dashes`] is set
/// (then dash patterns cycle with period 4), and from the ninth series on the dash pattern
/// changes with each round of the palette, so that no two of the first 32 series look alike.
#[derive(Clone, Debug)]
pub struct LinePlot {
    common: Common,
    x: AxisSpec,
    series: Vec<Series>,
    cycle_dashes: bool,
}

impl LinePlot {
    /// An empty plot with this title.
    pub fn new(title: impl Into<String>) -> LinePlot {
        LinePlot {
            common: Common::new(title.into()),
            x: AxisSpec::default(),
            series: Vec::new(),
            cycle_dashes: false,
        }
    }

    common_builders!();
    legend_builder!();

    /// Adds a series.
    pub fn series(mut self, series: Series) -> LinePlot {
        self.series.push(series);
        self
    }

    /// Fixes the lower end of the horizontal axis.
    pub fn x_min(mut self, v: f64) -> LinePlot {
        self.x.min = Some(v);
        self
    }

    /// Fixes the upper end of the horizontal axis.
    pub fn x_max(mut self, v: f64) -> LinePlot {
        self.x.max = Some(v);
        self
    }

    /// Fixes both ends of the horizontal axis.
    pub fn x_range(self, lo: f64, hi: f64) -> LinePlot {
        self.x_min(lo).x_max(hi)
    }

    /// Makes the horizontal axis logarithmic (base 10). Values ≤ 0 are skipped.
    pub fn log_x(mut self) -> LinePlot {
        self.x.log = true;
        self
    }

    /// Gives series `i` the dash pattern `i % 4` (solid, dashed, dotted, dash-dot), so curves
    /// stay distinguishable in greyscale.
    pub fn cycle_dashes(mut self) -> LinePlot {
        self.cycle_dashes = true;
        self
    }

    /// The number of points that cannot be drawn: non-finite coordinates, and coordinates
    /// ≤ 0 on a logarithmic axis.
    pub fn skipped(&self) -> usize {
        self.valid_points().1
    }

    fn valid_points(&self) -> (Vec<Vec<(f64, f64)>>, usize) {
        let mut skipped = 0;
        let mut all = Vec::with_capacity(self.series.len());
        for s in &self.series {
            let mut v = Vec::with_capacity(s.points.len());
            for &(x, y) in &s.points {
                if placeable(x, self.x.log) && placeable(y, self.common.y.log) {
                    v.push((x, y));
                } else {
                    skipped += 1;
                }
            }
            all.push(v);
        }
        (all, skipped)
    }

    fn style(&self, i: usize) -> (String, Dash) {
        let s = &self.series[i];
        let colour = series_colour(s.colour.as_deref(), i);
        let auto = if self.cycle_dashes {
            Dash::CYCLE[(i + i / PALETTE.len()) % 4]
        } else {
            Dash::CYCLE[(i / PALETTE.len()) % 4]
        };
        (colour, s.dash.unwrap_or(auto))
    }

    /// Renders the plot.
    pub fn to_svg(&self) -> String {
        let c = &self.common;
        let (data, skipped) = self.valid_points();
        let x_data = min_max(data.iter().flatten().map(|p| p.0));
        let y_data = min_max(data.iter().flatten().map(|p| p.1));
        let styles: Vec<(String, Dash)> = (0..self.series.len()).map(|i| self.style(i)).collect();
        let entries = legend_entries(self.series.iter().zip(&styles).map(|(s, (colour, dash))| {
            let swatch = Swatch::Line {
                colour: colour.clone(),
                dash: *dash,
            };
            (s.name.as_str(), swatch)
        }));
        let x_src = XSource::Numeric {
            spec: &self.x,
            data: x_data,
        };
        let make = |legend_width: Option<f64>| {
            let plan = plan(c, &x_src, y_data, false, legend_width);
            let pixels: Vec<SeriesPixels> = data
                .iter()
                .zip(&self.series)
                .map(|(pts, s)| series_pixels(pts, s, &plan))
                .collect();
            (plan, pixels)
        };
        let hits = |pixels: &Vec<SeriesPixels>, r: &Rect| pixels.iter().any(|p| p.hits(r));
        let (plan, pixels, legend_at) = place_legend(c.legend, &entries, make, hits);

        let mut svg = Svg::begin(c.width, c.height, skipped);
        draw_grid(&mut svg, &plan);
        for (p, (colour, dash)) in pixels.iter().zip(&styles) {
            let colour = escape(colour);
            if !p.subpaths.is_empty() {
                let mut d = String::new();
                for sp in &p.subpaths {
                    write_subpath(&mut d, sp);
                }
                let attrs = format!(
                    r#" fill="none" stroke="{colour}" stroke-width="{}" stroke-linejoin="round"{}"#,
                    fmt_coord(LINE_WIDTH),
                    dash.attribute()
                );
                svg.path("series", &d, &attrs);
            }
            for &(x, y) in &p.markers {
                let _ = writeln!(
                    svg.s,
                    "<circle class=\"marker\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{colour}\"/>",
                    fmt_hundredths(x),
                    fmt_hundredths(y)
                );
            }
        }
        let no_data = data.iter().all(Vec::is_empty);
        svg.finish(c, &plan, no_data, &entries, legend_at)
    }
}

// ---------------------------------------------------------------------------------------------
// Line geometry
// ---------------------------------------------------------------------------------------------

/// A series in pixels (hundredths), clipped to the frame.
struct SeriesPixels {
    subpaths: Vec<Vec<(i64, i64)>>,
    markers: Vec<(i64, i64)>,
}

impl SeriesPixels {
    fn hits(&self, r: &Rect) -> bool {
        let px = |(x, y): (i64, i64)| (x as f64 / 100.0, y as f64 / 100.0);
        self.subpaths.iter().any(|sp| {
            sp.windows(2)
                .any(|w| clip_segment(px(w[0]), px(w[1]), r).is_some())
        }) || self.markers.iter().any(|&m| r.grow(3.0).contains(px(m)))
    }
}

fn series_pixels(points: &[(f64, f64)], s: &Series, plan: &Plan) -> SeriesPixels {
    let mut px: Vec<(f64, f64)> = Vec::with_capacity(points.len() * if s.step { 2 } else { 1 });
    for (i, &(x, y)) in points.iter().enumerate() {
        if s.step && i > 0 {
            let prev_y = points[i - 1].1;
            px.push((plan.x_px(x), plan.y_px(prev_y)));
        }
        px.push((plan.x_px(x), plan.y_px(y)));
    }
    let f = &plan.frame;
    let mut subpaths = Vec::new();
    let mut cur: Vec<(i64, i64)> = Vec::new();
    for w in px.windows(2) {
        match clip_segment(w[0], w[1], f) {
            None => flush(&mut subpaths, &mut cur),
            Some((p, q)) => {
                let (p, q) = (hundredths(p), hundredths(q));
                if cur.last() != Some(&p) {
                    flush(&mut subpaths, &mut cur);
                    cur.push(p);
                }
                push_point(&mut cur, q);
            }
        }
    }
    flush(&mut subpaths, &mut cur);
    let markers = if s.markers || points.len() == 1 {
        px.iter()
            .filter(|&&p| f.contains(p))
            .map(|&p| hundredths(p))
            .collect()
    } else {
        Vec::new()
    };
    SeriesPixels { subpaths, markers }
}

fn hundredths((x, y): (f64, f64)) -> (i64, i64) {
    (
        (clamp_px(x) * 100.0).round() as i64,
        (clamp_px(y) * 100.0).round() as i64,
    )
}

fn flush(out: &mut Vec<Vec<(i64, i64)>>, cur: &mut Vec<(i64, i64)>) {
    if cur.len() >= 2 {
        out.push(std::mem::take(cur));
    } else {
        cur.clear();
    }
}

/// Vertices closer than this (in hundredths of a pixel) to the previous kept vertex are
/// merged away.
const MERGE_HUNDREDTHS: i128 = 20;

/// Appends `p`, dropping repeats, merging collinear runs in the same direction (lossless at
/// the 0.01 px resolution of the output), and replacing the last vertex by `p` while the
/// last vertex is within 0.2 px of the one before it: every dropped point lies within
/// 0.2 px of the drawn line, the first and the last point of a subpath are kept exactly, and
/// a 200,000-point series costs a few thousand vertices instead of megabytes.
fn push_point(cur: &mut Vec<(i64, i64)>, p: (i64, i64)) {
    let n = cur.len();
    if n >= 1 && cur[n - 1] == p {
        return;
    }
    if n >= 2 {
        let (a, b) = (cur[n - 2], cur[n - 1]);
        let (ux, uy) = (i128::from(b.0 - a.0), i128::from(b.1 - a.1));
        let (vx, vy) = (i128::from(p.0 - b.0), i128::from(p.1 - b.1));
        if ux * vy - uy * vx == 0 && ux * vx + uy * vy > 0 {
            cur[n - 1] = p;
            return;
        }
        if ux * ux + uy * uy < MERGE_HUNDREDTHS * MERGE_HUNDREDTHS {
            cur[n - 1] = p;
            return;
        }
    }
    cur.push(p);
}

fn write_subpath(d: &mut String, sp: &[(i64, i64)]) {
    for (i, &(x, y)) in sp.iter().enumerate() {
        match i {
            0 => d.push('M'),
            1 => d.push('L'),
            _ => d.push(' '),
        }
        let _ = write!(d, "{},{}", fmt_hundredths(x), fmt_hundredths(y));
    }
}

/// The part of segment `a`–`b` inside `r` (Liang–Barsky), if any.
fn clip_segment(a: (f64, f64), b: (f64, f64), r: &Rect) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - r.x0),
        (dx, r.x1 - a.0),
        (-dy, a.1 - r.y0),
        (dy, r.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                if t > t1 {
                    return None;
                }
                t0 = t0.max(t);
            } else {
                if t < t0 {
                    return None;
                }
                t1 = t1.min(t);
            }
        }
    }
    Some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::plot::testing::{
        assert_never_break, attr_f64, count, examples_dir, find_class, parse, texts,
    };

    /// Kluiver-style cumulative curves: 7 factors, the last a staircase.
    fn kluiver() -> LinePlot {
        let mut p = LinePlot::new("4×4 board, 3 ice blocks")
            .x_label("normalised difficulty")
            .y_label("reachable states (cumulative)")
            .x_range(0.0, 1.0);
        for (k, factor) in [0, 1, 2, 3, 4, 5, 100].into_iter().enumerate() {
            let pts: Vec<(f64, f64)> = (0..=40)
                .map(|i| {
                    let x = f64::from(i) / 40.0;
                    let y = 560.0 * x.powf(1.0 + 0.3 * k as f64);
                    if factor == 100 {
                        ((x * 8.0).floor() / 8.0, y.round())
                    } else {
                        (x, y.round())
                    }
                })
                .collect();
            let s = Series::new(format!("factor {factor}"), pts);
            p = p.series(if factor == 100 { s.step() } else { s });
        }
        p
    }

    #[test]
    fn line_plot_structure() {
        let p = kluiver();
        let svg = p.to_svg();
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some("720"));
        assert_eq!(root.attribute("viewBox"), Some("0 0 720 480"));
        assert_eq!(count(&doc, "path", "series"), 7);
        assert_eq!(count(&doc, "path", "legend-line"), 7);
        assert_eq!(count(&doc, "rect", "legend"), 1);
        assert_eq!(count(&doc, "rect", "frame"), 1);
        assert_eq!(count(&doc, "rect", "background"), 1);
        let t = texts(&doc);
        for f in [0, 1, 2, 3, 4, 5, 100] {
            assert!(t.contains(&format!("factor {f}")), "{t:?}");
        }
        for s in [
            "4×4 board, 3 ice blocks",
            "normalised difficulty",
            "reachable states (cumulative)",
        ] {
            assert!(t.iter().any(|x| x == s), "{s}");
        }
        for s in ["0.0", "0.2", "1.0", "0", "100", "600"] {
            assert!(t.iter().any(|x| x == s), "tick {s} in {t:?}");
        }
        assert_eq!(p.skipped(), 0);
        assert!(!svg.contains("<!--"));
        // The staircase has only horizontal and vertical pieces.
        let stair = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("series"))
            .nth(6)
            .unwrap();
        let d = stair.attribute("d").unwrap();
        let pts: Vec<(f64, f64)> = d
            .split(['M', 'L', ' '])
            .filter(|s| !s.is_empty())
            .map(|s| {
                let (x, y) = s.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert!(pts.len() > 4);
        for w in pts.windows(2) {
            assert!(w[0].0 == w[1].0 || w[0].1 == w[1].1, "{w:?}");
        }
        // Data coordinates map into the frame: (0, 0) is the bottom left corner.
        let frame = find_class(&doc, "frame");
        let (fx, fy, fh) = (
            attr_f64(&frame, "x"),
            attr_f64(&frame, "y"),
            attr_f64(&frame, "height"),
        );
        assert_eq!(pts[0], (fx, fy + fh));
    }

    #[test]
    fn step_goes_horizontal_then_vertical() {
        let p = LinePlot::new("")
            .x_range(0.0, 10.0)
            .y_range(0.0, 10.0)
            .legend(Legend::Hidden)
            .series(Series::new("s", vec![(2.0, 2.0), (4.0, 6.0), (8.0, 8.0)]).step());
        let plan = plan(
            &p.common,
            &XSource::Numeric {
                spec: &p.x,
                data: None,
            },
            None,
            false,
            None,
        );
        let px = series_pixels(&p.series[0].points, &p.series[0], &plan);
        let expect: Vec<(i64, i64)> = [(2.0, 2.0), (4.0, 2.0), (4.0, 6.0), (8.0, 6.0), (8.0, 8.0)]
            .iter()
            .map(|&(x, y)| hundredths((plan.x_px(x), plan.y_px(y))))
            .collect();
        assert_eq!(px.subpaths, vec![expect]);
    }

    #[test]
    fn dense_series_are_simplified_within_tolerance() {
        let pts: Vec<(f64, f64)> = (0..20_000)
            .map(|i| {
                let x = f64::from(i) / 20_000.0;
                (x, (x * 4.0).sin() + 0.0002 * f64::from(i % 7))
            })
            .collect();
        let s = Series::new("dense", pts.clone()).step();
        let p = LinePlot::new("").legend(Legend::Hidden).series(s.clone());
        let plan = plan(
            &p.common,
            &XSource::Numeric {
                spec: &p.x,
                data: min_max(pts.iter().map(|q| q.0)),
            },
            min_max(pts.iter().map(|q| q.1)),
            false,
            None,
        );
        let px = series_pixels(&pts, &s, &plan);
        assert_eq!(px.subpaths.len(), 1);
        let path: Vec<(f64, f64)> = px.subpaths[0]
            .iter()
            .map(|&(x, y)| (x as f64 / 100.0, y as f64 / 100.0))
            .collect();
        // About one vertex per 0.2 px of drawn length (~1,200 px here), not one per point.
        assert!(path.len() < 8000, "{} vertices", path.len());
        let first = hundredths((plan.x_px(pts[0].0), plan.y_px(pts[0].1)));
        let last = pts[pts.len() - 1];
        let last = hundredths((plan.x_px(last.0), plan.y_px(last.1)));
        assert_eq!(
            (px.subpaths[0][0], *px.subpaths[0].last().unwrap()),
            (first, last)
        );
        let dist = |q: (f64, f64), a: (f64, f64), b: (f64, f64)| {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let l2 = dx * dx + dy * dy;
            let t = if l2 == 0.0 {
                0.0
            } else {
                (((q.0 - a.0) * dx + (q.1 - a.1) * dy) / l2).clamp(0.0, 1.0)
            };
            ((q.0 - a.0 - t * dx).powi(2) + (q.1 - a.1 - t * dy).powi(2)).sqrt()
        };
        for (i, &(x, y)) in pts.iter().enumerate() {
            let q = (plan.x_px(x), plan.y_px(y));
            let d = path
                .windows(2)
                .map(|w| dist(q, w[0], w[1]))
                .fold(f64::INFINITY, f64::min);
            assert!(d <= 0.215, "point {i} is {d} px from the line");
        }
    }

    #[test]
    fn escaping() {
        let title = "a <&> \"b\" 'c' \u{0}\u{1b}";
        let svg = LinePlot::new(title)
            .x_label("x < 1 & y > 2")
            .series(
                Series::new("<script>", vec![(0.0, 1.0), (1.0, 2.0)]).colour("red\" onload=\"x"),
            )
            .to_svg();
        let doc = parse(&svg);
        let t = texts(&doc);
        assert!(
            t.contains(&"a <&> \"b\" 'c' \u{FFFD}\u{FFFD}".to_string()),
            "{t:?}"
        );
        assert!(t.contains(&"x < 1 & y > 2".to_string()));
        assert!(t.contains(&"<script>".to_string()));
        let series = find_class(&doc, "series");
        assert_eq!(series.attribute("stroke"), Some("red\" onload=\"x"));
        assert!(series.attribute("onload").is_none());
    }

    #[test]
    fn deterministic() {
        assert_eq!(kluiver().to_svg(), kluiver().to_svg());
    }

    #[test]
    fn edge_cases_never_break() {
        let plots = vec![
            LinePlot::new("").to_svg(),
            LinePlot::new("empty")
                .series(Series::new("e", vec![]))
                .to_svg(),
            LinePlot::new("one")
                .series(Series::new("p", vec![(3.0, 4.0)]))
                .to_svg(),
            LinePlot::new("flat")
                .series(Series::new("f", vec![(1.0, 5.0), (2.0, 5.0), (3.0, 5.0)]))
                .to_svg(),
            LinePlot::new("vertical")
                .series(Series::new("v", vec![(1.0, 5.0), (1.0, 6.0)]))
                .to_svg(),
            LinePlot::new("reversed")
                .x_range(1.0, 0.0)
                .y_range(3.0, 3.0)
                .series(Series::new("r", vec![(0.0, 1.0), (1.0, 2.0)]))
                .to_svg(),
            LinePlot::new("outside")
                .x_range(0.0, 1.0)
                .y_range(0.0, 1.0)
                .series(Series::new(
                    "o",
                    vec![(-5.0, -5.0), (5.0, 5.0), (50.0, -1e300)],
                ))
                .to_svg(),
            LinePlot::new("tiny")
                .size(0, 0)
                .series(Series::new("t", vec![(0.0, 1.0)]))
                .to_svg(),
            LinePlot::new("log nothing")
                .log_y()
                .log_x()
                .y_min(-1.0)
                .to_svg(),
        ];
        assert_never_break(plots, |a, b| {
            vec![
                LinePlot::new("nasty")
                    .series(
                        Series::new("n", vec![(a, b), (b, a), (1.0, 2.0)])
                            .step()
                            .markers(),
                    )
                    .to_svg(),
                LinePlot::new("nasty")
                    .log_y()
                    .series(Series::new("n", vec![(a, b), (b, a)]))
                    .to_svg(),
                LinePlot::new("range")
                    .x_range(a, b)
                    .y_range(b, a)
                    .series(Series::new("n", vec![(0.0, 1.0), (2.0, 3.0)]))
                    .to_svg(),
            ]
        });
        // "no data" when nothing can be drawn.
        let svg = LinePlot::new("")
            .series(Series::new("e", vec![(f64::NAN, 1.0)]))
            .to_svg();
        assert_eq!(count(&parse(&svg), "text", "no-data"), 1);
        let svg = LinePlot::new("one")
            .series(Series::new("p", vec![(3.0, 4.0)]))
            .to_svg();
        let doc = parse(&svg);
        assert_eq!(count(&doc, "circle", "marker"), 1);
        assert_eq!(count(&doc, "text", "no-data"), 0);
    }

    #[test]
    fn clipping_to_fixed_ranges() {
        let svg = LinePlot::new("clip")
            .x_range(0.0, 1.0)
            .y_range(0.0, 1.0)
            .series(Series::new(
                "s",
                vec![(-1.0, 0.5), (2.0, 0.5), (2.0, 2.0), (0.5, 2.0), (0.5, -3.0)],
            ))
            .to_svg();
        let doc = parse(&svg);
        let frame = find_class(&doc, "frame");
        let (x0, y0) = (attr_f64(&frame, "x"), attr_f64(&frame, "y"));
        let (x1, y1) = (
            x0 + attr_f64(&frame, "width"),
            y0 + attr_f64(&frame, "height"),
        );
        let d = find_class(&doc, "series")
            .attribute("d")
            .unwrap()
            .to_string();
        assert_eq!(d.matches('M').count(), 2, "{d}");
        for s in d.split(['M', 'L', ' ']).filter(|s| !s.is_empty()) {
            let (x, y) = s.split_once(',').unwrap();
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert!(
                x >= x0 - 0.01 && x <= x1 + 0.01 && y >= y0 - 0.01 && y <= y1 + 0.01,
                "{s}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn random_input_gives_valid_svg(
            pts in proptest::collection::vec((proptest::num::f64::ANY, proptest::num::f64::ANY), 0..40),
            log in proptest::bool::ANY,
            step in proptest::bool::ANY,
        ) {
            let mut s = Series::new("p", pts);
            if step { s = s.step(); }
            let mut p = LinePlot::new("random").series(s);
            if log { p = p.log_y(); }
            let svg = p.to_svg();
            proptest::prop_assert!(roxmltree::Document::parse(&svg).is_ok());
            proptest::prop_assert!(!svg.contains("NaN") && !svg.contains("inf"));
        }
    }

    /// Writes two line plots to [`examples_dir`].
    #[test]
    #[ignore]
    fn write_examples() {
        let dir = examples_dir();
        kluiver().save(dir.join("floe-line.svg")).unwrap();
        let mut log = LinePlot::new("Reachable states by pushes (log scale)")
            .x_label("pushes")
            .y_label("states")
            .log_y()
            .cycle_dashes();
        for k in 1..=4 {
            log = log.series(Series::new(
                format!("{k} blocks"),
                (0..=30)
                    .map(move |i| (f64::from(i), (1.0 + f64::from(i)).powf(1.2 * f64::from(k)))),
            ));
        }
        log.save(dir.join("floe-line-log.svg")).unwrap();
    }
}
