//! `floe table`: the theses' tables of ice block puzzles, computed exactly.

use super::distributed;
use super::reach::reach_grid;
use super::{cell_progress, clear_progress};
use crate::args::{TablePatternsArgs, TableReachArgs, TableSpaceArgs, TableStripArgs};
use crate::out::{self, human_time, thousands};
use crate::Done;
use floe::analysis::ice::reach::reach_on;
use floe::analysis::ice::reach::Reach;
use floe::analysis::ice::tables::{
    patterns_table, reach_table as reach_tables, reach_table_by, space_table, space_table_by,
    space_table_markdown, strip_table, ReachCell, ReachTableReport, SpaceTableReport,
};
use floe::games::ice::{space_on, WalkRule};
use floe::mem::RunIdentity;
use floe::search::dist::DistOptions;
use floe::Error;
use std::time::Instant;

/// The options of a shared run of one table cell: its own folder under the work directory,
/// the table's identity with the cell's size.
fn cell_options(o: &DistOptions, what: &str, (m, n, k): (usize, usize, usize)) -> DistOptions {
    DistOptions {
        work_dir: o
            .work_dir
            .as_ref()
            .map(|d| d.join(format!("{what}-{m}x{n}-{k}"))),
        identity: o
            .identity
            .clone()
            .param("cell", format!("the empty {m}×{n} board with {k} blocks")),
        ..o.clone()
    }
}

/// Runs a table on every worker of the run (each cell shared by all of them): the table at
/// process 0; at the others, which say on standard error how many `what` they did, how
/// they end (answered when `complete` holds for every cell).
fn on_workers<T, F>(
    s: &distributed::Shared,
    what: &str,
    complete: fn(&T) -> bool,
    job: F,
) -> Result<Result<Vec<T>, Done>, Error>
where
    T: Send + 'static,
    F: Fn(&mut dyn floe::search::dist::Exchange) -> Result<Vec<T>, Error> + Send + Sync + 'static,
{
    let results = crate::cluster::run(&s.layout, &s.greeting(), s.opts.limits.timeout, job)?;
    clear_progress();
    let table = results
        .into_iter()
        .next()
        .expect("one worker at least")
        .map_err(|e| s.explain(e))?;
    if s.layout.process != 0 {
        eprintln!(
            "floe: process {} of {}: {} {what} done",
            s.layout.process,
            s.layout.processes,
            table.len()
        );
        return Ok(Err(Done::when(table.iter().all(complete))));
    }
    Ok(Ok(table))
}

/// The largest cell's possible positions (the estimate of a shared table); refused when
/// they are beyond what a shared run can number.
fn largest_space(rows: usize, cols: usize, blocks: usize) -> Result<Option<u64>, Error> {
    let Some((k, board)) = super::largest_cell(rows, cols, blocks) else {
        return Ok(None);
    };
    distributed::rankable(
        &format!("the table's largest cell, {rows}×{cols} with {k} blocks"),
        floe::ops::Level::new(floe::games::ice::Ice, board, "").estimate(),
    )
}

fn cell_line(c: &floe::analysis::ice::tables::SpaceCell) -> String {
    format!(
        "{}×{} with {} blocks: {} ({:.1} s)",
        c.rows,
        c.cols,
        c.blocks,
        c.states.map_or("—".into(), thousands),
        c.seconds
    )
}

pub fn space(a: TableSpaceArgs) -> Result<Done, Error> {
    let (rows, cols, blocks) = (
        a.max_rows as usize,
        a.max_cols as usize,
        a.max_blocks as usize,
    );
    let t = Instant::now();
    let cells = if a.cluster.active() {
        let identity = RunIdentity::new("table space", "ice")
            .param("--max-rows", rows)
            .param("--max-cols", cols)
            .param("--max-blocks", blocks);
        let s = distributed::prepare(
            "the table's largest cell",
            &a.cluster,
            &a.limits,
            identity,
            largest_space(rows.min(cols), cols, blocks)?,
        )?;
        let opts = s.opts.clone();
        let shared_cells = on_workers(
            &s,
            "cells",
            |c: &floe::analysis::ice::tables::SpaceCell| c.limit.is_none(),
            move |ex| {
                let first = ex.index() == 0;
                space_table_by(
                    rows,
                    cols,
                    blocks,
                    &mut |level, cell| {
                        space_on(
                            level,
                            WalkRule::Free,
                            ex,
                            &cell_options(&opts, "space", cell),
                        )
                        .map(|d| d.enumeration)
                    },
                    |c| {
                        if first {
                            cell_progress(cell_line(c))
                        }
                    },
                )
            },
        )?;
        match shared_cells {
            Ok(cells) => cells,
            Err(done) => return Ok(done),
        }
    } else {
        super::judge_table(rows.min(cols), cols, blocks, &a.limits)?;
        let limits = a.limits.limits();
        space_table(rows, cols, blocks, &limits, |c| cell_progress(cell_line(c)))?
    };
    clear_progress();
    let complete = cells.iter().all(|c| c.limit.is_none());
    let stopped = cells.iter().find_map(|c| c.limit).map(|l| {
        let n = cells.iter().filter(|c| c.limit.is_some()).count();
        (l, n, cells.len())
    });
    if a.json {
        let mut report = SpaceTableReport::new(cells, t.elapsed().as_secs_f64());
        report.peak_rss_bytes = out::peak_rss_bytes();
        out::json(&report);
    } else {
        outln!("Reachable positions on empty boards (blocks start along the edge, clockwise from the top-left corner)\n");
        outp!("{}", space_table_markdown(&cells));
        outln!("\n{} cells in {}", cells.len(), human_time(t.elapsed()));
    }
    if let Some((l, stopped, all)) = stopped {
        eprintln!(
            "floe: {stopped} of {all} cells stopped {} (their counts are lower bounds, shown as ≥)",
            out::by(l)
        );
    }
    Ok(Done::when(complete))
}

