//! Random playouts of many games at once on one thread: one game per SIMD lane.
//!
//! Sixty-four games are played side by side, their holes stored hole by hole across the games
//! (`v[side][hole]` is a 64-lane vector, see [`lane_vec`](super::lane_vec)), so that each
//! operation of a step (a draw, a lap, a capture, a take, the end of a turn) is a few vector
//! instructions for all the games, with no branch on any one game's play. Each game draws from
//! its own generator exactly the numbers the reference ([`reference_step`]) would draw, and
//! ends in exactly the same position with the same tally; a game whose next step the lanes do
//! not model (an opening, a nomination, a forced pass) is stepped by the reference and comes
//! back to a lane when it can. Property tests hold the two to the same results.
//!
//! The lanes model the ordinary play of four-row rulesets (any board, at most 255 stones) with
//! relay sowing, the origin sown, captures of the front hole (with or without the back hole
//! behind it), singles that move only into an empty hole and only when no hole holds more (or
//! freely), turns only from a hole after an empty one, heads where the player chooses to stop
//! or relay (immune to takes or not), compulsory additional takes after each capture by a
//! schedule (Ludii's counter for Baia), their count owed shared by both players (a taker who
//! can take nothing makes a forced pass, played by the reference with the next turn's takes),
//! and captures sown back on the capturer's side from the hole after the capturing one, ending
//! the turn (Ludii's Reentered Captures) or as the next lap of the sowing, relaying and
//! capturing on (Matthews' Variant 4) ([`LaneRules::of`], the gate). An endless relay
//! stopped at the move limit ends on Ludii's board where the rules ask for it. Other rules are
//! played by the reference. The loops over the holes are compiled with fixed bounds for boards
//! of 8 and 21 holes a row, and with the board's bound for the others.

use super::lane_vec::{LaneVec, Two};
use crate::notation::MAX_HOLES;
use crate::outcome::EndReason;
use crate::player::Player;
use crate::playout::{Feed, Playout, play_out_reference, reference_step};
use crate::rng::Rng;
use crate::sowing::config::{BackCapture, Endless, HeadLanding, Limits, Resow};
use crate::sowing::game::{Brent, SowingGame, WATCH_AFTER, finish};
use crate::sowing::rules::OpeningRule;
use crate::sowing::state::{Open, Pending, SowingState};

// The lanes count laps in a byte, up to 255.
const _: () = assert!(WATCH_AFTER < 255);

/// Games played at once.
pub(super) const LANES: usize = super::lane_vec::WIDTH;
/// When no game is waiting and this few lanes are still playing, they finish one at a time.
const TAIL: usize = LANES / 4;
/// Holes of a side the lanes hold on any board (on the short tracks of boards of 6 to 8 holes a
/// row, which most rulesets are played on, [`SHORT`]).
const ANY_SIDE: usize = 2 * MAX_HOLES;
/// Holes of a side on boards of 6 to 8 holes a row.
const SHORT: usize = 16;
/// Steps after which the counts kept in bytes (decisions, and options per decision) are added
/// into the games' tallies, before a byte could overflow.
const FLUSH_EVERY: u16 = 255;

/// What a lane does at its next step.
const START: u8 = 0;
const RELAY: u8 = 1;
const TAKES: u8 = 2;
const CHOICE: u8 = 3;
/// The turn ends at this step.
const ENDING: u8 = 4;
/// No game, or a game that has left its lane.
const IDLE: u8 = 5;

/// Captures whose takes the lanes look up (the `k`-th capture's, `k` up to this; later ones
/// earn `takes.then`).
const TAKES_TABLE: usize = 16;
/// No hole: every hole of the opponent's may be taken.
const NO_HOLE: u8 = u8::MAX;

/// The rules the lanes play, when they can play them.
#[derive(Clone, Copy, Debug)]
pub(super) struct LaneRules {
    len: u8,
    /// Whether the back hole is taken with the front one, and whether both must be occupied.
    back_taken: bool,
    require_both: bool,
    single_captures: bool,
    /// Singles only while no hole holds more; singles only into an empty next hole; a turn
    /// only from a hole after an empty one.
    restricted: bool,
    into_empty: bool,
    after_empty: bool,
    /// Additional takes earned by a player's `k`-th capture, `k` from 1 (`takes_by[0]` unused,
    /// the last entry for every later capture).
    takes_by: [u8; TAKES_TABLE + 1],
    any_takes: bool,
    /// Heads cannot be taken; the opponent's hole at this track index is never taken
    /// ([`NO_HOLE`]: none) (Ludii's Baia); the takes owed are one count for both players,
    /// so a taker who can take nothing makes a forced pass and the next turn makes them.
    immune: bool,
    no_take: u8,
    shared: bool,
    /// A capture's stones are sown on from the hole after the capturing one, and the turn
    /// ends ([`Resow::EndTurn`]); or that lap is the next of the sowing, which relays and
    /// captures as any lap does ([`Resow::Continue`]).
    resow_end: bool,
    resow_on: bool,
    /// Heads give the choice to stop or relay.
    heads: bool,
    endless_draw: bool,
    /// An endless relay ends on the board after exactly `move_limit` moves.
    ludii_board: bool,
    /// `ceil(65536 / len)`: `(c * inverse) >> 16` is `c / len` for every `c` below 256.
    inverse: u32,
    move_limit: u32,
    turn_limit: u32,
}

impl LaneRules {
    /// The lanes' version of these rules, or `None` when they are played one game at a time:
    /// the capability gate of the kernel.
    pub(in crate::sowing) fn of(g: &SowingGame) -> Option<LaneRules> {
        let r = g.rules();
        let heads = r.nominate > 0 || r.start_heads != [0, 0];
        let ok = r.len <= ANY_SIDE
            && r.relay
            && !r.skip_origin
            && matches!(r.resow, Resow::Off | Resow::EndTurn | Resow::Continue)
            && r.schedule.len() < TAKES_TABLE
            && !r.takes_optional
            && (!heads || r.head_landing == HeadLanding::Choose)
            && r.total <= 255
            // Ludii's cut of a turn after its first lap, and its board at the move limit.
            && r.config.end.limits == Limits::WholeTurns;
        let takes_by: [u8; TAKES_TABLE + 1] =
            std::array::from_fn(|k| if k == 0 { 0 } else { r.takes_for(k as u16) });
        ok.then_some(LaneRules {
            len: r.len as u8,
            back_taken: r.back != BackCapture::Never,
            require_both: r.back == BackCapture::RequireBoth,
            single_captures: r.singles.capture,
            restricted: r.singles.restricted,
            into_empty: r.singles.into_empty,
            after_empty: r.after_empty,
            takes_by,
            any_takes: takes_by.iter().any(|&t| t > 0),
            immune: r.heads_immune,
            no_take: match r.opening {
                OpeningRule::LudiiBaia { k } => k as u8,
                _ => NO_HOLE,
            },
            shared: r.takes_shared,
            resow_end: r.resow == Resow::EndTurn,
            resow_on: r.resow == Resow::Continue,
            heads,
            endless_draw: r.endless == Endless::Draw,
            ludii_board: r.ludii_board,
            inverse: 65536u32.div_ceil(r.len as u32),
            move_limit: r.config.end.move_limit,
            turn_limit: r.config.end.turn_limit,
        })
    }
}

