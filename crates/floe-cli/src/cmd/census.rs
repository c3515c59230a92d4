//! `floe census pushpush`: every PushPush board of one size classified at once.

use super::indent;
use crate::args::CensusArgs;
use crate::out::{self, human_time, thousands, Spinner};
use crate::Done;
use floe::games::pushpush::census::{
    census as run_census, figures, hardest_solutions, Census, CensusOptions, CensusOutcome, Report,
};
use floe::games::pushpush::Variant;
use floe::grid::Push;
use floe::Error;
use std::path::{Path, PathBuf};

/// `floe census pushpush`.
pub fn run(a: CensusArgs) -> Result<Done, Error> {
    let mut o = CensusOptions::new(a.rows, a.cols);
    o.variant = Variant::new(a.k);
    o.difficulty = a.difficulty;
    o.hardest = a.hardest;
    o.limits = a.limits.limits();
    if let Some(b) = o.limits.max_memory {
        o.max_bytes = b;
    }
    let spinner = Spinner::attach(&mut o.limits, &format!("{}×{} census", a.rows, a.cols));
    let c = match run_census(&o)? {
        CensusOutcome::Done(c) => *c,
        CensusOutcome::Limit {
            kind,
            steps,
            positions,
            seconds,
        } => {
            drop(spinner);
            eprintln!(
                "floe: the census stopped {} after {steps} push steps over {} positions ({}); no census is reported",
                out::by(kind.name()),
                thousands(positions),
                human_time(std::time::Duration::from_secs_f64(seconds))
            );
            return Ok(Done::NoAnswer);
        }
    };
    drop(spinner);
    let solutions = hardest_solutions(&c)?;
    if let Some(path) = &a.svg {
        write_figures(&c, path)?;
    }
    if a.json {
        let mut r = Report::new(&c, &solutions);
        r.peak_memory_bytes = out::peak_rss_bytes();
        out::json(&r);
    } else {
        print_census(&c, &solutions);
    }
    Ok(Done::Answered)
}

/// The figures next to `path`: `path` itself and its `-…` siblings.
fn write_figures(c: &Census, path: &Path) -> Result<(), Error> {
    let stem = path.with_extension("");
    for (suffix, svg) in figures(c) {
        let file = if suffix.is_empty() {
            path.to_path_buf()
        } else {
            PathBuf::from(format!("{}{suffix}.svg", stem.display()))
        };
        out::write_file(&file, svg)?;
    }
    Ok(())
}

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * part as f64 / whole as f64)
    }
}

fn print_census(c: &Census, solutions: &[Vec<Push>]) {
    outln!(
        "{}×{} {} census: {} boards, {} unsolvable ({}); {} positions solved in {}",
        c.rows,
        c.cols,
        c.variant.name(),
        thousands(c.boards),
        thousands(c.unsolvable),
        pct(c.unsolvable, c.boards),
        thousands(c.positions),
        human_time(std::time::Duration::from_secs_f64(c.seconds))
    );
    outln!();
    outln!("| pushes | boards | share |");
    outln!("|---:|---:|---:|");
    for (d, &n) in c.by_pushes.iter().enumerate() {
        outln!("| {d} | {} | {} |", thousands(n), pct(n, c.boards));
    }
    outln!(
        "| unsolvable | {} | {} |",
        thousands(c.unsolvable),
        pct(c.unsolvable, c.boards)
    );
    outln!();
    outln!("| blocks | solvable | unsolvable | unsolvable share |");
    outln!("|---:|---:|---:|---:|");
    for r in &c.by_blocks {
        if r.solvable + r.unsolvable > 0 {
            outln!(
                "| {} | {} | {} | {} |",
                r.blocks,
                thousands(r.solvable),
                thousands(r.unsolvable),
                pct(r.unsolvable, r.solvable + r.unsolvable)
            );
        }
    }
    outln!();
    outln!(
        "classes: {} after merging robot cells within a region, {} after merging symmetries, {} after both",
        thousands(c.classes.robot_region),
        thousands(c.classes.symmetry),
        thousands(c.classes.both)
    );
    if let Some(d) = &c.difficulty {
        outln!();
        outln!("| pushes | mean difficulty |");
        outln!("|---:|---:|");
        for (p, &s) in d.sum_by_pushes.iter().enumerate().skip(1) {
            if c.by_pushes[p] > 0 {
                outln!("| {p} | {:.3} |", s / c.by_pushes[p] as f64);
            }
        }
    }
    outln!();
    outln!(
        "hardest: {} boards need {} pushes ({} classes); {} listed with a solution:",
        thousands(c.hardest.count),
        c.hardest.pushes,
        thousands(c.hardest.classes),
        c.hardest.boards.len()
    );
    for (h, m) in c.hardest.boards.iter().zip(solutions) {
        outln!();
        outp!("{}", indent(&h.board.rows_text()));
        let moves: Vec<String> = m.iter().map(|p| p.to_string()).collect();
        outln!("    {}", moves.join(", "));
    }
}

/// The PushPush part of `floe demo`: the 4×4 census, its hardest board solved.
pub(crate) fn demo() -> Result<(), Error> {
    let c = match run_census(&CensusOptions::new(4, 4))? {
        CensusOutcome::Done(c) => *c,
        CensusOutcome::Limit { .. } => {
            return Err(Error::Internal("the 4×4 census has no limits".into()))
        }
    };
    outln!(
        "\nPushPush (van der Velden 2023): all {} boards of 4×4 classified in {}: {} unsolvable,",
        thousands(c.boards),
        human_time(std::time::Duration::from_secs_f64(c.seconds)),
        thousands(c.unsolvable)
    );
    outln!(
        "{} solved without a push, {} with one; the hardest {} boards need {} pushes, for example:",
        thousands(c.by_pushes[0]),
        thousands(c.by_pushes.get(1).copied().unwrap_or(0)),
        thousands(c.hardest.count),
        c.hardest.pushes
    );
    if let Some(h) = c.hardest.boards.first() {
        outp!("{}", indent(&h.board.rows_text()));
        if let Some(m) = hardest_solutions(&c)?.first() {
            let moves: Vec<String> = m.iter().map(|p| p.to_string()).collect();
            outln!("    {}", moves.join(", "));
        }
    }
    Ok(())
}
