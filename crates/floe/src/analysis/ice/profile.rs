//! The least difficulty of every reachable position (Kluiver, sections 7 and 8.3).
//!
//! For each block-change factor F, the least difficulty of reaching a position is the
//! smallest pushes + F × block changes over all push sequences from the start that end in
//! it. Kluiver's P-BFS computed it by re-exploring positions whenever they were reached more
//! cheaply or with another last-moved block, and could not finish MCTOD in days. Here the
//! state graph is built once (every position, every push, with the cells the pushed block
//! leaves and reaches), and for each factor one Dijkstra pass over (position, last-moved block)
//! runs with a bucket queue (costs are small integers), pruning a node whose position was
//! already reached at least F more cheaply (the last block can save at most F).
//!
//! The cumulative curve "positions with least difficulty ≤ x·max" against the normalised
//! difficulty x is the thesis's Figures 19–27.

use crate::bits::Bits;
use crate::games::ice::{with_puzzle, IceMove, IcePuzzle, IceTask, Level, WalkRule, Walking};
use crate::search::graph::{build_graph_with, GraphLimit};
use crate::search::Limits;
use crate::Error;
use serde::Serialize;
use std::time::Instant;

/// The least difficulties of every position at one factor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FactorProfile {
    /// The block-change factor.
    pub factor: u64,
    /// The largest least difficulty over all positions.
    pub max: u64,
    /// `histogram[d]`: positions whose least difficulty is `d`.
    pub histogram: Vec<u64>,
    /// Mean least difficulty.
    pub mean: f64,
    /// Seconds for this factor (the graph is shared).
    pub seconds: f64,
}

impl FactorProfile {
    /// The cumulative curve: `(d / max, positions with least difficulty ≤ d)` at every `d`
    /// where the count changes (and at `d = 0`).
    pub fn cumulative(&self) -> Vec<(f64, u64)> {
        let mut out = Vec::new();
        let mut total = 0;
        for (d, &n) in self.histogram.iter().enumerate() {
            total += n;
            if n > 0 || d == 0 {
                let x = if self.max == 0 {
                    0.0
                } else {
                    d as f64 / self.max as f64
                };
                out.push((x, total));
            }
        }
        out
    }
}

/// Least difficulties of every reachable position of a level, for several factors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Profile {
    /// Reachable positions.
    pub states: u64,
    /// Pushes between them.
    pub moves: u64,
    /// One profile per factor, in the order asked.
    pub factors: Vec<FactorProfile>,
    /// Seconds to build the state graph.
    pub graph_seconds: f64,
    /// Bytes held by the graph and the distance tables at their peak.
    pub bytes: usize,
}

/// Per push: the target position, and the places (in the sorted block lists) of the block
/// before (in the source position) and after (in the target).
struct Edges {
    offsets: Vec<u64>,
    targets: Vec<u32>,
    slots: Vec<[u8; 2]>,
}

fn slot_of<B: Bits>(blocks: B, cell: usize) -> u8 {
    blocks.ones().take_while(|&c| c < cell).count() as u8
}

struct ProfileTask<'a> {
    factors: &'a [u64],
    limits: &'a Limits,
}

impl IceTask for ProfileTask<'_> {
    type Output = Result<Profile, GraphLimit>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
        let t = Instant::now();
        let g = build_graph_with(p, self.limits, |m: IceMove| (m.from, m.to))?;
        let n = g.len();
        let k = g.state(0).blocks.count() as usize;
        let mut slots = Vec::with_capacity(g.edge_count() as usize);
        for i in 0..n as u32 {
            let from_blocks = g.state(i).blocks;
            for (target, &(from, to)) in g.successors(i) {
                let to_blocks = g.state(target).blocks;
                slots.push([
                    slot_of(from_blocks, from as usize),
                    slot_of(to_blocks, to as usize),
                ]);
            }
        }
        let edges = Edges {
            offsets: g.offsets().to_vec(),
            targets: g.targets().to_vec(),
            slots,
        };
        let graph_bytes = g.heap_bytes() + edges.slots.len() * 2 + edges.offsets.len() * 8;
        drop(g);
        let graph_seconds = t.elapsed().as_secs_f64();
        let nodes = n * (k + 1);
        let mut factors = Vec::new();
        for &f in self.factors {
            let t = Instant::now();
            let best = least_difficulties(&edges, n, k, f);
            let max = best.iter().copied().max().unwrap_or(0) as u64;
            let mut histogram = vec![0u64; max as usize + 1];
            let mut sum = 0u64;
            for &d in &best {
                histogram[d as usize] += 1;
                sum += d as u64;
            }
            factors.push(FactorProfile {
                factor: f,
                max,
                histogram,
                mean: sum as f64 / n as f64,
                seconds: t.elapsed().as_secs_f64(),
            });
        }
        Ok(Profile {
            states: n as u64,
            moves: edges.targets.len() as u64,
            factors,
            graph_seconds,
            bytes: graph_bytes + edges.targets.len() * 4 + nodes * 4 + n * 4,
        })
    }
}

