//! The physical solitaire puzzles (BoxOff, Pretzel, Fujisan): `floe solve --game …` and
//! `floe experiment`.

use super::*;
use clap::Args;
use floe::analysis::experiment::{
    self, compare, exact_pretzel, Comparison, Config, Exact, Metrics, Summary, DEFAULT_PLAYOUT_CAP,
};
use floe::games::solitaire::{self as sol, AnyMove, Challenge};
use floe::games::Game;
use floe::generate::{Setup, Size};
use floe::render::plot::{BarChart, BarSeries, BoxPlot, Dash, LinePlot, Series, Whiskers};
use std::path::PathBuf;

/// `floe experiment GAME …`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// The game: boxoff, pretzel or fujisan.
    game: Game,
    /// BoxOff: rows h.
    #[arg(long, value_name = "H", default_value_t = 4)]
    rows: usize,
    /// BoxOff: columns w.
    #[arg(long, value_name = "W", default_value_t = 6)]
    cols: usize,
    /// BoxOff: colours c.
    #[arg(long, visible_alias = "colours", value_name = "C", default_value_t = 4)]
    colors: usize,
    /// Pretzel: suits k.
    #[arg(long, value_name = "K", default_value_t = 4)]
    suits: usize,
    /// Pretzel: ranks n: one number, a list (4,6,8) or a range (2-9) for a sweep.
    #[arg(long, value_name = "N", default_value = "4", value_parser = parse_ranks)]
    ranks: Ranks,
    /// The setup: shuffled, ltiles (BoxOff), sequential, banded (Pretzel), piecepack,
    /// piecepack-paired, engraved, dominoes (Fujisan).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "shuffled",
        conflicts_with = "compare"
    )]
    setup: Setup,
    /// Run several setups and test them against each other (t-tests on the trials,
    /// Kruskal–Wallis on solution lengths); `all` for every setup of the game.
    #[arg(long, value_name = "A,B,…", value_parser = parse_setups)]
    compare: Option<SetupList>,
    /// Challenges per setup and size.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    challenges: u64,
    /// Trials: groups of consecutive challenges for the spread and the t-tests.
    #[arg(long, value_name = "T", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    trials: u32,
    /// Seed: the same seed gives the same challenges and the same numbers.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Most moves of a random playout (Pretzel and Fujisan positions can repeat).
    #[arg(long, value_name = "M", default_value_t = DEFAULT_PLAYOUT_CAP)]
    playout_cap: u32,
    /// Enumerate every deal instead of sampling (Pretzel with few cards): the exact
    /// solvable fraction.
    #[arg(long, conflicts_with_all = ["challenges", "trials", "svg"])]
    exact: bool,
    /// Only generate: print the first N challenges of the run (the ones it would solve) in
    /// the text format, or write them as files into --out.
    #[arg(long, value_name = "N", conflicts_with_all = ["compare", "exact", "svg"])]
    generate: Option<u64>,
    /// With --generate: a directory for one file per challenge.
    #[arg(long, value_name = "DIR", requires = "generate")]
    out: Option<PathBuf>,
    /// Write the paper's figures (box plots, histograms, sweeps) as SVG files into DIR.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Stop each challenge's search after storing this many states (it then counts as not
    /// solvable and is reported under limit hits).
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
    /// Stop each challenge's search after this long (same).
    #[arg(long, value_name = "TIME", value_parser = crate::parse_duration)]
    timeout: Option<std::time::Duration>,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

/// Ranks of a Pretzel run.
#[derive(Clone, Debug)]
pub struct Ranks(Vec<usize>);

fn parse_ranks(s: &str) -> Result<Ranks, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || format!("'{part}' is not a number of ranks or a range like 2-9");
        if let Some((a, b)) = part.split_once(['-', '.']) {
            let a: usize = a.trim().parse().map_err(|_| bad())?;
            let b: usize = b
                .trim_start_matches('.')
                .trim()
                .parse()
                .map_err(|_| bad())?;
            if a > b {
                return Err(bad());
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| bad())?);
        }
    }
    if out.is_empty() {
        return Err("no ranks given".into());
    }
    out.dedup();
    Ok(Ranks(out))
}

/// Setups of `--compare`.
#[derive(Clone, Debug)]
pub struct SetupList(Option<Vec<Setup>>);

