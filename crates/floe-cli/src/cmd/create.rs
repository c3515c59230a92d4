//! Creation: `floe image` (pictures drawn with ice blocks).

use super::*;
use clap::Args;
use floe::generate::image::{board_svg, census, draw, finished, DrawLimits, Witness};
use floe::generate::Picture;
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
        std::fs::write(svg, board_svg(&end)).map_err(|e| Error::Io {
            path: svg.display().to_string(),
            source: e,
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
