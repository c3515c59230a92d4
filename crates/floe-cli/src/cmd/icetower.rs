//! Ice Tower (氷塔): `floe solve --game icetower`.

use super::*;
use floe::games::icetower::{self as tower, Board, End, Tower};

#[derive(Serialize)]
struct TowerJson<'a> {
    level: &'a str,
    game: &'static str,
    algorithm: &'static str,
    engine: &'static str,
    solved: bool,
    status: &'static str,
    limit: Option<&'static str>,
    pushes: Option<u64>,
    moves: &'a [Push],
    /// The fewest pushes are at least this many: proved by the search (the solution's
    /// length when solved).
    lower_bound: u32,
    /// The lower bound of the start position alone.
    start_bound: u32,
    /// Why the start position is dead, when the proof of "no solution" is immediate.
    dead: Option<String>,
    states: u64,
    expanded: u64,
    depth: u32,
    seconds: f64,
}

fn dead_text(d: tower::Dead) -> String {
    match d {
        tower::Dead::Unreachable(p) => format!("no block can ever reach the fire at ({p})"),
        tower::Dead::TooFewBlocks => {
            "more fires need their own regular block than regular blocks can reach them".into()
        }
    }
}

/// Options of `floe solve` that mean nothing for Ice Tower, refused rather than ignored.
fn refuse_foreign(a: &SolveArgs) -> Result<(), Error> {
    let foreign = [
        (
            a.level.level.is_some(),
            "--level (an Ice Tower file holds one level)",
        ),
        (a.level.format.is_some(), "--format"),
        (
            a.level.rules.is_some(),
            "--rules (the magician always walks)",
        ),
        (a.k.is_some(), "--k"),
    ];
    if let Some((_, name)) = foreign.iter().find(|(given, _)| *given) {
        return Err(Error::invalid(format!(
            "{name} does not apply to Ice Tower levels"
        )));
    }
    Ok(())
}

fn algorithm(a: &SolveArgs) -> Result<tower::Algorithm, Error> {
    match a.algo.unwrap_or(SolveAlgo::Exact(Algorithm::AStar)) {
        SolveAlgo::Exact(Algorithm::Bfs) => Ok(tower::Algorithm::Bfs),
        SolveAlgo::Exact(Algorithm::AStar) => Ok(tower::Algorithm::AStar),
        SolveAlgo::Exact(Algorithm::IdaStar) => Ok(tower::Algorithm::IdaStar),
        SolveAlgo::Exact(Algorithm::Difficulty) | SolveAlgo::Random | SolveAlgo::Mc => Err(
            Error::invalid("Ice Tower levels are solved with --algo bfs, astar or idastar"),
        ),
    }
}

fn describe_tower(t: &Tower) -> String {
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    format!(
        "{}: {}×{} map, {}, {}, {}",
        t.name,
        t.cols(),
        t.rows(),
        n(t.count(tower::Block::Ice), "ice block", "ice blocks"),
        n(
            t.count(tower::Block::Golden),
            "golden block",
            "golden blocks"
        ),
        n(t.fires().len(), "fire", "fires"),
    )
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// `floe solve` on an Ice Tower level.
pub fn solve(a: &SolveArgs) -> Result<Done, Error> {
    refuse_foreign(a)?;
    let algorithm = algorithm(a)?;
    let t = tower::load(&a.level.file)?;
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("solving {}", t.name));
    let opts = tower::SolveOptions {
        algorithm,
        prune: true,
        dynamic: a.dynamic,
        limits,
    };
    let r = tower::solve(&t, &opts).map_err(|e| in_level(&t.name, e))?;
    drop(spinner);
    let limit = match r.status {
        tower::Status::Limit(l) => Some(l.name()),
        _ => None,
    };
    if a.json {
        out::json(&TowerJson {
            level: &t.name,
            game: "icetower",
            algorithm: r.algorithm.name(),
            engine: r.engine,
            solved: r.status == tower::Status::Solved,
            status: r.status.name(),
            limit,
            pushes: r.pushes(),
            moves: &r.moves,
            lower_bound: r.proved,
            start_bound: r.start_bound,
            dead: r.dead_start.map(dead_text),
            states: r.stats.states,
            expanded: r.stats.expanded,
            depth: r.stats.depth,
            seconds: r.stats.elapsed.as_secs_f64(),
        });
    } else {
        print_human(&t, &r);
    }
    super::pictures::solution_picture(
        &a.picture,
        r.status == tower::Status::Solved,
        a.json,
        || floe::render::board::tower_story(&t, &r.moves),
    )?;
    Ok(match r.status {
        tower::Status::Limit(_) => Done::NoAnswer,
        _ => Done::Answered,
    })
}

fn print_human(t: &Tower, r: &tower::SolveReport) {
    outln!("{}", describe_tower(t));
    let explored = format!(
        "{} explored in {}",
        count(r.stats.states, "position", "positions"),
        human_time(r.stats.elapsed)
    );
    let how = match r.algorithm {
        tower::Algorithm::AStar => "A*",
        tower::Algorithm::Bfs => "breadth-first search",
        tower::Algorithm::IdaStar => "IDA*",
    };
    match (r.status, &r.replay) {
        (tower::Status::Solved, Some(rep)) => {
            outln!(
                "solved ({how}): {} at fewest",
                count(rep.steps.len() as u64, "push", "pushes")
            );
            outp!("{}", indent(&Board::new(t).to_text()));
            for (i, (s, b)) in rep.steps.iter().zip(&rep.boards).enumerate() {
                let what = match s.end {
                    End::Rest(p) if s.fires_out.is_empty() => {
                        format!("rests at ({}, {})", p.row, p.col)
                    }
                    End::Rest(p) => format!(
                        "puts out {} and rests at ({}, {})",
                        count(s.fires_out.len() as u64, "fire", "fires"),
                        p.row,
                        p.col
                    ),
                    End::Fire(p) => format!("puts out the fire at ({}, {})", p.row, p.col),
                    End::Recycler(p) => {
                        format!("falls into the recycler at ({}, {})", p.row, p.col)
                    }
                };
                outln!(
                    "{:>4}. ({}, {}) {}: {what}",
                    i + 1,
                    s.push.row,
                    s.push.col,
                    s.push.dir.name()
                );
                outp!("{}", indent(&b.to_text()));
            }
            outln!("{explored}");
        }
        (tower::Status::Unsolvable, _) => match r.dead_start {
            Some(d) => outln!("no solution: {} (at the start)", dead_text(d)),
            None => outln!(
                "no solution: every reachable position was explored or proved dead ({explored})"
            ),
        },
        (tower::Status::Limit(l), _) => outln!(
            "no answer: stopped by --{l} at depth {}; at least {} pushes are needed ({explored})",
            r.stats.depth,
            r.proved
        ),
        (tower::Status::Solved, None) => unreachable!("a solved report carries its replay"),
    }
}
