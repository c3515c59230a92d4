//! What an enumeration will need, judged before it starts.
//!
//! A game with a perfect hash ([`Puzzle::rank_space`]) bounds its positions: at most one per
//! rank. The layered enumeration on every core ([`enumerate_par`](super::enumerate_par))
//! holds two bits a rank (whether the position was seen, and whether it is in the current
//! or the next layer), a bit per page of ranks for each layer, the list of a layer's pages,
//! and per thread a batch of ranks with their successors; the arrays are backed only where they are
//! touched, so the estimate (every page touched) is an upper bound, close on dense spaces
//! (where most pages hold a reachable position) and loose on sparse ones. Smaller spaces,
//! and games that cannot rebuild a position from its rank, are enumerated by one thread with
//! one bit per rank and the positions of two layers in lists (the two largest layers of the
//! games measured hold at most a fifth of the possible positions); beyond a bit
//! array, every position is kept with its hash index. The rate is the one measured with the
//! bit layers, per core and per possible position.

use super::par::{BATCH, PAGE_SHIFT};
use super::{worth_parallel, Puzzle, DENSE_LIMIT};
use crate::mem::human_bytes;
use std::fmt;

/// Possible positions per second per core of the layered enumeration: the slowest of the
/// large runs measured went through 10.8 million a CPU second (9×9 with 8 blocks: C(81, 8) =
/// 32,164,253,550 possible, 24,310,801,893 reachable, in 2,972 s of CPU time; the smaller
/// cells 11.9 to 29.8 million; BENCHMARKS.md, "The estimates' rates measured again"),
/// lowered to 9 million for a slower day (one binary has taken half as long again in one run
/// as in another: 203.93 and 134.13 user s on 8×8 with 7 blocks, BENCHMARKS.md). Counted over
/// the possible positions, as the estimate divides them by it: on a space of which less is
/// reachable the run goes through them faster.
pub const POSITIONS_PER_CORE_SECOND: f64 = 9.0e6;

/// The share of the possible positions that the two largest layers hold at most, by the rule
/// of thumb above (the enumeration with lists of positions).
const LIVE_SHARE: f64 = 0.2;

/// What a process holds besides the enumeration's own arrays and buffers: code, the game's
/// tables, threads and the allocator's slack (a run on a few thousand possible positions
/// peaks below 16 MiB).
const BASE_BYTES: f64 = (16 << 20) as f64;

/// Allowance beyond what is counted, for the layered enumeration (allocator rounding,
/// buffers of the run's reporting): its counted bytes come within 1 % of the peaks measured
/// on dense spaces, whose bits are nearly all touched.
const MARGIN: f64 = 1.03;

/// Successors a position may have, at most, in the estimate of a thread's batch (its list
/// grows by doubling, so this allows for twice 32 moves a position).
const SUCCESSORS: f64 = 64.0;

/// An estimate of an enumeration, made before it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// At most this many positions can be reached (the size of the game's perfect hash, or
    /// the game's bound where it has none: beyond 2^64, [`u64::MAX`]).
    pub positions: u64,
    /// The same bound as a real number, exact or nearly so beyond 2^64 (C(256, 12) ≈
    /// 6.3 × 10^20 for 12 pieces on 256 cells).
    pub bound: f64,
    /// About this much memory is needed (bytes).
    pub bytes: u64,
    /// About this long on `cores` cores (seconds).
    pub seconds: f64,
    /// The cores the estimate counts on.
    pub cores: usize,
}

impl Estimate {
    /// Whether the run is worth announcing: a minute or more, or 1 GiB or more.
    pub fn is_large(&self) -> bool {
        self.seconds >= 60.0 || self.bytes >= 1 << 30
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time = rough_time(self.seconds);
        write!(
            f,
            "up to {} positions, about {} of memory and {time} on {} core{}",
            count_words(self.bound),
            if self.bytes == u64::MAX {
                format!("more than {}", human_bytes(self.bytes))
            } else {
                human_bytes(self.bytes)
            },
            self.cores,
            if self.cores == 1 { "" } else { "s" }
        )
    }
}

/// A count in words: with thousands separators up to 10^15, then "6.3 × 10^20".
pub fn count_words(x: f64) -> String {
    if x < 1e15 {
        crate::say::thousands(x.round() as u64)
    } else {
        let e = x.log10().floor();
        format!("{:.1} × 10^{e}", x / 10f64.powf(e))
    }
}

