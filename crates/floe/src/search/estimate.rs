//! What an enumeration will need, judged before it starts.
//!
//! A game with a perfect hash ([`Puzzle::rank_space`]) bounds its positions: at most one per
//! rank. The layered enumeration holds one bit per rank (the pages it touches) and its two
//! largest layers; the 8×8 board with 8 blocks, the largest run measured, has its two largest
//! layers at 17 % of the possible positions and peaks at 8.7 GiB, and the rule below says
//! 10.4 GiB for it (and 1.1 GiB for 7×7 with 8 blocks, as measured). The rate is the one
//! measured there, per core.

use super::{Puzzle, DENSE_LIMIT};
use crate::mem::human_bytes;
use std::fmt;

/// Positions per second per core of the parallel enumeration, measured on the 8×8 board with
/// 8 blocks (BENCHMARKS.md).
pub const POSITIONS_PER_CORE_SECOND: f64 = 1.5e6;

/// The share of the possible positions that the two largest layers hold at most, by the rule
/// of thumb above.
const LIVE_SHARE: f64 = 0.2;

/// An estimate of an enumeration, made before it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// At most this many positions can be reached (the size of the game's perfect hash).
    pub positions: u64,
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
            crate::render::thousands(self.positions),
            human_bytes(self.bytes),
            self.cores,
            if self.cores == 1 { "" } else { "s" }
        )
    }
}

/// A long time in the unit that suits it: "40 s", "12 min", "3.5 h", "21 days".
pub fn rough_time(s: f64) -> String {
    if s < 120.0 {
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
    let n = p.rank_space()?;
    let state = std::mem::size_of::<P::State>() as f64;
    let cores = rayon::current_num_threads().max(1);
    let bytes = if n <= DENSE_LIMIT {
        n as f64 / 8.0 + LIVE_SHARE * n as f64 * state * 1.5
    } else {
        // beyond a bit array every position is kept in an arena with a hash index
        n as f64 * (state + 10.0)
    };
    Some(Estimate {
        positions: n,
        bytes: bytes.min(u64::MAX as f64) as u64,
        seconds: n as f64 / (POSITIONS_PER_CORE_SECOND * cores as f64),
        cores,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::from_fn;

    #[test]
    fn estimates_follow_the_rank_space() {
        let p = from_fn(0u32, |&x| [('+', x + 1)], |&x| x == 10);
        assert_eq!(estimate(&p), None);
        let e = Estimate {
            positions: 4_426_165_368,
            bytes: 12 << 30,
            seconds: 1500.0,
            cores: 2,
        };
        assert!(e.is_large());
        assert_eq!(
            e.to_string(),
            "up to 4,426,165,368 positions, about 12.0 GiB of memory and 25 min on 2 cores"
        );
    }
}