fn parse_setups(s: &str) -> Result<SetupList, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(SetupList(None));
    }
    let v: Vec<Setup> = s
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    if v.is_empty() {
        return Err("no setups given".into());
    }
    Ok(SetupList(Some(v)))
}

// ----------------------------------------------------------------------------------------
// floe solve

#[derive(Serialize)]
struct SolveJson<'a> {
    level: &'a str,
    game: &'static str,
    algorithm: &'static str,
    solved: bool,
    status: &'static str,
    limit: Option<&'static str>,
    moves: &'a [AnyMove],
    length: Option<usize>,
    states: u64,
    expanded: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct RandomJson<'a> {
    level: &'a str,
    game: &'static str,
    algorithm: &'static str,
    seed: u64,
    max_moves: u32,
    solved: bool,
    status: &'static str,
    moves: &'a [AnyMove],
    length: Option<usize>,
    moves_made: u32,
    states: u64,
    seconds: f64,
}

/// `floe solve` on a solitaire challenge.
pub fn solve(a: &SolveArgs, game: Game) -> Result<Done, Error> {
    if a.level.level.is_some() || a.level.format.is_some() || a.level.rules.is_some() {
        return Err(Error::invalid(format!(
            "--level, --format and --rules are for ice block files; a {game} file holds one challenge"
        )));
    }
    if a.k.is_some() || a.dynamic {
        return Err(Error::invalid(format!(
            "--k is a PushPush option and --dynamic an Ice Tower option; this is a {game} challenge"
        )));
    }
    let (text, file) = floe::input::read_text(&a.level.file)?;
    let (challenge, title) = Challenge::parse(game, &text, &file)?;
    let name = title.unwrap_or_else(|| file.clone());
    let algorithm = match a.algo.unwrap_or(SolveAlgo::Exact(ice::Algorithm::Bfs)) {
        SolveAlgo::Exact(ice::Algorithm::Bfs) => sol::Algorithm::Bfs,
        SolveAlgo::Exact(ice::Algorithm::AStar) => sol::Algorithm::AStar,
        SolveAlgo::Exact(ice::Algorithm::IdaStar) => sol::Algorithm::IdaStar,
        SolveAlgo::Exact(ice::Algorithm::Difficulty) | SolveAlgo::Mc => {
            return Err(Error::invalid(format!(
                "{game} challenges are solved with bfs, astar, idastar or random (the difficulty \
                 measure and BasicMC are for ice blocks)"
            )))
        }
        SolveAlgo::Random => return solve_random(a, &challenge, &name),
    };
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("solving {name}"));
    let r = sol::solve(&challenge, algorithm, &limits)?;
    drop(spinner);
    let solved = r.status == sol::Status::Solved;
    if a.json {
        out::json(&SolveJson {
            level: &name,
            game: game.name(),
            algorithm: r.algorithm,
            solved,
            status: r.status.name(),
            limit: match r.status {
                sol::Status::Limit(l) => Some(l.name()),
                _ => None,
            },
            moves: &r.moves,
            length: solved.then_some(r.moves.len()),
            states: r.stats.states,
            expanded: r.stats.expanded,
            seconds: r.stats.elapsed.as_secs_f64(),
        });
    } else {
        outln!("{name}: {}", challenge.describe());
        outp!("{}", indent(&challenge.write()));
        match r.status {
            sol::Status::Solved => {
                outln!(
                    "solved in {} move{} ({}, {} states, {})",
                    r.moves.len(),
                    plural(r.moves.len()),
                    r.algorithm,
                    thousands(r.stats.states),
                    human_time(r.stats.elapsed)
                );
                print_moves(&challenge, &r.moves, a.boards)?;
            }
            sol::Status::Unsolvable => outln!(
                "no solution: all {} reachable positions explored ({}, {})",
                thousands(r.stats.states),
                r.algorithm,
                human_time(r.stats.elapsed)
            ),
            sol::Status::Limit(l) => outln!(
                "stopped by --{l} after {} states ({}): no answer",
                thousands(r.stats.states),
                human_time(r.stats.elapsed)
            ),
        }
    }
    super::pictures::solution_picture(&a.picture, solved, a.json, || {
        floe::render::board::challenge_story(&challenge, &r.moves, &name)
    })?;
    Ok(match r.status {
        sol::Status::Limit(_) => Done::NoAnswer,
        _ => Done::Answered,
    })
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// Prints a solution, with the position after each move when `boards`.
fn print_moves(c: &Challenge, moves: &[AnyMove], boards: bool) -> Result<(), Error> {
    for (i, m) in moves.iter().enumerate() {
        outln!("{:>4}. {m}", i + 1);
        if boards {
            outp!("{}", indent(&position_after(c, &moves[..=i])?));
        }
    }
    Ok(())
}

