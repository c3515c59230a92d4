//! The commands: each loads its input, calls the library and prints.

use crate::out::{self, human_bytes, human_time, thousands, Spinner};
use crate::{
    AnalyzeArgs, BenchSolversArgs, BoardArgs, ConvertArgs, DemoArgs, Done, LevelArgs, LevelsArgs,
    PatternsArgs, ProfileArgs, ReachArgs, SolveAlgo, SolveArgs, SpaceArgs, TablePatternsArgs,
    TableReachArgs, TableSpaceArgs, TableStripArgs, VerifyArgs,
};
use floe::analysis::patterns::{annotate, hardest_use, solve_and_annotate, Annotated, HardestUse};
use floe::analysis::profile::{profile as difficulty_profile, FactorProfile, Profile};
use floe::analysis::reach::{reach as reach_table, Reach};
use floe::analysis::reversibility::{analyze_level, Reversibility};
use floe::analysis::solvers::{bench_solvers as run_bench, run_once, SolverBench, SolverSpec};
use floe::analysis::tables::{
    fit_quasi_linear, reach_cell, reach_table as reach_tables, space_table, space_table_markdown,
    QuasiLinear, ReachCell, SpaceCell,
};
use floe::games::ice::{
    self, format, replay, Algorithm, Format, Level, SolveOptions, SolveReport, Status, WalkRule,
};
use floe::grid::{parse_pushes, Push};
use floe::search::{Enumeration, Limits};
use floe::Error;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// The bundled Zelda rooms, compiled in so that `floe demo` needs no files.
const ZELDA: &str = include_str!("../../../levels/zelda.txt");

/// A level picked from a file, with its display name and the walking rule in force.
struct Picked {
    level: Level,
    name: String,
    rule: WalkRule,
}

fn pick(levels: &[Level], sel: Option<&str>, file: &Path) -> Result<(usize, Level), Error> {
    match sel {
        Some(s) => format::select(levels, s).map(|(i, l)| (i, l.clone())),
        None if levels.len() == 1 => Ok((0, levels[0].clone())),
        None => {
            let names: Vec<String> = levels
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{} {}", i + 1, l.display_name(i)))
                .collect();
            Err(Error::invalid(format!(
                "{} holds {} levels; pick one with --level N or --level NAME ({})",
                file.display(),
                levels.len(),
                names.join(", ")
            )))
        }
    }
}

fn load_one(a: &LevelArgs) -> Result<Picked, Error> {
    let levels = format::load(&a.file, a.format)?;
    let (i, level) = pick(&levels, a.level.as_deref(), &a.file)?;
    let rule = a.rules.or(level.rules).unwrap_or_default();
    Ok(Picked {
        name: level.display_name(i),
        level,
        rule,
    })
}

/// The level of a command that takes a file or an empty board.
fn load_board(a: &BoardArgs) -> Result<Picked, Error> {
    match (&a.file, a.rows, a.cols, a.blocks) {
        (Some(file), _, _, _) => load_one(&LevelArgs {
            file: file.clone(),
            level: a.level.clone(),
            format: a.format,
            rules: a.rules,
        }),
        (None, Some(r), Some(c), Some(k)) => Ok(Picked {
            level: Level::empty_board(r, c, k)?,
            name: "empty board".to_string(),
            rule: a.rules.unwrap_or_default(),
        }),
        _ => Err(Error::invalid(
            "give a level file, or --rows, --cols and --blocks",
        )),
    }
}

fn describe(p: &Picked) -> String {
    format!(
        "{}: {}×{} board, {} block{}, {} target{}, rules {}",
        p.name,
        p.level.rows(),
        p.level.cols(),
        p.level.block_count(),
        plural(p.level.block_count()),
        p.level.target_count(),
        plural(p.level.target_count()),
        p.rule
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Names the level in a message about it (e.g. a board too large for the engine).
fn in_level(name: &str, e: Error) -> Error {
    match e {
        Error::Invalid(m) => Error::Invalid(format!("{name}: {m}")),
        other => other,
    }
}

/// `1 push`, `2 pushes`, with thousands separators.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

#[derive(Serialize)]
struct SolveJson<'a> {
    level: &'a str,
    rules: &'static str,
    algorithm: &'static str,
    factor: u64,
    solved: bool,
    status: &'static str,
    limit: Option<&'static str>,
    pushes: Option<u64>,
    block_changes: Option<u64>,
    difficulty: Option<u64>,
    moves: &'a [Push],
    states: u64,
    expanded: u64,
    seconds: f64,
}

fn status_name(s: Status) -> (&'static str, Option<&'static str>) {
    match s {
        Status::Solved => ("solved", None),
        Status::Unsolvable => ("unsolvable", None),
        Status::Limit(l) => ("limit", Some(l.name())),
    }
}

pub fn solve(a: SolveArgs) -> Result<Done, Error> {
    let p = load_one(&a.level)?;
    let algorithm = match a.algo {
        SolveAlgo::Exact(x) => x,
        SolveAlgo::Random | SolveAlgo::Mc => return solve_random(&a, &p),
    };
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("solving {}", p.name));
    let opts = SolveOptions {
        algorithm,
        rule: p.rule,
        factor: a.factor,
        limits,
    };
    let r = ice::solve(&p.level, &opts).map_err(|e| in_level(&p.name, e))?;
    drop(spinner);
    if a.json {
        let (status, limit) = status_name(r.status);
        out::json(&SolveJson {
            level: &p.name,
            rules: p.rule.name(),
            algorithm: r.algorithm.name(),
            factor: r.factor,
            solved: r.status == Status::Solved,
            status,
            limit,
            pushes: r.pushes(),
            block_changes: r.block_changes(),
            difficulty: r.difficulty(),
            moves: &r.moves,
            states: r.stats.states,
            expanded: r.stats.expanded,
            seconds: r.stats.elapsed.as_secs_f64(),
        });
    } else {
        outln!("{}", describe(&p));
        print_solution(&p, &r, a.boards);
    }
    Ok(match r.status {
        Status::Limit(_) => Done::NoAnswer,
        _ => Done::Answered,
    })
}

