//! Box-and-whisker plots: [`BoxPlot`], one box per named group of raw samples, with the
//! statistics behind it ([`box_stats`], [`quantile`]) and the whisker rules ([`Whiskers`]).

use std::fmt::Write as _;

use super::draw::{draw_grid, h_line, Svg};
use super::layout::{plan, Rect, XSource};
use super::{
    format_number, min_max, palette_colour, placeable, shorten, Common, FRAME_COLOUR,
    MAX_CATEGORY_CHARS,
};
use crate::render::svg::fmt_coord;

/// How the whiskers of a [`BoxPlot`] are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Whiskers {
    /// Tukey's rule: whiskers reach the most extreme samples within 1.5 × IQR of the box;
    /// samples beyond are outliers, drawn as dots.
    #[default]
    Tukey,
    /// Whiskers reach the minimum and the maximum; no outliers.
    MinMax,
}

/// Summary statistics of one group of a [`BoxPlot`]; see [`box_stats`].
#[derive(Clone, Debug, PartialEq)]
pub struct BoxStats {
    /// Number of samples used (finite ones).
    pub n: usize,
    /// Smallest sample.
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Largest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Lower end of the lower whisker.
    pub whisker_lo: f64,
    /// Upper end of the upper whisker.
    pub whisker_hi: f64,
    /// Samples beyond the whiskers, ascending (with repetitions).
    pub outliers: Vec<f64>,
}

/// The `p`-quantile (0 ≤ p ≤ 1, clamped) of ascending `sorted` samples by linear interpolation
/// between order statistics: with h = (n − 1)·p, the value x⌊h⌋ + (h − ⌊h⌋)(x⌊h⌋+1 − x⌊h⌋)
/// (Hyndman & Fan's type 7, the default of R and NumPy). NaN for no samples.
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let p = if p.is_nan() { 0.5 } else { p.clamp(0.0, 1.0) };
    let h = (n - 1) as f64 * p;
    let i = (h.floor() as usize).min(n - 1);
    let frac = h - i as f64;
    match sorted.get(i + 1) {
        Some(&next) if frac > 0.0 => sorted[i] + frac * (next - sorted[i]),
        _ => sorted[i],
    }
}

