//! Rule 5's table of nodes seen ([`super::stoppers`]): the least cost each node of the
//! relaxation was reached at in the current question, in a table of fixed size.
//!
//! A depth-first search over the relaxation's plans meets the same node by many orders of
//! the same pushes. Pruning a node reached again at no less cost is what keeps the search
//! small, and it needs the nodes of the whole question: on h49's start, a table that forgot
//! everything each 3.6 million nodes made 82 million nodes to prove 16, one that kept them
//! all 35 million (and a gigabyte). This table keeps a fixed number of nodes in buckets of
//! [`WAYS`]: a node new to a full bucket takes the place of the one reached deepest (the
//! one whose search below was smallest). Forgetting a node costs time, never the answer.
//!
//! A node is packed into 17 bytes: the set of live fires (64 bits) and the cells of the
//! golden blocks and of the paid stopper cells, a byte each. Entries carry the number of
//! the question they belong to, so a new question starts without clearing the table. The
//! table starts small and doubles while a question's nodes fill half of it.

/// Entries of a bucket, looked at together (96 bytes, two cache lines).
const WAYS: usize = 4;

/// A node, packed: the live fires, eight cell bytes, and the ninth cell byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Key {
    pub live: u64,
    pub cells: u64,
    pub last: u8,
}

impl Key {
    /// The key of cells `cells` (each below 255; 255 marks an unused place) and live
    /// fires `live`.
    pub fn new(cells: [u8; 9], live: u64) -> Key {
        let mut lo = [0u8; 8];
        lo.copy_from_slice(&cells[..8]);
        Key {
            live,
            cells: u64::from_le_bytes(lo),
            last: cells[8],
        }
    }

    fn hash(&self) -> u64 {
        // two rounds of a multiplicative mix, high bits folded down into the low ones it uses
        let mut h = self.live.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= self.cells.rotate_left(23) ^ u64::from(self.last) << 7;
        h = (h ^ h >> 29).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ h >> 32
    }
}

/// One entry: the key's live fires and cells, and the question's number with the key's last
/// byte and the cost (`question << 16 | last << 8 | cost`); question 0 marks an empty entry.
/// Plain words, so that a new table is zero pages until used.
type Entry = [u64; 3];
const LIVE: usize = 0;
const CELLS: usize = 1;
const META: usize = 2;

/// Buckets of a new table: it doubles while the nodes of a question fill half of it, so
/// that small questions stay in a small table.
const FIRST_BUCKETS: usize = 1 << 10;

