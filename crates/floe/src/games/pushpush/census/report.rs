//! The census as a report: the JSON contract, its figures, and its hardest boards solved one
//! by one (an independent check of the census).

use super::{Census, DIFFICULTY_BIN, DIFFICULTY_BINS};
use crate::error::Error;
use crate::games::pushpush::level::{Level, PushPush};
use crate::grid::Push;
use crate::ops::{solve_typed, SolveOptions};
use crate::render::plot::{BarChart, BarSeries, HeatMap};
use serde::Serialize;

/// Each hardest board of the census solved alone by the game face (replay-checked); an
/// error if one does not need exactly the census's number of pushes.
pub fn hardest_solutions(c: &Census) -> Result<Vec<Vec<Push>>, Error> {
    let o = SolveOptions {
        difficulty: false,
        ..SolveOptions::default()
    };
    c.hardest
        .boards
        .iter()
        .map(|h| {
            let level = Level {
                board: h.board.clone(),
                variant: c.variant,
            };
            let r = solve_typed(PushPush, &level, &o)?;
            match r.length {
                Some(n) if n == u64::from(c.hardest.pushes) => Ok(r.moves_of::<Push>()),
                _ => Err(Error::Internal(format!(
                    "a hardest board of the census does not need {} pushes when solved alone",
                    c.hardest.pushes
                ))),
            }
        })
        .collect()
}

#[derive(Clone, Debug, Serialize)]
struct BlockJson {
    blocks: usize,
    solvable: u64,
    unsolvable: u64,
    by_pushes: NumMap<u64>,
}

#[derive(Clone, Debug, Serialize)]
struct HardJson {
    board: String,
    boards_in_class: u64,
    moves: Vec<Push>,
}

#[derive(Clone, Debug, Serialize)]
struct HardestJson {
    pushes: u32,
    count: u64,
    classes: u64,
    boards: Vec<String>,
    solutions: Vec<HardJson>,
}

/// The hardest boards with one number of blocks (their representatives as board text; the
/// census's overall hardest are the ones solved again).
#[derive(Clone, Debug, Serialize)]
struct BlockHardestJson {
    blocks: usize,
    pushes: u32,
    count: u64,
    classes: u64,
    boards: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
struct ClassesJson {
    robot_region: u64,
    symmetry: u64,
    both: u64,
}

#[derive(Clone, Debug, Serialize)]
struct DifficultyJson {
    bin_width: f64,
    by_pushes: NumMap<Vec<u64>>,
    by_blocks: NumMap<Vec<u64>>,
    mean_by_pushes: NumMap<f64>,
    mean_by_blocks: NumMap<f64>,
    saturated: u64,
}

/// A census as the JSON contract of `floe census pushpush --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    game: &'static str,
    rows: usize,
    cols: usize,
    variant: String,
    k: usize,
    boards: u64,
    unsolvable: u64,
    by_pushes: NumMap<u64>,
    by_blocks: Vec<BlockJson>,
    hardest: HardestJson,
    hardest_by_blocks: Vec<BlockHardestJson>,
    classes: ClassesJson,
    difficulty: Option<DifficultyJson>,
    positions: u64,
    table_bytes: u64,
    /// Peak resident memory of the process, when the front end measures it.
    pub peak_memory_bytes: Option<u64>,
    /// How it was computed, when its layers were shared by workers and processes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed: Option<crate::game::Computed>,
    seconds: f64,
}

/// A JSON object keyed by small numbers, in numeric order (`{"0": …, "1": …, "10": …}`).
#[derive(Clone, Debug)]
struct NumMap<T>(Vec<(usize, T)>);

impl<T: Serialize> Serialize for NumMap<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(&k.to_string(), v)?;
        }
        m.end()
    }
}

fn keyed(v: &[u64]) -> NumMap<u64> {
    NumMap(
        v.iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, &n)| (d, n))
            .collect(),
    )
}