/// Box-plot statistics of the finite `samples` (others are ignored); `None` when there are
/// none. Quartiles and median by [`quantile`] (type 7). With [`Whiskers::Tukey`] the whiskers
/// end at the most extreme samples within [q1 − 1.5·IQR, q3 + 1.5·IQR] and the samples
/// outside are outliers; with [`Whiskers::MinMax`] they end at the minimum and maximum.
pub fn box_stats(samples: &[f64], whiskers: Whiskers) -> Option<BoxStats> {
    let mut v: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let (q1, median, q3) = (quantile(&v, 0.25), quantile(&v, 0.5), quantile(&v, 0.75));
    // Mean without overflow for huge samples: average of x/n.
    let mean = v.iter().map(|x| x / n as f64).sum::<f64>();
    let (min, max) = (v[0], v[n - 1]);
    let (whisker_lo, whisker_hi, outliers) = match whiskers {
        Whiskers::MinMax => (min, max, Vec::new()),
        Whiskers::Tukey => {
            let iqr = q3 - q1;
            let (lo_fence, hi_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
            let inside = |x: &&f64| **x >= lo_fence && **x <= hi_fence;
            let lo = v.iter().find(inside).copied().unwrap_or(q1);
            let hi = v.iter().rev().find(inside).copied().unwrap_or(q3);
            let outliers = v
                .iter()
                .copied()
                .filter(|x| *x < lo_fence || *x > hi_fence)
                .collect();
            (lo, hi, outliers)
        }
    };
    Some(BoxStats {
        n,
        min,
        q1,
        median,
        q3,
        max,
        mean,
        whisker_lo,
        whisker_hi,
        outliers,
    })
}

/// Box-and-whisker plots, one per named group of raw samples, side by side.
///
/// Each box spans the quartiles with a line at the median; whiskers and outliers follow
/// [`Whiskers`] (default Tukey, 1.5 × IQR); statistics as in [`box_stats`]. Outliers are drawn
/// as hollow dots, one per distinct value. [`BoxPlot::mean`] adds a diamond at the mean. A
/// group without drawable samples keeps its place and label but draws nothing.
#[derive(Clone, Debug)]
pub struct BoxPlot {
    common: Common,
    groups: Vec<(String, Vec<f64>)>,
    whiskers: Whiskers,
    mean: bool,
    counts: bool,
}

impl BoxPlot {
    /// An empty plot with this title.
    pub fn new(title: impl Into<String>) -> BoxPlot {
        BoxPlot {
            common: Common::new(title.into()),
            groups: Vec::new(),
            whiskers: Whiskers::Tukey,
            mean: false,
            counts: false,
        }
    }

    common_builders!();

    /// Adds a group.
    pub fn group(
        mut self,
        name: impl Into<String>,
        samples: impl IntoIterator<Item = f64>,
    ) -> BoxPlot {
        self.groups
            .push((name.into(), samples.into_iter().collect()));
        self
    }

    /// Chooses the whisker rule (default [`Whiskers::Tukey`]).
    pub fn whiskers(mut self, whiskers: Whiskers) -> BoxPlot {
        self.whiskers = whiskers;
        self
    }

    /// Marks each group's mean with a diamond.
    pub fn mean(mut self) -> BoxPlot {
        self.mean = true;
        self
    }

    /// Writes the number of samples ("n = 25") under each group's label.
    pub fn counts(mut self) -> BoxPlot {
        self.counts = true;
        self
    }

    /// The number of samples that cannot be drawn (non-finite; ≤ 0 on a log axis).
    pub fn skipped(&self) -> usize {
        self.stats().1
    }

    fn stats(&self) -> (Vec<Option<BoxStats>>, usize) {
        let log = self.common.y.log;
        let mut skipped = 0;
        let stats = self
            .groups
            .iter()
            .map(|(_, samples)| {
                let ok: Vec<f64> = samples
                    .iter()
                    .copied()
                    .filter(|&v| placeable(v, log))
                    .collect();
                skipped += samples.len() - ok.len();
                box_stats(&ok, self.whiskers)
            })
            .collect();
        (stats, skipped)
    }

    /// Renders the plot.
    pub fn to_svg(&self) -> String {
        let c = &self.common;
        let (stats, skipped) = self.stats();
        let labels: Vec<String> = self
            .groups
            .iter()
            .map(|(name, _)| shorten(name, MAX_CATEGORY_CHARS))
            .collect();
        let sublabels: Vec<String> = if self.counts {
            stats
                .iter()
                .map(|s| {
                    format!(
                        "n = {}",
                        format_number(s.as_ref().map_or(0, |s| s.n) as f64)
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        let y_data = min_max(stats.iter().flatten().flat_map(|s| [s.min, s.max]));
        let x_src = XSource::Categories {
            labels: &labels,
            sublabels: &sublabels,
        };
        let plan = plan(c, &x_src, y_data, false, None);
        let f = &plan.frame;
        let mut svg = Svg::begin(c.width, c.height, skipped);
        draw_grid(&mut svg, &plan);
        let n = self.groups.len().max(1);
        let band = f.width() / n as f64;
        let box_w = (band * 0.5).min(80.0);
        let clamp_y = |v: f64| plan.y_px(v).clamp(f.y0, f.y1);
        for (i, s) in stats.iter().enumerate() {
            let Some(s) = s else { continue };
            let cx = f.x0 + band * (i as f64 + 0.5);
            let colour = palette_colour(i);
            let (bx0, bx1) = (cx - box_w / 2.0, cx + box_w / 2.0);
            let (cap0, cap1) = (cx - box_w / 4.0, cx + box_w / 4.0);
            let (yq1, yq3) = (clamp_y(s.q1), clamp_y(s.q3));
            let (ylo, yhi) = (clamp_y(s.whisker_lo), clamp_y(s.whisker_hi));
            let d = format!(
                "M{cx},{yq1}V{ylo}M{cap0},{ylo}H{cap1}M{cx},{yq3}V{yhi}M{cap0},{yhi}H{cap1}",
                cx = fmt_coord(cx),
                yq1 = fmt_coord(yq1),
                yq3 = fmt_coord(yq3),
                ylo = fmt_coord(ylo),
                yhi = fmt_coord(yhi),
                cap0 = fmt_coord(cap0),
                cap1 = fmt_coord(cap1),
            );
            svg.path(
                "whisker",
                &d,
                &format!(r#" fill="none" stroke="{FRAME_COLOUR}" stroke-width="1.2""#),
            );
            let r = Rect {
                x0: bx0,
                x1: bx1,
                y0: yq3.min(yq1),
                y1: yq3.max(yq1),
            };
            svg.rect(
                "box",
                &r,
                &format!(
                    r#" fill="{colour}" fill-opacity="0.35" stroke="{FRAME_COLOUR}" stroke-width="1.2""#
                ),
            );
            let ym = clamp_y(s.median);
            svg.path(
                "median",
                &h_line(bx0, ym, bx1),
                r##" fill="none" stroke="#000000" stroke-width="2.4""##,
            );
            let mut last: Option<f64> = None;
            for &o in &s.outliers {
                if last == Some(o) {
                    continue;
                }
                last = Some(o);
                let y = plan.y_px(o);
                if y < f.y0 || y > f.y1 {
                    continue;
                }
                let _ = writeln!(
                    svg.s,
                    "<circle class=\"outlier\" cx=\"{}\" cy=\"{}\" r=\"2.8\" fill=\"none\" stroke=\"{FRAME_COLOUR}\" stroke-width=\"1.1\"/>",
                    fmt_coord(cx),
                    fmt_coord(y)
                );
            }
            if self.mean {
                let y = plan.y_px(s.mean);
                if y >= f.y0 && y <= f.y1 {
                    let r = (box_w / 8.0).clamp(2.5, 5.0);
                    let d = format!(
                        "M{},{}L{},{} {},{} {},{}Z",
                        fmt_coord(cx),
                        fmt_coord(y - r),
                        fmt_coord(cx + r),
                        fmt_coord(y),
                        fmt_coord(cx),
                        fmt_coord(y + r),
                        fmt_coord(cx - r),
                        fmt_coord(y)
                    );
                    svg.path(
                        "mean",
                        &d,
                        r##" fill="#ffffff" stroke="#000000" stroke-width="1.2""##,
                    );
                }
            }
        }
        let no_data = stats.iter().all(Option::is_none);
        svg.finish(c, &plan, no_data, &[], None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::plot::testing::{
        assert_never_break, attr_f64, count, examples_dir, find_class, parse, texts,
    };

    #[test]
    fn quantiles_and_box_stats() {
        let v: Vec<f64> = (1..=9).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.25), 3.0);
        assert_eq!(quantile(&v, 0.5), 5.0);
        assert_eq!(quantile(&v, 0.75), 7.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.25), 1.75);
        assert_eq!(quantile(&[5.0], 0.9), 5.0);
        assert!(quantile(&[], 0.5).is_nan());
        let s = box_stats(&[1.0, 2.0, 3.0, 4.0, 5.0, 100.0, f64::NAN], Whiskers::Tukey).unwrap();
        assert_eq!(s.n, 6);
        assert_eq!((s.q1, s.median, s.q3), (2.25, 3.5, 4.75));
        assert_eq!((s.whisker_lo, s.whisker_hi), (1.0, 5.0));
        assert_eq!(s.outliers, vec![100.0]);
        assert_eq!(s.mean, 115.0 / 6.0);
        let m = box_stats(&[1.0, 2.0, 3.0, 4.0, 5.0, 100.0], Whiskers::MinMax).unwrap();
        assert_eq!((m.whisker_lo, m.whisker_hi), (1.0, 100.0));
        assert!(m.outliers.is_empty());
        assert!(box_stats(&[f64::NAN], Whiskers::Tukey).is_none());
    }

    #[test]
    fn box_plots() {
        let p = BoxPlot::new("solution lengths")
            .y_label("moves")
            .group(
                "shuffled",
                vec![10.0, 12.0, 13.0, 14.0, 15.0, 15.0, 16.0, 30.0, 31.0],
            )
            .group("banded", vec![8.0, 9.0, 9.0, 10.0, 11.0, 12.0])
            .group("empty", vec![])
            .mean()
            .counts();
        let svg = p.to_svg();
        let doc = parse(&svg);
        assert_eq!(count(&doc, "rect", "box"), 2);
        assert_eq!(count(&doc, "path", "median"), 2);
        assert_eq!(count(&doc, "path", "whisker"), 2);
        assert_eq!(count(&doc, "path", "mean"), 2);
        // 30 and 31 are beyond q3 + 1.5 IQR = 16 + 1.5 * 3 = 20.5.
        assert_eq!(count(&doc, "circle", "outlier"), 2);
        let t = texts(&doc);
        for s in [
            "solution lengths",
            "moves",
            "shuffled",
            "banded",
            "empty",
            "n = 9",
            "n = 6",
            "n = 0",
        ] {
            assert!(t.iter().any(|x| x == s), "{s} in {t:?}");
        }
        let mm = p.clone().whiskers(Whiskers::MinMax).to_svg();
        assert_eq!(count(&parse(&mm), "circle", "outlier"), 0);
        // The median line sits between the box edges.
        let b = find_class(&doc, "box");
        let (y, h) = (attr_f64(&b, "y"), attr_f64(&b, "height"));
        let d = find_class(&doc, "median")
            .attribute("d")
            .unwrap()
            .to_string();
        let my: f64 = d
            .split(',')
            .nth(1)
            .unwrap()
            .split('H')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(my > y && my < y + h);
    }

    #[test]
    fn escaping() {
        let bx = BoxPlot::new("<&>").group("<g>", vec![1.0, 2.0]).to_svg();
        let t = texts(&parse(&bx));
        assert!(t.iter().any(|x| x == "<g>"));
    }

    #[test]
    fn deterministic() {
        let bx = || {
            BoxPlot::new("b")
                .group("x", (0..50).map(|i| f64::from(i % 7)))
                .mean()
                .to_svg()
        };
        assert_eq!(bx(), bx());
    }

    #[test]
    fn edge_cases_never_break() {
        let plots = vec![
            BoxPlot::new("").to_svg(),
            BoxPlot::new("empty group").group("e", vec![]).to_svg(),
            BoxPlot::new("one")
                .group("o", vec![7.0])
                .counts()
                .mean()
                .to_svg(),
            BoxPlot::new("same").group("s", vec![2.0; 10]).to_svg(),
        ];
        assert_never_break(plots, |a, b| {
            vec![
                BoxPlot::new("nasty")
                    .group("n", vec![a, b, 1.0])
                    .mean()
                    .to_svg(),
                BoxPlot::new("nasty")
                    .log_y()
                    .y_range(a, b)
                    .group("n", vec![a, b, 1.0])
                    .to_svg(),
            ]
        });
    }

    /// Writes a box plot to [`examples_dir`].
    #[test]
    #[ignore]
    fn write_examples() {
        let dir = examples_dir();
        let lcg = |seed: u64| {
            let mut s = seed;
            move || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 33) as f64 / f64::from(1u32 << 31)
            }
        };
        let mut r = lcg(7);
        let mut sample = |centre: f64, spread: f64| -> Vec<f64> {
            (0..200)
                .map(|_| {
                    (centre
                        + spread * (r() + r() + r() - 1.5) * 2.0
                        + if r() < 0.03 { 25.0 } else { 0.0 })
                    .round()
                })
                .collect()
        };
        BoxPlot::new("Minimum solution length per setup, (4, 8)")
            .x_label("setup algorithm")
            .y_label("moves")
            .group("Shuffled", sample(20.0, 5.0))
            .group("Banded Suits", sample(15.0, 4.0))
            .group("Cascading Suits", sample(18.0, 3.0))
            .group("Random Rows", sample(22.0, 6.0))
            .mean()
            .counts()
            .save(dir.join("floe-box.svg"))
            .unwrap();
    }
}