fn reach_line(c: &ReachCell) -> String {
    format!(
        "{}×{} with {} blocks: max {} ({:.1} s)",
        c.rows,
        c.cols,
        c.blocks,
        c.max.map_or("-".into(), |m| m.to_string()),
        c.seconds
    )
}

pub fn reach(ra: TableReachArgs) -> Result<Done, Error> {
    let a = &ra.table;
    let most = a.blocks.iter().copied().max().unwrap_or(0);
    let side = a.max_size as usize;
    let t = Instant::now();
    let boards: Vec<(usize, usize)> = (a.min_size..=a.max_size)
        .map(|s| (s as usize, s as usize))
        .collect();
    let tables = if ra.cluster.active() {
        let blocks: Vec<String> = a.blocks.iter().map(|k| k.to_string()).collect();
        let identity = RunIdentity::new("table reach", "ice")
            .param("--min-size", a.min_size)
            .param("--max-size", a.max_size)
            .param("--blocks", blocks.join(","));
        let s = distributed::prepare(
            "the table's largest board",
            &ra.cluster,
            &a.limits,
            identity,
            largest_space(side, side, most)?,
        )?;
        let opts = s.opts.clone();
        let (b, k) = (boards.clone(), a.blocks.clone());
        let shared_tables = on_workers(
            &s,
            "tables",
            |c: &ReachCell| c.limit.is_none(),
            move |ex| {
                let first = ex.index() == 0;
                reach_table_by(
                    &b,
                    &k,
                    &mut |level, cell| {
                        reach_on(
                            level,
                            WalkRule::Free,
                            ex,
                            &cell_options(&opts, "reach", cell),
                        )
                        .map(|(r, _)| r)
                    },
                    |c| {
                        if first {
                            cell_progress(reach_line(c))
                        }
                    },
                )
            },
        )?;
        match shared_tables {
            Ok(tables) => tables,
            Err(done) => return Ok(done),
        }
    } else {
        super::judge_table(side, side, most, &a.limits)?;
        let limits = a.limits.limits();
        reach_tables(&boards, &a.blocks, &limits, |c| {
            cell_progress(reach_line(c))
        })?
    };
    clear_progress();
    let complete = tables.iter().all(|c| c.limit.is_none());
    if a.json {
        out::json(&ReachTableReport::new(tables, t.elapsed().as_secs_f64()));
        return Ok(Done::when(complete));
    }
    outln!("Fewest pushes to rest a block on each cell of an empty board, blocks starting in the top row from the left\n");
    for (m, n) in &boards {
        let row: Vec<&ReachCell> = tables
            .iter()
            .filter(|c| (c.rows, c.cols) == (*m, *n))
            .collect();
        if row.is_empty() {
            continue;
        }
        let heads: Vec<String> = row.iter().map(|c| format!("{} blocks", c.blocks)).collect();
        outln!("{m}×{n}: {}", heads.join(" | "));
        let grids: Vec<Vec<String>> = row
            .iter()
            .map(|c| {
                reach_grid(&to_reach(c))
                    .lines()
                    .map(str::to_string)
                    .collect()
            })
            .collect();
        let width = grids
            .iter()
            .map(|g| g.iter().map(|l| l.chars().count()).max().unwrap_or(0))
            .collect::<Vec<_>>();
        for line in 0..*m {
            let parts: Vec<String> = grids
                .iter()
                .zip(&width)
                .map(|(g, w)| format!("{:<w$}", g.get(line).map_or("", String::as_str), w = *w))
                .collect();
            outln!("{}", parts.join("   "));
        }
        outln!();
    }
    let ks: Vec<usize> = a.blocks.clone();
    outln!("Hardest cell (van den Akker's Table 10) and mean (Table 11):\n");
    let mut head = String::from("| board |");
    for k in &ks {
        head.push_str(&format!(" max, {k} blocks | mean, {k} blocks |"));
    }
    outln!("{head}");
    outln!("|---|{}", "---:|---:|".repeat(ks.len()));
    for (m, n) in &boards {
        let mut line = format!("| {m}×{n} |");
        for k in &ks {
            match tables
                .iter()
                .find(|c| (c.rows, c.cols, c.blocks) == (*m, *n, *k))
            {
                Some(c) => line.push_str(&format!(
                    " {} | {} |",
                    c.max.map_or("-".into(), |x| x.to_string()),
                    c.mean.map_or("-".into(), |x| format!("{x:.2}"))
                )),
                None => line.push_str(" — | — |"),
            }
        }
        outln!("{line}");
    }
    outln!("\n{} tables in {}", tables.len(), human_time(t.elapsed()));
    Ok(Done::when(complete))
}

