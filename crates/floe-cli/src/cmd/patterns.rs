//! `floe patterns`: trains and zigzags in a solution (ice blocks, van den Akker).

use super::{board_request, count, ice_level, in_level, Head};
use crate::args::PatternsArgs;
use crate::out::{self, Spinner};
use crate::Done;
use floe::analysis::ice::patterns::{annotate, solve_and_annotate, Annotated};
use floe::grid::Push;
use floe::Error;
use serde::Serialize;

#[derive(Serialize)]
struct PatternsJson<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    solved: bool,
    #[serde(flatten)]
    annotated: Option<&'a Annotated>,
}

/// `floe patterns`.
pub fn run(a: PatternsArgs) -> Result<Done, Error> {
    let req = board_request(&a.board)?;
    let (level, rule) = ice_level(&req, "movement patterns")?;
    let name = req.level.name();
    let annotated = match &a.moves {
        Some(path) => {
            let (text, file) = floe::input::read_text(path)?;
            let moves = req.level.parse_moves(&text, &file)?;
            // an illegal move list is bad input, as in `floe verify`
            let v = req.level.verify(&moves, None)?;
            if let Some(e) = v.error {
                return Err(Error::invalid(format!("{file}: {e}")));
            }
            let pushes: Vec<Push> = moves.iter().filter_map(|m| m.typed().copied()).collect();
            Some(annotate(&level, rule, &pushes)?)
        }
        None => {
            let mut limits = a.limits.limits();
            let spinner = Spinner::attach(&mut limits, &format!("solving {name}"));
            let r = solve_and_annotate(&level, rule, &limits).map_err(|e| in_level(name, e))?;
            drop(spinner);
            r
        }
    };
    if a.json {
        out::json(&PatternsJson {
            head: Head::of(&req, name),
            solved: annotated.is_some(),
            annotated: annotated.as_ref(),
        });
    } else {
        outln!("{name}: {}", req.level.describe());
        match &annotated {
            None => outln!("no solution within the limits: nothing to annotate"),
            Some(an) => {
                for (i, m) in an.moves.iter().enumerate() {
                    let tag = match (m.pattern, m.occurrence, m.shift) {
                        (Some(pat), Some(o), Some(d)) => {
                            format!("{} #{} (moves its formation {d})", pattern_name(pat), o + 1)
                        }
                        _ => String::new(),
                    };
                    outln!(
                        "{:>4}. ({}, {}) {:<5}  {tag}",
                        i + 1,
                        m.row,
                        m.col,
                        m.dir.name()
                    );
                }
                outln!(
                    "{}, {}",
                    count(an.trains as u64, "train", "trains"),
                    count(an.zigzags as u64, "zigzag", "zigzags")
                );
            }
        }
    }
    Ok(Done::Answered)
}

fn pattern_name(p: floe::analysis::ice::patterns::Pattern) -> &'static str {
    match p {
        floe::analysis::ice::patterns::Pattern::Train => "train",
        floe::analysis::ice::patterns::Pattern::Zigzag => "zigzag",
    }
}
