//! Reversibility, difficulty profiles, patterns and the randomised solvers.

use super::*;

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
