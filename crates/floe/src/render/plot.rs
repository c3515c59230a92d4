//! A small SVG plot writer: line plots, histograms, box-and-whisker plots, heat maps.
//!
//! Four builders, one per kind of figure, all rendering to a self-contained SVG string:
//!
//! - [`LinePlot`]: named [`Series`] of `(x, y)` points drawn as lines, optionally as step
//!   functions (cumulative counts), optionally with a logarithmic axis.
//! - [`BarChart`]: values per category (or integer bin), several [`BarSeries`] side by side
//!   or stacked: histograms of counts per number of pushes.
//! - [`BoxPlot`]: one box-and-whisker per named group of raw samples (see [`box_stats`] for
//!   the exact statistics).
//! - [`HeatMap`]: a grid of categories coloured by value with a colour bar (how boards spread
//!   over two measures at once).
//!
//! ```
//! use floe::render::plot::{LinePlot, Series};
//!
//! let svg = LinePlot::new("4×4 board, 3 ice blocks")
//!     .x_label("normalised difficulty")
//!     .y_label("reachable states (cumulative)")
//!     .series(Series::new("factor 0", vec![(0.0, 1.0), (0.5, 40.0), (1.0, 120.0)]))
//!     .series(Series::new("factor 100", vec![(0.0, 1.0), (0.5, 25.0), (1.0, 120.0)]).step())
//!     .to_svg();
//! assert!(svg.starts_with("<svg"));
//! ```
//!
//! Conventions shared by all three:
//!
//! - **No failure, no panic.** Rendering always produces a well-formed SVG. Values that cannot
//!   be placed (NaN, ±infinity, and values ≤ 0 on a logarithmic axis) are *skipped*; their
//!   number is returned by `skipped()` and written into the SVG as a comment. Plots without
//!   any drawable value show their axes and the words "no data".
//! - **Determinism.** The same input gives a byte-identical SVG: only vectors are iterated, and
//!   every coordinate is written with at most two decimals (trailing zeros trimmed).
//! - **Size.** Lines are clipped at the frame, and vertices closer than 0.2 px to the previous
//!   one are merged (no drawn point moves by more than 0.2 px), so a series of 200,000 points
//!   costs a few thousand vertices.
//! - **Axes.** Automatic ranges are widened to "nice" tick values (1-2-5 steps, see
//!   [`nice_ticks`]); a bound fixed with `y_min`/`y_max` (`x_min`/`x_max`) is used exactly and
//!   the other one stays automatic. A non-finite fixed bound, or one ≤ 0 on a logarithmic axis,
//!   is ignored; reversed bounds are swapped; two equal bounds are ignored. Data outside the
//!   range is clipped at the plot frame. Bar charts always include 0 on a linear axis.
//! - **Text.** All text is XML-escaped; characters XML cannot carry become U+FFFD. Legend
//!   labels longer than 40 characters and category labels longer than 24 are shortened with
//!   "…". Text widths are estimated (DejaVu Sans metrics) to reserve margins; the SVG asks for
//!   `DejaVu Sans, Helvetica, Arial, sans-serif`.
//! - **Numbers** are formatted compactly by [`format_number`]: `1,234`, `1.2 M`, `0.25`.
//! - **Colours** come from the colour-blind-safe Okabe–Ito [`PALETTE`], in order; a colour may
//!   be overridden per series with any CSS colour string.

use std::fmt::Write as _;
use std::path::Path;

use super::svg::{escape, fmt_coord, fmt_hundredths, write_file, FONT_FAMILY, PIXEL_LIMIT};
use crate::Error;

/// The Okabe–Ito colour-blind-safe palette, in the order series receive them (yellow, the
/// hardest to see on white, last). Series `i` gets `PALETTE[i % 8]`.
pub const PALETTE: [&str; 8] = [
    "#0072B2", // blue
    "#D55E00", // vermillion
    "#009E73", // bluish green
    "#CC79A7", // reddish purple
    "#E69F00", // orange
    "#56B4E9", // sky blue
    "#000000", // black
    "#F0E442", // yellow
];

const TITLE_SIZE: f64 = 16.0;
const LABEL_SIZE: f64 = 13.0;
const TICK_SIZE: f64 = 11.0;
const LEGEND_SIZE: f64 = 12.0;
const LEGEND_ROW: f64 = 18.0;
const TEXT_COLOUR: &str = "#222222";
const FRAME_COLOUR: &str = "#444444";
const GRID_COLOUR: &str = "#e3e3e3";
const MINOR_GRID_COLOUR: &str = "#f2f2f2";
const LINE_WIDTH: f64 = 1.8;
/// Bold text is about this much wider than regular text.
const BOLD: f64 = 1.1;
const DEFAULT_WIDTH: u32 = 720;
const DEFAULT_HEIGHT: u32 = 480;
const MAX_LEGEND_CHARS: usize = 40;
const MAX_CATEGORY_CHARS: usize = 24;
/// Data values are clamped to this magnitude when choosing automatic ranges.
const DATA_LIMIT: f64 = 1e300;

// ---------------------------------------------------------------------------------------------
// Public small types
// ---------------------------------------------------------------------------------------------

/// Dash pattern of a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dash {
    /// A continuous line.
    #[default]
    Solid,
    /// Long dashes (`6 4`).
    Dashed,
    /// Dots (`1.5 3`).
    Dotted,
    /// Dash, dot (`7 3 1.5 3`).
    DashDot,
}

impl Dash {
    const CYCLE: [Dash; 4] = [Dash::Solid, Dash::Dashed, Dash::Dotted, Dash::DashDot];

    fn dasharray(self) -> Option<&'static str> {
        match self {
            Dash::Solid => None,
            Dash::Dashed => Some("6 4"),
            Dash::Dotted => Some("1.5 3"),
            Dash::DashDot => Some("7 3 1.5 3"),
        }
    }
}

/// Where the legend goes. Only series with a non-empty name get a legend entry; without
/// entries there is no legend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Legend {
    /// The first inside corner (top right, top left, bottom right, bottom left) where the
    /// legend covers no data; outside on the right when every corner would cover some.
    #[default]
    Auto,
    /// Inside the plot frame, top left.
    TopLeft,
    /// Inside the plot frame, top right.
    TopRight,
    /// Inside the plot frame, bottom left.
    BottomLeft,
    /// Inside the plot frame, bottom right.
    BottomRight,
    /// To the right of the plot frame (the frame gets narrower).
    Outside,
    /// No legend.
    Hidden,
}

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

