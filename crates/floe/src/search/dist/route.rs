//! Routing a chunk's successors to the batches of their owners, without a branch on the
//! owner.

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
    let mut put = [0usize; N];
    for &r in ranks {
        let (o, l) = owner(r);
        for w in 0..N {
            // a count is at most the ranks before this one, and each room holds them all
            room[w][put[w]].write(l);
            put[w] += usize::from(o == w);
        }
    }
    put
}

/// The most workers whose batches each get room for a whole chunk's successors ([`route`]).
pub const ROOM_FOR_ALL: usize = 4;
