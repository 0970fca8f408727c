//! The fused random playout's inner loop: ordinary turns played on a padded copy of the two
//! sides (one byte per hole), where a lap is one or two 64-bit additions, the moves of a side a
//! few word operations and the random choice among them a branch-free select. It plays exactly
//! the turns that [`SowingGame::apply_unchecked`] would play for the same random numbers, and
//! hands back to the general code for anything else (openings, nominations, relay choices,
//! passes).

use super::config::{BackCapture, Endless, HeadLanding, Resow};
use super::game::{Brent, SowingGame, WATCH_AFTER, finish, nonzero_bytes};
use super::short_track::SHORT;
use super::state::{Open, Pending, SowingState};
use crate::notation::SIDE_CAP;
use crate::outcome::EndReason;

/// One side of the board: hole `k` is byte `k`, with room after the last hole for a whole
/// word; `W` words of 8 holes cover the track.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(8))]
struct Side<const W: usize>([u8; 64]);

/// `RUNS[c]`: the low `c` bytes set to one.
const RUNS: [u64; 9] = {
    let mut t = [0u64; 9];
    let mut c = 1;
    while c <= 8 {
        t[c] = t[c - 1] | 1u64 << (8 * (c - 1));
        c += 1;
    }
    t
};

impl<const W: usize> Side<W> {
    #[inline(always)]
    fn load(pits: &[u8; SIDE_CAP]) -> Self {
        let mut b = [0u8; 64];
        b[..SIDE_CAP].copy_from_slice(pits);
        Side(b)
    }

    #[inline(always)]
    fn store(&self, pits: &mut [u8; SIDE_CAP]) {
        pits.copy_from_slice(&self.0[..SIDE_CAP]);
    }

    /// The 8 holes from `i` as a word (little-endian).
    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        let i = i.min(56);
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.0[i..i + 8]);
        u64::from_le_bytes(b)
    }

    #[inline(always)]
    fn set_word(&mut self, i: usize, w: u64) {
        let i = i.min(56);
        self.0[i..i + 8].copy_from_slice(&w.to_le_bytes());
    }

    #[inline(always)]
    fn get(&self, k: usize) -> u8 {
        self.0[k & 63]
    }

    #[inline(always)]
    fn take(&mut self, k: usize) -> u8 {
        std::mem::take(&mut self.0[k & 63])
    }

    /// One stone into each of the `cnt` holes from `start` (no wrap: `start + cnt <= len`).
    #[inline(always)]
    fn add_range(&mut self, start: usize, cnt: usize) {
        let (mut at, mut cnt) = (start, cnt);
        loop {
            let c = cnt.min(8);
            let w = self.word(at).wrapping_add(RUNS[c]);
            self.set_word(at, w);
            if cnt <= 8 {
                return;
            }
            at += 8;
            cnt -= 8;
        }
    }

    /// `q` stones into each of the first `len` holes.
    #[inline(always)]
    fn add_all(&mut self, q: u8, len: usize) {
        for j in 0..W {
            let c = len.saturating_sub(8 * j).min(8);
            let w = self.word(8 * j).wrapping_add(RUNS[c] * q as u64);
            self.set_word(8 * j, w);
        }
    }

    /// Holes holding a stone, and holes holding more than one (bits of track indices).
    #[inline(always)]
    fn occupied_multi(&self) -> (u64, u64) {
        let (mut occ, mut multi) = (0u64, 0u64);
        for j in 0..W {
            let w = self.word(8 * j);
            occ |= nonzero_bytes(w) << (8 * j);
            multi |= nonzero_bytes(w & 0xFEFE_FEFE_FEFE_FEFE) << (8 * j);
        }
        (occ, multi)
    }
}

/// The `i`-th set bit of `m` (`i` below its population), without branches: byte counts by
/// broadword arithmetic, then a table for the bit within the byte.
#[inline(always)]
fn select(m: u64, i: u32) -> usize {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    let prefix = byte_prefix_counts(m);
    // Bytes whose cumulative count is at most i lie below the byte holding the bit.
    let below = ((((i as u64 * L8) | H8) - prefix) & H8) >> 7;
    let byte = (below.wrapping_mul(L8) >> 56) as u32 * 8;
    let before = ((prefix << 8) >> byte) & 0xFF;
    let bits = (m >> byte) & 0xFF;
    byte as usize + SELECT_IN_BYTE[(bits as usize) << 3 | (i as u64 - before) as usize] as usize
}

