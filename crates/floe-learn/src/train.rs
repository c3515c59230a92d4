//! Training: mini-batch AdamW with a cosine learning rate, random symmetric images of the
//! boards when asked, the weights of the epoch with the best validation accuracy kept.

use crate::data::{Dataset, Example, Split};
use crate::model::{encode, masked_cross_entropy, ml, Head, Net};
use candle_core::{Device, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use floe::games::pushpush::census::symmetries;
use floe::Error;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use serde::Serialize;
use std::time::Instant;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Passes over the training split.
    pub epochs: usize,
    /// Examples per step.
    pub batch: usize,
    /// Peak learning rate.
    pub lr: f64,
    /// Seed of the shuffling and the symmetric images.
    pub seed: u64,
    /// Each example in a random symmetric image of the rectangle, drawn anew every epoch.
    pub augment: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            epochs: 10,
            batch: 128,
            lr: 2e-3,
            seed: 1,
            augment: false,
        }
    }
}

/// What happened in one epoch.
#[derive(Clone, Debug, Serialize)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    /// Mean training loss (sum over the heads).
    pub loss: f64,
    /// Validation accuracy per head, in the spec's order.
    pub val_accuracy: Vec<f64>,
    /// Wall-clock seconds of the epoch's training steps.
    pub train_seconds: f64,
    /// Wall-clock seconds of the validation.
    pub val_seconds: f64,
}

/// Progress of training, for bars.
pub enum Event<'a> {
    /// A step ended: steps done in this epoch, steps per epoch.
    Step(usize, usize),
    /// An epoch ended.
    Epoch(&'a EpochReport),
}