#[derive(Serialize)]
struct RandomSolveJson<'a> {
    level: &'a str,
    rules: &'static str,
    solver: SolverSpec,
    seed: u64,
    factor: u64,
    solved: bool,
    status: &'static str,
    limit: Option<&'static str>,
    pushes: Option<u64>,
    block_changes: Option<u64>,
    difficulty: Option<u64>,
    moves: &'a [Push],
    attempts: u64,
    playouts: u64,
    states: u64,
    seconds: f64,
}

/// `floe solve --algo random|mc`: one seeded run; failing is no proof, so it exits with 1.
fn solve_random(a: &SolveArgs, p: &Picked) -> Result<Done, Error> {
    let spec = a.random.spec(matches!(a.algo, SolveAlgo::Mc));
    let limits = a.limits.limits();
    let r = run_once(&p.level, p.rule, &spec, a.random.seed, &limits)
        .map_err(|e| in_level(&p.name, e))?;
    let moves: &[Push] = if r.solved { &r.moves } else { &[] };
    if a.json {
        out::json(&RandomSolveJson {
            level: &p.name,
            rules: p.rule.name(),
            solver: spec,
            seed: a.random.seed,
            factor: a.factor,
            solved: r.solved,
            status: if r.solved {
                "solved"
            } else if r.limit.is_some() {
                "limit"
            } else {
                "gave-up"
            },
            limit: r.limit,
            pushes: r.solved.then_some(r.pushes),
            block_changes: r.solved.then_some(r.block_changes),
            difficulty: r.solved.then(|| r.difficulty(a.factor)),
            moves,
            attempts: r.attempts,
            playouts: r.playouts,
            states: r.attempts,
            seconds: r.elapsed_secs,
        });
    } else {
        outln!("{}", describe(p));
        if r.solved {
            outln!(
                "solved by {spec}, seed {}: {}, {}, difficulty {} at factor {}",
                a.random.seed,
                count(r.pushes, "push", "pushes"),
                count(r.block_changes, "block change", "block changes"),
                r.difficulty(a.factor),
                a.factor
            );
            let rep =
                replay(&p.level, p.rule, &r.moves).map_err(|e| Error::Internal(e.to_string()))?;
            print_steps(p, &rep, a.boards);
        } else {
            outln!(
                "not solved by {spec}, seed {} ({}): no proof that there is no solution",
                a.random.seed,
                r.limit
                    .map_or("it gave up".to_string(), |l| format!("stopped by --{l}"))
            );
        }
        outln!(
            "{} random draws, {} in {}",
            thousands(r.attempts),
            count(r.playouts, "game", "games"),
            human_time(std::time::Duration::from_secs_f64(r.elapsed_secs))
        );
    }
    Ok(if r.solved {
        Done::Answered
    } else {
        Done::NoAnswer
    })
}

/// The pushes of a replayed solution, with the board after each if asked.
fn print_steps(p: &Picked, rep: &floe::games::ice::Replay, boards: bool) {
    if boards {
        outp!("{}", out::board(&p.level, "    "));
    }
    let mut board = p.level.clone();
    for (i, s) in rep.steps.iter().enumerate() {
        outln!(
            "{:>4}. ({}, {}) {:<5} → ({}, {}){}",
            i + 1,
            s.push.row,
            s.push.col,
            s.push.dir.name(),
            s.to.row,
            s.to.col,
            if s.block_change {
                "   (block change)"
            } else {
                ""
            }
        );
        if boards {
            if let Ok(step) = replay(&board, p.rule, &[s.push]) {
                board = step.end;
                outp!("{}", out::board(&board, "    "));
            }
        }
    }
}

fn print_solution(p: &Picked, r: &SolveReport, boards: bool) {
    let explored = format!(
        "{} explored in {}",
        count(r.stats.states, "state", "states"),
        human_time(r.stats.elapsed)
    );
    match (r.status, &r.replay) {
        (Status::Solved, Some(rep)) => {
            let how = match r.algorithm {
                Algorithm::Bfs => "fewest pushes, breadth-first search",
                Algorithm::AStar => "fewest pushes, A*",
                Algorithm::IdaStar => "fewest pushes, IDA*",
                Algorithm::Difficulty => "least difficulty, Dijkstra",
            };
            outln!(
                "solved ({how}): {}, {}, difficulty {} at factor {}",
                count(rep.pushes(), "push", "pushes"),
                count(rep.block_changes(), "block change", "block changes"),
                rep.difficulty(r.factor),
                r.factor
            );
            print_steps(p, rep, boards);
            outln!("{explored}");
        }
        (Status::Unsolvable, _) => {
            outln!("no solution: every reachable position was explored ({explored})")
        }
        (Status::Limit(l), _) => outln!(
            "no answer: stopped by --{l} at depth {} ({explored})",
            r.stats.depth
        ),
        (Status::Solved, None) => unreachable!("a solved report carries its replay"),
    }
}

