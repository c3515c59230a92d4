//! `floe image`: can a black-and-white picture be drawn with ice blocks (van den Akker,
//! section 5)?

use crate::args::ImageArgs;
use crate::out::{self, human_time, thousands};
use crate::Done;
use floe::games::ice::Ice;
use floe::generate::image::{census, draw, finished, DrawLimits, Witness};
use floe::generate::Picture;
use floe::ops::Level;
use floe::render::board::{board_svg, Style};
use floe::Error;
use std::time::Instant;

/// `floe image`.
pub fn run(a: ImageArgs) -> Result<Done, Error> {
    if let Some(n) = a.census {
        return image_census(n, a.json);
    }
    let path = a
        .file
        .as_deref()
        .expect("clap requires FILE without --census");
    let picture = Picture::load(path)?;
    let deadline = a.timeout.and_then(|t| Instant::now().checked_add(t));
    let mut limits = DrawLimits {
        max_searches: a.max_searches,
        deadline,
        max_memory: a.max_memory.or_else(floe::mem::default_budget),
        progress: None,
    };
    let spinner = out::Spinner::showing(&mut limits.progress, "drawing", |p| {
        format!(
            "{} placement searches, {} positions",
            thousands(p.stats.expanded),
            thousands(p.stats.states)
        )
    });
    let start = Instant::now();
    let file = path.display().to_string();
    let drawn = draw(&picture, limits).map_err(|e| super::in_level(&file, e));
    drop(spinner);
    let report = match drawn? {
        Ok(r) => r,
        Err(stopped) => {
            eprintln!(
                "floe: {}: no answer within the limits ({} placement searches)",
                path.display(),
                stopped.searches
            );
            if a.json {
                out::json(&stopped);
            }
            return Ok(Done::NoAnswer);
        }
    };
    if let Some(svg) = &a.svg {
        let (level, _) = floe::games::ice::format::parse(&report.board, "<board>", None)
            .map_err(Error::from)
            .map(|mut v| (v.remove(0), ()))?;
        let end = finished(&level, &report.moves)?;
        let scene = Level::new(Ice, end, "").scene();
        out::write_file(svg, board_svg(&scene, &Style::default()))?;
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