// ---------------------------------------------------------------------------------------------
// Number formatting and ticks
// ---------------------------------------------------------------------------------------------

/// Formats a number compactly for people: `0`, `0.25`, `3.142`, `123.5`, `1,234`, `123,456`,
/// `1.2 M`, `45.7 G`, `3 T`, `1.2e15`, `1e-5`; `NaN`, `inf`, `-inf` for non-finite values.
///
/// About four significant digits below a million (integers are shown in full, with thousands
/// separators), three with the suffixes M (10⁶), G (10⁹), T (10¹²), and scientific notation
/// from 10¹⁵ up and below 10⁻⁴.
pub fn format_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-4..1e15).contains(&a) {
        return scientific(v, 2);
    }
    if a >= 1e6 {
        let (unit, suffix) = big_unit(a);
        let s = v / unit;
        let d = if s.abs() >= 100.0 {
            0
        } else if s.abs() >= 10.0 {
            1
        } else {
            2
        };
        return format!("{} {suffix}", trim_zeros(&format!("{s:.d$}")));
    }
    if a >= 1000.0 {
        return group_thousands(&fix_negative_zero(format!("{v:.0}")));
    }
    let d = if a >= 100.0 {
        1
    } else if a >= 10.0 {
        2
    } else if a >= 1.0 {
        3
    } else {
        (2.0 - a.log10().floor()).clamp(0.0, 8.0) as usize
    };
    fix_negative_zero(trim_zeros(&format!("{v:.d$}")))
}

/// "Nice" tick values covering `lo..=hi`: multiples of a step 1, 2 or 5 × 10ᵏ, the smallest
/// such step giving at most `max_intervals` intervals, from the largest multiple ≤ `lo` to the
/// smallest multiple ≥ `hi`.
///
/// `nice_ticks(0.0, 1.0, 5)` is `[0, 0.2, 0.4, 0.6, 0.8, 1]`, `nice_ticks(0.0, 5477.0, 6)` is
/// `[0, 1000, …, 6000]`. Reversed bounds are swapped; equal bounds give that one value;
/// non-finite bounds give no ticks. Tick values are computed as integer × 10ᵏ, so they print
/// without rounding noise (0.6, not 0.6000000000000001).
pub fn nice_ticks(lo: f64, hi: f64, max_intervals: usize) -> Vec<f64> {
    if !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    if lo == hi {
        return vec![lo];
    }
    nice(lo, hi, max_intervals).0
}

/// The ticks and their step; see [`nice_ticks`]. Requires finite `lo < hi`.
fn nice(lo: f64, hi: f64, max_intervals: usize) -> (Vec<f64>, f64) {
    let max_i = max_intervals.clamp(1, 1000) as f64;
    let span = hi - lo;
    let raw = span / max_i;
    if !(raw > 0.0 && raw.is_finite()) {
        return (vec![lo, hi], span);
    }
    let e = raw.log10().floor().clamp(-400.0, 400.0) as i32;
    let candidates = [(1.0, 0), (2.0, 0), (5.0, 0), (1.0, 1), (2.0, 1), (5.0, 1)];
    for (n, &(m, de)) in candidates.iter().enumerate() {
        let exp = e + de;
        let step = m * pow10(exp);
        if !(step > 0.0 && step.is_finite()) {
            continue;
        }
        let i0 = (lo / step + 1e-9).floor();
        let i1 = (hi / step - 1e-9).ceil();
        if !(i0.is_finite() && i1.is_finite()) {
            continue;
        }
        if i1 - i0 <= max_i || n + 1 == candidates.len() {
            let count = (i1 - i0).clamp(0.0, 1000.0) as usize;
            let ticks = (0..=count)
                .map(|j| tick_value(i0 + j as f64, m, exp))
                .collect();
            return (ticks, step);
        }
    }
    (vec![lo, hi], span)
}

/// `i × m × 10^exp`, computed so that the result is the double nearest to the decimal value.
fn tick_value(i: f64, m: f64, exp: i32) -> f64 {
    let k = i * m;
    let v = if exp >= 0 {
        k * pow10(exp)
    } else {
        k / pow10(-exp)
    };
    v + 0.0 // no negative zero
}

/// 10^e, correctly rounded (the parser rounds exactly; `powi` need not).
fn pow10(e: i32) -> f64 {
    format!("1e{e}").parse().unwrap_or(0.0)
}

/// Labels for linear ticks with the given step: the same number of decimals on every label,
/// thousands separators, a common suffix from 10⁶ up, scientific notation from 10¹⁵ up or
/// for steps below 10⁻⁶.
fn tick_labels(ticks: &[f64], step: f64) -> Vec<String> {
    let max_abs = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    if max_abs >= 1e15 || step < 1e-6 {
        return ticks
            .iter()
            .map(|&t| {
                if t == 0.0 {
                    "0".to_string()
                } else {
                    shortest_scientific(t)
                }
            })
            .collect();
    }
    if max_abs >= 1e6 {
        let (unit, suffix) = big_unit(max_abs);
        let d = decimals_for(step / unit);
        return ticks
            .iter()
            .map(|&t| {
                if t == 0.0 {
                    "0".to_string()
                } else {
                    let s = fix_negative_zero(format!("{:.d$}", t / unit));
                    format!("{} {suffix}", group_thousands(&s))
                }
            })
            .collect();
    }
    let d = decimals_for(step);
    ticks
        .iter()
        .map(|&t| group_thousands(&fix_negative_zero(format!("{t:.d$}"))))
        .collect()
}

fn decimals_for(step: f64) -> usize {
    if !(step > 0.0 && step.is_finite()) {
        return 0;
    }
    (-(step.log10() + 1e-9).floor()).clamp(0.0, 15.0) as usize
}

fn big_unit(a: f64) -> (f64, &'static str) {
    if a >= 1e12 {
        (1e12, "T")
    } else if a >= 1e9 {
        (1e9, "G")
    } else {
        (1e6, "M")
    }
}

