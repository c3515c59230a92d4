//! PushPush: `floe solve --game pushpush` and `floe census pushpush`.

use super::solving::VerifyError;
use super::*;
use crate::CensusArgs;
use floe::games::pushpush::board::{self as ppboard, Board};
use floe::games::pushpush::census::{
    census as run_census, Census, CensusOptions, CensusOutcome, DIFFICULTY_BIN, DIFFICULTY_BINS,
};
use floe::games::pushpush::{self as pp, Difficulty, Search, Variant};
use floe::render::plot::{BarChart, BarSeries, HeatMap};
use floe::search::Outcome;

pub(super) fn variant_of(k: Option<usize>) -> Variant {
    Variant::new(k.unwrap_or(1))
}

pub(super) fn load(a: &LevelArgs) -> Result<(Board, String), Error> {
    if a.format.is_some() || a.rules.is_some() {
        return Err(Error::invalid(
            "--format and --rules are ice block options; PushPush boards have one format and no walking rule",
        ));
    }
    let boards = ppboard::load(&a.file)?;
    let (i, b) = match a.level.as_deref() {
        Some(sel) => ppboard::select(&boards, sel)?,
        None if boards.len() == 1 => (0, &boards[0]),
        None => {
            let names: Vec<String> = boards
                .iter()
                .enumerate()
                .map(|(i, b)| format!("{} {}", i + 1, b.display_name(i)))
                .collect();
            return Err(Error::invalid(format!(
                "{} holds {} boards; pick one with --level N or --level NAME ({})",
                a.file.display(),
                boards.len(),
                names.join(", ")
            )));
        }
    };
    Ok((b.clone(), b.display_name(i)))
}

#[derive(Serialize)]
struct SolveJson<'a> {
    level: &'a str,
    game: &'static str,
    variant: String,
    k: usize,
    rows: usize,
    cols: usize,
    blocks: usize,
    solved: bool,
    status: &'static str,
    limit: Option<&'static str>,
    pushes: Option<u64>,
    moves: &'a [Push],
    difficulty: Option<Difficulty>,
    states: u64,
    expanded: u64,
    seconds: f64,
}

/// `floe solve` on a PushPush board.
pub fn solve(a: &SolveArgs) -> Result<Done, Error> {
    if a.dynamic {
        return Err(Error::invalid("--dynamic is an Ice Tower option"));
    }
    let (board, name) = load(&a.level)?;
    let search = match a.algo.unwrap_or(SolveAlgo::Exact(Algorithm::Bfs)) {
        SolveAlgo::Exact(Algorithm::Bfs) => Search::Bfs,
        SolveAlgo::Exact(Algorithm::AStar) => Search::AStar,
        SolveAlgo::Exact(Algorithm::IdaStar) => Search::IdaStar,
        _ => {
            return Err(Error::invalid(
                "PushPush boards are solved with --algo bfs, astar or idastar",
            ))
        }
    };
    let variant = variant_of(a.k);
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("solving {name}"));
    let opts = pp::SolveOptions {
        variant,
        search,
        limits,
        difficulty: true,
    };
    let r = pp::solve(&board, &opts)?;
    drop(spinner);
    let (status, limit) = match Status::from(&r.outcome) {
        Status::Limit(l) => ("limit", Some(l.name())),
        s => (s.name(), None),
    };
    let moves: &[Push] = r.outcome.solution().unwrap_or(&[]);
    if a.json {
        out::json(&SolveJson {
            level: &name,
            game: "pushpush",
            variant: variant.name(),
            k: variant.k,
            rows: board.rows(),
            cols: board.cols(),
            blocks: board.block_count(),
            solved: status == "solved",
            status,
            limit,
            pushes: r.pushes(),
            moves,
            difficulty: r.difficulty,
            states: r.stats.states,
            expanded: r.stats.expanded,
            seconds: r.stats.elapsed.as_secs_f64(),
        });
    } else {
        outln!(
            "{name}: {}×{} PushPush board, {}, {}",
            board.rows(),
            board.cols(),
            count(board.block_count() as u64, "block", "blocks"),
            variant.name()
        );
        let explored = format!(
            "{} explored in {}",
            count(r.stats.states, "position", "positions"),
            human_time(r.stats.elapsed)
        );
        match (&r.outcome, &r.replay) {
            (Outcome::Solved(m), Some(rep)) => {
                outln!(
                    "solved in {} ({explored})",
                    count(m.len() as u64, "push", "pushes")
                );
                if let Some(d) = r.difficulty {
                    outln!(
                        "difficulty {:.3} (thesis equation 3: {} solutions among the {} moves of the tree of push sequences up to {} pushes)",
                        d.value,
                        thousands_u128(d.solutions),
                        thousands_u128(d.possible_moves),
                        d.pushes
                    );
                }
                if a.boards {
                    outp!("{}", indent(&board.rows_text()));
                }
                for (i, s) in rep.steps.iter().enumerate() {
                    outln!("{:>4}. {}", i + 1, s.push);
                    if a.boards {
                        outp!("{}", indent(&s.board.rows_text()));
                    }
                }
            }
            (Outcome::Unsolvable, _) => {
                outln!("no solution: every reachable position explored ({explored})")
            }
            (Outcome::Limit(l), _) => outln!("stopped by --{l}: {explored}, no answer"),
            (Outcome::Solved(_), None) => {
                return Err(Error::Internal("a solution without its replay".into()))
            }
        }
    }
    let solved = matches!(r.outcome, Outcome::Solved(_));
    super::pictures::solution_picture(&a.picture, solved, a.json, || {
        floe::render::board::pushpush_story(&board, variant, moves, &name)
    })?;
    Ok(match r.outcome {
        Outcome::Limit(_) => Done::NoAnswer,
        _ => Done::Answered,
    })
}

