//! The line games' rules: placement (with Dig Dig's cancelling), movement (steps, flying or
//! anywhere), lines that take or win, and the end of the game.

use super::action::MorrisAction;
use super::board::{Board, Square, bits};
use super::config::{
    Cancelled, FullBoard, LeaveLine, LineEffect, MorrisRules, NoMoves, PerMove, Step, Until,
};
use crate::game::{ActionList, Report};
use crate::outcome::{EndReason, Outcome};
use crate::player::Player;
use serde::Serialize;

/// A position of a line game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MorrisState {
    /// Each player's (uncancelled) stones on the board, as masks of point indices.
    pub(super) stones: [u32; 2],
    /// Points holding a cancelled pair (Dig Dig), removed when placement ends.
    pub(super) cancelled: u32,
    /// Stones in each player's hand (unused with an unlimited supply).
    pub(super) hand: [u8; 2],
    /// Whether the placement stage is over for good (cancelled pairs removed).
    pub(super) placed: bool,
    pub(super) to_move: Player,
    /// Takes the player to move still owes himself this turn.
    pub(super) takes: u8,
    /// Forced passes in a row (the last turns of both players were passes at 2).
    pub(super) passes: u8,
    pub(super) turns: u32,
    pub(super) outcome: Option<Outcome>,
    /// Positions since the last placement or take (movement stage, when repetition counts).
    pub(super) history: Vec<u64>,
    /// Stage 1 (`placement.leave_line`): each player's stones in the lines he formed on his
    /// last go, which he may move away on his next.
    pub(super) fresh: [u32; 2],
    /// Stage 1: each player's stone moved away from a line, as (point it left, point it is on)
    /// indices, which he may move back.
    pub(super) away: [Option<(u8, u8)>; 2],
}

impl MorrisState {
    /// The stones of `p` on the board (uncancelled), as a mask of point indices.
    pub fn stones(&self, p: Player) -> u32 {
        self.stones[p.index()]
    }
    /// Points holding a cancelled pair.
    pub fn cancelled(&self) -> u32 {
        self.cancelled
    }
    /// Stones in `p`'s hand.
    pub fn hand(&self, p: Player) -> u8 {
        self.hand[p.index()]
    }
    /// The player to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then_some(self.to_move)
    }
    /// Stage 1: the stones of `p` he may move away from a line just formed, as a mask.
    pub fn fresh(&self, p: Player) -> u32 {
        self.fresh[p.index()]
    }
    /// Stage 1: the stone of `p` moved away from a line, as (point it left, point it is on)
    /// indices.
    pub fn away(&self, p: Player) -> Option<(usize, usize)> {
        self.away[p.index()].map(|(a, b)| (a as usize, b as usize))
    }
    /// Takes the player to move still owes himself.
    pub fn takes_owed(&self) -> u8 {
        self.takes
    }
    /// The result, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// Completed turns.
    pub fn turns(&self) -> u32 {
        self.turns
    }
    /// Forgets the turn count and the repetition history (for solvers, which identify
    /// positions by [`MorrisState::key`]).
    pub(crate) fn reset_clock(&mut self) {
        self.turns = 0;
        self.history.clear();
    }

    /// A compact key of the position (stones of each player, cancelled points, hands, player
    /// to move, takes owed and forced passes in a row), without the turn count: for solvers
    /// and repetition. It leaves out the stage-1 memory of `placement.leave_line` (solvers
    /// run on rulesets without it).
    pub fn key(&self) -> u128 {
        self.stones[0] as u128
            | (self.stones[1] as u128) << 32
            | (self.cancelled as u128) << 64
            | (self.hand[0] as u128) << 96
            | (self.hand[1] as u128) << 104
            | (self.to_move.index() as u128) << 112
            | (self.takes as u128) << 113
            | (self.placed as u128) << 117
            | (self.passes.min(3) as u128) << 118
    }
}