/// Trains `net` on the training split of `data`; validation picks the epoch whose weights are
/// kept (by the mean accuracy over the heads).
pub fn train(
    net: &mut Net,
    data: &Dataset,
    o: &TrainOptions,
    on: &mut dyn FnMut(Event),
) -> Result<Vec<EpochReport>, Error> {
    let (rows, cols) = (data.rows, data.cols);
    net.spec
        .check_takes(rows, cols, "the", &format!("the data are {rows}×{cols}"))?;
    let mut train = data.part(Split::Train);
    let val = data.part(Split::Val);
    // the difficulty alone: solvable boards only, as in the thesis
    if net.spec.heads == [Head::Difficulty] {
        train.retain(|e| e.pushes >= 0);
    }
    if train.is_empty() {
        return Err(Error::invalid("the training split is empty"));
    }
    if val.is_empty() {
        return Err(Error::invalid(
            "the dataset has no validation boards (split `val`); training keeps the epoch that \
             does best on them, so it needs some (`floe learn data` puts 10 % of the classes there)",
        ));
    }
    let batch = o.batch.max(1);
    let steps = train.len().div_ceil(batch);
    let total = (steps * o.epochs).max(1);
    let mut opt = AdamW::new(
        net.vars.all_vars(),
        ParamsAdamW {
            lr: o.lr,
            weight_decay: 1e-4,
            ..Default::default()
        },
    )
    .map_err(ml)?;
    let perms = symmetries(rows, cols);
    let mut rng = Pcg64::seed_from_u64(o.seed);
    let mut reports: Vec<EpochReport> = Vec::new();
    let mut best: Option<(f64, Vec<Tensor>)> = None;
    let mut step_no = 0usize;
    for epoch in 1..=o.epochs {
        let t0 = Instant::now();
        train.shuffle(&mut rng);
        let mut loss_sum = 0.0;
        for (k, chunk) in train.chunks(batch).enumerate() {
            if floe::search::interrupted() {
                return Err(Error::invalid(format!(
                    "training interrupted in epoch {epoch} of {}; no model is written",
                    o.epochs
                )));
            }
            let lr = o.lr
                * (0.05
                    + 0.95
                        * 0.5
                        * (1.0 + (std::f64::consts::PI * step_no as f64 / total as f64).cos()));
            opt.set_learning_rate(lr);
            step_no += 1;
            let xs: Vec<Example> = if o.augment {
                chunk
                    .iter()
                    .map(|e| crate::model::permute(e, &perms[rng.random_range(0..perms.len())]))
                    .collect()
            } else {
                chunk.to_vec()
            };
            let x = encode(net.spec.arch, rows, cols, &xs)?;
            let logits = net.forward(&x, rows, cols).map_err(ml)?;
            let mut loss: Option<Tensor> = None;
            for (h, l) in net.spec.heads.iter().zip(&logits) {
                let (t, m): (Vec<u32>, Vec<f32>) = xs
                    .iter()
                    .map(|e| match h.class_of(e) {
                        Some(c) => (c, 1.0),
                        None => (0, 0.0),
                    })
                    .unzip();
                let n = t.len();
                let t = Tensor::from_vec(t, n, &Device::Cpu).map_err(ml)?;
                let m = Tensor::from_vec(m, n, &Device::Cpu).map_err(ml)?;
                let part = masked_cross_entropy(l, &t, &m).map_err(ml)?;
                loss = Some(match loss {
                    None => part,
                    Some(s) => (s + part).map_err(ml)?,
                });
            }
            let loss = loss.expect("a network has a head");
            opt.backward_step(&loss).map_err(ml)?;
            loss_sum += f64::from(loss.to_scalar::<f32>().map_err(ml)?);
            on(Event::Step(k + 1, steps));
        }
        let train_seconds = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let val_accuracy = if val.is_empty() {
            vec![]
        } else {
            accuracies(net, rows, cols, &val)?
        };
        let r = EpochReport {
            epoch,
            loss: loss_sum / steps as f64,
            val_accuracy,
            train_seconds,
            val_seconds: t1.elapsed().as_secs_f64(),
        };
        on(Event::Epoch(&r));
        let score = if r.val_accuracy.is_empty() {
            -(r.loss)
        } else {
            r.val_accuracy.iter().sum::<f64>() / r.val_accuracy.len() as f64
        };
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            let snapshot = net
                .vars
                .all_vars()
                .iter()
                .map(|v| v.as_tensor().copy())
                .collect::<candle_core::Result<Vec<_>>>()
                .map_err(ml)?;
            best = Some((score, snapshot));
        }
        reports.push(r);
    }
    if let Some((_, snapshot)) = best {
        for (v, t) in net.vars.all_vars().iter().zip(&snapshot) {
            v.set(t).map_err(ml)?;
        }
    }
    Ok(reports)
}

/// Accuracy per head (without symmetrising, for speed); the difficulty on solvable boards.
pub fn accuracies(net: &Net, rows: usize, cols: usize, xs: &[Example]) -> Result<Vec<f64>, Error> {
    let probs = net.predict_with(rows, cols, xs, false)?;
    Ok(net
        .spec
        .heads
        .iter()
        .zip(&probs)
        .map(|(h, p)| {
            let (mut right, mut n) = (0u64, 0u64);
            for (e, row) in xs.iter().zip(p) {
                if let Some(c) = h.class_of(e) {
                    n += 1;
                    right += u64::from(argmax(row) == c as usize);
                }
            }
            right as f64 / n.max(1) as f64
        })
        .collect())
}

