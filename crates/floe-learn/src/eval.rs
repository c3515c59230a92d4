//! Scores on a split: accuracy, confusion matrix, calibration (reliability bins of the
//! top-class confidence and the expected calibration error), next to the majority baseline.

use crate::data::Example;
use crate::model::{Head, Net};
use crate::train::argmax;
use floe::Error;
use serde::Serialize;

/// Calibration bins over the top-class confidence.
pub const BINS: usize = 10;

/// One bin of the reliability diagram.
#[derive(Clone, Debug, Serialize)]
pub struct Bin {
    /// Lowest confidence in the bin.
    pub lo: f64,
    /// Highest.
    pub hi: f64,
    /// Predictions in the bin.
    pub count: u64,
    /// Their mean confidence.
    pub confidence: f64,
    /// Their accuracy.
    pub accuracy: f64,
}

/// Scores of one task.
#[derive(Clone, Debug, Serialize)]
pub struct TaskScore {
    /// `solvable`, `pushes` or `difficulty`.
    pub task: String,
    /// Whether the solvability is read off the pushes head (1 − P(−1)).
    pub derived: bool,
    /// Class labels, in order.
    pub labels: Vec<String>,
    /// Examples scored.
    pub examples: u64,
    /// Share predicted right (the top class).
    pub accuracy: f64,
    /// Accuracy of always answering the most common class of these examples.
    pub baseline: f64,
    /// `confusion[truth][predicted]`.
    pub confusion: Vec<Vec<u64>>,
    /// Reliability bins.
    pub calibration: Vec<Bin>,
    /// Expected calibration error: Σ count/total × |accuracy − confidence|.
    pub ece: f64,
    /// Mean negative log-probability of the truth.
    pub log_loss: f64,
}

/// Scores every task of `net` on `xs` (`rows × cols` boards).
pub fn evaluate(
    net: &Net,
    rows: usize,
    cols: usize,
    xs: &[Example],
) -> Result<Vec<TaskScore>, Error> {
    if xs.is_empty() {
        return Err(Error::invalid(
            "there are no boards to evaluate on (the dataset has none of the split asked for)",
        ));
    }
    let probs = net.predict(rows, cols, xs)?;
    let mut out = Vec::new();
    let heads = &net.spec.heads;
    if !heads.contains(&Head::Solvable) {
        if let Some(k) = heads.iter().position(|h| matches!(h, Head::Pushes { .. })) {
            let p: Vec<Vec<f32>> = probs[k].iter().map(|r| vec![r[0], 1.0 - r[0]]).collect();
            out.push(score(Head::Solvable, true, xs, &p));
        }
    }
    for (h, p) in heads.iter().zip(&probs) {
        out.push(score(*h, false, xs, p));
    }
    Ok(out)
}

fn score(h: Head, derived: bool, xs: &[Example], probs: &[Vec<f32>]) -> TaskScore {
    let k = h.classes();
    let mut confusion = vec![vec![0u64; k]; k];
    let mut bins = vec![(0u64, 0f64, 0u64); BINS];
    let (mut n, mut right, mut ll) = (0u64, 0u64, 0f64);
    for (e, p) in xs.iter().zip(probs) {
        let Some(t) = h.class_of(e) else { continue };
        let t = t as usize;
        let guess = argmax(p);
        n += 1;
        right += u64::from(guess == t);
        confusion[t][guess] += 1;
        ll -= f64::from(p[t].max(1e-7)).ln();
        let c = f64::from(p[guess]);
        let b = ((c * BINS as f64) as usize).min(BINS - 1);
        bins[b].0 += 1;
        bins[b].1 += c;
        bins[b].2 += u64::from(guess == t);
    }
    let total = n.max(1) as f64;
    let calibration: Vec<Bin> = bins
        .iter()
        .enumerate()
        .map(|(i, &(count, conf, ok))| Bin {
            lo: i as f64 / BINS as f64,
            hi: (i + 1) as f64 / BINS as f64,
            count,
            confidence: if count > 0 { conf / count as f64 } else { 0.0 },
            accuracy: if count > 0 {
                ok as f64 / count as f64
            } else {
                0.0
            },
        })
        .collect();
    let ece = calibration
        .iter()
        .map(|b| b.count as f64 / total * (b.accuracy - b.confidence).abs())
        .sum();
    let most = confusion
        .iter()
        .map(|r| r.iter().sum::<u64>())
        .max()
        .unwrap_or(0);
    TaskScore {
        task: h.name().to_string(),
        derived,
        labels: (0..k).map(|i| h.label(i)).collect(),
        examples: n,
        accuracy: right as f64 / total,
        baseline: most as f64 / total,
        confusion,
        calibration,
        ece,
        log_loss: ll / total,
    }
}
