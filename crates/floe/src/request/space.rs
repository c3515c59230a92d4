//! The requests of `floe space` and `floe analyze` (`/api/space`, `/api/analyze`,
//! `floe.space`, `floe.analyze`): every position reachable from a level's start, and the
//! reversibility and dead ends of its state graph ([`crate::ops::space`]). Both also take an
//! empty ice board given by its size.

use super::operation::{Context, Operation};
use super::{fields, LimitArgs};
use crate::error::Error;
use crate::game::{Game, SpaceReport};
use crate::ops::{AnalyzeReport, Level};
use crate::say::{count, seconds, thousands};
use crate::search::stopped_by;
use serde::Deserialize;
use std::fmt::Write;

/// `floe space`: its limits (an enumeration whose estimate does not fit the memory budget
/// is refused unless `--force` or a limit bounds it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Space {
    /// Limits of the enumeration.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub limits: LimitArgs,
}

fields!(Space {} + limits);

impl Operation for Space {
    const NAME: &'static str = "space";
    const ABOUT: &'static str = "Count the positions reachable from a level's start (any \
         game, or an empty ice board)";
    const BOARD: bool = true;
    const SHARED: bool = true;
    type Report = SpaceReport;

    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<SpaceReport, Error> {
        let estimate = crate::ops::space::estimate_typed(game, level);
        if let Some(e) = self.limits.judge(name, estimate, cx.naming)? {
            cx.say(&format!("{name}: {e} (an estimate before the run)"));
        }
        let mut r = crate::ops::space::space(game, level, name, &cx.limits(&self.limits))?;
        r.peak_rss_bytes = crate::mem::peak_resident_bytes();
        Ok(r)
    }

    fn complete(r: &SpaceReport) -> bool {
        r.complete
    }

    fn limits_mut(&mut self) -> Option<&mut LimitArgs> {
        Some(&mut self.limits)
    }

    fn text(&self, r: &SpaceReport, level: &Level) -> String {
        let mut out = format!("{}: {}\n", level.name(), level.describe());
        space_text(&mut out, r, level.game().info().moves_word());
        out
    }
}

/// The text of an enumeration's report, after the level's line.
pub fn space_text(out: &mut String, e: &SpaceReport, word: &str) {
    let _ = match e.limit {
        None => writeln!(
            out,
            "{} reachable positions, at most {} {word} from the start",
            thousands(e.states),
            e.depth
        ),
        Some(l) => writeln!(
            out,
            "stopped {}: at least {} reachable positions, {} layers explored",
            stopped_by(l),
            thousands(e.states),
            e.histogram.len()
        ),
    };
    let hist: Vec<String> = e.histogram.iter().map(|&n| thousands(n)).collect();
    let _ = writeln!(
        out,
        "positions by {word} from the start: {}",
        hist.join(" ")
    );
    let _ = writeln!(
        out,
        "{} in {}, visited index {}{}",
        if e.complete { "done" } else { "stopped" },
        seconds(e.seconds),
        crate::mem::human_bytes(e.index_bytes as u64),
        peak(e.peak_rss_bytes)
    );
}

/// `, peak memory 12.0 MiB`, when it is known.
fn peak(bytes: Option<u64>) -> String {
    bytes.map_or(String::new(), |b| {
        format!(", peak memory {}", crate::mem::human_bytes(b))
    })
}

/// `floe analyze`: the limits of the building of the state graph.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Analyze {
    /// Limits of the building of the state graph.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub limits: LimitArgs,
}

fields!(Analyze {} + limits);

impl Operation for Analyze {
    const NAME: &'static str = "analyze";
    const ABOUT: &'static str = "Reversibility and dead ends: components of the state \
         graph, positions with no move, positions that can no longer be solved, moves that \
         cannot be undone (any game)";
    const BOARD: bool = true;
    type Report = AnalyzeReport;

    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<AnalyzeReport, Error> {
        let mut r = crate::ops::space::analyze(game, level, name, &cx.limits(&self.limits))?;
        r.peak_rss_bytes = crate::mem::peak_resident_bytes();
        Ok(r)
    }

    fn complete(r: &AnalyzeReport) -> bool {
        r.complete
    }

    fn limits_mut(&mut self) -> Option<&mut LimitArgs> {
        Some(&mut self.limits)
    }

    fn text(&self, r: &AnalyzeReport, level: &Level) -> String {
        let info = level.game().info();
        let mut out = format!("{}: {}\n", level.name(), level.describe());
        let _ = match &r.figures {
            None => writeln!(
                out,
                "no answer: stopped {} after storing {} positions (the analysis needs them all)",
                stopped_by(r.limit.unwrap_or("limit")),
                thousands(r.states_stored.unwrap_or(0))
            ),
            Some(f) => {
                let _ = writeln!(
                    out,
                    "{} positions, {} moves between them; the farthest is {} from the start",
                    thousands(f.states),
                    thousands(f.moves),
                    count(f.depth as u64, info.move_word, info.moves_word())
                );
                let _ = writeln!(
                    out,
                    "{} (largest {}, the start's {}); {} with no way out",
                    count(
                        f.sccs,
                        "strongly connected component",
                        "strongly connected components"
                    ),
                    thousands(f.largest_scc),
                    thousands(f.start_scc_size),
                    count(f.sink_sccs, "component", "components")
                );
                let _ = writeln!(
                    out,
                    "entirely reversible: {}",
                    if f.entirely_reversible { "yes" } else { "no" }
                );
                let _ = writeln!(
                    out,
                    "irreversible moves: {} of {}; undone by one move: {}",
                    thousands(f.irreversible_moves),
                    thousands(f.moves),
                    thousands(f.directly_reversible_moves)
                );
                let _ = writeln!(
                    out,
                    "dead ends (no move at all): {}",
                    thousands(f.dead_ends)
                );
                writeln!(
                    out,
                    "solvable positions: {} of {} ({} can no longer be solved){}",
                    thousands(f.solvable_states),
                    thousands(f.states),
                    thousands(f.unsolvable_states),
                    if f.solvable_from_start {
                        ""
                    } else {
                        "; the start itself cannot be solved"
                    }
                )
            }
        };
        let _ = writeln!(out, "{}{}", seconds(r.seconds), peak(r.peak_rss_bytes));
        out
    }
}
