//! The fast kernel of the line games: random games played on bit masks, with exactly the
//! results of the reference ([`game`](super::game)) for the rules its gate ([`Kernel::of`]) lets
//! in: the same end position, the same generator state and the same tally.
//!
//! A decision is counted and drawn without listing it: the options are counted from masks
//! (placements, steps to empty neighbours, flights, takes), one number is drawn from the game's
//! generator as the reference draws it (`Rng::below` of the options' count), and the option of
//! that rank in the reference's order is found from the masks again. Steps to a neighbour are
//! numbered in the reference's order (by the point left, then the point reached), so a player's
//! steps are one mask (`Steps`: the steps out of his stones and the steps into empty points,
//! kept up to date as stones come and go) and the `k`-th step is its `k`-th set bit. Lines are
//! tested against the (at most four) precomputed lines through the point a stone arrived at.
//! Only the fast path uses what is in here; the reference imports nothing from it.

use super::config::{
    Cancelled, End, FullBoard, LeaveLine, LineEffect, Lines, MorrisConfig, Movement, NoMoves,
    PerMove, Placement, Step, Take, Until,
};
use super::game::{MorrisGame, MorrisState};
use crate::outcome::{EndReason, Outcome};
use crate::player::Player;
use crate::playout::{Feed, Playout, Tally};
use crate::rng::Rng;

/// Most points of a board the kernel plays on (a mask of one more bit must stay in a `u32`).
const POINTS: usize = 31;
/// Most lines through one point.
const THROUGH: usize = 4;
/// Most lines of a board.
const LINES: usize = 32;
/// A line that no position fills: pads the lists of lines through a point.
const NO_LINE: u32 = u32::MAX;
/// Most steps (an ordered pair of neighbours) of a board the kernel plays on.
const STEPS: usize = 128;

/// The rules the kernel plays, as masks and flags: the kernel's view of a configuration.
#[derive(Clone, Debug)]
pub(super) struct Kernel {
    all: u32,
    adjacent: [u32; POINTS],
    /// The lines through each point, padded with [`NO_LINE`].
    through: [[u32; THROUGH]; POINTS],
    lines: [u32; LINES],
    /// The steps out of each point, as masks of step numbers.
    out: [Wide; POINTS],
    /// The steps into each point.
    into: [Wide; POINTS],
    /// Every step.
    every_step: Wide,
    /// What each step changes ([`Kernel::run_steps`]).
    moves: Box<StepMoves>,
    /// The point each step leaves and the point it reaches.
    step_ends: [(u8, u8); STEPS],
    /// The rules' switches (fixed at compile time for the shipped rulesets: [`SHAPES`]).
    f: Flags,
}

/// The switches of the rules the kernel plays (what is not the board). Where they equal one
/// of [`SHAPES`], the kernel is compiled with them as constants (the branches they decide
/// disappear), otherwise read as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flags {
    unlimited: bool,
    cancel: bool,
    /// `placement.cancelled = opponent`: the placer's man stays on the cancelled point.
    cancel_opponent: bool,
    cancel_line: bool,
    until_full: bool,
    leave_line: bool,
    return_takes: bool,
    anywhere: bool,
    /// Whether stones step to neighbours (not `movement.step = anywhere`): the kernel keeps
    /// the position's [`Steps`] only then.
    stepping: bool,
    flying_at: u32,
    win: bool,
    one_take: bool,
    flying_takes: bool,
    pass_if_no_take: bool,
    protect_lines: bool,
    lose_at: u32,
    lose_next_only: bool,
    no_moves: NoMoves,
    full_board_draw: bool,
    repetition: u8,
    turn_limit: u32,
    limit_cuts_turn: bool,
}

/// The steps to a neighbour a position allows, as masks of step numbers (the kernel's order of
/// them is the reference's): the steps out of each player's stones, and the steps into empty
/// points. A player's steps are `from[p] & open`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Steps {
    from: [Wide; 2],
    open: Wide,
}

/// A mask of up to 128 step numbers, as two words. (As a `u128` it went through vector
/// registers, and a mask written in halves and read back whole stalled the processor's store
/// forwarding: a tenth of Dig Dig's time.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Wide {
    low: u64,
    high: u64,
}

impl Wide {
    /// Step `e` alone.
    fn bit(e: usize) -> Wide {
        if e < 64 {
            Wide {
                low: 1 << e,
                high: 0,
            }
        } else {
            Wide {
                low: 0,
                high: 1 << (e - 64),
            }
        }
    }
    #[inline(always)]
    fn and(self, o: Wide) -> Wide {
        Wide {
            low: self.low & o.low,
            high: self.high & o.high,
        }
    }
    #[inline(always)]
    fn or(self, o: Wide) -> Wide {
        Wide {
            low: self.low | o.low,
            high: self.high | o.high,
        }
    }
    /// The steps of `self` not in `o`.
    #[inline(always)]
    fn minus(self, o: Wide) -> Wide {
        Wide {
            low: self.low & !o.low,
            high: self.high & !o.high,
        }
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.low.count_ones() + self.high.count_ones()
    }
    #[inline(always)]
    fn any(self) -> bool {
        self.low | self.high != 0
    }
    #[inline(always)]
    fn xor(self, o: Wide) -> Wide {
        Wide {
            low: self.low ^ o.low,
            high: self.high ^ o.high,
        }
    }
}

/// What each step (from a stone of the mover's to an empty neighbour, no cancelled point on the
/// board) changes, as masks to flip: the mover's stones, his steps (out of the point left, into
/// the point reached) and the open steps (into the point left, not into the point reached); and
/// the lines through the point reached. A table of words by step number (a word's address is
/// the step number scaled, with no multiplication on the chain from one step to the next), so
/// that a step is applied with independent loads and no branch.
#[derive(Clone, Debug)]
struct StepMoves {
    from: [[u64; STEPS]; 2],
    open: [[u64; STEPS]; 2],
    points: [u32; STEPS],
    to: [u32; STEPS],
    lines: [[u32; THROUGH]; STEPS],
    /// The other points of the lines through the point reached ([`Select::line_made`]).
    near: [u32; STEPS],
    /// Which of the patterns of the mover's stones on `near` (as parallel bit extraction
    /// numbers them: at most 8 points, 256 patterns as four words) make a line.
    made: [[u64; 4]; STEPS],
}

impl StepMoves {
    /// The flips of step `i` (below [`STEPS`]).
    #[inline(always)]
    fn flips(&self, i: usize) -> (u32, Wide, Wide) {
        let i = i % STEPS;
        let wide = |w: &[[u64; STEPS]; 2]| Wide {
            low: w[0][i],
            high: w[1][i],
        };
        (self.points[i], wide(&self.from), wide(&self.open))
    }
}

/// A game in [`Kernel::run_steps`]'s loop: what a turn reads and changes, the player to move
/// at the loop's start `a` and the other `b`, so that nothing is indexed by the mover.
#[derive(Clone)]
struct Plain {
    a: u32,
    b: u32,
    steps_a: Wide,
    steps_b: Wide,
    open: Wide,
    r: Rng,
    sums: Sums,
    /// Turns the loop may still complete, of `turns`.
    left: u32,
    turns: u32,
    /// The index of player `a`.
    w: usize,
    /// Each player's (`a`, `b`) stones in hand, which count towards his losing count.
    hands: [u32; 2],
    /// Takes made in the loop ([`Kernel::take_in_loop`]), each a decision; and each player's
    /// lines made by the steps that took, and stones taken.
    takes: u32,
    lines: [u32; 2],
    taken: [u32; 2],
    /// Whether takes are made in the loop (not by [`Kernel::step`], one decision a call).
    taking: bool,
    /// Whether each player (`a`, `b`) flies: he moves by [`Kernel::flight`].
    flies: [bool; 2],
}

impl Plain {
    /// The game at `s` with at most `turns` turns for the loop; a player at `fly` stones
    /// flies (moves do not change the stone counts: only takes do).
    #[inline(always)]
    fn load(s: &MorrisState, e: &Steps, rng: &Rng, turns: u32, fly: u32) -> Plain {
        let w = s.to_move.index();
        let (a, b) = (s.stones[w], s.stones[1 - w]);
        Plain {
            a,
            b,
            steps_a: e.from[w],
            steps_b: e.from[1 - w],
            open: e.open,
            r: rng.clone(),
            sums: Sums::default(),
            left: turns,
            turns,
            w,
            hands: [s.hand[w] as u32, s.hand[1 - w] as u32],
            takes: 0,
            lines: [0; 2],
            taken: [0; 2],
            taking: true,
            flies: [a.count_ones() == fly, b.count_ones() == fly],
        }
    }
    /// A plain step of player `a` ([`Kernel::plain_step`]).
    #[inline(always)]
    fn step_a<S: Select>(&mut self, k: &Kernel, sel: S) -> u32 {
        k.plain_step(
            sel,
            &mut self.r,
            &mut self.a,
            &mut self.steps_a,
            &mut self.open,
            &mut self.sums,
        )
    }
    /// A plain step of player `b`.
    #[inline(always)]
    fn step_b<S: Select>(&mut self, k: &Kernel, sel: S) -> u32 {
        k.plain_step(
            sel,
            &mut self.r,
            &mut self.b,
            &mut self.steps_b,
            &mut self.open,
            &mut self.sums,
        )
    }
}

