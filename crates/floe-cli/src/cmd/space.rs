//! `floe space`: every position reachable from a level's start, any game.

use super::distributed::{self, computed, level_identity, progress_words};
use super::{board_request, in_level};
use crate::args::{LimitArgs, SharedJobArgs};
use crate::out::{self, human_bytes, human_time, thousands, Spinner};
use crate::Done;
use floe::game::SpaceReport;
use floe::ops::Request;
use floe::search::Limits;
use floe::Error;

/// `floe space`.
pub fn run(a: SharedJobArgs) -> Result<Done, Error> {
    if a.cluster.active() {
        return run_shared(a);
    }
    let a = a.job;
    let req = board_request(&a.board)?;
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("enumerating {}", req.level.name()));
    let mut e = report(&req, &a.limits, &limits)?;
    drop(spinner);
    e.peak_rss_bytes = out::peak_rss_bytes();
    if a.json {
        out::json(&e);
    } else {
        outln!("{}: {}", req.level.name(), req.level.describe());
        print_space(&e, req.game.info().moves_word());
    }
    Ok(Done::when(e.complete))
}

/// Every position reachable from the level's start, within `limits`, once the estimate
/// allows it (judged against the budget and `--force` of `asked`): what `floe space --json`
/// prints (but for the peak memory of the process).
pub(crate) fn report(
    req: &Request,
    asked: &LimitArgs,
    limits: &Limits,
) -> Result<SpaceReport, Error> {
    super::judge(req.level.name(), req.level.estimate(), asked)?;
    req.level
        .space(limits)
        .map_err(|e| in_level(req.level.name(), e))
}

/// `floe space` shared by workers, processes and machines, or kept on disk.
fn run_shared(a: SharedJobArgs) -> Result<Done, Error> {
    let req = board_request(&a.job.board)?;
    let level = req.level.clone();
    let identity = level_identity("space", &req, &a.job.board)?;
    let what = format!("enumerating {}", level.name());
    let space = distributed::rankable(&what, level.estimate())?;
    let mut s = distributed::prepare(&what, &a.cluster, &a.job.limits, identity, space)?;
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
    e.computed = Some(computed(&s.layout, a.cluster.work_dir.as_deref(), &parts));
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
    } else if a.job.json {
        out::json(&e);
    } else {
        outln!("{}: {}", req.level.name(), req.level.describe());
        print_space(&e, req.game.info().moves_word());
        outln!("computed by {}", s.layout.describe());
        if let Some(at) = e.computed.as_ref().and_then(|c| c.resumed_at) {
            outln!("taken up at layer {at}: the expanded positions and the time are this run's");
        }
    }
    // a stopped run on disk can be taken up: say how (on stderr, beside any JSON)
    if let (false, Some(dir)) = (e.complete, a.cluster.work_dir.as_ref()) {
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

fn print_space(e: &SpaceReport, word: &str) {
    match e.limit {
        None => outln!(
            "{} reachable positions, at most {} {word} from the start",
            thousands(e.states),
            e.depth
        ),
        Some(l) => outln!(
            "stopped {}: at least {} reachable positions, {} layers explored",
            out::by(l),
            thousands(e.states),
            e.histogram.len()
        ),
    }
    let hist: Vec<String> = e.histogram.iter().map(|&n| thousands(n)).collect();
    outln!("positions by {word} from the start: {}", hist.join(" "));
    outln!(
        "{} in {}, visited index {}{}",
        if e.complete { "done" } else { "stopped" },
        human_time(std::time::Duration::from_secs_f64(e.seconds)),
        human_bytes(e.index_bytes as u64),
        e.peak_rss_bytes.map_or(String::new(), |b| format!(
            ", peak memory {}",
            human_bytes(b)
        ))
    );
}