/// One draw per lane where `need` is set: xoshiro256++ and Lemire's reduction to `0..n`, as
/// [`Rng::below`] does it. Lanes whose draw Lemire's method would reject (about one in 2^58)
/// are marked in `slow` and left as they were, for [`Rng::below`] itself to draw.
#[inline(always)]
fn draw(
    rng: &mut [[u64; LANES]; 4],
    n: &[u8; LANES],
    need: &[u8; LANES],
    slow: &mut [u8; LANES],
) -> [u8; LANES] {
    let mut out = [0u8; LANES];
    for l in 0..LANES {
        let [s0, s1, s2, s3] = [rng[0][l], rng[1][l], rng[2][l], rng[3][l]];
        let x = s0.wrapping_add(s3).rotate_left(23).wrapping_add(s0);
        // The high and low words of x * n (n below 256) from 32-bit products.
        let k = n[l] as u64;
        let lo_p = (x & 0xFFFF_FFFF) * k;
        let hi_p = (x >> 32) * k + (lo_p >> 32);
        out[l] = (hi_p >> 32) as u8;
        let low = (hi_p << 32) | (lo_p & 0xFFFF_FFFF);
        let reject = (low < k) as u8 & need[l];
        slow[l] = reject;
        let t = s1 << 17;
        let n2 = s2 ^ s0;
        let n3 = s3 ^ s1;
        let n1 = s1 ^ n2;
        let n0 = s0 ^ n3;
        let n2 = n2 ^ t;
        let n3 = n3.rotate_left(45);
        let m = ((need[l] & !reject) as u64).wrapping_neg(); // all ones where the lane draws
        rng[0][l] = (n0 & m) | (s0 & !m);
        rng[1][l] = (n1 & m) | (s1 & !m);
        rng[2][l] = (n2 & m) | (s2 & !m);
        rng[3][l] = (n3 & m) | (s3 & !m);
    }
    out
}

// A side's holes are bits of a `u64`.
const _: () = assert!(ANY_SIDE <= 64);

/// The first `H` bits of `m` as bytes, all ones where a bit is set (eight at a time: a lane's
/// masks are loaded hole by hole).
#[inline(always)]
fn bit_bytes<const H: usize>(m: u64) -> [u8; H] {
    let mut out = [0u8; H];
    for (w, chunk) in out.chunks_mut(8).enumerate() {
        // Byte `i` keeps bit `i` of this byte of `m`; each nonzero byte becomes all ones (no
        // carry crosses a byte: each is at most 0x80 before 0x7F is added).
        let spread =
            ((m >> (8 * w)) & 0xFF).wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
        let high = ((spread + 0x7F7F_7F7F_7F7F_7F7F) | spread) & 0x8080_8080_8080_8080;
        let full = (high >> 7) * 0xFF;
        chunk.copy_from_slice(&full.to_le_bytes()[..chunk.len()]);
    }
    out
}

/// The bits set where the bytes are all ones (each byte all ones or zero): [`bit_bytes`] undone.
#[inline(always)]
fn byte_bits<const H: usize>(bytes: &[u8; H]) -> u64 {
    let mut m = 0u64;
    for (w, chunk) in bytes.chunks(8).enumerate() {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        // Each byte's high bit, gathered into the top byte by the product.
        let high = u64::from_le_bytes(b) & 0x8080_8080_8080_8080;
        m |= (high.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * w);
    }
    m
}

/// A lane's exit, with what the game's state records of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// Still playing.
    No,
    /// The game is over; the winner relative to the player to move in the lane (0 that
    /// player, 1 the other), and what the state's `pending` is.
    Over(Option<u8>, EndReason, Pending),
    /// The player to move has no ordinary move: the ordinary code takes over.
    NoMoves,
    /// Takes are owed (this many) and none can be made, the count shared: the reference makes
    /// the forced pass and the next turn's takes.
    Owed(u8),
}

/// `a` where `m` is set, else `b`.
#[inline(always)]
fn sel<V: LaneVec>(m: V, a: V, b: V) -> V {
    m.select(a, b)
}

/// All ones where `a >= b`.
#[inline(always)]
fn ge<V: LaneVec>(a: V, b: V) -> V {
    a.max(b).simd_eq(a)
}

/// All ones where `a <= b`.
#[inline(always)]
fn le<V: LaneVec>(a: V, b: V) -> V {
    a.min(b).simd_eq(a)
}

#[inline(always)]
fn eq<V: LaneVec>(a: V, b: u8) -> V {
    a.simd_eq(a.same(b))
}

/// The lanes set in a mask, as a bit set.
#[inline(always)]
fn bits<V: LaneVec>(m: V) -> u64 {
    m.to_bitmask()
}

/// A count per lane (of moves, of turns) and its limit, counted in a byte vector: `room` is
/// how many more the lane may count before the limit, up to 255 at a time (`exact` where that
/// is all that remain); when a lane's room runs out while more remain, it is refilled.
struct CountLimit<V> {
    room: V,
    exact: V,
    /// What `room` was when last set, and the count then.
    set: [u8; LANES],
    base: [u32; LANES],
}

impl<V: LaneVec> CountLimit<V> {
    fn new(tok: V::Token) -> Self {
        CountLimit {
            room: V::splat(tok, 0),
            exact: V::splat(tok, 0),
            set: [0; LANES],
            base: [0; LANES],
        }
    }

    /// Sets lane `l`'s count.
    #[inline(always)]
    fn load(&mut self, l: usize, count: u32, limit: u32) {
        let remain = limit.saturating_sub(count);
        let room = remain.min(255) as u8;
        self.base[l] = count;
        self.set[l] = room;
        self.room.as_mut_array()[l] = room;
        self.exact.as_mut_array()[l] = 0u8.wrapping_sub((remain <= 255) as u8);
    }

    /// Lane `l`'s count.
    #[inline(always)]
    fn get(&self, l: usize) -> u32 {
        self.base[l] + (self.set[l] - self.room.as_array()[l]) as u32
    }

    /// Adds one to the count of the lanes in `m` (none of them at the limit).
    #[inline(always)]
    fn count(&mut self, m: V) {
        self.room -= m & m.same(1);
    }

    /// The lanes at the limit.
    #[inline(always)]
    fn at_limit(&self) -> V {
        self.room.simd_eq(self.room.same(0)) & self.exact
    }

    /// Refills the lanes whose room ran out short of the limit.
    #[inline(always)]
    fn refill(&mut self, limit: u32) {
        let out = bits(self.room.simd_eq(self.room.same(0)) & !self.exact);
        if out != 0 {
            self.refill_lanes(out, limit);
        }
    }

    #[cold]
    fn refill_lanes(&mut self, out: u64, limit: u32) {
        for l in bit_lanes(out) {
            let count = self.get(l);
            self.load(l, count, limit);
        }
    }
}

