//! The judgements of positions kept per thread, so that blocks and fires reached again are
//! not judged again.

use super::prune::Dead;
use crate::bits::Bits;

/// What [`Analysis::judge`](super::prune::Analysis::judge) said of the positions generated
/// lately, by blocks and fires (the magician plays no part in a judgement): a position
/// generated again, by another order of the same pushes or from another region of the
/// magician, is not judged again. Each thread
/// has a table of its own (no locking on the way); a table is direct-mapped, each slot holds
/// its whole key (a hit is exact), and it grows with the questions asked, to at most
/// [`JUDGED_MAX_SLOTS`] slots.
pub(super) struct Judged<B> {
    tables: Vec<std::sync::Mutex<Table<B>>>,
    /// Slots of a table at first.
    first: usize,
}

/// One thread's slots: at first [`JUDGED_MIN_SLOTS`], doubled (and emptied) every time the
/// table has been asked four times as many questions as it has slots.
struct Table<B> {
    slots: Vec<Slot<B>>,
    asked: u64,
}

#[derive(Clone, Copy, Default)]
struct Slot<B> {
    ice: B,
    gold: B,
    fires: u64,
    /// The bound, [`DEAD`] for a dead position, [`EMPTY`] for an empty slot.
    verdict: u16,
}

const JUDGED_MIN_SLOTS: usize = 1 << 10;
/// At most 2^20 slots a thread: 64 MiB for the widest positions.
pub(super) const JUDGED_MAX_SLOTS: usize = 1 << 20;
const DEAD: u16 = 1 << 9;
const EMPTY: u16 = 1 << 10;

impl<B: Bits> Judged<B> {
    pub(super) fn new() -> Judged<B> {
        Self::with_slots(JUDGED_MIN_SLOTS)
    }

    /// A table of `first` slots per thread at first (a power of two).
    pub(super) fn with_slots(first: usize) -> Judged<B> {
        let threads = rayon::current_num_threads().max(1) + 1;
        Judged {
            tables: (0..threads)
                .map(|_| {
                    std::sync::Mutex::new(Table {
                        slots: Vec::new(),
                        asked: 0,
                    })
                })
                .collect(),
            first,
        }
    }

    /// Judges the positions `batch` (their blocks and fires) with `judge`, or from the
    /// table: their bounds, `None` for a dead one, in `out`.
    pub(super) fn judge_all(
        &self,
        batch: &[(B, B, u64)],
        out: &mut Vec<Option<u8>>,
        judge: impl Fn(B, B, u64) -> Result<u32, Dead>,
    ) {
        use std::hash::BuildHasher;
        let me = rayon::current_thread_index().map_or(0, |i| i + 1) % self.tables.len();
        let mut t = self.tables[me].lock().unwrap_or_else(|e| e.into_inner());
        t.asked += batch.len() as u64;
        if t.slots.is_empty()
            || (t.asked > 4 * t.slots.len() as u64 && t.slots.len() < JUDGED_MAX_SLOTS)
        {
            let n = (t.slots.len() * 2).max(self.first);
            let empty = Slot {
                verdict: EMPTY,
                ..Slot::default()
            };
            t.slots = vec![empty; n];
            t.asked = 0;
        }
        let mask = t.slots.len() - 1;
        let mut at = [0usize; 256];
        for (k, &(ice, gold, fires)) in batch.iter().enumerate().take(at.len()) {
            let i = rustc_hash::FxBuildHasher.hash_one((ice, gold, fires)) as usize & mask;
            at[k] = i;
            prefetch(&t.slots[i]);
        }
        out.clear();
        for (k, &(ice, gold, fires)) in batch.iter().enumerate() {
            let i = if k < at.len() {
                at[k]
            } else {
                rustc_hash::FxBuildHasher.hash_one((ice, gold, fires)) as usize & mask
            };
            let slot = &mut t.slots[i];
            if slot.verdict != EMPTY && slot.fires == fires && slot.ice == ice && slot.gold == gold
            {
                out.push((slot.verdict != DEAD).then_some(slot.verdict as u8));
                continue;
            }
            let v = judge(ice, gold, fires)
                .ok()
                .map(|lb| lb.min(u8::MAX as u32) as u8);
            *slot = Slot {
                ice,
                gold,
                fires,
                verdict: v.map_or(DEAD, u16::from),
            };
            out.push(v);
        }
    }
}

/// Asks the processor to bring `x` into its caches.
#[inline]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
