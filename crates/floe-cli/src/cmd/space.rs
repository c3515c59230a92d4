//! A shared `floe space`: every position reachable from a level's start, counted by workers,
//! processes and machines, out of core and resumable (docs/cluster.md). The plain `floe
//! space` is the library's operation (`cmd::op`).

use super::board_request;
use super::distributed::{self, computed, level_identity, progress_words};
use crate::args::{BoardArgs, ClusterArgs, LimitArgs};
use crate::out::{self, thousands, Spinner};
use crate::Done;
use floe::request::space_text;
use floe::Error;

/// `floe space` shared by workers, processes and machines, or kept on disk.
pub(crate) fn shared(
    board: &BoardArgs,
    limits: &LimitArgs,
    cluster: &ClusterArgs,
    json: bool,
) -> Result<Done, Error> {
    let req = board_request(board)?;
    let level = req.level.clone();
    let identity = level_identity("space", &req, board)?;
    let what = format!("enumerating {}", level.name());
    let space = distributed::rankable(&what, level.estimate())?;
    let mut s = distributed::prepare(&what, cluster, limits, identity, space)?;
    let spinner = (s.layout.process == 0)
        .then(|| Spinner::showing(&mut s.opts.limits.progress, &what, progress_words(space)));
    let opts = s.opts.clone();
    let results =
        crate::cluster::run(&s.layout, &s.greeting(), s.opts.limits.timeout, move |ex| {
            level.space_on(ex, &opts)
        })?;
    drop(spinner);
    let reports = results
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| s.explain(e))?;
    let parts: Vec<_> = reports.iter().filter_map(|r| r.computed.clone()).collect();
    let mut e = reports.into_iter().next().expect("one worker at least");
    e.computed = Some(computed(&s.layout, cluster.work_dir.as_deref(), &parts));
    e.peak_rss_bytes = out::peak_rss_bytes();
    if s.layout.process != 0 {
        eprintln!(
            "floe: process {} of {}: {} positions in all, {} owned here, {}",
            s.layout.process,
            s.layout.processes,
            thousands(e.states),
            thousands(parts.iter().flat_map(|c| &c.owned).sum()),
            if e.complete { "done" } else { "stopped" }
        );
    } else if json {
        out::json(&e);
    } else {
        let mut text = format!("{}: {}\n", req.level.name(), req.level.describe());
        space_text(&mut text, &e, req.game.info().moves_word());
        outp!("{text}");
        outln!("computed by {}", s.layout.describe());
        if let Some(at) = e.computed.as_ref().and_then(|c| c.resumed_at) {
            outln!("taken up at layer {at}: the expanded positions and the time are this run's");
        }
    }
    // a stopped run on disk can be taken up: say how (on stderr, beside any JSON)
    if let (false, Some(dir)) = (e.complete, cluster.work_dir.as_ref()) {
        // --max-states counts the whole run's positions, taken up or not: the same limit
        // stops the resumed run again after a layer
        let again = match e.limit {
            Some("max-states") => " (with a larger --max-states or none: it counts the whole run)",
            _ => "",
        };
        eprintln!(
            "floe: layers 0 to {} are kept in {}: the same command with --resume takes the \
             run up from there{again}",
            e.histogram.len().saturating_sub(1),
            dir.display()
        );
    }
    Ok(Done::when(e.complete))
}