fn to_reach(c: &ReachCell) -> Reach {
    Reach {
        rows: c.rows,
        cols: c.cols,
        moves: c.moves.clone(),
        states: c.states,
        limit: None,
        stats: Default::default(),
    }
}

pub fn strip(a: TableStripArgs) -> Result<Done, Error> {
    let t = Instant::now();
    let limits = a.limits.limits();
    let report = strip_table(
        &a.heights,
        a.max_width as usize,
        &a.blocks,
        a.compare_width,
        &limits,
        |c| {
            cell_progress(format!(
                "{}×{} with {} blocks ({:.1} s)",
                c.rows, c.cols, c.blocks, c.seconds
            ))
        },
    )?;
    clear_progress();
    let complete = report.complete;
    if a.json {
        out::json(&report);
        return Ok(Done::when(complete));
    }
    let (series, thesis_pattern) = (report.series, report.thesis_pattern);
    outln!("Hardest cell (fewest pushes to its hardest cell) on h×n boards, blocks starting in the top row from the left\n");
    let mut head = String::from("| n |");
    for s in &series {
        head.push_str(&format!(" {}×n, {} blocks |", s.height, s.blocks));
    }
    outln!("{head}");
    outln!("|---|{}", "---:|".repeat(series.len()));
    for n in 3..=a.max_width as usize {
        let mut line = format!("| {n} |");
        for s in &series {
            match s.hardest.iter().find(|(w, _)| *w == n) {
                Some((_, m)) => line.push_str(&format!(" {m} |")),
                None => line.push_str(" — |"),
            }
        }
        outln!("{line}");
    }
    outln!("\nClosed forms fitted to the values above (hardest(n) for n from the given width on):");
    for s in &series {
        match &s.closed_form {
            Some(f) => outln!(
                "  {}×n, {} blocks: {}   (n ≥ {})",
                s.height,
                s.blocks,
                f.text,
                f.from
            ),
            None => outln!(
                "  {}×n, {} blocks: no closed form settles within n ≤ {}",
                s.height,
                s.blocks,
                a.max_width
            ),
        }
    }
    for p in &thesis_pattern {
        match p.holds_from {
            Some(n) => outln!(
                "  {}×n, 3 blocks: van den Akker's pattern (the step to n adds 2 at even n, 1 at odd n) holds for every n ≥ {n}",
                p.height
            ),
            None => outln!("  {}×n, 3 blocks: van den Akker's pattern does not settle", p.height),
        }
    }
    let w = a.compare_width;
    outln!("\nHardest cell at width {w} by number of blocks (van den Akker's Table 13):");
    for &h in &a.heights {
        let vals: Vec<String> = series
            .iter()
            .filter(|s| s.height == h)
            .filter_map(|s| {
                s.hardest
                    .iter()
                    .find(|(n, _)| *n == w)
                    .map(|(_, m)| format!("{} blocks: {m}", s.blocks))
            })
            .collect();
        outln!("  {h}×{w}: {}", vals.join(", "));
    }
    outln!("\ncomputed in {}", human_time(t.elapsed()));
    Ok(Done::when(complete))
}

pub fn patterns(a: TablePatternsArgs) -> Result<Done, Error> {
    let t = Instant::now();
    let limits = a.limits.limits();
    let rows = patterns_table(
        a.min_size as usize,
        a.max_size as usize,
        &a.blocks,
        &limits,
        |r| {
            cell_progress(format!(
                "{}×{} with {} blocks ({:.1} s)",
                r.rows, r.cols, r.blocks, r.seconds
            ))
        },
    )?;
    clear_progress();
    if a.json {
        out::json(&rows);
        return Ok(Done::Answered);
    }
    outln!("Are trains (and zigzags) part of a fastest way to the hardest cells? (van den Akker's Table 9)\n");
    let mut head = String::from("| board |");
    for k in &a.blocks {
        head.push_str(&format!(" {k} blocks |"));
    }
    outln!("{head}");
    outln!("|---|{}", "---|".repeat(a.blocks.len()));
    for size in a.min_size as usize..=a.max_size as usize {
        let mut line = format!("| {size}×{size} |");
        for k in &a.blocks {
            match rows.iter().find(|r| (r.rows, r.blocks) == (size, *k)) {
                Some(r) => line.push_str(&format!(
                    " {} ({} pushes{}) |",
                    if r.result.train { "Yes" } else { "No" },
                    r.result.pushes,
                    if r.result.zigzag { ", zigzag too" } else { "" }
                )),
                None => line.push_str(" — |"),
            }
        }
        outln!("{line}");
    }
    outln!("\n{} boards in {}", rows.len(), human_time(t.elapsed()));
    Ok(Done::Answered)
}