/// `1.20e15` → `1.2e15` (with `d` decimals before trimming).
fn scientific(v: f64, d: usize) -> String {
    let s = format!("{v:.d$e}");
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{e}", trim_zeros(m)),
        None => s,
    }
}

/// Rust's shortest round-trip scientific form: `1.5e15`, `2e-7`.
fn shortest_scientific(v: f64) -> String {
    format!("{v:e}")
}

/// Removes trailing zeros after a decimal point, and the point itself if nothing follows.
fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// `-0.0` → `0.0`.
fn fix_negative_zero(s: String) -> String {
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// `-1234567.5` → `-1,234,567.5`.
fn group_thousands(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = match rest.find('.') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    if int.len() <= 3 || !int.bytes().all(|b| b.is_ascii_digit()) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + int.len() / 3);
    out.push_str(sign);
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out.push_str(frac);
    out
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

/// Estimated advance width of a character, in ems (close to DejaVu Sans, a little generous).
fn char_width(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '\'' | '|' | '.' | ',' | ':' | ';' | '!' => 0.3,
        ' ' | 'f' | 't' | 'r' | 'I' | 'J' | '(' | ')' | '[' | ']' | '-' | '/' => 0.4,
        'm' | 'w' | 'M' | 'W' | '%' | '@' => 0.98,
        '0'..='9' => 0.64,
        'A'..='Z' => 0.74,
        c if c.is_ascii() => 0.62,
        c if (c as u32) >= 0x2E80 => 1.0,
        _ => 0.8,
    }
}

fn text_width(s: &str, size: f64) -> f64 {
    s.chars().map(char_width).sum::<f64>() * size
}

/// Shortens `s` to at most `max` characters, ending with "…" when shortened.
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

/// Options every plot has.
#[derive(Clone, Debug)]
struct Common {
    title: String,
    x_label: String,
    y_label: String,
    width: f64,
    height: f64,
    legend: Legend,
    y: AxisSpec,
}

impl Common {
    fn new(title: String) -> Common {
        Common {
            title,
            x_label: String::new(),
            y_label: String::new(),
            width: f64::from(DEFAULT_WIDTH),
            height: f64::from(DEFAULT_HEIGHT),
            legend: Legend::Auto,
            y: AxisSpec::default(),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct AxisSpec {
    min: Option<f64>,
    max: Option<f64>,
    log: bool,
}

macro_rules! common_builders {
    () => {
        /// Sets the title (drawn above the plot); empty for none.
        pub fn title(mut self, title: impl Into<String>) -> Self {
            self.common.title = title.into();
            self
        }

        /// Sets the label of the horizontal axis.
        pub fn x_label(mut self, label: impl Into<String>) -> Self {
            self.common.x_label = label.into();
            self
        }

        /// Sets the label of the vertical axis.
        pub fn y_label(mut self, label: impl Into<String>) -> Self {
            self.common.y_label = label.into();
            self
        }

        /// Sets the size in pixels (default 720 × 480); clamped to 200–20000 × 150–20000.
        pub fn size(mut self, width: u32, height: u32) -> Self {
            self.common.width = f64::from(width.clamp(200, 20_000));
            self.common.height = f64::from(height.clamp(150, 20_000));
            self
        }

        /// Makes the vertical axis logarithmic (base 10). Values ≤ 0 are skipped.
        pub fn log_y(mut self) -> Self {
            self.common.y.log = true;
            self
        }

        /// Fixes the lower end of the vertical axis.
        pub fn y_min(mut self, v: f64) -> Self {
            self.common.y.min = Some(v);
            self
        }

        /// Fixes the upper end of the vertical axis.
        pub fn y_max(mut self, v: f64) -> Self {
            self.common.y.max = Some(v);
            self
        }

        /// Fixes both ends of the vertical axis.
        pub fn y_range(self, lo: f64, hi: f64) -> Self {
            self.y_min(lo).y_max(hi)
        }

        /// Renders and writes the SVG to `path`.
        pub fn save(&self, path: impl AsRef<Path>) -> Result<(), Error> {
            write_file(path.as_ref(), &self.to_svg())
        }
    };
}

macro_rules! legend_builder {
    () => {
        /// Sets where the legend goes (default [`Legend::Auto`]).
        pub fn legend(mut self, legend: Legend) -> Self {
            self.common.legend = legend;
            self
        }
    };
}

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
        let colour = s
            .colour
            .clone()
            .unwrap_or_else(|| PALETTE[i % PALETTE.len()].to_string());
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
        let entries: Vec<LegendEntry> = self
            .series
            .iter()
            .zip(&styles)
            .filter(|(s, _)| !s.name.is_empty())
            .map(|(s, (colour, dash))| LegendEntry {
                name: shorten(&s.name, MAX_LEGEND_CHARS),
                swatch: Swatch::Line {
                    colour: colour.clone(),
                    dash: *dash,
                },
            })
            .collect();
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
                let mut attrs = format!(
                    r#" fill="none" stroke="{colour}" stroke-width="{}" stroke-linejoin="round""#,
                    fmt_coord(LINE_WIDTH)
                );
                if let Some(da) = dash.dasharray() {
                    let _ = write!(attrs, r#" stroke-dasharray="{da}""#);
                }
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
        draw_frame(&mut svg, c, &plan);
        if data.iter().all(Vec::is_empty) {
            draw_no_data(&mut svg, &plan.frame);
        }
        if let Some((x, y)) = legend_at {
            draw_legend(&mut svg, &entries, x, y);
        }
        svg.end()
    }
}

fn placeable(v: f64, log: bool) -> bool {
    v.is_finite() && (!log || v > 0.0)
}

fn min_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

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
            .map(|(i, s)| {
                s.colour
                    .clone()
                    .unwrap_or_else(|| PALETTE[i % PALETTE.len()].to_string())
            })
            .collect();
        let entries: Vec<LegendEntry> = self
            .series
            .iter()
            .zip(&colours)
            .filter(|(s, _)| !s.name.is_empty())
            .map(|(s, colour)| LegendEntry {
                name: shorten(&s.name, MAX_LEGEND_CHARS),
                swatch: Swatch::Block {
                    colour: colour.clone(),
                },
            })
            .collect();
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
                let d = format!(
                    "M{},{}H{}",
                    fmt_coord(plan.frame.x0),
                    fmt_coord(y0),
                    fmt_coord(plan.frame.x1)
                );
                svg.path(
                    "zero",
                    &d,
                    &format!(r#" fill="none" stroke="{FRAME_COLOUR}" stroke-width="1""#),
                );
            }
        }
        draw_frame(&mut svg, c, &plan);
        if bars.is_empty() {
            draw_no_data(&mut svg, &plan.frame);
        }
        if let Some((x, y)) = legend_at {
            draw_legend(&mut svg, &entries, x, y);
        }
        svg.end()
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
            let colour = PALETTE[i % PALETTE.len()];
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
            let d = format!("M{},{}H{}", fmt_coord(bx0), fmt_coord(ym), fmt_coord(bx1));
            svg.path(
                "median",
                &d,
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
        draw_frame(&mut svg, c, &plan);
        if stats.iter().all(Option::is_none) {
            draw_no_data(&mut svg, &plan.frame);
        }
        svg.end()
    }
}

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

