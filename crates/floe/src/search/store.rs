//! Node storage: an arena of states in discovery order plus a visited index over it.
//!
//! The index is either a dense bit array over the puzzle's perfect hash (one bit per possible
//! state, when the puzzle has a rank and the space is small enough) or a hash table of `u32`
//! arena indices (the state itself is stored once, in the arena).

use super::Puzzle;
use crate::bits::BitArray;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::{BuildHasher, Hash};

/// Largest perfect-hash space given a dense bit array: 2^35 bits = 4 GiB of address space,
/// of which only the touched pages are ever backed by memory. Larger spaces use a hash table.
pub const DENSE_LIMIT: u64 = 1 << 35;

/// A visited index keyed by states.
pub(crate) enum Seen {
    Dense(BitArray),
    Table(HashTable<u32>),
}

/// Whether a bit array of `n` bits leaves half of what the machine lets floe have
/// ([`crate::mem::machine_bytes`]) for the rest of the search.
fn dense_fits(n: u64) -> bool {
    crate::mem::machine_bytes().is_none_or(|m| n / 8 <= m / 2)
}

impl Seen {
    /// A dense index when the puzzle has a small enough rank space, else a hash table.
    pub(crate) fn for_puzzle<P: Puzzle>(p: &P) -> Seen {
        match p.rank_space() {
            // a bit a rank where the machine has room for them (under `ulimit -v` the array
            // takes its address space at once), else a table of the positions met
            Some(n) if n <= DENSE_LIMIT && dense_fits(n) => match BitArray::try_new(n) {
                Some(bits) => Seen::Dense(bits),
                None => Seen::Table(HashTable::new()),
            },
            _ => Seen::Table(HashTable::new()),
        }
    }

    /// Records `s`, which the caller stores at `arena.len()` if this returns true.
    #[inline]
    pub(crate) fn insert<P: Puzzle>(&mut self, p: &P, s: &P::State, arena: &[P::State]) -> bool {
        match self {
            Seen::Dense(bits) => {
                let r = p
                    .rank(s)
                    .expect("a puzzle with a rank space ranks every state");
                bits.insert(r)
            }
            Seen::Table(table) => insert_index(table, s, arena),
        }
    }

    /// Bytes of memory held by the index (not the arena).
    pub(crate) fn heap_bytes(&self) -> usize {
        match self {
            Seen::Dense(b) => b.heap_bytes(),
            Seen::Table(t) => t.capacity() * (std::mem::size_of::<u32>() + 1),
        }
    }
}

#[inline]
fn hash_of<T: Hash>(x: &T) -> u64 {
    FxBuildHasher.hash_one(x)
}

/// Inserts index `arena.len()` for `s` unless an equal state is indexed already.
#[inline]
fn insert_index<S: Hash + Eq>(table: &mut HashTable<u32>, s: &S, arena: &[S]) -> bool {
    let h = hash_of(s);
    if table.find(h, |&i| arena[i as usize] == *s).is_some() {
        return false;
    }
    let next = u32::try_from(arena.len()).expect("more than 4 billion stored states");
    table.insert_unique(h, next, |&i| hash_of(&arena[i as usize]));
    true
}

/// A map from keys to arena slots, for searches whose nodes are found more than once with
/// different costs (Dijkstra, A*).
pub(crate) struct NodeIndex<K> {
    table: HashTable<u32>,
    _k: std::marker::PhantomData<K>,
}

impl<K: Hash + Eq> NodeIndex<K> {
    pub(crate) fn new() -> Self {
        NodeIndex {
            table: HashTable::new(),
            _k: std::marker::PhantomData,
        }
    }

    /// The slot of `key`, or `None` after reserving slot `keys.len()` for it (the caller must
    /// push the key there).
    #[inline]
    pub(crate) fn get_or_reserve(&mut self, key: &K, keys: &[K]) -> Option<u32> {
        let h = hash_of(key);
        if let Some(&i) = self.table.find(h, |&i| keys[i as usize] == *key) {
            return Some(i);
        }
        let next = u32::try_from(keys.len()).expect("more than 4 billion stored nodes");
        self.table
            .insert_unique(h, next, |&i| hash_of(&keys[i as usize]));
        None
    }
}
