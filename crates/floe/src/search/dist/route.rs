//! Who owns which position, and routing a chunk's successors to the batches of their owners
//! without a branch on the owner.

/// Which worker owns a rank, and the number it goes by there.
///
/// The ranks are cut into blocks of `2^block` consecutive ranks, dealt to the workers in
/// turn: block `b` is worker `b % peers`'s, and a rank keeps its place in its block. A
/// worker's positions of a layer, taken in increasing rank, are then mostly neighbours in
/// runs of a block, as in the single process (each rebuilt from the one before and its
/// pushes taken along from it; dealt one rank at a time, a worker's positions were every
/// other rank, further apart, and cost more to rebuild and list). The blocks are as large
/// as leave each worker [`BLOCKS_EACH`] of them at least, up to `2^`[`MAX_BLOCK`]; small
/// spaces are dealt one rank at a time (`block` 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Owners {
    peers: u64,
    block: u32,
}

/// The fewest blocks a worker gets, so that a layer's positions spread over the workers.
pub(super) const BLOCKS_EACH: u64 = 256;
/// The largest block: `2^16` ranks.
pub(super) const MAX_BLOCK: u32 = 16;

impl Owners {
    /// The owners of `space` ranks among `peers` workers (at least one).
    pub(super) fn new(space: u64, peers: u64) -> Owners {
        let peers = peers.max(1);
        let per_block = space / peers.saturating_mul(BLOCKS_EACH);
        let block = if peers == 1 || per_block == 0 {
            0
        } else {
            per_block.ilog2().min(MAX_BLOCK)
        };
        Owners { peers, block }
    }

    /// The block's size as a power of two (0: one rank at a time).
    pub(super) fn block(&self) -> u32 {
        self.block
    }

    /// The ranks each worker may own: as many whole blocks as the most any worker gets.
    pub(super) fn local_space(&self, space: u64) -> u64 {
        (space >> self.block)
            .saturating_add(u64::from(space & self.low_mask() != 0))
            .div_ceil(self.peers)
            << self.block
    }

    fn low_mask(&self) -> u64 {
        (1u64 << self.block) - 1
    }

    /// The owner of `rank` and the number it goes by there.
    #[inline]
    pub(super) fn split(&self, rank: u64) -> (usize, u64) {
        let b = rank >> self.block;
        let low = rank & self.low_mask();
        (
            (b % self.peers) as usize,
            ((b / self.peers) << self.block) | low,
        )
    }

    /// [`split`](Self::split) for a power of two of workers (`peers == 1 << shift`): masks
    /// and shifts instead of a division. The rank is `(q·peers + owner)·2^block + low`; shifted
    /// down by `shift` it is `q·2^block` plus less than `2^block`, whose bits the mask drops.
    #[inline]
    pub(super) fn split_pow2(&self, rank: u64, shift: u32) -> (usize, u64) {
        let low = self.low_mask();
        (
            ((rank >> self.block) & (self.peers - 1)) as usize,
            ((rank >> shift) & !low) | (rank & low),
        )
    }

    /// The rank of worker `me`'s position numbered `local` ([`split`](Self::split)'s inverse).
    #[inline]
    pub(super) fn global(&self, me: u64, local: u64) -> u64 {
        (((local >> self.block) * self.peers + me) << self.block) | (local & self.low_mask())
    }

    /// [`global`](Self::global) for a number read from a file, which may be any number:
    /// `None` where its rank would not fit in 64 bits (`global` would wrap around to
    /// another worker's rank).
    pub(super) fn global_checked(&self, me: u64, local: u64) -> Option<u64> {
        let blocks = u128::from(local >> self.block) * u128::from(self.peers) + u128::from(me);
        u64::try_from(blocks << self.block | u128::from(local & self.low_mask())).ok()
    }
}

/// Appends each of `ranks` to the batch of its owner, `owner(rank)` giving the owner's
/// index and the number it goes by there. Room is made in each batch beforehand, then each
/// rank is written into it and each batch's length set once at the end: about half the time
/// of a push each, whose check of the batch's room and store of its length sit between every
/// two writes. Up to [`ROOM_FOR_ALL`] workers each batch gets room for all the ranks and the
/// ranks are written by [`route_few`]; beyond, the ranks of each owner are counted first and
/// its batch gets room for those (the batches of many workers hold a chunk's successors once
/// between them, not once each; counting costs two workers a tenth of their time).
#[inline]
pub(super) fn route(ranks: &[u64], batches: &mut [Vec<u64>], owner: impl Fn(u64) -> (usize, u64)) {
    let mut count = vec![ranks.len(); batches.len()];
    if batches.len() > ROOM_FOR_ALL {
        count.fill(0);
        for &r in ranks {
            count[owner(r).0] += 1;
        }
    }
    let mut filled: Vec<usize> = batches.iter().map(|b| b.len()).collect();
    let mut room: Vec<&mut [std::mem::MaybeUninit<u64>]> = batches
        .iter_mut()
        .zip(&count)
        .map(|(b, &n)| {
            b.reserve(n);
            b.spare_capacity_mut()
        })
        .collect();
    let put: Vec<usize> = match room.as_mut_slice() {
        [a] => route_few(ranks, [a], &owner).to_vec(),
        [a, b] => route_few(ranks, [a, b], &owner).to_vec(),
        [a, b, c] => route_few(ranks, [a, b, c], &owner).to_vec(),
        [a, b, c, d] => route_few(ranks, [a, b, c, d], &owner).to_vec(),
        room => {
            let mut put = vec![0usize; room.len()];
            for &r in ranks {
                let (w, l) = owner(r);
                room[w][put[w]].write(l);
                put[w] += 1;
            }
            put
        }
    };
    drop(room);
    for ((b, f), n) in batches.iter_mut().zip(&mut filled).zip(put) {
        *f += n;
        // SAFETY: the `n` slots after the batch's length were written above (each an index
        // of its spare room, which holds the owner's count at least, bounds-checked; `owner`
        // gives the same owner for a rank twice), and the capacity holds them.
        unsafe { b.set_len(*f) };
    }
}

