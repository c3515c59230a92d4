//! Rule 5 of the bound: golden ice needs stoppers.
//!
//! A pushed block stops only before a wall, the map's edge or another block; a burning
//! fire stops nothing, and no block rests on one. So wherever a golden block stops in real
//! play with none of those ahead *now*, some push must first have left a block resting on
//! the cell ahead: a regular push that ends with its block resting (it puts out no fire),
//! or a golden push. The *stopper relaxation* keeps exactly that and lets go of the rest:
//!
//! - the golden blocks are tracked exactly, cell by cell, with every live fire on their
//!   paths put out;
//! - they pass through regular blocks (those may have moved), but not through each other
//!   or a frozen block (those never move), and stop on any cell of a path;
//! - a stop is free before a wall, the edge, a frozen block, the other golden block, or a
//!   regular block that stands there now; any other stop pays one push for its *stopper
//!   cell*, once: a cell paid for stops every later golden block for free;
//! - every fire that no golden push of the plan puts out costs one push.
//!
//! The value is the least, over every plan of golden pushes, of golden pushes plus paid
//! stopper cells plus fires left. It is admissible: a real solution's golden pushes make a
//! plan of the relaxation (its paths are those of the relaxation's, cut where a block
//! stood); its pushes that leave a regular block resting on a paid cell are distinct (one
//! per cell, since each push ends on one cell) and put out nothing; its regular pushes that
//! put out a fire put out one each, and at least every fire the plan leaves. Golden pushes,
//! resting pushes and pushes that put out a fire are disjoint, so their counts add up.
//!
//! A capped A* asks, of each position it is about to expand, whether a plan of at most the
//! pushes left under its cap exists ([`Analysis::needs_more`]): a depth-first search over
//! the relaxation's plans, the pushes of least cost plus what is left first, pruned by
//! rule 4's count of turns on the fires still live, each node kept with the least cost it
//! was reached at (in a table of fixed size per thread, [`super::seen`]). When no plan is
//! found the position is proved to need more and is not expanded; when the search runs
//! out of nodes, nothing is proved.

use super::prune::Analysis;
use super::seen::{Key, Seen};
use crate::bits::Bits;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Open cells, as a fixed set of 256 bits (levels with more open cells skip the rule).
type Cells = [u64; 4];
/// The most golden blocks the rule tracks (levels with more skip it).
pub(super) const MAX_GOLD: usize = 3;
/// The most open cells the rule handles (a cell is a byte of [`Key`], 255 an unused place).
pub(super) const MAX_CELLS: usize = 255;

fn get(s: &Cells, i: usize) -> bool {
    s[i >> 6] >> (i & 63) & 1 != 0
}

fn set(s: &mut Cells, i: usize) {
    s[i >> 6] |= 1 << (i & 63);
}

/// The most stopper cells a plan pays for and remembers; its stops in the open beyond
/// them are free (which can only lower the value: the bound stays admissible).
const MAX_PAID: usize = 6;
/// An unused place in [`Node::gold`] or [`Node::paid`].
const NO_CELL: u16 = u16::MAX;

/// One position as the relaxation sees it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Node {
    /// Golden blocks' cells, increasing ([`NO_CELL`] after the last).
    gold: [u16; MAX_GOLD],
    /// Stopper cells paid for, increasing ([`NO_CELL`] after the last).
    paid: [u16; MAX_PAID],
    live: u64,
}

impl Node {
    fn paid(&self, c: u16) -> bool {
        self.paid.contains(&c)
    }

    /// Pays for stopper cell `c` (not paid yet): the push's extra cost, 0 when the node
    /// remembers no more cells.
    fn pay(&mut self, c: u16) -> u32 {
        if self.paid[MAX_PAID - 1] != NO_CELL {
            return 0;
        }
        self.paid[MAX_PAID - 1] = c;
        self.paid.sort_unstable();
        1
    }