/// Sixty-four games in play. Sides are relative: side 0 is the player to move.
struct Lanes<V: LaneVec, const H: usize> {
    tok: V::Token,
    /// The games, kept in place from the feed's hand-out to its hand-back (see
    /// [`Feed::next_into`]): lane `l`'s in `games[slot[l]]`, its state as it was when loaded
    /// until it is stored; the one slot more holds the next game, made ready one game early
    /// where the feed allows it ([`Feed::ahead`]).
    games: [Playout<SowingState>; LANES + 1],
    slot: [u8; LANES],
    /// The slot of the next game, and whether it holds one ready for a lane.
    spare: u8,
    ready: bool,
    /// The lanes whose slot in `games` holds a game in play.
    held: u64,
    v: [[V; H]; 2],
    /// The heads of each side, hole by hole (all ones where a hole is a head).
    heads: [[V; H]; 2],
    stones: [V; 2],
    captured: [V; 2],
    /// The captures made by A and by B (not relative).
    made: [[u16; LANES]; 2],
    /// Stones A and B captured and sowed back on their side since the game was loaded: the
    /// tally counts them as taken, though `captured` (the state's) no longer holds them.
    resown: [[u32; LANES]; 2],
    /// The shared count of takes owed when the game left its lane (`takes.shared`).
    owed: [u8; LANES],
    /// All ones where the taker could take nothing and passed (a shared count): the next
    /// turn begins with the takes still owed. All ones where the turn began so, until its
    /// first take (the state's `carried`).
    carry: V,
    carried: V,
    /// The ordinary moves of side 0 at the start of its turn, hole by hole.
    legal: [V; H],
    /// The player to move (0 for A, 1 for B).
    mover: V,
    phase: V,
    from: V,
    count: V,
    /// All ones where the turn began by moving a single stone.
    single: V,
    left: V,
    /// Laps into the current relay (up to 255), since the action began or captured stones
    /// were last sown on ([`Resow::Continue`]: the reference watches each such relay apart).
    laps: V,
    /// Laps of the current action before that (up to 255; exactly in `before_exact` where
    /// not zero), for the tally's longest sowing.
    before: V,
    before_exact: [u32; LANES],
    /// Moves past the move limit: laps of captured stones sown on at the limit, which the
    /// reference sows before it checks the limit (the byte count stops at the limit).
    past: [u32; LANES],
    moves: CountLimit<V>,
    turns: CountLimit<V>,
    rng: [[u64; LANES]; 4],
    exit: [Exit; LANES],
    /// The lanes whose `exit` is set.
    exits: u64,
    /// Cycle detection for relays of more than [`WATCH_AFTER`] laps.
    brent: Vec<Option<Brent<[u8; H]>>>,
    /// Laps into the current relay, counted exactly once it is watched.
    deep: [u32; LANES],
    /// The tallies' counts since the last flush: decisions, decisions with more than one
    /// option, options summed (low byte, and carries into the next), the longest sowing
    /// (saturating).
    acts: V,
    multi: V,
    opts_lo: V,
    opts_hi: V,
    longest: V,
    /// Steps since the byte counts were flushed.
    since_flush: u16,
}

impl<V: LaneVec, const H: usize> Lanes<V, H> {
    /// Empty lanes; `g`'s start fills the slots until games come.
    fn new(tok: V::Token, g: &SowingGame) -> Box<Self> {
        let z = V::splat(tok, 0);
        let empty = Playout::new(g.initial_state(), Rng::from_seed(0), 0);
        Box::new(Lanes {
            tok,
            games: std::array::from_fn(|_| empty.clone()),
            slot: std::array::from_fn(|l| l as u8),
            spare: LANES as u8,
            ready: false,
            held: 0,
            v: [[z; H]; 2],
            heads: [[z; H]; 2],
            stones: [z; 2],
            captured: [z; 2],
            made: [[0; LANES]; 2],
            resown: [[0; LANES]; 2],
            owed: [0; LANES],
            carry: z,
            carried: z,
            legal: [z; H],
            mover: z,
            phase: V::splat(tok, IDLE),
            from: z,
            count: z,
            single: z,
            left: z,
            laps: z,
            before: z,
            before_exact: [0; LANES],
            past: [0; LANES],
            moves: CountLimit::new(tok),
            turns: CountLimit::new(tok),
            rng: [[0; LANES]; 4],
            exit: [Exit::No; LANES],
            exits: 0,
            brent: (0..LANES).map(|_| None).collect(),
            deep: [0; LANES],
            acts: z,
            multi: z,
            opts_lo: z,
            opts_hi: z,
            longest: z,
            since_flush: 0,
        })
    }

    /// Puts the game in lane `l`'s slot, at the start of an ordinary turn, into play.
    fn load(&mut self, l: usize, lr: &LaneRules) {
        let p = &self.games[self.slot[l] as usize];
        let (s, rng) = (&p.state, &p.rng);
        let me = s.to_move.index();
        for (rel, abs) in [(0, me), (1, 1 - me)] {
            for h in 0..H {
                self.v[rel][h].as_mut_array()[l] = s.pits[abs][h];
            }
            if lr.heads {
                let heads = bit_bytes::<H>(s.heads[abs]);
                for (h, &x) in heads.iter().enumerate() {
                    self.heads[rel][h].as_mut_array()[l] = x;
                }
            }
            self.stones[rel].as_mut_array()[l] = s.stones[abs] as u8;
            self.captured[rel].as_mut_array()[l] = s.captured[abs] as u8;
            self.made[abs][l] = s.captures_made[abs];
            self.resown[abs][l] = 0;
        }
        for (h, &x) in bit_bytes::<H>(s.mask).iter().enumerate() {
            self.legal[h].as_mut_array()[l] = x;
        }
        self.mover.as_mut_array()[l] = me as u8;
        self.phase.as_mut_array()[l] = START;
        self.carry.as_mut_array()[l] = 0;
        self.carried.as_mut_array()[l] = 0;
        // A game at the start of a turn is short of both limits (it would be over).
        debug_assert!(s.moves < lr.move_limit && s.turns < lr.turn_limit);
        self.moves.load(l, s.moves, lr.move_limit);
        self.turns.load(l, s.turns, lr.turn_limit);
        for (w, x) in rng.state().into_iter().enumerate() {
            self.rng[w][l] = x;
        }
        self.exit[l] = Exit::No;
        self.owed[l] = 0;
        self.past[l] = 0;
        self.brent[l] = None;
        for v in [
            &mut self.acts,
            &mut self.multi,
            &mut self.opts_lo,
            &mut self.opts_hi,
            &mut self.longest,
        ] {
            v.as_mut_array()[l] = 0;
        }
        self.held |= 1 << l;
    }

    /// Lane `l`'s game (in play or as last stored).
    #[inline(always)]
    fn game(&mut self, l: usize) -> &mut Playout<SowingState> {
        &mut self.games[self.slot[l] as usize]
    }

    /// The player to move in lane `l` (0 for A).
    #[inline(always)]
    fn mover(&self, l: usize) -> usize {
        self.mover.as_array()[l] as usize
    }

    /// Takes lane `l`'s game out of play, its state, generator and tally brought up to date
    /// in its slot; false when the lane held none.
    fn store(&mut self, l: usize) -> bool {
        if self.held & (1 << l) == 0 {
            return false;
        }
        self.flush_lane(l);
        self.held &= !(1 << l);
        let me = self.mover(l);
        let p = &mut self.games[self.slot[l] as usize];
        let (s, t) = (&mut p.state, &mut p.tally);
        for (rel, abs) in [(0, me), (1, 1 - me)] {
            for h in 0..H {
                s.pits[abs][h] = self.v[rel][h].as_array()[l];
            }
            s.stones[abs] = self.stones[rel].as_array()[l] as u16;
            // What was taken and kept grew; what was taken and sown back is counted apart.
            let captured = self.captured[rel].as_array()[l] as u16;
            t.stones_captured[abs] += (captured - s.captured[abs]) as u32 + self.resown[abs][l];
            s.captured[abs] = captured;
            t.captures[abs] += (self.made[abs][l] - s.captures_made[abs]) as u32;
            s.captures_made[abs] = self.made[abs][l];
        }
        t.longest_relay = t.longest_relay.max(self.longest.as_array()[l] as u32);
        s.to_move = Player::BOTH[me];
        let moves = self.moves.get(l) + self.past[l];
        t.moves += moves - s.moves;
        s.moves = moves;
        s.turns = self.turns.get(l);
        let mut legal = [0u8; H];
        for (h, x) in legal.iter_mut().enumerate() {
            *x = self.legal[h].as_array()[l];
        }
        s.mask = byte_bits(&legal);
        s.passes = 0;
        s.pending = Pending::Start;
        // A game is loaded at the start of a turn with nothing owed (else the turn would begin
        // with takes); what is owed is set where a game leaves or ends owing.
        s.owed = self.owed[l];
        s.carried = self.carried.as_array()[l] != 0;
        p.rng = Rng::from_state(std::array::from_fn(|w| self.rng[w][l]));
        true
    }

