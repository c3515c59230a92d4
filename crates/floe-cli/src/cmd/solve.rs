//! `floe solve`: any game, any algorithm; the solution replayed by the game's rules, printed
//! as text or JSON, and drawn when asked.

use super::{count, in_level, indent, request};
use crate::args::{SolutionPictureArgs, SolveArgs};
use crate::out::{self, human_time, thousands, Spinner};
use crate::Done;
use floe::game::{SolveReport, Status};
use floe::ops::{Request, SolveOptions};
use floe::render::board::{animated_svg, arrows_svg, frames_svg, Style};
use floe::render::plural;
use floe::search::Limits;
use floe::Error;

/// `floe solve`.
pub fn run(a: SolveArgs) -> Result<Done, Error> {
    let req = request(&a.level)?;
    let info = req.game.info();
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("solving {}", req.level.name()));
    let r = report(&req, &a.solve, limits)?;
    drop(spinner);
    if a.json {
        out::json(&r);
    } else {
        outln!("{}: {}", req.level.name(), req.level.describe());
        print_report(&r, info, a.boards);
    }
    picture(&a.picture, &r, a.json)?;
    Ok(Done::when(r.status.answered()))
}

/// The solve `a` asks for, within `limits`: what `floe solve --json` prints.
pub(crate) fn report(
    req: &Request,
    a: &floe::request::Solve,
    limits: Limits,
) -> Result<SolveReport, Error> {
    let o = SolveOptions {
        algorithm: a.algo.clone(),
        factor: a.factor,
        limits,
        seed: a.random.seed,
        max_moves: a.random.max_moves,
        playouts: a.random.playouts,
        count: a.random.count,
        difficulty: true,
        threads: a.threads,
    };
    req.level
        .solve(&o)
        .map_err(|e| in_level(req.level.name(), e))
}

/// The report for people.
fn print_report(r: &SolveReport, info: &floe::game::Info, boards: bool) {
    let word = info.moves_word();
    let explored = format!(
        "{} explored in {}",
        count(r.states, "position", "positions"),
        human_time(std::time::Duration::from_secs_f64(r.seconds))
    );
    let how = info
        .algorithm(&r.algorithm)
        .map_or_else(|| r.algorithm.clone(), |a| a.about.to_string());
    let random = r.details.random();
    match r.status {
        Status::Solved => {
            let n = r.length.unwrap_or(0);
            let mut line = format!("solved ({how}): {}", count(n, info.move_word, word));
            if let Some(d) = &r.difficulty {
                line.push_str(&format!(", {d}"));
            }
            outln!("{line}");
            let positions = if boards { r.boards() } else { Vec::new() };
            if let Some(b) = positions.first() {
                outp!("{}", indent(b));
            }
            for (i, s) in r.steps.iter().enumerate() {
                outln!("{:>4}. {s}", i + 1);
                if let Some(b) = positions.get(i + 1) {
                    outp!("{}", indent(b));
                }
            }
            if random.is_none() {
                outln!("{explored}");
            }
        }
        Status::Unsolvable => match &r.note {
            Some(n) => outln!("no solution: {n}"),
            None => outln!("no solution: every reachable position was explored ({explored})"),
        },
        Status::Limit if random.is_none() => outln!(
            "no answer: stopped {} at depth {}; at least {} are needed ({explored})",
            out::by(r.limit.unwrap_or("limit")),
            r.depth,
            count(u64::from(r.lower_bound.unwrap_or(0)), info.move_word, word)
        ),
        Status::Limit | Status::GaveUp => {
            outln!("{}", r.note.as_deref().unwrap_or("no solution found"))
        }
    }
    if let Some(d) = random {
        outln!(
            "{} random draws, {} in {}",
            thousands(d.attempts),
            count(d.playouts, "game", "games"),
            human_time(std::time::Duration::from_secs_f64(r.seconds))
        );
    }
}

/// Writes the picture of a solution when `--svg` was given; a level without a solution gets
/// no picture (said on standard error).
fn picture(p: &SolutionPictureArgs, r: &SolveReport, json: bool) -> Result<(), Error> {
    let Some(path) = &p.svg else {
        return Ok(());
    };
    let Some(story) = r.story() else {
        eprintln!(
            "floe: no solution, so no picture written to {}",
            path.display()
        );
        return Ok(());
    };
    let story = story?;
    let style = Style {
        coords: p.coords,
        cell: 0,
    };
    let (svg, what) = if p.frames {
        (frames_svg(&story, &style), "frames")
    } else if p.animate {
        (animated_svg(&story, &style), "animation")
    } else {
        (arrows_svg(&story, &style), "arrows")
    };
    out::write_file(path, svg)?;
    if !json {
        outln!(
            "picture ({what}, {}): {}",
            plural(story.acts.len(), "move", "moves"),
            path.display()
        );
    }
    Ok(())
}
