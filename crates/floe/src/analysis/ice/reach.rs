//! Reach tables (van den Akker, section 4.2): the fewest pushes after which some block rests
//! on each cell.

use crate::bits::Bits;
use crate::game::{Game, ParamValues};
use crate::games::ice::IceState;
use crate::games::ice::{with_puzzle, Ice, IcePuzzle, IceTask, Level, WalkRule, Walking};
use crate::search::dist::{enumerate_dist, DistEnumeration, DistOptions, Exchange, Partial};
use crate::search::worth_parallel;
use crate::search::{enumerate, enumerate_par, LimitKind, Limits, Stats};
use crate::Error;
use serde::Serialize;

/// A reach table.
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// `moves[r][c]`: fewest pushes after which a block rests on (r, c); `None` if no
    /// reachable position has a block there.
    pub moves: Vec<Vec<Option<u32>>>,
    /// Number of reachable positions enumerated.
    pub states: u64,
    /// Set when a limit cut the enumeration short (the table is then an upper bound on
    /// the cells it fills, and may miss cells).
    pub limit: Option<LimitKind>,
    /// What the enumeration explored.
    pub stats: Stats,
}

impl Reach {
    /// The largest entry.
    pub fn max(&self) -> Option<u32> {
        self.moves.iter().flatten().flatten().copied().max()
    }
    /// The mean over reachable cells.
    pub fn mean(&self) -> Option<f64> {
        let v: Vec<u32> = self.moves.iter().flatten().flatten().copied().collect();
        (!v.is_empty()).then(|| v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64)
    }
}

struct ReachTask<'a>(&'a Limits);

/// Per-thread part of a reach table: fewest pushes per engine cell, and the cells not
/// reached yet by this part (states come in order of distance within a part).
struct Best<B> {
    best: Vec<u32>,
    unreached: B,
}

impl<B: Bits> Best<B> {
    fn new(n: usize) -> Self {
        let mut unreached = B::empty();
        for i in 0..n {
            unreached.set(i);
        }
        Best {
            best: vec![u32::MAX; n],
            unreached,
        }
    }
    #[inline]
    fn visit(&mut self, blocks: B, d: u32) {
        let fresh = blocks.and(self.unreached);
        if !fresh.is_empty() {
            for i in fresh.ones() {
                self.best[i] = self.best[i].min(d);
            }
            self.unreached = self.unreached.and_not(fresh);
        }
    }
    fn merge(mut self, other: Self) -> Self {
        for (a, b) in self.best.iter_mut().zip(other.best) {
            *a = (*a).min(b);
        }
        self.unreached = self.unreached.and(other.unreached);
        self
    }
}

/// A worker's part of a reach table in an enumeration shared by workers: the fewest pushes
/// per cell, as little-endian `u32`s (`u32::MAX`: not yet).
impl<B: Bits, P> Partial<IceState<B, P>> for Best<B> {
    const STATES: bool = true;
    fn visit(&mut self, s: &IceState<B, P>, d: u32) {
        Best::visit(self, s.blocks, d);
    }
    fn merge(&mut self, other: Self) {
        let me = std::mem::replace(self, Best::new(0));
        *self = Best::merge(me, other);
    }
    fn to_bytes(&self) -> Vec<u8> {
        self.best.iter().flat_map(|d| d.to_le_bytes()).collect()
    }
    fn from_bytes(mut fresh: Self, bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != fresh.best.len() * 4 {
            return Err(Error::invalid(format!(
                "a reach table of {} cells cannot be read from {} bytes",
                fresh.best.len(),
                bytes.len()
            )));
        }
        for (i, c) in bytes.chunks_exact(4).enumerate() {
            let d = u32::from_le_bytes(c.try_into().expect("four bytes"));
            fresh.best[i] = d;
            if d != u32::MAX {
                fresh.unreached.clear(i);
            }
        }
        Ok(fresh)
    }
}

/// The table of the fewest pushes per cell, in the board's rows and columns.
fn table_of<B: Bits, R: Walking>(p: &IcePuzzle<B, R>, best: &[u32]) -> Vec<Vec<Option<u32>>> {
    let mut moves = vec![vec![None; p.cols()]; p.rows()];
    for (i, &d) in best.iter().enumerate() {
        if d != u32::MAX {
            let pos = p.pos(i as u16);
            moves[pos.row][pos.col] = Some(d);
        }
    }
    moves
}

struct ReachOn<'a>(&'a mut dyn Exchange, &'a DistOptions);

impl IceTask for ReachOn<'_> {
    type Output = Result<(Reach, DistEnumeration<()>), Error>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
        let n = p.cell_count();
        let d = enumerate_dist(p, self.0, self.1, || Best::<B>::new(n))?;
        let e = &d.enumeration;
        let reach = Reach {
            rows: p.rows(),
            cols: p.cols(),
            moves: d
                .partial
                .as_ref()
                .map_or_else(|| table_of(p, &[]), |b| table_of(p, &b.best)),
            states: e.states,
            limit: e.limit,
            stats: e.stats,
        };
        Ok((reach, d.without_partial()))
    }
}

/// [`reach`] shared by the workers that `ex` links, out of core and resumable with a work
/// directory ([`crate::search::dist`]); rule `free` only (the positions need an invertible
/// perfect hash). The table is filled at worker 0; the others get the counts only.
pub fn reach_on(
    level: &Level,
    rule: WalkRule,
    ex: &mut dyn Exchange,
    o: &DistOptions,
) -> Result<(Reach, DistEnumeration<()>), Error> {
    with_puzzle(level, rule, ReachOn(ex, o))?
}