#[derive(Serialize)]
struct SpaceJson<'a> {
    level: &'a str,
    rules: &'static str,
    states: u64,
    depth: u32,
    histogram: &'a [u64],
    complete: bool,
    limit: Option<&'static str>,
    expanded: u64,
    seconds: f64,
    index_bytes: usize,
    peak_rss_bytes: Option<u64>,
}

pub fn space(a: SpaceArgs) -> Result<Done, Error> {
    let p = load_board(&a.board)?;
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("enumerating {}", p.name));
    let e = ice::space(&p.level, p.rule, &limits).map_err(|e| in_level(&p.name, e))?;
    drop(spinner);
    let rss = out::peak_rss_bytes();
    if a.json {
        out::json(&SpaceJson {
            level: &p.name,
            rules: p.rule.name(),
            states: e.states,
            depth: e.depth(),
            histogram: &e.histogram,
            complete: e.limit.is_none(),
            limit: e.limit.map(|l| l.name()),
            expanded: e.stats.expanded,
            seconds: e.stats.elapsed.as_secs_f64(),
            index_bytes: e.peak_bytes,
            peak_rss_bytes: rss,
        });
    } else {
        outln!("{}", describe(&p));
        print_space(&e, rss);
    }
    Ok(if e.limit.is_some() {
        Done::NoAnswer
    } else {
        Done::Answered
    })
}

fn print_space(e: &Enumeration, rss: Option<u64>) {
    match e.limit {
        None => outln!(
            "{} reachable positions, at most {} pushes from the start",
            thousands(e.states),
            e.depth()
        ),
        Some(l) => outln!(
            "stopped by --{l}: at least {} reachable positions, {} layers explored",
            thousands(e.states),
            e.histogram.len()
        ),
    }
    let hist: Vec<String> = e.histogram.iter().map(|&n| thousands(n)).collect();
    outln!("positions by pushes from the start: {}", hist.join(" "));
    outln!(
        "{} in {}, visited index {}{}",
        if e.limit.is_none() { "done" } else { "stopped" },
        human_time(e.stats.elapsed),
        human_bytes(e.peak_bytes as u64),
        rss.map_or(String::new(), |b| format!(
            ", peak memory {}",
            human_bytes(b)
        ))
    );
}

#[derive(Serialize)]
struct ReachJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<&'a str>,
    rules: &'static str,
    rows: usize,
    cols: usize,
    blocks: usize,
    moves: &'a [Vec<Option<u32>>],
    max: Option<u32>,
    mean: Option<f64>,
    states: u64,
    complete: bool,
    limit: Option<&'static str>,
    seconds: f64,
}

pub fn reach(a: ReachArgs) -> Result<Done, Error> {
    let p = load_board(&a.board)?;
    let (level, rule) = (p.level, p.rule);
    let name = a.board.file.is_some().then_some(p.name);
    let mut limits: Limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, "reach");
    let t = Instant::now();
    let r = reach_table(&level, rule, &limits)
        .map_err(|e| in_level(name.as_deref().unwrap_or("empty board"), e))?;
    let seconds = t.elapsed().as_secs_f64();
    drop(spinner);
    if a.json {
        out::json(&ReachJson {
            level: name.as_deref(),
            rules: rule.name(),
            rows: r.rows,
            cols: r.cols,
            blocks: level.block_count(),
            moves: &r.moves,
            max: r.max(),
            mean: r.mean(),
            states: r.states,
            complete: r.limit.is_none(),
            limit: r.limit.map(|l| l.name()),
            seconds,
        });
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
            outln!("stopped by --{l}: entries are upper bounds and cells may be missing");
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
    Ok(if r.limit.is_some() {
        Done::NoAnswer
    } else {
        Done::Answered
    })
}

/// The table with right-aligned columns.
pub fn reach_grid(r: &Reach) -> String {
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

#[derive(Serialize)]
struct VerifyError {
    /// 1-based index of the illegal push.
    #[serde(rename = "move")]
    index: usize,
    push: Push,
    reason: String,
}

#[derive(Serialize)]
struct VerifyJson<'a> {
    level: &'a str,
    rules: &'static str,
    valid: bool,
    solved: bool,
    pushes: Option<u64>,
    block_changes: Option<u64>,
    difficulty: Option<u64>,
    factor: u64,
    error: Option<VerifyError>,
}

