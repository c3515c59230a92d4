//! What `floe experiment` reports (the runs of one size, the report of a whole experiment,
//! the challenges as text), and the paper's figures.

use super::{challenge, Comparison, Exact, Metrics, Summary};
use crate::error::Error;
use crate::games::solitaire::Kind;
use crate::generate::{Setup, Size};
use crate::render::plot::{BarChart, BarSeries, BoxPlot, Dash, LinePlot, Series, Whiskers};
use serde::Serialize;

/// What `floe experiment --json` prints, `/api/experiment` answers and Python's `experiment`
/// returns: one setup's summary, one size's runs, a sweep over sizes, the exact counts, or
/// the challenges as text.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(untagged)]
pub enum ExperimentReport<'a> {
    /// `--generate N`: the challenges.
    Generated(&'a [GeneratedChallenge]),
    /// `--exact` on one size and setup.
    Exact(&'a Exact),
    /// `--exact` on several.
    Exacts(&'a [Exact]),
    /// The runs of one size and one setup.
    Setup(&'a Summary),
    /// The runs of one size and several setups (or one, compared).
    Size(&'a SizeRun),
    /// The runs of several sizes.
    Sweep {
        /// The game's name.
        game: &'static str,
        /// The seed.
        seed: u64,
        /// One entry per size.
        sweep: &'a [SizeRun],
    },
}

impl<'a> ExperimentReport<'a> {
    /// The report of the exact counts: the one, or the list of them.
    pub fn exact(counts: &'a [Exact]) -> ExperimentReport<'a> {
        match counts {
            [one] => ExperimentReport::Exact(one),
            _ => ExperimentReport::Exacts(counts),
        }
    }
    /// The report of the Monte Carlo runs (one per size) under `seed`; `compared`: the
    /// setups were compared (`--compare`), so one size is reported with its tests even when
    /// it has one setup.
    pub fn runs(runs: &'a [SizeRun], compared: bool, seed: u64) -> ExperimentReport<'a> {
        match runs {
            [one] if one.setups.len() == 1 && !compared => ExperimentReport::Setup(&one.setups[0]),
            [one] => ExperimentReport::Size(one),
            _ => ExperimentReport::Sweep {
                game: runs.first().map_or("", |d| d.game),
                seed,
                sweep: runs,
            },
        }
    }
}

/// A challenge of an experiment as text (`floe experiment --generate N`): its title, and its
/// text or the file it was written to. The keys are in alphabetical order, as the contract
/// has them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GeneratedChallenge {
    /// The file the text was written to (then the text is not repeated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The challenge in the game's format, with its `Title:` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The size, the setup, the seed and the challenge's number.
    pub title: String,
}

impl GeneratedChallenge {
    /// Challenge `index` of `size` and `setup` under `seed` (the one the experiment solves),
    /// as text.
    pub fn new(
        size: Size,
        setup: Setup,
        seed: u64,
        index: u64,
    ) -> Result<GeneratedChallenge, Error> {
        let c = challenge(size, setup, seed, index)?;
        let title = format!("{size}, {}, seed {seed}, challenge {index}", setup.label());
        let text = c.write().replacen('\n', &format!("\nTitle: {title}\n"), 1);
        Ok(GeneratedChallenge {
            file: None,
            text: Some(text),
            title,
        })
    }
}

/// The runs of one size: per setup, and the tests between them (the JSON of `floe
/// experiment --compare`).
#[derive(Clone, Debug, Serialize)]
pub struct SizeRun {
    /// The game's name.
    pub game: &'static str,
    /// The size.
    pub size: String,
    /// The seed.
    pub seed: u64,
    /// Challenges per setup.
    pub challenges: u64,
    /// One summary per setup.
    pub setups: Vec<Summary>,
    /// The tests between the setups.
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// A size as a key for file names (`BoxOff (4, 6, 4)` → `boxoff4x6x4`).
pub fn size_key(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
            ',' => Some('x'),
            _ => None,
        })
        .collect::<String>()
}

/// The paper's figures for these runs, each as a file name and an SVG document: box plots
/// of the solvability over the trials (Figures 7 and 16), histograms of the shortest
/// solutions (Figures 10 and 17), the diagnostics by solvability (Figures 18 and 19), and
/// over several sizes the sweeps (Pretzel: Figures 9 and 11).
pub fn figures(game: Kind, docs: &[SizeRun]) -> Vec<(String, String)> {
    let mut written = Vec::new();
    let mut save = |name: String, svg: String| written.push((name, svg));
    for d in docs {
        let key = size_key(&d.size);
        // box plots of P(Sp) and P(Sr) over the trials (Figures 7 and 16)
        let mut bp = BoxPlot::new(format!(
            "{}: solvability over {} trials",
            d.size,
            d.setups[0].trials.len()
        ))
        .y_label("fraction of challenges solved")
        .whiskers(Whiskers::MinMax)
        .mean()
        .y_range(0.0, 1.0);
        for s in &d.setups {
            bp = bp
                .group(
                    format!("{} P(Sp)", s.label),
                    s.trials.iter().map(|t| t.solvable),
                )
                .group(
                    format!("{} P(Sr)", s.label),
                    s.trials.iter().map(|t| t.random_solvable),
                );
        }
        save(format!("solitaire-{key}-solvability.svg"), bp.to_svg());
        // histograms of the shortest solution lengths (Figures 10 and 17)
        let lo = d.setups.iter().filter_map(|s| s.length.min).min();
        let hi = d.setups.iter().filter_map(|s| s.length.max).max();
        if let (Some(lo), Some(hi)) = (lo, hi) {
            let mut chart = BarChart::new(format!(
                "{}: shortest solution lengths (solvable challenges)",
                d.size
            ))
            .x_label("moves")
            .y_label("challenges")
            .integer_bins(i64::from(lo), i64::from(hi));
            for s in &d.setups {
                let values: Vec<f64> = (lo..=hi)
                    .map(|l| *s.length.histogram.get(&l).unwrap_or(&0) as f64)
                    .collect();
                let label = match s.length.median {
                    Some(m) => format!("{} (median {m})", s.label),
                    None => s.label.to_string(),
                };
                chart = chart.series(BarSeries::new(label, values));
            }
            save(format!("solitaire-{key}-lengths.svg"), chart.to_svg());
        }
        // the diagnostics by solvability (Figures 18 and 19)
        let split = |s: &Summary| match &s.metrics {
            Metrics::BoxOff { pair_equality } => {
                Some((pair_equality.solvable.mean, pair_equality.unsolvable.mean))
            }
            Metrics::Fujisan { connectivity, .. } => {
                Some((connectivity.solvable.mean, connectivity.unsolvable.mean))
            }
            Metrics::Pretzel { .. } => None,
        };
        if game != Kind::Pretzel {
            let (title, y) = if game == Kind::BoxOff {
                (
                    "pair equality",
                    "share of adjacent pairs with equal colours",
                )
            } else {
                ("connectivity", "steps connected to a step (mean)")
            };
            let vals: Vec<(f64, f64)> = d.setups.iter().filter_map(split).collect();
            let chart = BarChart::new(format!("{}: {title} by solvability", d.size))
                .y_label(y)
                .categories(d.setups.iter().map(|s| s.label))
                .series(BarSeries::new("solvable", vals.iter().map(|v| v.0)).colour("#222222"))
                .series(BarSeries::new("unsolvable", vals.iter().map(|v| v.1)).colour("#bbbbbb"));
            save(
                format!("solitaire-{key}-{}.svg", title.replace(' ', "-")),
                chart.to_svg(),
            );
        }
    }
    if docs.len() > 1 {
        // sweeps over the sizes (Pretzel: Figures 9 and 11)
        let x = |d: &SizeRun| match d.size.rsplit_once(", ") {
            Some((_, n)) => n.trim_end_matches(')').parse::<f64>().unwrap_or(0.0),
            None => 0.0,
        };
        let key = size_key(&docs[0].size);
        let key = key
            .rsplit_once('x')
            .map_or(key.clone(), |(a, _)| a.to_string());
        for (what, f, file) in [
            (
                "P(Sp)",
                (|s: &Summary| s.solvable) as fn(&Summary) -> f64,
                "solvability",
            ),
            ("P(Sp) − P(Sr)", |s: &Summary| s.interest, "interest"),
            ("P(Sr)", |s: &Summary| s.random_solvable, "random"),
        ] {
            let mut plot =
                LinePlot::new(format!("{} over the number of ranks: {what}", game.title()))
                    .x_label("ranks")
                    .y_label(what)
                    .y_range(0.0, 1.0);
            let dashes = [Dash::Dotted, Dash::Dashed, Dash::Solid, Dash::DashDot];
            for (i, s) in docs[0].setups.iter().enumerate() {
                let pts: Vec<(f64, f64)> = docs.iter().map(|d| (x(d), f(&d.setups[i]))).collect();
                plot = plot.series(Series::new(s.label, pts).markers().dash(dashes[i % 4]));
            }
            save(format!("solitaire-{key}-sweep-{file}.svg"), plot.to_svg());
        }
    }
    written
}
