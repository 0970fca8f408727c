//! The fast kernel of the line games: random games played on bit masks, with exactly the
//! results of the reference ([`game`](super::game)) for the rules its gate ([`Kernel::of`]) lets
//! in: the same end position, the same generator state and the same tally.
//!
//! A decision is counted and drawn without listing it: the options are counted from masks
//! (placements, steps to empty neighbours, flights, takes), one number is drawn from the game's
//! generator as the reference draws it (`Rng::below` of the options' count), and the option of
//! that rank in the reference's order is found from the masks again. Lines are tested against
//! the (at most four) precomputed lines through the point a stone arrived at. Only the fast
//! path uses what is in here; the reference imports nothing from it.

use super::config::{
    Cancelled, End, FullBoard, LeaveLine, LineEffect, Lines, MorrisConfig, Movement, NoMoves,
    PerMove, Placement, Step, Take, Until,
};
use super::game::{MorrisGame, MorrisState};
use crate::outcome::{EndReason, Outcome};
use crate::player::Player;
use crate::playout::{Feed, Playout};
use crate::rng::Rng;

/// Most points of a board the kernel plays on (a mask of one more bit must stay in a `u32`).
const POINTS: usize = 31;
/// Most lines through one point.
const THROUGH: usize = 4;
/// Most lines of a board.
const LINES: usize = 32;
/// A line that no position fills: pads the lists of lines through a point.
const NO_LINE: u32 = u32::MAX;