pub fn verify(a: VerifyArgs) -> Result<Done, Error> {
    if a.level.file.as_os_str() == "-" && a.moves.as_os_str() == "-" {
        return Err(Error::invalid(
            "the level and the moves cannot both come from standard input",
        ));
    }
    let p = load_one(&a.level)?;
    let (text, name) = read_text(&a.moves)?;
    let moves = parse_pushes(&text, &name)?;
    let result = replay(&p.level, p.rule, &moves);
    if a.json {
        let j = match &result {
            Ok(r) => VerifyJson {
                level: &p.name,
                rules: p.rule.name(),
                valid: true,
                solved: r.solved,
                pushes: Some(r.pushes()),
                block_changes: Some(r.block_changes()),
                difficulty: Some(r.difficulty(a.factor)),
                factor: a.factor,
                error: None,
            },
            Err(e) => VerifyJson {
                level: &p.name,
                rules: p.rule.name(),
                valid: false,
                solved: false,
                pushes: None,
                block_changes: None,
                difficulty: None,
                factor: a.factor,
                error: Some(VerifyError {
                    index: e.index + 1,
                    push: e.push,
                    reason: e.reason.to_string(),
                }),
            },
        };
        out::json(&j);
    } else {
        outln!("{}", describe(&p));
        match &result {
            Ok(r) => {
                match r.pushes() {
                    0 => outln!("the move list is empty"),
                    1 => outln!("the push is legal"),
                    n => outln!(
                        "all {n} pushes are legal: {}, difficulty {} at factor {}",
                        count(r.block_changes(), "block change", "block changes"),
                        r.difficulty(a.factor),
                        a.factor
                    ),
                }
                if r.solved {
                    outln!("the level is solved: every target holds a block");
                } else {
                    let empty: Vec<String> = r
                        .end
                        .targets()
                        .filter(|&t| !r.end.has_block(t))
                        .map(|t| format!("({t})"))
                        .collect();
                    outln!(
                        "the level is NOT solved: empty target{} {}",
                        plural(empty.len()),
                        empty.join(", ")
                    );
                    outp!("{}", out::board(&r.end, "    "));
                }
            }
            Err(e) => outln!("{e}"),
        }
    }
    Ok(Done::Answered)
}

fn read_text(path: &Path) -> Result<(String, String), Error> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| Error::Io {
            path: "<stdin>".into(),
            source: e,
        })?;
        return Ok((s, "<stdin>".into()));
    }
    let name = path.display().to_string();
    std::fs::read_to_string(path)
        .map(|s| (s, name.clone()))
        .map_err(|e| Error::Io {
            path: name,
            source: e,
        })
}

pub fn convert(a: ConvertArgs) -> Result<Done, Error> {
    let levels = format::load(&a.file, a.format)?;
    let chosen = match &a.level {
        Some(sel) => vec![format::select(&levels, sel)?.1.clone()],
        None => levels,
    };
    let text = match a.to {
        Format::Floe => format::write_floe(&chosen),
        Format::Kluiver => format::write_kluiver(&chosen)?,
    };
    match &a.output {
        Some(path) => std::fs::write(path, text).map_err(|e| Error::Io {
            path: path.display().to_string(),
            source: e,
        })?,
        None => outp!("{text}"),
    }
    Ok(Done::Answered)
}

#[derive(Serialize)]
struct LevelInfo {
    index: usize,
    title: Option<String>,
    rows: usize,
    cols: usize,
    blocks: usize,
    targets: usize,
    rules: Option<&'static str>,
    player: Option<[usize; 2]>,
}

pub fn levels(a: LevelsArgs) -> Result<Done, Error> {
    let levels = format::load(&a.file, a.format)?;
    let infos: Vec<LevelInfo> = levels
        .iter()
        .enumerate()
        .map(|(i, l)| LevelInfo {
            index: i + 1,
            title: l.title.clone(),
            rows: l.rows(),
            cols: l.cols(),
            blocks: l.block_count(),
            targets: l.target_count(),
            rules: l.rules.map(WalkRule::name),
            player: l.player().map(|p| [p.row, p.col]),
        })
        .collect();
    if a.json {
        out::json(&infos);
    } else {
        for (l, info) in levels.iter().zip(&infos) {
            outln!(
                "{:>3}  {:<24} {:>2}×{:<2}  {} block{}, {} target{}{}",
                info.index,
                l.display_name(info.index - 1),
                info.rows,
                info.cols,
                info.blocks,
                plural(info.blocks),
                info.targets,
                plural(info.targets),
                info.rules.map_or(String::new(), |r| format!(", rules {r}"))
            );
        }
    }
    Ok(Done::Answered)
}

#[derive(Serialize)]
struct DemoRow {
    level: String,
    rows: usize,
    cols: usize,
    blocks: usize,
    pushes: u64,
    bfs_block_changes: u64,
    bfs_states: u64,
    bfs_seconds: f64,
    difficulty: u64,
    difficulty_pushes: u64,
    difficulty_block_changes: u64,
    difficulty_seconds: f64,
    states: Option<u64>,
    space_seconds: Option<f64>,
    moves: Vec<Push>,
}

