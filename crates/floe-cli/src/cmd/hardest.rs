//! `floe hardest`: the levels of a size whose optimal solution is the longest, each verified
//! by the exact solver.

use super::indent;
use crate::args::HardestArgs;
use crate::out::{self, thousands};
use crate::Done;
use floe::game::hardest::{By, Counts, HardestOptions, HardestReport, Method};
use floe::game::Params;
use floe::ops::hardest;
use floe::search::Limits;
use floe::Error;

/// The options of a `floe hardest` command line: those every game shares, and the game's
/// counts by flag name (the game refuses one it does not have).
pub fn options(a: &HardestArgs) -> Result<(HardestOptions, Counts), Error> {
    let mut o = HardestOptions::new(a.rows, a.cols);
    let mut p = Params::new();
    if let Some(r) = &a.rules {
        p.set("rules", r.clone(), "--rules");
    }
    if let Some(k) = &a.k {
        p.set("k", k.clone(), "--k");
    }
    o.params = p;
    let mut counts = Counts::new();
    counts.set_given("rocks", a.rocks);
    counts.set_given("blocks", a.blocks);
    counts.set_given("targets", a.targets);
    counts.set_given("walls", a.walls);
    counts.set_given("floor", a.floor);
    o.by = match a.by.trim().to_ascii_lowercase().as_str() {
        "length" | "moves" | "pushes" => By::Length,
        "difficulty" => By::Difficulty,
        other => {
            return Err(Error::invalid(format!(
                "--by {other}: expected length or difficulty"
            )))
        }
    };
    o.factor = a.factor;
    o.method = if a.anneal {
        Method::Anneal
    } else {
        Method::Exact
    };
    o.seed = a.seed;
    o.restarts = a.restarts;
    o.on_best = Some(floe::game::hardest::OnBest(std::sync::Arc::new(
        |best, secs| eprintln!("hardest: {best} after {secs:.1} s"),
    )));
    o.steps = a.steps;
    o.top = a.top;
    o.limits = Limits {
        timeout: a.time,
        stop: a.stop.clone(),
        ..Limits::none()
    };
    Ok((o, counts))
}

/// `floe hardest`.
pub fn run(a: HardestArgs) -> Result<Done, Error> {
    let (mut o, counts) = options(&a)?;
    // the bar counts the exact search's parts, the annealing's steps or, with --time, its
    // milliseconds; PushPush's census tells the boards it has classified
    let unit = match (o.method, a.time) {
        (_, Some(_)) => "ms of --time",
        (Method::Anneal, None) => "steps",
        (Method::Exact, None) => "parts",
    };
    let census = floe::games::spec(&a.game).is_ok_and(|(g, _)| g.info().name == "pushpush");
    let bar = if census {
        out::Spinner::attach(&mut o.limits, "hardest: census")
    } else {
        let (bar, tally) = out::Spinner::counting("hardest", unit);
        o.progress = tally;
        bar
    };
    let r = hardest(&a.game, &o, &counts);
    drop(bar);
    let r = r?;
    if let Some(dir) = &a.out {
        for (i, l) in r.levels.iter().enumerate() {
            let file = dir.join(format!(
                "hardest-{}-{}x{}-{}.txt",
                r.game,
                r.rows,
                r.cols,
                i + 1
            ));
            out::write_file(&file, &l.level)?;
        }
    }
    if a.json {
        out::json(&r);
    } else {
        print(&r);
    }
    if r.levels.is_empty() {
        if let Some(l) = r.limit {
            eprintln!("floe: no level found: the search was stopped {}", by(l));
        }
    }
    // a search with no level has no answer, however it ended (as `generate`)
    Ok(
        if (r.method == "exact" && !r.exhaustive) || r.levels.is_empty() {
            Done::NoAnswer
        } else {
            Done::Answered
        },
    )
}

/// The flag or event that stopped the search, as the user gave it (`--time`).
fn by(limit: &str) -> String {
    match limit {
        "timeout" => "by --time".into(),
        l => out::by(l),
    }
}

fn print(r: &HardestReport) {
    let counts: Vec<String> = r.counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    outln!(
        "hardest {} levels of {}×{}{}{}: {} search by {}, {} placements in {:.2} s{}",
        r.game,
        r.rows,
        r.cols,
        if counts.is_empty() { "" } else { ", " },
        counts.join(", "),
        r.method,
        r.by,
        thousands(r.searched),
        r.seconds,
        match r.limit {
            Some(l) => format!(" (stopped {})", by(l)),
            None => String::new(),
        }
    );
    if let Some(n) = r.best_count {
        if r.exhaustive {
            let what = if n == 1 { "level" } else { "levels" };
            outln!("{} {what} of the best value, up to symmetry", thousands(n));
        }
    }
    let word = floe::games::find(r.game).map_or("moves", |g| g.info().moves_word());
    for (i, l) in r.levels.iter().enumerate() {
        outln!();
        let d = l
            .difficulty
            .map_or(String::new(), |d| format!(", least difficulty {d}"));
        outln!("{}. {} {word}{d}", i + 1, l.length);
        outp!("{}", indent(&l.level));
        let moves: Vec<String> = l.moves.iter().map(|m| m.text().to_string()).collect();
        outln!("    {}", moves.join(", "));
    }
}