/// The position after a prefix of a solution, drawn in the game's notation.
fn position_after(c: &Challenge, prefix: &[AnyMove]) -> Result<String, Error> {
    let bad = |e: sol::IllegalMove| Error::Internal(e.to_string());
    Ok(match c {
        Challenge::BoxOff(b) => {
            let m: Vec<_> = prefix
                .iter()
                .filter_map(|x| match x {
                    AnyMove::BoxOff(m) => Some(*m),
                    _ => None,
                })
                .collect();
            sol::boxoff::replay(b, &m).map_err(bad)?.end.write()
        }
        Challenge::Pretzel(d) => {
            let m: Vec<_> = prefix
                .iter()
                .filter_map(|x| match x {
                    AnyMove::Pretzel(m) => Some(m.clone()),
                    _ => None,
                })
                .collect();
            sol::pretzel::replay(d, &m).map_err(bad)?.end.write()
        }
        Challenge::Fujisan(mt) => {
            let m: Vec<_> = prefix
                .iter()
                .filter_map(|x| match x {
                    AnyMove::Fujisan(m) => Some(*m),
                    _ => None,
                })
                .collect();
            let r = sol::fujisan::replay(mt, &m).map_err(bad)?;
            let w = mt.cols() as i64;
            let mut s = String::new();
            for row in 0..2i64 {
                let mut line = String::new();
                for col in -1..=w {
                    let priest = r.priests.contains(&[row, col]);
                    let cell = if col < 0 || col >= w {
                        if priest {
                            "P".to_string()
                        } else {
                            " ".to_string()
                        }
                    } else if priest {
                        "P".to_string()
                    } else {
                        mt.get(row as usize, col as usize).to_string()
                    };
                    line.push_str(&cell);
                    line.push(' ');
                }
                s.push_str(line.trim_end());
                s.push('\n');
            }
            s
        }
    })
}

/// `floe solve --algo random`: one seeded random game; failing is no proof (exit 1).
fn solve_random(a: &SolveArgs, c: &Challenge, name: &str) -> Result<Done, Error> {
    let cap = a.random.max_moves.unwrap_or(DEFAULT_PLAYOUT_CAP);
    let start = std::time::Instant::now();
    let (moves, made) = sol::random_solve_seeded(c, cap, a.random.seed)?;
    let solved = moves.is_some();
    let moves = moves.unwrap_or_default();
    if a.json {
        out::json(&RandomJson {
            level: name,
            game: c.game().name(),
            algorithm: "random",
            seed: a.random.seed,
            max_moves: cap,
            solved,
            status: if solved { "solved" } else { "limit" },
            moves: &moves,
            length: solved.then_some(moves.len()),
            moves_made: made,
            states: u64::from(made) + 1,
            seconds: start.elapsed().as_secs_f64(),
        });
    } else {
        outln!("{name}: {}", c.describe());
        if solved {
            outln!(
                "a random game (seed {}) solved it in {} moves:",
                a.random.seed,
                moves.len()
            );
            print_moves(c, &moves, a.boards)?;
        } else if made < cap {
            outln!(
                "a random game (seed {}) got stuck after {made} moves (no legal move left); this proves nothing",
                a.random.seed
            );
        } else {
            outln!(
                "a random game (seed {}) did not solve it within {cap} moves (--max-moves); this proves nothing",
                a.random.seed
            );
        }
    }
    super::pictures::solution_picture(&a.picture, solved, a.json, || {
        floe::render::board::challenge_story(c, &moves, name)
    })?;
    Ok(if solved {
        Done::Answered
    } else {
        Done::NoAnswer
    })
}

// ----------------------------------------------------------------------------------------
// floe experiment

/// The runs of one size: per setup, and the tests between them.
#[derive(Serialize)]
struct SizeDoc {
    game: &'static str,
    size: String,
    seed: u64,
    challenges: u64,
    setups: Vec<Summary>,
    #[serde(flatten)]
    comparison: Comparison,
}

