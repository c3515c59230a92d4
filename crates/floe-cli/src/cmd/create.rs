//! Creation: `floe image` (pictures drawn with ice blocks) and `floe generate` (levels made
//! by Kluiver's retrograde generator, verified by exact search).

use super::*;
use clap::Args;
use floe::games::ice::format::write_floe;
use floe::generate::image::{census, draw, finished, DrawLimits, Witness};
use floe::generate::retrograde::{generate as run_generate, shortcut_report, GenParams, Request};
use floe::generate::Picture;
use floe::render::board::{board_svg, ice_scene, Style};
use std::path::PathBuf;
use std::time::Duration;

/// `floe image FILE`: can the picture be drawn with ice blocks, and how.
#[derive(Args, Debug)]
pub struct ImageArgs {
    /// The picture: PBM (P1 or P4) or ASCII art (`#` black, `.` white); `-` for standard
    /// input. Not needed with --census.
    #[arg(value_name = "FILE", required_unless_present = "census")]
    file: Option<PathBuf>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Draw the finished board as an SVG picture.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Give up after this many seconds (exit code 1).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Give up after this many placement searches (exit code 1).
    #[arg(long, value_name = "N")]
    max_searches: Option<u64>,
    /// Instead of a file: decide every picture of every size up to N×N (N ≤ 4) and check
    /// them against the Figure 21 configurations.
    #[arg(long, value_name = "N", conflicts_with = "file")]
    census: Option<usize>,
}