#[derive(Serialize)]
struct VerifyJson<'a> {
    level: &'a str,
    game: &'static str,
    variant: String,
    valid: bool,
    solved: bool,
    pushes: Option<usize>,
    error: Option<VerifyError>,
}

/// `floe verify` on a PushPush board: replays the pushes and names the first illegal one.
pub fn verify(a: &VerifyArgs) -> Result<Done, Error> {
    let (board, name) = load(&a.level)?;
    let (text, file) = read_text(&a.moves)?;
    let moves = parse_pushes(&text, &file)?;
    let variant = variant_of(a.k);
    let result = pp::replay(&board, &moves, variant);
    if a.json {
        out::json(&match &result {
            Ok(r) => VerifyJson {
                level: &name,
                game: "pushpush",
                variant: variant.name(),
                valid: true,
                solved: r.solved,
                pushes: Some(r.steps.len()),
                error: None,
            },
            Err(e) => VerifyJson {
                level: &name,
                game: "pushpush",
                variant: variant.name(),
                valid: false,
                solved: false,
                pushes: None,
                error: Some(VerifyError {
                    index: e.index + 1,
                    push: e.push,
                    reason: e.reason.to_string(),
                }),
            },
        });
    } else {
        match &result {
            Ok(r) => {
                outln!(
                    "{name}: {}, every one legal ({}); the robot {} reach the target",
                    count(r.steps.len() as u64, "push", "pushes"),
                    variant.name(),
                    if r.solved { "can" } else { "can NOT" }
                );
                if let Some(last) = r.steps.last().filter(|_| !r.solved) {
                    outp!("{}", indent(&last.board.rows_text()));
                }
            }
            Err(e) => outln!("{name}: {e}"),
        }
    }
    Ok(Done::Answered)
}

fn thousands_u128(n: u128) -> String {
    u64::try_from(n).map_or_else(|_| n.to_string(), thousands)
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

#[derive(Serialize)]
struct BlockJson {
    blocks: usize,
    solvable: u64,
    unsolvable: u64,
    by_pushes: NumMap<u64>,
}

#[derive(Serialize)]
struct HardJson {
    board: String,
    boards_in_class: u64,
    moves: Vec<Push>,
}

#[derive(Serialize)]
struct HardestJson {
    pushes: u32,
    count: u64,
    classes: u64,
    boards: Vec<String>,
    solutions: Vec<HardJson>,
}

#[derive(Serialize)]
struct ClassesJson {
    robot_region: u64,
    symmetry: u64,
    both: u64,
}

#[derive(Serialize)]
struct DifficultyJson {
    bin_width: f64,
    by_pushes: NumMap<Vec<u64>>,
    by_blocks: NumMap<Vec<u64>>,
    mean_by_pushes: NumMap<f64>,
    mean_by_blocks: NumMap<f64>,
    saturated: u64,
}

#[derive(Serialize)]
struct CensusJson {
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
    classes: ClassesJson,
    difficulty: Option<DifficultyJson>,
    positions: u64,
    table_bytes: u64,
    peak_memory_bytes: Option<u64>,
    seconds: f64,
}

/// A JSON object keyed by small numbers, in numeric order (`{"0": …, "1": …, "10": …}`).
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

/// `floe census pushpush`.
pub fn census(a: CensusArgs) -> Result<Done, Error> {
    let mut o = CensusOptions::new(a.rows, a.cols);
    o.variant = Variant::new(a.k);
    o.difficulty = a.difficulty;
    o.hardest = a.hardest;
    if !(a.max_memory.is_finite() && a.max_memory > 0.0) {
        return Err(Error::invalid(
            "--max-memory must be a positive number of GiB",
        ));
    }
    o.max_bytes = (a.max_memory * (1u64 << 30) as f64) as u64;
    o.limits = a.limits.limits();
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
                "floe: the census stopped at --{kind} after {steps} push steps over {} positions ({}); no census is reported",
                thousands(positions),
                human_time(std::time::Duration::from_secs_f64(seconds))
            );
            return Ok(Done::NoAnswer);
        }
    };
    drop(spinner);
    // the hardest boards, solved one by one
    let mut solutions = Vec::new();
    for h in &c.hardest.boards {
        let r = pp::solve(
            &h.board,
            &pp::SolveOptions {
                variant: c.variant,
                ..pp::SolveOptions::default()
            },
        )?;
        match r.outcome {
            Outcome::Solved(m) if m.len() as u32 == c.hardest.pushes => solutions.push(m),
            _ => {
                return Err(Error::Internal(format!(
                    "a hardest board of the census does not need {} pushes when solved alone",
                    c.hardest.pushes
                )))
            }
        }
    }
    if let Some(path) = &a.svg {
        write_svgs(&c, path)?;
    }
    if a.json {
        out::json(&census_json(&c, &solutions));
    } else {
        print_census(&c, &solutions);
    }
    Ok(Done::Answered)
}

