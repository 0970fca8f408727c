//! The fused random playout for tracks of at most 16 holes (boards of 6, 7 or 8 holes a row):
//! each side lives in one 16-byte vector register for the whole loop. A lap is a table lookup
//! and one vector addition, a side's moves two byte comparisons and a mask, the random choice a
//! byte-wise select. It plays exactly the turns of the word-wise loop in
//! [`playout`](super::playout) (and so of [`SowingGame::apply_unchecked`]) for the same random
//! numbers, and hands back to the general code at the same points.

use super::config::{BackCapture, Endless, HeadLanding, Resow};
use super::game::{Brent, SowingGame, WATCH_AFTER, finish};
use super::playout::SELECT_IN_BYTE;
use super::state::{Open, Pending, SowingState};
use crate::outcome::EndReason;
use crate::player::Player;
use crate::rng::Rng;
use wide::u8x16;

/// Longest track the kernel plays.
pub(super) const SHORT: usize = 16;

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
struct Side(u8x16);

impl Side {
    #[inline(always)]
    fn load(pits: &[u8]) -> Side {
        let mut b = [0u8; SHORT];
        b.copy_from_slice(&pits[..SHORT]);
        Side(u8x16::new(b))
    }

    #[inline(always)]
    fn store(self, pits: &mut [u8]) {
        pits[..SHORT].copy_from_slice(self.0.as_array());
    }

    /// Stones in hole `k` (below 16).
    #[inline(always)]
    fn get(self, k: usize) -> u8 {
        self.0.as_array()[k & (SHORT - 1)]
    }

    /// Empties hole `k` (below 16); returns its stones.
    #[inline(always)]
    fn take(&mut self, k: usize) -> u8 {
        let v = self.get(k);
        self.0 &= u8x16::new(KEEP[k & (SHORT - 1)]);
        v
    }

    /// Adds `b[k]` stones to each hole `k` (no hole overflows: a board holds at most 255).
    #[inline(always)]
    fn add(&mut self, b: u8x16) {
        self.0 += b;
    }

    /// Holes holding a stone (bits of track indices; bits at and past the track's end are
    /// clear, as the padding holds nothing).
    #[inline(always)]
    fn occupied(self) -> u64 {
        let empty = self.0.simd_eq(u8x16::splat(0)).to_bitmask() as u64;
        !empty & 0xFFFF
    }

    /// Holes holding more than one stone.
    #[inline(always)]
    fn multi(self) -> u64 {
        Side(self.0.saturating_sub(u8x16::splat(1))).occupied()
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

impl SowingGame {
    /// Plays ordinary random turns on a track of at most 16 holes, as
    /// [`fast_turns`](Self::fast_turns) does; picks the build of the loop for this processor.
    pub(super) fn short_turns(&self, s: &mut SowingState, rng: &mut Rng) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the features the function is compiled for.
            unsafe { self.short_turns_popcnt(s, rng) };
            return;
        }
        self.short_turns_on(s, rng)
    }

    /// The loop compiled with the population-count instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn short_turns_popcnt(&self, s: &mut SowingState, rng: &mut Rng) {
        self.short_turns_on(s, rng)
    }

    /// The loop itself. The hot fields of the state live in locals (`me`, `mine`, `theirs`,
    /// `moves`, `turns`, `mask`, the generator) and are written back (`sync!`) before anything
    /// that reads `s` or ends the loop.
    #[inline(always)]
    fn short_turns_on(&self, s: &mut SowingState, rng: &mut Rng) {
        if !(s.outcome.is_none() && s.mask != 0 && s.pending == Pending::Start) {
            return;
        }
        let r = self.rules();
        let n = r.n as usize;
        let len = r.len;
        debug_assert!(len <= SHORT && len.is_multiple_of(2) && len >= 12);
        let runs = &RUNS[(len - 12) / 2];
        let lasts = &LAST[(len - 12) / 2];
        let track = u8x16::new(TRACK[(len - 12) / 2]);
        let round = if r.skip_origin { len - 1 } else { len };
        let (move_limit, turn_limit) = (r.end.move_limit, r.end.turn_limit);
        // One lap of `count` stones from `from` (not emptied here); returns the last hole.
        let lap = |side: &mut Side, from: usize, count: usize| -> usize {
            let mut left = count;
            if left > round {
                // Whole rounds at once (the origin, when skipped, gets none).
                let q = (left - 1) / round;
                let mut add = track & u8x16::splat(q as u8);
                if r.skip_origin {
                    add &= u8x16::new(KEEP[from & (SHORT - 1)]);
                }
                side.add(add);
                left -= q * round;
            }
            let (from, left) = (from & (SHORT - 1), left & 31);
            side.add(u8x16::new(runs[from][left]));
            lasts[from][left] as usize
        };
        let mut g = rng.clone();
        let mut me = s.to_move.index();
        let mut mine = Side::load(&s.pits[me]);
        let mut theirs = Side::load(&s.pits[1 - me]);
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
            let k = pick16(mask, &mut g);
            let p = Player::BOTH[me];
            let opp = 1 - me;
            let mut from = k;
            let mut count = mine.take(k) as usize;
            let single = count == 1;
            let mut laps: u32 = 0;
            let mut brent: Option<Box<Brent<Side>>> = None;
            // The turn: laps, then perhaps a capture; `break` ends it as usual.
            loop {
                let last = lap(&mut mine, from, count);
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
                        s.resow_taken(me, taken as u16);
                        from = last;
                        count = taken as usize;
                        laps = 0;
                        brent = None;
                        continue;
                    }
                    Resow::EndTurn => {
                        s.resow_taken(me, taken as u16);
                        lap(&mut mine, last, taken as usize);
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
                        let taken = theirs.take(pick16(m, &mut g));
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
            mask = self.moves_from(mine.occupied(), mine.multi());
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
        let mut side = Side::load(&pits);
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