/// A rectangle in pixels, `x0 ≤ x1`, `y0 ≤ y1` (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Rect {
    fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    fn height(&self) -> f64 {
        self.y1 - self.y0
    }

    fn grow(&self, by: f64) -> Rect {
        Rect {
            x0: self.x0 - by,
            y0: self.y0 - by,
            x1: self.x1 + by,
            y1: self.y1 + by,
        }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }
}

/// A numeric axis: range, ticks with their labels, and minor ticks (log axes).
#[derive(Clone, Debug)]
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    ticks: Vec<f64>,
    labels: Vec<String>,
    minor: Vec<f64>,
}

impl Axis {
    /// Position of `v` along the axis: 0 at `lo`, 1 at `hi`.
    fn frac(&self, v: f64) -> f64 {
        if self.log {
            let (a, b) = (self.lo.log10(), self.hi.log10());
            (v.log10() - a) / (b - a)
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }

    fn max_label_width(&self, size: f64) -> f64 {
        self.labels
            .iter()
            .map(|l| text_width(l, size))
            .fold(0.0, f64::max)
    }
}

/// Is `lo..hi` a range the axis arithmetic can work with?
fn usable(lo: f64, hi: f64) -> bool {
    let span = hi - lo;
    lo.is_finite()
        && hi.is_finite()
        && span.is_finite()
        && span > 0.0
        && (1.0 / span).is_finite()
        && span > 1e-9 * lo.abs().max(hi.abs())
}

/// How many tick intervals an axis of `len` pixels should aim for.
fn tick_target(len: f64, horizontal: bool) -> usize {
    if horizontal {
        (len / 70.0).floor().clamp(2.0, 10.0) as usize
    } else {
        (len / 55.0).floor().clamp(3.0, 10.0) as usize
    }
}

fn build_axis(
    spec: &AxisSpec,
    data: Option<(f64, f64)>,
    len: f64,
    horizontal: bool,
    zero: bool,
) -> Axis {
    if spec.log {
        log_axis(spec, data, len, horizontal)
    } else {
        linear_axis(spec, data, len, horizontal, zero)
    }
}

/// The fixed bounds of `spec` that can be used, swapped when reversed, dropped when equal.
fn fixed_bounds(spec: &AxisSpec) -> (Option<f64>, Option<f64>) {
    let ok = |v: Option<f64>| v.filter(|v| placeable(*v, spec.log) && v.abs() <= DATA_LIMIT);
    match (ok(spec.min), ok(spec.max)) {
        (Some(a), Some(b)) if a > b => (Some(b), Some(a)),
        (Some(a), Some(b)) if a == b => (None, None),
        other => other,
    }
}

fn linear_axis(
    spec: &AxisSpec,
    data: Option<(f64, f64)>,
    len: f64,
    horizontal: bool,
    zero: bool,
) -> Axis {
    let (mut dmin, mut dmax) = data.unwrap_or((0.0, 1.0));
    dmin = dmin.clamp(-DATA_LIMIT, DATA_LIMIT);
    dmax = dmax.clamp(-DATA_LIMIT, DATA_LIMIT);
    if zero {
        dmin = dmin.min(0.0);
        dmax = dmax.max(0.0);
    }
    let (mut fmin, mut fmax) = fixed_bounds(spec);
    let pad = |v: f64| if v == 0.0 { 1.0 } else { v.abs() * 0.1 };
    let mut a = fmin.unwrap_or(dmin);
    let mut b = fmax.unwrap_or(dmax);
    if !usable(a, b) {
        match (fmin.is_some(), fmax.is_some()) {
            (true, false) => b = a + pad(a),
            (false, true) => a = b - pad(b),
            _ => {
                let m = (a + b) / 2.0;
                if zero && m == 0.0 {
                    (a, b) = (0.0, 1.0);
                } else {
                    (a, b) = (m - pad(m), m + pad(m));
                }
            }
        }
    }
    if !usable(a, b) {
        (a, b) = (0.0, 1.0);
        (fmin, fmax) = (None, None);
    }
    let mut target = tick_target(len, horizontal);
    loop {
        let (ticks, step) = nice(a, b, target);
        let lo = match fmin {
            Some(v) => v,
            None => ticks.first().copied().unwrap_or(a).min(a),
        };
        let hi = match fmax {
            Some(v) => v,
            None => ticks.last().copied().unwrap_or(b).max(b),
        };
        let eps = (hi - lo) * 1e-9;
        let ticks: Vec<f64> = ticks
            .into_iter()
            .filter(|t| *t >= lo - eps && *t <= hi + eps)
            .collect();
        let labels = tick_labels(&ticks, step);
        let axis = Axis {
            lo,
            hi,
            log: false,
            ticks,
            labels,
            minor: Vec::new(),
        };
        let spacing = len * step / (hi - lo);
        if !horizontal || target <= 2 || axis.max_label_width(TICK_SIZE) + 12.0 <= spacing {
            return axis;
        }
        target -= 1;
    }
}

fn log_axis(spec: &AxisSpec, data: Option<(f64, f64)>, len: f64, horizontal: bool) -> Axis {
    let (dmin, dmax) = data.unwrap_or((1.0, 10.0));
    let e_lo = dmin.log10().floor().clamp(-300.0, 300.0) as i32;
    let e_hi = dmax.log10().ceil().clamp(-300.0, 300.0) as i32;
    let (fmin, fmax) = fixed_bounds(spec);
    let mut a = fmin.unwrap_or_else(|| pow10(e_lo));
    let mut b = fmax.unwrap_or_else(|| pow10(e_hi));
    if a.partial_cmp(&b) != Some(std::cmp::Ordering::Less) {
        match (fmin.is_some(), fmax.is_some()) {
            (true, false) => b = a * 10.0,
            (false, true) => a = b / 10.0,
            _ => (a, b) = (pow10(e_lo), pow10(e_lo + 1)),
        }
    }
    if !(a > 0.0 && b.is_finite() && a < b && b / a > 1.0 + 1e-9) {
        (a, b) = (1.0, 10.0);
    }
    let (la, lb) = (a.log10(), b.log10());
    let k0 = (la - 1e-9).ceil() as i32;
    let k1 = (lb + 1e-9).floor() as i32;
    let minor = if lb - la <= 6.0 {
        let mut m = Vec::new();
        for k in (la.floor() as i32)..=(lb.ceil() as i32) {
            for d in 2..=9 {
                let v = f64::from(d) * pow10(k);
                if v > a && v < b {
                    m.push(v);
                }
            }
        }
        m
    } else {
        Vec::new()
    };
    // Decade labels need little room: aim for one per 25 px upright, one per 40 px across
    // (then fewer if the labels do not fit).
    let mut target = (len / if horizontal { 40.0 } else { 25.0 }).clamp(2.0, 40.0) as usize;
    loop {
        let decades = (k1 - k0).max(0) as usize;
        let stride = decades.div_ceil(target.max(1)).max(1) as i32;
        let ticks: Vec<f64> = (k0..=k1)
            .filter(|k| k.rem_euclid(stride) == 0)
            .map(pow10)
            .collect();
        // Unlabelled decades still get a (minor) grid line.
        let mut minor = minor.clone();
        if stride > 1 && decades <= 60 {
            minor.extend((k0..=k1).filter(|k| k.rem_euclid(stride) != 0).map(pow10));
        }
        let (ticks, labels) = if ticks.len() >= 2 {
            let labels = ticks.iter().map(|&t| format_number(t)).collect();
            (ticks, labels)
        } else {
            // Less than two decades in range: linear nice ticks inside it.
            let (t, step) = nice(a, b, target);
            let eps = (b - a) * 1e-9;
            let t: Vec<f64> = t
                .into_iter()
                .filter(|v| *v >= a - eps && *v <= b + eps && *v > 0.0)
                .collect();
            let labels = tick_labels(&t, step);
            (t, labels)
        };
        let axis = Axis {
            lo: a,
            hi: b,
            log: true,
            ticks,
            labels,
            minor,
        };
        let fits = || {
            let spacing = axis
                .ticks
                .windows(2)
                .map(|w| (axis.frac(w[1]) - axis.frac(w[0])) * len)
                .fold(f64::INFINITY, f64::min);
            axis.max_label_width(TICK_SIZE) + 12.0 <= spacing
        };
        if !horizontal || target <= 2 || fits() {
            return axis;
        }
        target -= 1;
    }
}

/// Categories along x: labels, which of them are shown, how.
#[derive(Clone, Debug)]
struct CatAxis {
    labels: Vec<String>,
    sublabels: Vec<String>,
    every: usize,
    rotated: bool,
}

#[derive(Clone, Debug)]
enum XAxis {
    Numeric(Axis),
    Categories(CatAxis),
}

enum XSource<'a> {
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
struct Plan {
    frame: Rect,
    x: XAxis,
    y: Axis,
}

impl Plan {
    fn x_px(&self, v: f64) -> f64 {
        match &self.x {
            XAxis::Numeric(a) => clamp_px(self.frame.x0 + a.frac(v) * self.frame.width()),
            XAxis::Categories(_) => self.frame.x0,
        }
    }

