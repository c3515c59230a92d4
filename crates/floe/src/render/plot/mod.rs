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
//!
//! The code is split by chart: [`LinePlot`] in `line.rs`, [`BarChart`] in `bar.rs`, [`BoxPlot`]
//! in `boxplot.rs`, [`HeatMap`] in `heatmap.rs`. What they share lives here (options, colours,
//! text widths) and beside this file: `ticks.rs` (number formatting, tick values and labels),
//! `axis.rs` (numeric axes), `layout.rs` (frame, axes and legend placement) and `draw.rs` (the
//! SVG writer: grid, frame, ticks, legend).

// The builder macros come first: the chart modules below use them.

/// The `save` method of every figure.
macro_rules! save_builder {
    () => {
        /// Renders and writes the SVG to `path`.
        pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), $crate::Error> {
            $crate::render::svg::write_file(path.as_ref(), &self.to_svg())
        }
    };
}

/// The builder methods of the charts with [`Common`] options.
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
            (self.common.width, self.common.height) = super::clamp_size(width, height);
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

        save_builder!();
    };
}

/// The `legend` method of the charts with a legend.
macro_rules! legend_builder {
    () => {
        /// Sets where the legend goes (default [`Legend::Auto`]).
        pub fn legend(mut self, legend: Legend) -> Self {
            self.common.legend = legend;
            self
        }
    };
}

mod axis;
mod bar;
mod boxplot;
mod draw;
mod heatmap;
mod kit;
mod layout;
mod line;
mod ticks;

pub use bar::{BarChart, BarSeries, MAX_CATEGORIES};
pub use boxplot::{box_stats, quantile, BoxPlot, BoxStats, Whiskers};
pub use heatmap::HeatMap;
pub use kit::Dash;
pub use line::{LinePlot, Series};
pub use ticks::{format_number, nice_ticks};

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
// Options shared by the charts
// ---------------------------------------------------------------------------------------------

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

/// What the caller asked of a numeric axis: fixed ends, logarithmic or not.
#[derive(Clone, Debug, Default)]
struct AxisSpec {
    min: Option<f64>,
    max: Option<f64>,
    log: bool,
}

/// A figure size in pixels, clamped to 200–20000 × 150–20000.
fn clamp_size(width: u32, height: u32) -> (f64, f64) {
    (
        f64::from(width.clamp(200, 20_000)),
        f64::from(height.clamp(150, 20_000)),
    )
}

/// The palette colour of series (or group) `i`.
fn palette_colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// The colour of series `i`: its own, or the palette's.
fn series_colour(own: Option<&str>, i: usize) -> String {
    own.map_or_else(|| palette_colour(i).to_string(), str::to_string)
}

/// Can `v` be placed on an axis (finite, and positive on a logarithmic one)?
fn placeable(v: f64, log: bool) -> bool {
    v.is_finite() && (!log || v > 0.0)
}

/// The smallest and the largest of `values`; `None` for none.
fn min_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
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

/// Estimated width of `s` at font size `size`, in pixels.
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

/// The estimated width of the widest of `texts` at `size` (0 for none).
fn max_text_width<S: AsRef<str>>(texts: impl IntoIterator<Item = S>, size: f64) -> f64 {
    texts
        .into_iter()
        .map(|t| text_width(t.as_ref(), size))
        .fold(0.0, f64::max)
}

/// Helpers for the tests of every chart.
#[cfg(test)]
mod testing {
    pub(super) fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"))
    }

    pub(super) fn count(doc: &roxmltree::Document<'_>, tag: &str, class: &str) -> usize {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag) && n.attribute("class") == Some(class))
            .count()
    }

    pub(super) fn texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect()
    }

    pub(super) fn attr_f64(n: &roxmltree::Node<'_, '_>, a: &str) -> f64 {
        n.attribute(a).unwrap().parse().unwrap()
    }

    /// The first element of class `class`.
    pub(super) fn find_class<'a, 'input>(
        doc: &'a roxmltree::Document<'input>,
        class: &str,
    ) -> roxmltree::Node<'a, 'input> {
        doc.descendants()
            .find(|n| n.attribute("class") == Some(class))
            .unwrap_or_else(|| panic!("no element of class {class}"))
    }

    /// Pairs `(a, b)` of values that have broken many a plot writer (each pair once, `a`
    /// before or equal to `b` in the list).
    fn nasty_pairs() -> impl Iterator<Item = (f64, f64)> {
        const NASTY: [f64; 7] = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -f64::MAX,
            1e-320,
            0.0,
        ];
        (0..NASTY.len()).flat_map(|i| NASTY[i..].iter().map(move |&b| (NASTY[i], b)))
    }

    /// Asserts that `plots`, and the plots `nasty` draws with each of the [`nasty_pairs`],
    /// are XML with no `NaN` or `inf` in any attribute.
    pub(super) fn assert_never_break(
        mut plots: Vec<String>,
        nasty: impl Fn(f64, f64) -> Vec<String>,
    ) {
        for (a, b) in nasty_pairs() {
            plots.extend(nasty(a, b));
        }
        assert_finite_attributes(&plots);
    }

    /// Asserts that every one of `svgs` is XML and that no attribute holds `NaN` or `inf`.
    fn assert_finite_attributes(svgs: &[String]) {
        for svg in svgs {
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
    }

    /// Where the ignored `write_examples` tests write: `$FLOE_PLOT_EXAMPLES`, by default the
    /// temporary directory. `cargo test -p floe --lib render::plot -- --ignored` writes them.
    pub(super) fn examples_dir() -> std::path::PathBuf {
        std::env::var_os("FLOE_PLOT_EXAMPLES")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(std::env::temp_dir)
    }
}

/// The random-input test of the charts of plain values.
#[cfg(test)]
mod tests {
    use super::{BarChart, BarSeries, BoxPlot};

    proptest::proptest! {
        // Any values (NaN and infinities among them) give valid SVG, stacked in a bar chart
        // and in a box plot with its mean.
        #[test]
        fn random_values_give_valid_svg(
            ys in proptest::collection::vec(proptest::num::f64::ANY, 0..40),
        ) {
            let bars = BarChart::new("random")
                .series(BarSeries::new("b", ys.clone()))
                .stacked()
                .to_svg();
            let boxes = BoxPlot::new("random").group("g", ys).mean().to_svg();
            for svg in [bars, boxes] {
                proptest::prop_assert!(roxmltree::Document::parse(&svg).is_ok());
            }
        }
    }
}