/// Dijkstra with a bucket queue over (position, slot of the last-moved block; `k` = none).
fn least_difficulties(e: &Edges, n: usize, k: usize, factor: u64) -> Vec<u32> {
    const INF: u32 = u32::MAX;
    let stride = k + 1;
    let mut dist = vec![INF; n * stride];
    let mut best = vec![INF; n];
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new()];
    let f = factor.min(u32::MAX as u64 / 4) as u32;
    dist[k] = 0;
    buckets[0].push(k as u32);
    let mut d = 0usize;
    while d < buckets.len() {
        let Some(node) = buckets[d].pop() else {
            d += 1;
            continue;
        };
        let node = node as usize;
        if dist[node] != d as u32 {
            continue; // stale
        }
        let (i, last) = (node / stride, node % stride);
        let b = best[i];
        if b != INF && b.saturating_add(f) <= d as u32 {
            continue; // dominated: the best way to this position costs at least f less
        }
        if b == INF {
            best[i] = d as u32;
        }
        let (lo, hi) = (e.offsets[i] as usize, e.offsets[i + 1] as usize);
        for x in lo..hi {
            let [from, to] = e.slots[x];
            let change = last != k && last != from as usize;
            let nd = d as u32 + 1 + if change { f } else { 0 };
            let t = e.targets[x] as usize;
            let m = t * stride + to as usize;
            if nd < dist[m] {
                dist[m] = nd;
                let nd = nd as usize;
                if buckets.len() <= nd {
                    buckets.resize_with(nd + 1, Vec::new);
                }
                buckets[nd].push(m as u32);
            }
        }
    }
    best
}

/// The least difficulty of every reachable position of `level`, at each factor. A limit
/// on building the state graph comes back as `Ok(Err(..))`.
pub fn profile(
    level: &Level,
    rule: WalkRule,
    factors: &[u64],
    limits: &Limits,
) -> Result<Result<Profile, GraphLimit>, Error> {
    if let Some(&f) = factors.iter().find(|&&f| f > 1_000_000) {
        return Err(Error::invalid(format!(
            "factor {f} is too large for the difficulty profile (at most 1,000,000)"
        )));
    }
    with_puzzle(level, rule, ProfileTask { factors, limits })
}

/// One factor's profile as reports give it: the histogram and its cumulative curve
/// (normalised difficulty, positions with at most that difficulty).
#[derive(Serialize, Debug)]
pub struct FactorReport<'a> {
    /// The factor's histogram and figures.
    #[serde(flatten)]
    pub profile: &'a FactorProfile,
    /// (normalised difficulty, positions with at most that difficulty).
    pub cumulative: Vec<(f64, u64)>,
}

/// The report of a difficulty profile, `floe profile --json` (the command line and Python
/// serialise this one type).
#[derive(Serialize, Debug)]
pub struct ProfileReport<'a> {
    /// The game's name (`ice`).
    pub game: &'static str,
    /// The level's name.
    pub level: &'a str,
    /// The level's parameters.
    pub params: crate::game::ParamValues,
    /// Whether the whole state graph was built (else `limit` says what stopped it).
    pub complete: bool,
    /// Reachable positions.
    pub states: Option<u64>,
    /// Pushes between them (the graph's edges).
    pub moves: Option<u64>,
    /// One profile per factor, in the order asked.
    pub factors: Vec<FactorReport<'a>>,
    /// The limit that stopped the graph, if one did.
    pub limit: Option<&'static str>,
    /// Seconds spent building the state graph.
    pub graph_seconds: Option<f64>,
    /// Seconds of the whole profile.
    pub seconds: f64,
    /// The process's peak resident memory, where the system tells it.
    pub peak_rss_bytes: Option<u64>,
}

impl<'a> ProfileReport<'a> {
    /// The report of `outcome`, a profile of the level named `name` (of `game`, with
    /// `params`) that took `seconds`.
    pub fn of(
        game: &'static str,
        params: crate::game::ParamValues,
        name: &'a str,
        outcome: &'a Result<Profile, GraphLimit>,
        seconds: f64,
    ) -> ProfileReport<'a> {
        let prof = outcome.as_ref().ok();
        ProfileReport {
            game,
            level: name,
            params,
            complete: prof.is_some(),
            states: prof.map(|x| x.states),
            moves: prof.map(|x| x.moves),
            factors: prof.map_or(Vec::new(), |x| {
                x.factors
                    .iter()
                    .map(|f| FactorReport {
                        profile: f,
                        cumulative: f.cumulative(),
                    })
                    .collect()
            }),
            limit: outcome.as_ref().err().map(|g| g.kind.name()),
            graph_seconds: prof.map(|x| x.graph_seconds),
            seconds,
            peak_rss_bytes: crate::mem::peak_resident_bytes(),
        }
    }
}

