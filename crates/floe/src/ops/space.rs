//! The positions of a level of any game: every position reachable from the start (on every
//! core, or shared by workers), what that will need, and the reversibility of the whole state
//! graph ([`AnalyzeReport`]).

use super::solve::{limit_name, params_of};
use crate::analysis::reversibility::{self, Reversibility};
use crate::error::Error;
use crate::game::{Computed, Engine, Game, ParamValues, SpaceReport, Task};
use crate::search::{self, Limits};
use serde::Serialize;

/// Reversibility and dead ends of a level's whole state graph (`floe analyze --json`).
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeReport {
    /// The game's name.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// The parameters in force.
    pub params: ParamValues,
    /// Whether the whole graph was built.
    pub complete: bool,
    /// The figures (only when complete).
    #[serde(flatten)]
    pub figures: Option<Reversibility>,
    /// The limit that stopped the building of the graph.
    pub limit: Option<&'static str>,
    /// Positions stored when it stopped.
    pub states_stored: Option<u64>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak resident memory of the process, when the front end measures it.
    pub peak_rss_bytes: Option<u64>,
}

/// Every position reachable from the start (on every core when the space is large and has a
/// perfect hash).
pub fn enumerate_typed<G: Game>(
    g: G,
    level: &G::Level,
    limits: &Limits,
) -> Result<search::Enumeration, Error> {
    struct Space<'a>(&'a Limits);
    impl<M> Task<M> for Space<'_> {
        type Output = search::Enumeration;
        fn run<E: Engine<Public = M>>(self, e: &E) -> search::Enumeration {
            if search::worth_parallel(e) {
                if let Some(en) = search::count_par(e, self.0) {
                    return en;
                }
            }
            search::enumerate(e, self.0, |_, _| {})
        }
    }
    g.check(level)?;
    g.engine(level, None, Space(limits))
}

/// What enumerating the level's positions will need ([`search::estimate`]), when the game
/// bounds them.
pub(crate) fn estimate_typed<G: Game>(g: G, level: &G::Level) -> Option<search::Estimate> {
    struct Judge;
    impl<M> Task<M> for Judge {
        type Output = Option<search::Estimate>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Self::Output {
            search::estimate(e)
        }
    }
    g.check(level).ok()?;
    g.engine(level, None, Judge).ok()?
}

/// [`enumerate_typed`] as a report.
pub(crate) fn space<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    limits: &Limits,
) -> Result<SpaceReport, Error> {
    let e = enumerate_typed(g, level, limits)?;
    Ok(space_report(g, level, name, &e, None))
}

/// The report of enumeration `e` of the level.
fn space_report<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    e: &search::Enumeration,
    computed: Option<Computed>,
) -> SpaceReport {
    SpaceReport {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        states: e.states,
        depth: e.depth(),
        histogram: e.histogram.clone(),
        complete: e.limit.is_none(),
        limit: limit_name(e.limit),
        expanded: e.stats.expanded,
        seconds: e.stats.elapsed.as_secs_f64(),
        index_bytes: e.peak_bytes,
        peak_rss_bytes: None,
        computed,
    }
}

/// [`space`] shared by the workers that `ex` links ([`search::dist`]).
pub(crate) fn space_on<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    ex: &mut dyn search::dist::Exchange,
    o: &search::dist::DistOptions,
) -> Result<SpaceReport, Error> {
    struct Shared<'a>(
        &'a mut dyn search::dist::Exchange,
        &'a search::dist::DistOptions,
    );
    impl<M> Task<M> for Shared<'_> {
        type Output = Result<search::dist::DistEnumeration<()>, Error>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Self::Output {
            search::dist::enumerate_dist(e, self.0, self.1, || ())
        }
    }
    g.check(level)?;
    let peers = ex.peers();
    let d = g.engine(level, None, Shared(ex, o))?.map_err(|e| match e {
        // say which game and which of its parameters (ice blocks under `--rules walk` have
        // none where under `--rules free` they have one)
        Error::Invalid(m) if m.starts_with("no perfect hash") => {
            let params = params_of(g, level).to_string();
            Error::Invalid(format!(
                "{} ({}{}{params}): {m}; without --workers, --processes and --work-dir it runs \
                 in one process",
                name,
                g.info().name,
                if params.is_empty() { "" } else { ", " },
            ))
        }
        e => e,
    })?;
    let computed = Computed {
        engine: if peers == 1 { "one worker" } else { "shared" }.into(),
        processes: 1,
        workers_per_process: peers,
        work_dir: o.work_dir.as_ref().map(|p| p.display().to_string()),
        resumed_at: d.resumed_at,
        disk_bytes: d.disk_bytes,
        owned: vec![d.owned],
    };
    Ok(space_report(g, level, name, &d.enumeration, Some(computed)))
}

/// Reversibility and dead ends of the whole state graph.
pub(crate) fn analyze<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    limits: &Limits,
) -> Result<AnalyzeReport, Error> {
    struct Analyze<'a>(&'a Limits);
    impl<M> Task<M> for Analyze<'_> {
        type Output = Result<reversibility::Reversibility, search::graph::GraphLimit>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Self::Output {
            reversibility::analyze(e, self.0)
        }
    }
    g.check(level)?;
    let began = std::time::Instant::now();
    let r = g.engine(level, None, Analyze(limits))?;
    Ok(AnalyzeReport {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        complete: r.is_ok(),
        limit: r.as_ref().err().map(|l| l.kind.name()),
        states_stored: r.as_ref().err().map(|l| l.states),
        figures: r.ok(),
        seconds: began.elapsed().as_secs_f64(),
        peak_rss_bytes: None,
    })
}