    /// The node packed for [`Seen`].
    fn key(&self) -> Key {
        let mut cells = [u8::MAX; MAX_GOLD + MAX_PAID];
        for (b, &c) in cells.iter_mut().zip(self.gold.iter().chain(&self.paid)) {
            if c != NO_CELL {
                *b = c as u8;
            }
        }
        Key::new(cells, self.live)
    }
}

/// A push of the relaxation: the node it leads to, what it costs, and at least what is
/// left to pay from there.
#[derive(Clone, Copy)]
struct Kid {
    node: Node,
    cost: u32,
    h: u32,
}

/// A thread's working space, kept from one position to the next.
struct Scratch {
    /// The level ([`Analysis::id`]) and number of golden blocks that `h_of` is for.
    level: (u64, u32),
    /// [`Stoppers::h`] by set of live fires.
    h_of: FxHashMap<u64, u32>,
    /// Least cost at which each node was reached in this question.
    seen: Seen,
    /// The pushes of each depth, best first.
    kids: Vec<Vec<Kid>>,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            level: (0, 0),
            h_of: FxHashMap::default(),
            seen: Seen::new(SEEN_BUCKETS),
            kids: Vec::new(),
        }
    }
}

/// The most entries of a thread's `h_of` before it starts again.
const H_CACHE: usize = 1 << 20;
/// Buckets of a thread's [`Seen`]: 8.4 million nodes, 200 MB.
const SEEN_BUCKETS: usize = 1 << 21;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Rule 5's search gives up after this many nodes per question (about 15 s). Too few costs
/// more than it saves: on h49, proving 16 at the start takes 36 million nodes, so that
/// with 20 million the proof of 16 (`--max-moves 15`) asks 11 questions, with 60 million
/// one; a tenth of 20 million did not prove 17 within 20 minutes.
const STOPPER_NODES: u64 = 60_000_000;

impl Analysis {
    /// Rule 5 of the bound (this module), asked apart from the bound kept with a position (it
    /// costs a search of its own): whether the position certainly needs more than `need`
    /// pushes. `false` when it cannot tell within [`STOPPER_NODES`] nodes.
    pub fn needs_more<B: Bits>(&self, ice: B, gold: B, live: u64, need: u32) -> bool {
        let golds = gold.count() as usize;
        if !self.enabled
            || live.count_ones() <= need
            || golds == 0
            || golds > MAX_GOLD
            || self.pos.len() > MAX_CELLS
        {
            return false;
        }
        let frozen = self.frozen(ice.or(gold));
        let (ice, gold) = (ice.and_not(frozen), gold.and_not(frozen));
        let mut cells = [0usize; MAX_GOLD];
        let mut golds = 0;
        for c in gold.ones() {
            cells[golds] = c;
            golds += 1;
        }
        let mut search = Stoppers::new(self, ice.ones(), frozen.ones(), golds, STOPPER_NODES);
        search.within(&cells[..golds], live, need) == Some(false)
    }
}

/// A search of the relaxation for one position.
pub(super) struct Stoppers<'a> {
    an: &'a Analysis,
    /// Cells golden ice cannot enter: frozen blocks.
    blocked: Cells,
    /// Cells where a regular block stands now (not frozen): free stoppers.
    free: Cells,
    /// Golden blocks that can move.
    golds: u32,
    nodes: u64,
    budget: u64,
}

/// The node budget ran out.
struct OutOfNodes;

