//! The side of the fused random playout for tracks of at most 16 holes (boards of 6, 7 or 8
//! holes a row): one 16-byte vector register. A lap is a table lookup and one vector addition,
//! a side's moves two byte comparisons and a mask, the random choice a byte-wise select.

use super::playout::{SELECT_IN_BYTE, Track};
use super::rules::Rules;
use crate::notation::SIDE_CAP;
use crate::rng::Rng;
use wide::u8x16;

/// Longest track a [`ShortSide`] holds.
pub(crate) const SHORT: usize = 16;

/// `RUNS[(len - 12) / 2][from][r]`: one stone in each of the `r` holes after `from` on a track
/// of `len` holes (12, 14 or 16), wrapping past its end; `r` is at most `len` (the table is
/// wider so that a masked index needs no bounds check).
static RUNS: [[[[u8; SHORT]; 32]; SHORT]; 3] = {
    let mut t = [[[[0u8; SHORT]; 32]; SHORT]; 3];
    let mut l = 0;
    while l < 3 {
        let len = 12 + 2 * l;
        let mut from = 0;
        while from < len {
            let mut r = 1;
            while r <= len {
                let mut j = 1;
                while j <= r {
                    t[l][from][r][(from + j) % len] = 1;
                    j += 1;
                }
                r += 1;
            }
            from += 1;
        }
        l += 1;
    }
    t
};

/// `LAST[(len - 12) / 2][from][r]`: the hole the last of `r` stones sown from `from` falls in.
static LAST: [[[u8; 32]; SHORT]; 3] = {
    let mut t = [[[0u8; 32]; SHORT]; 3];
    let mut l = 0;
    while l < 3 {
        let len = 12 + 2 * l;
        let mut from = 0;
        while from < len {
            let mut r = 0;
            while r <= len {
                t[l][from][r] = ((from + r) % len) as u8;
                r += 1;
            }
            from += 1;
        }
        l += 1;
    }
    t
};

/// `KEEP[k]`: every byte set but byte `k` (a mask that empties hole `k`).
static KEEP: [[u8; SHORT]; SHORT] = {
    let mut t = [[0xFFu8; SHORT]; SHORT];
    let mut k = 0;
    while k < SHORT {
        t[k][k] = 0;
        k += 1;
    }
    t
};

/// `TRACK[(len - 12) / 2]`: every bit of the first `len` bytes set (the holes of the track).
static TRACK: [[u8; SHORT]; 3] = {
    let mut t = [[0u8; SHORT]; 3];
    let mut l = 0;
    while l < 3 {
        let mut k = 0;
        while k < 12 + 2 * l {
            t[l][k] = 0xFF;
            k += 1;
        }
        l += 1;
    }
    t
};

/// A side of at most 16 holes in a vector register.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct ShortSide(u8x16);

/// What a lap on a short track needs of the rules, looked up once.
pub(super) struct ShortLaps {
    runs: &'static [[[u8; SHORT]; 32]; SHORT],
    lasts: &'static [[u8; 32]; SHORT],
    track: u8x16,
    round: usize,
    skip_origin: bool,
}

impl Track for ShortSide {
    type Laps = ShortLaps;

    #[inline(always)]
    fn laps(r: &Rules) -> ShortLaps {
        let len = r.len;
        debug_assert!(len <= SHORT && len.is_multiple_of(2) && len >= 12);
        let t = (len - 12) / 2;
        ShortLaps {
            runs: &RUNS[t],
            lasts: &LAST[t],
            track: u8x16::new(TRACK[t]),
            round: if r.skip_origin { len - 1 } else { len },
            skip_origin: r.skip_origin,
        }
    }

    #[inline(always)]
    fn load(pits: &[u8; SIDE_CAP]) -> Self {
        let mut b = [0u8; SHORT];
        b.copy_from_slice(&pits[..SHORT]);
        ShortSide(u8x16::new(b))
    }

    #[inline(always)]
    fn store(&self, pits: &mut [u8; SIDE_CAP]) {
        pits[..SHORT].copy_from_slice(self.0.as_array());
    }

    #[inline(always)]
    fn get(&self, k: usize) -> u8 {
        self.0.as_array()[k & (SHORT - 1)]
    }