/// The rules the kernel plays, as masks and flags: the kernel's view of a configuration.
#[derive(Clone, Debug)]
pub(super) struct Kernel {
    all: u32,
    adjacent: [u32; POINTS],
    /// The lines through each point, padded with [`NO_LINE`].
    through: [[u32; THROUGH]; POINTS],
    lines: [u32; LINES],
    line_count: usize,
    unlimited: bool,
    cancel: bool,
    /// `placement.cancelled = opponent`: the placer's man stays on the cancelled point.
    cancel_opponent: bool,
    cancel_line: bool,
    until_full: bool,
    leave_line: bool,
    return_takes: bool,
    anywhere: bool,
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
        Some(Kernel {
            all: b.all(),
            adjacent,
            through,
            lines,
            line_count: b.lines.len(),
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
        })
    }

    /// Plays a game to its end, counting each decision in its tally.
    #[inline(always)]
    pub(super) fn play_out(&self, p: &mut Playout<MorrisState>) {
        while self.step(p) {}
    }

    /// One uniformly random decision, counted in the game's tally, as the reference's
    /// `playout::reference_step` makes it; false once the game is over.
    #[inline(always)]
    pub(super) fn step(&self, p: &mut Playout<MorrisState>) -> bool {
        let (s, t) = (&mut p.state, &mut p.tally);
        if s.outcome.is_some() {
            return false;
        }
        let mover = s.to_move.index();
        let (options, a) = self.choose(s, &mut p.rng);
        let (lines, taken) = self.apply(s, a);
        t.actions += 1;
        t.legal_sum += options as u64;
        t.multi_decisions += (options > 1) as u32;
        t.captures[mover] += lines;
        t.stones_captured[mover] += taken;
        t.moves += 1;
        true
    }

    #[inline(always)]
    fn placing(&self, s: &MorrisState, who: usize) -> bool {
        if self.unlimited {
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
    fn flying(&self, s: &MorrisState, who: usize) -> bool {
        self.flying_at > 0 && !self.placing(s, who) && s.stones[who].count_ones() == self.flying_at
    }

    #[inline(always)]
    fn loss_counts(&self, s: &MorrisState) -> bool {
        !self.unlimited || s.placed
    }

    #[inline(always)]
    fn occupied(&self, s: &MorrisState) -> u32 {
        s.stones[0] | s.stones[1] | s.cancelled
    }

    /// The points of `stones` in a whole line of `stones`.
    #[inline(always)]
    fn in_lines(&self, stones: u32) -> u32 {
        let mut acc = 0;
        for &l in &self.lines[..self.line_count] {
            if stones & l == l {
                acc |= l;
            }
        }
        acc
    }

    /// The stones of the opponent of `who` that `who` may take.
    #[inline(always)]
    fn takeable(&self, s: &MorrisState, who: usize) -> u32 {
        let theirs = s.stones[1 - who];
        if self.protect_lines {
            let free = theirs & !self.in_lines(theirs);
            if free != 0 {
                return free;
            }
        }
        theirs
    }

    /// The legal options' count and one of them drawn uniformly, in the reference's order.
    #[inline(always)]
    fn choose(&self, s: &MorrisState, rng: &mut Rng) -> (u32, Act) {
        let me = s.to_move.index();
        if s.takes > 0 {
            let tk = self.takeable(s, me);
            let n = tk.count_ones();
            if n == 0 {
                rng.below(1);
                return (1, Act::Pass);
            }
            let k = rng.below(n as usize) as u32;
            return (n, Act::Take(nth(tk, k)));
        }
        let mine = s.stones[me];
        let empty = self.all & !self.occupied(s);
        if self.placing(s, me) {
            let targets = if self.cancel {
                empty | (s.stones[1 - me] & !s.cancelled)
            } else {
                empty
            };
            let placements = targets.count_ones();
            let mut n = placements;
            // Stage 1: steps away from a line just formed, and a step back.
            let fresh = if self.leave_line {
                s.fresh[me] & mine
            } else {
                0
            };
            let mut f = fresh;
            while f != 0 {
                let from = f.trailing_zeros();
                f &= f - 1;
                n += (self.adjacent[from as usize] & empty).count_ones();
            }
            let back = match s.away[me] {
                Some((left, on)) if self.leave_line => {
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
                return (n, Act::Place(nth(targets, k)));
            }
            k -= placements;
            let mut f = fresh;
            while f != 0 {
                let from = f.trailing_zeros();
                f &= f - 1;
                let to = self.adjacent[from as usize] & empty;
                let c = to.count_ones();
                if k < c {
                    return (n, Act::Move(from, nth(to, k)));
                }
                k -= c;
            }
            let (on, left) = back.expect("the last option is the step back");
            return (n, Act::Move(on, left));
        }
        if self.anywhere || self.flying(s, me) {
            let ne = empty.count_ones();
            let n = mine.count_ones() * ne;
            if n == 0 {
                rng.below(1);
                return (1, Act::Pass);
            }
            let k = rng.below(n as usize) as u32;
            return (n, Act::Move(nth(mine, k / ne), nth(empty, k % ne)));
        }
        let mut n = 0;
        let mut f = mine;
        while f != 0 {
            let from = f.trailing_zeros();
            f &= f - 1;
            n += (self.adjacent[from as usize] & empty).count_ones();
        }
        if n == 0 {
            rng.below(1);
            return (1, Act::Pass);
        }
        let mut k = rng.below(n as usize) as u32;
        let mut f = mine;
        loop {
            let from = f.trailing_zeros();
            f &= f - 1;
            let to = self.adjacent[from as usize] & empty;
            let c = to.count_ones();
            if k < c {
                return (n, Act::Move(from, nth(to, k)));
            }
            k -= c;
        }
    }

    /// Applies a legal decision as the reference does; returns the lines it made (the
    /// report's captures) and the stones it took.
    #[inline(always)]
    fn apply(&self, s: &mut MorrisState, a: Act) -> (u32, u32) {
        let me = s.to_move.index();
        let p = s.to_move;
        if !matches!(a, Act::Pass) {
            s.passes = 0;
        }
        match a {
            Act::Pass => {
                if s.takes > 0 {
                    s.passes = 0;
                    self.end_turn(s, true);
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
                self.end_turn(s, true);
                (0, 0)
            }
            Act::Take(q) => {
                let m = 1 << q;
                s.stones[1 - me] &= !m;
                forget(s, 1 - me, m);
                s.takes -= 1;
                s.history.clear();
                if self.count(s, 1 - me) <= self.lose_at && self.loss_counts(s) {
                    s.outcome = Some(Outcome {
                        winner: Some(p),
                        reason: EndReason::TooFewPieces,
                        turns: s.turns + 1,
                    });
                    return (0, 1);
                }
                if s.takes == 0 || self.takeable(s, me) == 0 {
                    s.takes = 0;
                    self.end_turn(s, false);
                }
                (0, 1)
            }
            Act::Place(q) => {
                let m = 1 << q;
                if !self.unlimited {
                    s.hand[me] -= 1;
                }
                s.history.clear();
                s.fresh[me] = 0;
                if s.stones[1 - me] & m != 0 {
                    s.stones[1 - me] &= !m;
                    forget(s, 1 - me, m);
                    s.cancelled |= m;
                    if self.cancel_opponent {
                        s.stones[me] |= m;
                        let lines = self.after_line(s, q, true);
                        self.cut_at_limit(s);
                        return (lines, 0);
                    }
                    if self.cancel_line {
                        let lines = self.after_line(s, q, true);
                        self.cut_at_limit(s);
                        return (lines, 0);
                    }
                    self.end_turn(s, false);
                    return (0, 0);
                }
                s.stones[me] |= m;
                let lines = self.after_line(s, q, true);
                self.cut_at_limit(s);
                (lines, 0)
            }
            Act::Move(from, to) => {
                let mut may_take = !self.flying(s, me) || self.flying_takes;
                if self.placing(s, me) {
                    if s.away[me] == Some((to as u8, from as u8)) {
                        s.away[me] = None;
                        may_take = self.return_takes;
                    } else {
                        s.away[me] = Some((from as u8, to as u8));
                    }
                    s.history.clear();
                }
                s.fresh[me] = 0;
                s.stones[me] = (s.stones[me] & !(1 << from)) | 1 << to;
                let lines = self.after_line(s, to, may_take);
                self.cut_at_limit(s);
                (lines, 0)
            }
        }
    }

    /// The reference's `cut_at_limit`.
    #[inline(always)]
    fn cut_at_limit(&self, s: &mut MorrisState) {
        if self.limit_cuts_turn
            && s.outcome.is_none()
            && s.takes > 0
            && s.turns + 1 >= self.turn_limit
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
    fn after_line(&self, s: &mut MorrisState, i: u32, may_take: bool) -> u32 {
        let p = s.to_move;
        let me = p.index();
        let mine = s.stones[me] | 1 << i;
        let mut made = 0;
        let mut union = 0;
        for &l in &self.through[i as usize] {
            if mine & l == l {
                made += 1;
                union |= l;
            }
        }
        if self.leave_line && self.placing(s, me) {
            s.fresh[me] = union;
        }
        if made > 0 {
            if self.win {
                s.outcome = Some(Outcome {
                    winner: Some(p),
                    reason: EndReason::Line,
                    turns: s.turns + 1,
                });
                return made;
            }
            if may_take && self.takeable(s, me) != 0 {
                s.takes = if self.one_take { 1 } else { made as u8 };
                return made;
            }
            if may_take && self.pass_if_no_take {
                if self.loss_counts(s) && self.count(s, 1 - me) <= self.lose_at {
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
        self.end_turn(s, false);
        made
    }

    /// The reference's `end_turn_by`.
    #[inline(always)]
    fn end_turn(&self, s: &mut MorrisState, pass: bool) {
        s.turns += 1;
        s.to_move = s.to_move.other();
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
            let over = if self.until_full {
                self.occupied(s) == self.all
            } else {
                s.hand == [0, 0]
            };
            if over {
                s.placed = true;
                placement_ended = true;
                s.cancelled = 0;
                if self.full_board_draw && self.occupied(s) == self.all {
                    return end(s, None, EndReason::NoMoves);
                }
            }
        }
        let p = s.to_move;
        // With `lose_next_only` and an unlimited supply, the action that ends placement is
        // followed by no count.
        let counted = !(self.lose_next_only && placement_ended && self.unlimited);
        if self.loss_counts(s) && counted {
            if self.count(s, p.index()) <= self.lose_at {
                return end(s, Some(p.other()), EndReason::TooFewPieces);
            }
            if !self.lose_next_only && self.count(s, p.other().index()) <= self.lose_at {
                return end(s, Some(p), EndReason::TooFewPieces);
            }
        }
        if s.turns >= self.turn_limit {
            return end(s, None, EndReason::TurnLimit);
        }
        if self.repetition > 0 && !self.placing(s, p.index()) && !self.placing(s, p.other().index())
        {
            let key = s.stones[0] as u64 | (s.stones[1] as u64) << 32;
            let key = key ^ ((p.index() as u64) << 63);
            s.history.push(key);
            let seen = s.history.iter().filter(|&&k| k == key).count();
            if seen >= self.repetition as usize {
                return end(s, None, EndReason::Repetition);
            }
        }
        if !self.can_move(s, p.index()) {
            match self.no_moves {
                NoMoves::Loss => end(s, Some(p.other()), EndReason::NoMoves),
                NoMoves::Draw => end(s, None, EndReason::NoMoves),
                NoMoves::Pass => {}
            }
        }
    }

    /// The reference's `can_move`.
    #[inline(always)]
    fn can_move(&self, s: &MorrisState, who: usize) -> bool {
        let empty = self.all & !self.occupied(s);
        let mine = s.stones[who];
        if self.placing(s, who) {
            return empty != 0 || (self.cancel && s.stones[1 - who] & !s.cancelled != 0);
        }
        if self.anywhere || self.flying(s, who) {
            return mine != 0 && empty != 0;
        }
        let mut f = mine;
        while f != 0 {
            let from = f.trailing_zeros();
            f &= f - 1;
            if self.adjacent[from as usize] & empty != 0 {
                return true;
            }
        }
        false
    }
}

/// The reference's `forget`: the stage-1 memory of player `who` about the stones at `m`.
#[inline(always)]
fn forget(s: &mut MorrisState, who: usize, m: u32) {
    s.fresh[who] &= !m;
    if s.away[who].is_some_and(|(_, on)| m & (1 << on) != 0) {
        s.away[who] = None;
    }
}

/// The index of the `k`-th set bit of `m` (from 0, lowest first); `m` has more than `k`.
#[inline(always)]
fn nth(mut m: u32, k: u32) -> u32 {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// Plays the feed's games on the kernel; false (nothing played) when its gate refuses the
/// rules.
pub(super) fn play(g: &MorrisGame, feed: &mut dyn Feed<MorrisState>) -> bool {
    let Some(k) = Kernel::of(g) else {
        return false;
    };
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi1") {
        // SAFETY: the processor has the features the build is compiled for.
        unsafe { play_popcnt(&k, feed) };
        return true;
    }
    play_on(&k, feed);
    true
}

/// The kernel compiled with the processor's population count and trailing-zero count
/// instructions (the baseline x86-64 build counts bits in a dozen instructions, and most of a
/// decision is counting bits).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
fn play_popcnt(k: &Kernel, feed: &mut dyn Feed<MorrisState>) {
    play_on(k, feed)
}

#[inline(always)]
fn play_on(k: &Kernel, feed: &mut dyn Feed<MorrisState>) {
    while let Some(mut p) = feed.next() {
        k.play_out(&mut p);
        feed.done(p);
    }
}
