//! What the plots share below their drawing and their layout: the [`Dash`] pattern of a line,
//! the legend's entries and size, and the text of a turned category label.

use super::{max_text_width, shorten, LEGEND_ROW, LEGEND_SIZE, MAX_LEGEND_CHARS};

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
    pub(super) const CYCLE: [Dash; 4] = [Dash::Solid, Dash::Dashed, Dash::Dotted, Dash::DashDot];

    fn dasharray(self) -> Option<&'static str> {
        match self {
            Dash::Solid => None,
            Dash::Dashed => Some("6 4"),
            Dash::Dotted => Some("1.5 3"),
            Dash::DashDot => Some("7 3 1.5 3"),
        }
    }

    /// The `stroke-dasharray` attribute (with a leading space); empty for a solid line.
    pub(super) fn attribute(self) -> String {
        self.dasharray()
            .map_or_else(String::new, |da| format!(r#" stroke-dasharray="{da}""#))
    }
}

/// A category label as drawn when turned: the sublabel, if any, in parentheses.
pub(super) fn turned_label(labels: &[String], sublabels: &[String], i: usize) -> String {
    let label = labels.get(i).map_or("", String::as_str);
    match sublabels.get(i) {
        Some(s) => format!("{label} ({s})"),
        None => label.to_string(),
    }
}

/// One line of a legend.
pub(super) struct LegendEntry {
    pub(super) name: String,
    pub(super) swatch: Swatch,
}

/// What a legend entry shows beside its name.
pub(super) enum Swatch {
    Line { colour: String, dash: Dash },
    Block { colour: String },
}

/// The legend entries of the named series, in order: `(name, swatch)` per series; names are
/// shortened to [`MAX_LEGEND_CHARS`] characters, series without a name get no entry.
pub(super) fn legend_entries<'a>(
    series: impl IntoIterator<Item = (&'a str, Swatch)>,
) -> Vec<LegendEntry> {
    series
        .into_iter()
        .filter(|(name, _)| !name.is_empty())
        .map(|(name, swatch)| LegendEntry {
            name: shorten(name, MAX_LEGEND_CHARS),
            swatch,
        })
        .collect()
}

/// The size of the legend box; `None` without entries.
pub(super) fn legend_size(entries: &[LegendEntry]) -> Option<(f64, f64)> {
    if entries.is_empty() {
        return None;
    }
    let text_w = max_text_width(entries.iter().map(|e| &e.name), LEGEND_SIZE);
    Some((
        8.0 + 26.0 + 6.0 + text_w + 8.0,
        6.0 + entries.len() as f64 * LEGEND_ROW + 4.0,
    ))
}
