//! `floe learn data|train|eval` and `floe predict`: learned predictors for PushPush boards
//! (crate floe-learn).

use super::*;
use clap::{Args, Subcommand, ValueEnum};
use floe::games::pushpush::board::{self as ppboard};
use floe_learn::data::{self, from_board, Dataset, Example, Split};
use floe_learn::eval::{evaluate, TaskScore};
use floe_learn::model::{Arch, Head, Net, Spec};
use floe_learn::train::{train as run_train, EpochReport, Event, TrainOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Datasets, training and evaluation of the learned predictors.
#[derive(Subcommand, Debug)]
pub enum LearnCommand {
    /// Sample boards, label them exactly, split them 80/10/10 by equivalence class and write
    /// the dataset file.
    Data(DataArgs),
    /// Train a model (the thesis's FNN or CNN, or the symmetry-aware FCN) and save it.
    Train(TrainArgs),
    /// Score a model on a split: accuracy, confusion matrices, calibration.
    Eval(EvalArgs),
}

/// Where the boards come from: a dataset file, or a fresh sample.
#[derive(Args, Debug)]
pub struct Source {
    /// A dataset file written by `floe learn data`.
    #[arg(long, value_name = "FILE")]
    data: Option<PathBuf>,
    /// Board rows of a fresh sample (without --data).
    #[arg(long, value_name = "R", default_value_t = 4)]
    rows: usize,
    /// Board columns of a fresh sample.
    #[arg(long, value_name = "C", default_value_t = 4)]
    cols: usize,
    /// Boards in a fresh sample (distinct, drawn uniformly).
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    count: u64,
    /// Seed of a fresh sample.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Seed of the split of a fresh sample (classes are hashed with it).
    #[arg(long, value_name = "S", default_value_t = 1)]
    split_seed: u64,
}

#[derive(Args, Debug)]
pub struct DataArgs {
    #[command(flatten)]
    source: Source,
    /// The dataset file to write.
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

/// The architectures on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ArchArg {
    /// The thesis's feed-forward network on 18 numbers.
    Fnn,
    /// The thesis's convolutional network.
    Cnn,
    /// Fully convolutional, symmetry-aware, any board size.
    Fcn,
}

/// The tasks on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TaskArg {
    /// Solvable or not.
    Solvable,
    /// Fewest pushes (−1 = unsolvable).
    Pushes,
    /// The rounded difficulty 0–5 (solvable boards).
    Difficulty,
    /// Fewest pushes and difficulty, two heads on one network.
    All,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    source: Source,
    /// The architecture.
    #[arg(long, value_enum, default_value = "fcn")]
    arch: ArchArg,
    /// What to predict.
    #[arg(long, value_enum, default_value = "all")]
    task: TaskArg,
    /// Passes over the training split.
    #[arg(long, value_name = "N", default_value_t = 10)]
    epochs: usize,
    /// Examples per step.
    #[arg(long, value_name = "N", default_value_t = 128)]
    batch: usize,
    /// Peak learning rate (AdamW, cosine decay).
    #[arg(long, value_name = "LR", default_value_t = 2e-3)]
    lr: f64,
    /// Hidden units (FNN) or channels (CNN, FCN) instead of the architecture's default.
    #[arg(long, value_name = "N")]
    width: Option<usize>,
    /// Dense layers (FNN) or convolutions (CNN, FCN) instead of the default.
    #[arg(long, value_name = "N")]
    depth: Option<usize>,
    /// Random symmetric images while training (default: on for fcn, off for the thesis's
    /// models).
    #[arg(long, value_name = "BOOL")]
    augment: Option<bool>,
    /// Seed of the weights and the shuffling.
    #[arg(long, value_name = "S", default_value_t = 1)]
    train_seed: u64,
    /// The model file to write.
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

/// Which part of the data to score.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SplitArg {
    /// The training split.
    Train,
    /// The validation split.
    Val,
    /// The test split.
    Test,
    /// Every board (for sizes the model never saw).
    All,
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The model file.
    #[arg(long, value_name = "FILE")]
    model: PathBuf,
    #[command(flatten)]
    source: Source,
    /// The part of the data to score.
    #[arg(long, value_enum, default_value = "test")]
    split: SplitArg,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct PredictArgs {
    /// A PushPush level file.
    file: PathBuf,
    /// The model file (`floe learn train`).
    #[arg(long, value_name = "FILE")]
    model: PathBuf,
    /// Which board of the file (number from 1 or title).
    #[arg(long, value_name = "SEL")]
    level: Option<String>,
    /// One JSON document on standard output.
    #[arg(long)]
    json: bool,
}

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
            let text = std::fs::read_to_string(path)
                .map_err(|e| Error::invalid(format!("{}: cannot read: {e}", path.display())))?;
            data::parse(&text, &path.display().to_string())
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
    std::fs::write(&a.out, data::write(&d))
        .map_err(|e| Error::invalid(format!("{}: cannot write: {e}", a.out.display())))?;
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

#[derive(Serialize)]
struct PredictOut {
    level: String,
    model: String,
    solvable: Option<f32>,
    pushes: Option<serde_json::Map<String, serde_json::Value>>,
    difficulty: Option<serde_json::Map<String, serde_json::Value>>,
    millis: f64,
}

/// `floe predict`.
pub fn predict(a: PredictArgs) -> Result<Done, Error> {
    let t0 = Instant::now();
    let (net, _) = Net::load(&a.model)?;
    let boards = ppboard::load(&a.file)?;
    let (i, b) = match a.level.as_deref() {
        Some(sel) => ppboard::select(&boards, sel)?,
        None if boards.len() == 1 => (0, &boards[0]),
        None => {
            return Err(Error::invalid(format!(
                "{} holds {} boards; pick one with --level N or --level NAME",
                a.file.display(),
                boards.len()
            )))
        }
    };
    let (blocks, robot, target) = from_board(b)?;
    let e = Example {
        blocks,
        robot,
        target,
        pushes: -1,
        difficulty: None,
        class: 0,
        split: Split::Test,
    };
    let probs = net.predict(b.rows(), b.cols(), &[e])?;
    let mut o = PredictOut {
        level: b.display_name(i),
        model: net.spec.arch.name().to_string(),
        solvable: None,
        pushes: None,
        difficulty: None,
        millis: 0.0,
    };
    let map = |h: Head, p: &[f32]| {
        p.iter()
            .enumerate()
            .map(|(k, v)| (h.label(k), serde_json::json!(v)))
            .collect::<serde_json::Map<_, _>>()
    };
    for (h, p) in net.spec.heads.iter().zip(&probs) {
        let p = &p[0];
        match h {
            Head::Solvable => o.solvable = Some(p[1]),
            Head::Pushes { .. } => {
                o.solvable.get_or_insert(1.0 - p[0]);
                o.pushes = Some(map(*h, p));
            }
            Head::Difficulty => o.difficulty = Some(map(*h, p)),
        }
    }
    o.millis = t0.elapsed().as_secs_f64() * 1000.0;
    if a.json {
        out::json(&o);
    } else {
        outln!("{} ({} model, {:.1} ms)", o.level, o.model, o.millis);
        if let Some(p) = o.solvable {
            outln!("  solvable: {:.3}", p);
        }
        let best = |m: &serde_json::Map<String, serde_json::Value>| {
            m.iter()
                .map(|(k, v)| format!("{k}: {:.3}", v.as_f64().unwrap_or(0.0)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(m) = &o.pushes {
            outln!("  fewest pushes (-1 = unsolvable): {}", best(m));
        }
        if let Some(m) = &o.difficulty {
            outln!("  difficulty class, if solvable: {}", best(m));
        }
    }
    Ok(Done::Answered)
}