/// What a loop's decisions add to the tally ([`Kernel::close_loop`]): the decisions made,
/// their sums, and each seat's lines that took and stones taken.
struct Counts {
    made: u32,
    sums: Sums,
    lines: [u32; 2],
    taken: [u32; 2],
}

/// The stone count at which a player flies, `u32::MAX` (no count) when nobody does.
#[inline(always)]
fn fly(sw: Flags) -> u32 {
    if sw.flying_at > 0 {
        sw.flying_at
    } else {
        u32::MAX
    }
}

/// [`Kernel::plain_step`]: no step made.
const STOPPED: u32 = u32::MAX;
/// [`Kernel::plain_step`]: a step made, no line.
const TURN_OVER: u32 = u32::MAX - 1;

/// The tally's sums over plain steps ([`Kernel::run_steps`]): the options' count in the low
/// 32 bits (at most 64 options a decision, a few million decisions a game), the decisions with
/// more than one option in the high 32 (one register for both in the loop).
#[derive(Clone, Copy, Default)]
struct Sums(u64);

impl Sums {
    /// A decision of `options` options, at least one (a player has at most 64 steps: of
    /// the two steps between two points, one leaves from an empty point).
    #[inline(always)]
    fn add(&mut self, options: u32) {
        self.0 += SUMS[options as usize % SUMS.len()];
    }
    fn legal(self) -> u64 {
        self.0 & 0xFFFF_FFFF
    }
    fn multi(self) -> u32 {
        (self.0 >> 32) as u32
    }
}

/// What [`Sums::add`] adds for each count of options: the count, and one decision with more
/// than one option (a load instead of a comparison, a conditional move and an addition).
const SUMS: [u64; 128] = {
    let mut t = [0; 128];
    let mut n = 0;
    while n < 128 {
        t[n] = n as u64 | ((n > 1) as u64) << 32;
        n += 1;
    }
    t
};

/// A decision, by point indices.
#[derive(Clone, Copy, Debug)]
enum Act {
    Place(u32),
    Move(u32, u32),
    Take(u32),
    Pass,
}

impl Kernel {
    /// The kernel's view of these rules, or `None` when they are played by the reference: the
    /// capability gate. Every field of the configuration is named here (no `..`), so a field
    /// added to the rules does not compile until the gate says whether the kernel plays it;
    /// a new field's values the kernel does not model must be refused here.
    pub(super) fn of(g: &MorrisGame) -> Option<Kernel> {
        let MorrisConfig {
            board: _,
            stones,
            // Only the start position depends on it; the kernel plays from any position.
            first_player: _,
            placement:
                Placement {
                    cancel,
                    cancel_line,
                    cancelled,
                    until,
                    leave_line,
                    return_takes,
                },
            movement: Movement { step, flying_at },
            lines:
                Lines {
                    effect,
                    per_move,
                    flying_takes,
                    pass_if_no_take,
                },
            take: Take { protect_lines },
            end:
                End {
                    lose_at,
                    lose_next_only,
                    no_moves,
                    full_board,
                    repetition,
                    turn_limit,
                    limit_cuts_turn,
                },
        } = &g.rules().config;
        let b = g.board();
        let n = b.len();
        if n > POINTS || b.lines.len() > LINES {
            return None;
        }
        let mut through = [[NO_LINE; THROUGH]; POINTS];
        for (i, ls) in b.lines_through.iter().enumerate() {
            if ls.len() > THROUGH {
                return None;
            }
            through[i][..ls.len()].copy_from_slice(ls);
        }
        let mut adjacent = [0; POINTS];
        adjacent[..n].copy_from_slice(&b.adjacent);
        let mut lines = [NO_LINE; LINES];
        lines[..b.lines.len()].copy_from_slice(&b.lines);
        // The steps in the reference's order: by the point left, then the point reached.
        let (mut out, mut into) = ([Wide::default(); POINTS], [Wide::default(); POINTS]);
        let mut step_ends = [(0, 0); STEPS];
        let mut e = 0;
        for (from, &adj) in b.adjacent.iter().enumerate() {
            let mut to = adj;
            while to != 0 {
                if e == STEPS {
                    return None;
                }
                let t = to.trailing_zeros() as usize;
                to &= to - 1;
                out[from] = out[from].or(Wide::bit(e));
                into[t] = into[t].or(Wide::bit(e));
                step_ends[e] = (from as u8, t as u8);
                e += 1;
            }
        }
        let every_step = out.iter().fold(Wide::default(), |a, &o| a.or(o));
        let mut moves = Box::new(StepMoves {
            from: [[0; STEPS]; 2],
            open: [[0; STEPS]; 2],
            points: [0; STEPS],
            to: [0; STEPS],
            lines: [[NO_LINE; THROUGH]; STEPS],
            near: [0; STEPS],
            made: [[0; 4]; STEPS],
        });
        for (i, &(from, to)) in step_ends[..e].iter().enumerate() {
            let (from, to) = (from as usize, to as usize);
            let (f, o) = (out[from].xor(out[to]), into[from].xor(into[to]));
            moves.from[0][i] = f.low;
            moves.from[1][i] = f.high;
            moves.open[0][i] = o.low;
            moves.open[1][i] = o.high;
            moves.points[i] = 1 << from | 1 << to;
            moves.to[i] = to as u32;
            moves.lines[i] = through[to];
            let ls = through[to].iter().filter(|&&l| l != NO_LINE);
            let near = ls.clone().fold(0, |a, &l| a | l) & !(1 << to);
            if near.count_ones() > 8 {
                // Lines longer than three points: more patterns than the table holds.
                return None;
            }
            moves.near[i] = near;
            // Each pattern of the stones on `near` (the `j`-th bit of the pattern the
            // `j`-th point of `near`), set where one of the lines is whole.
            for bits in 0..1u32 << near.count_ones() {
                let mut stones = 1 << to;
                let (mut m, mut j) = (near, 0);
                while m != 0 {
                    stones |= ((bits >> j) & 1) << m.trailing_zeros();
                    m &= m - 1;
                    j += 1;
                }
                if ls.clone().any(|&l| stones & l == l) {
                    moves.made[i][(bits >> 6) as usize] |= 1 << (bits & 63);
                }
            }
        }
        Some(Kernel {
            all: b.all(),
            adjacent,
            through,
            lines,
            out,
            into,
            every_step,
            moves,
            step_ends,
            f: Flags {
                unlimited: *stones == 0,
                cancel: *cancel,
                cancel_opponent: *cancelled == Cancelled::Opponent,
                cancel_line: *cancel_line,
                until_full: match until {
                    Until::HandsEmpty => false,
                    Until::BoardFull => true,
                },
                leave_line: match leave_line {
                    LeaveLine::Off => false,
                    LeaveLine::Adjacent => true,
                },
                return_takes: *return_takes,
                anywhere: match step {
                    Step::Adjacent => false,
                    Step::Anywhere => true,
                },
                stepping: match step {
                    Step::Adjacent => true,
                    Step::Anywhere => false,
                },
                flying_at: *flying_at as u32,
                win: match effect {
                    LineEffect::Take => false,
                    LineEffect::Win => true,
                },
                one_take: match per_move {
                    PerMove::One => true,
                    PerMove::Each => false,
                },
                flying_takes: *flying_takes,
                pass_if_no_take: *pass_if_no_take,
                protect_lines: *protect_lines,
                lose_at: *lose_at as u32,
                lose_next_only: *lose_next_only,
                no_moves: match no_moves {
                    NoMoves::Loss => NoMoves::Loss,
                    NoMoves::Draw => NoMoves::Draw,
                    NoMoves::Pass => NoMoves::Pass,
                },
                full_board_draw: match full_board {
                    FullBoard::Draw => true,
                    FullBoard::NoMoves => false,
                },
                repetition: *repetition,
                turn_limit: *turn_limit,
                limit_cuts_turn: *limit_cuts_turn,
            },
        })
    }

    /// Plays a game to its end, counting each decision in its tally: plain steps in
    /// [`run_steps`](Self::run_steps)'s loop, every other decision by
    /// [`advance`](Self::advance), compiled once per mover so that no array of the position is
    /// indexed by a variable player.
    #[inline(always)]
    fn play_out<S: Select>(&self, sw: Flags, p: &mut Playout<MorrisState>, sel: S) {
        let mut e = self.steps_of(sw, &p.state);
        let (s, rng, t) = (&mut p.state, &mut p.rng, &mut p.tally);
        loop {
            self.run_places(sw, s, rng, t, &mut e, sel);
            self.run_steps(sw, s, rng, t, &mut e, sel, u32::MAX);
            if !self.advance(sw, s, rng, t, &mut e, sel) {
                break;
            }
        }
    }