/// A zeroed table of `buckets` buckets. A large one asks Linux for huge pages: its lookups
/// land anywhere in it, and with 4 KB pages nearly each one also missed the address
/// translation cache.
fn table(buckets: usize) -> Vec<Entry> {
    let entries: Vec<Entry> = vec![[0; 3]; buckets * WAYS];
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = entries.len() * std::mem::size_of::<Entry>();
        let start = entries.as_ptr() as usize;
        let from = start.next_multiple_of(HUGE);
        let to = (start + bytes) / HUGE * HUGE;
        if to > from {
            // SAFETY: the range lies within the vector's allocation; the advice changes how
            // its pages are backed, never their contents (all zero, as allocated)
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    entries
}

/// Nodes seen in the current question, with the least cost they were reached at.
pub(super) struct Seen {
    entries: Vec<Entry>,
    /// Buckets − 1 (a power of two).
    mask: u64,
    /// The most buckets the table grows to.
    most: usize,
    /// Entries filled in this question.
    filled: usize,
    question: u64,
}

impl Seen {
    /// A table that grows to `most` (a power of two) buckets of [`WAYS`] entries.
    pub fn new(most: usize) -> Seen {
        assert!(most.is_power_of_two());
        let buckets = FIRST_BUCKETS.min(most);
        Seen {
            entries: table(buckets),
            mask: buckets as u64 - 1,
            most,
            filled: 0,
            question: 1,
        }
    }

    /// Forgets every node: the next question begins.
    pub fn next_question(&mut self) {
        self.question += 1;
        self.filled = 0;
    }

    /// Doubles the table, keeping the nodes of this question.
    fn grow(&mut self) {
        let buckets = (self.mask as usize + 1) * 2;
        let old = std::mem::replace(&mut self.entries, table(buckets));
        self.mask = buckets as u64 - 1;
        self.filled = 0;
        let question = self.question;
        for e in old.into_iter().filter(|e| e[META] >> 16 == question) {
            let key = Key {
                live: e[LIVE],
                cells: e[CELLS],
                last: (e[META] >> 8) as u8,
            };
            self.reached_before(key, e[META] as u8);
        }
    }

    /// Starts loading the bucket of `key` into the cache: the search asks about a node's
    /// pushes one after the other, and their buckets lie anywhere in a large table.
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let b = (key.hash() & self.mask) as usize * WAYS;
            let at = self.entries[b..].as_ptr().cast::<i8>();
            // SAFETY: a prefetch reads nothing and cannot fault; `at` lies in the table
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch(at, _MM_HINT_T0);
                _mm_prefetch(at.wrapping_add(64), _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Whether node `key`, reached at `cost`, was reached before in this question at no
    /// more cost (then it need not be searched again); otherwise it is kept at `cost`.
    pub fn reached_before(&mut self, key: Key, cost: u8) -> bool {
        let b = (key.hash() & self.mask) as usize * WAYS;
        let bucket = &mut self.entries[b..b + WAYS];
        let tag = self.question << 16 | u64::from(key.last) << 8;
        let mut victim = 0;
        let mut victim_cost = -1i32;
        for (i, e) in bucket.iter_mut().enumerate() {
            if e[META] >> 16 != self.question {
                // empty, or of an earlier question: a free place
                if victim_cost < i32::MAX {
                    victim = i;
                    victim_cost = i32::MAX;
                }
                continue;
            }
            if e[LIVE] == key.live && e[CELLS] == key.cells && e[META] & !0xFF == tag {
                let at = (e[META] & 0xFF) as u8;
                if at <= cost {
                    return true;
                }
                e[META] = tag | u64::from(cost);
                return false;
            }
            let at = (e[META] & 0xFF) as i32;
            if at > victim_cost {
                victim = i;
                victim_cost = at;
            }
        }
        if victim_cost == i32::MAX {
            self.filled += 1;
        }
        bucket[victim] = [key.live, key.cells, tag | u64::from(cost)];
        if self.filled * 2 > self.entries.len() && self.mask as usize + 1 < self.most {
            self.grow();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Seen {
        /// Whether `key` is kept in this question (without keeping it).
        fn has(&self, key: Key) -> bool {
            let b = (key.hash() & self.mask) as usize * WAYS;
            let tag = self.question << 16 | u64::from(key.last) << 8;
            self.entries[b..b + WAYS]
                .iter()
                .any(|e| e[LIVE] == key.live && e[CELLS] == key.cells && e[META] & !0xFF == tag)
        }
    }

    fn key(i: u64) -> Key {
        let b = (i as u8).min(254);
        Key::new([b, 1, 2, 255, 255, 255, 255, 255, (i >> 8) as u8], i * 7)
    }

    #[test]
    fn a_node_is_pruned_when_reached_again_at_no_more_cost() {
        let mut s = Seen::new(4);
        assert!(!s.reached_before(key(1), 5));
        assert!(s.reached_before(key(1), 5));
        assert!(s.reached_before(key(1), 6));
        assert!(
            !s.reached_before(key(1), 3),
            "a cheaper way is searched again"
        );
        assert!(s.reached_before(key(1), 4));
        // keys that differ in any part are distinct nodes
        let mut other = key(1);
        other.last = 9;
        assert!(!s.reached_before(other, 9));
        other = key(1);
        other.live ^= 1;
        assert!(!s.reached_before(other, 9));
        // a new question forgets
        s.next_question();
        assert!(!s.reached_before(key(1), 5));
    }

    #[test]
    fn a_full_table_forgets_the_deepest_nodes_first_and_never_prunes_wrongly() {
        let mut s = Seen::new(1);
        for i in 0..WAYS as u64 {
            assert!(!s.reached_before(key(i), i as u8));
        }
        // a fifth node takes the place of the deepest (cost 3)
        assert!(!s.reached_before(key(100), 0));
        assert!(s.reached_before(key(0), 0));
        assert!(!s.reached_before(key(3), 3), "forgotten: searched again");
        // many more nodes than places: a node is pruned only after it was seen
        let mut kept = std::collections::HashMap::new();
        for i in 0..10_000u64 {
            let k = key(i % 700 + 1000);
            let cost = (i * 31 % 17) as u8;
            let pruned = s.reached_before(k, cost);
            if pruned {
                assert!(kept.get(&(i % 700)).is_some_and(|&c| c <= cost));
            }
            let e = kept.entry(i % 700).or_insert(cost);
            *e = (*e).min(cost);
        }
    }

    #[test]
    fn the_table_grows_to_its_size_and_keeps_the_question_s_nodes() {
        let mut s = Seen::new(1 << 12);
        s.next_question();
        for i in 0..20_000u64 {
            assert!(!s.reached_before(key(i), (i % 200) as u8));
        }
        assert_eq!(s.mask + 1, 1 << 12, "grown to its most");
        // while it grew it kept them all; once full, 20,000 nodes in 16,384 places keep
        // most places filled (14,349 when written)
        let kept = (0..20_000u64).filter(|&i| s.has(key(i))).count();
        assert!(kept > 13_000, "{kept}");
        // a new question: nothing is seen, and the table keeps its size
        s.next_question();
        assert!(!s.reached_before(key(5), 0));
        assert_eq!(s.mask + 1, 1 << 12);
    }
}