/// `floe experiment`.
pub fn experiment(a: ExperimentArgs) -> Result<Done, Error> {
    let sizes = sizes(&a)?;
    let setups: Vec<Setup> = match &a.compare {
        None => vec![a.setup],
        Some(SetupList(None)) => Setup::of(a.game).to_vec(),
        Some(SetupList(Some(v))) => v.clone(),
    };
    for &size in &sizes {
        for &s in &setups {
            floe::generate::check(size, s)?;
        }
    }
    if let Some(n) = a.generate {
        return generate_only(&a, &sizes, n);
    }
    if a.exact {
        return experiment::in_pool(a.threads, || run_exact(&a, &sizes, &setups))?;
    }
    if a.trials as u64 > a.challenges {
        return Err(Error::invalid(format!(
            "--trials {} needs at least as many challenges (--challenges {})",
            a.trials, a.challenges
        )));
    }
    let mut limits = floe::search::Limits::none();
    limits.max_states = a.max_states;
    limits.timeout = a.timeout;
    let total = sizes.len() as u64 * setups.len() as u64 * a.challenges;
    let bar = progress_bar(total);
    let mut docs = Vec::new();
    let mut finished = 0u64;
    for &size in &sizes {
        let mut runs = Vec::new();
        for &setup in &setups {
            let config = Config {
                size,
                setup,
                challenges: a.challenges,
                trials: a.trials,
                seed: a.seed,
                playout_cap: a.playout_cap,
                limits: limits.clone(),
            };
            if let Some(b) = &bar {
                b.set_message(format!("{size}, {}", setup.label()));
            }
            let base = finished;
            let progress = |d: u64| {
                if let Some(b) = &bar {
                    b.set_position(base + d);
                }
            };
            let s = experiment::in_pool(a.threads, || experiment::run(&config, &progress))??;
            finished += a.challenges;
            runs.push(s);
        }
        let comparison = compare(&runs);
        docs.push(SizeDoc {
            game: a.game.name(),
            size: size.to_string(),
            seed: a.seed,
            challenges: a.challenges,
            setups: runs,
            comparison,
        });
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let figures = match &a.svg {
        Some(dir) => write_figures(dir, a.game, &docs)?,
        None => Vec::new(),
    };
    let limited = docs
        .iter()
        .flat_map(|d| &d.setups)
        .any(|s| s.limit_hits > 0);
    if a.json {
        if docs.len() == 1 && docs[0].setups.len() == 1 && a.compare.is_none() {
            out::json(&docs[0].setups[0]);
        } else if docs.len() == 1 {
            out::json(&docs[0]);
        } else {
            #[derive(Serialize)]
            struct Sweep<'a> {
                game: &'static str,
                seed: u64,
                sweep: &'a [SizeDoc],
            }
            out::json(&Sweep {
                game: a.game.name(),
                seed: a.seed,
                sweep: &docs,
            });
        }
    } else {
        print_human(&a, &docs);
        if docs.len() > 1 {
            print_sweep(&docs);
        }
        for f in &figures {
            outln!("wrote {}", f.display());
        }
    }
    if !figures.is_empty() && a.json {
        for f in &figures {
            eprintln!("wrote {}", f.display());
        }
    }
    Ok(if limited {
        Done::NoAnswer
    } else {
        Done::Answered
    })
}

/// `--generate N`: the run's first N challenges as text.
fn generate_only(a: &ExperimentArgs, sizes: &[Size], n: u64) -> Result<Done, Error> {
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).map_err(|e| Error::Io {
            path: dir.display().to_string(),
            source: e,
        })?;
    }
    let mut docs = Vec::new();
    for &size in sizes {
        for i in 0..n {
            let c = experiment::challenge(size, a.setup, a.seed, i)?;
            let title = format!(
                "{}, {}, seed {}, challenge {i}",
                size,
                a.setup.label(),
                a.seed
            );
            let text = c.write().replacen('\n', &format!("\nTitle: {title}\n"), 1);
            match &a.out {
                Some(dir) => {
                    let path = dir.join(format!(
                        "{}-{}-{}-{i}.txt",
                        size_key(&size.to_string()),
                        a.setup.name(),
                        a.seed
                    ));
                    std::fs::write(&path, &text).map_err(|e| Error::Io {
                        path: path.display().to_string(),
                        source: e,
                    })?;
                    docs.push(
                        serde_json::json!({"title": title, "file": path.display().to_string()}),
                    );
                }
                None => docs.push(serde_json::json!({"title": title, "text": text})),
            }
        }
    }
    if a.json {
        out::json(&docs);
    } else {
        for d in &docs {
            match (d.get("text"), d.get("file")) {
                (Some(t), _) => outln!("{}", t.as_str().unwrap_or_default()),
                (_, Some(f)) => outln!("wrote {}", f.as_str().unwrap_or_default()),
                _ => {}
            }
        }
    }
    Ok(Done::Answered)
}

