//! Solving and the basic measurements of a level.

use super::*;
use floe::games::Game;

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

/// The game of a level file: the `--game` flag, else the file's `Game:` line, else ice blocks.
pub(super) fn game_of_file(level: &LevelArgs, flag: Option<Game>) -> Result<Game, Error> {
    if let Some(g) = flag {
        return Ok(g);
    }
    let (text, file) = floe::input::read_text(&level.file)?;
    match floe::games::game_of(&text) {
        Ok(g) => Ok(g.unwrap_or(Game::Ice)),
        Err((line, col, message)) => Err(Error::Parse(floe::ParseError {
            file,
            line,
            col,
            message,
        })),
    }
}

pub fn solve(a: SolveArgs) -> Result<Done, Error> {
    let game = game_of_file(&a.level, a.game)?;
    match game {
        Game::Ice => {}
        Game::PushPush => return super::pushpush::solve(&a),
        Game::IceTower => return super::icetower::solve(&a),
        Game::BoxOff | Game::Pretzel | Game::Fujisan => return super::solitaire::solve(&a, game),
    }
    if a.k.is_some() || a.dynamic {
        return Err(Error::invalid(
            "--k is a PushPush option and --dynamic an Ice Tower option; this is an ice block level",
        ));
    }
    let p = load_one(&a.level)?;
    let algorithm = match a.algo.unwrap_or(SolveAlgo::Exact(Algorithm::Bfs)) {
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
    super::pictures::solution_picture(&a.picture, r.status == Status::Solved, a.json, || {
        floe::render::board::ice_story(&p.level, p.rule, &r.moves, &p.name)
    })?;
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
    let spec = a.random.spec(matches!(a.algo, Some(SolveAlgo::Mc)));
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
    super::pictures::solution_picture(&a.picture, r.solved, a.json, || {
        floe::render::board::ice_story(&p.level, p.rule, &r.moves, &p.name)
    })?;
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

/// The first illegal push of a move list, in `floe verify --json`.
#[derive(Serialize)]
pub(super) struct VerifyError {
    /// 1-based index of the illegal push.
    #[serde(rename = "move")]
    pub index: usize,
    pub push: Push,
    pub reason: String,
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
    match game_of_file(&a.level, a.game)? {
        Game::Ice => {}
        Game::PushPush => return super::pushpush::verify(&a),
        g @ (Game::BoxOff | Game::Pretzel | Game::Fujisan) => {
            return super::solitaire::verify(&a, g)
        }
        Game::IceTower => {
            return Err(Error::invalid(
                "floe verify does not read Ice Tower move lists; `floe solve --game icetower` replays every answer",
            ))
        }
    }
    if a.k.is_some() {
        return Err(Error::invalid(
            "--k is a PushPush option; this is an ice block level",
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
    super::pushpush::demo()?;
    outln!("\nTry: floe solve levels/zelda.txt --level TPIBC2 --algo difficulty --boards");
    outln!(
        "     floe census pushpush --rows 5 --cols 5   (every 5×5 PushPush board, a few minutes)"
    );
    outln!(
        "     floe play levels/zelda.txt --level TPIBC1   (play it in the terminal; h for a hint)"
    );
    outln!("     floe solve levels/zelda.txt --level TPIBC1 --svg tpibc1.svg --animate");
    outln!("     floe image levels/images/smiley.txt   (a picture drawn with ice blocks)");
    Ok(Done::Answered)
}
