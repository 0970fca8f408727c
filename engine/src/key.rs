//! 64-bit keys of positions, for the searches' transposition tables: the same on every
//! machine and every build (no random seed, no hasher whose algorithm may change), so that a
//! search that keys its table by them stays reproducible per seed.

use std::hash::{Hash, Hasher};

/// FxHash's multiply-rotate over the words a value's [`Hash`] writes: the key of a position
/// whose game has no faster one ([`crate::Game::position_key`]'s default).
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Fx {
    #[inline(always)]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The [`Fx`] key of any hashable value.
pub fn fx_key<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = Fx::default();
    v.hash(&mut h);
    h.finish()
}

/// SplitMix64's finaliser: distinct constants for the words of a key.
const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The constants the words of a key are mixed with (as many as [`words_key`] takes).
const K: [u64; 2 * MAX_WORDS + 2] = {
    let mut k = [0u64; 2 * MAX_WORDS + 2];
    let mut i = 0;
    while i < k.len() {
        k[i] = splitmix(i as u64 + 1);
        i += 1;
    }
    k
};

/// Most words [`words_key`] takes.
pub const MAX_WORDS: usize = 32;

/// The 128-bit product of two words folded to 64 bits (wyhash's mixer).
#[inline(always)]
fn fold_mul(a: u64, b: u64) -> u64 {
    let r = (a as u128) * (b as u128);
    (r as u64) ^ ((r >> 64) as u64)
}

/// A key of up to [`MAX_WORDS`] words (wyhash's way: each pair of words, each xored with its
/// own constant, multiplied to 128 bits and folded, the pairs summed, the sum mixed once
/// more). The pairs are independent, so the products run in parallel: a few nanoseconds for a
/// position of twenty words, where a chain of one multiplication per word takes several times
/// that.
#[inline]
pub fn words_key(w: &[u64]) -> u64 {
    assert!(w.len() <= MAX_WORDS, "a key of at most {MAX_WORDS} words");
    let mut h = 0u64;
    let mut pairs = w.chunks_exact(2);
    let mut i = 0;
    for p in &mut pairs {
        h = h.wrapping_add(fold_mul(p[0] ^ K[i], p[1] ^ K[i + 1]));
        i += 2;
    }
    if let [last] = pairs.remainder() {
        h = h.wrapping_add(fold_mul(last ^ K[i], K[i + 1]));
    }
    fold_mul(
        h ^ K[2 * MAX_WORDS],
        (w.len() as u64) ^ K[2 * MAX_WORDS + 1],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Keys of words that differ in one bit, or in the order of two words, all differ.
    #[test]
    fn keys_of_nearby_words_differ() {
        let base: Vec<u64> = (0..20).map(|i| i * 0x0101).collect();
        let mut seen = HashSet::new();
        assert!(seen.insert(words_key(&base)));
        for i in 0..base.len() {
            for bit in 0..64 {
                let mut w = base.clone();
                w[i] ^= 1 << bit;
                assert!(seen.insert(words_key(&w)), "word {i} bit {bit}");
            }
        }
        let mut swapped = base.clone();
        swapped.swap(0, 1);
        assert!(seen.insert(words_key(&swapped)));
        assert!(seen.insert(words_key(&base[..19])));
        assert_eq!(words_key(&base), words_key(&base.clone()));
    }
}