fn sizes(a: &ExperimentArgs) -> Result<Vec<Size>, Error> {
    Ok(match a.game {
        Game::BoxOff => vec![Size::BoxOff {
            rows: a.rows,
            cols: a.cols,
            colours: a.colors,
        }],
        Game::Pretzel => a
            .ranks
            .0
            .iter()
            .map(|&ranks| Size::Pretzel {
                suits: a.suits,
                ranks,
            })
            .collect(),
        Game::Fujisan => vec![Size::Fujisan],
        g => {
            return Err(Error::invalid(format!(
                "experiments are for boxoff, pretzel and fujisan, not {g}"
            )))
        }
    })
}

fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let b = indicatif::ProgressBar::new(total);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} challenges  {msg} [{elapsed}]",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(b)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn print_human(a: &ExperimentArgs, docs: &[SizeDoc]) {
    for d in docs {
        outln!(
            "{}: {} challenges per setup in {} trials, seed {}",
            d.size,
            thousands(d.challenges),
            a.trials,
            d.seed
        );
        outln!(
            "  {:<20} {:>17} {:>17} {:>17} {:>8} {:>9}",
            "setup",
            "P(Sp) mean ± sd",
            "P(Sr) mean ± sd",
            "interest",
            "median",
            "time"
        );
        for s in &d.setups {
            let ms = |m: &experiment::MeanSd| format!("{} ± {}", pct(m.mean), pct(m.sd));
            outln!(
                "  {:<20} {:>17} {:>17} {:>17} {:>8} {:>9}",
                s.label,
                ms(&s.trial_solvable),
                ms(&s.trial_random_solvable),
                ms(&s.trial_interest),
                s.length.median.map_or("-".into(), |m| format!("{m}")),
                human_time(std::time::Duration::from_secs_f64(s.seconds)),
            );
        }
        for s in &d.setups {
            outln!(
                "  {}: P(Sp) = {} (95% CI {}–{}), P(Sr) = {}{}",
                s.label,
                pct(s.solvable),
                pct(s.solvable_ci[0]),
                pct(s.solvable_ci[1]),
                pct(s.random_solvable),
                if s.limit_hits > 0 {
                    format!(", {} searches stopped at a limit", s.limit_hits)
                } else {
                    String::new()
                }
            );
            match &s.metrics {
                Metrics::BoxOff { pair_equality: p } => outln!(
                    "    pair equality: solvable {} (n = {}), unsolvable {} (n = {}){}",
                    pct(p.solvable.mean),
                    p.solvable.n,
                    pct(p.unsolvable.mean),
                    p.unsolvable.n,
                    p.t_test.as_ref().map_or(String::new(), |t| format!(", Welch p = {}", sci(t.p)))
                ),
                Metrics::Pretzel { blockades: b } => outln!(
                    "    cyclic blockades at the deal: {} ducking crabs, {} duelling deuces; {} of all deals{}",
                    b.ducking_crab,
                    b.duelling_deuces,
                    pct(b.share),
                    b.share_of_unsolvable
                        .map_or(String::new(), |x| format!(", {} of the unsolvable ones", pct(x)))
                ),
                Metrics::Fujisan {
                    connectivity: c,
                    counter_intuitive: ci,
                    distinct_steps: ds,
                } => {
                    outln!(
                        "    connectivity: solvable {:.2}, unsolvable {:.2}{}",
                        c.solvable.mean,
                        c.unsolvable.mean,
                        c.t_test.as_ref().map_or(String::new(), |t| format!(", Welch p = {}", sci(t.p)))
                    );
                    outln!(
                        "    counter-intuitive moves on shortest solutions: mean {:.2}, range {}–{}",
                        ci.moves.mean,
                        ci.min.unwrap_or(0),
                        ci.max.unwrap_or(0)
                    );
                    outln!(
                        "    all steps distinct pairs: {} challenges, solvable {}",
                        ds.challenges,
                        ds.solvable.map_or("-".into(), pct)
                    );
                }
            }
        }
        if d.setups.len() > 1 {
            outln!(
                "  t-tests over the {} trials (Student, pooled variance; Welch in brackets):",
                a.trials
            );
            for t in &d.comparison.t_tests {
                let p = |x: &Option<floe::analysis::stats::TTest>| {
                    x.as_ref().map_or("-".into(), |t| sci(t.p))
                };
                outln!(
                    "    {:<16} {:<18} vs {:<18} diff {:>+7.1} pt  p = {} ({})",
                    t.measure,
                    t.a,
                    t.b,
                    100.0 * t.difference,
                    p(&t.student),
                    p(&t.welch)
                );
            }
            if let Some(k) = &d.comparison.kruskal_wallis {
                outln!(
                    "  Kruskal–Wallis on solution lengths: H = {:.2}, df = {}, p = {}",
                    k.h,
                    k.df,
                    sci(k.p)
                );
            }
            if let Some(k) = &d.comparison.kruskal_wallis_counter_intuitive {
                outln!(
                    "  Kruskal–Wallis on counter-intuitive moves: H = {:.2}, df = {}, p = {}",
                    k.h,
                    k.df,
                    sci(k.p)
                );
            }
        }
        outln!();
    }
}

