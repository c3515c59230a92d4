//! `floe experiment`: the Monte Carlo experiments of the physical solitaire puzzles (BoxOff,
//! Pretzel, Fujisan), their statistics and the paper's figures.

use crate::args::ExperimentArgs;
use crate::out::{self, human_time, thousands};
use crate::Done;
use floe::analysis::solitaire::{
    self, compare, exact_pretzel, figures, size_key, Config, Exact, ExperimentReport,
    GeneratedChallenge, Metrics, SizeRun,
};
use floe::games::solitaire::Kind;
use floe::generate::{Setup, Size};
use floe::request::{Experiment, SetupList};
use floe::search::playout::GiveUp;
use floe::search::Limits;
use floe::Error;
use std::path::Path;

/// What an experiment computed.
pub(crate) enum Outcome {
    /// `--generate N`: the challenges, as text or written to files.
    Generated(Vec<GeneratedChallenge>),
    /// The Monte Carlo runs, one document per size.
    Runs(Vec<SizeRun>),
    /// `--exact`: every Pretzel deal.
    Exact(Vec<Exact>),
}

impl Outcome {
    /// Whether a limit stopped some of the work.
    pub(crate) fn limited(&self) -> bool {
        match self {
            Outcome::Runs(docs) => docs
                .iter()
                .flat_map(|d| &d.setups)
                .any(|s| s.limit_hits > 0),
            _ => false,
        }
    }
}

/// `floe experiment`.
pub fn run(a: ExperimentArgs) -> Result<Done, Error> {
    let outcome = compute(
        &a.run,
        a.limits.limits(),
        a.threads,
        a.out.as_deref(),
        progress_bar,
    )?;
    let mut written = Vec::new();
    if let (Some(dir), Outcome::Runs(docs)) = (&a.svg, &outcome) {
        let game: Kind = a.run.game.parse().map_err(Error::invalid)?;
        for (name, svg) in figures(game, docs) {
            let path = dir.join(name);
            out::write_file(&path, svg)?;
            written.push(path);
        }
    }
    if a.json {
        out::json(&json(&a.run, &outcome));
        for f in &written {
            eprintln!("wrote {}", f.display());
        }
    } else {
        match &outcome {
            Outcome::Generated(docs) => {
                for d in docs {
                    match (&d.text, &d.file) {
                        (Some(t), _) => outln!("{t}"),
                        (_, Some(f)) => outln!("wrote {f}"),
                        _ => {}
                    }
                }
            }
            Outcome::Runs(docs) => {
                print_human(&a.run, docs);
                if docs.len() > 1 {
                    print_sweep(docs);
                }
                for f in &written {
                    outln!("wrote {}", f.display());
                }
            }
            Outcome::Exact(out) => print_exact(out),
        }
    }
    Ok(Done::when(!outcome.limited()))
}