    #[inline(always)]
    fn take(&mut self, k: usize) -> u8 {
        let v = self.get(k);
        self.0 &= u8x16::new(KEEP[k & (SHORT - 1)]);
        v
    }

    #[inline(always)]
    fn occupied(&self) -> u64 {
        let empty = self.0.simd_eq(u8x16::splat(0)).to_bitmask() as u64;
        !empty & 0xFFFF
    }

    #[inline(always)]
    fn multi(&self) -> u64 {
        ShortSide(self.0.saturating_sub(u8x16::splat(1))).occupied()
    }

    #[inline(always)]
    fn lap(&mut self, l: &ShortLaps, from: usize, count: usize) -> usize {
        let mut left = count;
        if left > l.round {
            // Whole rounds at once (the origin, when skipped, gets none).
            let q = (left - 1) / l.round;
            let mut add = l.track & u8x16::splat(q as u8);
            if l.skip_origin {
                add &= u8x16::new(KEEP[from & (SHORT - 1)]);
            }
            self.0 += add;
            left -= q * l.round;
        }
        let (from, left) = (from & (SHORT - 1), left & 31);
        self.0 += u8x16::new(l.runs[from][left]);
        l.lasts[from][left] as usize
    }

    #[inline(always)]
    fn pick(m: u64, rng: &mut Rng) -> usize {
        pick16(m, rng)
    }
}

/// The `i`-th set bit of the 16-bit mask `m` (`i` below its population), without branches.
#[inline(always)]
fn select16(m: u64, i: u32) -> usize {
    let low = (m & 0xFF) as u32;
    let c0 = low.count_ones();
    let high = (i >= c0) as u32;
    let byte = ((m >> (8 * high)) & 0xFF) as usize;
    let j = (i - (c0 & high.wrapping_neg())) as usize;
    8 * high as usize + SELECT_IN_BYTE[(byte << 3 | j) & 0x7FF] as usize
}

/// A uniform random member of the non-empty 16-bit set `m`: the same draw as
/// [`pick`](super::playout::pick).
#[inline(always)]
fn pick16(m: u64, rng: &mut Rng) -> usize {
    select16(m, rng.below(m.count_ones() as usize) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select16_finds_each_set_bit() {
        for m in [1u64, 0x8000, 0xFFFF, 0x0100, 0x80FF, 0x5A3C, 0xF00F] {
            let bits: Vec<usize> = (0..16).filter(|b| m >> b & 1 == 1).collect();
            for (i, &b) in bits.iter().enumerate() {
                assert_eq!(select16(m, i as u32), b, "{m:#x} {i}");
            }
        }
    }

    #[test]
    fn runs_wrap_within_the_track() {
        for (table, len) in RUNS.iter().zip([12usize, 14, 16]) {
            for (from, runs) in table.iter().enumerate().take(len) {
                for (r, run) in runs.iter().enumerate().take(len + 1).skip(1) {
                    let mut expect: Vec<usize> = (1..=r).map(|j| (from + j) % len).collect();
                    expect.sort();
                    let got: Vec<usize> = (0..SHORT).filter(|&k| run[k] == 1).collect();
                    assert_eq!(got, expect, "len {len} from {from} r {r}");
                    assert_eq!(run.iter().map(|&v| v as usize).sum::<usize>(), r);
                }
            }
        }
    }

    #[test]
    fn side_masks_and_takes() {
        let mut pits = [0u8; 48];
        for (k, v) in pits.iter_mut().enumerate().take(16) {
            *v = (k % 4) as u8 * 70;
        }
        let mut side = ShortSide::load(&pits);
        let (occ, multi) = (side.occupied(), side.multi());
        for (k, &v) in pits.iter().enumerate().take(16) {
            assert_eq!(occ >> k & 1 == 1, v > 0, "{k}");
            assert_eq!(multi >> k & 1 == 1, v > 1, "{k}");
        }
        assert_eq!(side.take(3), 210);
        assert_eq!(side.get(3), 0);
        assert_eq!(side.get(2), 140);
        let mut back = [0u8; 48];
        side.store(&mut back);
        pits[3] = 0;
        assert_eq!(pits, back);
    }
}