    /// One uniformly random decision, counted in the game's tally, as the reference's
    /// `playout::reference_step` makes it; false once the game is over. (For tests: the steps
    /// are found from the position, and after the decision checked against the position's.)
    pub(super) fn step(&self, p: &mut Playout<MorrisState>) -> bool {
        let sw = self.f;
        let mut e = self.steps_of(sw, &p.state);
        let (s, rng, t) = (&mut p.state, &mut p.rng, &mut p.tally);
        // A plain step where `run_steps` makes it (so that it is held to the reference move by
        // move too), else the decision as `advance` makes it.
        let more = self.run_steps(sw, s, rng, t, &mut e, BitByBit, 1)
            || self.advance(sw, s, rng, t, &mut e, BitByBit);
        debug_assert_eq!(e, self.steps_of(sw, &p.state), "the steps kept up to date");
        more
    }

    /// [`step`](Self::step) with the position's steps `e` kept up to date.
    #[inline(always)]
    fn advance<S: Select>(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        rng: &mut Rng,
        t: &mut Tally,
        e: &mut Steps,
        sel: S,
    ) -> bool {
        if s.outcome.is_some() {
            return false;
        }
        match s.to_move {
            Player::A => self.advance_as::<S, 0>(sw, s, rng, t, e, sel),
            Player::B => self.advance_as::<S, 1>(sw, s, rng, t, e, sel),
        }
        true
    }