fn census_json(c: &Census, solutions: &[Vec<Push>]) -> CensusJson {
    let mean = |sum: f64, n: u64| if n == 0 { 0.0 } else { sum / n as f64 };
    CensusJson {
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
        peak_memory_bytes: out::peak_rss_bytes(),
        seconds: c.seconds,
    }
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

/// Figure 11 (solvable and unsolvable boards per number of blocks), the histogram of fewest
/// pushes, and with `--difficulty` the mean difficulty per pushes and per blocks.
fn write_svgs(c: &Census, path: &Path) -> Result<(), Error> {
    let title = format!("{}×{} {}", c.rows, c.cols, c.variant.name());
    let blocks: Vec<&floe::games::pushpush::census::BlockRow> = c
        .by_blocks
        .iter()
        .filter(|r| r.solvable + r.unsolvable > 0)
        .collect();
    BarChart::new(format!("{title}: boards by number of blocks"))
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
        .save(path)?;
    let stem = path.with_extension("");
    let sibling =
        |suffix: &str| std::path::PathBuf::from(format!("{}-{suffix}.svg", stem.display()));
    let max_d = c.by_pushes.len() as i64 - 1;
    BarChart::new(format!("{title}: solvable boards by fewest pushes"))
        .x_label("fewest pushes")
        .y_label("boards (logarithmic)")
        .log_y()
        .integer_bins(0, max_d)
        .series(BarSeries::new(
            "boards",
            c.by_pushes.iter().map(|&n| n as f64),
        ))
        .save(sibling("pushes"))?;
    // Figure 14: fewest pushes against blocks, coloured by the number of boards
    HeatMap::new(format!("{title}: fewest pushes by number of blocks"))
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
        .save(sibling("pushes-by-blocks"))?;
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
        HeatMap::new(format!("{title}: difficulty by fewest pushes"))
            .x_label("fewest pushes")
            .y_label("difficulty (lower end of the bin)")
            .value_label("share of the column's boards (%)")
            .columns((1..=max_d).map(|p| p.to_string()).collect())
            .rows(bin_labels.clone())
            .values(shares(&by_pushes))
            .save(sibling("difficulty-by-pushes"))?;
        let by_blocks: Vec<&Vec<u64>> = blocks.iter().map(|r| &d.by_blocks[r.blocks]).collect();
        HeatMap::new(format!("{title}: difficulty by number of blocks"))
            .x_label("blocks")
            .y_label("difficulty (lower end of the bin)")
            .value_label("share of the column's boards (%)")
            .columns(blocks.iter().map(|r| r.blocks.to_string()).collect())
            .rows(bin_labels)
            .values(shares(&by_blocks))
            .save(sibling("difficulty-by-blocks"))?;
    }
    Ok(())
}

/// The PushPush part of `floe demo`: the 4×4 census, its hardest board solved.
pub fn demo() -> Result<(), Error> {
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
        let r = pp::solve(&h.board, &pp::SolveOptions::default())?;
        if let Some(m) = r.outcome.solution() {
            let moves: Vec<String> = m.iter().map(|p| p.to_string()).collect();
            outln!("    {}", moves.join(", "));
        }
    }
    Ok(())
}