pub fn demo(a: DemoArgs) -> Result<Done, Error> {
    let levels = format::parse_floe(ZELDA, "levels/zelda.txt")?;
    let mut rows = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        let name = level.display_name(i);
        let solve = |algorithm| {
            ice::solve(
                level,
                &SolveOptions {
                    algorithm,
                    ..SolveOptions::default()
                },
            )
        };
        let bfs = solve(Algorithm::Bfs)?;
        let dif = solve(Algorithm::Difficulty)?;
        let (Some(b), Some(d)) = (&bfs.replay, &dif.replay) else {
            return Err(Error::Internal(format!(
                "bundled level {name} did not solve"
            )));
        };
        // The full state space of MCTOD takes seconds, not milliseconds; the demo skips it.
        let space = (level.block_count() <= 3)
            .then(|| ice::space(level, WalkRule::Free, &Limits::none()))
            .transpose()?;
        rows.push(DemoRow {
            level: name,
            rows: level.rows(),
            cols: level.cols(),
            blocks: level.block_count(),
            pushes: b.pushes(),
            bfs_block_changes: b.block_changes(),
            bfs_states: bfs.stats.states,
            bfs_seconds: bfs.stats.elapsed.as_secs_f64(),
            difficulty: d.difficulty(5),
            difficulty_pushes: d.pushes(),
            difficulty_block_changes: d.block_changes(),
            difficulty_seconds: dif.stats.elapsed.as_secs_f64(),
            states: space.as_ref().map(|e| e.states),
            space_seconds: space.as_ref().map(|e| e.stats.elapsed.as_secs_f64()),
            moves: bfs.moves.clone(),
        });
    }
    if a.json {
        out::json(&rows);
        return Ok(Done::Answered);
    }
    outln!(
        "The ice block rooms of The Legend of Zelda (Kluiver 2020, Appendix A), solved exactly."
    );
    outln!(
        "Fewest pushes by breadth-first search; least difficulty = pushes + 5 × block changes.\n"
    );
    outln!(
        "{:<8} {:>9} {:>6} {:>7} {:>9} {:>10}   {:<24} {:>9}",
        "room",
        "rows×cols",
        "blocks",
        "pushes",
        "states",
        "bfs time",
        "least difficulty",
        "time"
    );
    for r in &rows {
        outln!(
            "{:<8} {:>9} {:>6} {:>7} {:>9} {:>10}   {:<24} {:>9}",
            r.level,
            format!("{}×{}", r.rows, r.cols),
            r.blocks,
            r.pushes,
            r.states.map_or("-".into(), thousands),
            human_time(std::time::Duration::from_secs_f64(r.bfs_seconds)),
            format!(
                "{} = {} + 5×{}",
                r.difficulty, r.difficulty_pushes, r.difficulty_block_changes
            ),
            human_time(std::time::Duration::from_secs_f64(r.difficulty_seconds)),
        );
    }
    outln!("\n(states: all positions reachable from the start; MCTOD's space: `floe space levels/zelda.txt --level MCTOD`)");
    let r = floe::analysis::reach::reach_empty(5, 5, 3, &Limits::none())?;
    outln!("\nFewest pushes to rest a block on each cell of an empty 5×5 board, 3 blocks starting top left:");
    outp!("{}", reach_grid(&r));
    outln!("\nTry: floe solve levels/zelda.txt --level TPIBC2 --algo difficulty --boards");
    Ok(Done::Answered)
}

/// Reports each finished table cell on standard error when it is a terminal.
fn cell_progress(what: String) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[2K{what}");
    }
}

fn clear_progress() {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[2K");
    }
}

#[derive(Serialize)]
struct FormulaSummary {
    formula: &'static str,
    checked: usize,
    holds: usize,
    fails: Vec<String>,
}

#[derive(Serialize)]
struct TableSpaceJson<'a> {
    cells: &'a [SpaceCell],
    formulas: Vec<FormulaSummary>,
    complete: bool,
    seconds: f64,
    peak_rss_bytes: Option<u64>,
}

pub fn table_space(a: TableSpaceArgs) -> Result<Done, Error> {
    let t = Instant::now();
    let limits = a.limits.limits();
    let cells = space_table(
        a.max_rows as usize,
        a.max_cols as usize,
        a.max_blocks as usize,
        &limits,
        |c| {
            cell_progress(format!(
                "{}×{} with {} blocks: {} ({:.1} s)",
                c.rows,
                c.cols,
                c.blocks,
                c.states.map_or("—".into(), thousands),
                c.seconds
            ))
        },
    )?;
    clear_progress();
    let complete = cells.iter().all(|c| c.limit.is_none());
    if a.json {
        let formulas = [
            (2, "A(2,m,n) = 12(m+n) - 50"),
            (3, "A(3,m,n) = 492 - 100x + 12xy - 18y - 8x^2"),
        ]
        .iter()
        .map(|&(k, formula)| {
            let checked: Vec<&SpaceCell> = cells
                .iter()
                .filter(|c| c.blocks == k && c.formula_holds.is_some())
                .collect();
            FormulaSummary {
                formula,
                checked: checked.len(),
                holds: checked
                    .iter()
                    .filter(|c| c.formula_holds == Some(true))
                    .count(),
                fails: checked
                    .iter()
                    .filter(|c| c.formula_holds == Some(false))
                    .map(|c| format!("{}x{}", c.rows, c.cols))
                    .collect(),
            }
        })
        .collect();
        out::json(&TableSpaceJson {
            cells: &cells,
            formulas,
            complete,
            seconds: t.elapsed().as_secs_f64(),
            peak_rss_bytes: out::peak_rss_bytes(),
        });
    } else {
        outln!("Reachable positions on empty boards (blocks start along the edge, clockwise from the top-left corner)\n");
        outp!("{}", space_table_markdown(&cells));
        outln!("\n{} cells in {}", cells.len(), human_time(t.elapsed()));
    }
    Ok(if complete {
        Done::Answered
    } else {
        Done::NoAnswer
    })
}

#[derive(Serialize)]
struct TableReachJson<'a> {
    tables: &'a [ReachCell],
    complete: bool,
    seconds: f64,
}

