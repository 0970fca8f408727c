//! The fused random playout's inner loop: ordinary turns played on copies of the two sides
//! held in registers or padded arrays ([`Track`]), with the hot fields of the state in locals.
//! It plays exactly the turns that [`SowingGame::apply_unchecked`] would play for the same
//! random numbers, and hands back to the general code for anything else (openings,
//! nominations, relay choices, passes). Boards of 6 to 8 holes a row use a vector register a
//! side ([`ShortSide`](super::short_track::ShortSide)); larger boards the word-wise [`Side`]
//! here, where a lap is one or two 64-bit additions.

use super::config::{BackCapture, Endless, HeadLanding, Resow};
use super::game::{Brent, SowingGame, WATCH_AFTER, finish, nonzero_bytes};
use super::rules::Rules;
use super::short_track::{SHORT, ShortSide};
use super::state::{Open, Pending, SowingState};
use crate::notation::SIDE_CAP;
use crate::outcome::EndReason;
use crate::player::Player;
use crate::rng::Rng;

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
pub(super) fn pick(m: u64, rng: &mut Rng) -> usize {
    let n = (byte_prefix_counts(m) >> 56) as usize;
    select(m, rng.below(n) as u32)
}

/// A side of the board as the fused loop holds it.
pub(super) trait Track: Copy + PartialEq {
    /// What a lap needs of the rules, looked up once per loop.
    type Laps;
    fn laps(r: &Rules) -> Self::Laps;
    fn load(pits: &[u8; SIDE_CAP]) -> Self;
    fn store(&self, pits: &mut [u8; SIDE_CAP]);
    /// Stones in hole `k`.
    fn get(&self, k: usize) -> u8;
    /// Empties hole `k`; returns its stones.
    fn take(&mut self, k: usize) -> u8;
    /// Holes holding a stone (bits of track indices).
    fn occupied(&self) -> u64;
    /// Holes holding more than one stone.
    fn multi(&self) -> u64;
    /// Both at once.
    #[inline(always)]
    fn occupied_and_multi(&self) -> (u64, u64) {
        (self.occupied(), self.multi())
    }
    /// Drops `count` stones one by one into the holes after `from` (as `sow_lap`); returns the
    /// last hole.
    fn lap(&mut self, laps: &Self::Laps, from: usize, count: usize) -> usize;
    /// A uniform random member of the non-empty set `m`: the draw of [`pick`].
    fn pick(m: u64, rng: &mut Rng) -> usize;
}

/// What a word-wise lap needs of the rules.
pub(super) struct WordLaps {
    len: usize,
    skip_origin: bool,
}

impl<const W: usize> Track for Side<W> {
    type Laps = WordLaps;

    #[inline(always)]
    fn laps(r: &Rules) -> WordLaps {
        WordLaps {
            len: r.len,
            skip_origin: r.skip_origin,
        }
    }

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

    #[inline(always)]
    fn get(&self, k: usize) -> u8 {
        self.0[k & 63]
    }

    #[inline(always)]
    fn take(&mut self, k: usize) -> u8 {
        std::mem::take(&mut self.0[k & 63])
    }

    #[inline(always)]
    fn occupied(&self) -> u64 {
        self.occupied_multi().0
    }

    #[inline(always)]
    fn multi(&self) -> u64 {
        self.occupied_multi().1
    }

    #[inline(always)]
    fn occupied_and_multi(&self) -> (u64, u64) {
        self.occupied_multi()
    }

    #[inline(always)]
    fn lap(&mut self, l: &WordLaps, from: usize, count: usize) -> usize {
        let len = l.len;
        let round = if l.skip_origin { len - 1 } else { len };
        let mut left = count;
        if left > round {
            // Whole rounds at once (the origin, when skipped, gets none).
            let q = (left - 1) / round;
            self.add_all(q as u8, len);
            if l.skip_origin {
                self.0[from & 63] -= q as u8;
            }
            left -= q * round;
        }
        // Then at most a round: after `from` to the end of the track, and on from its start.
        let first = left.min(len - 1 - from);
        self.add_range(from + 1, first);
        if left > first {
            self.add_range(0, left - first);
        }
        if from + left < len {
            from + left
        } else {
            from + left - len
        }
    }