    /// Plays the movement stage's turns, at most `most` of them, in a loop that holds only what
    /// a turn reads and changes (both players' stones and steps, the open steps, the
    /// generator, the turns left), a turn of each player in turn, nothing indexed by the
    /// mover; returns whether it made a decision. A turn ([`turn`](Self::turn)) is a plain
    /// step (a stone to an empty neighbour) or a flight, and the take of a line it made where
    /// the game goes on ([`take_in_loop`](Self::take_in_loop)). It stops before any other
    /// decision (a pass, the turn that reaches the turn limit), which
    /// [`advance`](Self::advance) makes, and after a line whose consequences it does not make
    /// (a win, a take that ends the game), which it leaves to the reference's `after_line`.
    /// It plays only where
    /// nothing else can happen between two steps: stepping rules without stage-1 moves,
    /// repetition or an end for a player who cannot move (he passes, as every shipped
    /// stepping ruleset says); placement over, no cancelled point left, no take owed, and both
    /// players above the losing count (which steps do not change).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_steps<S: Select>(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        rng: &mut Rng,
        t: &mut Tally,
        e: &mut Steps,
        sel: S,
        most: u32,
    ) -> bool {
        self.run_loop::<S, false>(sw, s, rng, t, e, sel, most)
    }

    /// [`run_steps`](Self::run_steps) (`P` false) or [`run_places`](Self::run_places) (`P`
    /// true): a turn of each player in turn, at most `most` turns.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_loop<S: Select, const P: bool>(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        rng: &mut Rng,
        t: &mut Tally,
        e: &mut Steps,
        sel: S,
        most: u32,
    ) -> bool {
        let turns = self.loop_turns::<P>(sw, s).min(most);
        if turns == 0 {
            return false;
        }
        let mut g = Plain::load(s, e, rng, turns, fly(sw));
        g.taking = most > 1;
        let (side, line_at) = loop {
            if g.left == 0 {
                break (0, None);
            }
            match self.turn::<S, 0, P>(sw, &mut g, sel) {
                STOPPED => break (0, None),
                TURN_OVER => g.left -= 1,
                to => break (0, Some(to)),
            }
            if g.left == 0 {
                break (1, None);
            }
            match self.turn::<S, 1, P>(sw, &mut g, sel) {
                STOPPED => break (1, None),
                TURN_OVER => g.left -= 1,
                to => break (1, Some(to)),
            }
        };
        self.store_plain::<P>(sw, g, side, line_at, s, rng, t, e)
    }

    /// Plays the placement stage's turns in a loop that holds what a placing turn reads and
    /// changes (both players' stones and hands, the steps, the generator, the sums), as
    /// `choose`, `apply` and `end_turn` make them: a stone placed on an empty point drawn from
    /// the empty points' mask, its line found through the point, and the take that line
    /// makes where the game goes on (one take a line, the opponent left above the losing
    /// count). Only for rules without cancelled points, stage-1 moves, wins by a line,
    /// repetition or unlimited supplies (tsoro yemutwelve's); it stops before the placement
    /// that ends the stage, a pass, the turn that reaches the turn limit, and after a line whose
    /// take it does not make (left to `after_line`). Returns whether it made a decision.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_places<S: Select>(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        rng: &mut Rng,
        t: &mut Tally,
        e: &mut Steps,
        sel: S,
    ) -> bool {
        self.run_loop::<S, true>(sw, s, rng, t, e, sel, u32::MAX)
    }

    /// The turns [`run_places`](Self::run_places) may play from this position (0: none).
    #[inline(always)]
    fn place_turns(&self, sw: Flags, s: &MorrisState) -> u32 {
        if sw.unlimited
            || sw.cancel
            || sw.leave_line
            || sw.until_full
            || sw.win
            || !sw.one_take
            || sw.repetition > 0
            || !sw.lose_next_only
            || !sw.stepping
        {
            return 0;
        }
        if s.outcome.is_some()
            || s.placed
            || s.takes > 0
            || s.cancelled != 0
            || self.count(s, 0) <= sw.lose_at
            || self.count(s, 1) <= sw.lose_at
        {
            return 0;
        }
        // The turn whose end reaches the limit is `advance`'s (`end_turn` ends the game).
        sw.turn_limit.saturating_sub(1).saturating_sub(s.turns)
    }

    /// Whether [`run_places`](Self::run_places) plays this position's next decision: it may
    /// play from here, and [`place`](Self::place) places a stone of the player to move.
    #[inline(always)]
    fn place_next(&self, sw: Flags, s: &MorrisState) -> bool {
        let me = s.to_move.index();
        let (hand, other) = (s.hand[me] as u32, s.hand[1 - me] as u32);
        self.place_turns(sw, s) > 0
            && hand > 0
            && hand + other != 1
            && self.all & !self.occupied(s) != 0
    }

    /// The turns the loop of `P` ([`run_loop`](Self::run_loop)) may play from here.
    #[inline(always)]
    fn loop_turns<const P: bool>(&self, sw: Flags, s: &MorrisState) -> u32 {
        if P {
            self.place_turns(sw, s)
        } else {
            self.plain_turns(sw, s)
        }
    }

    /// A placement of the loop's player `a` (`M` = 0) or `b` (1) in
    /// [`run_places`](Self::run_places)' loop, as `choose` draws it and `apply` makes it:
    /// [`STOPPED`] before a decision the loop does not make (a pass, the stage's last
    /// placement), [`TURN_OVER`] where it made no line, else the point where it made one.
    #[inline(always)]
    fn place<S: Select, const M: usize>(&self, g: &mut Plain, sel: S) -> u32 {
        let hand = g.hands[M];
        // The stage's last placement (`end_turn` ends the stage) is `advance`'s.
        if hand == 0 || hand + g.hands[1 - M] == 1 {
            return STOPPED;
        }
        let (mine, theirs) = if M == 0 { (g.a, g.b) } else { (g.b, g.a) };
        let empty = self.all & !(mine | theirs);
        let n = empty.count_ones();
        if n == 0 {
            return STOPPED;
        }
        // `min`, not `% POINTS`: a division on the chain from one placement to the next.
        let q = (sel.nth(empty as u64, g.r.below(n as usize) as u32) as usize).min(POINTS - 1);
        let mine = mine | 1 << q;
        let steps = self.out[q];
        if M == 0 {
            g.a = mine;
            g.steps_a = g.steps_a.or(steps);
        } else {
            g.b = mine;
            g.steps_b = g.steps_b.or(steps);
        }
        g.hands[M] = hand - 1;
        g.open = g.open.minus(self.into[q]);
        g.sums.add(n);
        if self.through[q].iter().any(|&l| l & !mine == 0) {
            q as u32
        } else {
            // `end_turn`: the opponent's count is unchanged, above the losing count.
            TURN_OVER
        }
    }

    /// The turns [`run_steps`](Self::run_steps) may play from this position (0: none).
    #[inline(always)]
    fn plain_turns(&self, sw: Flags, s: &MorrisState) -> u32 {
        if !sw.stepping || sw.leave_line || sw.repetition > 0 || sw.no_moves != NoMoves::Pass {
            return 0;
        }
        if s.outcome.is_some()
            || !s.placed
            || s.takes > 0
            || s.cancelled != 0
            || self.count(s, 0) <= sw.lose_at
            || self.count(s, 1) <= sw.lose_at
        {
            return 0;
        }
        // The turn whose end reaches the limit is `advance`'s (`end_turn` ends the game).
        sw.turn_limit.saturating_sub(1).saturating_sub(s.turns)
    }

    /// Whether [`run_steps`](Self::run_steps) plays this position's next decision: it may play
    /// from here, and the player to move has a flight (he flies) or a step.
    #[inline(always)]
    fn plain_next(&self, sw: Flags, s: &MorrisState, e: &Steps) -> bool {
        let me = s.to_move.index();
        let mine = s.stones[me];
        self.plain_turns(sw, s) > 0
            && if mine.count_ones() == fly(sw) {
                mine != 0 && self.all & !self.occupied(s) != 0
            } else {
                e.from[me].and(e.open).any()
            }
    }

    /// Writes a [`Plain`] loop's game back: `side` is the player to move relative to the
    /// loop's first (0 him, 1 the other), `line_at` the point where the last move made a line
    /// that the loop left (a step's, or a flight's that wins or takes); returns whether the
    /// loop made a decision.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store_plain<const P: bool>(
        &self,
        sw: Flags,
        g: Plain,
        side: usize,
        line_at: Option<u32>,
        s: &mut MorrisState,
        rng: &mut Rng,
        t: &mut Tally,
        e: &mut Steps,
    ) -> bool {
        let completed = g.turns - g.left;
        let made = completed + line_at.is_some() as u32 + g.takes;
        if made == 0 {
            return false;
        }
        let w = g.w;
        let (sa, sb) = if w == 0 { (0, 1) } else { (1, 0) };
        s.stones[sa] = g.a;
        s.stones[sb] = g.b;
        e.from[sa] = g.steps_a;
        e.from[sb] = g.steps_b;
        e.open = g.open;
        if P {
            s.hand[sa] = g.hands[0] as u8;
            s.hand[sb] = g.hands[1] as u8;
        }
        s.turns += completed;
        let who = w ^ side;
        // The counts by seat (the loop's are by its players `a`, `b`).
        let seats = |c: [u32; 2]| if w == 0 { c } else { [c[1], c[0]] };
        let counts = Counts {
            made,
            sums: g.sums,
            lines: seats(g.lines),
            taken: seats(g.taken),
        };
        // A step's line left to `after_line`: the mover is not flying, so it takes.
        self.close_loop(sw, s, rng, t, e, g.r, counts, who, line_at);
        true
    }

    /// The end of a loop's game shared by [`run_places`](Self::run_places) and
    /// [`run_steps`](Self::run_steps): the player to move `who`, the generator `r`, the
    /// tally's counts `c` of the loop's decisions, and the rest of the move of `who` that made
    /// a line at `line_at` whose consequences the loop left, as `apply` makes it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn close_loop(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        rng: &mut Rng,
        t: &mut Tally,
        e: &mut Steps,
        r: Rng,
        c: Counts,
        who: usize,
        line_at: Option<u32>,
    ) {
        s.to_move = player(who);
        s.passes = 0;
        *rng = r;
        t.actions += c.made;
        t.moves += c.made;
        t.legal_sum += c.sums.legal();
        t.multi_decisions += c.sums.multi();
        t.captures[0] += c.lines[0];
        t.captures[1] += c.lines[1];
        t.stones_captured[0] += c.taken[0];
        t.stones_captured[1] += c.taken[1];
        if let Some(to) = line_at {
            let lines = if who == 0 {
                self.after_line::<0>(sw, s, e, to, true)
            } else {
                self.after_line::<1>(sw, s, e, to, true)
            };
            self.cut_at_limit(sw, s);
            t.captures[who] += lines;
        }
    }

    /// After a plain step of the loop's player `a` (`M` = 0) or `b` (1) that made a line at
    /// `to`: his take, made in the loop where it ends his turn as `apply` and `end_turn` would
    /// and the game goes on (one take a line, and the opponent keeps more than the losing
    /// count); true then, else false with nothing changed (the line is `store_plain`'s).
    /// Where the take leaves the opponent flying, the loop stops before his turn.
    #[inline(always)]
    fn take_in_loop<S: Select, const M: usize>(
        &self,
        sw: Flags,
        g: &mut Plain,
        to: u32,
        sel: S,
    ) -> bool {
        if sw.win || !sw.one_take || !g.taking {
            return false;
        }
        let (mine, theirs) = if M == 0 { (g.a, g.b) } else { (g.b, g.a) };
        if theirs == 0 || theirs.count_ones() + g.hands[1 - M] <= sw.lose_at + 1 {
            return false;
        }
        let made = self.through[to as usize]
            .iter()
            .filter(|&&l| mine & l == l)
            .count() as u32;
        // `takeable`: the stones outside whole lines, if any (with `protect_lines`).
        let free = if sw.protect_lines {
            theirs & !self.in_lines(theirs)
        } else {
            0
        };
        let tk = if free != 0 { free } else { theirs };
        let n = tk.count_ones();
        // `min`, not `% POINTS` (a division on the chain), as in `place`.
        let q = (sel.nth(tk as u64, g.r.below(n as usize) as u32) as usize).min(POINTS - 1);
        let left = theirs & !(1 << q);
        let gone = self.out[q];
        if M == 0 {
            g.b = left;
            g.steps_b = g.steps_b.minus(gone);
        } else {
            g.a = left;
            g.steps_a = g.steps_a.minus(gone);
        }
        g.open = g.open.or(self.into[q]);
        g.sums.add(n);
        g.takes += 1;
        g.lines[M] += made;
        g.taken[M] += 1;
        g.flies[1 - M] = left.count_ones() == fly(sw);
        true
    }

    /// A turn of the loop's player `a` (`M` = 0) or `b` (1): a placement in the placement
    /// loop (`P`), else a flight where he flies or a plain step; and the take of a line where [`take_in_loop`](Self::take_in_loop) makes
    /// it; [`STOPPED`] before a decision the loop does not make, [`TURN_OVER`] once his turn
    /// is over, else the point where he made a line whose consequences are `store_plain`'s.
    #[inline(always)]
    fn turn<S: Select, const M: usize, const P: bool>(
        &self,
        sw: Flags,
        g: &mut Plain,
        sel: S,
    ) -> u32 {
        let to = if P {
            self.place::<S, M>(g, sel)
        } else if sw.flying_at > 0 && g.flies[M] {
            self.flight::<S, M>(sw, g, sel)
        } else if M == 0 {
            g.step_a(self, sel)
        } else {
            g.step_b(self, sel)
        };
        match to {
            STOPPED | TURN_OVER => to,
            to if self.take_in_loop::<S, M>(sw, g, to, sel) => TURN_OVER,
            to => to,
        }
    }

    /// A flight of the loop's player `a` (`M` = 0) or `b` (1), as `choose` draws it and
    /// `apply` and `after_line` make it: [`STOPPED`] where he cannot fly (he passes),
    /// [`TURN_OVER`] where his turn is over (a line that neither wins nor may take is only
    /// counted), else the point where he made a line that wins or takes.
    #[inline(always)]
    fn flight<S: Select, const M: usize>(&self, sw: Flags, g: &mut Plain, sel: S) -> u32 {
        let (mine, theirs) = if M == 0 { (g.a, g.b) } else { (g.b, g.a) };
        // No cancelled point in the loop.
        let empty = self.all & !(mine | theirs);
        let ne = empty.count_ones();
        let n = mine.count_ones() * ne;
        if n == 0 {
            return STOPPED;
        }
        let k = g.r.below(n as usize) as u32;
        let q = quotient(k, ne);
        let from = (sel.nth(mine as u64, q) as usize).min(POINTS - 1);
        let to = (sel.nth(empty as u64, k - q * ne) as usize).min(POINTS - 1);
        let moved = mine ^ (1 << from | 1 << to);
        let steps = self.out[from].xor(self.out[to]);
        if M == 0 {
            g.a = moved;
            g.steps_a = g.steps_a.xor(steps);
        } else {
            g.b = moved;
            g.steps_b = g.steps_b.xor(steps);
        }
        // The point left was occupied and the point reached empty.
        g.open = g.open.xor(self.into[from].xor(self.into[to]));
        // More than 127 options possible here: not from `SUMS`.
        g.sums.0 += n as u64 | ((n > 1) as u64) << 32;
        let made = self.through[to].iter().filter(|&&l| moved & l == l).count() as u32;
        if made == 0 {
            return TURN_OVER;
        }
        if sw.win || sw.flying_takes {
            return to as u32;
        }
        // A flier's line that does not take ends his turn, counted.
        g.lines[M] += made;
        TURN_OVER
    }

    /// One plain step of the player whose stones are `mine` and steps `steps` (see
    /// [`run_steps`](Self::run_steps); he does not fly): [`STOPPED`] where he has no step
    /// (he passes, a decision for `advance`), [`TURN_OVER`] after a step that made no line, else the
    /// point the step reached, where it made a line.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn plain_step<S: Select>(
        &self,
        sel: S,
        r: &mut Rng,
        mine: &mut u32,
        steps: &mut Wide,
        open: &mut Wide,
        sums: &mut Sums,
    ) -> u32 {
        let options = steps.and(*open);
        let n = options.count();
        if n == 0 {
            return STOPPED;
        }
        let k = r.below(n as usize) as u32;
        let i = sel.nth_wide(options, k) as usize % STEPS;
        let (points, from, to_open) = self.moves.flips(i);
        *mine ^= points;
        *steps = steps.xor(from);
        *open = open.xor(to_open);
        sums.add(n);
        if sel.line_made(&self.moves, i, *mine) {
            return self.moves.to[i];
        }
        TURN_OVER
    }

    /// A decision of player `M` (the player to move).
    #[inline(always)]
    fn advance_as<S: Select, const M: usize>(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        rng: &mut Rng,
        t: &mut Tally,
        e: &mut Steps,
        sel: S,
    ) {
        let (options, a) = self.choose::<S, M>(sw, s, e, rng, sel);
        let (lines, taken) = self.apply::<M>(sw, s, e, a);
        t.actions += 1;
        t.legal_sum += options as u64;
        t.multi_decisions += (options > 1) as u32;
        t.captures[M] += lines;
        t.stones_captured[M] += taken;
        t.moves += 1;
    }

    #[inline(always)]
    fn placing(&self, sw: Flags, s: &MorrisState, who: usize) -> bool {
        if sw.unlimited {
            !s.placed
        } else {
            s.hand[who] > 0
        }
    }

    #[inline(always)]
    fn count(&self, s: &MorrisState, who: usize) -> u32 {
        s.stones[who].count_ones() + s.hand[who] as u32
    }

    #[inline(always)]
    fn flying(&self, sw: Flags, s: &MorrisState, who: usize) -> bool {
        sw.flying_at > 0 && !self.placing(sw, s, who) && s.stones[who].count_ones() == sw.flying_at
    }

    #[inline(always)]
    fn loss_counts(&self, sw: Flags, s: &MorrisState) -> bool {
        !sw.unlimited || s.placed
    }

    #[inline(always)]
    fn occupied(&self, s: &MorrisState) -> u32 {
        s.stones[0] | s.stones[1] | s.cancelled
    }

    /// The steps of a position, found from its stones (none kept without `stepping`).
    #[inline(always)]
    fn steps_of(&self, sw: Flags, s: &MorrisState) -> Steps {
        if !sw.stepping {
            return Steps::default();
        }
        let union = |mut m: u32, of: &[Wide; POINTS]| {
            let mut acc = Wide::default();
            while m != 0 {
                acc = acc.or(of[m.trailing_zeros() as usize]);
                m &= m - 1;
            }
            acc
        };
        Steps {
            from: [union(s.stones[0], &self.out), union(s.stones[1], &self.out)],
            open: self.every_step.minus(union(self.occupied(s), &self.into)),
        }
    }

    /// The points of `stones` in a whole line of `stones`. Every slot of the lines is tested
    /// (those past the board's are [`NO_LINE`], which no position fills): a loop of fixed
    /// length without branches, which the compiler vectorizes.
    #[inline(always)]
    fn in_lines(&self, stones: u32) -> u32 {
        self.lines
            .iter()
            .fold(0, |acc, &l| acc | if stones & l == l { l } else { 0 })
    }

    /// The stones of the opponent of `who` that `who` may take: some whenever he has any.
    #[inline(always)]
    fn takeable(&self, sw: Flags, s: &MorrisState, who: usize) -> u32 {
        let theirs = s.stones[1 - who];
        if sw.protect_lines {
            let free = theirs & !self.in_lines(theirs);
            if free != 0 {
                return free;
            }
        }
        theirs
    }

    /// The legal options' count and one of them drawn uniformly, in the reference's order.
    #[inline(always)]
    fn choose<S: Select, const M: usize>(
        &self,
        sw: Flags,
        s: &MorrisState,
        e: &Steps,
        rng: &mut Rng,
        sel: S,
    ) -> (u32, Act) {
        let me = M;
        if s.takes > 0 {
            let tk = self.takeable(sw, s, me);
            let n = tk.count_ones();
            if n == 0 {
                rng.below(1);
                return (1, Act::Pass);
            }
            let k = rng.below(n as usize) as u32;
            return (n, Act::Take(sel.nth(tk as u64, k)));
        }
        let mine = s.stones[me];
        let empty = self.all & !self.occupied(s);
        if self.placing(sw, s, me) {
            let targets = if sw.cancel {
                empty | (s.stones[1 - me] & !s.cancelled)
            } else {
                empty
            };
            let placements = targets.count_ones();
            let mut n = placements;
            // Stage 1: steps away from a line just formed, and a step back.
            let fresh = if sw.leave_line { s.fresh[me] & mine } else { 0 };
            let mut f = fresh;
            while f != 0 {
                let from = f.trailing_zeros();
                f &= f - 1;
                n += (self.adjacent[from as usize] & empty).count_ones();
            }
            let back = match s.away[me] {
                Some((left, on)) if sw.leave_line => {
                    let (left, on) = (left as u32, on as u32);
                    let listed =
                        fresh & (1 << on) != 0 && self.adjacent[on as usize] & (1 << left) != 0;
                    (mine & (1 << on) != 0 && empty & (1 << left) != 0 && !listed)
                        .then_some((on, left))
                }
                _ => None,
            };
            n += back.is_some() as u32;
            if n == 0 {
                rng.below(1);
                return (1, Act::Pass);
            }
            let mut k = rng.below(n as usize) as u32;
            if k < placements {
                return (n, Act::Place(sel.nth(targets as u64, k)));
            }
            k -= placements;
            let mut f = fresh;
            while f != 0 {
                let from = f.trailing_zeros();
                f &= f - 1;
                let to = self.adjacent[from as usize] & empty;
                let c = to.count_ones();
                if k < c {
                    return (n, Act::Move(from, sel.nth(to as u64, k)));
                }
                k -= c;
            }
            let (on, left) = back.expect("the last option is the step back");
            return (n, Act::Move(on, left));
        }
        if sw.anywhere || self.flying(sw, s, me) {
            let ne = empty.count_ones();
            let n = mine.count_ones() * ne;
            if n == 0 {
                rng.below(1);
                return (1, Act::Pass);
            }
            let k = rng.below(n as usize) as u32;
            let q = quotient(k, ne);
            let (from, to) = (sel.nth(mine as u64, q), sel.nth(empty as u64, k - q * ne));
            return (n, Act::Move(from, to));
        }
        // Steps to an empty neighbour: the `k`-th of the mover's steps is the reference's.
        let steps = e.from[me].and(e.open);
        let n = steps.count();
        if n == 0 {
            rng.below(1);
            return (1, Act::Pass);
        }
        let k = rng.below(n as usize) as u32;
        let (from, to) = self.step_ends[nth_wide(sel, steps, k) as usize];
        (n, Act::Move(from as u32, to as u32))
    }

    /// Applies a legal decision as the reference does; returns the lines it made (the
    /// report's captures) and the stones it took.
    #[inline(always)]
    fn apply<const M: usize>(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        e: &mut Steps,
        a: Act,
    ) -> (u32, u32) {
        let me = M;
        let p = player(M);
        if !matches!(a, Act::Pass) {
            s.passes = 0;
        }
        match a {
            Act::Pass => {
                if s.takes > 0 {
                    s.passes = 0;
                    self.end_turn::<M>(sw, s, e, true);
                    return (0, 0);
                }
                s.passes = s.passes.saturating_add(1);
                if s.passes >= 2 {
                    s.turns += 1;
                    s.to_move = p.other();
                    s.outcome = Some(Outcome {
                        winner: None,
                        reason: EndReason::NoMoves,
                        turns: s.turns,
                    });
                    return (0, 0);
                }
                self.end_turn::<M>(sw, s, e, true);
                (0, 0)
            }
            Act::Take(q) => {
                let m = 1 << q;
                s.stones[1 - me] &= !m;
                if sw.stepping {
                    e.from[1 - me] = e.from[1 - me].minus(self.out[q as usize]);
                    // A man on a cancelled point (`placement.cancelled = opponent`) leaves
                    // it occupied.
                    if s.cancelled & m == 0 {
                        e.open = e.open.or(self.into[q as usize]);
                    }
                }
                forget(s, 1 - me, m);
                s.takes -= 1;
                s.history.clear();
                if self.count(s, 1 - me) <= sw.lose_at && self.loss_counts(sw, s) {
                    s.outcome = Some(Outcome {
                        winner: Some(p),
                        reason: EndReason::TooFewPieces,
                        turns: s.turns + 1,
                    });
                    return (0, 1);
                }
                // Something is takeable whenever the opponent has a stone (`takeable`).
                if s.takes == 0 || s.stones[1 - me] == 0 {
                    s.takes = 0;
                    self.end_turn::<M>(sw, s, e, false);
                }
                (0, 1)
            }
            Act::Place(q) => {
                let m = 1 << q;
                if !sw.unlimited {
                    s.hand[me] -= 1;
                }
                s.history.clear();
                s.fresh[me] = 0;
                let out = self.out[q as usize];
                if s.stones[1 - me] & m != 0 {
                    // The point stays occupied, by the cancelled pair.
                    s.stones[1 - me] &= !m;
                    if sw.stepping {
                        e.from[1 - me] = e.from[1 - me].minus(out);
                    }
                    forget(s, 1 - me, m);
                    s.cancelled |= m;
                    if sw.cancel_opponent {
                        s.stones[me] |= m;
                        if sw.stepping {
                            e.from[me] = e.from[me].or(out);
                        }
                        let lines = self.after_line::<M>(sw, s, e, q, true);
                        self.cut_at_limit(sw, s);
                        return (lines, 0);
                    }
                    if sw.cancel_line {
                        let lines = self.after_line::<M>(sw, s, e, q, true);
                        self.cut_at_limit(sw, s);
                        return (lines, 0);
                    }
                    self.end_turn::<M>(sw, s, e, false);
                    return (0, 0);
                }
                s.stones[me] |= m;
                if sw.stepping {
                    e.from[me] = e.from[me].or(out);
                    e.open = e.open.minus(self.into[q as usize]);
                }
                let lines = self.after_line::<M>(sw, s, e, q, true);
                self.cut_at_limit(sw, s);
                (lines, 0)
            }
            Act::Move(from, to) => {
                let mut may_take = !self.flying(sw, s, me) || sw.flying_takes;
                if self.placing(sw, s, me) {
                    if s.away[me] == Some((to as u8, from as u8)) {
                        s.away[me] = None;
                        may_take = sw.return_takes;
                    } else {
                        s.away[me] = Some((from as u8, to as u8));
                    }
                    s.history.clear();
                }
                s.fresh[me] = 0;
                s.stones[me] = (s.stones[me] & !(1 << from)) | 1 << to;
                if sw.stepping {
                    let left_empty = s.cancelled & 1 << from == 0;
                    let (from, to) = (from as usize, to as usize);
                    e.from[me] = e.from[me].minus(self.out[from]).or(self.out[to]);
                    if left_empty {
                        e.open = e.open.or(self.into[from]);
                    }
                    e.open = e.open.minus(self.into[to]);
                }
                let lines = self.after_line::<M>(sw, s, e, to, may_take);
                self.cut_at_limit(sw, s);
                (lines, 0)
            }
        }
    }

    /// The reference's `cut_at_limit`.
    #[inline(always)]
    fn cut_at_limit(&self, sw: Flags, s: &mut MorrisState) {
        if sw.limit_cuts_turn && s.outcome.is_none() && s.takes > 0 && s.turns + 1 >= sw.turn_limit
        {
            s.takes = 0;
            s.turns += 1;
            s.to_move = s.to_move.other();
            s.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::TurnLimit,
                turns: s.turns,
            });
        }
    }

    /// The reference's `after_line`, after a stone arrived at point `i` (or cancelled there);
    /// returns the lines made.
    #[inline(always)]
    fn after_line<const M: usize>(
        &self,
        sw: Flags,
        s: &mut MorrisState,
        e: &mut Steps,
        i: u32,
        may_take: bool,
    ) -> u32 {
        let p = player(M);
        let me = M;
        let mine = s.stones[me] | 1 << i;
        let mut made = 0;
        let mut union = 0;
        for &l in &self.through[i as usize] {
            if mine & l == l {
                made += 1;
                union |= l;
            }
        }
        if sw.leave_line && self.placing(sw, s, me) {
            s.fresh[me] = union;
        }
        if made > 0 {
            if sw.win {
                s.outcome = Some(Outcome {
                    winner: Some(p),
                    reason: EndReason::Line,
                    turns: s.turns + 1,
                });
                return made;
            }
            // Something is takeable whenever the opponent has a stone (`takeable`).
            if may_take && s.stones[1 - me] != 0 {
                s.takes = if sw.one_take { 1 } else { made as u8 };
                return made;
            }
            if may_take && sw.pass_if_no_take {
                if self.loss_counts(sw, s) && self.count(s, 1 - me) <= sw.lose_at {
                    s.outcome = Some(Outcome {
                        winner: Some(p),
                        reason: EndReason::TooFewPieces,
                        turns: s.turns + 1,
                    });
                    return made;
                }
                s.takes = 1;
                return made;
            }
        }
        self.end_turn::<M>(sw, s, e, false);
        made
    }

    /// The reference's `end_turn_by`.
    #[inline(always)]
    fn end_turn<const M: usize>(&self, sw: Flags, s: &mut MorrisState, e: &mut Steps, pass: bool) {
        s.turns += 1;
        s.to_move = player(1 - M);
        s.takes = 0;
        let end = |s: &mut MorrisState, winner: Option<Player>, reason: EndReason| {
            s.outcome = Some(Outcome {
                winner,
                reason,
                turns: s.turns,
            });
        };
        let mut placement_ended = false;
        if !s.placed && !pass {
            let over = if sw.until_full {
                self.occupied(s) == self.all
            } else {
                s.hand == [0, 0]
            };
            if over {
                s.placed = true;
                placement_ended = true;
                // The points of the cancelled pairs are empty again (but one the placer's
                // man stays on, with `placement.cancelled = opponent`).
                let mut freed = if sw.stepping {
                    s.cancelled & !(s.stones[0] | s.stones[1])
                } else {
                    0
                };
                while freed != 0 {
                    e.open = e.open.or(self.into[freed.trailing_zeros() as usize]);
                    freed &= freed - 1;
                }
                s.cancelled = 0;
                if sw.full_board_draw && self.occupied(s) == self.all {
                    return end(s, None, EndReason::NoMoves);
                }
            }
        }
        let p = player(1 - M);
        // With `lose_next_only` and an unlimited supply, the action that ends placement is
        // followed by no count.
        let counted = !(sw.lose_next_only && placement_ended && sw.unlimited);
        if self.loss_counts(sw, s) && counted {
            if self.count(s, p.index()) <= sw.lose_at {
                return end(s, Some(p.other()), EndReason::TooFewPieces);
            }
            if !sw.lose_next_only && self.count(s, p.other().index()) <= sw.lose_at {
                return end(s, Some(p), EndReason::TooFewPieces);
            }
        }
        if s.turns >= sw.turn_limit {
            return end(s, None, EndReason::TurnLimit);
        }
        if sw.repetition > 0
            && !self.placing(sw, s, p.index())
            && !self.placing(sw, s, p.other().index())
        {
            let key = s.stones[0] as u64 | (s.stones[1] as u64) << 32;
            let key = key ^ ((p.index() as u64) << 63);
            s.history.push(key);
            let seen = s.history.iter().filter(|&&k| k == key).count();
            if seen >= sw.repetition as usize {
                return end(s, None, EndReason::Repetition);
            }
        }
        if !self.can_move(sw, s, e, p.index()) {
            match sw.no_moves {
                NoMoves::Loss => end(s, Some(p.other()), EndReason::NoMoves),
                NoMoves::Draw => end(s, None, EndReason::NoMoves),
                NoMoves::Pass => {}
            }
        }
    }

    /// The reference's `can_move`.
    #[inline(always)]
    fn can_move(&self, sw: Flags, s: &MorrisState, e: &Steps, who: usize) -> bool {
        let empty = self.all & !self.occupied(s);
        let mine = s.stones[who];
        if self.placing(sw, s, who) {
            return empty != 0 || (sw.cancel && s.stones[1 - who] & !s.cancelled != 0);
        }
        if sw.anywhere || self.flying(sw, s, who) {
            return mine != 0 && empty != 0;
        }
        e.from[who].and(e.open).any()
    }
}