impl Report {
    /// The report of a census whose hardest boards were solved one by one
    /// ([`hardest_solutions`]).
    pub fn new(c: &Census, solutions: &[Vec<Push>]) -> Report {
        let mean = |sum: f64, n: u64| if n == 0 { 0.0 } else { sum / n as f64 };
        Report {
            game: "pushpush",
            rows: c.rows,
            cols: c.cols,
            variant: c.variant.name(),
            k: c.variant.k,
            boards: c.boards,
            unsolvable: c.unsolvable,
            by_pushes: keyed(&c.by_pushes),
            by_blocks: c
                .by_blocks
                .iter()
                .map(|r| BlockJson {
                    blocks: r.blocks,
                    solvable: r.solvable,
                    unsolvable: r.unsolvable,
                    by_pushes: keyed(&r.by_pushes),
                })
                .collect(),
            hardest: HardestJson {
                pushes: c.hardest.pushes,
                count: c.hardest.count,
                classes: c.hardest.classes,
                boards: c
                    .hardest
                    .boards
                    .iter()
                    .map(|h| h.board.rows_text())
                    .collect(),
                solutions: c
                    .hardest
                    .boards
                    .iter()
                    .zip(solutions)
                    .map(|(h, m)| HardJson {
                        board: h.board.rows_text(),
                        boards_in_class: h.boards_in_class,
                        moves: m.clone(),
                    })
                    .collect(),
            },
            hardest_by_blocks: c
                .hardest_by_blocks
                .iter()
                .enumerate()
                .map(|(blocks, h)| BlockHardestJson {
                    blocks,
                    pushes: h.pushes,
                    count: h.count,
                    classes: h.classes,
                    boards: h.boards.iter().map(|b| b.board.rows_text()).collect(),
                })
                .collect(),
            classes: ClassesJson {
                robot_region: c.classes.robot_region,
                symmetry: c.classes.symmetry,
                both: c.classes.both,
            },
            difficulty: c.difficulty.as_ref().map(|d| DifficultyJson {
                bin_width: DIFFICULTY_BIN,
                by_pushes: NumMap(
                    d.by_pushes
                        .iter()
                        .enumerate()
                        .skip(1)
                        .map(|(p, v)| (p, v.clone()))
                        .collect(),
                ),
                by_blocks: NumMap(
                    d.by_blocks
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| v.iter().any(|&x| x > 0))
                        .map(|(b, v)| (b, v.clone()))
                        .collect(),
                ),
                mean_by_pushes: NumMap(
                    d.sum_by_pushes
                        .iter()
                        .enumerate()
                        .skip(1)
                        .map(|(p, &s)| (p, mean(s, c.by_pushes[p])))
                        .collect(),
                ),
                mean_by_blocks: NumMap(
                    d.sum_by_blocks
                        .iter()
                        .enumerate()
                        .filter(|(b, _)| {
                            c.by_blocks.get(*b).is_some_and(|row| {
                                row.solvable > row.by_pushes.first().copied().unwrap_or(0)
                            })
                        })
                        .map(|(b, &s)| {
                            let row = &c.by_blocks[b];
                            (b, mean(s, row.solvable - row.by_pushes[0]))
                        })
                        .collect(),
                ),
                saturated: d.saturated,
            }),
            positions: c.positions,
            table_bytes: c.table_bytes,
            peak_memory_bytes: None,
            computed: None,
            seconds: c.seconds,
        }
    }
}

/// The name suffixes of every figure [`figures`] may draw: a set of pictures written for one
/// census replaces all of them (those it does not draw are removed).
pub const FIGURE_SUFFIXES: [&str; 5] = [
    "",
    "-pushes",
    "-pushes-by-blocks",
    "-difficulty-by-pushes",
    "-difficulty-by-blocks",
];

