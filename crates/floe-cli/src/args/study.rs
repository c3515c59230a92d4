//! The studies of one game each: the PushPush census and learned predictors, the solitaire
//! experiments, the Zelda demo.

use super::{within, LimitArgs};
use clap::{Args, Subcommand, ValueEnum};
use floe::request::ranges::{CENSUS_K, CENSUS_SIDE, THREADS};
use std::path::PathBuf;

/// `floe census`.
#[derive(Subcommand, Debug)]
pub enum CensusCommand {
    /// Every PushPush board of one size: fewest pushes, unsolvable boards, hardest boards,
    /// equivalence classes. Computed one layer (number of blocks) at a time: --max-memory
    /// bounds the largest layer, --work-dir keeps the finished ones.
    Pushpush(CensusArgs),
}

/// `floe census pushpush`.
#[derive(Args, Debug)]
pub struct CensusArgs {
    /// Board rows (1 to 32; at most 32 cells).
    #[arg(long, value_name = "R", value_parser = CENSUS_SIDE.usize())]
    pub rows: usize,
    /// Board columns (1 to 32).
    #[arg(long, value_name = "C", value_parser = CENSUS_SIDE.usize())]
    pub cols: usize,
    /// PushPush-k: the robot pushes rows of up to K blocks (0 = no limit, PushPush-*; at most
    /// 1,024).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = CENSUS_K.usize())]
    pub k: usize,
    /// Also compute every solvable board's difficulty (thesis equation 3) and its histograms.
    #[arg(long)]
    pub difficulty: bool,
    /// Write the histograms as SVG pictures: FILE and FILE-… siblings (the thesis's
    /// Figures 11 and 13–15).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// How many classes of the hardest boards to list, each with a solution.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub hardest: usize,
    /// Limits of the census. --max-memory bounds the tables of the largest layer; with
    /// --difficulty, less memory means more passes over a layer's positions (one per batch
    /// of targets).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
    /// Keep every finished layer (the boards with one number of blocks) as a file in DIR,
    /// written atomically, so that a census that stops can be resumed (--resume) and layers
    /// computed on other machines merged. A DIR that holds anything needs --resume.
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Go on with the layers already in --work-dir (written with the same rows, columns,
    /// --k, --difficulty and --hardest): only the missing ones are computed; when none is
    /// missing, the census is merged from the files.
    #[arg(long, requires = "work_dir")]
    pub resume: bool,
    /// Compute only these layers (numbers of blocks: 0,1,2 or 0-7) into --work-dir; the
    /// census is reported once every layer is there (then again with --resume).
    #[arg(long, value_name = "K1,K2,…", requires = "work_dir", value_parser = parse_layers)]
    pub layers: Option<Layers>,
    /// The layers shared out between workers and processes (each layer is computed by one
    /// worker; process 0 merges them): see docs/cluster.md.
    #[command(flatten)]
    pub peers: super::PeersArgs,
}

/// The layers of `--layers`.
#[derive(Clone, Debug)]
pub struct Layers(pub Vec<usize>);

/// Parses `3`, `0,1,2` or `0-7` (and mixtures).
pub fn parse_layers(s: &str) -> Result<Layers, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || format!("'{part}' is not a number of blocks or a range like 0-7");
        if let Some((a, b)) = part.split_once('-') {
            let a: usize = a.trim().parse().map_err(|_| bad())?;
            let b: usize = b.trim().parse().map_err(|_| bad())?;
            if a > b {
                return Err(format!(
                    "'{part}' is a range backwards: give the smaller number first ({b}-{a})"
                ));
            }
            if b >= 32 {
                return Err(format!(
                    "'{part}': a census has at most 32 cells, so layers of 0 to 31 blocks"
                ));
            }
            out.extend(a..=b);
        } else {
            let k: usize = part.parse().map_err(|_| bad())?;
            if k >= 32 {
                return Err(bad());
            }
            out.push(k);
        }
    }
    if out.is_empty() {
        return Err("no layers given".into());
    }
    out.sort_unstable();
    out.dedup();
    Ok(Layers(out))
}