fn print_sweep(docs: &[SizeDoc]) {
    outln!("Sweep: P(Sp) / P(Sr) per size");
    let names: Vec<&str> = docs[0].setups.iter().map(|s| s.label).collect();
    outln!(
        "  {:<16} {}",
        "size",
        names.iter().map(|n| format!("{n:>20}")).collect::<String>()
    );
    for d in docs {
        let cells: String = d
            .setups
            .iter()
            .map(|s| {
                format!(
                    "{:>20}",
                    format!("{} / {}", pct(s.solvable), pct(s.random_solvable))
                )
            })
            .collect();
        outln!("  {:<16} {cells}", d.size);
    }
}

fn sci(p: f64) -> String {
    if p == 0.0 {
        "0".into()
    } else if p < 1e-3 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

fn size_key(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
            ',' => Some('x'),
            _ => None,
        })
        .collect::<String>()
}

/// The paper's figures for these runs.
fn write_figures(dir: &Path, game: Game, docs: &[SizeDoc]) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        source: e,
    })?;
    let mut written = Vec::new();
    let mut save = |name: String, svg: String| -> Result<(), Error> {
        let path = dir.join(name);
        std::fs::write(&path, svg).map_err(|e| Error::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        written.push(path);
        Ok(())
    };
    for d in docs {
        let key = size_key(&d.size);
        // box plots of P(Sp) and P(Sr) over the trials (Figures 7 and 16)
        let mut bp = BoxPlot::new(format!(
            "{}: solvability over {} trials",
            d.size,
            d.setups[0].trials.len()
        ))
        .y_label("fraction of challenges solved")
        .whiskers(Whiskers::MinMax)
        .mean()
        .y_range(0.0, 1.0);
        for s in &d.setups {
            bp = bp
                .group(
                    format!("{} P(Sp)", s.label),
                    s.trials.iter().map(|t| t.solvable),
                )
                .group(
                    format!("{} P(Sr)", s.label),
                    s.trials.iter().map(|t| t.random_solvable),
                );
        }
        save(format!("solitaire-{key}-solvability.svg"), bp.to_svg())?;
        // histograms of the shortest solution lengths (Figures 10 and 17)
        let lo = d.setups.iter().filter_map(|s| s.length.min).min();
        let hi = d.setups.iter().filter_map(|s| s.length.max).max();
        if let (Some(lo), Some(hi)) = (lo, hi) {
            let mut chart = BarChart::new(format!(
                "{}: shortest solution lengths (solvable challenges)",
                d.size
            ))
            .x_label("moves")
            .y_label("challenges")
            .integer_bins(i64::from(lo), i64::from(hi));
            for s in &d.setups {
                let values: Vec<f64> = (lo..=hi)
                    .map(|l| *s.length.histogram.get(&l).unwrap_or(&0) as f64)
                    .collect();
                let label = match s.length.median {
                    Some(m) => format!("{} (median {m})", s.label),
                    None => s.label.to_string(),
                };
                chart = chart.series(BarSeries::new(label, values));
            }
            save(format!("solitaire-{key}-lengths.svg"), chart.to_svg())?;
        }
        // the diagnostics by solvability (Figures 18 and 19)
        let split = |s: &Summary| match &s.metrics {
            Metrics::BoxOff { pair_equality } => {
                Some((pair_equality.solvable.mean, pair_equality.unsolvable.mean))
            }
            Metrics::Fujisan { connectivity, .. } => {
                Some((connectivity.solvable.mean, connectivity.unsolvable.mean))
            }
            Metrics::Pretzel { .. } => None,
        };
        if game != Game::Pretzel {
            let (title, y) = if game == Game::BoxOff {
                (
                    "pair equality",
                    "share of adjacent pairs with equal colours",
                )
            } else {
                ("connectivity", "steps connected to a step (mean)")
            };
            let vals: Vec<(f64, f64)> = d.setups.iter().filter_map(split).collect();
            let chart = BarChart::new(format!("{}: {title} by solvability", d.size))
                .y_label(y)
                .categories(d.setups.iter().map(|s| s.label))
                .series(BarSeries::new("solvable", vals.iter().map(|v| v.0)).colour("#222222"))
                .series(BarSeries::new("unsolvable", vals.iter().map(|v| v.1)).colour("#bbbbbb"));
            save(
                format!("solitaire-{key}-{}.svg", title.replace(' ', "-")),
                chart.to_svg(),
            )?;
        }
    }
    if docs.len() > 1 {
        // sweeps over the sizes (Pretzel: Figures 9 and 11)
        let x = |d: &SizeDoc| match d.size.rsplit_once(", ") {
            Some((_, n)) => n.trim_end_matches(')').parse::<f64>().unwrap_or(0.0),
            None => 0.0,
        };
        let key = size_key(&docs[0].size);
        let key = key
            .rsplit_once('x')
            .map_or(key.clone(), |(a, _)| a.to_string());
        for (what, f, file) in [
            (
                "P(Sp)",
                (|s: &Summary| s.solvable) as fn(&Summary) -> f64,
                "solvability",
            ),
            ("P(Sp) − P(Sr)", |s: &Summary| s.interest, "interest"),
            ("P(Sr)", |s: &Summary| s.random_solvable, "random"),
        ] {
            let mut plot = LinePlot::new(format!(
                "{} over the number of ranks: {what}",
                game_label(game)
            ))
            .x_label("ranks")
            .y_label(what)
            .y_range(0.0, 1.0);
            let dashes = [Dash::Dotted, Dash::Dashed, Dash::Solid, Dash::DashDot];
            for (i, s) in docs[0].setups.iter().enumerate() {
                let pts: Vec<(f64, f64)> = docs.iter().map(|d| (x(d), f(&d.setups[i]))).collect();
                plot = plot.series(Series::new(s.label, pts).markers().dash(dashes[i % 4]));
            }
            save(format!("solitaire-{key}-sweep-{file}.svg"), plot.to_svg())?;
        }
    }
    Ok(written)
}