    /// Adds lane `l`'s byte counts into its game's tally, and clears them.
    #[inline]
    fn flush_lane(&mut self, l: usize) {
        if self.held & (1 << l) == 0 {
            return;
        }
        let t = &mut self.games[self.slot[l] as usize].tally;
        let take = |v: &mut V| std::mem::take(&mut v.as_mut_array()[l]) as u32;
        t.actions += take(&mut self.acts);
        t.multi_decisions += take(&mut self.multi);
        t.legal_sum += (take(&mut self.opts_lo) + 256 * take(&mut self.opts_hi)) as u64;
    }

    /// Adds every lane's byte counts into its game's tally.
    #[cold]
    fn flush(&mut self) {
        for l in 0..LANES {
            self.flush_lane(l);
        }
        self.since_flush = 0;
    }

    /// Ends the games of the lanes in `m`.
    #[inline(always)]
    fn over(
        &mut self,
        m: u64,
        winner: Option<u8>,
        why: EndReason,
        pending: impl Fn(usize) -> Pending,
    ) {
        self.leave(m, |l| Exit::Over(winner, why, pending(l)));
    }

    /// The lanes in `m` leave with these exits.
    #[inline(always)]
    fn leave(&mut self, m: u64, exit: impl Fn(usize) -> Exit) {
        if m == 0 {
            return;
        }
        for l in bit_lanes(m) {
            self.exit[l] = exit(l);
        }
        self.exits |= m;
        self.phase = sel(
            V::from_bitmask(self.tok, m),
            V::splat(self.tok, IDLE),
            self.phase,
        );
    }

    /// Stones in hole `at` of side `side`, lane by lane (`at` one of `holes`, or none).
    #[inline(always)]
    fn gather(&self, side: usize, at: V, holes: std::ops::Range<usize>) -> V {
        let mut out = V::splat(self.tok, 0);
        for h in holes {
            out |= self.v[side][h] & eq(at, h as u8);
        }
        out
    }

    /// Empties hole `at` of side `side` in the lanes of `on` (`at` one of `holes`, or none).
    #[inline(always)]
    fn clear(&mut self, side: usize, at: V, on: V, holes: std::ops::Range<usize>) {
        for h in holes {
            self.v[side][h] &= !(eq(at, h as u8) & on);
        }
    }