/// `floe experiment GAME …`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// The game, its size, the setups, the run.
    #[command(flatten)]
    pub run: floe::request::Experiment,
    /// With --generate: a directory for one file per challenge.
    #[arg(long, short = 'o', value_name = "DIR", requires = "generate")]
    pub out: Option<PathBuf>,
    /// Write the paper's figures (box plots, histograms, sweeps) as SVG files into DIR.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Worker threads, 1 to 256 (default: every core). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = THREADS.usize())]
    pub threads: Option<usize>,
    /// Limits of each challenge's search (a challenge stopped by one counts as not solvable
    /// and is reported under limit hits).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe learn`.
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
    pub data: Option<PathBuf>,
    /// Board rows of a fresh sample, without --data (1 to 32; 2 to 32 cells).
    #[arg(long, value_name = "R", default_value_t = 4, value_parser = within(1, 32))]
    pub rows: usize,
    /// Board columns of a fresh sample (1 to 32).
    #[arg(long, value_name = "C", default_value_t = 4, value_parser = within(1, 32))]
    pub cols: usize,
    /// Boards in a fresh sample, 1 to 100,000,000 (distinct, drawn uniformly).
    #[arg(long, value_name = "N", default_value_t = 200_000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub count: u64,
    /// Seed of a fresh sample.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Seed of the split of a fresh sample (classes are hashed with it).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub split_seed: u64,
}

/// `floe learn data`.
#[derive(Args, Debug)]
pub struct DataArgs {
    /// The boards.
    #[command(flatten)]
    pub source: Source,
    /// The dataset file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
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

/// `floe learn train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The boards.
    #[command(flatten)]
    pub source: Source,
    /// The architecture.
    #[arg(long, value_enum, default_value = "fcn")]
    pub arch: ArchArg,
    /// What to predict.
    #[arg(long, value_enum, default_value = "all")]
    pub task: TaskArg,
    /// Passes over the training split (1 to 100,000).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = within(1, 100_000))]
    pub epochs: usize,
    /// Examples per step (1 to 1,048,576).
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = within(1, 1_048_576))]
    pub batch: usize,
    /// Peak learning rate, above 0 and at most 10 (AdamW, cosine decay).
    #[arg(long, value_name = "LR", default_value_t = 2e-3, value_parser = parse_rate)]
    pub lr: f64,
    /// Hidden units (FNN) or channels (CNN, FCN) instead of the architecture's default (1 to
    /// 4,096).
    #[arg(long, value_name = "N", value_parser = within(1, 4096))]
    pub width: Option<usize>,
    /// Dense layers (FNN) or convolutions (CNN, FCN), 1 to 64, instead of the default.
    #[arg(long, value_name = "N", value_parser = within(1, 64))]
    pub depth: Option<usize>,
    /// Random symmetric images while training (default: on for fcn, off for the thesis's
    /// models).
    #[arg(long, value_name = "BOOL")]
    pub augment: Option<bool>,
    /// Seed of the weights and the shuffling.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub train_seed: u64,
    /// The model file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
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

/// `floe learn eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The model file.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// The boards.
    #[command(flatten)]
    pub source: Source,
    /// The part of the data to score.
    #[arg(long, value_enum, default_value = "test")]
    pub split: SplitArg,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe predict`.
#[derive(Args, Debug)]
pub struct PredictArgs {
    /// A PushPush level file.
    pub file: PathBuf,
    /// The model file (`floe learn train`).
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// Which board of the file (number from 1 or title).
    #[arg(long, short = 'l', value_name = "N|NAME")]
    pub level: Option<String>,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// A learning rate: a finite number above 0, at most 10 (AdamW diverges long before).
fn parse_rate(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number"))?;
    if x.is_finite() && x > 0.0 && x <= 10.0 {
        Ok(x)
    } else {
        Err(format!(
            "'{s}' is out of range: give a number above 0, at most 10"
        ))
    }
}