fn game_label(g: Game) -> &'static str {
    match g {
        Game::BoxOff => "BoxOff",
        Game::Pretzel => "Pretzel",
        _ => "Fujisan",
    }
}

fn run_exact(a: &ExperimentArgs, sizes: &[Size], setups: &[Setup]) -> Result<Done, Error> {
    if a.game != Game::Pretzel {
        return Err(Error::invalid(
            "--exact enumerates Pretzel deals; BoxOff and Fujisan setups have far too many challenges",
        ));
    }
    let mut out: Vec<Exact> = Vec::new();
    for size in sizes {
        let Size::Pretzel { suits, ranks } = *size else {
            continue;
        };
        for &s in setups {
            out.push(exact_pretzel(suits, ranks, s)?);
        }
    }
    if a.json {
        if out.len() == 1 {
            out::json(&out[0]);
        } else {
            out::json(&out);
        }
    } else {
        outln!(
            "{:<16} {:<12} {:>12} {:>12} {:>12} {:>10} {:>10} {:>9}",
            "size",
            "setup",
            "deals",
            "solved",
            "solvable",
            "fraction",
            "blockaded",
            "time"
        );
        for e in &out {
            outln!(
                "{:<16} {:<12} {:>12} {:>12} {:>12} {:>10} {:>10} {:>9}",
                e.size,
                e.setup,
                thousands(e.deals),
                thousands(e.solved_classes),
                thousands(e.solvable),
                format!("{:.5}", e.fraction),
                thousands(e.blockaded),
                human_time(std::time::Duration::from_secs_f64(e.seconds))
            );
        }
    }
    Ok(Done::Answered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_lists() {
        assert_eq!(parse_ranks("2-9").unwrap().0, (2..=9).collect::<Vec<_>>());
        assert_eq!(parse_ranks("4,6,8").unwrap().0, vec![4, 6, 8]);
        assert_eq!(parse_ranks("3..5").unwrap().0, vec![3, 4, 5]);
        assert!(parse_ranks("9-2").is_err());
        assert!(parse_ranks("x").is_err());
        assert!(parse_setups("shuffled,ltiles").is_ok());
        assert!(parse_setups("shuffled,nope").is_err());
        assert_eq!(size_key("BoxOff (4, 6, 4)"), "boxoff4x6x4");
    }
}

#[derive(Serialize)]
struct VerifyJson<'a> {
    level: &'a str,
    game: &'static str,
    valid: bool,
    solved: bool,
    moves: Option<usize>,
    error: Option<VerifyMoveError>,
}

