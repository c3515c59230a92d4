//! `floe profile`: the least difficulty of every reachable position per block-change factor
//! (ice blocks: Kluiver's Figures 19–27).

use super::{board_request, ice_level, in_level};
use crate::args::ProfileArgs;
use crate::out::{self, human_time, thousands, Spinner};
use crate::Done;
use floe::analysis::ice::profile::{profile, Profile, ProfileReport};
use floe::Error;
use std::time::Instant;

/// `floe profile`.
pub fn run(a: ProfileArgs) -> Result<Done, Error> {
    let req = board_request(&a.board)?;
    let (level, rule) = ice_level(&req, "difficulty profiles")?;
    let name = req.level.name();
    if a.factors.is_empty() {
        return Err(Error::invalid("give at least one factor (--factors 0,5)"));
    }
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("profiling {name}"));
    let t = Instant::now();
    let r = profile(&level, rule, &a.factors, &limits).map_err(|e| in_level(name, e))?;
    drop(spinner);
    let prof: Option<&Profile> = r.as_ref().ok();
    // the picture and the table are one result: written beside their old versions first,
    // put in place together after the report is printed (which a full disk does not lose)
    let mut files = floe::mem::FileSet::new();
    let staged = (|| -> Result<(), Error> {
        if let Some(prof) = prof {
            if let Some(path) = &a.svg {
                files.add(path, prof.figure(name).to_svg())?;
            }
            if let Some(path) = &a.csv {
                files.add(path, prof.csv())?;
            }
        }
        Ok(())
    })();
    if a.json {
        out::json(&ProfileReport::of(
            req.game.info().name,
            req.level.params(),
            name,
            &r,
            t.elapsed().as_secs_f64(),
        ));
    } else {
        outln!("{name}: {}", req.level.describe());
        match &r {
            Err(g) => outln!(
                "no answer: stopped {} after storing {} positions (the profile needs them all)",
                out::by(g.kind.name()),
                thousands(g.states)
            ),
            Ok(prof) => {
                outln!(
                    "{} positions, {} pushes between them",
                    thousands(prof.states),
                    thousands(prof.moves)
                );
                outln!("| factor | hardest position | mean | positions at ≤ 25% / 50% / 75% of the hardest |");
                outln!("|---:|---:|---:|---|");
                for f in &prof.factors {
                    let c = f.cumulative();
                    let at = |x: f64| {
                        c.iter()
                            .take_while(|(cx, _)| *cx <= x + 1e-12)
                            .last()
                            .map_or(0, |(_, n)| *n)
                    };
                    outln!(
                        "| {} | {} | {:.2} | {} / {} / {} |",
                        f.factor,
                        f.max,
                        f.mean,
                        thousands(at(0.25)),
                        thousands(at(0.5)),
                        thousands(at(0.75))
                    );
                }
                if let Some(path) = &a.svg {
                    outln!("cumulative curves drawn to {}", path.display());
                }
                if let Some(path) = &a.csv {
                    outln!("table written to {}", path.display());
                }
            }
        }
        outln!("{}", human_time(t.elapsed()));
    }
    staged?;
    files.commit(Vec::new)?;
    Ok(Done::when(r.is_ok()))
}
