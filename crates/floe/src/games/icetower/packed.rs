//! Positions packed where many are kept: one field after another in 64-bit words
//! ([`Puzzle::pack`](crate::search::Puzzle::pack) of the engine).

/// Where the parts of a packed position lie, in bits: the regular blocks (one bit per open
/// cell), the golden blocks (their open cells in increasing order, `width` bits each; they
/// never vanish, so there are always `golden` of them), the fires still burning (one bit
/// each), the magician's open cell (`width` bits) and the bound (8 bits).
#[derive(Clone, Copy, Debug)]
pub(super) struct Packing {
    pub(super) open: usize,
    pub(super) golden: usize,
    pub(super) width: usize,
    pub(super) fires: usize,
}

impl Packing {
    pub(super) fn bits(&self) -> usize {
        self.open + self.golden * self.width + self.fires + self.width + 8
    }
}

/// Most 64-bit words of a packed position: 320 open cells, 5 golden blocks of 9 bits, 64
/// fires, the magician and the bound fit in 7.
pub(super) const PACKED_WORDS: usize = 8;

/// Bits written one field after another into words.
pub(super) struct BitWriter {
    pub(super) words: [u64; PACKED_WORDS],
    pub(super) at: usize,
}

impl BitWriter {
    #[inline]
    pub(super) fn put(&mut self, width: usize, v: u64) {
        if width == 0 {
            return;
        }
        let (k, o) = (self.at / 64, self.at % 64);
        self.words[k] |= v << o;
        if o + width > 64 {
            self.words[k + 1] |= v >> (64 - o);
        }
        self.at += width;
    }
}

/// Fields read one after another from words.
pub(super) struct BitReader {
    pub(super) words: [u64; PACKED_WORDS],
    pub(super) at: usize,
}

impl BitReader {
    #[inline]
    pub(super) fn get(&mut self, width: usize) -> u64 {
        if width == 0 {
            return 0;
        }
        let (k, o) = (self.at / 64, self.at % 64);
        let mut v = self.words[k] >> o;
        if o + width > 64 {
            v |= self.words[k + 1] << (64 - o);
        }
        self.at += width;
        if width == 64 {
            v
        } else {
            v & ((1u64 << width) - 1)
        }
    }
}