pub fn table_reach(a: TableReachArgs) -> Result<Done, Error> {
    let t = Instant::now();
    let limits = a.limits.limits();
    let boards: Vec<(usize, usize)> = (a.min_size..=a.max_size)
        .map(|s| (s as usize, s as usize))
        .collect();
    let tables = reach_tables(&boards, &a.blocks, &limits, |c| {
        cell_progress(format!(
            "{}×{} with {} blocks: max {} ({:.1} s)",
            c.rows,
            c.cols,
            c.blocks,
            c.max.map_or("-".into(), |m| m.to_string()),
            c.seconds
        ))
    })?;
    clear_progress();
    let complete = tables.iter().all(|c| c.limit.is_none());
    if a.json {
        out::json(&TableReachJson {
            tables: &tables,
            complete,
            seconds: t.elapsed().as_secs_f64(),
        });
        return Ok(if complete {
            Done::Answered
        } else {
            Done::NoAnswer
        });
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
    Ok(if complete {
        Done::Answered
    } else {
        Done::NoAnswer
    })
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

#[derive(Serialize)]
struct StripSeries {
    height: usize,
    blocks: usize,
    /// (width, hardest cell)
    hardest: Vec<(usize, u32)>,
    closed_form: Option<QuasiLinear>,
}

#[derive(Serialize)]
struct StripJson<'a> {
    series: &'a [StripSeries],
    thesis_pattern: Vec<PatternCheck>,
    compare_width: usize,
    complete: bool,
    seconds: f64,
}

/// The thesis's description of the 2×n and 3×n hardest cells with 3 blocks: from some width
/// on, each extra column adds 2 pushes at even n and 1 at odd n.
#[derive(Serialize)]
struct PatternCheck {
    height: usize,
    blocks: usize,
    /// First n such that v(m) − v(m−1) is 2 for even m and 1 for odd m for every m ≥ n
    /// computed.
    holds_from: Option<usize>,
}

pub fn table_strip(a: TableStripArgs) -> Result<Done, Error> {
    let t = Instant::now();
    let limits = a.limits.limits();
    let mut series = Vec::new();
    let mut complete = true;
    for &h in &a.heights {
        for &k in &a.blocks {
            let mut hardest = Vec::new();
            for n in k.max(3)..=a.max_width as usize {
                if let Some(c) = reach_cell(h, n, k, &limits)? {
                    cell_progress(format!("{h}×{n} with {k} blocks ({:.1} s)", c.seconds));
                    complete &= c.limit.is_none();
                    if let Some(m) = c.max {
                        hardest.push((n, m));
                    }
                }
            }
            let closed_form = fit_quasi_linear(&hardest);
            series.push(StripSeries {
                height: h,
                blocks: k,
                hardest,
                closed_form,
            });
        }
    }
    clear_progress();
    let thesis_pattern: Vec<PatternCheck> = series
        .iter()
        .filter(|s| s.blocks == 3)
        .map(|s| PatternCheck {
            height: s.height,
            blocks: s.blocks,
            holds_from: increments_hold_from(&s.hardest),
        })
        .collect();
    if a.json {
        out::json(&StripJson {
            series: &series,
            thesis_pattern,
            compare_width: a.compare_width,
            complete,
            seconds: t.elapsed().as_secs_f64(),
        });
        return Ok(if complete {
            Done::Answered
        } else {
            Done::NoAnswer
        });
    }
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
    Ok(if complete {
        Done::Answered
    } else {
        Done::NoAnswer
    })
}

/// First n from which every step v(n) − v(n−1) is 2 at even n and 1 at odd n.
fn increments_hold_from(values: &[(usize, u32)]) -> Option<usize> {
    let ok = |i: usize| {
        let (n, v) = values[i];
        let (_, u) = values[i - 1];
        v as i64 - u as i64 == if n % 2 == 0 { 2 } else { 1 }
    };
    let mut start = values.len();
    while start > 1 && ok(start - 1) {
        start -= 1;
    }
    (values.len() - start >= 2).then(|| values[start].0)
}

#[derive(Serialize)]
struct PatternsJson<'a> {
    level: &'a str,
    rules: &'static str,
    solved: bool,
    #[serde(flatten)]
    annotated: Option<&'a Annotated>,
}

pub fn patterns(a: PatternsArgs) -> Result<Done, Error> {
    let p = load_board(&a.board)?;
    let annotated = match &a.moves {
        Some(path) => {
            let (text, name) = read_text(path)?;
            let moves = parse_pushes(&text, &name)?;
            Some(annotate(&p.level, p.rule, &moves)?)
        }
        None => {
            let mut limits = a.limits.limits();
            let spinner = Spinner::attach(&mut limits, &format!("solving {}", p.name));
            let r =
                solve_and_annotate(&p.level, p.rule, &limits).map_err(|e| in_level(&p.name, e))?;
            drop(spinner);
            r
        }
    };
    if a.json {
        out::json(&PatternsJson {
            level: &p.name,
            rules: p.rule.name(),
            solved: annotated.is_some(),
            annotated: annotated.as_ref(),
        });
    } else {
        outln!("{}", describe(&p));
        match &annotated {
            None => outln!("no solution within the limits: nothing to annotate"),
            Some(an) => {
                for (i, m) in an.moves.iter().enumerate() {
                    let tag = match (m.pattern, m.occurrence, m.shift) {
                        (Some(pat), Some(o), Some(d)) => {
                            format!("{} #{} (moves its formation {d})", pattern_name(pat), o + 1)
                        }
                        _ => String::new(),
                    };
                    outln!(
                        "{:>4}. ({}, {}) {:<5}  {tag}",
                        i + 1,
                        m.row,
                        m.col,
                        m.dir.name()
                    );
                }
                outln!(
                    "{}, {}",
                    count(an.trains as u64, "train", "trains"),
                    count(an.zigzags as u64, "zigzag", "zigzags")
                );
            }
        }
    }
    Ok(Done::Answered)
}

