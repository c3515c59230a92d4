//! `floe hardest`: the levels of a size whose optimal solution is the longest, each verified
//! by the exact solver.

use super::indent;
use crate::args::HardestArgs;
use crate::out::{self, thousands};
use crate::Done;
use floe::game::hardest::{By, Counts, HardestOptions, HardestReport, Method};
use floe::ops::hardest;
use floe::search::Limits;
use floe::Error;
use std::path::{Path, PathBuf};

/// The options of a `floe hardest` command line: those every game shares, and the game's
/// counts by flag name (the game refuses one it does not have).
pub fn options(a: &HardestArgs) -> Result<(HardestOptions, Counts), Error> {
    let mut o = HardestOptions::new(a.rows, a.cols);
    o.params = a.params.params()?;
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
    // the report is printed first: a folder that cannot be written loses no answer
    if let Some(dir) = &a.out {
        save(dir, &r)?;
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

/// What a folder's set of hardest levels (`--out`) answers: the question (the levels' title
/// without their figure), whether it is exact, and the best figure of the set.
#[derive(Debug, PartialEq)]
struct Held {
    question: String,
    exact: bool,
    best: u64,
}

/// The set of `files` (hardest levels of one search) as their headers say: `None` when they
/// do not read as one set (then a new set replaces them).
fn held(files: &[PathBuf], by_difficulty: bool) -> Option<Held> {
    let mut out: Option<Held> = None;
    for f in files {
        let text = std::fs::read_to_string(f).ok()?;
        let mut lines = text.lines();
        let exact = lines.next()?.ends_with(": exact");
        let figures = lines.next()?.trim_start_matches(';').trim();
        let best = if by_difficulty {
            figures
                .split(", ")
                .find_map(|p| p.strip_prefix("least difficulty "))?
                .parse()
                .ok()?
        } else {
            figures.split(' ').next()?.parse().ok()?
        };
        let title = text.lines().find_map(|l| l.strip_prefix("Title: "))?;
        let question = title.rsplit_once(':').map_or(title, |(q, _)| q).to_string();
        match &mut out {
            None => {
                out = Some(Held {
                    question,
                    exact,
                    best,
                })
            }
            Some(h) if h.question == question && h.exact == exact => h.best = h.best.max(best),
            Some(_) => return None,
        }
    }
    out
}

/// Writes the levels found into `dir` as one set (`hardest-GAME-RxC-N.txt`), replacing the
/// set there only when this run's answers the same question at least as well: an exact
/// (exhaustive) set is replaced only by another exact one, a set of the longest found by one
/// as long or longer. Otherwise the folder keeps its set and this run's goes to
/// `dir/partial/`, which the message names.
fn save(dir: &Path, r: &HardestReport) -> Result<(), Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::invalid(format!(
            "--out {}: a file is there; --out names a folder for the levels",
            dir.display()
        )));
    }
    let stem = format!("hardest-{}-{}x{}-", r.game, r.rows, r.cols);
    let set_in = |d: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&stem) && n.ends_with(".txt") && p.is_file())
            })
            .collect();
        v.sort();
        v
    };
    let by_difficulty = r.by == "difficulty";
    let figure = |l: &floe::game::hardest::HardLevel| {
        if by_difficulty {
            l.difficulty.unwrap_or(0)
        } else {
            l.length
        }
    };
    let word = if by_difficulty {
        "least difficulty"
    } else {
        floe::games::find(r.game).map_or("moves", |g| g.info().moves_word())
    };
    let old = set_in(dir);
    if r.levels.is_empty() {
        if !old.is_empty() {
            eprintln!(
                "floe: {} keeps its levels: this run found none",
                dir.display()
            );
        }
        return Ok(());
    }
    let best = r.levels.iter().map(figure).max().unwrap_or(0);
    let ours = held_question(r);
    let keep = match held(&old, by_difficulty) {
        Some(h) if h.question == ours => !r.exhaustive && (h.exact || best < h.best),
        _ => false,
    };
    let target = if keep {
        dir.join("partial")
    } else {
        dir.to_path_buf()
    };
    let mut set = floe::mem::FileSet::new();
    for (i, l) in r.levels.iter().enumerate() {
        set.add(&target.join(format!("{stem}{}.txt", i + 1)), &l.level)?;
    }
    set.commit(|| set_in(&target))?;
    if keep {
        let h = held(&old, by_difficulty).expect("held above");
        eprintln!(
            "floe: {} keeps its levels ({}{} {word}); this run's, {} {word} ({}), are in {}",
            dir.display(),
            if h.exact {
                "exact, "
            } else {
                "the longest found, "
            },
            h.best,
            best,
            floe::generate::hardest::search_words(
                if r.method == "exact" {
                    Method::Exact
                } else {
                    Method::Anneal
                },
                r.exhaustive,
                r.limit.and_then(limit_kind)
            ),
            target.display()
        );
    }
    Ok(())
}

/// The question a report's levels answer, as their titles say it (without the figure).
fn held_question(r: &HardestReport) -> String {
    r.levels
        .first()
        .and_then(|l| l.level.lines().find_map(|x| x.strip_prefix("Title: ")))
        .map(|t| t.rsplit_once(':').map_or(t, |(q, _)| q).to_string())
        .unwrap_or_default()
}

/// The limit named in a report.
fn limit_kind(name: &str) -> Option<floe::search::LimitKind> {
    use floe::search::LimitKind::*;
    [MaxStates, Timeout, MaxMemory, Interrupted, MaxMoves]
        .into_iter()
        .find(|k| k.name() == name)
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