    #[inline(always)]
    fn pick(m: u64, rng: &mut Rng) -> usize {
        pick(m, rng)
    }
}

impl SowingGame {
    /// Plays ordinary random turns while the position allows (the player to move is in ordinary
    /// play, at the start of a turn, with a move). Leaves `s` at the first point the general
    /// code must take over, or at the end of the game.
    pub(crate) fn fast_turns(&self, s: &mut SowingState, rng: &mut Rng) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the features the function is compiled for.
            unsafe { self.fast_turns_popcnt(s, rng) };
            return;
        }
        self.fast_turns_on(s, rng)
    }

    /// The loop compiled with the population-count instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn fast_turns_popcnt(&self, s: &mut SowingState, rng: &mut Rng) {
        self.fast_turns_on(s, rng)
    }

    #[inline(always)]
    fn fast_turns_on(&self, s: &mut SowingState, rng: &mut Rng) {
        let len = self.rules().len;
        if len <= SHORT {
            self.fused_turns::<ShortSide>(s, rng)
        } else if len <= 32 {
            self.fused_turns::<Side<4>>(s, rng)
        } else {
            self.fused_turns::<Side<6>>(s, rng)
        }
    }

    /// The loop itself, on sides of type `S`. The hot fields of the state live in locals (`me`,
    /// `mine`, `theirs`, `moves`, `turns`, `mask`, the generator) and are written back (`sync!`)
    /// before anything that reads `s` or ends the loop.
    #[inline(always)]
    fn fused_turns<S: Track>(&self, s: &mut SowingState, rng: &mut Rng) {
        if !(s.outcome.is_none() && s.mask != 0 && s.pending == Pending::Start) {
            return;
        }
        let r = self.rules();
        let n = r.n as usize;
        let laps_of = S::laps(r);
        let (move_limit, turn_limit) = (r.end.move_limit, r.end.turn_limit);
        let mut g = rng.clone();
        let mut me = s.to_move.index();
        let mut mine = S::load(&s.pits[me]);
        let mut theirs = S::load(&s.pits[1 - me]);
        let (mut moves, mut turns, mut mask) = (s.moves, s.turns, s.mask);
        let heads = s.heads;
        // Players still nominating heads or in an opening: their turns start in the general code.
        let special =
            |s: &SowingState| [0, 1].map(|q| s.nominations_left[q] > 0 || s.open[q] != Open::Done);
        let mut special_now = special(s);
        s.passes = 0;
        macro_rules! sync {
            () => {
                s.moves = moves;
                s.turns = turns;
                s.mask = mask;
                s.to_move = Player::BOTH[me];
                mine.store(&mut s.pits[me]);
                theirs.store(&mut s.pits[1 - me]);
            };
        }
        'turns: loop {
            // Here the game goes on, `me` is to move at the start of a turn and has moves.
            let k = S::pick(mask, &mut g);
            let p = Player::BOTH[me];
            let opp = 1 - me;
            let mut from = k;
            let mut count = mine.take(k) as usize;
            let single = count == 1;
            let mut laps: u32 = 0;
            let mut brent: Option<Box<Brent<S>>> = None;
            // The turn: laps, then perhaps a capture; `break` ends it as usual.
            loop {
                let last = mine.lap(&laps_of, from, count);
                moves += 1;
                let here = mine.get(last);
                if here > 1 {
                    if !r.relay {
                        break;
                    }
                    if heads[me] >> last & 1 == 1 {
                        match r.head_landing {
                            HeadLanding::Choose => {
                                sync!();
                                s.pending = Pending::Relay {
                                    pos: last as u8,
                                    capture: true,
                                };
                                if moves >= move_limit {
                                    finish(s, None, EndReason::MoveLimit);
                                }
                                break 'turns;
                            }
                            HeadLanding::Stop => break,
                            HeadLanding::Relay => {}
                        }
                    }
                    if moves >= move_limit {
                        turns += 1;
                        sync!();
                        finish(s, None, EndReason::MoveLimit);
                        break 'turns;
                    }
                    laps += 1;
                    if laps >= WATCH_AFTER
                        && brent
                            .get_or_insert_with(|| Box::new(Brent::new()))
                            .repeats(&mine, last)
                    {
                        turns += 1;
                        let why = match r.endless {
                            Endless::Draw => EndReason::EndlessSowing,
                            Endless::MoveLimit => {
                                moves = moves.max(move_limit);
                                EndReason::MoveLimit
                            }
                        };
                        sync!();
                        finish(s, None, why);
                        break 'turns;
                    }
                    from = last;
                    count = mine.take(last) as usize;
                    continue;
                }
                // The last stone fell into an empty hole: a capture from the front row? One
                // branch for the whole decision (for a back-row `last` the opposite holes read
                // are meaningless but harmless).
                let (of, ob) = ((3 * n - 1).wrapping_sub(last), last.wrapping_sub(n));
                let front = theirs.get(of);
                let back = theirs.get(ob);
                let captures = (last >= n) as u32
                    & (!single | r.singles.capture) as u32
                    & (front != 0) as u32
                    & ((r.back != BackCapture::RequireBoth) | (back != 0)) as u32;
                if std::hint::black_box(captures) == 0 {
                    break;
                }
                let mut taken = theirs.take(of);
                if r.back != BackCapture::Never {
                    taken += theirs.take(ob);
                }
                s.stones[opp] -= taken as u16;
                s.captured[me] += taken as u16;
                s.captures_made[me] += 1;
                if s.stones[opp] == 0 {
                    turns += 1;
                    sync!();
                    finish(s, Some(p), EndReason::NoStones);
                    break 'turns;
                }
                match r.resow {
                    Resow::Off => {}
                    Resow::Continue => {
                        s.captured[me] -= taken as u16;
                        s.stones[me] += taken as u16;
                        from = last;
                        count = taken as usize;
                        laps = 0;
                        brent = None;
                        continue;
                    }
                    Resow::EndTurn => {
                        s.captured[me] -= taken as u16;
                        s.stones[me] += taken as u16;
                        mine.lap(&laps_of, last, taken as usize);
                        break;
                    }
                }
                // Additional takes, drawn as the general code draws them.
                let mut left = r.takes_for(s.captures_made[me]);
                if left > 0 {
                    s.to_move = p;
                    while left > 0 {
                        let m = self.takes_from(s, theirs.occupied());
                        if m == 0 {
                            break;
                        }
                        s.pending = Pending::Takes { left };
                        if moves >= move_limit {
                            sync!();
                            finish(s, None, EndReason::MoveLimit);
                            break 'turns;
                        }
                        let taken = theirs.take(S::pick(m, &mut g));
                        s.stones[opp] -= taken as u16;
                        s.captured[me] += taken as u16;
                        moves += 1;
                        if s.stones[opp] == 0 {
                            turns += 1;
                            sync!();
                            finish(s, Some(p), EndReason::NoStones);
                            break 'turns;
                        }
                        left -= 1;
                    }
                    s.pending = Pending::Start;
                }
                break;
            }
            // The end of the turn, and the start of the next one.
            turns += 1;
            me = opp;
            std::mem::swap(&mut mine, &mut theirs);
            if turns >= turn_limit {
                sync!();
                finish(s, None, EndReason::TurnLimit);
                break;
            }
            if s.stones[me] == 0 {
                sync!();
                finish(s, Some(p), EndReason::NoStones);
                break;
            }
            if special_now[me] {
                sync!();
                self.begin_turn(s);
                if s.outcome.is_none() && s.moves >= move_limit {
                    finish(s, None, EndReason::MoveLimit);
                }
                if s.outcome.is_some() || s.mask == 0 || s.pending != Pending::Start {
                    break;
                }
                mask = s.mask;
                special_now = special(s);
                continue;
            }
            mask = {
                let (occupied, multi) = mine.occupied_and_multi();
                self.moves_from(occupied, multi)
            };
            if mask == 0 {
                sync!();
                self.no_moves(s);
                if s.outcome.is_none() && s.moves >= move_limit {
                    finish(s, None, EndReason::MoveLimit);
                }
                break;
            }
            if moves >= move_limit {
                sync!();
                finish(s, None, EndReason::MoveLimit);
                break;
            }
        }
        *rng = g;
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