    /// One step of every lane: each playing lane draws (a move, a hole to take, or stop or
    /// relay at a head) or sows a lap, and what follows from it.
    #[inline(always)]
    ///
    /// `L` is the track's length (`lr.len`), or 0 for any length: a constant bound lets the
    /// loops over the holes unroll.
    fn step<const L: usize>(&mut self, lr: &LaneRules) {
        let len = if L == 0 { lr.len as usize } else { L };
        let n = len / 2;
        let tok = self.tok;
        let k8 = |x: u8| V::splat(tok, x);
        let zero = k8(0);
        let one = k8(1);
        self.since_flush += 1;
        if self.since_flush == FLUSH_EVERY {
            self.flush();
        }
        self.moves.refill(lr.move_limit);
        self.turns.refill(lr.turn_limit);
        // 1. Draws: a move at a turn's start, a hole to take, stop or relay at a head.
        let start = eq(self.phase, START);
        let choice = eq(self.phase, CHOICE);
        let mut takes = eq(self.phase, TAKES);
        let mut options_set = [zero; H];
        let mut count = zero;
        for (h, set) in options_set.iter_mut().enumerate().take(len) {
            // The opponent's holes a take may empty.
            let mut takeable = !self.v[1][h].simd_eq(zero);
            if lr.immune {
                takeable &= !self.heads[1][h];
            }
            if h == lr.no_take as usize {
                takeable = zero;
            }
            *set = sel(start, self.legal[h], takeable);
            count -= *set;
        }
        let mut pass = zero;
        if (lr.immune || lr.no_take != NO_HOLE) && bits(takes) != 0 {
            // Takes due and none can be made (the opponent's stones all where takes cannot
            // reach): the turn ends, or with a shared count, a forced pass (a decision of one
            // option, drawn), the next turn beginning with the takes still owed. A turn that
            // began so and is one forced pass leaves the lane (the reference counts the passes).
            let dry = takes & count.simd_eq(zero);
            if bits(dry) != 0 {
                takes &= !dry;
                if lr.shared {
                    let at = dry & self.moves.at_limit();
                    let left = self.left;
                    for l in bit_lanes(bits(dry)) {
                        self.owed[l] = left.as_array()[l];
                    }
                    self.over(bits(at), None, EndReason::MoveLimit, |l| Pending::Takes {
                        left: left.as_array()[l],
                    });
                    let stuck = dry & !at & self.carried;
                    self.leave(bits(stuck), |l| Exit::Owed(left.as_array()[l]));
                    pass = dry & !at & !stuck;
                } else {
                    self.phase = sel(dry, k8(ENDING), self.phase);
                }
            }
        }
        let limit = self.moves.at_limit();
        let take_ok = takes & !limit;
        let need = start | take_ok | choice | pass;
        let options = sel(choice, k8(2), count - pass);
        // The tally: one decision with `options` options in every drawing lane.
        self.acts -= need;
        self.multi -= need & !le(options, one);
        let opts = options & need;
        let lo = self.opts_lo + opts;
        self.opts_hi -= !ge(lo, opts);
        self.opts_lo = lo;
        let mut slow = [0u8; LANES];
        let mut idx = draw(
            &mut self.rng,
            options.as_array(),
            (need & one).as_array(),
            &mut slow,
        );
        if slow.iter().any(|&x| x != 0) {
            self.redraw(&slow, options.as_array(), &mut idx);
        }
        let idx = V::new(tok, idx);
        // The chosen hole `k` is the number of holes with at most `idx` options up to and
        // including them (counts below 128: compared as signed bytes).
        let idx1 = idx + one;
        let mut seen = zero;
        let mut k = zero;
        for set in options_set.iter().take(len) {
            seen -= *set;
            k -= idx1.gt_signed(seen);
        }
        // 2. Takes; a lane at its move limit ends instead.
        if bits(takes) != 0 {
            let left = self.left;
            self.over(bits(takes & limit), None, EndReason::MoveLimit, |l| {
                Pending::Takes {
                    left: left.as_array()[l],
                }
            });
            let taken = self.gather(1, k, 0..len) & take_ok;
            self.clear(1, k, take_ok, 0..len);
            self.stones[1] -= taken;
            self.captured[0] += taken;
            self.moves.count(take_ok);
            self.carried &= !take_ok;
            let won = take_ok & self.stones[1].simd_eq(zero);
            if lr.shared {
                // The count owed as the game ends: as it stood at the move limit, one less
                // after the winning take.
                for l in bit_lanes(bits(takes & limit)) {
                    self.owed[l] = left.as_array()[l];
                }
                for l in bit_lanes(bits(won)) {
                    self.owed[l] = left.as_array()[l] - 1;
                }
            }
            self.turns.count(won);
            self.over(bits(won), Some(0), EndReason::NoStones, |l| {
                Pending::Takes {
                    left: left.as_array()[l],
                }
            });
            let going = take_ok & !won;
            self.left -= going & one;
            self.phase = sel(going & self.left.simd_eq(zero), k8(ENDING), self.phase);
        }
        if bits(pass) != 0 {
            self.moves.count(pass);
            self.carry |= pass;
            self.phase = sel(pass, k8(ENDING), self.phase);
        }
        // 3. Lifting: the chosen hole at a turn's start, or the head the player relays from;
        // or stopping at the head.
        let cont = choice & idx.simd_eq(one);
        let stop = choice & idx.simd_eq(zero);
        let lifting = start | cont;
        let lift_at = sel(start, k, self.from);
        let lifted = self.gather(0, lift_at, 0..len);
        self.clear(0, lift_at, lifting, 0..len);
        self.moves.count(stop);
        self.phase = sel(stop, k8(ENDING), self.phase);
        self.single = sel(lifting, start & lifted.simd_eq(one), self.single);
        self.from = sel(lifting, lift_at, self.from);
        self.count = sel(lifting, lifted, self.count);
        self.laps &= !lifting;
        let lapping = lifting | eq(self.phase, RELAY);
        // 4. A lap in every lapping lane.
        let last = self.sow(self.from, self.count & lapping, lr, len);
        let here = self.gather(0, last, 0..len);
        if lr.resow_on {
            self.before &= !lifting;
            // Captured stones sown on at the move limit: the reference sows them before it
            // checks the limit.
            let past = lapping & self.moves.at_limit();
            if bits(past) != 0 {
                for l in bit_lanes(bits(past)) {
                    self.past[l] += 1;
                }
            }
            self.moves.count(lapping & !past);
            // This action's laps so far, for the tally's longest sowing; exactly where they
            // may pass what a byte holds.
            let laps = self.before.saturating_add(self.laps).saturating_add(one);
            self.longest = self.longest.max(laps & lapping);
            let many = lapping & ge(self.before, k8(128));
            if bits(many) != 0 {
                for l in bit_lanes(bits(many)) {
                    self.longest_exact(l, self.laps_before(l) + self.relay_laps(l) + 1);
                }
            }
        } else {
            self.moves.count(lapping);
            // This action's laps so far, for the tally's longest sowing.
            self.longest = self.longest.max(self.laps.saturating_add(one) & lapping);
        }
        let landed_empty = lapping & le(here, one);
        let mut relay = lapping & !landed_empty;
        if lr.heads && bits(relay) != 0 {
            let mut head = zero;
            for (h, &hv) in self.heads[0].iter().enumerate().take(len) {
                head |= hv & eq(last, h as u8);
            }
            head &= relay;
            if bits(head) != 0 {
                self.from = sel(head, last, self.from);
                self.phase = sel(head, k8(CHOICE), self.phase);
                let at = self.moves.at_limit() & head;
                let from = self.from;
                self.over(bits(at), None, EndReason::MoveLimit, |l| Pending::Relay {
                    pos: from.as_array()[l],
                    capture: true,
                });
                relay &= !head;
            }
        }
        let ended = self.moves.at_limit() & relay;
        if bits(ended) != 0 {
            self.turns.count(ended);
            self.over(bits(ended), None, EndReason::MoveLimit, |_| Pending::Start);
            relay &= !ended;
        }
        self.laps = self.laps.saturating_add(relay & one);
        // Only the lap of a single itself is a single's (it relays where singles may move
        // into an occupied hole).
        self.single &= !relay;
        self.from = sel(relay, last, self.from);
        self.count = sel(relay, here, self.count);
        self.phase = sel(relay, k8(RELAY), self.phase);
        let deep = relay & ge(self.laps, k8(WATCH_AFTER as u8));
        if bits(deep) != 0 {
            let endless = self.watch(lr, bits(deep));
            relay &= !endless;
        }
        // The relays go on: empty the hole lifted next.
        self.clear(0, last, relay, 0..len);
        // 5. Captures where the last stone fell into an empty hole of the front row.
        // The front hole opposite (beyond the front row where `last` is in the back row) and
        // the back hole behind it (out of range likewise).
        let of = k8(3 * n as u8 - 1) - last;
        let ob = last - k8(n as u8);
        let front = self.gather(1, of, n..len);
        let back = self.gather(1, ob, 0..n);
        let all = k8(0xFF);
        let flag = |b: bool| if b { all } else { zero };
        let cap = landed_empty
            & last.gt_signed(k8(n as u8 - 1))
            & (!self.single | flag(lr.single_captures))
            & !front.simd_eq(zero)
            & (!flag(lr.require_both) | !back.simd_eq(zero));
        let cap_back = cap & flag(lr.back_taken);
        self.clear(1, of, cap, n..len);
        self.clear(1, ob, cap_back, 0..n);
        let taken = (front & cap) + (back & cap_back);
        self.stones[1] -= taken;
        let mut no_capture = landed_empty & !cap;
        if lr.resow_end {
            // Sown back from the hole after the capturing one, in the same move; no relay or
            // capture follows, and the turn ends (the opponent emptied still loses).
            if bits(cap) != 0 {
                self.sow(last, taken, lr, len);
                self.stones[0] += taken;
            }
        } else if !lr.resow_on {
            self.captured[0] += taken;
        }
        if bits(cap) != 0 {
            for l in bit_lanes(bits(cap)) {
                let m = self.mover(l);
                self.made[m][l] += 1;
                if lr.resow_end {
                    self.resown[m][l] += taken.as_array()[l] as u32;
                }
                // The takes this capture earns, by the player's count of captures.
                let k = (self.made[m][l] as usize).min(TAKES_TABLE);
                self.left.as_mut_array()[l] = lr.takes_by[k];
            }
            let won = cap & self.stones[1].simd_eq(zero);
            self.turns.count(won);
            self.over(bits(won), Some(0), EndReason::NoStones, |_| Pending::Start);
            let going = cap & !won;
            if lr.resow_on {
                // The captured stones are the next lap, from the capturing hole (a winning
                // capture keeps them); a new relay begins, watched apart.
                self.captured[0] += taken & won;
                self.stones[0] += taken & going;
                for l in bit_lanes(bits(going)) {
                    self.resown[self.mover(l)][l] += taken.as_array()[l] as u32;
                    let laps = self.laps_before(l) + self.relay_laps(l) + 1;
                    self.before_exact[l] = laps;
                    self.before.as_mut_array()[l] = laps.min(255) as u8;
                }
                self.from = sel(going, last, self.from);
                self.count = sel(going, taken, self.count);
                self.phase = sel(going, k8(RELAY), self.phase);
                self.laps &= !going;
            } else if lr.any_takes {
                let taking = going & !self.left.simd_eq(zero);
                self.phase = sel(taking, k8(TAKES), self.phase);
                no_capture |= going & !taking;
            } else {
                no_capture |= going;
            }
        }
        self.phase = sel(no_capture, k8(ENDING), self.phase);
        // 6. The end of a turn: the other player's side becomes side 0.
        let ending = eq(self.phase, ENDING);
        if bits(ending) == 0 {
            return;
        }
        for h in 0..len {
            let (a, b) = (self.v[0][h], self.v[1][h]);
            self.v[0][h] = sel(ending, b, a);
            self.v[1][h] = sel(ending, a, b);
        }
        if lr.heads {
            for h in 0..len {
                let (a, b) = (self.heads[0][h], self.heads[1][h]);
                self.heads[0][h] = sel(ending, b, a);
                self.heads[1][h] = sel(ending, a, b);
            }
        }
        for rows in [&mut self.stones, &mut self.captured] {
            let (a, b) = (rows[0], rows[1]);
            rows[0] = sel(ending, b, a);
            rows[1] = sel(ending, a, b);
        }
        self.mover = (self.mover + (ending & one)) & one;
        self.turns.count(ending);
        // The new player's moves: holes of two or more, and singles (into an empty hole, when
        // no hole holds more, where the rules say so); from a hole after an empty one, where
        // the rules say so.
        let two = k8(2);
        let mut any_multi = zero;
        if lr.restricted {
            for &v in self.v[0].iter().take(len) {
                any_multi |= ge(v, two);
            }
        }
        let mut moves = zero;
        let mut legal = [zero; H];
        for (h, lh) in legal.iter_mut().enumerate().take(len) {
            let v = self.v[0][h];
            let mut single = eq(v, 1);
            if lr.into_empty {
                single &= self.v[0][if h + 1 == len { 0 } else { h + 1 }].simd_eq(zero);
            }
            *lh = ge(v, two) | (single & !any_multi);
            if lr.after_empty {
                *lh &= self.v[0][if h == 0 { len - 1 } else { h - 1 }].simd_eq(zero);
            }
            moves |= *lh;
        }
        let limit = self.moves.at_limit();
        let turn_limit = ending & self.turns.at_limit();
        let no_stones = ending & !turn_limit & self.stones[0].simd_eq(zero);
        let goes_on = ending & !turn_limit & !no_stones;
        for (h, lh) in legal.iter().enumerate() {
            self.legal[h] = sel(goes_on, *lh, self.legal[h]);
        }
        // After a forced pass owing takes, the turn begins with them (no ordinary moves; the
        // move limit is seen at its first take).
        let carry = self.carry & ending;
        let carrying = goes_on & carry;
        self.carry &= !ending;
        self.carried = sel(ending, carrying, self.carried);
        let no_moves = goes_on & !carry & moves.simd_eq(zero);
        let at_limit = goes_on & !carry & !no_moves & limit;
        self.phase = sel(ending, k8(START), self.phase);
        if bits(carrying) != 0 {
            for h in 0..len {
                self.legal[h] &= !carrying;
            }
            self.phase = sel(carrying, k8(TAKES), self.phase);
            for l in bit_lanes(bits(carrying)) {
                self.owed[l] = 0;
            }
        }
        self.over(bits(turn_limit), None, EndReason::TurnLimit, |_| {
            Pending::Start
        });
        self.over(bits(no_stones), Some(1), EndReason::NoStones, |_| {
            Pending::Start
        });
        self.over(bits(at_limit), None, EndReason::MoveLimit, |_| {
            Pending::Start
        });
        self.leave(bits(no_moves), |_| Exit::NoMoves);
    }