/// A long time in the unit that suits it: "40 s", "12 min", "3.5 h", "21 days", and beyond
/// a thousand years in years.
pub fn rough_time(s: f64) -> String {
    if s >= 1000.0 * 365.25 * 86400.0 {
        return format!("{} years", count_words(s / (365.25 * 86400.0)));
    }
    if s < 0.5 {
        // not "0 s": the run is near its end, not done
        "under a second".to_string()
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 2.0 * 3600.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 2.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.0} days", s / 86400.0)
    }
}

/// The estimate of enumerating `p`'s reachable positions, when the game bounds them.
pub fn estimate<P: Puzzle>(p: &P) -> Option<Estimate> {
    let n = p.state_bound()?;
    let cores = rayon::current_num_threads().max(1);
    let bytes = BASE_BYTES + arrays_bytes(p, n, cores);
    Some(Estimate {
        positions: if n >= u64::MAX as f64 {
            u64::MAX
        } else {
            n as u64
        },
        bound: n,
        bytes: bytes.min(u64::MAX as f64) as u64,
        seconds: n / (POSITIONS_PER_CORE_SECOND * cores as f64),
        cores,
    })
}

/// The bytes of the enumeration's own arrays, lists and buffers on `threads` threads, for
/// `n` possible positions.
fn arrays_bytes<P: Puzzle>(p: &P, n: f64, threads: usize) -> f64 {
    let state = std::mem::size_of::<P::State>() as f64;
    let dense = p.rank_space().is_some_and(|r| r <= DENSE_LIMIT);
    // the parallel enumeration's own test: a space large enough, and a start rebuilt from
    // its rank
    let layered = worth_parallel(p) && p.rank(&p.start()).and_then(|r| p.unrank(r)).is_some();
    if layered {
        let bits = n / 8.0;
        let pages = (n / (1u64 << PAGE_SHIFT) as f64).ceil();
        let candidate = std::mem::size_of::<(u64, P::State)>() as f64;
        let per_thread = BATCH as f64 * (8.0 + SUCCESSORS * candidate);
        // two bits a rank (seen, and which layer); each layer's page bits; one layer's page
        // list
        let counted = 2.0 * bits + 2.0 * pages / 8.0 + pages * 8.0 + threads as f64 * per_thread;
        MARGIN * (BASE_BYTES + counted) - BASE_BYTES
    } else if dense {
        n / 8.0 + LIVE_SHARE * n * state * 1.5
    } else {
        n * (state + 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::from_fn;
    use crate::search::testing::Line;

    #[test]
    fn estimates_follow_the_rank_space() {
        let p = from_fn(0u32, |&x| [('+', x + 1)], |&x| x == 10);
        assert_eq!(estimate(&p), None);
        let e = Estimate {
            positions: 4_426_165_368,
            bound: 4_426_165_368.0,
            bytes: 1649 << 20,
            seconds: 461.0,
            cores: 2,
        };
        assert!(e.is_large());
        assert_eq!(
            e.to_string(),
            "up to 4,426,165,368 positions, about 1.6 GiB of memory and 8 min on 2 cores"
        );
        assert_eq!(count_words(6.3e20), "6.3 × 10^20");
        assert_eq!(count_words(1234.0), "1,234");
        assert_eq!(rough_time(1e20), "3,168,808,781,403 years");
        assert_eq!(rough_time(0.2), "under a second");
        assert_eq!(rough_time(0.7), "1 s");
        assert_eq!(rough_time(300.0), "5 min");
    }

    #[test]
    fn the_layered_enumeration_is_two_bits_a_rank() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        // 2^30 ranks, rebuilt from their ranks: two bits a rank (256 MiB), the process and
        // two threads' batches
        let n = 1u64 << 30;
        let e = pool
            .install(|| estimate(&Line::new(0, 1, n as i64 - 1)))
            .unwrap();
        assert_eq!((e.positions, e.cores), (n, 2));
        assert!(e.bytes >= 2 * n / 8 + (16 << 20), "{e:?}");
        assert!(e.bytes <= (2 * n / 8 + (24 << 20)) * 103 / 100, "{e:?}");
        // too small for the threads: one bit a rank and the lists of two layers
        let small = estimate(&Line::new(0, 1, 999)).unwrap();
        assert!(small.bytes < 17 << 20, "{small:?}");
    }
}