/// `floe image`.
pub fn image(a: ImageArgs) -> Result<Done, Error> {
    if let Some(n) = a.census {
        return image_census(n, a.json);
    }
    let path = a
        .file
        .as_deref()
        .expect("clap requires FILE without --census");
    let picture = Picture::load(path)?;
    let deadline = match a.timeout {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            return Err(Error::invalid(format!("--timeout {t}: give seconds ≥ 0")))
        }
        Some(t) => Some(Instant::now() + Duration::from_secs_f64(t)),
        None => None,
    };
    let limits = DrawLimits {
        max_searches: a.max_searches,
        deadline,
    };
    let start = Instant::now();
    let report = match draw(&picture, limits)? {
        Ok(r) => r,
        Err(stopped) => {
            eprintln!(
                "floe: no answer within the limits ({} placement searches)",
                stopped.searches
            );
            if a.json {
                out::json(&serde_json::json!({
                    "creatable": null,
                    "searches": stopped.searches,
                }));
            }
            return Ok(Done::NoAnswer);
        }
    };
    if let Some(svg) = &a.svg {
        let (level, _) = floe::games::ice::format::parse(&report.board, "<board>", None)
            .map_err(Error::from)
            .map(|mut v| (v.remove(0), ()))?;
        let end = finished(&level, &report.moves)?;
        std::fs::write(svg, board_svg(&ice_scene(&end, ""), &Style::default())).map_err(|e| {
            Error::Io {
                path: svg.display().to_string(),
                source: e,
            }
        })?;
    }
    if a.json {
        out::json(&report);
        return Ok(Done::Answered);
    }
    outln!(
        "{}×{} picture, {} black pixels",
        picture.rows(),
        picture.cols(),
        picture.count()
    );
    if report.creatable {
        outln!(
            "creatable: {} pushes ({} placement searches, {})",
            thousands(report.pushes as u64),
            thousands(report.searches),
            human_time(start.elapsed())
        );
        // the order as in the thesis's Figure 20: number and side per pixel
        let mut grid = vec![vec![String::from("  ."); picture.cols()]; picture.rows()];
        for (k, p) in report.order.iter().enumerate() {
            let side = match p.from {
                floe::grid::Dir::Up => 'U',
                floe::grid::Dir::Right => 'R',
                floe::grid::Dir::Down => 'D',
                floe::grid::Dir::Left => 'L',
            };
            grid[p.row][p.col] = format!("{:>3}{side}", k + 1);
        }
        outln!("order (number and the side each block came from):");
        for row in grid {
            outln!(
                "{}",
                row.iter().map(|c| format!("{c:>4}")).collect::<String>()
            );
        }
    } else {
        outln!(
            "not creatable ({} placement searches)",
            thousands(report.searches)
        );
        match &report.witness {
            Some(Witness::Configuration { figure, row, col }) => outln!(
                "witness: the Figure 21 configuration '{figure}' at rows {row}–{}, columns {col}–{}",
                row + 2,
                col + 2
            ),
            Some(Witness::Last { last }) if last.is_empty() => {
                outln!("witness: no pixel can be placed last")
            }
            Some(Witness::Last { last }) => outln!(
                "witness: only {} can be placed last, and the rest cannot be drawn then",
                last.iter()
                    .map(|p| format!("({p})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => {}
        }
    }
    Ok(Done::Answered)
}

fn image_census(n: usize, json: bool) -> Result<Done, Error> {
    if !(1..=4).contains(&n) {
        return Err(Error::invalid(format!("--census {n}: give 1 to 4")));
    }
    let mut all = Vec::new();
    for r in 1..=n {
        for c in 1..=n {
            let t = Instant::now();
            let cen = census(r, c)?;
            if !json {
                outln!(
                    "{r}×{c}: {} pictures, {} creatable, {} not ({} with a Figure 21 configuration, {} without; {} minimal), {} with one but creatable  [{}]",
                    thousands(cen.pictures),
                    thousands(cen.creatable),
                    thousands(cen.not_creatable),
                    thousands(cen.with_figure_21),
                    thousands(cen.without_figure_21),
                    thousands(cen.minimal),
                    thousands(cen.figure_21_but_creatable),
                    human_time(t.elapsed())
                );
            }
            all.push(cen);
        }
    }
    if json {
        out::json(&all);
    } else {
        for cen in &all {
            for ex in cen.minimal_examples.iter().take(3) {
                outln!("{}×{} minimal without Figure 21:\n{ex}", cen.rows, cen.cols);
            }
        }
    }
    Ok(Done::Answered)
}

/// `floe generate`: ice block levels by Kluiver's retrograde generator, each verified by
/// exact search.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Board rows.
    #[arg(long, value_name = "R", required_unless_present = "report")]
    rows: Option<usize>,
    /// Board columns.
    #[arg(long, value_name = "C", required_unless_present = "report")]
    cols: Option<usize>,
    /// Targets (each starts the generation with a block on it; default 1).
    #[arg(long, value_name = "T")]
    targets: Option<usize>,
    /// Most blocks on the board: the targets' blocks plus stopper blocks (default: targets + 2).
    #[arg(long, value_name = "B")]
    max_blocks: Option<usize>,
    /// Keep levels whose fewest pushes are at least P.
    #[arg(long, value_name = "P", default_value_t = 3)]
    min_pushes: u64,
    /// Keep levels whose fewest pushes are at most Q; the intended solutions have P to Q
    /// pushes (default: P to 2P, no upper bound on the fewest).
    #[arg(long, value_name = "Q")]
    max_pushes: Option<u64>,
    /// Keep levels whose least difficulty (at --factor) is at least D.
    #[arg(long, value_name = "D")]
    min_difficulty: Option<u64>,
    /// Block-change factor of the difficulty.
    #[arg(long, value_name = "F", default_value_t = 5)]
    factor: u64,
    /// Keep only levels whose optimal solution is unique up to move order.
    #[arg(long)]
    unique: bool,
    /// Stoppers may also be walls.
    #[arg(long)]
    walls: bool,
    /// Levels wanted.
    #[arg(long, value_name = "N", default_value_t = 1)]
    count: usize,
    /// Seed: the same seed gives the same file.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Write the levels here (floe format) instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Give up after this many seconds (exit code 1 with fewer levels than asked).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Drop a candidate whose verification would store more positions than this.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_states: u64,
    /// Print one JSON document (the figures of every level) on standard output.
    #[arg(long)]
    json: bool,
    /// Instead of levels: how often the fewest pushes equal the intended pushes, before and
    /// after the shortcut repair, for sizes 5×5, 6×6, 7×7, 1–3 targets and 4, 6, 8 pushes
    /// (or the --rows/--cols, --targets, and --min-pushes or --min-pushes to --max-pushes
    /// given).
    #[arg(long)]
    report: bool,
    /// Levels per setting of --report.
    #[arg(long, value_name = "N", default_value_t = 100)]
    samples: u64,
}

/// `floe generate`.
pub fn generate(a: GenerateArgs) -> Result<Done, Error> {
    if a.report {
        return generate_report(&a);
    }
    let (rows, cols) = (a.rows.expect("clap"), a.cols.expect("clap"));
    let targets = a.targets.unwrap_or(1);
    let deadline = match a.timeout {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            return Err(Error::invalid(format!("--timeout {t}: give seconds ≥ 0")))
        }
        Some(t) => Some(Instant::now() + Duration::from_secs_f64(t)),
        None => None,
    };
    if let Some(q) = a.max_pushes {
        if q < a.min_pushes {
            return Err(Error::invalid(format!(
                "--max-pushes {q} is below --min-pushes {}",
                a.min_pushes
            )));
        }
    }
    if a.factor > floe::games::ice::MAX_FACTOR {
        return Err(Error::invalid(format!(
            "--factor {}: at most {}",
            a.factor,
            floe::games::ice::MAX_FACTOR
        )));
    }
    let req = Request {
        params: GenParams {
            rows,
            cols,
            targets,
            max_blocks: a.max_blocks.unwrap_or(targets + 2),
            pushes: 0,
            walls: a.walls,
        },
        min_pushes: a.min_pushes,
        max_pushes: a.max_pushes,
        min_difficulty: a.min_difficulty,
        factor: a.factor,
        unique: a.unique,
        count: a.count,
        seed: a.seed,
        deadline,
        max_states: a.max_states,
    };
    let start = Instant::now();
    let batch = run_generate(&req)?;
    let text = write_floe(
        &batch
            .levels
            .iter()
            .map(|e| e.level.clone())
            .collect::<Vec<_>>(),
    );
    match &a.out {
        Some(path) => std::fs::write(path, &text).map_err(|e| Error::Io {
            path: path.display().to_string(),
            source: e,
        })?,
        None if !a.json => outp!("{text}"),
        None => {}
    }
    let complete = batch.levels.len() == a.count;
    if a.json {
        out::json(&serde_json::json!({
            "complete": complete,
            "count": batch.levels.len(),
            "candidates": batch.candidates,
            "levels": batch.levels,
        }));
    } else {
        eprintln!(
            "floe: {} of {} levels from {} candidates [{}]",
            batch.levels.len(),
            a.count,
            thousands(batch.candidates),
            human_time(start.elapsed())
        );
    }
    if complete {
        Ok(Done::Answered)
    } else {
        eprintln!(
            "floe: found {} of the {} levels asked for within the time and candidate limits",
            batch.levels.len(),
            a.count
        );
        Ok(Done::NoAnswer)
    }
}

