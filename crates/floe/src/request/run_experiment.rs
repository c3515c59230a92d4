//! `experiment`: the Monte Carlo experiments of the solitaire puzzles (BoxOff, Pretzel,
//! Fujisan) run from their request ([`crate::request::Experiment`]), once for the command line,
//! the web server and Python: the sizes and setups it names, each run's challenges solved
//! and played at random, the comparison of the setups; or every Pretzel deal (`exact`); or
//! only the first challenges (`generate`).

use super::{Experiment, Naming};
use crate::analysis::solitaire::{
    self, compare, exact_pretzel, run_records, summarise, Config, Exact, ExperimentReport,
    GeneratedChallenge, Record, SizeRun,
};
use crate::error::Error;
use crate::games::solitaire::Kind;
use crate::generate::{Setup, Size};
use crate::search::playout::GiveUp;
use crate::search::Limits;
use std::time::Instant;

/// What an experiment computed.
#[derive(Debug)]
pub enum ExperimentOutcome {
    /// `generate`: the first challenges of each size, as text.
    Generated(Vec<GeneratedChallenge>),
    /// The Monte Carlo runs, one document per size.
    Runs(Vec<SizeRun>),
    /// `exact`: every Pretzel deal.
    Exact(Vec<Exact>),
}

impl ExperimentOutcome {
    /// Whether a limit stopped some challenge's search.
    pub fn limited(&self) -> bool {
        match self {
            ExperimentOutcome::Runs(docs) => docs
                .iter()
                .flat_map(|d| &d.setups)
                .any(|s| s.limit_hits > 0),
            _ => false,
        }
    }
    /// The report of `floe experiment --json` (`e` is the request it answers).
    pub fn report<'a>(&'a self, e: &Experiment) -> ExperimentReport<'a> {
        match self {
            ExperimentOutcome::Generated(docs) => ExperimentReport::Generated(docs),
            ExperimentOutcome::Exact(out) => ExperimentReport::exact(out),
            ExperimentOutcome::Runs(docs) => {
                ExperimentReport::runs(docs, e.compare.is_some(), e.seed)
            }
        }
    }
}

/// How an experiment runs besides what it asks for.
pub struct ExperimentRun<'a> {
    /// Each challenge's exact search stops at these limits (counted as a limit hit).
    pub limits: Limits,
    /// Worker threads (`None`: every core); the figures do not depend on them.
    pub threads: Option<usize>,
    /// How messages name the parameters.
    pub naming: Naming,
    /// Called now and then, from worker threads, with the challenges done and the total
    /// over every size and setup, and the size and setup being run; last with the total
    /// done (and no size or setup).
    pub progress: &'a (dyn Fn(u64, u64, &str) + Sync),
}