/// Byte `j` of the result: set bits of `m` in bytes `0..=j`.
#[inline(always)]
fn byte_prefix_counts(m: u64) -> u64 {
    let s = m - ((m >> 1) & 0x5555_5555_5555_5555);
    let s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    ((s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(0x0101_0101_0101_0101)
}

/// `SELECT_IN_BYTE[b << 3 | i]`: the position of the `i`-th set bit of byte `b`.
pub(super) static SELECT_IN_BYTE: [u8; 2048] = {
    let mut t = [0u8; 2048];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b << 3 | i] = bit as u8;
                i += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// A uniform random member of the non-empty set `m` (bits of track indices): `below` the
/// population, then the set bit of that rank.
#[inline(always)]
pub(super) fn pick(m: u64, rng: &mut crate::rng::Rng) -> usize {
    let n = (byte_prefix_counts(m) >> 56) as usize;
    select(m, rng.below(n) as u32)
}

impl SowingGame {
    /// Plays ordinary random turns while the position allows (the player to move is in ordinary
    /// play, at the start of a turn, with a move). Leaves `s` at the first point the general
    /// code must take over, or at the end of the game.
    pub(crate) fn fast_turns(&self, s: &mut SowingState, rng: &mut crate::rng::Rng) {
        let len = self.rules().len;
        if len <= SHORT {
            self.short_turns(s, rng)
        } else if len <= 32 {
            self.fast_turns_k::<4>(s, rng)
        } else {
            self.fast_turns_k::<6>(s, rng)
        }
    }

    #[inline(always)]
    fn fast_turns_k<const K: usize>(&self, s: &mut SowingState, rng: &mut crate::rng::Rng) {
        let mut sides = [Side::<K>::load(&s.pits[0]), Side::<K>::load(&s.pits[1])];
        self.turns_on(s, &mut sides, rng);
        sides[0].store(&mut s.pits[0]);
        sides[1].store(&mut s.pits[1]);
    }

    /// The loop itself, on `sides` (which `s.pits` does not follow until the loop returns).
    fn turns_on<const K: usize>(
        &self,
        s: &mut SowingState,
        sides: &mut [Side<K>; 2],
        rng: &mut crate::rng::Rng,
    ) {
        let r = self.rules();
        let n = r.n as usize;
        while s.outcome.is_none() && s.mask != 0 && s.pending == Pending::Start {
            let k = pick(s.mask, rng);
            let p = s.to_move;
            let me = p.index();
            let opp = 1 - me;
            s.passes = 0;
            let mut from = k;
            let mut count = sides[me].take(k) as usize;
            let single = count == 1;
            let mut laps: u32 = 0;
            let mut brent: Option<Box<Brent<Side<K>>>> = None;
            // The turn: laps, then perhaps a capture.
            let end_turn = loop {
                let side = &mut sides[me];
                let last = self.lap(side, from, count);
                s.moves += 1;
                if side.get(last) > 1 {
                    if !r.relay {
                        break true;
                    }
                    if s.heads[me] >> last & 1 == 1 {
                        match r.head_landing {
                            HeadLanding::Choose => {
                                s.pending = Pending::Relay {
                                    pos: last as u8,
                                    capture: true,
                                };
                                break false;
                            }
                            HeadLanding::Stop => break true,
                            HeadLanding::Relay => {}
                        }
                    }
                    if s.moves >= r.end.move_limit {
                        s.turns += 1;
                        finish(s, None, EndReason::MoveLimit);
                        break false;
                    }
                    laps += 1;
                    if laps >= WATCH_AFTER
                        && brent
                            .get_or_insert_with(|| Box::new(Brent::new()))
                            .repeats(side, last)
                    {
                        s.turns += 1;
                        match r.endless {
                            Endless::Draw => finish(s, None, EndReason::EndlessSowing),
                            Endless::MoveLimit => {
                                s.moves = s.moves.max(r.end.move_limit);
                                finish(s, None, EndReason::MoveLimit);
                            }
                        }
                        break false;
                    }
                    from = last;
                    count = side.take(last) as usize;
                    continue;
                }
                // The last stone fell into an empty hole: a capture from the front row?
                // One branch for the whole decision (the holes opposite a back-row hole are
                // read too, harmlessly, from the padding or elsewhere on the side). The
                // `black_box` keeps the compiler from splitting it back into one branch per
                // condition: under cachegrind this takes a third off the mispredictions.
                let (of, ob) = ((3 * n - 1).wrapping_sub(last), last.wrapping_sub(n));
                let front = sides[opp].get(of);
                let back = sides[opp].get(ob);
                let captures = (last >= n) as u32
                    & (!single | r.singles.capture) as u32
                    & (front != 0) as u32
                    & ((r.back != BackCapture::RequireBoth) | (back != 0)) as u32;
                if std::hint::black_box(captures) == 0 {
                    break true;
                }
                // The back hole goes with the front one (when the rules say so), without a
                // branch on its count: taking an empty hole takes nothing.
                let mut taken = sides[opp].take(of);
                if r.back != BackCapture::Never {
                    taken += sides[opp].take(ob);
                }
                s.stones[opp] -= taken as u16;
                s.captured[me] += taken as u16;
                s.captures_made[me] += 1;
                if s.stones[opp] == 0 {
                    s.turns += 1;
                    finish(s, Some(p), EndReason::NoStones);
                    break false;
                }
                match r.resow {
                    Resow::Off => {}
                    Resow::Continue => {
                        s.resow_taken(me, taken as u16);
                        from = last;
                        count = taken as usize;
                        laps = 0;
                        brent = None;
                        continue;
                    }
                    Resow::EndTurn => {
                        s.resow_taken(me, taken as u16);
                        self.lap(&mut sides[me], last, taken as usize);
                        break true;
                    }
                }
                // Additional takes, drawn as the general code draws them (one action each,
                // with the move limit checked before each).
                let mut left = r.takes_for(s.captures_made[me]);
                while left > 0 {
                    let mask = self.take_mask_on(s, &sides[opp]);
                    if mask == 0 {
                        break;
                    }
                    s.pending = Pending::Takes { left };
                    if s.moves >= r.end.move_limit {
                        finish(s, None, EndReason::MoveLimit);
                        break;
                    }
                    let taken = sides[opp].take(pick(mask, rng));
                    s.stones[opp] -= taken as u16;
                    s.captured[me] += taken as u16;
                    s.moves += 1;
                    if s.stones[opp] == 0 {
                        s.turns += 1;
                        finish(s, Some(p), EndReason::NoStones);
                        break;
                    }
                    left -= 1;
                }
                if s.outcome.is_some() {
                    break false;
                }
                s.pending = Pending::Start;
                break true;
            };
            if !end_turn {
                if s.outcome.is_none() && s.moves >= r.end.move_limit {
                    finish(s, None, EndReason::MoveLimit);
                }
                break;
            }
            // The end of the turn, and the start of the next one.
            s.turns += 1;
            s.to_move = p.other();
            if s.turns >= r.end.turn_limit {
                finish(s, None, EndReason::TurnLimit);
                break;
            }
            if s.stones[opp] == 0 {
                finish(s, Some(p), EndReason::NoStones);
                break;
            }
            if s.nominations_left[opp] > 0 || s.open[opp] != Open::Done {
                sides[0].store(&mut s.pits[0]);
                sides[1].store(&mut s.pits[1]);
                self.begin_turn(s);
            } else {
                s.mask = self.mask_of(&sides[opp]);
                if s.mask == 0 {
                    self.no_moves(s);
                }
            }
            if s.outcome.is_none() && s.moves >= r.end.move_limit {
                finish(s, None, EndReason::MoveLimit);
            }
        }
    }

    /// Drops `count` stones one by one into the holes after `from` (as `sow_lap`); returns the
    /// last hole.
    #[inline(always)]
    fn lap<const K: usize>(&self, side: &mut Side<K>, from: usize, count: usize) -> usize {
        let r = self.rules();
        let len = r.len;
        let round = if r.skip_origin { len - 1 } else { len };
        let mut left = count;
        if left > round {
            // Whole rounds at once (the origin, when skipped, gets none).
            let q = (left - 1) / round;
            side.add_all(q as u8, len);
            if r.skip_origin {
                side.0[from & 63] -= q as u8;
            }
            left -= q * round;
        }
        // Then at most a round: after `from` to the end of the track, and on from its start.
        let first = left.min(len - 1 - from);
        side.add_range(from + 1, first);
        if left > first {
            side.add_range(0, left - first);
        }
        if from + left < len {
            from + left
        } else {
            from + left - len
        }
    }

    /// The holes of the opponent's `side` an additional take may empty (as `take_mask`).
    #[inline(always)]
    fn take_mask_on<const W: usize>(&self, s: &SowingState, side: &Side<W>) -> u64 {
        self.takes_from(s, side.occupied_multi().0)
    }

    /// The ordinary sowing moves of a side (as `sow_mask_of`).
    #[inline(always)]
    fn mask_of<const W: usize>(&self, side: &Side<W>) -> u64 {
        let (occupied, multi) = side.occupied_multi();
        self.moves_from(occupied, multi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_each_set_bit() {
        for m in [
            1u64,
            0x8000_0000_0000_0000,
            0xFFFF,
            0x0102_0300_F004_0501,
            u64::MAX,
        ] {
            let bits: Vec<usize> = (0..64).filter(|b| m >> b & 1 == 1).collect();
            assert_eq!((byte_prefix_counts(m) >> 56) as usize, bits.len());
            for (i, &b) in bits.iter().enumerate() {
                assert_eq!(select(m, i as u32), b, "{m:#x} {i}");
            }
        }
    }

    #[test]
    fn sides_round_trip_and_masks() {
        let mut pits = [0u8; SIDE_CAP];
        for (k, v) in pits.iter_mut().enumerate().take(42) {
            *v = (k % 4) as u8;
        }
        let side = Side::<6>::load(&pits);
        let mut back = [0u8; SIDE_CAP];
        side.store(&mut back);
        assert_eq!(pits, back);
        let (occ, multi) = side.occupied_multi();
        for (k, &v) in pits.iter().enumerate().take(42) {
            assert_eq!(occ >> k & 1 == 1, v > 0);
            assert_eq!(multi >> k & 1 == 1, v > 1);
            assert_eq!(side.get(k), v);
        }
    }
}