    /// Sows `count` stones (zero in the lanes that do not sow) on side 0 from the hole after
    /// `from`, one a hole round the track, the origin included: `q` stones in every hole, one
    /// more in the `rem` holes after the origin (`q` is zero unless the lap goes round the
    /// whole track). Returns the hole the last stone fell into.
    #[inline(always)]
    fn sow(&mut self, from: V, count: V, lr: &LaneRules, len: usize) -> V {
        let tok = self.tok;
        let k8 = |x: u8| V::splat(tok, x);
        let zero = k8(0);
        let one = k8(1);
        let lenv = k8(lr.len);
        let mut q = zero;
        let mut rem = count;
        let big = !le(rem, lenv);
        if bits(big) != 0 {
            let (qa, ra) = (q.as_mut_array(), rem.as_mut_array());
            for l in bit_lanes(bits(big)) {
                let c = ra[l] as u32 - 1;
                let qq = ((c * lr.inverse) >> 16) as u8;
                qa[l] = qq;
                ra[l] -= qq * lr.len;
            }
        }
        // `t - len` wraps above `t` where `t < len`, so the minimum is `t` reduced mod `len`.
        let t = from + rem;
        let last = t.min(t - lenv);
        // The holes after `from` up to `t`, and those up to `t - len` where the lap goes past
        // the end of the track (all below 128: compared as signed bytes).
        let (t1, w1) = (t + one, t + one - lenv);
        let whole = bits(big) != 0;
        for h in 0..len {
            let hv = k8(h as u8);
            let sown = (hv.gt_signed(from) & t1.gt_signed(hv)) | w1.gt_signed(hv);
            // `sown` is -1 where a stone falls.
            self.v[0][h] -= sown;
            if whole {
                self.v[0][h] += q;
            }
        }
        last
    }

    /// Draws again, one lane at a time, where Lemire's method rejected the vector draw.
    #[cold]
    fn redraw(&mut self, slow: &[u8; LANES], options: &[u8; LANES], idx: &mut [u8; LANES]) {
        for l in (0..LANES).filter(|&l| slow[l] != 0) {
            let mut r = Rng::from_state(std::array::from_fn(|w| self.rng[w][l]));
            idx[l] = r.below(options[l] as usize) as u8;
            for (w, x) in r.state().into_iter().enumerate() {
                self.rng[w][l] = x;
            }
        }
    }

    /// Laps of lane `l`'s action before its current relay (captured stones sown on since).
    #[inline(always)]
    fn laps_before(&self, l: usize) -> u32 {
        if self.before.as_array()[l] == 0 {
            0
        } else {
            self.before_exact[l]
        }
    }

    /// Laps into lane `l`'s current relay (before the lap being sown), exactly.
    #[inline(always)]
    fn relay_laps(&self, l: usize) -> u32 {
        let laps = self.laps.as_array()[l] as u32;
        if laps >= WATCH_AFTER {
            self.deep[l]
        } else {
            laps
        }
    }

    /// A sowing of `laps` laps in lane `l`, past what the byte count holds.
    #[inline]
    fn longest_exact(&mut self, l: usize, laps: u32) {
        if self.held & (1 << l) != 0 {
            let t = &mut self.games[self.slot[l] as usize].tally;
            t.longest_relay = t.longest_relay.max(laps);
        }
    }

    /// Brent's cycle detection for the relaying lanes `deep` in a relay of [`WATCH_AFTER`]
    /// laps or more (after the lap, before the hole it ended in is lifted); returns the lanes
    /// whose relay would never end, and ends their games.
    #[cold]
    fn watch(&mut self, lr: &LaneRules, deep: u64) -> V {
        let mut endless = 0u64;
        for l in bit_lanes(deep) {
            if self.laps.as_array()[l] == WATCH_AFTER as u8 {
                // A new relay to watch.
                self.brent[l] = None;
                self.deep[l] = WATCH_AFTER;
            } else {
                self.deep[l] += 1;
            }
            let side: [u8; H] = std::array::from_fn(|h| self.v[0][h].as_array()[l]);
            let pos = self.from.as_array()[l] as usize;
            if self.brent[l]
                .get_or_insert_with(Brent::new)
                .repeats(&side, pos)
            {
                let turns = self.turns.get(l) + 1;
                self.turns.load(l, turns, lr.turn_limit);
                let moves = self.moves.get(l);
                let mut laps = self.laps_before(l) + self.deep[l];
                let why = if lr.endless_draw {
                    EndReason::EndlessSowing
                } else {
                    if lr.ludii_board {
                        // Run on to the move limit: the side after the laps left, less whole
                        // cycles.
                        let left = lr.move_limit.saturating_sub(moves);
                        let period = self.brent[l].as_ref().map_or(1, |b| b.period());
                        let mut side = side;
                        let mut at = pos;
                        for _ in 0..left % period {
                            let c = std::mem::take(&mut side[at]);
                            for _ in 0..c {
                                at = if at + 1 == lr.len as usize { 0 } else { at + 1 };
                                side[at] += 1;
                            }
                        }
                        for (h, &v) in side.iter().enumerate() {
                            self.v[0][h].as_mut_array()[l] = v;
                        }
                        laps = laps.saturating_add(left);
                    }
                    self.moves.load(l, moves.max(lr.move_limit), lr.move_limit);
                    EndReason::MoveLimit
                };
                self.over(1 << l, None, why, |_| Pending::Start);
                endless |= 1 << l;
                self.longest_exact(l, laps);
            } else {
                // The relay goes on: the lap about to be sown counts too.
                self.longest_exact(l, self.laps_before(l) + self.deep[l] + 1);
            }
        }
        V::from_bitmask(self.tok, endless)
    }
}

/// The lanes of a bit set.
#[inline(always)]
fn bit_lanes(m: u64) -> impl Iterator<Item = usize> {
    let mut m = m;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            l
        })
    })
}

