//! `floe reach`: fewest pushes after which some block rests on each cell (ice blocks, van den
//! Akker's tables).

use super::distributed::{self, computed, level_identity, progress_words};
use super::{board_request, count, ice_level, in_level};
use crate::args::SharedJobArgs;
use crate::out::{self, human_time, thousands, Spinner};
use crate::Done;
use floe::analysis::ice::reach::{reach as reach_table, reach_on, Reach, ReachReport};
use floe::game::Computed;
use floe::search::Limits;
use floe::Error;
use std::time::Instant;

/// `floe reach`.
pub fn run(sa: SharedJobArgs) -> Result<Done, Error> {
    let a = &sa.job;
    let req = board_request(&a.board)?;
    let (level, rule) = ice_level(&req, "reach tables")?;
    let name = a.board.file.is_some().then(|| req.level.name().to_string());
    let t = Instant::now();
    let mut how = None;
    let r = if sa.cluster.active() {
        let identity = level_identity("reach", &req, &a.board)?;
        let space = distributed::rankable("reach", req.level.estimate())?;
        let mut s = distributed::prepare("reach", &sa.cluster, &a.limits, identity, space)?;
        let spinner = (s.layout.process == 0)
            .then(|| Spinner::showing(&mut s.opts.limits.progress, "reach", progress_words(space)));
        let opts = s.opts.clone();
        let board = level.clone();
        let results =
            crate::cluster::run(&s.layout, &s.greeting(), s.opts.limits.timeout, move |ex| {
                reach_on(&board, rule, ex, &opts)
            })?;
        drop(spinner);
        let results = results
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| in_level(name.as_deref().unwrap_or("empty board"), s.explain(e)))?;
        let parts: Vec<Computed> = results
            .iter()
            .map(|(_, d)| Computed {
                resumed_at: d.resumed_at,
                disk_bytes: d.disk_bytes,
                owned: vec![d.owned],
                ..Computed::default()
            })
            .collect();
        let c = computed(&s.layout, sa.cluster.work_dir.as_deref(), &parts);
        let first = results.into_iter().next().expect("one worker at least").0;
        if s.layout.process != 0 {
            eprintln!(
                "floe: process {} of {}: {} positions in all, {} owned here",
                s.layout.process,
                s.layout.processes,
                thousands(first.states),
                thousands(c.owned.iter().sum())
            );
            return Ok(Done::when(first.limit.is_none()));
        }
        how = Some((c, s.layout.describe()));
        first
    } else {
        super::judge(req.level.name(), req.level.estimate(), &a.limits)?;
        let mut limits: Limits = a.limits.limits();
        let spinner = Spinner::attach(&mut limits, "reach");
        let r = reach_table(&level, rule, &limits)
            .map_err(|e| in_level(name.as_deref().unwrap_or("empty board"), e))?;
        drop(spinner);
        r
    };
    let seconds = t.elapsed().as_secs_f64();
    if a.json {
        let mut report = ReachReport::new(
            &r,
            name.clone(),
            req.level.params(),
            level.block_count(),
            seconds,
        );
        report.computed = how.map(|(c, _)| c);
        out::json(&report);
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
        if let Some((_, layout)) = how {
            outln!("computed by {layout}");
        }
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