fn pattern_name(p: floe::analysis::patterns::Pattern) -> &'static str {
    match p {
        floe::analysis::patterns::Pattern::Train => "train",
        floe::analysis::patterns::Pattern::Zigzag => "zigzag",
    }
}

#[derive(Serialize)]
struct PatternRow {
    rows: usize,
    cols: usize,
    blocks: usize,
    #[serde(flatten)]
    result: HardestUse,
    seconds: f64,
}

pub fn table_patterns(a: TablePatternsArgs) -> Result<Done, Error> {
    let t = Instant::now();
    let limits = a.limits.limits();
    let mut rows = Vec::new();
    for size in a.min_size as usize..=a.max_size as usize {
        for &k in &a.blocks {
            if k > size {
                continue;
            }
            let c = Instant::now();
            let level = Level::empty_board(size, size, k)?;
            let result = hardest_use(&level, &limits)?;
            cell_progress(format!(
                "{size}×{size} with {k} blocks ({:.1} s)",
                c.elapsed().as_secs_f64()
            ));
            rows.push(PatternRow {
                rows: size,
                cols: size,
                blocks: k,
                result,
                seconds: c.elapsed().as_secs_f64(),
            });
        }
    }
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

#[derive(Serialize)]
struct AnalyzeJson<'a> {
    level: &'a str,
    rules: &'static str,
    complete: bool,
    #[serde(flatten)]
    figures: Option<&'a Reversibility>,
    limit: Option<&'static str>,
    states_stored: Option<u64>,
    seconds: f64,
    peak_rss_bytes: Option<u64>,
}

pub fn analyze(a: AnalyzeArgs) -> Result<Done, Error> {
    let p = load_board(&a.board)?;
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("analysing {}", p.name));
    let t = Instant::now();
    let r = analyze_level(&p.level, p.rule, &limits).map_err(|e| in_level(&p.name, e))?;
    drop(spinner);
    let seconds = t.elapsed().as_secs_f64();
    let rss = out::peak_rss_bytes();
    if a.json {
        out::json(&AnalyzeJson {
            level: &p.name,
            rules: p.rule.name(),
            complete: r.is_ok(),
            figures: r.as_ref().ok(),
            limit: r.as_ref().err().map(|g| g.kind.name()),
            states_stored: r.as_ref().err().map(|g| g.states),
            seconds,
            peak_rss_bytes: rss,
        });
    } else {
        outln!("{}", describe(&p));
        match &r {
            Err(g) => outln!(
                "no answer: stopped by --{} after storing {} positions (the analysis needs them all)",
                g.kind.name(),
                thousands(g.states)
            ),
            Ok(f) => {
                outln!(
                    "{} positions, {} moves between them; the farthest is {} pushes from the start",
                    thousands(f.states),
                    thousands(f.moves),
                    f.depth
                );
                outln!(
                    "{} (largest {}, the start's {}); {} with no way out",
                    count(f.sccs, "strongly connected component", "strongly connected components"),
                    thousands(f.largest_scc),
                    thousands(f.start_scc_size),
                    count(f.sink_sccs, "component", "components")
                );
                outln!(
                    "entirely reversible: {}",
                    if f.entirely_reversible { "yes" } else { "no" }
                );
                outln!(
                    "irreversible moves: {} of {}; undone by one push: {}",
                    thousands(f.irreversible_moves),
                    thousands(f.moves),
                    thousands(f.directly_reversible_moves)
                );
                outln!(
                    "dead ends (no move at all): {}",
                    thousands(f.dead_ends)
                );
                outln!(
                    "solvable positions: {} of {} ({} can no longer be solved){}",
                    thousands(f.solvable_states),
                    thousands(f.states),
                    thousands(f.unsolvable_states),
                    if f.solvable_from_start { "" } else { "; the start itself cannot be solved" }
                );
            }
        }
        outln!(
            "{}{}",
            human_time(t.elapsed()),
            rss.map_or(String::new(), |b| format!(
                ", peak memory {}",
                human_bytes(b)
            ))
        );
    }
    Ok(if r.is_ok() {
        Done::Answered
    } else {
        Done::NoAnswer
    })
}

pub fn bench_solvers(a: BenchSolversArgs) -> Result<Done, Error> {
    let p = load_one(&a.level)?;
    let mc = match a.algo {
        SolveAlgo::Mc => true,
        SolveAlgo::Random => false,
        SolveAlgo::Exact(x) => {
            return Err(Error::invalid(format!(
                "bench-solvers runs the randomised solvers (random, mc), not {x}"
            )))
        }
    };
    let spec = a.random.spec(mc);
    let limits = a.limits.limits();
    let b = run_bench(
        &p.level,
        p.rule,
        &spec,
        a.runs,
        a.random.seed,
        a.factor,
        &limits,
    )
    .map_err(|e| in_level(&p.name, e))?;
    if a.json {
        out::json(&b);
        return Ok(Done::Answered);
    }
    outln!("{}", describe(&p));
    print_bench(&b);
    Ok(Done::Answered)
}