impl<'a> Stoppers<'a> {
    /// `ice`: the cells of the regular blocks that can still move; `frozen`: the cells of
    /// the blocks that never will; `golds`: how many golden blocks can move.
    pub(super) fn new(
        an: &'a Analysis,
        ice: impl Iterator<Item = usize>,
        frozen: impl Iterator<Item = usize>,
        golds: usize,
        budget: u64,
    ) -> Stoppers<'a> {
        let mut blocked = [0; 4];
        frozen.for_each(|c| set(&mut blocked, c));
        let mut free = [0; 4];
        ice.for_each(|c| set(&mut free, c));
        Stoppers {
            an,
            blocked,
            free,
            golds: golds as u32,
            nodes: 0,
            budget,
        }
    }

    /// Whether some plan of the relaxation costs at most `t`, for golden blocks on `gold`
    /// and live fires `live`: `Some(false)` proves that the position needs more than `t`
    /// pushes. `None` when the node budget ran out first.
    pub(super) fn within(&mut self, gold: &[usize], live: u64, t: u32) -> Option<bool> {
        let mut g = [NO_CELL; MAX_GOLD];
        for (k, &c) in gold.iter().enumerate() {
            g[k] = c as u16;
        }
        g.sort_unstable();
        let start = Node {
            gold: g,
            paid: [NO_CELL; MAX_PAID],
            live,
        };
        SCRATCH.with_borrow_mut(|s| {
            let level = (self.an.id(), self.golds);
            if s.level != level || s.h_of.len() > H_CACHE {
                s.level = level;
                s.h_of.clear();
            }
            if self.h(s, live) > t {
                return Some(false);
            }
            s.seen.next_question();
            self.dfs(s, start, 0, t, 0).ok()
        })
    }

    /// At least the cost still to pay from live fires `live` (rule 4 of the bound, with
    /// every fire left at one push): golden pushes that put out fires on `r` row runs and
    /// `c` column runs number at least `max(r + c, 2·max(r, c) − j)` for `j` golden blocks,
    /// and every fire they leave costs one push. The runs' cover is rule 4's exact table
    /// ([`Analysis::sweep_table`]), kept per set of live fires.
    fn h(&self, s: &mut Scratch, live: u64) -> u32 {
        if let Some(&v) = s.h_of.get(&live) {
            return v;
        }
        let v = self.h_fresh(live);
        s.h_of.insert(live, v);
        v
    }

    fn h_fresh(&self, live: u64) -> u32 {
        let mut table = Vec::new();
        self.an.sweep_table(live, &mut table);
        let (na, nb) = (table[1], table[2] as usize);
        if na == u8::MAX {
            return 0;
        }
        let cover = &table[3..];
        let (left, j) = (live.count_ones(), self.golds as i64);
        let mut best = left;
        for r in 0..=na as usize {
            for c in 0..=nb {
                let (ri, ci) = (r as i64, c as i64);
                let pushes = (ri + ci).max(2 * ri.max(ci) - j).max(0) as u32;
                best = best.min(pushes + left - cover[r * (nb + 1) + c] as u32);
            }
        }
        best
    }

    /// Whether a plan from `node`, reached at cost `g`, costs at most `t` in all. Pushes
    /// are tried best first (least cost plus what is left to pay).
    fn dfs(
        &mut self,
        s: &mut Scratch,
        node: Node,
        g: u32,
        t: u32,
        depth: usize,
    ) -> Result<bool, OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(OutOfNodes);
        }
        if g + node.live.count_ones() <= t {
            return Ok(true);
        }
        if s.seen.reached_before(node.key(), g as u8) {
            return Ok(false);
        }
        if s.kids.len() <= depth {
            s.kids.resize_with(depth + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut s.kids[depth]);
        kids.clear();
        let h = self.h(s, node.live);
        self.pushes(s, node, (g, h), t, &mut kids);
        kids.sort_unstable_by_key(|k| (k.cost + k.h, k.node.live.count_ones()));
        for k in &kids {
            s.seen.prefetch(k.node.key());
        }
        let mut found = Ok(false);
        for k in &kids {
            match self.dfs(s, k.node, g + k.cost, t, depth + 1) {
                Ok(false) => {}
                other => {
                    found = other;
                    break;
                }
            }
        }
        s.kids[depth] = kids;
        found
    }

    /// Appends to `kids` every push of the relaxation from `node` (reached at cost `g`, `h`
    /// still to pay from it) that could still lead to a plan of at most `t`.
    fn pushes(&self, s: &mut Scratch, node: Node, (g, h): (u32, u32), t: u32, kids: &mut Vec<Kid>) {
        let node_h = h;
        let an = self.an;
        let golds = node.gold.iter().take_while(|&&c| c != NO_CELL).count();
        let other = |c: u16| node.gold[..golds].contains(&c);
        for i in 0..golds {
            let me = node.gold[i] as usize;
            for d in 0..4 {
                let behind = an.nb[me][(d + 2) % 4];
                if behind == u16::MAX
                    || !an.standable[behind as usize]
                    || other(behind)
                    || get(&self.blocked, behind as usize)
                {
                    continue;
                }
                let mut swept = 0u64;
                let mut y = an.nb[me][d];
                while y != u16::MAX && !get(&self.blocked, y as usize) && !other(y) {
                    let yu = y as usize;
                    swept |= an.fire_bit[yu] & node.live;
                    let next = an.nb[yu][d];
                    let free = next == u16::MAX
                        || get(&self.blocked, next as usize)
                        || other(next)
                        || get(&self.free, next as usize)
                        || node.paid(next);
                    let mut child = node;
                    child.gold[i] = y;
                    child.gold[..golds].sort_unstable();
                    child.live &= !swept;
                    let cost = 1 + if free { 0 } else { child.pay(next) };
                    // most pushes put out nothing: the fires, and what is left, are the node's
                    let h = if child.live == node.live {
                        node_h
                    } else {
                        self.h(s, child.live)
                    };
                    if g + cost + h <= t {
                        kids.push(Kid {
                            node: child,
                            cost,
                            h,
                        });
                    }
                    y = next;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::prune::tests::{analysis, start};
    use super::*;

    /// Rule 5's value at the start of `text` (as far as a large budget proves) and the
    /// judge's bound there.
    fn values(text: &str) -> (u32, u32) {
        let (a, t) = analysis(text);
        let (ice, gold, live) = start(&a, &t);
        let bound = a.judge(ice, gold, live).unwrap();
        let rule5 = (0..=live.count_ones())
            .find(|&need| !a.needs_more(ice, gold, live, need))
            .unwrap();
        (rule5, bound)
    }

    /// Three fires up a column the golden block can only enter by stopping in the open:
    /// a stopper costs a push of its own, which the bound does not see.
    #[test]
    fn a_stop_in_the_open_pays_for_its_stopper() {
        let open = "#########\n#   *   #\n#   *   #\n#   *   #\n# $     #\n#@     %#\n#########";
        assert_eq!(values(open), (3, 2));
        // a regular block standing where the golden block must stop: free
        let block = "#########\n#   *   #\n#   *   #\n#   *   #\n# $  %  #\n#@      #\n#########";
        assert_eq!(values(block).0, 2);
        // so is the other golden block
        let golden = "#########\n#   *   #\n#   *   #\n#   *   #\n# $  $  #\n#@      #\n#########";
        assert_eq!(values(golden).0, 2);
    }

    /// A stopper cell paid once stops every later golden block for free; past
    /// [`MAX_PAID`] cells a stop costs nothing more (the value can only fall).
    #[test]
    fn stopper_cells_are_paid_once() {
        let mut n = Node {
            gold: [NO_CELL; MAX_GOLD],
            paid: [NO_CELL; MAX_PAID],
            live: 0,
        };
        for c in (0..MAX_PAID as u16).rev() {
            assert!(!n.paid(c));
            assert_eq!(n.pay(c), 1);
            assert!(n.paid(c));
        }
        assert!(
            n.paid.windows(2).all(|w| w[0] < w[1]),
            "kept in order: one key per set"
        );
        assert_eq!(n.pay(100), 0);
        assert!(!n.paid(100));
    }
}