/// What happened during an action (for replays).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MorrisEvent {
    /// A stone was placed.
    Place {
        /// By whom.
        player: Player,
        /// Where.
        point: Square,
    },
    /// A stone was placed on an opponent's stone, cancelling both.
    Cancel {
        /// By whom.
        player: Player,
        /// Where.
        point: Square,
    },
    /// A stone moved.
    Move {
        /// By whom.
        player: Player,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A line of three was made.
    Line {
        /// By whom.
        player: Player,
        /// Its points.
        points: Vec<Square>,
    },
    /// A stone was taken.
    Take {
        /// By whom.
        player: Player,
        /// Where.
        point: Square,
    },
    /// The cancelled pairs were removed at the end of placement.
    RemoveCancelled {
        /// Where.
        points: Vec<Square>,
    },
    /// A player passed.
    Pass {
        /// Who.
        player: Player,
    },
}

/// A line game with its compiled rules.
#[derive(Clone, Debug)]
pub struct MorrisGame {
    rules: MorrisRules,
}

impl MorrisGame {
    /// A game over these rules.
    pub fn new(rules: MorrisRules) -> MorrisGame {
        MorrisGame { rules }
    }

    /// The rules.
    pub fn rules(&self) -> &MorrisRules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.rules.board
    }

    /// The start position: empty board, full hands.
    pub fn initial_state(&self) -> MorrisState {
        let c = &self.rules.config;
        MorrisState {
            stones: [0, 0],
            cancelled: 0,
            hand: [c.stones, c.stones],
            placed: false,
            to_move: c.first_player,
            takes: 0,
            passes: 0,
            turns: 0,
            outcome: None,
            history: Vec::new(),
            fresh: [0, 0],
            away: [None, None],
        }
    }

    /// A position set up by hand (stones on the board as masks, hands, player to move), in the
    /// placement or movement stage as the hands say; for tests and analysis.
    pub fn setup(&self, stones: [u32; 2], hand: [u8; 2], to_move: Player) -> MorrisState {
        let mut s = self.initial_state();
        s.stones = stones;
        s.hand = if self.unlimited() { [0, 0] } else { hand };
        s.placed = !self.unlimited() && hand == [0, 0];
        s.to_move = to_move;
        s
    }

    fn unlimited(&self) -> bool {
        self.rules.config.stones == 0
    }

    fn occupied(&self, s: &MorrisState) -> u32 {
        s.stones[0] | s.stones[1] | s.cancelled
    }

    /// Whether `p` is still placing stones.
    pub fn placing(&self, s: &MorrisState, p: Player) -> bool {
        if self.unlimited() {
            !s.placed
        } else {
            s.hand[p.index()] > 0
        }
    }

    /// Stones `p` still has: on the board (uncancelled) and in hand.
    pub fn count(&self, s: &MorrisState, p: Player) -> u32 {
        s.stones[p.index()].count_ones() + s.hand[p.index()] as u32
    }

    /// Whether `p` moves by flying (any stone to any empty point).
    pub fn flying(&self, s: &MorrisState, p: Player) -> bool {
        let f = self.rules.config.movement.flying_at as u32;
        f > 0 && !self.placing(s, p) && s.stones[p.index()].count_ones() == f
    }

    /// The opponent's stones `p` may take now.
    pub fn takeable(&self, s: &MorrisState, p: Player) -> u32 {
        let theirs = s.stones[p.other().index()];
        if self.rules.config.take.protect_lines {
            let free = theirs & !self.board().in_lines(theirs);
            if free != 0 {
                return free;
            }
        }
        theirs
    }

    /// The legal actions (empty once the game is over).
    pub fn legal_actions(&self, s: &MorrisState, out: &mut ActionList<MorrisAction>) {
        out.clear();
        if s.outcome.is_some() {
            return;
        }
        let p = s.to_move;
        let b = self.board();
        if s.takes > 0 {
            for i in bits(self.takeable(s, p)) {
                out.push(MorrisAction::Take(b.square(i)));
            }
            if out.is_empty() {
                // `lines.pass_if_no_take`: a take owed with nothing to take.
                out.push(MorrisAction::Pass);
            }
            return;
        }
        self.moves(s, p, out);
        if out.is_empty() {
            out.push(MorrisAction::Pass);
        }
    }

    /// The placements or moves of `p` (no takes, no pass).
    fn moves(&self, s: &MorrisState, p: Player, out: &mut ActionList<MorrisAction>) {
        let b = self.board();
        let empty = b.all() & !self.occupied(s);
        if self.placing(s, p) {
            let mut targets = empty;
            if self.rules.config.placement.cancel {
                // Only a single man: never one standing on a cancelled man.
                targets |= s.stones[p.other().index()] & !s.cancelled;
            }
            for i in bits(targets) {
                out.push(MorrisAction::Place(b.square(i)));
            }
            self.stage_one_moves(s, p, out);
            return;
        }
        let anywhere = self.rules.config.movement.step == Step::Anywhere || self.flying(s, p);
        for from in bits(s.stones[p.index()]) {
            let to = if anywhere {
                empty
            } else {
                b.adjacent[from] & empty
            };
            for t in bits(to) {
                out.push(MorrisAction::Move(b.square(from), b.square(t)));
            }
        }
    }

    /// Stage 1 (`placement.leave_line`): a stone of a line `p` formed on his last go may step
    /// away, and a stone moved away may go back to the point it left.
    fn stage_one_moves(&self, s: &MorrisState, p: Player, out: &mut ActionList<MorrisAction>) {
        if self.rules.config.placement.leave_line == LeaveLine::Off {
            return;
        }
        let b = self.board();
        let empty = b.all() & !self.occupied(s);
        let mine = s.stones[p.index()];
        for from in bits(s.fresh[p.index()] & mine) {
            for t in bits(b.adjacent[from] & empty) {
                out.push(MorrisAction::Move(b.square(from), b.square(t)));
            }
        }
        if let Some((left, on)) = s.away[p.index()] {
            let (left, on) = (left as usize, on as usize);
            let back = MorrisAction::Move(b.square(on), b.square(left));
            if mine & (1 << on) != 0 && empty & (1 << left) != 0 && !out.contains(&back) {
                out.push(back);
            }
        }
    }

    /// Whether `p` has a placement or move (the same test as [`Self::moves`], without the list).
    fn can_move(&self, s: &MorrisState, p: Player) -> bool {
        let b = self.board();
        let empty = b.all() & !self.occupied(s);
        let mine = s.stones[p.index()];
        if self.placing(s, p) {
            let cancel = self.rules.config.placement.cancel;
            return empty != 0 || (cancel && s.stones[p.other().index()] & !s.cancelled != 0);
        }
        if self.rules.config.movement.step == Step::Anywhere || self.flying(s, p) {
            return mine != 0 && empty != 0;
        }
        bits(mine).any(|from| b.adjacent[from] & empty != 0)
    }

    /// Applies a legal action.
    pub fn apply_unchecked(&self, s: &mut MorrisState, a: MorrisAction) -> Report {
        self.apply_inner(s, a, &mut None)
    }

    /// Applies a legal action and lists what happened.
    pub fn apply_traced(&self, s: &mut MorrisState, a: MorrisAction) -> (Report, Vec<MorrisEvent>) {
        let mut ev = Some(Vec::new());
        let rep = self.apply_inner(s, a, &mut ev);
        (rep, ev.unwrap_or_default())
    }

    fn apply_inner(
        &self,
        s: &mut MorrisState,
        a: MorrisAction,
        ev: &mut Option<Vec<MorrisEvent>>,
    ) -> Report {
        let mut rep = Report {
            moves: 1,
            ..Report::default()
        };
        let c = &self.rules.config;
        let b = self.board();
        let p = s.to_move;
        let me = p.index();
        let bit = |q: Square| b.index_of(q).map_or(0, |i| 1u32 << i);
        let mut log = |e: MorrisEvent| {
            if let Some(v) = ev.as_mut() {
                v.push(e)
            }
        };
        if a != MorrisAction::Pass {
            s.passes = 0;
        }
        match a {
            MorrisAction::Pass => {
                log(MorrisEvent::Pass { player: p });
                if s.takes > 0 {
                    // A line's take with nothing to take (`lines.pass_if_no_take`): the turn
                    // ends; it was no turn of a single pass.
                    s.passes = 0;
                    self.end_turn_after_pass(s, ev);
                    return rep;
                }
                s.passes = s.passes.saturating_add(1);
                if s.passes >= 2 {
                    // Every player's last turn was a forced pass: Ludii's all-pass draw.
                    s.turns += 1;
                    s.to_move = p.other();
                    s.outcome = Some(Outcome {
                        winner: None,
                        reason: EndReason::NoMoves,
                        turns: s.turns,
                    });
                    return rep;
                }
                self.end_turn_after_pass(s, ev);
                return rep;
            }
            MorrisAction::Take(q) => {
                s.stones[1 - me] &= !bit(q);
                forget(s, 1 - me, bit(q));
                s.takes -= 1;
                s.history.clear();
                rep.captured = 1;
                rep.takes = 1;
                log(MorrisEvent::Take {
                    player: p,
                    point: q,
                });
                if self.count(s, p.other()) <= c.end.lose_at as u32 && self.loss_counts(s) {
                    s.outcome = Some(Outcome {
                        winner: Some(p),
                        reason: EndReason::TooFewPieces,
                        turns: s.turns + 1,
                    });
                    return rep;
                }
                if s.takes == 0 || self.takeable(s, p) == 0 {
                    s.takes = 0;
                    self.end_turn(s, ev);
                }
                return rep;
            }
            MorrisAction::Place(q) => {
                let m = bit(q);
                if !self.unlimited() {
                    s.hand[me] -= 1;
                }
                s.history.clear();
                s.fresh[me] = 0;
                if s.stones[1 - me] & m != 0 {
                    s.stones[1 - me] &= !m;
                    forget(s, 1 - me, m);
                    s.cancelled |= m;
                    log(MorrisEvent::Cancel {
                        player: p,
                        point: q,
                    });
                    if c.placement.cancelled == Cancelled::Opponent {
                        // The placer's man stays on top, an ordinary man of his.
                        s.stones[me] |= m;
                        self.after_line(s, m, true, &mut rep, ev);
                        self.cut_at_limit(s);
                        return rep;
                    }
                    if c.placement.cancel_line {
                        self.after_line(s, m, true, &mut rep, ev);
                        self.cut_at_limit(s);
                    } else {
                        self.end_turn(s, ev);
                    }
                    return rep;
                }
                s.stones[me] |= m;
                log(MorrisEvent::Place {
                    player: p,
                    point: q,
                });
                self.after_line(s, m, true, &mut rep, ev);
            }
            MorrisAction::Move(from, to) => {
                let flying = self.flying(s, p);
                let m = bit(to);
                let mut may_take = !flying || c.lines.flying_takes;
                if self.placing(s, p) {
                    // Stage 1: moving a stone back, or away from a line just formed.
                    let (f, t) = (b.index_of(from), b.index_of(to));
                    let pair = f.zip(t).map(|(f, t)| (f as u8, t as u8));
                    if pair.is_some_and(|(f, t)| s.away[me] == Some((t, f))) {
                        s.away[me] = None;
                        may_take = c.placement.return_takes;
                    } else {
                        s.away[me] = pair;
                    }
                    s.history.clear();
                }
                s.fresh[me] = 0;
                s.stones[me] = (s.stones[me] & !bit(from)) | m;
                log(MorrisEvent::Move {
                    player: p,
                    from,
                    to,
                });
                self.after_line(s, m, may_take, &mut rep, ev);
            }
        }
        self.cut_at_limit(s);
        rep
    }

    /// `end.limit_cuts_turn`: the turn limit's last turn ends the game after its first action,
    /// even when a take is owed (Ludii cuts after the first move of turn 2,500).
    fn cut_at_limit(&self, s: &mut MorrisState) {
        let end = &self.rules.config.end;
        if end.limit_cuts_turn
            && s.outcome.is_none()
            && s.takes > 0
            && s.turns + 1 >= end.turn_limit
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

    /// After a stone arrived at `m` (or cancelled an enemy stone there, with
    /// `placement.cancel_line`): lines through `m` of the player's uncancelled stones, takes
    /// owed or the win, end of turn.
    fn after_line(
        &self,
        s: &mut MorrisState,
        m: u32,
        may_take: bool,
        rep: &mut Report,
        ev: &mut Option<Vec<MorrisEvent>>,
    ) {
        let c = &self.rules.config;
        let b = self.board();
        let p = s.to_move;
        let i = m.trailing_zeros() as usize;
        let mine = s.stones[p.index()] | m;
        // At most four lines pass through a point of any board.
        let made: arrayvec::ArrayVec<u32, 4> = b.lines_through[i]
            .iter()
            .copied()
            .filter(|&l| mine & l == l)
            .collect();
        if let Some(v) = ev.as_mut() {
            for &l in &made {
                v.push(MorrisEvent::Line {
                    player: p,
                    points: b.squares(l).collect(),
                });
            }
        }
        if c.placement.leave_line != LeaveLine::Off && self.placing(s, p) {
            s.fresh[p.index()] = made.iter().fold(0, |a, l| a | l);
        }
        rep.captures = made.len() as u32;
        if !made.is_empty() {
            match c.lines.effect {
                LineEffect::Win => {
                    s.outcome = Some(Outcome {
                        winner: Some(p),
                        reason: EndReason::Line,
                        turns: s.turns + 1,
                    });
                    return;
                }
                LineEffect::Take if may_take && self.takeable(s, p) != 0 => {
                    s.takes = match c.lines.per_move {
                        PerMove::One => 1,
                        PerMove::Each => made.len() as u8,
                    };
                    return;
                }
                LineEffect::Take if may_take && c.lines.pass_if_no_take => {
                    // Nothing to take. An opponent already short has lost (Ludii's end rules
                    // follow every move); otherwise the take is owed and passed (see
                    // `legal_actions`).
                    if self.loss_counts(s) && self.count(s, p.other()) <= c.end.lose_at as u32 {
                        s.outcome = Some(Outcome {
                            winner: Some(p),
                            reason: EndReason::TooFewPieces,
                            turns: s.turns + 1,
                        });
                        return;
                    }
                    s.takes = 1;
                    return;
                }
                LineEffect::Take => {}
            }
        }
        self.end_turn(s, ev);
    }

    /// Whether the piece-count loss applies now (with an unlimited supply, only once placement
    /// is over).
    fn loss_counts(&self, s: &MorrisState) -> bool {
        !self.unlimited() || s.placed
    }

    fn end_turn(&self, s: &mut MorrisState, ev: &mut Option<Vec<MorrisEvent>>) {
        self.end_turn_by(s, ev, false)
    }

    /// Ends a turn whose last action was a pass. A pass changes nothing on the board, so the
    /// end of placement is not looked for (as in Ludii's Dig Dig, where the full-board check
    /// follows a move, never a forced pass).
    fn end_turn_after_pass(&self, s: &mut MorrisState, ev: &mut Option<Vec<MorrisEvent>>) {
        self.end_turn_by(s, ev, true)
    }

    fn end_turn_by(&self, s: &mut MorrisState, ev: &mut Option<Vec<MorrisEvent>>, pass: bool) {
        let c = &self.rules.config;
        let b = self.board();
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
        // The end of placement.
        let mut placement_ended = false;
        if !s.placed && !pass {
            let over = match c.placement.until {
                Until::HandsEmpty => s.hand == [0, 0],
                Until::BoardFull => self.occupied(s) == b.all(),
            };
            if over {
                s.placed = true;
                placement_ended = true;
                if s.cancelled != 0 {
                    if let Some(v) = ev.as_mut() {
                        v.push(MorrisEvent::RemoveCancelled {
                            points: b.squares(s.cancelled).collect(),
                        });
                    }
                    s.cancelled = 0;
                }
                if c.end.full_board == FullBoard::Draw && self.occupied(s) == b.all() {
                    return end(s, None, EndReason::NoMoves);
                }
            }
        }
        let p = s.to_move;
        // Ludii's Dig Dig keeps its end rule in the movement phase: the move that ends
        // placement is a placement move, so nobody is counted until the next action.
        let checked = match (c.end.lose_next_only, placement_ended && self.unlimited()) {
            (true, true) => 0,
            (true, false) => 1,
            (false, _) => 2,
        };
        for q in [p, p.other()].into_iter().take(checked) {
            if self.count(s, q) <= c.end.lose_at as u32 && self.loss_counts(s) {
                return end(s, Some(q.other()), EndReason::TooFewPieces);
            }
        }
        if s.turns >= c.end.turn_limit {
            return end(s, None, EndReason::TurnLimit);
        }
        if c.end.repetition > 0 && !self.placing(s, p) && !self.placing(s, p.other()) {
            let key = s.stones[0] as u64 | (s.stones[1] as u64) << 32;
            let key = key ^ ((p.index() as u64) << 63);
            s.history.push(key);
            let seen = s.history.iter().filter(|&&k| k == key).count();
            if seen >= c.end.repetition as usize {
                return end(s, None, EndReason::Repetition);
            }
        }
        if !self.can_move(s, p) {
            match c.end.no_moves {
                NoMoves::Loss => end(s, Some(p.other()), EndReason::NoMoves),
                NoMoves::Draw => end(s, None, EndReason::NoMoves),
                // A forced pass: his one legal action (see `apply_inner`).
                NoMoves::Pass => {}
            }
        }
    }

    /// The position as JSON: stones by player, cancelled points, hands, stage, player to move,
    /// takes owed and legal actions.
    pub fn state_json(&self, s: &MorrisState) -> serde_json::Value {
        let b = self.board();
        let mut legal = ActionList::new();
        self.legal_actions(s, &mut legal);
        let stage = |p: Player| {
            if self.placing(s, p) {
                "placement"
            } else if self.flying(s, p) {
                "flying"
            } else {
                "movement"
            }
        };
        let mut v = serde_json::json!({
            "board": {
                "A": b.squares(s.stones[0]).collect::<Vec<_>>(),
                "B": b.squares(s.stones[1]).collect::<Vec<_>>(),
                "cancelled": b.squares(s.cancelled).collect::<Vec<_>>(),
            },
            "hand": {"A": s.hand[0], "B": s.hand[1]},
            "stage": {"A": stage(Player::A), "B": stage(Player::B)},
            "to_move": s.to_move(),
            "takes_owed": s.takes,
            "legal": legal.as_slice(),
        });
        if self.rules.config.placement.leave_line != LeaveLine::Off {
            v["stage_1"] = serde_json::json!({
                "may_leave": {
                    "A": b.squares(s.fresh[0] & s.stones[0]).collect::<Vec<_>>(),
                    "B": b.squares(s.fresh[1] & s.stones[1]).collect::<Vec<_>>(),
                },
                "away": {
                    "A": s.away[0].map(|(l, o)| [b.square(l as usize), b.square(o as usize)]),
                    "B": s.away[1].map(|(l, o)| [b.square(l as usize), b.square(o as usize)]),
                },
            });
        }
        v
    }
}

/// Forgets the stage-1 memory of player index `who` about the stone(s) at `m` (taken or
/// cancelled).
fn forget(s: &mut MorrisState, who: usize, m: u32) {
    s.fresh[who] &= !m;
    if s.away[who].is_some_and(|(_, on)| m & (1 << on) != 0) {
        s.away[who] = None;
    }
}