#[derive(Serialize)]
struct VerifyMoveError {
    /// 1-based index of the first illegal move.
    #[serde(rename = "move")]
    index: usize,
    /// The move as written in `floe solve` output.
    text: String,
    reason: String,
}

/// A replayed move list: (moves, solved), or the first illegal move (0-based index, the move,
/// why).
type Replayed = Result<(usize, bool), (usize, String, String)>;

/// Replays moves of any of the three games.
fn replay_any(c: &Challenge, text: &str, file: &str) -> Result<Replayed, Error> {
    fn check<M: std::fmt::Display, R>(
        moves: Vec<M>,
        replayed: Result<R, sol::IllegalMove>,
        solved: impl Fn(&R) -> bool,
    ) -> Replayed {
        match replayed {
            Ok(r) => Ok((moves.len(), solved(&r))),
            Err(e) => Err((e.index, moves[e.index].to_string(), e.reason)),
        }
    }
    Ok(match c {
        Challenge::BoxOff(b) => {
            let m = sol::boxoff::parse_moves(text, file)?;
            let r = sol::boxoff::replay(b, &m);
            check(m, r, |r| r.solved)
        }
        Challenge::Pretzel(d) => {
            let m = sol::pretzel::parse_moves(text, file)?;
            let r = sol::pretzel::replay(d, &m);
            check(m, r, |r| r.solved)
        }
        Challenge::Fujisan(f) => {
            let m = sol::fujisan::parse_moves(text, file)?;
            let r = sol::fujisan::replay(f, &m);
            check(m, r, |r| r.solved)
        }
    })
}

/// `floe verify` on a solitaire challenge: replays the moves and names the first illegal one.
pub fn verify(a: &VerifyArgs, game: Game) -> Result<Done, Error> {
    if a.k.is_some() || a.level.rules.is_some() || a.level.format.is_some() {
        return Err(Error::invalid(
            "--k, --rules and --format belong to other games",
        ));
    }
    let (text, file) = floe::input::read_text(&a.level.file)?;
    let (challenge, title) = Challenge::parse(game, &text, &file)?;
    let name = title.unwrap_or_else(|| file.clone());
    let (mtext, mfile) = floe::input::read_text(&a.moves)?;
    let result = replay_any(&challenge, &mtext, &mfile)?;
    if a.json {
        out::json(&match &result {
            Ok((n, solved)) => VerifyJson {
                level: &name,
                game: game.name(),
                valid: true,
                solved: *solved,
                moves: Some(*n),
                error: None,
            },
            Err((i, m, reason)) => VerifyJson {
                level: &name,
                game: game.name(),
                valid: false,
                solved: false,
                moves: None,
                error: Some(VerifyMoveError {
                    index: i + 1,
                    text: m.clone(),
                    reason: reason.clone(),
                }),
            },
        });
    } else {
        match &result {
            Ok((n, solved)) => outln!(
                "{name}: {}, every one legal; the challenge is {}solved",
                count(*n as u64, "move", "moves"),
                if *solved { "" } else { "NOT " }
            ),
            Err((i, m, reason)) => outln!("{name}: move {} ({m}) is illegal: {reason}", i + 1),
        }
    }
    Ok(Done::Answered)
}