impl IceTask for ReachTask<'_> {
    type Output = Reach;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Reach {
        let n = p.cell_count();
        let (e, best) = if worth_parallel(p) {
            enumerate_par(
                p,
                self.0,
                || Best::<B>::new(n),
                |b, s, d| b.visit(s.blocks, d),
                Best::merge,
            )
            .expect("worth_parallel checks for a rank")
        } else {
            let mut best = Best::<B>::new(n);
            let e = enumerate(p, self.0, |s, d| best.visit(s.blocks, d));
            (e, best)
        };
        Reach {
            rows: p.rows(),
            cols: p.cols(),
            moves: table_of(p, &best.best),
            states: e.states,
            limit: e.limit,
            stats: e.stats,
        }
    }
}

/// The reach table of `level` under `rule`.
pub fn reach(level: &Level, rule: WalkRule, limits: &Limits) -> Result<Reach, Error> {
    with_puzzle(level, rule, ReachTask(limits))
}

/// The reach table of an empty `rows × cols` board whose `k` blocks start in the top row from
/// the left (then clockwise along the edge if they do not fit in it).
pub fn reach_empty(rows: usize, cols: usize, k: usize, limits: &Limits) -> Result<Reach, Error> {
    reach(&Level::empty_board(rows, cols, k)?, WalkRule::Free, limits)
}

/// A reach table as the JSON contract of `floe reach --json`: the board, the table (`null`
/// for cells no block can rest on), its hardest cell and mean, and how the enumeration ended.
#[derive(Clone, Debug, Serialize)]
pub struct ReachReport {
    /// The game's name (ice blocks).
    pub game: &'static str,
    /// The level's name (none for an empty board given by its size).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The parameters in force.
    pub params: ParamValues,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Blocks on the board.
    pub blocks: usize,
    /// Fewest pushes per cell.
    pub moves: Vec<Vec<Option<u32>>>,
    /// The hardest cell's count.
    pub max: Option<u32>,
    /// The mean over the reachable cells.
    pub mean: Option<f64>,
    /// Reachable positions enumerated.
    pub states: u64,
    /// Whether every reachable position was enumerated.
    pub complete: bool,
    /// The limit that stopped it.
    pub limit: Option<&'static str>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// How it was computed, when shared by several workers or kept on disk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed: Option<crate::game::Computed>,
}

impl ReachReport {
    /// The report of table `r` of a board with `blocks` blocks, named `level` (a file's
    /// level) with `params` in force, computed in `seconds`.
    pub fn new(
        r: &Reach,
        level: Option<String>,
        params: ParamValues,
        blocks: usize,
        seconds: f64,
    ) -> ReachReport {
        ReachReport {
            game: Ice.info().name,
            level,
            params,
            rows: r.rows,
            cols: r.cols,
            blocks,
            moves: r.moves.clone(),
            max: r.max(),
            mean: r.mean(),
            states: r.states,
            complete: r.limit.is_none(),
            limit: r.limit.map(LimitKind::name),
            seconds,
            computed: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_keeps_the_contract_keys_in_order() {
        let r = reach_empty(4, 4, 3, &Limits::none()).unwrap();
        let json =
            serde_json::to_string(&ReachReport::new(&r, None, ParamValues::default(), 3, 0.5))
                .unwrap();
        assert!(
            json.starts_with(
                r#"{"game":"ice","params":{},"rows":4,"cols":4,"blocks":3,"moves":[[0,0,0,2],"#
            ),
            "{json}"
        );
        assert!(
            json.contains(r#""max":5,"mean":2.3125,"states":"#),
            "{json}"
        );
        assert!(
            json.ends_with(r#""complete":true,"limit":null,"seconds":0.5}"#),
            "{json}"
        );
    }

    fn table(r: &Reach) -> Vec<Vec<u32>> {
        r.moves
            .iter()
            .map(|row| row.iter().map(|x| x.unwrap()).collect())
            .collect()
    }

    #[test]
    fn reference_reach_tables() {
        // spec/ice-blocks.md, van den Akker Tables 2 and 3.
        let r = reach_empty(4, 4, 3, &Limits::none()).unwrap();
        assert_eq!(
            table(&r),
            vec![
                vec![0, 0, 0, 2],
                vec![3, 3, 5, 4],
                vec![3, 3, 5, 4],
                vec![1, 1, 1, 2]
            ]
        );
        let r = reach_empty(5, 5, 3, &Limits::none()).unwrap();
        assert_eq!(
            table(&r),
            vec![
                vec![0, 0, 0, 3, 2],
                vec![3, 3, 5, 6, 4],
                vec![5, 7, 9, 10, 6],
                vec![3, 3, 5, 6, 4],
                vec![1, 1, 1, 4, 2]
            ]
        );
        assert_eq!(r.max(), Some(10));
    }

    #[test]
    fn walk_rule_gives_the_same_table_on_an_empty_board() {
        for (rows, cols, k) in [(4, 4, 3), (3, 5, 3), (4, 5, 4)] {
            let l = Level::empty_board(rows, cols, k).unwrap();
            let free = reach(&l, WalkRule::Free, &Limits::none()).unwrap();
            let walk = reach(&l, WalkRule::Walk, &Limits::none()).unwrap();
            assert_eq!(free.moves, walk.moves);
        }
    }
}