/// [`route`] for a few workers (at most [`ROOM_FOR_ALL`]), each with room for all the ranks:
/// every rank is written to every room and only its owner's count moves on. The counts are
/// `N` variables the compiler keeps in registers; counts in memory indexed by the owner made
/// a chain of stores and loads of the same counter that took three quarters of two workers'
/// routing time.
#[inline]
fn route_few<const N: usize>(
    ranks: &[u64],
    room: [&mut &mut [std::mem::MaybeUninit<u64>]; N],
    owner: impl Fn(u64) -> (usize, u64),
) -> [usize; N] {
    for r in &room {
        assert!(r.len() >= ranks.len(), "every room holds all the ranks");
    }
    let at = room.map(|r| r.as_mut_ptr());
    let mut put = [0usize; N];
    for &r in ranks {
        let (o, l) = owner(r);
        for w in 0..N {
            // SAFETY: a count is at most the ranks before this one, fewer than the ranks,
            // and each room holds them all (asserted above): the slot is in its room.
            unsafe { (*at[w].add(put[w])).write(l) };
            put[w] += usize::from(o == w);
        }
    }
    put
}

/// [`route`] for two workers, with [`Owners::split_pow2`]: on processors with AVX2 (x86-64
/// since about 2013, chosen when it runs) four ranks at a time, each worker's ranks moved to
/// the front of a vector by a table of 16 shuffles and written whole (some 20 instructions
/// for four ranks, where one at a time takes some 20 a rank); the rest one at a time.
pub(super) fn route_two(ranks: &[u64], batches: &mut [Vec<u64>], owners: Owners) {
    let [a, b] = batches else {
        panic!("route_two routes to two workers");
    };
    assert_eq!(owners.peers, 2, "route_two routes to two workers");
    a.reserve(ranks.len());
    b.reserve(ranks.len());
    let (la, lb) = (a.len(), b.len());
    let (ra, rb) = (a.spare_capacity_mut(), b.spare_capacity_mut());
    #[allow(unused_mut)]
    let (mut done, mut na, mut nb) = (0, 0, 0);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has AVX2 and counts bits (just asked), and each room holds
        // all the ranks
        (done, na, nb) = unsafe { two_avx2(ranks, ra, rb, owners) };
    }
    let [pa, pb] = route_few(
        &ranks[done..],
        [&mut &mut ra[na..], &mut &mut rb[nb..]],
        move |r| owners.split_pow2(r, 1),
    );
    // SAFETY: the slots after each batch's length were written above, the first `na` and
    // `nb` by the four-at-a-time loop, the rest by `route_few`, within the capacity reserved
    unsafe {
        a.set_len(la + na + pa);
        b.set_len(lb + nb + pb);
    }
}

/// The four-at-a-time part of [`route_two`]: how many ranks it routed (a multiple of four),
/// and how many it wrote to each room.
///
/// # Safety
/// The processor has AVX2, and `ra` and `rb` hold `ranks.len()` slots each.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn two_avx2(
    ranks: &[u64],
    ra: &mut [std::mem::MaybeUninit<u64>],
    rb: &mut [std::mem::MaybeUninit<u64>],
    owners: Owners,
) -> (usize, usize, usize) {
    use crate::bits::COMPRESS;
    use std::arch::x86_64::*;
    assert!(ra.len() >= ranks.len() && rb.len() >= ranks.len());
    let low = owners.low_mask();
    let block = _mm_cvtsi64_si128(owners.block as i64);
    let one = _mm256_set1_epi64x(1);
    let vlow = _mm256_set1_epi64x(low as i64);
    let vhigh = _mm256_set1_epi64x(!low as i64);
    let (pa, pb) = (ra.as_mut_ptr().cast::<u64>(), rb.as_mut_ptr().cast::<u64>());
    let (mut na, mut nb) = (0usize, 0usize);
    let mut i = 0;
    while i + 4 <= ranks.len() {
        // SAFETY: the four ranks from `i` are in `ranks`; a room's count is at most `i`, so
        // the four slots written from it are within its `ranks.len()` (the slots past the
        // count are written over by the next ranks, or left past the length set)
        unsafe {
            let v = _mm256_loadu_si256(ranks.as_ptr().add(i).cast());
            let owner = _mm256_and_si256(_mm256_srl_epi64(v, block), one);
            let local = _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi64(v, 1), vhigh),
                _mm256_and_si256(v, vlow),
            );
            let m =
                _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(owner, one))) as usize;
            let to_b = _mm256_loadu_si256(COMPRESS[m].as_ptr().cast());
            let to_a = _mm256_loadu_si256(COMPRESS[m ^ 15].as_ptr().cast());
            _mm256_storeu_si256(pb.add(nb).cast(), _mm256_permutevar8x32_epi32(local, to_b));
            _mm256_storeu_si256(pa.add(na).cast(), _mm256_permutevar8x32_epi32(local, to_a));
            let k = m.count_ones() as usize;
            nb += k;
            na += 4 - k;
        }
        i += 4;
    }
    (i, na, nb)
}

/// The most workers whose batches each get room for a whole chunk's successors ([`route`]).
pub const ROOM_FOR_ALL: usize = 4;