/// Runs the experiment `e` asks for. `records` gets every run's challenges (its size, its
/// setup and one record per challenge, in challenge order) before they are summarised.
pub fn experiment(
    e: &Experiment,
    run: &ExperimentRun<'_>,
    records: &mut dyn FnMut(Size, Setup, &[Record]),
) -> Result<ExperimentOutcome, Error> {
    let game: Kind = e.game.parse().map_err(Error::invalid)?;
    let sizes = e.sizes(game);
    if sizes.is_empty() {
        return Err(Error::invalid(format!(
            "{}: give at least one number of ranks",
            run.naming.of("ranks")
        )));
    }
    let setups = e.setups(game);
    for &size in &sizes {
        for &s in &setups {
            crate::generate::check(size, s)?;
        }
    }
    if let Some(n) = e.generate {
        let mut out = Vec::new();
        for &size in &sizes {
            for i in 0..n {
                out.push(GeneratedChallenge::new(size, e.setup, e.seed, i)?);
            }
        }
        return Ok(ExperimentOutcome::Generated(out));
    }
    if e.exact {
        if game != Kind::Pretzel {
            return Err(Error::invalid(format!(
                "{} enumerates Pretzel deals; BoxOff and Fujisan setups have far too many challenges",
                run.naming.of("exact")
            )));
        }
        let out = solitaire::in_pool(run.threads, || {
            let mut out = Vec::new();
            for size in &sizes {
                if let Size::Pretzel { suits, ranks } = *size {
                    for &s in &setups {
                        out.push(exact_pretzel(suits, ranks, s)?);
                    }
                }
            }
            Ok::<_, Error>(out)
        })??;
        return Ok(ExperimentOutcome::Exact(out));
    }
    if u64::from(e.trials) > e.challenges {
        return Err(Error::invalid(format!(
            "{} {} needs at least as many challenges ({} {})",
            run.naming.of("trials"),
            e.trials,
            run.naming.of("challenges"),
            e.challenges
        )));
    }
    let total = sizes.len() as u64 * setups.len() as u64 * e.challenges;
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
                limits: run.limits.clone(),
            };
            let what = format!("{size}, {}", setup.label());
            let base = finished;
            (run.progress)(base, total, &what);
            let progress = |d: u64| (run.progress)(base + d, total, &what);
            let (summary, kept) = solitaire::in_pool(run.threads, || {
                let start = Instant::now();
                let kept = run_records(&config, &progress)?;
                let summary = summarise(&config, &kept, start.elapsed().as_secs_f64());
                Ok::<_, Error>((summary, kept))
            })??;
            records(size, setup, &kept);
            finished += e.challenges;
            runs.push(summary);
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
    (run.progress)(total, total, "");
    Ok(ExperimentOutcome::Runs(docs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(naming: Naming) -> ExperimentRun<'static> {
        ExperimentRun {
            limits: Limits::none(),
            threads: Some(1),
            naming,
            progress: &|_, _, _| {},
        }
    }

    fn request(pairs: &[(&str, &str)]) -> Experiment {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut e = Experiment::default();
        crate::request::read(&pairs, "experiment", &mut [&mut e], &[], &[]).unwrap();
        e
    }

    #[test]
    fn runs_keep_every_record_and_count_the_progress() {
        let e = request(&[
            ("game", "boxoff"),
            ("compare", "shuffled,ltiles"),
            ("challenges", "12"),
            ("trials", "3"),
        ]);
        let seen = std::sync::Mutex::new((0u64, 0u64));
        let progress = |done: u64, total: u64, _: &str| {
            let mut s = seen.lock().unwrap();
            *s = (s.0.max(done), total);
        };
        let run = ExperimentRun {
            progress: &progress,
            ..quiet(Naming::Flags)
        };
        let mut kept = Vec::new();
        let out = experiment(&e, &run, &mut |size, setup, r| {
            kept.push((size.to_string(), setup, r.len()))
        })
        .unwrap();
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|k| k.2 == 12));
        assert_eq!(*seen.lock().unwrap(), (24, 24));
        let ExperimentOutcome::Runs(docs) = &out else {
            panic!("{out:?}")
        };
        assert_eq!(docs[0].setups.len(), 2);
        assert!(!out.limited());
    }

    #[test]
    fn messages_name_the_parameters_as_the_caller_does() {
        let e = request(&[("game", "boxoff"), ("challenges", "2"), ("trials", "5")]);
        let none = &mut |_: Size, _: Setup, _: &[Record]| {};
        let flags = experiment(&e, &quiet(Naming::Flags), none).unwrap_err();
        assert_eq!(
            flags.to_string(),
            "--trials 5 needs at least as many challenges (--challenges 2)"
        );
        let kw = experiment(&e, &quiet(Naming::Keywords), none).unwrap_err();
        assert_eq!(
            kw.to_string(),
            "trials 5 needs at least as many challenges (challenges 2)"
        );
        let e = request(&[("game", "fujisan"), ("exact", "true")]);
        let kw = experiment(&e, &quiet(Naming::Keywords), none).unwrap_err();
        assert!(kw.to_string().starts_with("exact enumerates Pretzel deals"));
    }

    #[test]
    fn generate_gives_the_first_challenges_of_each_size() {
        let e = request(&[("game", "pretzel"), ("ranks", "3-4"), ("generate", "2")]);
        let out = experiment(&e, &quiet(Naming::Flags), &mut |_, _, _| {}).unwrap();
        let ExperimentOutcome::Generated(c) = out else {
            panic!("{out:?}")
        };
        assert_eq!(c.len(), 4);
        assert!(c.iter().all(|c| c.text.is_some()));
    }
}