/// Plays the feed's games with uniformly random actions on the lanes, when the lanes model the
/// rules (see [`LaneRules::of`]); false, having played nothing, when they do not.
pub(in crate::sowing) fn play(g: &SowingGame, feed: &mut dyn Feed<SowingState>) -> bool {
    let Some(lr) = LaneRules::of(g) else {
        return false;
    };
    #[cfg(target_arch = "x86_64")]
    {
        use super::lane_vec::{Avx2Token, Avx512Token};
        if let Some(tok) = Avx512Token::detect() {
            // SAFETY: the token proves the processor has the features the build is compiled
            // for.
            unsafe { play_avx512(g, tok, &lr, feed) };
            return true;
        }
        if let Some(tok) = Avx2Token::detect() {
            // SAFETY: the token proves the processor has AVX2 and POPCNT.
            unsafe { play_avx2(g, tok, &lr, feed) };
            return true;
        }
    }
    play_on::<Two<wide::u8x32>>(g, (), &lr, feed);
    true
}

/// The lanes in AVX-512 registers (three-way logic, compares into mask registers, 64-bit
/// rotates and products for the draws).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,avx512f,avx512bw,avx512vl,avx512dq")]
fn play_avx512(
    g: &SowingGame,
    tok: super::lane_vec::Avx512Token,
    lr: &LaneRules,
    feed: &mut dyn Feed<SowingState>,
) {
    play_on::<super::lane_vec::Avx512>(g, tok, lr, feed)
}

/// The lanes in pairs of AVX2 registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn play_avx2(
    g: &SowingGame,
    tok: super::lane_vec::Avx2Token,
    lr: &LaneRules,
    feed: &mut dyn Feed<SowingState>,
) {
    play_on::<Two<super::lane_vec::Avx2>>(g, tok, lr, feed)
}

#[inline(always)]
fn play_on<V: LaneVec>(
    g: &SowingGame,
    tok: V::Token,
    lr: &LaneRules,
    feed: &mut dyn Feed<SowingState>,
) {
    // The usual boards (8 holes a row, and 21 for Ludii's largest tsoro) get loops of a
    // fixed length; the other sizes share one build.
    match lr.len {
        16 => play_len::<V, SHORT, 16>(g, tok, lr, feed),
        42 => play_len::<V, ANY_SIDE, 42>(g, tok, lr, feed),
        _ => play_len::<V, ANY_SIDE, 0>(g, tok, lr, feed),
    }
}

/// Random actions through the reference until the game is over, or at the start of an
/// ordinary turn the lanes can play.
fn until_lane_ready(g: &SowingGame, p: &mut Playout<SowingState>) -> bool {
    loop {
        let s = &p.state;
        if s.outcome.is_some() {
            return false;
        }
        let special = (0..2).any(|q| s.nominations_left[q] > 0 || s.open[q] != Open::Done);
        if s.mask != 0 && s.pending == Pending::Start && !special {
            return true;
        }
        if !g.random_nomination(p) && !reference_step(g, p) {
            return false;
        }
    }
}

/// Writes into `slot` the next game of the feed that the lanes can play (handing back those
/// that end before); false when the feed has run dry.
fn prepare(
    g: &SowingGame,
    slot: &mut Playout<SowingState>,
    feed: &mut dyn Feed<SowingState>,
    more: &mut bool,
) -> bool {
    while *more {
        if !feed.next_into(slot) {
            *more = false;
        } else if until_lane_ready(g, slot) {
            return true;
        } else {
            feed.done_in(slot);
        }
    }
    false
}

/// Loads lane `l` with the next game of the feed that the lanes can play; false when the feed
/// has run dry. Where the feed allows it ([`Feed::ahead`]), that game was made ready one game
/// early, and the game after it is made ready now: a game's start (its generator seeded, its
/// nominations drawn) is a chain of dependent steps whose end the next lane step would wait
/// for, and one game early it runs beside the steps.
fn fill<V: LaneVec, const H: usize>(
    g: &SowingGame,
    lanes: &mut Lanes<V, H>,
    l: usize,
    lr: &LaneRules,
    feed: &mut dyn Feed<SowingState>,
    more: &mut bool,
) -> bool {
    if !feed.ahead() {
        if !prepare(g, lanes.game(l), feed, more) {
            return false;
        }
        lanes.load(l, lr);
        return true;
    }
    if !lanes.ready {
        return false;
    }
    // The lane's slot (its game handed back) becomes the next game's.
    std::mem::swap(&mut lanes.slot[l], &mut lanes.spare);
    lanes.load(l, lr);
    let spare = lanes.spare as usize;
    lanes.ready = prepare(g, &mut lanes.games[spare], feed, more);
    true
}