/// Index of the largest value (the first on ties).
pub fn argmax(v: &[f32]) -> usize {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::sample;
    use crate::eval::evaluate;
    use crate::model::Spec;

    #[test]
    fn a_tiny_run_beats_the_majority_baseline() {
        let data = sample(4, 4, 6000, 3, 3, &|_| {}).unwrap();
        let mut spec = Spec::thesis_cnn(4, 4, vec![Head::Solvable]);
        spec.width = 16;
        spec.dense = 32;
        let mut net = Net::new(spec, 3).unwrap();
        let o = TrainOptions {
            epochs: 4,
            batch: 64,
            lr: 3e-3,
            seed: 3,
            augment: true,
        };
        let reports = train(&mut net, &data, &o, &mut |_| {}).unwrap();
        assert_eq!(reports.len(), 4);
        assert!(reports[3].loss < reports[0].loss, "{reports:?}");
        let test = data.part(Split::Test);
        let s = &evaluate(&net, 4, 4, &test).unwrap()[0];
        assert_eq!(s.task, "solvable");
        assert!(
            s.accuracy > s.baseline + 0.1,
            "{} vs {}",
            s.accuracy,
            s.baseline
        );
        assert_eq!(s.confusion.iter().flatten().sum::<u64>(), s.examples);
    }

    #[test]
    fn a_model_file_round_trips_and_bad_files_are_refused() {
        let data = sample(4, 4, 200, 4, 4, &|_| {}).unwrap();
        for spec in [
            Spec::thesis_fnn(4, 4, vec![Head::Solvable]),
            Spec::thesis_cnn(4, 4, vec![Head::Pushes { max: 7 }]),
            Spec::fcn(4, 4, vec![Head::Pushes { max: 7 }, Head::Difficulty]),
        ] {
            let net = Net::new(spec.clone(), 9).unwrap();
            let info = serde_json::json!({"note": "test"});
            let bytes = net.to_bytes(&info).unwrap();
            let (back, info2) = Net::from_bytes(&bytes).unwrap();
            assert_eq!(back.spec, spec);
            assert_eq!(info2, info);
            let a = net.predict(4, 4, &data.examples).unwrap();
            let b = back.predict(4, 4, &data.examples).unwrap();
            assert_eq!(a, b);
            assert!(Net::from_bytes(&bytes[..bytes.len() - 4]).is_err());
            assert!(Net::from_bytes(b"hello world, not a model").is_err());
            let mut v = bytes.clone();
            v[8] = 9; // version
            let e = Net::from_bytes(&v).err().unwrap().to_string();
            assert!(e.contains("version 9"), "{e}");
            // an encoding the architecture does not read
            let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
            let mut header: serde_json::Value =
                serde_json::from_slice(&bytes[16..16 + len]).unwrap();
            assert_eq!(header["encoding"], spec.arch.encoding());
            header["encoding"] = serde_json::json!("pixels");
            let h = serde_json::to_vec(&header).unwrap();
            let mut swapped = bytes[..12].to_vec();
            swapped.extend_from_slice(&(h.len() as u32).to_le_bytes());
            swapped.extend_from_slice(&h);
            swapped.extend_from_slice(&bytes[16 + len..]);
            let e = Net::from_bytes(&swapped).err().unwrap().to_string();
            assert!(e.contains("input encoding `pixels`"), "{e}");
        }
        // the same seed gives the same weights
        let s = Spec::thesis_cnn(4, 4, vec![Head::Solvable]);
        let j = serde_json::Value::Null;
        assert_eq!(
            Net::new(s.clone(), 1).unwrap().to_bytes(&j).unwrap(),
            Net::new(s, 1).unwrap().to_bytes(&j).unwrap()
        );
    }

    #[test]
    fn the_fcn_takes_other_sizes_and_is_symmetric() {
        let net = Net::new(Spec::fcn(4, 4, vec![Head::Pushes { max: 7 }]), 2).unwrap();
        let five = sample(5, 5, 20, 1, 1, &|_| {}).unwrap();
        let p = net.predict(5, 5, &five.examples).unwrap();
        let perms = symmetries(5, 5);
        let turned: Vec<Example> = five
            .examples
            .iter()
            .map(|e| crate::model::permute(e, &perms[6]))
            .collect();
        let q = net.predict(5, 5, &turned).unwrap();
        for (a, b) in p[0].iter().zip(&q[0]) {
            for (x, y) in a.iter().zip(b) {
                assert!((x - y).abs() < 1e-4);
            }
        }
        let cnn = Net::new(Spec::thesis_cnn(4, 4, vec![Head::Solvable]), 2).unwrap();
        assert!(cnn.predict(5, 5, &five.examples).is_err());
    }
}