/// The experiment `e` asks for, each challenge's search within `limits`, on `threads` (default:
/// every core), the generated challenges written into `out` when given; `bar` makes a progress bar for so many challenges
/// (or none).
pub(crate) fn compute(
    e: &Experiment,
    limits: Limits,
    threads: Option<usize>,
    out: Option<&Path>,
    bar: fn(u64) -> Option<indicatif::ProgressBar>,
) -> Result<Outcome, Error> {
    let game: Kind = e.game.parse().map_err(Error::invalid)?;
    let sizes = sizes(e, game)?;
    let setups: Vec<Setup> = match &e.compare {
        None => vec![e.setup],
        Some(SetupList(None)) => Setup::of(game).to_vec(),
        Some(SetupList(Some(v))) => v.clone(),
    };
    for &size in &sizes {
        for &s in &setups {
            floe::generate::check(size, s)?;
        }
    }
    if let Some(n) = e.generate {
        return generate_only(e, out, &sizes, n).map(Outcome::Generated);
    }
    if e.exact {
        return solitaire::in_pool(threads, || run_exact(game, &sizes, &setups))?
            .map(Outcome::Exact);
    }
    if e.trials as u64 > e.challenges {
        return Err(Error::invalid(format!(
            "--trials {} needs at least as many challenges (--challenges {})",
            e.trials, e.challenges
        )));
    }
    let total = sizes.len() as u64 * setups.len() as u64 * e.challenges;
    let bar = bar(total);
    let mut docs = Vec::new();
    let mut finished = 0u64;
    for &size in &sizes {
        let mut runs = Vec::new();
        for &setup in &setups {
            let config = Config {
                size,
                setup,
                challenges: e.challenges,
                trials: e.trials,
                seed: e.seed,
                random_player: e.random_horizon.map_or(GiveUp::Revisit, GiveUp::Horizon),
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
            let s = solitaire::in_pool(threads, || solitaire::run(&config, &progress))??;
            finished += e.challenges;
            runs.push(s);
        }
        let comparison = compare(&runs);
        docs.push(SizeRun {
            game: game.name(),
            size: size.to_string(),
            seed: e.seed,
            challenges: e.challenges,
            setups: runs,
            comparison,
        });
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(Outcome::Runs(docs))
}

/// The report `floe experiment --json` prints for `o`.
pub(crate) fn json<'a>(a: &Experiment, o: &'a Outcome) -> ExperimentReport<'a> {
    match o {
        Outcome::Generated(docs) => ExperimentReport::Generated(docs),
        Outcome::Exact(out) => ExperimentReport::exact(out),
        Outcome::Runs(docs) => ExperimentReport::runs(docs, a.compare.is_some(), a.seed),
    }
}

/// `--generate N`: the run's first N challenges as text.
fn generate_only(
    a: &Experiment,
    out: Option<&Path>,
    sizes: &[Size],
    n: u64,
) -> Result<Vec<GeneratedChallenge>, Error> {
    let mut docs = Vec::new();
    for &size in sizes {
        for i in 0..n {
            let mut c = GeneratedChallenge::new(size, a.setup, a.seed, i)?;
            if let Some(dir) = out {
                let text = c.text.take().unwrap_or_default();
                let path = dir.join(format!(
                    "{}-{}-{}-{i}.txt",
                    size_key(&size.to_string()),
                    a.setup.name(),
                    a.seed
                ));
                out::write_file(&path, &text)?;
                c.file = Some(path.display().to_string());
            }
            docs.push(c);
        }
    }
    Ok(docs)
}

fn sizes(a: &Experiment, game: Kind) -> Result<Vec<Size>, Error> {
    Ok(match game {
        Kind::BoxOff => vec![Size::boxoff(a.rows, a.cols, a.colors)],
        Kind::Pretzel => a
            .ranks
            .0
            .iter()
            .map(|&ranks| Size::Pretzel {
                suits: a.suits,
                ranks,
            })
            .collect(),
        Kind::Fujisan => vec![Size::Fujisan],
    })
}

pub(crate) fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
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

fn print_human(a: &Experiment, docs: &[SizeRun]) {
    for d in docs {
        outln!(
            "{}: {} challenges per setup in {} trials, seed {}; the random player {}",
            d.size,
            thousands(d.challenges),
            a.trials,
            d.seed,
            match a.random_horizon {
                None => "gives up on a position it has visited".to_string(),
                Some(n) => format!("plays up to {} moves", thousands(u64::from(n))),
            }
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
            let ms = |m: &solitaire::MeanSd| format!("{} ± {}", pct(m.mean), pct(m.sd));
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
            if let (Some(f), Some(d)) = (s.length.mean, s.dfs_first_length.mean) {
                outln!(
                    "    solution length: fewest moves mean {f:.2}; first solution found depth-first mean {d:.2}, median {}",
                    s.dfs_first_length.median.unwrap_or(0.0)
                );
            }
            let e = &s.random_endings;
            outln!(
                "    random games: {} solved, {} stuck, {} back on a visited position{}",
                e.solved,
                e.stuck,
                e.revisit,
                if s.random_horizon.is_some() {
                    format!(", {} out of moves", e.horizon)
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

fn print_sweep(docs: &[SizeRun]) {
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

fn run_exact(game: Kind, sizes: &[Size], setups: &[Setup]) -> Result<Vec<Exact>, Error> {
    if game != Kind::Pretzel {
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
    Ok(out)
}

fn print_exact(out: &[Exact]) {
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
    for e in out {
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