/// The lanes on tracks of length `L` (0: any length), with sides of `H` holes.
#[inline(always)]
fn play_len<V: LaneVec, const H: usize, const L: usize>(
    g: &SowingGame,
    tok: V::Token,
    lr: &LaneRules,
    feed: &mut dyn Feed<SowingState>,
) {
    let mut lanes = Lanes::<V, H>::new(tok, g);
    let mut more = true;
    if feed.ahead() {
        lanes.ready = prepare(g, &mut lanes.games[LANES], feed, &mut more);
    }
    let mut busy = 0;
    for l in 0..LANES {
        busy += fill(g, &mut lanes, l, lr, feed, &mut more) as usize;
    }
    while busy > 0 {
        lanes.step::<L>(lr);
        let exits = std::mem::take(&mut lanes.exits);
        for l in bit_lanes(exits) {
            let exit = std::mem::replace(&mut lanes.exit[l], Exit::No);
            if !lanes.store(l) {
                continue;
            }
            let mover = lanes.mover(l);
            let p = lanes.game(l);
            match exit {
                Exit::Over(winner, why, pending) => {
                    p.state.pending = pending;
                    let w = winner.map(|w| Player::BOTH[mover ^ w as usize]);
                    finish(&mut p.state, w, why);
                }
                Exit::NoMoves => {
                    // What the reference does when a turn begins without a move; the game
                    // comes back to the lanes after the pass if it can.
                    g.no_moves(&mut p.state);
                    if p.state.outcome.is_none() && p.state.moves >= lr.move_limit {
                        finish(&mut p.state, None, EndReason::MoveLimit);
                    }
                    if until_lane_ready(g, p) {
                        lanes.load(l, lr);
                        continue;
                    }
                }
                Exit::Owed(left) => {
                    // Where the reference stands: takes due in the middle of the turn.
                    p.state.pending = Pending::Takes { left };
                    if until_lane_ready(g, p) {
                        lanes.load(l, lr);
                        continue;
                    }
                }
                Exit::No => {}
            }
            feed.done_in(p);
            if !fill(g, &mut lanes, l, lr, feed, &mut more) {
                lanes.phase.as_mut_array()[l] = IDLE;
                busy -= 1;
            }
        }
        // The last few games (the long ones) finish one at a time, from the start of a
        // turn, rather than keep whole steps going for a few lanes.
        if !more && !lanes.ready && busy > 0 && busy <= TAIL {
            for l in 0..LANES {
                if lanes.phase.as_array()[l] == START && lanes.store(l) {
                    let p = lanes.game(l);
                    play_out_reference(g, p);
                    feed.done_in(p);
                    lanes.phase.as_mut_array()[l] = IDLE;
                    busy -= 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anygame::AnyGame;
    use crate::catalogue;
    use crate::playout::SliceFeed;

    /// A shipped ruleset, with the limits played as whole turns: the gate refuses Ludii's cut
    /// of the last turn and its board at the move limit, which the lanes do not model.
    fn game(id: &str) -> SowingGame {
        match catalogue::get(id).unwrap().build(&Default::default()) {
            Ok(AnyGame::Sowing(g)) => whole_turns(&g),
            _ => panic!("{id}"),
        }
    }

    fn whole_turns(g: &SowingGame) -> SowingGame {
        let mut c = g.rules().config().clone();
        c.end.limits = Limits::WholeTurns;
        SowingGame::new(c.compile().unwrap())
    }

    /// Ludii's tsoro on 21 holes a row.
    fn long_game() -> SowingGame {
        let p = [("holes".to_string(), 21i64.into())].into_iter().collect();
        match catalogue::get("tsoro-ludii").unwrap().build(&p) {
            Ok(AnyGame::Sowing(g)) => whole_turns(&g),
            _ => panic!("tsoro-ludii"),
        }
    }

    #[test]
    fn the_benchmarked_rulesets_play_in_lanes() {
        for id in [
            "tsoro-ludii",
            "tsoro-ludii-additional-capture",
            "tsoro-ludii-misoro",
            "njombwa-ludii",
            "tsoro-matthews-basic",
            "tsoro-matthews-v1",
            "tsoro-matthews-v5",
            "tsoro-matthews-v7",
            "tsoro-russ",
            "tsoro-ludii-misoro-additional-capture",
            "tsoro-ludii-baia",
            "tsoro-ludii-reentered-captures",
            "njombwa-ludii-one-counter",
            "njombwa-ludii-two-counters",
            "tsoro-matthews-v4",
        ] {
            assert!(LaneRules::of(&game(id)).is_some(), "{id}");
        }
        assert!(LaneRules::of(&long_game()).is_some());
        // As shipped, Ludii's readings cut the last turn after its first lap: refused.
        let shipped = catalogue::get("tsoro-ludii")
            .unwrap()
            .build(&Default::default());
        let Ok(AnyGame::Sowing(g)) = shipped else {
            panic!("tsoro-ludii")
        };
        assert!(LaneRules::of(&g).is_none());
    }

    /// A feed that writes down the order games go out and come back in.
    struct Logged<'a> {
        inner: SliceFeed<'a, SowingState>,
        log: Vec<(bool, u64)>,
    }

    impl Feed<SowingState> for Logged<'_> {
        fn next(&mut self) -> Option<Playout<SowingState>> {
            let p = self.inner.next()?;
            self.log.push((false, p.tag));
            Some(p)
        }
        fn done(&mut self, p: Playout<SowingState>) {
            self.log.push((true, p.tag));
            self.inner.done(p)
        }
    }

    /// Every build of the lanes this processor can run (the portable one, the AVX2 one, the
    /// one with AVX-512 instructions, and the one for tracks of any length) plays the same
    /// games as the reference, tally included, and hands them out and back in the same order
    /// (which MCTS's searches follow); the property tests exercise only the build
    /// `random_playouts` chooses.
    #[test]
    fn every_build_of_the_lanes_plays_the_same_games() {
        type Build = fn(&SowingGame, &LaneRules, &mut dyn Feed<SowingState>);
        let mut builds: Vec<(&str, Build)> = vec![
            ("portable", |g, lr, feed| {
                play_on::<Two<wide::u8x32>>(g, (), lr, feed)
            }),
            ("portable, track length not fixed", |g, lr, feed| {
                play_len::<Two<wide::u8x32>, ANY_SIDE, 0>(g, (), lr, feed)
            }),
        ];
        #[cfg(target_arch = "x86_64")]
        {
            use super::super::lane_vec::{Avx2Token, Avx512Token};
            if Avx2Token::detect().is_some() {
                builds.push(("avx2", |g, lr, feed| {
                    let tok = Avx2Token::detect().expect("detected above");
                    // SAFETY: the token proves the processor has AVX2 and POPCNT.
                    unsafe { play_avx2(g, tok, lr, feed) }
                }));
            }
            if Avx512Token::detect().is_some() {
                builds.push(("avx512", |g, lr, feed| {
                    let tok = Avx512Token::detect().expect("detected above");
                    // SAFETY: the token proves the processor has the features.
                    unsafe { play_avx512(g, tok, lr, feed) }
                }));
            }
        }
        let mut orders: std::collections::HashMap<&str, Vec<(bool, u64)>> = Default::default();
        for (build, play) in builds {
            for id in [
                "tsoro-ludii",
                "tsoro-ludii-additional-capture",
                "tsoro-ludii-misoro",
                "njombwa-ludii",
                "tsoro-matthews-v5",
                "tsoro-russ",
                "tsoro-ludii-misoro-additional-capture",
                "tsoro-ludii-baia",
                "tsoro-matthews-v4",
                "tsoro-ludii 4x21",
            ] {
                let g = if id.ends_with("4x21") {
                    long_game()
                } else {
                    game(id)
                };
                let lr = LaneRules::of(&g).unwrap();
                let fresh = |k: u64| Playout::new(g.initial_state(), Rng::for_game(5, k), k);
                let mut batch: Vec<Playout<SowingState>> = (0..100).map(fresh).collect();
                let mut feed = Logged {
                    inner: SliceFeed::new(&mut batch),
                    log: vec![],
                };
                play(&g, &lr, &mut feed);
                let order = std::mem::take(&mut feed.log);
                assert_eq!(order.len(), 200, "{build}: {id}");
                let first = orders.entry(id).or_insert_with(|| order.clone());
                assert_eq!(first, &order, "{build}: {id}: games in another order");
                for (k, p) in batch.iter().enumerate() {
                    let mut alone = fresh(k as u64);
                    play_out_reference(&g, &mut alone);
                    assert_eq!(p, &alone, "{build}: {id} game {k}");
                }
            }
        }
    }

    /// A mask's bits as bytes of all ones, and back, on sides of both builds.
    #[test]
    fn masks_as_bytes_and_back() {
        let mut rng = Rng::from_seed(5);
        for i in 0..500 {
            let m = rng.next_u64() >> (i % 64);
            let short = bit_bytes::<SHORT>(m);
            let any = bit_bytes::<ANY_SIDE>(m);
            for h in 0..ANY_SIDE {
                let want = if m >> h & 1 == 1 { 0xFF } else { 0 };
                assert_eq!(any[h], want, "{m:#x} {h}");
                if h < SHORT {
                    assert_eq!(short[h], want, "{m:#x} {h}");
                }
            }
            assert_eq!(byte_bits(&short), m & ((1 << SHORT) - 1));
            assert_eq!(byte_bits(&any), m & ((1 << ANY_SIDE) - 1));
        }
    }

    #[test]
    fn lane_draws_are_the_generators_draws() {
        let mut rng = [[0u64; LANES]; 4];
        let mut alone: Vec<Rng> = (0..LANES as u64).map(|k| Rng::for_game(3, k)).collect();
        for (l, r) in alone.iter().enumerate() {
            for (w, x) in r.state().into_iter().enumerate() {
                rng[w][l] = x;
            }
        }
        for round in 0..200u32 {
            let n: [u8; LANES] = std::array::from_fn(|l| 1 + ((l as u32 * 7 + round) % 40) as u8);
            let need: [u8; LANES] =
                std::array::from_fn(|l| !(l as u32 + round).is_multiple_of(3) as u8);
            let mut slow = [0u8; LANES];
            let got = draw(&mut rng, &n, &need, &mut slow);
            assert_eq!(slow, [0; LANES]);
            for l in 0..LANES {
                if need[l] != 0 {
                    assert_eq!(got[l] as usize, alone[l].below(n[l] as usize), "lane {l}");
                }
                let state: [u64; 4] = std::array::from_fn(|w| rng[w][l]);
                assert_eq!(state, alone[l].state(), "lane {l} round {round}");
            }
        }
    }
}
