//! `floe reach`: fewest pushes after which some block rests on each cell (ice blocks, van den
//! Akker's tables).

use super::{board_request, count, ice_level, in_level};
use crate::args::BoardJobArgs;
use crate::out::{self, human_time, thousands, Spinner};
use crate::Done;
use floe::analysis::ice::reach::{reach as reach_table, Reach, ReachReport};
use floe::search::Limits;
use floe::Error;
use std::time::Instant;

/// `floe reach`.
pub fn run(a: BoardJobArgs) -> Result<Done, Error> {
    let req = board_request(&a.board)?;
    let (level, rule) = ice_level(&req, "reach tables")?;
    let name = a.board.file.is_some().then(|| req.level.name().to_string());
    super::judge(req.level.name(), req.level.estimate(), &a.limits)?;
    let mut limits: Limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, "reach");
    let t = Instant::now();
    let r = reach_table(&level, rule, &limits)
        .map_err(|e| in_level(name.as_deref().unwrap_or("empty board"), e))?;
    let seconds = t.elapsed().as_secs_f64();
    drop(spinner);
    if a.json {
        out::json(&ReachReport::new(
            &r,
            name.clone(),
            req.level.params(),
            level.block_count(),
            seconds,
        ));
    } else {
        outln!(
            "{}: {}×{} board, {}, rules {}",
            name.as_deref().unwrap_or("empty board"),
            r.rows,
            r.cols,
            count(level.block_count() as u64, "block", "blocks"),
            rule
        );
        outln!("fewest pushes to rest a block on each cell ('-': never):");
        outp!("{}", reach_grid(&r));
        if let Some(l) = r.limit {
            outln!(
                "stopped {}: entries are upper bounds and cells may be missing",
                out::by(l.name())
            );
        }
        outln!(
            "max {}, mean {} over {} reachable cells; {} positions in {}",
            r.max().map_or("-".into(), |m| m.to_string()),
            r.mean().map_or("-".into(), |m| format!("{m:.2}")),
            r.moves.iter().flatten().flatten().count(),
            thousands(r.states),
            human_time(std::time::Duration::from_secs_f64(seconds))
        );
    }
    Ok(Done::when(r.limit.is_none()))
}

/// The table with right-aligned columns.
pub(crate) fn reach_grid(r: &Reach) -> String {
    let width = r.max().map_or(1, |m| m.to_string().len()).max(1);
    let mut s = String::new();
    for row in &r.moves {
        let cells: Vec<String> = row
            .iter()
            .map(|x| match x {
                Some(v) => format!("{v:>width$}"),
                None => format!("{:>width$}", "-"),
            })
            .collect();
        s.push_str("  ");
        s.push_str(&cells.join(" "));
        s.push('\n');
    }
    s
}