fn generate_report(a: &GenerateArgs) -> Result<Done, Error> {
    let sizes = match (a.rows, a.cols) {
        (Some(r), Some(c)) => vec![(r, c)],
        (None, None) => vec![(5, 5), (6, 6), (7, 7)],
        _ => {
            return Err(Error::invalid(
                "--report: give both --rows and --cols, or neither",
            ))
        }
    };
    let targets = match a.targets {
        Some(t) => vec![t],
        None => vec![1, 2, 3],
    };
    let pushes = match a.max_pushes {
        Some(q) => (a.min_pushes..=q).map(|p| p as usize).collect(),
        None if a.rows.is_some() => vec![a.min_pushes as usize],
        None => vec![4, 6, 8],
    };
    let extra = a
        .max_blocks
        .map_or(2, |b| b.saturating_sub(a.targets.unwrap_or(1)));
    let start = Instant::now();
    let rows = shortcut_report(&sizes, &targets, &pushes, extra, a.samples, a.seed)?;
    if a.json {
        out::json(&rows);
        return Ok(Done::Answered);
    }
    outln!("| size | targets | pushes | levels | full length | fewest = intended before repair | after repair |");
    outln!("|---|---|---|---|---|---|---|");
    let pct = |x: u64, n: u64| {
        if n == 0 {
            0.0
        } else {
            100.0 * x as f64 / n as f64
        }
    };
    for r in &rows {
        outln!(
            "| {}×{} | {} | {} | {} | {} | {} ({:.0}%) | {} ({:.0}%) |",
            r.rows,
            r.cols,
            r.targets,
            r.pushes,
            r.levels,
            r.full,
            r.exact_before,
            pct(r.exact_before, r.levels),
            r.exact_after,
            pct(r.exact_after, r.levels),
        );
    }
    eprintln!("floe: report in {}", human_time(start.elapsed()));
    Ok(Done::Answered)
}
