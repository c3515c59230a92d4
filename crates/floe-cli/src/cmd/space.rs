//! `floe space`: every position reachable from a level's start, any game.

use super::{board_request, in_level};
use crate::args::BoardJobArgs;
use crate::out::{self, human_bytes, human_time, thousands, Spinner};
use crate::Done;
use floe::game::{Request, SpaceReport};
use floe::search::Limits;
use floe::Error;

/// `floe space`.
pub fn run(a: BoardJobArgs) -> Result<Done, Error> {
    let req = board_request(&a.board)?;
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("enumerating {}", req.level.name()));
    let mut e = report(&req, &a, &limits)?;
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
/// allows it: what `floe space --json` prints (but for the peak memory of the process).
pub(crate) fn report(
    req: &Request,
    a: &BoardJobArgs,
    limits: &Limits,
) -> Result<SpaceReport, Error> {
    super::judge(req.level.name(), req.level.estimate(), &a.limits)?;
    req.level
        .space(limits)
        .map_err(|e| in_level(req.level.name(), e))
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