/// Player `i` (0 for A, 1 for B).
#[inline(always)]
const fn player(i: usize) -> Player {
    if i == 0 { Player::A } else { Player::B }
}

/// The reference's `forget`: the stage-1 memory of player `who` about the stones at `m`.
#[inline(always)]
fn forget(s: &mut MorrisState, who: usize, m: u32) {
    s.fresh[who] &= !m;
    if s.away[who].is_some_and(|(_, on)| m & (1 << on) != 0) {
        s.away[who] = None;
    }
}

/// `2^20 / d` rounded up, for `d` from 1 to [`POINTS`].
const RECIPROCALS: [u32; POINTS + 1] = {
    let mut r = [0; POINTS + 1];
    let mut d = 1;
    while d <= POINTS {
        r[d] = (1 << 20) / d as u32 + ((1 << 20) % d as u32 != 0) as u32;
        d += 1;
    }
    r
};

/// `k / d` for `k` below 1,024 (a flight's rank: stones times empty points) and `d` from 1 to
/// [`POINTS`], by a multiplication (exact there: `k` times the reciprocal's excess stays below
/// 2^20; checked by `quotients_are_exact`). A division was a tenth of tsoro yemutatu's time.
#[inline(always)]
fn quotient(k: u32, d: u32) -> u32 {
    debug_assert!(k < 1024 && (1..=POINTS as u32).contains(&d));
    (k * RECIPROCALS[d as usize]) >> 20
}