impl Profile {
    /// Kluiver's Figures 19–27: positions reachable with at most a given normalised
    /// difficulty, one step curve per factor.
    pub fn figure(&self, name: &str) -> crate::render::plot::LinePlot {
        use crate::render::plot::{LinePlot, Series};
        let mut plot = LinePlot::new(format!("{name}: least difficulty of every position"))
            .x_label("normalised difficulty (difficulty / hardest position's)")
            .y_label("positions reachable (cumulative)")
            .x_range(0.0, 1.0);
        for f in &self.factors {
            let points = f.cumulative().into_iter().map(|(x, n)| (x, n as f64));
            plot = plot.series(Series::new(format!("factor {}", f.factor), points).step());
        }
        plot
    }

    /// The histograms as CSV: `factor,difficulty,normalised,positions,cumulative` rows.
    pub fn csv(&self) -> String {
        let mut csv = String::from("factor,difficulty,normalised,positions,cumulative\n");
        for f in &self.factors {
            let mut total = 0;
            for (d, &n) in f.histogram.iter().enumerate() {
                total += n;
                let x = if f.max == 0 {
                    0.0
                } else {
                    d as f64 / f.max as f64
                };
                csv.push_str(&format!("{},{d},{x:.6},{n},{total}\n", f.factor));
            }
        }
        csv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice::format::{parse_floe, ZELDA};
    use crate::games::ice::solve;

    #[test]
    fn factor_zero_is_the_bfs_depth_histogram() {
        let level = Level::empty_board(4, 4, 3).unwrap();
        let p = profile(&level, WalkRule::Free, &[0], &Limits::none())
            .unwrap()
            .unwrap();
        let e = crate::games::ice::space(&level, WalkRule::Free, &Limits::none()).unwrap();
        assert_eq!(p.states, 428);
        assert_eq!(p.factors[0].histogram, e.histogram);
        let c = p.factors[0].cumulative();
        assert_eq!(c.first(), Some(&(0.0, 1)));
        assert_eq!(c.last(), Some(&(1.0, 428)));
    }

    #[test]
    fn least_difficulty_of_the_goal_matches_the_solver() {
        // the least difficulty over the goal positions is what `solve --algo difficulty`
        // finds, on every room with at most three blocks and several factors
        let levels = parse_floe(ZELDA, "z").unwrap();
        for l in levels.iter().filter(|l| l.block_count() <= 3) {
            for f in [0, 1, 5, 100] {
                let want = solve(l, WalkRule::Free, "difficulty", f, &Limits::none())
                    .unwrap()
                    .difficulty_u64()
                    .unwrap();
                let got = goal_difficulty(l, f);
                assert_eq!(got, want, "{:?} at factor {f}", l.title);
            }
        }
    }

    /// The least difficulty over the goal positions, from a profile-style pass.
    fn goal_difficulty(level: &Level, f: u64) -> u64 {
        struct Goals(u64);
        impl IceTask for Goals {
            type Output = u64;
            fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> u64 {
                use crate::search::Puzzle;
                let g = build_graph_with(p, &Limits::none(), |m: IceMove| (m.from, m.to)).unwrap();
                let k = g.state(0).blocks.count() as usize;
                let mut slots = Vec::new();
                for i in 0..g.len() as u32 {
                    for (t, &(a, b)) in g.successors(i) {
                        slots.push([
                            slot_of(g.state(i).blocks, a as usize),
                            slot_of(g.state(t).blocks, b as usize),
                        ]);
                    }
                }
                let e = Edges {
                    offsets: g.offsets().to_vec(),
                    targets: g.targets().to_vec(),
                    slots,
                };
                let best = least_difficulties(&e, g.len(), k, self.0);
                (0..g.len())
                    .filter(|&i| p.is_goal(g.state(i as u32)))
                    .map(|i| best[i] as u64)
                    .min()
                    .unwrap()
            }
        }
        with_puzzle(level, WalkRule::Free, Goals(f)).unwrap()
    }

    #[test]
    fn larger_factors_never_lower_a_difficulty() {
        let level = parse_floe(ZELDA, "z").unwrap().remove(9); // TPIBC3
        let p = profile(&level, WalkRule::Free, &[0, 1, 2, 5, 100], &Limits::none())
            .unwrap()
            .unwrap();
        let means: Vec<f64> = p.factors.iter().map(|f| f.mean).collect();
        assert!(means.windows(2).all(|w| w[0] <= w[1]), "{means:?}");
        assert!(p
            .factors
            .iter()
            .all(|f| f.histogram.iter().sum::<u64>() == 1242));
        assert!(profile(&level, WalkRule::Free, &[2_000_000], &Limits::none()).is_err());
        let limited =
            profile(&level, WalkRule::Free, &[5], &Limits::none().max_states(10)).unwrap();
        assert!(limited.is_err());
    }
}