fn print_bench(b: &SolverBench) {
    outln!(
        "{}: {} of {} runs solved ({:.1}%), seeds {}–{}{}",
        b.solver,
        b.solved,
        b.runs,
        100.0 * b.success_rate,
        b.seed,
        b.seed + b.runs.saturating_sub(1) as u64,
        if b.limited > 0 {
            format!(", {} stopped by the time limit", b.limited)
        } else {
            String::new()
        }
    );
    let opt = |f: &Option<floe::analysis::solvers::Figures>| {
        f.as_ref().map_or("-".to_string(), |f| {
            format!(
                "{} pushes, {} block changes, difficulty {}",
                f.pushes, f.block_changes, f.difficulty
            )
        })
    };
    outln!(
        "optimum: fewest pushes {}; least difficulty {}",
        opt(&b.optimum.fewest_pushes),
        opt(&b.optimum.least_difficulty)
    );
    for (name, d) in [
        ("pushes", &b.pushes),
        ("block changes", &b.block_changes),
        (&*format!("difficulty (factor {})", b.factor), &b.difficulty),
    ] {
        if let Some(d) = d {
            let hist: Vec<String> = d
                .histogram
                .iter()
                .map(|(v, n)| format!("{v}:{n}"))
                .collect();
            outln!(
                "{name}: min {}, median {}, mean {:.2}, max {}   [{}]",
                d.min,
                d.median,
                d.mean,
                d.max,
                hist.join(" ")
            );
        }
    }
    outln!(
        "runs as short as the optimum: {}; as easy as the least difficulty: {}",
        b.runs_with_fewest_pushes,
        b.runs_with_least_difficulty
    );
    outln!(
        "{:.0} random draws per run on average; {:.2} s per run, {} in all",
        b.mean_attempts,
        b.mean_secs,
        human_time(std::time::Duration::from_secs_f64(b.elapsed_secs))
    );
}

#[derive(Serialize)]
struct ProfileFactorJson<'a> {
    #[serde(flatten)]
    profile: &'a FactorProfile,
    /// (normalised difficulty, positions with at most that difficulty)
    cumulative: Vec<(f64, u64)>,
}

#[derive(Serialize)]
struct ProfileJson<'a> {
    level: &'a str,
    rules: &'static str,
    complete: bool,
    states: Option<u64>,
    moves: Option<u64>,
    factors: Vec<ProfileFactorJson<'a>>,
    limit: Option<&'static str>,
    graph_seconds: Option<f64>,
    seconds: f64,
    peak_rss_bytes: Option<u64>,
}

pub fn profile(a: ProfileArgs) -> Result<Done, Error> {
    let p = load_board(&a.board)?;
    if a.factors.is_empty() {
        return Err(Error::invalid("give at least one factor (--factors 0,5)"));
    }
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("profiling {}", p.name));
    let t = Instant::now();
    let r = difficulty_profile(&p.level, p.rule, &a.factors, &limits)
        .map_err(|e| in_level(&p.name, e))?;
    drop(spinner);
    let prof: Option<&Profile> = r.as_ref().ok();
    if let Some(prof) = prof {
        if let Some(path) = &a.svg {
            profile_plot(&p.name, prof).save(path)?;
        }
        if let Some(path) = &a.csv {
            let mut csv = String::from("factor,difficulty,normalised,positions,cumulative\n");
            for f in &prof.factors {
                let mut total = 0;
                for (d, &n) in f.histogram.iter().enumerate() {
                    total += n;
                    let x = if f.max == 0 {
                        0.0
                    } else {
                        d as f64 / f.max as f64
                    };
                    csv.push_str(&format!("{},{d},{x:.6},{n},{total}\n", f.factor));
                }
            }
            std::fs::write(path, csv).map_err(|e| Error::Io {
                path: path.display().to_string(),
                source: e,
            })?;
        }
    }
    if a.json {
        out::json(&ProfileJson {
            level: &p.name,
            rules: p.rule.name(),
            complete: prof.is_some(),
            states: prof.map(|x| x.states),
            moves: prof.map(|x| x.moves),
            factors: prof.map_or(Vec::new(), |x| {
                x.factors
                    .iter()
                    .map(|f| ProfileFactorJson {
                        profile: f,
                        cumulative: f.cumulative(),
                    })
                    .collect()
            }),
            limit: r.as_ref().err().map(|g| g.kind.name()),
            graph_seconds: prof.map(|x| x.graph_seconds),
            seconds: t.elapsed().as_secs_f64(),
            peak_rss_bytes: out::peak_rss_bytes(),
        });
    } else {
        outln!("{}", describe(&p));
        match &r {
            Err(g) => outln!(
                "no answer: stopped by --{} after storing {} positions (the profile needs them all)",
                g.kind.name(),
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
    Ok(if r.is_ok() {
        Done::Answered
    } else {
        Done::NoAnswer
    })
}

/// Kluiver's Figures 19–27: positions reachable with at most a given normalised difficulty.
fn profile_plot(name: &str, prof: &Profile) -> floe::render::plot::LinePlot {
    use floe::render::plot::{LinePlot, Series};
    let mut plot = LinePlot::new(format!("{name}: least difficulty of every position"))
        .x_label("normalised difficulty (difficulty / hardest position's)")
        .y_label("positions reachable (cumulative)")
        .x_range(0.0, 1.0);
    for f in &prof.factors {
        let points = f.cumulative().into_iter().map(|(x, n)| (x, n as f64));
        plot = plot.series(Series::new(format!("factor {}", f.factor), points).step());
    }
    plot
}