/// How the `k`-th set bit of a word is found (most of a decision is finding one).
trait Select: Copy {
    /// The index of the `k`-th set bit of `m` (from 0, lowest first); `m` has more than `k`.
    fn nth(self, m: u64, k: u32) -> u32;
    /// The index of the `k`-th set bit of a mask of steps; `m` has more than `k`.
    #[inline(always)]
    fn nth_wide(self, m: Wide, k: u32) -> u32 {
        nth_wide(self, m, k)
    }
    /// Whether step `i` made a line, the mover's stones now `mine`: tests the lines through
    /// the point reached one by one.
    #[inline(always)]
    fn line_made(self, t: &StepMoves, i: usize, mine: u32) -> bool {
        for &l in &t.lines[i % STEPS] {
            if mine & l == l {
                return true;
            }
        }
        false
    }
}

/// Bit by bit: clears the `k` lowest set bits.
#[derive(Clone, Copy)]
struct BitByBit;

impl Select for BitByBit {
    #[inline(always)]
    fn nth(self, mut m: u64, k: u32) -> u32 {
        for _ in 0..k {
            m &= m - 1;
        }
        m.trailing_zeros()
    }
}

/// With the processor's parallel bit deposit (BMI2's `pdep`): one instruction, no branch.
/// Only made where the processor has BMI2 and runs `pdep` in hardware.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Deposit(());