    fn y_px(&self, v: f64) -> f64 {
        clamp_px(self.frame.y1 - self.y.frac(v) * self.frame.height())
    }
}

fn clamp_px(v: f64) -> f64 {
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
fn plan(
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
            let max_w = labels
                .iter()
                .chain(sublabels.iter())
                .map(|l| text_width(l, TICK_SIZE))
                .fold(0.0, f64::max);
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
            let max_w = labels
                .iter()
                .map(|l| text_width(l, TICK_SIZE))
                .fold(0.0, f64::max);
            let need = if rotated {
                TICK_SIZE * 1.4
            } else {
                let sub_w = sublabels
                    .iter()
                    .map(|l| text_width(l, TICK_SIZE))
                    .fold(0.0, f64::max);
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
fn place_legend<G>(
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

// ---------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------

struct Svg {
    s: String,
}

impl Svg {
    fn begin(w: f64, h: f64, skipped: usize) -> Svg {
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

    fn rect(&mut self, class: &str, r: &Rect, attrs: &str) {
        let _ = writeln!(
            self.s,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{attrs}/>",
            fmt_coord(r.x0),
            fmt_coord(r.y0),
            fmt_coord(r.width().max(0.0)),
            fmt_coord(r.height().max(0.0))
        );
    }

    fn path(&mut self, class: &str, d: &str, attrs: &str) {
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

    fn end(mut self) -> String {
        self.s.push_str("</svg>\n");
        self.s
    }
}

/// Grid lines (under the data).
fn draw_grid(svg: &mut Svg, plan: &Plan) {
    let f = &plan.frame;
    let mut minor = String::new();
    let mut major = String::new();
    for &t in &plan.y.minor {
        let y = plan.y_px(t);
        let _ = write!(
            minor,
            "M{},{}H{}",
            fmt_coord(f.x0),
            fmt_coord(y),
            fmt_coord(f.x1)
        );
    }
    for &t in &plan.y.ticks {
        let y = plan.y_px(t);
        let _ = write!(
            major,
            "M{},{}H{}",
            fmt_coord(f.x0),
            fmt_coord(y),
            fmt_coord(f.x1)
        );
    }
    if let XAxis::Numeric(a) = &plan.x {
        for &t in &a.minor {
            let x = plan.x_px(t);
            let _ = write!(
                minor,
                "M{},{}V{}",
                fmt_coord(x),
                fmt_coord(f.y0),
                fmt_coord(f.y1)
            );
        }
        for &t in &a.ticks {
            let x = plan.x_px(t);
            let _ = write!(
                major,
                "M{},{}V{}",
                fmt_coord(x),
                fmt_coord(f.y0),
                fmt_coord(f.y1)
            );
        }
    }
    if !minor.is_empty() {
        svg.path(
            "grid-minor",
            &minor,
            &format!(r#" fill="none" stroke="{MINOR_GRID_COLOUR}" stroke-width="1""#),
        );
    }
    if !major.is_empty() {
        svg.path(
            "grid",
            &major,
            &format!(r#" fill="none" stroke="{GRID_COLOUR}" stroke-width="1""#),
        );
    }
}

/// Frame, ticks, tick labels, axis labels and title (over the data).
fn draw_frame(svg: &mut Svg, c: &Common, plan: &Plan) {
    let f = &plan.frame;
    svg.rect(
        "frame",
        f,
        &format!(r#" fill="none" stroke="{FRAME_COLOUR}" stroke-width="1""#),
    );
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
                    let rot = format!(
                        " transform=\"rotate(-45 {} {})\"",
                        fmt_coord(tx),
                        fmt_coord(ty)
                    );
                    svg.text(tx, ty, TICK_SIZE, "end", &text, &rot);
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
        svg.path(
            "ticks",
            &ticks,
            &format!(r#" fill="none" stroke="{FRAME_COLOUR}" stroke-width="1""#),
        );
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
        let rot = format!(
            " transform=\"rotate(-90 {} {})\"",
            fmt_coord(x),
            fmt_coord(y)
        );
        svg.text(x, y, LABEL_SIZE, "middle", &c.y_label, &rot);
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

/// A category label as drawn when turned: the sublabel, if any, in parentheses.
fn turned_label(labels: &[String], sublabels: &[String], i: usize) -> String {
    let label = labels.get(i).map_or("", String::as_str);
    match sublabels.get(i) {
        Some(s) => format!("{label} ({s})"),
        None => label.to_string(),
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

struct LegendEntry {
    name: String,
    swatch: Swatch,
}

enum Swatch {
    Line { colour: String, dash: Dash },
    Block { colour: String },
}

fn legend_size(entries: &[LegendEntry]) -> Option<(f64, f64)> {
    if entries.is_empty() {
        return None;
    }
    let text_w = entries
        .iter()
        .map(|e| text_width(&e.name, LEGEND_SIZE))
        .fold(0.0, f64::max);
    Some((
        8.0 + 26.0 + 6.0 + text_w + 8.0,
        6.0 + entries.len() as f64 * LEGEND_ROW + 4.0,
    ))
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
                let d = format!(
                    "M{},{}H{}",
                    fmt_coord(x + 8.0),
                    fmt_coord(cy),
                    fmt_coord(x + 34.0)
                );
                let mut attrs = format!(
                    r#" fill="none" stroke="{}" stroke-width="{}""#,
                    escape(colour),
                    fmt_coord(LINE_WIDTH)
                );
                if let Some(da) = dash.dasharray() {
                    let _ = write!(attrs, r#" stroke-dasharray="{da}""#);
                }
                svg.path("legend-line", &d, &attrs);
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

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Heat maps
// ---------------------------------------------------------------------------------------------

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
        self.width = f64::from(width.clamp(200, 20_000));
        self.height = f64::from(height.clamp(150, 20_000));
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

    /// Renders and writes the SVG to `path`.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        write_file(path.as_ref(), &self.to_svg())
    }

    /// The SVG.
    pub fn to_svg(&self) -> String {
        use super::svg::Doc;
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
        let y_text = self
            .rows
            .iter()
            .map(|l| text_width(l, TICK_SIZE))
            .fold(0.0, f64::max);
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
        let widest = self
            .columns
            .iter()
            .map(|l| text_width(l, TICK_SIZE))
            .fold(0.0, f64::max);
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
                &format!(
                    "{ink} transform=\"rotate(-90 {} {})\"",
                    fmt_coord(x),
                    fmt_coord(y)
                ),
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
                &format!(
                    "{ink} transform=\"rotate(90 {} {})\"",
                    fmt_coord(x),
                    fmt_coord(y)
                ),
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

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"))
    }

    fn count(doc: &roxmltree::Document<'_>, tag: &str, class: &str) -> usize {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag) && n.attribute("class") == Some(class))
            .count()
    }

    fn texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect()
    }

    fn attr_f64(n: &roxmltree::Node<'_, '_>, a: &str) -> f64 {
        n.attribute(a).unwrap().parse().unwrap()
    }

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
    fn ticks_are_nice() {
        assert_eq!(nice_ticks(0.0, 1.0, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(
            nice_ticks(0.0, 5477.0, 6),
            vec![0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0]
        );
        assert_eq!(
            nice_ticks(0.0, 100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(
            nice_ticks(-3.0, 7.0, 6),
            vec![-4.0, -2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
        );
        assert_eq!(nice_ticks(-3.0, 7.0, 5), vec![-5.0, 0.0, 5.0, 10.0]);
        assert_eq!(nice_ticks(0.3, 0.7, 4), vec![0.3, 0.4, 0.5, 0.6, 0.7]);
        assert_eq!(nice_ticks(1.0, 0.0, 5), nice_ticks(0.0, 1.0, 5));
        assert_eq!(nice_ticks(2.5, 2.5, 5), vec![2.5]);
        assert!(nice_ticks(f64::NAN, 1.0, 5).is_empty());
        assert!(nice_ticks(0.0, f64::INFINITY, 5).is_empty());
        // Every step is 1, 2 or 5 × 10^k and the ticks cover the range.
        for (lo, hi) in [
            (0.0, 0.037),
            (13.0, 977.0),
            (-1e9, 3e9),
            (1e-12, 5e-12),
            (0.0, 1e300),
        ] {
            for n in 2..=10 {
                let t = nice_ticks(lo, hi, n);
                assert!(t.len() >= 2 && t.len() <= n + 1, "{lo} {hi} {n}: {t:?}");
                assert!(t[0] <= lo && *t.last().unwrap() >= hi);
                let step = t[1] - t[0];
                let m = step / pow10(step.log10().floor() as i32);
                assert!(
                    [1.0, 2.0, 5.0].iter().any(|x| (m - x).abs() < 1e-6),
                    "step {step}"
                );
            }
        }
        // Huge and tiny ranges do not hang or panic.
        let _ = nice_ticks(-f64::MAX, f64::MAX, 5);
        let _ = nice_ticks(0.0, f64::MIN_POSITIVE, 5);
        let _ = nice_ticks(1e15, 1e15 + 1.0, 5);
        let _ = nice_ticks(0.0, 1.0, 0);
    }

    #[test]
    fn tick_labels_are_compact() {
        let (t, s) = nice(0.0, 1.0, 5);
        assert_eq!(
            tick_labels(&t, s),
            ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
        let (t, s) = nice(0.0, 5477.0, 6);
        assert_eq!(
            tick_labels(&t, s),
            ["0", "1,000", "2,000", "3,000", "4,000", "5,000", "6,000"]
        );
        let (t, s) = nice(0.0, 2.9e6, 6);
        assert_eq!(
            tick_labels(&t, s),
            ["0", "0.5 M", "1.0 M", "1.5 M", "2.0 M", "2.5 M", "3.0 M"]
        );
        let (t, s) = nice(-0.5, 0.5, 4);
        assert_eq!(tick_labels(&t, s), ["-0.5", "0.0", "0.5"]);
        let (t, s) = nice(0.0, 3e16, 3);
        assert_eq!(tick_labels(&t, s), ["0", "1e16", "2e16", "3e16"]);
    }

    #[test]
    fn numbers_are_compact() {
        for (v, s) in [
            (0.0, "0"),
            (-0.0, "0"),
            (0.25, "0.25"),
            (1.0 / 3.0, "0.333"),
            (3.14149, "3.141"),
            (42.0, "42"),
            (123.45, "123.5"),
            (1234.0, "1,234"),
            (-1234.0, "-1,234"),
            (123_456.0, "123,456"),
            (1.2e6, "1.2 M"),
            (12_345_678.0, "12.3 M"),
            (4.57e10, "45.7 G"),
            (3e12, "3 T"),
            (1.2e15, "1.2e15"),
            (0.00001, "1e-5"),
            (0.000123, "0.000123"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(format_number(v), s, "{v}");
        }
        assert_eq!(group_thousands("1234567.25"), "1,234,567.25");
        assert_eq!(fmt_coord(-0.001), "0");
        assert_eq!(fmt_coord(12.5), "12.5");
        assert_eq!(fmt_coord(12.345), "12.35");
        assert_eq!(fmt_coord(-3.0), "-3");
        assert_eq!(fmt_coord(f64::NAN), "0");
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
        let frame = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("frame"))
            .unwrap();
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
        let series = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("series"))
            .unwrap();
        assert_eq!(series.attribute("stroke"), Some("red\" onload=\"x"));
        assert!(series.attribute("onload").is_none());
        let bars = BarChart::new("<&>")
            .categories(["a&b", "<c>"])
            .series(BarSeries::new("\"q\"", vec![1.0, 2.0]))
            .to_svg();
        let t = texts(&parse(&bars));
        for s in ["<&>", "a&b", "<c>", "\"q\""] {
            assert!(t.iter().any(|x| x == s), "{s}");
        }
        let bx = BoxPlot::new("<&>").group("<g>", vec![1.0, 2.0]).to_svg();
        let t = texts(&parse(&bx));
        assert!(t.iter().any(|x| x == "<g>"));
    }

    #[test]
    fn logarithmic_axis() {
        let pts: Vec<(f64, f64)> = (0..=12)
            .map(|i| (f64::from(i), 10f64.powf(f64::from(i) / 2.0)))
            .chain([(13.0, 0.0), (14.0, -5.0), (15.0, f64::NAN)])
            .collect();
        let p = LinePlot::new("states")
            .log_y()
            .series(Series::new("count", pts));
        assert_eq!(p.skipped(), 3);
        let svg = p.to_svg();
        assert!(svg.contains("<!-- 3 value(s) skipped"));
        let doc = parse(&svg);
        let t = texts(&doc);
        for s in ["1", "10", "100", "1,000", "10,000", "100,000", "1 M"] {
            assert!(t.iter().any(|x| x == s), "{s} in {t:?}");
        }
        // Decade labels are evenly spaced.
        let ys: Vec<f64> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("end"))
            .map(|n| attr_f64(&n, "y"))
            .collect();
        assert_eq!(ys.len(), 7);
        for w in ys.windows(3) {
            assert!(((w[0] - w[1]) - (w[1] - w[2])).abs() < 0.02, "{ys:?}");
        }
        // Minor grid for a handful of decades.
        assert_eq!(count(&doc, "path", "grid-minor"), 1);
        // Point (k, 10^(k/2)) lies on the line through decades: check via the axis directly.
        let a = log_axis(&AxisSpec::default(), Some((1.0, 1e6)), 400.0, false);
        assert_eq!((a.lo, a.hi), (1.0, 1e6));
        assert!((a.frac(1000.0) - 0.5).abs() < 1e-12);
        // A narrow log range still gets labels.
        let a = log_axis(&AxisSpec::default(), Some((200.0, 800.0)), 400.0, false);
        assert_eq!((a.lo, a.hi), (100.0, 1000.0));
        assert!(a.ticks.len() >= 2);
        let a = log_axis(
            &AxisSpec {
                min: Some(200.0),
                max: Some(800.0),
                log: true,
            },
            Some((200.0, 800.0)),
            400.0,
            false,
        );
        assert!(
            a.ticks.len() >= 2 && a.ticks.iter().all(|t| (200.0..=800.0).contains(t)),
            "{:?}",
            a.ticks
        );
        // Many decades: labels thinned.
        let a = log_axis(&AxisSpec::default(), Some((1.0, 1e40)), 300.0, false);
        assert!(a.ticks.len() <= 13 && a.ticks.len() >= 5, "{:?}", a.labels);
        assert!(
            a.minor.contains(&10.0),
            "unlabelled decades keep a grid line"
        );
    }

    #[test]
    fn deterministic() {
        assert_eq!(kluiver().to_svg(), kluiver().to_svg());
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
        let nasty = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -f64::MAX,
            1e-320,
            0.0,
        ];
        let mut plots: Vec<String> = vec![
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
            BoxPlot::new("").to_svg(),
            BoxPlot::new("empty group").group("e", vec![]).to_svg(),
            BoxPlot::new("one")
                .group("o", vec![7.0])
                .counts()
                .mean()
                .to_svg(),
            BoxPlot::new("same").group("s", vec![2.0; 10]).to_svg(),
        ];
        for (i, &a) in nasty.iter().enumerate() {
            for &b in &nasty[i..] {
                plots.push(
                    LinePlot::new("nasty")
                        .series(
                            Series::new("n", vec![(a, b), (b, a), (1.0, 2.0)])
                                .step()
                                .markers(),
                        )
                        .to_svg(),
                );
                plots.push(
                    LinePlot::new("nasty")
                        .log_y()
                        .series(Series::new("n", vec![(a, b), (b, a)]))
                        .to_svg(),
                );
                plots.push(
                    LinePlot::new("range")
                        .x_range(a, b)
                        .y_range(b, a)
                        .series(Series::new("n", vec![(0.0, 1.0), (2.0, 3.0)]))
                        .to_svg(),
                );
                plots.push(
                    BarChart::new("nasty")
                        .series(BarSeries::new("n", vec![a, b, 1.0]))
                        .stacked()
                        .to_svg(),
                );
                plots.push(
                    BarChart::new("nasty")
                        .log_y()
                        .series(BarSeries::new("n", vec![a, b, 1.0]))
                        .to_svg(),
                );
                plots.push(
                    BoxPlot::new("nasty")
                        .group("n", vec![a, b, 1.0])
                        .mean()
                        .to_svg(),
                );
                plots.push(
                    BoxPlot::new("nasty")
                        .log_y()
                        .y_range(a, b)
                        .group("n", vec![a, b, 1.0])
                        .to_svg(),
                );
            }
        }
        for svg in &plots {
            let doc = parse(svg);
            for n in doc.descendants() {
                for a in n.attributes() {
                    let v = a.value();
                    assert!(
                        !v.contains("NaN") && !v.contains("inf"),
                        "{}={v}\n{svg}",
                        a.name()
                    );
                }
            }
        }
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
        let frame = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("frame"))
            .unwrap();
        let (x0, y0) = (attr_f64(&frame, "x"), attr_f64(&frame, "y"));
        let (x1, y1) = (
            x0 + attr_f64(&frame, "width"),
            y0 + attr_f64(&frame, "height"),
        );
        let d = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("series"))
            .unwrap()
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

    #[test]
    fn legend_placement() {
        // Rising curve: the top right corner is covered, the top left is free.
        let rising = LinePlot::new("r").series(Series::new(
            "up",
            (0..=10).map(|i| (f64::from(i), f64::from(i * i))),
        ));
        let doc_s = rising.to_svg();
        let doc = parse(&doc_s);
        let legend = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("legend"))
            .unwrap();
        let frame = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("frame"))
            .unwrap();
        assert!(attr_f64(&legend, "x") < attr_f64(&frame, "x") + 20.0);
        assert!(attr_f64(&legend, "y") < attr_f64(&frame, "y") + 20.0);
        // Lines through every corner: the legend goes outside.
        let cross = LinePlot::new("x")
            .series(Series::new("a", vec![(0.0, 0.0), (1.0, 1.0)]))
            .series(Series::new("b", vec![(0.0, 1.0), (1.0, 0.0)]));
        let s = cross.to_svg();
        let doc = parse(&s);
        let legend = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("legend"))
            .unwrap();
        let frame = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("frame"))
            .unwrap();
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
        let bars: Vec<(f64, f64, f64, f64)> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("bar"))
            .map(|n| {
                (
                    attr_f64(&n, "x"),
                    attr_f64(&n, "y"),
                    attr_f64(&n, "width"),
                    attr_f64(&n, "height"),
                )
            })
            .collect();
        let unit = bars[0].3 / 3.0;
        let vals: Vec<f64> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
        for (bar, v) in bars.iter().zip(&vals) {
            assert!((bar.3 - v * unit).abs() < 0.03, "{bar:?} {v}");
            assert!((bar.1 + bar.3 - (bars[0].1 + bars[0].3)).abs() < 0.02);
        }
        // Stacked: the second bar of each category sits on the first.
        let stacked = grouped.clone().stacked().to_svg();
        let doc = parse(&stacked);
        let bars: Vec<(f64, f64, f64, f64)> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("bar"))
            .map(|n| {
                (
                    attr_f64(&n, "x"),
                    attr_f64(&n, "y"),
                    attr_f64(&n, "width"),
                    attr_f64(&n, "height"),
                )
            })
            .collect();
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
        let b = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("box"))
            .unwrap();
        let (y, h) = (attr_f64(&b, "y"), attr_f64(&b, "height"));
        let d = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("median"))
            .unwrap()
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

    proptest::proptest! {
        #[test]
        fn random_input_gives_valid_svg(
            pts in proptest::collection::vec((proptest::num::f64::ANY, proptest::num::f64::ANY), 0..40),
            log in proptest::bool::ANY,
            step in proptest::bool::ANY,
        ) {
            let mut s = Series::new("p", pts.clone());
            if step { s = s.step(); }
            let mut p = LinePlot::new("random").series(s);
            if log { p = p.log_y(); }
            let svg = p.to_svg();
            proptest::prop_assert!(roxmltree::Document::parse(&svg).is_ok());
            proptest::prop_assert!(!svg.contains("NaN") && !svg.contains("inf"));
            let ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
            let b = BarChart::new("random").series(BarSeries::new("b", ys.clone())).stacked().to_svg();
            proptest::prop_assert!(roxmltree::Document::parse(&b).is_ok());
            let bx = BoxPlot::new("random").group("g", ys).mean().to_svg();
            proptest::prop_assert!(roxmltree::Document::parse(&bx).is_ok());
        }
    }

    /// Writes one example of each kind to `$FLOE_PLOT_EXAMPLES` (default: the temporary
    /// directory): `cargo test -p floe --lib plot::tests::write_examples -- --ignored`.
    #[test]
    #[ignore]
    fn write_examples() {
        let dir = std::env::var_os("FLOE_PLOT_EXAMPLES")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(std::env::temp_dir);
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
