//! `floe learn data|train|eval`: datasets, training and evaluation of the learned predictors
//! for PushPush boards (crate floe-learn).

use crate::args::{ArchArg, DataArgs, EvalArgs, Source, SplitArg, TaskArg, TrainArgs};
use crate::out::{self, thousands};
use crate::Done;
use floe::Error;
use floe_learn::data::{self, Dataset, Example, Split};
use floe_learn::eval::{evaluate, TaskScore};
use floe_learn::model::{Arch, Head, Net, Spec};
use floe_learn::train::{train as run_train, EpochReport, Event, TrainOptions};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;
use std::time::Instant;

fn bar(len: u64, what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    b.set_prefix(what.to_string());
    Some(b)
}

fn load_data(s: &Source) -> Result<Dataset, Error> {
    match &s.data {
        Some(path) => {
            let (text, file) = floe::input::read_text_capped(path, data::MAX_FILE)?;
            data::parse(&text, &file)
        }
        None => {
            let b = bar(s.count, "labelling");
            let d = data::sample(s.rows, s.cols, s.count, s.seed, s.split_seed, &|n| {
                if let Some(b) = &b {
                    b.set_position(n);
                }
            });
            if let Some(b) = b {
                b.finish_and_clear();
            }
            d
        }
    }
}

#[derive(Serialize)]
struct DataOut {
    file: String,
    rows: usize,
    cols: usize,
    boards: usize,
    train: usize,
    val: usize,
    test: usize,
    classes: usize,
    solvable: usize,
    seconds: f64,
}

/// `floe learn data`.
pub fn data(a: DataArgs) -> Result<Done, Error> {
    let t0 = Instant::now();
    let d = load_data(&a.source)?;
    out::write_file(&a.out, data::write(&d))?;
    let classes: std::collections::HashSet<u128> = d.examples.iter().map(|e| e.class).collect();
    let o = DataOut {
        file: a.out.display().to_string(),
        rows: d.rows,
        cols: d.cols,
        boards: d.examples.len(),
        train: d.part(Split::Train).len(),
        val: d.part(Split::Val).len(),
        test: d.part(Split::Test).len(),
        classes: classes.len(),
        solvable: d.examples.iter().filter(|e| e.pushes >= 0).count(),
        seconds: t0.elapsed().as_secs_f64(),
    };
    if a.json {
        out::json(&o);
    } else {
        outln!(
            "{}: {} {}×{} boards ({} classes, {} solvable), train {} / val {} / test {}, {:.1} s",
            o.file,
            thousands(o.boards as u64),
            o.rows,
            o.cols,
            thousands(o.classes as u64),
            thousands(o.solvable as u64),
            thousands(o.train as u64),
            thousands(o.val as u64),
            thousands(o.test as u64),
            o.seconds
        );
    }
    Ok(Done::Answered)
}

#[derive(Serialize)]
struct TrainOut {
    model: String,
    spec: Spec,
    parameters: usize,
    bytes: usize,
    train_examples: usize,
    epochs: Vec<EpochReport>,
    seconds: f64,
    test: Vec<TaskScore>,
}