/// The census's figures, each as a name suffix and an SVG document: Figure 11 (solvable and
/// unsolvable boards per number of blocks, suffix ``), the histogram of fewest pushes
/// (`-pushes`), Figure 14 (`-pushes-by-blocks`) and with the difficulty Figures 13 and 15
/// (`-difficulty-by-pushes`, `-difficulty-by-blocks`).
pub fn figures(c: &Census) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let title = format!("{}×{} {}", c.rows, c.cols, c.variant.name());
    let blocks: Vec<&super::BlockRow> = c
        .by_blocks
        .iter()
        .filter(|r| r.solvable + r.unsolvable > 0)
        .collect();
    let fig11 = BarChart::new(format!("{title}: boards by number of blocks"))
        .x_label("blocks")
        .y_label("boards")
        .integer_bins(0, blocks.len() as i64 - 1)
        .series(BarSeries::new(
            "solvable",
            blocks.iter().map(|r| r.solvable as f64),
        ))
        .series(BarSeries::new(
            "unsolvable",
            blocks.iter().map(|r| r.unsolvable as f64),
        ))
        .stacked()
        .to_svg();
    out.push(("", fig11));
    let max_d = c.by_pushes.len() as i64 - 1;
    let pushes = BarChart::new(format!("{title}: solvable boards by fewest pushes"))
        .x_label("fewest pushes")
        .y_label("boards (logarithmic)")
        .log_y()
        .integer_bins(0, max_d)
        .series(BarSeries::new(
            "boards",
            c.by_pushes.iter().map(|&n| n as f64),
        ))
        .to_svg();
    out.push(("-pushes", pushes));
    // Figure 14: fewest pushes against blocks, coloured by the number of boards
    let fig14 = HeatMap::new(format!("{title}: fewest pushes by number of blocks"))
        .x_label("blocks")
        .y_label("fewest pushes")
        .value_label("solvable boards (logarithmic colours)")
        .columns(blocks.iter().map(|r| r.blocks.to_string()).collect())
        .rows((0..c.by_pushes.len()).map(|d| d.to_string()).collect())
        .values(
            (0..c.by_pushes.len())
                .map(|d| {
                    blocks
                        .iter()
                        .map(|r| r.by_pushes.get(d).copied().unwrap_or(0) as f64)
                        .collect()
                })
                .collect(),
        )
        .log_scale()
        .to_svg();
    out.push(("-pushes-by-blocks", fig14));
    if let Some(d) = &c.difficulty {
        // Figures 13 and 15: difficulty (bins of DIFFICULTY_BIN) against fewest pushes and
        // against blocks; each column coloured by the share of its boards in each bin
        let shares = |cols: &[&Vec<u64>]| -> Vec<Vec<f64>> {
            (0..DIFFICULTY_BINS)
                .map(|bin| {
                    cols.iter()
                        .map(|bins| {
                            let total: u64 = bins.iter().sum();
                            if total == 0 {
                                0.0
                            } else {
                                100.0 * bins[bin] as f64 / total as f64
                            }
                        })
                        .collect()
                })
                .collect()
        };
        let bin_labels: Vec<String> = (0..DIFFICULTY_BINS)
            .map(|b| format!("{:.1}", b as f64 * DIFFICULTY_BIN))
            .collect();
        let by_pushes: Vec<&Vec<u64>> = d.by_pushes.iter().skip(1).collect();
        let fig13 = HeatMap::new(format!("{title}: difficulty by fewest pushes"))
            .x_label("fewest pushes")
            .y_label("difficulty (lower end of the bin)")
            .value_label("share of the column's boards (%)")
            .columns((1..=max_d).map(|p| p.to_string()).collect())
            .rows(bin_labels.clone())
            .values(shares(&by_pushes))
            .to_svg();
        out.push(("-difficulty-by-pushes", fig13));
        let by_blocks: Vec<&Vec<u64>> = blocks.iter().map(|r| &d.by_blocks[r.blocks]).collect();
        let fig15 = HeatMap::new(format!("{title}: difficulty by number of blocks"))
            .x_label("blocks")
            .y_label("difficulty (lower end of the bin)")
            .value_label("share of the column's boards (%)")
            .columns(blocks.iter().map(|r| r.blocks.to_string()).collect())
            .rows(bin_labels)
            .values(shares(&by_blocks))
            .to_svg();
        out.push(("-difficulty-by-blocks", fig15));
    }
    out
}
