//! The difficulty counters of the census (the thesis's equation 3), per position.

use super::{bin, StepOut, Tables};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// Per-position counters of the difficulty (equation 3).
pub(super) struct DiffState {
    /// Push sequences of length `d − 1` from each position (during step `d`).
    pub(super) walks: Vec<f64>,
    /// Push sequences of length 1 ..= `d − 1` from each position.
    pub(super) cumulative: Vec<f64>,
    /// Optimal solutions per position and target of the batch (saturating), set at the
    /// step that finds the target.
    pub(super) optimal: Vec<AtomicU32>,
    /// Slots per position in `optimal`.
    slots: usize,
    /// The targets of this pass.
    batch: u32,
}

impl DiffState {
    pub(super) fn new(positions: usize, slots: usize) -> DiffState {
        DiffState {
            walks: vec![1.0; positions],
            cumulative: vec![0.0; positions],
            optimal: (0..positions * slots)
                .into_par_iter()
                .map(|_| AtomicU32::new(0))
                .collect(),
            slots,
            batch: 0,
        }
    }

    /// Starts a pass over the targets of `batch`.
    pub(super) fn start(&mut self, batch: u32) {
        let fresh = self.batch == 0;
        self.batch = batch;
        if fresh {
            // as new: nothing to clear (the tables of a large layer take a while to write)
            return;
        }
        self.walks.fill(1.0);
        self.cumulative.fill(0.0);
        self.optimal
            .par_iter()
            .for_each(|c| c.store(0, Ordering::Relaxed));
    }

    /// Where the count of position `i` for `target` (in the batch) is kept.
    #[inline]
    pub(super) fn slot(&self, i: usize, target: usize) -> usize {
        i * self.slots + (self.batch & ((1u32 << target) - 1)).count_ones() as usize
    }

    /// At step `d`, position `i` (region `r`, successors `succ`, `walks_d` push sequences of
    /// length `d`) reaches the targets `new` in exactly `d` pushes. `reach` is `reach_{d−1}`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn visit(
        &self,
        t: &Tables,
        reach: &[u32],
        succ: &[u32],
        r: u32,
        i: usize,
        new: u32,
        walks_d: f64,
        so: &mut StepOut,
    ) {
        let edges = self.cumulative[i] + walks_d;
        let robots = u64::from(r.count_ones());
        let mut targets = new & self.batch;
        while targets != 0 {
            let target = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let bit = 1u32 << target;
            // optimal solutions: over the successors that reach the target in exactly d − 1
            // pushes (none reaches it in fewer, or this position would in fewer than d)
            let mut count: u64 = 0;
            for &j in succ {
                let j = j as usize;
                if t.region[j] & bit != 0 {
                    count += 1;
                } else if reach[j] & bit != 0 {
                    count += u64::from(self.optimal[self.slot(j, target)].load(Ordering::Relaxed));
                }
            }
            if count > u64::from(u32::MAX) {
                so.saturated += robots;
            }
            let stored = count.min(u64::from(u32::MAX)) as u32;
            self.optimal[self.slot(i, target)].store(stored, Ordering::Relaxed);
            let value = (1.0 - count as f64 / edges) * 5.0;
            let k = bin(value);
            so.diff_bins[k] += robots;
            so.diff_sum += robots as f64 * value;
        }
    }
}
