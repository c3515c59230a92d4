//! `floe generate`: ice block levels by Kluiver's retrograde generator, each verified by
//! exact search.

use crate::args::GenerateArgs;
use crate::out::{self, human_time, thousands};
use crate::Done;
use floe::games::ice::format::write_floe;
use floe::generate::retrograde::{generate as run_generate, shortcut_report};
use floe::request::Naming;
use floe::Error;
use std::time::Instant;

/// `floe generate`.
pub fn run(a: GenerateArgs) -> Result<Done, Error> {
    if a.report {
        return generate_report(&a);
    }
    let start = Instant::now();
    let mut req = a.levels.request(&a.budget, None, Naming::Flags)?;
    let (bar, tally) = out::Spinner::counting("generate", "levels");
    req.progress = tally;
    let batch = run_generate(&req)?;
    drop(bar);
    // an interrupted run, or one that found nothing, leaves an existing file as it was
    if let Some(path) = &a.out {
        let why = if floe::search::interrupted() {
            Some("interrupted")
        } else if batch.levels.is_empty() {
            Some("no level found")
        } else {
            None
        };
        if let Some(why) = why {
            eprintln!(
                "floe: {why} ({} of {} levels from {} candidates); {} not written",
                batch.levels.len(),
                a.levels.count,
                thousands(batch.candidates),
                path.display()
            );
            return Ok(Done::NoAnswer);
        }
    }
    let text = write_floe(
        &batch
            .levels
            .iter()
            .map(|e| e.level.clone())
            .collect::<Vec<_>>(),
    );
    match &a.out {
        Some(path) => out::write_file(path, &text)?,
        None if !a.json => outp!("{text}"),
        None => {}
    }
    let complete = batch.levels.len() == a.levels.count;
    if a.json {
        out::json(&batch.report(a.levels.count));
    } else {
        eprintln!(
            "floe: {} of {} levels from {} candidates [{}]",
            batch.levels.len(),
            a.levels.count,
            thousands(batch.candidates),
            human_time(start.elapsed())
        );
    }
    if complete {
        Ok(Done::Answered)
    } else if batch.memory_short {
        eprintln!(
            "floe: found {} of the {} levels asked for: stopped at candidate {} as the \
             machine's memory ran short (ulimit -v or a cgroup's limit; a candidate dropped \
             then is not the seed's answer); run it with more memory",
            batch.levels.len(),
            a.levels.count,
            thousands(batch.candidates)
        );
        Ok(Done::NoAnswer)
    } else {
        let by = if a.budget.timeout.is_some() {
            "within the time and candidate limits"
        } else {
            "within the candidate limit (1,048,576 candidates)"
        };
        eprintln!(
            "floe: found {} of the {} levels asked for {by}",
            batch.levels.len(),
            a.levels.count
        );
        Ok(Done::NoAnswer)
    }
}

fn generate_report(a: &GenerateArgs) -> Result<Done, Error> {
    let sizes = match (a.levels.rows, a.levels.cols) {
        (Some(r), Some(c)) => vec![(r, c)],
        (None, None) => vec![(5, 5), (6, 6), (7, 7)],
        _ => {
            return Err(Error::invalid(
                "--report: give both --rows and --cols, or neither",
            ))
        }
    };
    let targets = match a.levels.targets {
        Some(t) => vec![t],
        None => vec![1, 2, 3],
    };
    let pushes = match a.levels.max_pushes {
        Some(q) => (a.levels.min_pushes..=q).map(|p| p as usize).collect(),
        None if a.levels.rows.is_some() => vec![a.levels.min_pushes as usize],
        None => vec![4, 6, 8],
    };
    let extra = a
        .levels
        .max_blocks
        .map_or(2, |b| b.saturating_sub(a.levels.targets.unwrap_or(1)));
    let start = Instant::now();
    let rows = shortcut_report(&sizes, &targets, &pushes, extra, a.samples, a.levels.seed)?;
    if a.json {
        out::json(&rows);
        return Ok(Done::Answered);
    }
    outln!("| size | targets | pushes | levels | full length | fewest = intended before repair | after repair | unsettled |");
    outln!("|---|---|---|---|---|---|---|---|");
    // shares of the levels settled (an unsettled level is not counted as a miss); a row
    // without any says so, never 0%
    let pct = |x: u64, n: u64| {
        if n == 0 {
            "—".to_string()
        } else {
            format!("{x} ({:.0}%)", 100.0 * x as f64 / n as f64)
        }
    };
    for r in &rows {
        outln!(
            "| {}×{} | {} | {} | {}{} | {} | {} | {} | {} |",
            r.rows,
            r.cols,
            r.targets,
            r.pushes,
            r.levels,
            if r.complete {
                String::new()
            } else {
                format!(" of {} (interrupted)", a.samples)
            },
            r.full,
            pct(r.exact_before, r.levels - r.unsettled),
            pct(r.exact_after, r.levels - r.unsettled),
            r.unsettled,
        );
    }
    eprintln!("floe: report in {}", human_time(start.elapsed()));
    Ok(Done::Answered)
}
