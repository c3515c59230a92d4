//! `floe experiment`: the Monte Carlo experiments of the physical solitaire puzzles (BoxOff,
//! Pretzel, Fujisan), their statistics and the paper's figures.

use crate::args::ExperimentArgs;
use crate::out::{self, human_time, thousands};
use crate::Done;
use floe::analysis::solitaire::{self, figures, size_key, Exact, Metrics, SizeRun};
use floe::games::solitaire::Kind;
use floe::request::{experiment, ExperimentOutcome as Outcome, ExperimentRun};
use floe::request::{Experiment, Naming};
use floe::search::Limits;
use floe::Error;
use std::path::Path;

/// `floe experiment`.
pub fn run(a: ExperimentArgs) -> Result<Done, Error> {
    let outcome = compute(
        &a.run,
        a.limits.limits(),
        a.threads,
        a.out.as_deref(),
        progress_bar,
    )?;
    // the figures are one result: written beside their old versions first, put in place
    // together after the report is printed (which a full disk does not lose)
    let mut written = Vec::new();
    let mut files = floe::mem::FileSet::new();
    let staged = (|| -> Result<(), Error> {
        if let (Some(dir), Outcome::Runs(docs)) = (&a.svg, &outcome) {
            if dir.exists() && !dir.is_dir() {
                return Err(Error::invalid(format!(
                    "--svg {}: a file is there; --svg names a folder for the figures",
                    dir.display()
                )));
            }
            let game: Kind = a.run.game.parse().map_err(Error::invalid)?;
            for (name, svg) in figures(game, docs) {
                let path = dir.join(name);
                files.add(&path, svg)?;
                written.push(path);
            }
        }
        Ok(())
    })();
    if staged.is_err() {
        written.clear();
    }
    if a.json {
        out::json(&outcome.report(&a.run));
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
    staged?;
    files.commit(Vec::new)?;
    Ok(Done::when(!outcome.limited()))
}

/// The experiment `e` asks for, each challenge's search within `limits`, on `threads` (default:
/// every core), the generated challenges written into `out` when given; `bar` makes a
/// progress bar for so many challenges (or none).
pub(crate) fn compute(
    e: &Experiment,
    limits: Limits,
    threads: Option<usize>,
    out: Option<&Path>,
    bar: fn(u64) -> Option<indicatif::ProgressBar>,
) -> Result<Outcome, Error> {
    let made = std::sync::OnceLock::new();
    let progress = |done: u64, total: u64, what: &str| {
        if let Some(b) = made.get_or_init(|| bar(total)) {
            if b.message() != what {
                b.set_message(what.to_string());
            }
            b.set_position(done);
        }
    };
    let run = ExperimentRun {
        limits,
        threads,
        naming: Naming::Flags,
        progress: &progress,
    };
    let mut outcome = experiment(e, &run, &mut |_, _, _| {})?;
    if let Some(Some(b)) = made.get() {
        b.finish_and_clear();
    }
    if let (Outcome::Generated(docs), Some(dir)) = (&mut outcome, out) {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::invalid(format!(
                "-o {}: a file is there; -o names a folder for the challenges",
                dir.display()
            )));
        }
        let game: Kind = e.game.parse().map_err(Error::invalid)?;
        let n = e.generate.unwrap_or(0);
        let names = e
            .sizes(game)
            .into_iter()
            .flat_map(|size| (0..n).map(move |i| (size, i)));
        // the challenges of one run are one set: all in place, or none of them
        let mut set = floe::mem::FileSet::new();
        for (c, (size, i)) in docs.iter_mut().zip(names) {
            let text = c.text.take().unwrap_or_default();
            let path = dir.join(format!(
                "{}-{}-{}-{i}.txt",
                size_key(&size.to_string()),
                e.setup.name(),
                e.seed
            ));
            set.add(&path, &text)?;
            c.file = Some(path.display().to_string());
        }
        set.commit(Vec::new)?;
    }
    Ok(outcome)
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