#[cfg(target_arch = "x86_64")]
impl Deposit {
    /// A `Deposit` where the processor has BMI2 (and population counts), and runs `pdep` in
    /// hardware: AMD's processors before Zen 3 (family 0x19) run it in microcode, hundreds of
    /// cycles, where clearing bits one by one is faster.
    fn detect() -> Option<Deposit> {
        use std::arch::x86_64::__cpuid;
        let features = std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("popcnt");
        if !features {
            return None;
        }
        let vendor = __cpuid(0);
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let id = __cpuid(1).eax;
        let family = ((id >> 8) & 0xf) + ((id >> 20) & 0xff);
        (!amd || family >= 0x19).then_some(Deposit(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Select for Deposit {
    #[inline(always)]
    fn nth(self, m: u64, k: u32) -> u32 {
        // SAFETY: a `Deposit` exists only where the processor has BMI2 (`detect`).
        unsafe { std::arch::x86_64::_pdep_u64(1 << k, m) }.trailing_zeros()
    }
    /// Both words' candidates found at once, then the right one taken: the choice of word
    /// is no longer on the chain from the drawn rank to the step.
    #[inline(always)]
    fn nth_wide(self, m: Wide, k: u32) -> u32 {
        let c = m.low.count_ones();
        let low = self.nth(m.low, k & 63);
        let high = 64 + self.nth(m.high, k.wrapping_sub(c) & 63);
        if k < c { low } else { high }
    }
    /// The mover's stones on the other points of the lines through the point reached,
    /// extracted (`pext`) as a pattern of at most 8 bits, looked up in the step's table of
    /// patterns that make a line: no loop over the lines and no branch but the answer.
    #[inline(always)]
    fn line_made(self, t: &StepMoves, i: usize, mine: u32) -> bool {
        let i = i % STEPS;
        // SAFETY: a `Deposit` exists only where the processor has BMI2 (`detect`).
        let bits = unsafe { std::arch::x86_64::_pext_u32(mine, t.near[i]) };
        t.made[i][(bits >> 6) as usize % 4] >> (bits & 63) & 1 != 0
    }
}

/// The index of the `k`-th set bit of a mask of steps; `m` has more than `k`.
#[inline(always)]
fn nth_wide<S: Select>(sel: S, m: Wide, k: u32) -> u32 {
    let c = m.low.count_ones();
    let (word, k, base) = if k < c {
        (m.low, k, 0)
    } else {
        (m.high, k - c, 64)
    };
    base + sel.nth(word, k)
}

/// Plays the feed's games on the kernel; false (nothing played) when its gate refuses the
/// rules.
pub(super) fn play(g: &MorrisGame, feed: &mut dyn Feed<MorrisState>) -> bool {
    let Some(k) = Kernel::of(g) else {
        return false;
    };
    #[cfg(target_arch = "x86_64")]
    if let Some(d) = Deposit::detect() {
        // SAFETY: the processor has the features (`Deposit::detect`).
        unsafe { play_bmi2(&k, feed, d) };
        return true;
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi1") {
        // SAFETY: the processor has the features the build is compiled for.
        unsafe { play_popcnt(&k, feed) };
        return true;
    }
    play_on(&k, feed, BitByBit);
    true
}

/// The kernel compiled with the processor's population count, trailing-zero count and bit
/// deposit instructions (the baseline x86-64 build counts bits in a dozen instructions, and
/// most of a decision is counting and finding bits).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn play_bmi2(k: &Kernel, feed: &mut dyn Feed<MorrisState>, d: Deposit) {
    play_on(k, feed, d)
}

/// The kernel compiled with the processor's population count and trailing-zero count
/// instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
fn play_popcnt(k: &Kernel, feed: &mut dyn Feed<MorrisState>) {
    play_on(k, feed, BitByBit)
}

/// The switches of the shipped rulesets the kernel is compiled for with constant switches:
/// tsoro yemutwelve, Dig Dig and tsoro yemutatu as Ludii plays them (their turn limits, a
/// run's parameter, are read as they are).
const SHAPES: [Flags; 3] = [
    // tsoro-yemutwelve-ludii
    Flags {
        unlimited: false,
        cancel: false,
        cancel_opponent: false,
        cancel_line: false,
        until_full: false,
        leave_line: false,
        return_takes: true,
        anywhere: false,
        stepping: true,
        flying_at: 3,
        win: false,
        one_take: true,
        flying_takes: false,
        pass_if_no_take: true,
        protect_lines: true,
        lose_at: 2,
        lose_next_only: true,
        no_moves: NoMoves::Pass,
        full_board_draw: false,
        repetition: 0,
        turn_limit: 0,
        limit_cuts_turn: true,
    },
    // dig-dig-ludii
    Flags {
        unlimited: true,
        cancel: true,
        cancel_opponent: false,
        cancel_line: true,
        until_full: true,
        leave_line: false,
        return_takes: true,
        anywhere: false,
        stepping: true,
        flying_at: 0,
        win: false,
        one_take: true,
        flying_takes: true,
        pass_if_no_take: true,
        protect_lines: false,
        lose_at: 0,
        lose_next_only: true,
        no_moves: NoMoves::Pass,
        full_board_draw: false,
        repetition: 0,
        turn_limit: 0,
        limit_cuts_turn: true,
    },
    // tsoro-yemutatu-ludii
    Flags {
        unlimited: false,
        cancel: false,
        cancel_opponent: false,
        cancel_line: false,
        until_full: false,
        leave_line: false,
        return_takes: true,
        anywhere: true,
        stepping: false,
        flying_at: 0,
        win: true,
        one_take: true,
        flying_takes: true,
        pass_if_no_take: false,
        protect_lines: false,
        lose_at: 0,
        lose_next_only: true,
        no_moves: NoMoves::Pass,
        full_board_draw: false,
        repetition: 0,
        turn_limit: 0,
        limit_cuts_turn: true,
    },
];

/// Which of [`SHAPES`] these switches are (whatever their turn limit).
fn shape(f: &Flags) -> Option<usize> {
    let f = Flags {
        turn_limit: 0,
        ..*f
    };
    SHAPES.iter().position(|s| *s == f)
}

/// Plays the feed's games, on constant switches where the rules are one of [`SHAPES`]: the
/// same switches, so the same games, in fewer instructions (the switches are handed down as
/// values, not read from the kernel, so that the compiler sees the constants).
#[inline(always)]
fn play_on<S: Select>(k: &Kernel, feed: &mut dyn Feed<MorrisState>, sel: S) {
    match shape(&k.f) {
        Some(0) => play_shaped::<S, 0>(k, feed, sel),
        Some(1) => play_shaped::<S, 1>(k, feed, sel),
        Some(2) => play_shaped::<S, 2>(k, feed, sel),
        _ => play_games(k, k.f, feed, sel),
    }
}

/// [`play_games`] with the switches of `SHAPES[I]` as constants (the kernel's own but the
/// turn limit, which is kept): the compiler folds them.
#[inline(always)]
fn play_shaped<S: Select, const I: usize>(k: &Kernel, feed: &mut dyn Feed<MorrisState>, sel: S) {
    let sw = Flags {
        turn_limit: k.f.turn_limit,
        ..SHAPES[I]
    };
    if PAIRED.contains(&I) && k.pairs(sw) {
        return play_pairs(k, sw, feed, sel);
    }
    play_games(k, sw, feed, sel)
}

/// The shapes whose games are played two at a time ([`play_pairs`]): tsoro yemutwelve's and
/// Dig Dig's, nearly all movement-stage turns (user CPU, alternated: Dig Dig 0.20 s alone,
/// 0.16-0.18 s in pairs, 50,000 games; yemutwelve, once its takes and flights were made in the
/// loop, 1.28-1.29 s alone, 1.07-1.12 s in pairs, 1,000,000 games; before that its loop stopped
/// at every line and flight, and in pairs it was slower).
const PAIRED: [usize; 2] = [0, 1];

/// Plays the feed's games on the kernel with switches `f` (the kernel's).
#[inline(always)]
fn play_games<S: Select>(k: &Kernel, sw: Flags, feed: &mut dyn Feed<MorrisState>, sel: S) {
    // Each game is played where the feed put it, not moved out first (a copy of the playout
    // was a tenth of tsoro yemutatu's time).
    loop {
        let mut game = feed.next();
        let Some(p) = &mut game else { return };
        k.play_out(sw, p, sel);
        if let Some(p) = game {
            feed.done(p);
        }
    }
}

/// A game in flight in [`play_pairs`], with its steps.
type InFlight = (Playout<MorrisState>, Steps);

/// Plays the feed's games two at a time: each is brought by [`Kernel::advance`] to a turn of
/// the loop ([`Kernel::plain_next`]); while both are there, their turns are played in one
/// loop, a turn of each in turn, so that the processor overlaps the two games' chains of latencies (a
/// step waits on the one before: draw, find the step's bit, load its flips, count the next
/// mover's steps). Each game draws from its own generator, so its result is the same as alone.
#[inline(always)]
fn play_pairs<S: Select>(k: &Kernel, sw: Flags, feed: &mut dyn Feed<MorrisState>, sel: S) {
    let mut slots: [Option<InFlight>; 2] = [None, None];
    let mut spare: Option<InFlight> = None;
    loop {
        for slot in &mut slots {
            bring(k, sw, slot, &mut spare, feed, sel);
        }
        let [Some((x, ex)), Some((y, ey))] = &mut slots else {
            // The feed is dry: the games left, if any, are played alone.
            for (mut p, _) in slots.into_iter().flatten().chain(spare) {
                k.play_out(sw, &mut p, sel);
                feed.done(p);
            }
            return;
        };
        k.run_pair::<S, false, false>(
            sw,
            sel,
            (&mut x.state, &mut x.rng, &mut x.tally, ex),
            (&mut y.state, &mut y.rng, &mut y.tally, ey),
        );
    }
}

/// Brings the slot's game to a turn of the loop ([`Kernel::plain_next`]), handing back the
/// games that end; the slot stays empty once the feed is dry. An empty slot takes the spare
/// game if there is one, else a new game from the feed; a new game at a placement
/// ([`Kernel::place_next`]) takes another with it, their placements are played two at a time
/// (a game's placements are nearly all [`Kernel::run_places`]' and new games are at the same
/// turn, so that both loops stop together), and the other is kept as the spare.
#[inline(always)]
fn bring<S: Select>(
    k: &Kernel,
    sw: Flags,
    slot: &mut Option<InFlight>,
    spare: &mut Option<InFlight>,
    feed: &mut dyn Feed<MorrisState>,
    sel: S,
) {
    loop {
        let Some((p, e)) = slot else {
            if spare.is_some() {
                *slot = spare.take();
                continue;
            }
            let Some(p) = feed.next() else { return };
            let e = k.steps_of(sw, &p.state);
            let (x, ex) = slot.insert((p, e));
            if k.place_next(sw, &x.state)
                && let Some(q) = feed.next()
            {
                let ey = k.steps_of(sw, &q.state);
                let (y, ey) = spare.insert((q, ey));
                while k.place_next(sw, &x.state) && k.place_next(sw, &y.state) {
                    k.run_pair::<S, true, true>(
                        sw,
                        sel,
                        (&mut x.state, &mut x.rng, &mut x.tally, ex),
                        (&mut y.state, &mut y.rng, &mut y.tally, ey),
                    );
                }
            }
            continue;
        };
        if k.plain_next(sw, &p.state, e) {
            return;
        }
        if k.run_places(sw, &mut p.state, &mut p.rng, &mut p.tally, e, sel) {
            continue;
        }
        if !k.advance(sw, &mut p.state, &mut p.rng, &mut p.tally, e, sel)
            && let Some((p, _)) = slot.take()
        {
            feed.done(p);
        }
    }
}

/// A game's parts that [`Kernel::run_pair`] plays.
type Parts<'a> = (
    &'a mut MorrisState,
    &'a mut Rng,
    &'a mut Tally,
    &'a mut Steps,
);

impl Kernel {
    /// Whether [`play_pairs`] may play games of these rules: the loop's turns are played
    /// ([`Kernel::run_steps`]'s rules).
    #[inline(always)]
    fn pairs(&self, sw: Flags) -> bool {
        sw.stepping && !sw.leave_line && sw.repetition == 0 && sw.no_moves == NoMoves::Pass
    }

    /// The loops' turns of two games, each at one: placements where `PX` (`PY`) says
    /// ([`Kernel::place_next`]), else steps or flights ([`Kernel::plain_next`]); a turn of each
    /// in turn, until either stops (as [`run_loop`](Self::run_loop) stops); both are written
    /// back as they stand.
    #[inline(always)]
    fn run_pair<S: Select, const PX: bool, const PY: bool>(
        &self,
        sw: Flags,
        sel: S,
        x: Parts,
        y: Parts,
    ) {
        let mut gx = Plain::load(x.0, x.3, x.1, self.loop_turns::<PX>(sw, x.0), fly(sw));
        let mut gy = Plain::load(y.0, y.3, y.1, self.loop_turns::<PY>(sw, y.0), fly(sw));
        // Which game stopped (0: x), at which of its players' steps, and where a line was made.
        let (stopped, side, line_at) = loop {
            if gx.left == 0 {
                break (0, 0, None);
            }
            match self.turn::<S, 0, PX>(sw, &mut gx, sel) {
                STOPPED => break (0, 0, None),
                TURN_OVER => gx.left -= 1,
                to => break (0, 0, Some(to)),
            }
            if gy.left == 0 {
                break (1, 0, None);
            }
            match self.turn::<S, 0, PY>(sw, &mut gy, sel) {
                STOPPED => break (1, 0, None),
                TURN_OVER => gy.left -= 1,
                to => break (1, 0, Some(to)),
            }
            if gx.left == 0 {
                break (0, 1, None);
            }
            match self.turn::<S, 1, PX>(sw, &mut gx, sel) {
                STOPPED => break (0, 1, None),
                TURN_OVER => gx.left -= 1,
                to => break (0, 1, Some(to)),
            }
            if gy.left == 0 {
                break (1, 1, None);
            }
            match self.turn::<S, 1, PY>(sw, &mut gy, sel) {
                STOPPED => break (1, 1, None),
                TURN_OVER => gy.left -= 1,
                to => break (1, 1, Some(to)),
            }
        };
        // Where x stopped at its player `side`, y has made as many turns of each player, or one
        // more of `a`; where y stopped, x has made one more of `a` than y, or of both.
        let (side_x, line_x, side_y, line_y) = if stopped == 0 {
            (side, line_at, side, None)
        } else {
            (1 - side, None, side, line_at)
        };
        self.store_plain::<PX>(sw, gx, side_x, line_x, x.0, x.1, x.2, x.3);
        self.store_plain::<PY>(sw, gy, side_y, line_y, y.0, y.1, y.2, y.3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shapes the kernel is compiled for are the shipped rulesets' (so their games play
    /// on the constant switches; any other switches play on the kernel as read).
    #[test]
    fn shipped_rulesets_play_on_their_shapes() {
        let ids = [
            "tsoro-yemutwelve-ludii",
            "dig-dig-ludii",
            "tsoro-yemutatu-ludii",
        ];
        for (i, id) in ids.iter().enumerate() {
            let Ok(crate::AnyGame::Morris(g)) = crate::catalogue::get(id)
                .unwrap()
                .build(&crate::catalogue::Params::new())
            else {
                panic!("{id} is a line game")
            };
            let k = Kernel::of(&g).expect("on the kernel");
            assert_eq!(shape(&k.f), Some(i), "{id}");
            // Another turn limit is the same shape.
            let f = Flags {
                turn_limit: 7,
                ..k.f
            };
            assert_eq!(shape(&f), Some(i), "{id}");
        }
    }

    #[test]
    fn quotients_are_exact() {
        for d in 1..=POINTS as u32 {
            for k in 0..1024 {
                assert_eq!(quotient(k, d), k / d, "{k} / {d}");
            }
        }
    }

    /// Both ways of finding a set bit agree, on words of every density.
    #[test]
    fn selections_agree() {
        let mut rng = Rng::from_seed(1);
        #[cfg(target_arch = "x86_64")]
        let deposit = Deposit::detect();
        for i in 0..20_000u32 {
            let mut m = rng.next_u64();
            for _ in 0..i % 4 {
                m &= rng.next_u64();
            }
            let n = m.count_ones();
            if n == 0 {
                continue;
            }
            let k = rng.below(n as usize) as u32;
            let slow = BitByBit.nth(m, k);
            assert!(m & (1 << slow) != 0 && (m & ((1 << slow) - 1)).count_ones() == k);
            #[cfg(target_arch = "x86_64")]
            if let Some(d) = deposit {
                assert_eq!(d.nth(m, k), slow, "{m:#x} {k}");
            }
            let wide = Wide {
                low: rng.next_u64(),
                high: m,
            };
            let k = rng.below(wide.count() as usize) as u32;
            let at = nth_wide(BitByBit, wide, k);
            let whole = (m as u128) << 64 | wide.low as u128;
            assert!(whole & (1 << at) != 0 && (whole & ((1 << at) - 1)).count_ones() == k);
        }
    }
}