/// `floe learn train`.
pub fn train(a: TrainArgs) -> Result<Done, Error> {
    let t0 = Instant::now();
    let d = load_data(&a.source)?;
    if d.part(Split::Test).is_empty() {
        return Err(Error::invalid(
            "the dataset has no test boards (split `test`) to report the model's accuracy on",
        ));
    }
    let heads = match a.task {
        TaskArg::Solvable => vec![Head::Solvable],
        TaskArg::Pushes => vec![Head::Pushes {
            max: d.max_pushes(),
        }],
        TaskArg::Difficulty => vec![Head::Difficulty],
        TaskArg::All => vec![
            Head::Pushes {
                max: d.max_pushes(),
            },
            Head::Difficulty,
        ],
    };
    let (rows, cols) = (d.rows, d.cols);
    let mut spec = match a.arch {
        ArchArg::Fnn => Spec::thesis_fnn(rows, cols, heads),
        ArchArg::Cnn => Spec::thesis_cnn(rows, cols, heads),
        ArchArg::Fcn => Spec::fcn(rows, cols, heads),
    };
    if let Some(w) = a.width {
        spec.width = w;
    }
    if let Some(k) = a.depth {
        spec.depth = k;
    }
    let augment = a.augment.unwrap_or(spec.arch == Arch::Fcn);
    let mut net = Net::new(spec, a.train_seed)?;
    let o = TrainOptions {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        seed: a.train_seed,
        augment,
    };
    let train_examples = d.part(Split::Train).len();
    let b = bar(a.epochs as u64, "training");
    let human = !a.json;
    let reports = run_train(&mut net, &d, &o, &mut |ev| match ev {
        Event::Step(k, n) => {
            if let Some(b) = &b {
                b.set_message(format!("step {k}/{n}"));
            }
        }
        Event::Epoch(r) => {
            let line = format!(
                "epoch {:>3}: loss {:.4}, validation accuracy {}, {:.1} s",
                r.epoch,
                r.loss,
                r.val_accuracy
                    .iter()
                    .map(|x| format!("{x:.4}"))
                    .collect::<Vec<_>>()
                    .join(" / "),
                r.train_seconds
            );
            match &b {
                Some(b) => {
                    b.inc(1);
                    if human {
                        b.println(line);
                    }
                }
                None if human => outln!("{line}"),
                None => {}
            }
        }
    })?;
    if let Some(b) = b {
        b.finish_and_clear();
    }
    let info = serde_json::json!({
        "trained_on": {
            "rows": rows, "cols": cols, "seed": d.seed, "split_seed": d.split_seed,
            "boards": d.examples.len(), "train": train_examples,
        },
        "epochs": a.epochs, "batch": a.batch, "lr": a.lr, "augment": augment,
        "train_seed": a.train_seed,
    });
    net.save(&a.out, &info)?;
    let bytes = std::fs::metadata(&a.out)
        .map(|m| m.len() as usize)
        .unwrap_or(0);
    let test = evaluate(&net, rows, cols, &d.part(Split::Test))?;
    let o = TrainOut {
        model: a.out.display().to_string(),
        spec: net.spec.clone(),
        parameters: net.parameters(),
        bytes,
        train_examples,
        epochs: reports,
        seconds: t0.elapsed().as_secs_f64(),
        test,
    };
    if a.json {
        out::json(&o);
    } else {
        outln!(
            "{}: {} model, {} weights, {} bytes, trained on {} boards in {:.1} s",
            o.model,
            o.spec.arch.name(),
            thousands(o.parameters as u64),
            thousands(o.bytes as u64),
            thousands(o.train_examples as u64),
            o.seconds
        );
        print_scores(&o.test, "test");
    }
    Ok(Done::Answered)
}

#[derive(Serialize)]
struct EvalOut {
    model: String,
    rows: usize,
    cols: usize,
    split: String,
    scores: Vec<TaskScore>,
    seconds: f64,
}

/// `floe learn eval`.
pub fn eval(a: EvalArgs) -> Result<Done, Error> {
    let t0 = Instant::now();
    let (net, _) = Net::load(&a.model)?;
    let d = load_data(&a.source)?;
    let (xs, split): (Vec<Example>, &str) = match a.split {
        SplitArg::Train => (d.part(Split::Train), "train"),
        SplitArg::Val => (d.part(Split::Val), "val"),
        SplitArg::Test => (d.part(Split::Test), "test"),
        SplitArg::All => (d.examples.clone(), "all"),
    };
    if xs.is_empty() {
        return Err(Error::invalid(format!("the {split} split holds no boards")));
    }
    let scores = evaluate(&net, d.rows, d.cols, &xs)?;
    let o = EvalOut {
        model: a.model.display().to_string(),
        rows: d.rows,
        cols: d.cols,
        split: split.to_string(),
        scores,
        seconds: t0.elapsed().as_secs_f64(),
    };
    if a.json {
        out::json(&o);
    } else {
        outln!(
            "{} on {} {}×{} boards ({}):",
            o.model,
            thousands(xs.len() as u64),
            o.rows,
            o.cols,
            o.split
        );
        print_scores(&o.scores, &o.split);
    }
    Ok(Done::Answered)
}

fn print_scores(scores: &[TaskScore], split: &str) {
    for s in scores {
        outln!();
        outln!(
            "{}{}: accuracy {:.4} on {} {split} boards (always the most common class: {:.4}), ECE {:.4}, log loss {:.4}",
            s.task,
            if s.derived { " (from the pushes head)" } else { "" },
            s.accuracy,
            thousands(s.examples),
            s.baseline,
            s.ece,
            s.log_loss
        );
        outln!("  confusion (rows: truth, columns: predicted)");
        let w = s
            .confusion
            .iter()
            .flatten()
            .map(|v| thousands(*v).len())
            .max()
            .unwrap_or(1)
            .max(10);
        outp!("  {:>12}", "");
        for l in &s.labels {
            outp!(" {:>w$}", l);
        }
        outln!();
        for (l, row) in s.labels.iter().zip(&s.confusion) {
            outp!("  {:>12}", l);
            for v in row {
                outp!(" {:>w$}", thousands(*v));
            }
            outln!();
        }
        outln!("  calibration (top-class confidence: boards, mean confidence, accuracy)");
        for b in s.calibration.iter().filter(|b| b.count > 0) {
            outln!(
                "    {:.1}–{:.1}: {:>9} {:.3} {:.3}",
                b.lo,
                b.hi,
                thousands(b.count),
                b.confidence,
                b.accuracy
            );
        }
    }
}
