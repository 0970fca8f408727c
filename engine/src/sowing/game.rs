//! Playing a four-row sowing game: legal actions and their effects.

use super::action::{Action, RelayChoice};
use super::config::{
    BackCapture, ConfigError, Endless, HeadLanding, Limits, MutualPass, NoMoves, Resow,
};
use super::rules::{OpeningRule, Rules};
use super::state::BoardView;
use super::state::{Open, Pending, SowingState};
use crate::game::{ActionList, Report};
use crate::notation::Row;
use crate::notation::{Hole, SIDE_CAP};
use crate::outcome::{EndReason, Outcome};
use crate::player::Player;

/// Laps of one relay after which the engine starts watching for a repeating (endless) relay.
pub(super) const WATCH_AFTER: u32 = 64;

/// A four-row sowing game: rules plus the machinery to play them.
#[derive(Clone, Debug)]
pub struct SowingGame {
    rules: Rules,
    /// The start position, computed once.
    start: Box<SowingState>,
}

/// Brent's cycle detection over the lap states of one relay (a side, in whatever form the
/// caller holds it, and the hole about to be lifted).
pub(super) struct Brent<T> {
    saved: Option<(T, usize)>,
    power: u32,
    lam: u32,
}

impl<T: Copy + PartialEq> Brent<T> {
    pub(super) fn new() -> Self {
        Brent {
            saved: None,
            power: 1,
            lam: 0,
        }
    }

    /// Called before each lap with the side and the hole about to be lifted; true when this
    /// exact state was seen before, so the relay repeats forever.
    #[inline]
    pub(super) fn repeats(&mut self, side: &T, pos: usize) -> bool {
        if let Some((saved, saved_pos)) = &self.saved
            && *saved_pos == pos
            && saved == side
        {
            return true;
        }
        self.lam += 1;
        if self.lam >= self.power {
            self.saved = Some((*side, pos));
            self.power *= 2;
            self.lam = 0;
        }
        false
    }

    /// The period of the repetition just reported by [`repeats`](Self::repeats), in laps.
    pub(super) fn period(&self) -> u32 {
        self.lam + 1
    }
}

impl SowingGame {
    /// A game with these rules.
    pub fn new(rules: Rules) -> Self {
        let start = Box::new(start_state(&rules));
        let mut g = SowingGame { rules, start };
        let mut s = (*g.start).clone();
        g.begin_turn(&mut s);
        *g.start = s;
        g
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The start position.
    #[inline]
    pub fn initial_state(&self) -> SowingState {
        (*self.start).clone()
    }

    /// A position for study or tests: this board, this player to move, at the start of a turn
    /// in ordinary play (openings and nominations over), no stones captured yet.
    pub fn setup(&self, board: &BoardView, to_move: Player) -> Result<SowingState, ConfigError> {
        let r = &self.rules;
        let n = r.n as usize;
        let mut pits = [[0u8; SIDE_CAP]; 2];
        for (row, counts) in [
            (Row::I, &board.i),
            (Row::Ii, &board.ii),
            (Row::Iii, &board.iii),
            (Row::Iv, &board.iv),
        ] {
            if counts.len() != n {
                return Err(ConfigError::new(
                    format!("board.{row}"),
                    format!("{} holes given: the board has {n} per row", counts.len()),
                ));
            }
            for (i, &v) in counts.iter().enumerate() {
                let h = Hole::new(row, i as u8 + 1);
                pits[h.owner().index()][h.track(r.n)] = v;
            }
        }
        let total: u32 = pits.iter().flatten().map(|&v| v as u32).sum();
        if total > super::rules::MAX_STONES {
            return Err(ConfigError::new(
                "board",
                format!("{total} stones: at most 255"),
            ));
        }
        let mut s = fresh_state(r, pits, to_move, Open::Done, 0);
        self.begin_turn(&mut s);
        Ok(s)
    }

    /// The legal actions at this point (none when the game is over).
    pub fn legal_actions(&self, s: &SowingState, out: &mut ActionList<Action>) {
        out.clear();
        if s.outcome.is_some() {
            return;
        }
        let r = &self.rules;
        let p = s.to_move;
        let me = p.index();
        let n = r.n;
        let len = r.len;
        match s.pending {
            Pending::Relay { .. } => {
                out.push(Action::Relay(RelayChoice::Stop));
                out.push(Action::Relay(RelayChoice::Continue));
            }
            Pending::Takes { .. } => {
                let opp = p.other();
                let mut m = self.take_mask(s);
                while m != 0 {
                    let k = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out.push(Action::Take(Hole::from_track(opp, k, n)));
                }
                if r.takes_optional || (r.takes_shared && out.is_empty()) {
                    // The taker declines the takes still due, or (a shared count) cannot make
                    // any: a forced pass.
                    out.push(Action::Pass);
                }
            }
            Pending::Start => {
                if s.nominations_left[me] > 0 {
                    for k in 0..n as usize {
                        if s.heads[me] >> k & 1 == 0 {
                            out.push(Action::Nominate(Hole::from_track(p, k, n)));
                        }
                    }
                    return;
                }
                let side = &s.pits[me];
                match s.open[me] {
                    Open::Forced => {
                        if let OpeningRule::Forced { k, .. } = r.opening {
                            out.push(Action::Sow(Hole::from_track(p, k, n)));
                        }
                    }
                    Open::Pairs | Open::LudiiPairs => {
                        for (k, &v) in side[..len].iter().enumerate() {
                            if v == 2 {
                                out.push(Action::Sow(Hole::from_track(p, k, n)));
                            }
                        }
                    }
                    Open::Spread => out.push(Action::Sow(Hole::from_track(p, 0, n))),
                    Open::LudiiSpread => {
                        for (k, &v) in side[..len].iter().enumerate() {
                            if v == 29 {
                                out.push(Action::Sow(Hole::from_track(p, k, n)));
                            }
                        }
                    }
                    Open::OneCounter | Open::LudiiEndRelay => {
                        out.push(Action::Sow(Hole::from_track(p, n as usize - 1, n)))
                    }
                    Open::LudiiBaiaFirst => {
                        if let OpeningRule::LudiiBaia { k } = r.opening {
                            out.push(Action::Sow(Hole::from_track(p, k, n)));
                        }
                    }
                    Open::LudiiEndPair => out.push(Action::Move([
                        Hole::from_track(p, n as usize - 2, n),
                        Hole::from_track(p, n as usize - 1, n),
                    ])),
                    Open::LudiiRemovePair => {
                        out.push(Action::Take(Hole::from_track(p, n as usize + 1, n)))
                    }
                    Open::Done => self.normal_sows(s, out),
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
        }
    }

    /// How many legal actions there are at this point (as many as
    /// [`legal_actions`](Self::legal_actions) lists, without listing them in ordinary play or nominations).
    pub fn legal_count(&self, s: &SowingState) -> usize {
        if s.outcome.is_none() {
            match s.pending {
                Pending::Start if s.nominations_left[s.to_move.index()] > 0 => {
                    return self.nominable(s).count_ones() as usize;
                }
                Pending::Start if s.mask != 0 => return s.mask.count_ones() as usize,
                Pending::Takes { .. } => {
                    let takes = self.take_mask(s).count_ones() as usize;
                    let pass = self.rules.takes_optional || (self.rules.takes_shared && takes == 0);
                    return takes + pass as usize;
                }
                Pending::Relay { .. } => return 2,
                Pending::Start => {}
            }
        }
        let mut l = ActionList::new();
        self.legal_actions(s, &mut l);
        l.len()
    }

    /// The same rules with at most this turn limit (for playouts cut short).
    pub fn with_turn_limit(&self, turn_limit: u32) -> SowingGame {
        let mut rules = self.rules.clone();
        let end = &mut rules.config.end;
        end.turn_limit = end.turn_limit.min(turn_limit.max(1));
        SowingGame::new(rules)
    }

    /// The same rules for random rollouts from `from`, cut `moves` moves past it (a draw,
    /// reason `move_limit`). Under Ludii's limits, when the game's last turn cannot come
    /// before the cut (a turn is at least one move, or a pass answered by a move), the limits
    /// become whole turns: the games end with the same results, and on the kernel without
    /// replays (`sowing/capped.rs`).
    pub fn rollout_game(&self, from: &SowingState, moves: u32) -> SowingGame {
        let mut rules = self.rules.clone();
        let cut = from.moves.saturating_add(moves);
        let end = &mut rules.config.end;
        if cut < end.move_limit {
            end.move_limit = cut;
            let last_turn_reachable =
                from.turns as u64 + 2 * moves as u64 + 2 >= end.turn_limit as u64;
            if end.limits == Limits::Ludii && !last_turn_reachable {
                end.limits = Limits::WholeTurns;
                rules.ludii_board = false;
            }
        }
        SowingGame::new(rules)
    }

    /// Ordinary sowing moves of the player to move.
    fn normal_sows(&self, s: &SowingState, out: &mut ActionList<Action>) {
        let p = s.to_move;
        let mut m = s.mask;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push(Action::Sow(Hole::from_track(p, k, self.rules.n)));
        }
    }

    /// The holes (bits of track indices) the player to move may sow in ordinary play.
    #[inline]
    pub(crate) fn sow_mask(&self, s: &SowingState) -> u64 {
        self.sow_mask_of(s, s.to_move)
    }

    /// The holes player `p` could sow in ordinary play if it were his turn.
    #[inline]
    pub fn sow_mask_of(&self, s: &SowingState, p: Player) -> u64 {
        let (occupied, multi) = occupied_multi(&s.pits[p.index()], self.rules.len);
        self.moves_from(occupied, multi)
    }

    /// The ordinary moves of a side from its occupied holes and its holes of two or more (bits
    /// of track indices).
    #[inline(always)]
    pub(super) fn moves_from(&self, occupied: u64, multi: u64) -> u64 {
        let r = &self.rules;
        let full = (1u64 << r.len) - 1;
        let (occupied, multi) = (occupied & full, multi & full);
        let empty = !occupied & full;
        // A single at k needs hole k+1 (k = len-1 wraps to 0) empty, if the rules say so.
        let next_empty = (empty >> 1) | ((empty & 1) << (r.len - 1));
        let singles = occupied
            & !multi
            & if r.singles.into_empty {
                next_empty
            } else {
                full
            };
        // Singles only when no hole holds more (if restricted): a mask, not a branch.
        let allowed = ((multi == 0) | !r.singles.restricted) as u64;
        let m = multi | (singles & allowed.wrapping_neg());
        if r.after_empty {
            // Only holes whose previous hole (k-1; 0's is len-1) is empty.
            let prev_empty = ((empty << 1) | (empty >> (r.len - 1))) & full;
            m & prev_empty
        } else {
            m
        }
    }

    /// A uniformly random legal action (the same distribution as drawing from
    /// [`legal_actions`](Self::legal_actions), without listing them in ordinary play or nominations).
    #[inline]
    pub fn random_action(&self, s: &SowingState, rng: &mut crate::rng::Rng) -> Option<Action> {
        if s.outcome.is_none() {
            if s.pending == Pending::Start && s.nominations_left[s.to_move.index()] > 0 {
                let m = self.nominable(s);
                return (m != 0).then(|| {
                    let k = pick(m, rng);
                    Action::Nominate(Hole::from_track(s.to_move, k, self.rules.n))
                });
            }
            if s.mask != 0 && s.pending == Pending::Start {
                let k = pick(s.mask, rng);
                return Some(Action::Sow(Hole::from_track(s.to_move, k, self.rules.n)));
            }
            if let Pending::Takes { .. } = s.pending
                && !self.rules.takes_optional
                && self.take_mask(s) != 0
            {
                let k = pick(self.take_mask(s), rng);
                return Some(Action::Take(Hole::from_track(
                    s.to_move.other(),
                    k,
                    self.rules.n,
                )));
            }
        }
        crate::game::random_legal(self, s, rng)
    }

    /// A random nomination of a head, drawn and played in a random playout exactly as
    /// [`reference_step`](crate::playout::reference_step) draws, plays and counts it, without
    /// going through the action list (the kernel's games nominate before they come to the
    /// lanes). False, having done nothing, when the player to move is not nominating.
    pub(crate) fn random_nomination(&self, p: &mut crate::playout::Playout<SowingState>) -> bool {
        let s = &mut p.state;
        let mover = s.to_move;
        let me = mover.index();
        if s.outcome.is_some() || s.pending != Pending::Start || s.nominations_left[me] == 0 {
            return false;
        }
        let m = self.nominable(s);
        if m == 0 {
            return false;
        }
        // A back row of up to 8 holes (most boards) by two lookups: each nomination's set is
        // the previous one's less its pick, so the nominations are a chain of dependent draws.
        let (size, k) = if m < 256 {
            let size = BYTE_SIZE[m as usize] as usize;
            (size, SELECT_IN_BYTE[m as usize][p.rng.below(size)] as usize)
        } else {
            let sums = byte_counts(m);
            let size = (sums >> 56) as usize;
            (size, select(m, sums, p.rng.below(size) as u64))
        };
        // As apply_inner plays `Action::Nominate` (Ludii's cut cannot apply: the turn ends).
        s.heads[me] |= 1 << k;
        s.nominations_left[me] -= 1;
        s.moves += 1;
        self.end_turn(s);
        if s.outcome.is_none() && s.moves >= self.rules.config.end.move_limit {
            finish(s, None, EndReason::MoveLimit);
        }
        let rep = Report {
            moves: 1,
            ..Report::default()
        };
        p.tally.record(mover, size, &rep);
        true
    }

    /// The holes the player to move may still nominate as heads (bits of track indices: his
    /// back row's holes not yet heads), in the order [`legal_actions`](Self::legal_actions)
    /// lists them.
    #[inline]
    fn nominable(&self, s: &SowingState) -> u64 {
        !s.heads[s.to_move.index()] & ((1u64 << self.rules.n) - 1)
    }

    /// The opponent's holes (bits of track indices) an additional take may empty.
    #[inline]
    pub(super) fn take_mask(&self, s: &SowingState) -> u64 {
        let o = s.to_move.other().index();
        self.takes_from(s, occupied_multi(&s.pits[o], self.rules.len).0)
    }

    /// When additional takes are due, a take of the fullest hole the takes may empty (the first
    /// such in track order); `None` at any other decision. See
    /// [`Game::dominant_take`](crate::game::Game::dominant_take).
    ///
    /// Why one such take starts a best continuation of every length: a take empties one hole
    /// of the opponent's and changes nothing else the chain depends on (the holes a take may
    /// empty are the occupied ones less the heads, if immune, and the protected opening hole,
    /// neither of which changes during the mover's turn; the takes left count down by one; the
    /// move count rises by one), so the takes of a chain commute and a chain is worth only
    /// the set of holes it empties. Every chain runs the same number of takes (until the takes
    /// due or the takeable holes run out, or the move limit or the caller's depth cuts it), so
    /// the best set is the fullest holes, and it contains the fullest one. The game can end
    /// within the chain only as a win (the opponent's last stone taken: every chain of that
    /// length takes them all) or a draw at the move limit; when the chain ends the turn, only
    /// as a draw at the turn limit or the move limit, because the opponent then has a move (or
    /// is still in an opening or nominating heads, which ends nothing): he has stones, and the
    /// hole just emptied, so some occupied hole of his is followed by an empty one.
    pub fn dominant_take(&self, s: &SowingState) -> Option<Action> {
        if s.outcome.is_some() || !matches!(s.pending, Pending::Takes { .. }) {
            return None;
        }
        let opp = s.to_move.other();
        let side = &s.pits[opp.index()];
        let mut m = self.take_mask(s);
        let mut best: Option<usize> = None;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if best.is_none_or(|b| side[k] > side[b]) {
                best = Some(k);
            }
        }
        best.map(|k| Action::Take(Hole::from_track(opp, k, self.rules.n)))
    }

    /// The opponent's holes an additional take may empty, from his occupied holes.
    #[inline(always)]
    pub(super) fn takes_from(&self, s: &SowingState, occupied: u64) -> u64 {
        let r = &self.rules;
        let o = s.to_move.other().index();
        let mut m = occupied & ((1u64 << r.len) - 1);
        if r.heads_immune {
            m &= !s.heads[o];
        }
        if let OpeningRule::Forced { k, protect: true } = r.opening
            && s.open[o] == Open::Forced
        {
            m &= !(1u64 << k);
        }
        if let OpeningRule::LudiiBaia { k } = r.opening {
            // Ludii's Baia: the opponent's first hole, for good.
            m &= !(1u64 << k);
        }
        m
    }

    /// Applies an action known to be legal (taken from [`legal_actions`](Self::legal_actions)).
    #[inline]
    pub fn apply_unchecked(&self, s: &mut SowingState, a: Action) -> Report {
        self.apply_inner(s, a, &mut None)
    }

    /// Applies a legal action and lists what happened, lap by lap.
    pub fn apply_traced(&self, s: &mut SowingState, a: Action) -> (Report, Vec<Event>) {
        let mut events = Some(Vec::new());
        let rep = self.apply_inner(s, a, &mut events);
        (rep, events.unwrap_or_default())
    }

    fn apply_inner(&self, s: &mut SowingState, a: Action, ev: &mut Option<Vec<Event>>) -> Report {
        let mut rep = Report::default();
        let me = s.to_move.index();
        let moves_before = s.moves;
        // Ludii's turn limit cuts the game after the first move of turn `turn_limit` (a turn
        // begins at its start, or with takes owed from the turn before).
        let cut = self.rules.config.end.limits == Limits::Ludii
            && (s.pending == Pending::Start || s.carried)
            && s.turns + 1 >= self.rules.config.end.turn_limit;
        match (s.pending, a) {
            (Pending::Start, Action::Nominate(h)) => {
                s.heads[me] |= 1 << h.track(s.n);
                s.nominations_left[me] -= 1;
                s.moves += 1;
                self.end_turn(s);
            }
            (Pending::Start, Action::Pass) => {
                s.moves += 1;
                if s.open[me] == Open::LudiiPairs && !has_count(&s.pits[me], self.rules.len, 2) {
                    s.open = [Open::LudiiSpread; 2];
                } else if s.open[me] == Open::LudiiSpread {
                    s.open = [Open::Done; 2];
                }
                self.forced_pass_turn(s);
            }
            (Pending::Start, Action::Sow(h)) => {
                s.passes = 0;
                let k = h.track(s.n);
                match s.open[me] {
                    Open::OneCounter => {
                        self.one_counter(s, &mut rep, ev);
                        s.open[me] = Open::Done;
                        self.end_turn(s);
                    }
                    Open::LudiiBaiaFirst => {
                        s.open[me] = Open::Done;
                        self.baia_first(s, k, &mut rep, ev);
                    }
                    Open::LudiiEndRelay => {
                        self.end_relay(s, k, &mut rep, ev);
                        s.open[me] = Open::LudiiEndPair;
                        self.end_turn(s);
                    }
                    Open::LudiiPairs => {
                        self.ludii_pair(s, k, &mut rep, ev);
                        if s.outcome.is_none() {
                            if !has_count(&s.pits[me], self.rules.len, 2) {
                                s.open = [Open::LudiiSpread; 2];
                            }
                            self.end_turn(s);
                        }
                    }
                    Open::LudiiSpread => {
                        let c = take_hole(&mut s.pits[me], k);
                        self.relay(s, k, c, false, false, &mut rep, ev);
                    }
                    Open::Spread => {
                        s.open[me] = Open::Done;
                        let captures = matches!(
                            self.rules.opening,
                            OpeningRule::Gambit {
                                spread_captures: true
                            }
                        );
                        let c = take_hole(&mut s.pits[me], k);
                        self.relay(s, k, c, captures, false, &mut rep, ev);
                    }
                    open => {
                        if open == Open::Forced {
                            s.open[me] = Open::Done;
                        }
                        let c = take_hole(&mut s.pits[me], k);
                        self.relay(s, k, c, true, c == 1, &mut rep, ev);
                    }
                }
            }
            (Pending::Start, Action::Move([from, to])) => {
                // Ludii's one-counter opening: the pair moved into the end hole.
                s.passes = 0;
                let stones = take_hole(&mut s.pits[me], from.track(s.n));
                s.pits[me][to.track(s.n)] += stones;
                s.moves += 1;
                if let Some(ev) = ev {
                    ev.push(Event::Transfer { from, to, stones });
                }
                s.open[me] = Open::LudiiRemovePair;
                self.end_turn(s);
            }
            (Pending::Start, Action::Take(hole)) => {
                // Ludii's one-counter opening: the front-row pair removed from the board.
                s.passes = 0;
                let stones = take_hole(&mut s.pits[me], hole.track(s.n));
                s.stones[me] -= stones as u16;
                s.discarded += stones as u16;
                s.moves += 1;
                if let Some(ev) = ev {
                    ev.push(Event::Remove { hole, stones });
                }
                s.open[me] = Open::Done;
                self.end_turn(s);
            }
            (Pending::Takes { left }, Action::Pass) if self.rules.takes_shared => {
                // No hole can be taken: a forced pass, and the count owed stays for the next
                // turn, whoever's it is.
                s.moves += 1;
                s.owed = left;
                if std::mem::take(&mut s.carried) {
                    // The whole turn was one forced pass.
                    self.forced_pass_turn(s);
                } else {
                    s.passes = 0;
                    self.end_turn(s);
                }
            }
            (Pending::Takes { .. }, Action::Pass) => {
                // Optional takes declined: the turn ends.
                s.moves += 1;
                self.end_turn(s);
            }
            (Pending::Relay { .. }, Action::Relay(RelayChoice::Stop)) => {
                s.moves += 1;
                self.end_turn(s);
            }
            (Pending::Relay { pos, capture }, Action::Relay(RelayChoice::Continue)) => {
                let k = pos as usize;
                let c = take_hole(&mut s.pits[me], k);
                s.pending = Pending::Start;
                self.relay(s, k, c, capture, false, &mut rep, ev);
            }
            (Pending::Takes { left }, Action::Take(h)) => {
                let opp = s.to_move.other();
                let k = h.track(s.n);
                let taken = take_hole(&mut s.pits[opp.index()], k);
                if let Some(ev) = ev {
                    ev.push(Event::Take {
                        hole: h,
                        stones: taken,
                    });
                }
                s.stones[opp.index()] -= taken as u16;
                s.captured[me] += taken as u16;
                s.moves += 1;
                s.passes = 0;
                s.carried = false;
                rep.captured += taken as u32;
                rep.takes += 1;
                let left = left - 1;
                if self.rules.takes_shared {
                    s.owed = left;
                }
                if s.stones[opp.index()] == 0 {
                    s.turns += 1;
                    finish(s, Some(s.to_move), EndReason::NoStones);
                } else if left > 0 && (self.rules.takes_shared || self.take_mask(s) != 0) {
                    // More takes due (with a shared count, a forced pass when none can be made).
                    s.pending = Pending::Takes { left };
                } else {
                    self.end_turn(s);
                }
            }
            // Only reachable through apply_unchecked with an illegal action: ignore it.
            _ => {}
        }
        rep.moves = s.moves - moves_before;
        if s.outcome.is_none() && s.moves >= self.rules.config.end.move_limit {
            finish(s, None, EndReason::MoveLimit);
        }
        if s.outcome.is_none() && cut {
            // The turn goes on (takes or a head's choice due): Ludii cuts it here.
            s.turns += 1;
            finish(s, None, EndReason::TurnLimit);
        }
        rep
    }

    /// Sows `count` stones lifted from `from` and relays on; `capture` says whether the turn's
    /// last stone may capture; `single` that the turn began by moving a single stone.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn relay(
        &self,
        s: &mut SowingState,
        from: usize,
        count: u8,
        capture: bool,
        mut single: bool,
        rep: &mut Report,
        ev: &mut Option<Vec<Event>>,
    ) {
        let r = &self.rules;
        let p = s.to_move;
        let me = p.index();
        let n = r.n as usize;
        let mut from = from;
        let mut count = count;
        let mut laps: u32 = 0;
        let mut brent: Option<Box<Brent<[u8; SIDE_CAP]>>> = None;
        // Ludii's turn limit: the turn `turn_limit` is cut after its first lap.
        let cut = r.config.end.limits == Limits::Ludii && s.turns + 1 >= r.config.end.turn_limit;
        loop {
            let last = self.lap(s, from, count, rep, ev);
            let v = s.pits[me][last];
            if v > 1 {
                // The hole was occupied: relay, unless it is a head or relays are off.
                if !r.relay {
                    break;
                }
                if cut {
                    s.turns += 1;
                    finish(s, None, EndReason::TurnLimit);
                    return;
                }
                if s.heads[me] >> last & 1 == 1 {
                    match r.head_landing {
                        HeadLanding::Choose => {
                            s.pending = Pending::Relay {
                                pos: last as u8,
                                capture,
                            };
                            return;
                        }
                        HeadLanding::Stop => break,
                        HeadLanding::Relay => {}
                    }
                }
                // A relay that outruns the move limit ends the game there (a relay can run for
                // billions of laps before it repeats).
                if s.moves >= r.config.end.move_limit {
                    s.turns += 1;
                    finish(s, None, EndReason::MoveLimit);
                    return;
                }
                // The state before lifting `last`: the side and the hole.
                laps += 1;
                if laps >= WATCH_AFTER
                    && brent
                        .get_or_insert_with(|| Box::new(Brent::new()))
                        .repeats(&s.pits[me], last)
                {
                    rep.endless = true;
                    s.turns += 1;
                    match r.endless {
                        Endless::Draw => finish(s, None, EndReason::EndlessSowing),
                        Endless::MoveLimit => {
                            if r.ludii_board {
                                let period = brent.as_ref().map_or(1, |b| b.period());
                                self.run_cycle_to_limit(s, last, period, rep);
                            }
                            s.moves = s.moves.max(r.config.end.move_limit);
                            finish(s, None, EndReason::MoveLimit);
                        }
                    }
                    return;
                }
                from = last;
                count = take_hole(&mut s.pits[me], last);
                // Only the lap of the single itself is a single's.
                single = false;
                continue;
            }
            // The last stone fell into an empty hole.
            if capture && last >= n && (!single || r.singles.capture) {
                let taken = self.capture(s, last, rep, ev);
                if taken > 0 {
                    let opp = p.other().index();
                    if r.resow == Resow::EndTurn {
                        // Ludii's reading: the captured stones are sown on from the hole after
                        // the capturing one, in the same move (before the end is judged); no
                        // relay or capture follows, and the turn ends.
                        s.resow_taken(me, taken as u16);
                        let end = self.sow_lap(&mut s.pits[me], last, taken);
                        rep.sown += taken as u32;
                        if let Some(ev) = ev {
                            ev.push(Event::lap(p, last, taken, end, r.n));
                        }
                    }
                    if s.stones[opp] == 0 {
                        s.turns += 1;
                        finish(s, Some(p), EndReason::NoStones);
                        return;
                    }
                    match r.resow {
                        Resow::Off => {}
                        Resow::Continue if cut => {
                            s.turns += 1;
                            finish(s, None, EndReason::TurnLimit);
                            return;
                        }
                        Resow::Continue => {
                            // The captured stones are dropped singly into the next holes, and
                            // the sowing goes on as before.
                            s.resow_taken(me, taken as u16);
                            from = last;
                            count = taken;
                            laps = 0;
                            brent = None;
                            continue;
                        }
                        Resow::EndTurn => break,
                    }
                    let takes = r.takes_for(s.captures_made[me]);
                    if takes > 0 && (r.takes_shared || self.take_mask(s) != 0) {
                        s.pending = Pending::Takes { left: takes };
                        if r.takes_shared {
                            s.owed = takes;
                        }
                        return;
                    }
                }
            }
            break;
        }
        self.end_turn(s);
    }

    /// An endless relay of period `period` laps, about to lift `from`: runs it on to the move
    /// limit (Ludii's board after its last move), by whole cycles at once and the rest lap by
    /// lap. Every lap of the cycle ends in an occupied hole that is neither a head that stops
    /// nor the end of the turn (else the relay would not repeat), so only the side changes.
    #[cold]
    fn run_cycle_to_limit(&self, s: &mut SowingState, from: usize, period: u32, rep: &mut Report) {
        let me = s.to_move.index();
        let left = self.rules.config.end.move_limit.saturating_sub(s.moves);
        let mut from = from;
        let lap = |side: &mut [u8; SIDE_CAP], from: &mut usize| -> u32 {
            let c = take_hole(side, *from);
            *from = self.sow_lap(side, *from, c);
            c as u32
        };
        // One cycle on a copy gives the stones sown per cycle (the cycle returns to this side).
        let (cycles, rest) = (left / period, left % period);
        if cycles > 0 {
            let mut side = s.pits[me];
            let mut at = from;
            let mut sown = 0u64;
            for _ in 0..period {
                sown += lap(&mut side, &mut at) as u64;
            }
            debug_assert!(side == s.pits[me] && at == from, "not a cycle");
            rep.sown = rep
                .sown
                .saturating_add((sown * cycles as u64).min(u32::MAX as u64) as u32);
        }
        for _ in 0..rest {
            let sown = lap(&mut s.pits[me], &mut from);
            rep.sown = rep.sown.saturating_add(sown);
        }
        rep.laps = rep.laps.saturating_add(left);
        s.moves += left;
    }

    /// Takes the opposite front hole (and the back hole behind it) of the mover's front-row
    /// hole `k`; returns the stones taken.
    fn capture(
        &self,
        s: &mut SowingState,
        k: usize,
        rep: &mut Report,
        ev: &mut Option<Vec<Event>>,
    ) -> u8 {
        let r = &self.rules;
        let n = r.n as usize;
        let me = s.to_move.index();
        let opp = 1 - me;
        let of = 3 * n - 1 - k;
        let ob = k - n;
        let front = s.pits[opp][of];
        let back = s.pits[opp][ob];
        if front == 0 || (r.back == BackCapture::RequireBoth && back == 0) {
            return 0;
        }
        let mut taken = front;
        s.pits[opp][of] = 0;
        let took_back = r.back != BackCapture::Never && back > 0;
        if took_back {
            taken += back;
            s.pits[opp][ob] = 0;
        }
        if let Some(ev) = ev {
            let o = s.to_move.other();
            let mut holes = vec![(Hole::from_track(o, of, r.n), front)];
            if took_back {
                holes.push((Hole::from_track(o, ob, r.n), back));
            }
            ev.push(Event::Capture {
                at: Hole::from_track(s.to_move, k, r.n),
                taken: holes,
            });
        }
        s.stones[opp] -= taken as u16;
        s.captured[me] += taken as u16;
        s.captures_made[me] += 1;
        rep.captures += 1;
        rep.captured += taken as u32;
        if let (Open::Pairs, OpeningRule::Gambit { .. }) = (s.open[me], r.opening) {
            s.open[me] = Open::Spread;
        }
        taken
    }

    /// One lap of `count` stones, already lifted from track index `from` of the mover's side:
    /// sown, counted in the report and the moves, and told as an event. Returns where the last
    /// stone fell.
    #[inline]
    fn lap(
        &self,
        s: &mut SowingState,
        from: usize,
        count: u8,
        rep: &mut Report,
        ev: &mut Option<Vec<Event>>,
    ) -> usize {
        let p = s.to_move;
        let last = self.sow_lap(&mut s.pits[p.index()], from, count);
        rep.laps += 1;
        rep.sown += count as u32;
        s.moves += 1;
        if let Some(ev) = ev {
            ev.push(Event::lap(p, from, count, last, self.rules.n));
        }
        last
    }

    /// Drops `count` stones one by one into the holes after `from`; returns the last hole.
    #[inline]
    fn sow_lap(&self, side: &mut [u8; SIDE_CAP], from: usize, count: u8) -> usize {
        let len = self.rules.len;
        let skip = self.rules.skip_origin;
        let c = count as usize;
        if c < len {
            // Fewer stones than holes: one or two contiguous runs (the origin is never reached).
            let end = from + c;
            if end < len {
                for v in &mut side[from + 1..=end] {
                    *v += 1;
                }
                return end;
            }
            for v in &mut side[from + 1..len] {
                *v += 1;
            }
            let rem = end - len;
            for v in &mut side[..=rem] {
                *v += 1;
            }
            return rem;
        }
        let mut pos = from;
        let mut left = c;
        // Whole rounds at once.
        let round = if skip { len - 1 } else { len };
        if left > round {
            let q = (left - 1) / round;
            for (k, v) in side[..len].iter_mut().enumerate() {
                if !(skip && k == from) {
                    *v += q as u8;
                }
            }
            left -= q * round;
        }
        while left > 0 {
            pos += 1;
            if pos == len {
                pos = 0;
            }
            if skip && pos == from {
                continue;
            }
            side[pos] += 1;
            left -= 1;
        }
        pos
    }

    /// Ludii's Njombwa Opening1: one lap, no relay; only the opposite front hole is removed.
    fn ludii_pair(
        &self,
        s: &mut SowingState,
        k: usize,
        rep: &mut Report,
        ev: &mut Option<Vec<Event>>,
    ) {
        let n = self.rules.n as usize;
        let me = s.to_move.index();
        let c = take_hole(&mut s.pits[me], k);
        let last = self.lap(s, k, c, rep, ev);
        if last >= n {
            let opp = 1 - me;
            let of = 3 * n - 1 - last;
            let taken = take_hole(&mut s.pits[opp], of);
            if taken > 0 {
                if let Some(ev) = ev {
                    let o = s.to_move.other();
                    ev.push(Event::Capture {
                        at: Hole::from_track(s.to_move, last, self.rules.n),
                        taken: vec![(Hole::from_track(o, of, self.rules.n), taken)],
                    });
                }
                s.stones[opp] -= taken as u16;
                s.captured[me] += taken as u16;
                s.captures_made[me] += 1;
                rep.captures += 1;
                rep.captured += taken as u32;
                if s.stones[opp] == 0 {
                    s.turns += 1;
                    finish(s, Some(s.to_move), EndReason::NoStones);
                }
            }
        }
    }

    /// Ludii's Tsoro (Baia) first turn: one lap from `k`, no relay; a last stone in the front
    /// row captures when the opposite front hole is occupied (the landing hole need not have
    /// been empty), and earns the first scheduled takes.
    fn baia_first(
        &self,
        s: &mut SowingState,
        k: usize,
        rep: &mut Report,
        ev: &mut Option<Vec<Event>>,
    ) {
        let r = &self.rules;
        let n = r.n as usize;
        let p = s.to_move;
        let me = p.index();
        let c = take_hole(&mut s.pits[me], k);
        let last = self.lap(s, k, c, rep, ev);
        if last >= n && self.capture(s, last, rep, ev) > 0 {
            if s.stones[p.other().index()] == 0 {
                s.turns += 1;
                finish(s, Some(p), EndReason::NoStones);
                return;
            }
            let takes = r.schedule.first().copied().unwrap_or(r.then);
            if takes > 0 && (r.takes_shared || self.take_mask(s) != 0) {
                s.pending = Pending::Takes { left: takes };
                if r.takes_shared {
                    s.owed = takes;
                }
                return;
            }
        }
        self.end_turn(s);
    }

    /// Ludii's Njombwa (One Counter) Opening1: sow the end hole `k` of the back row and relay
    /// while a lap ends in an occupied hole whose next hole is not `k`; no capture. Each lap is
    /// a Ludii move.
    fn end_relay(
        &self,
        s: &mut SowingState,
        k: usize,
        rep: &mut Report,
        ev: &mut Option<Vec<Event>>,
    ) {
        let len = self.rules.len;
        let p = s.to_move;
        let me = p.index();
        let mut from = k;
        // Each lap lands on a hole no lap has reached yet (the one-stone pattern), so the
        // relay comes round to the hole before `k` within one round of laps.
        for _ in 0..=len {
            let c = take_hole(&mut s.pits[me], from);
            let last = self.lap(s, from, c, rep, ev);
            if s.pits[me][last] < 2 || (last + 1) % len == k {
                break;
            }
            from = last;
        }
    }

    /// Sanderson's one-counter start, as one move.
    fn one_counter(&self, s: &mut SowingState, rep: &mut Report, ev: &mut Option<Vec<Event>>) {
        let n = self.rules.n as usize;
        let nn = self.rules.n;
        let len = self.rules.len;
        let p = s.to_move;
        let me = p.index();
        // "takes up the man in the right-hand end hole of the back row, adds it to the end
        // hole of the front row"
        s.pits[me][n - 1] -= 1;
        s.pits[me][n] += 1;
        s.moves += 1;
        if let Some(ev) = ev {
            ev.push(Event::Transfer {
                from: Hole::from_track(p, n - 1, nn),
                to: Hole::from_track(p, n, nn),
                stones: 1,
            });
        }
        // "spreads along the front row and along the back till he arrives at the last hole but
        // one in the back row"
        let mut from = n;
        for _ in 0..len * 4 {
            let c = take_hole(&mut s.pits[me], from);
            let last = self.lap(s, from, c, rep, ev);
            if last == n - 2 || s.pits[me][last] < 2 {
                break;
            }
            from = last;
        }
        let side = &mut s.pits[me];
        // "takes up both the men now in it and transfers them to the end hole"
        let pair = take_hole(side, n - 2);
        side[n - 1] += pair;
        // "takes up the two men in the second hole from the right of his front row and removes
        // them from the board"
        let removed = take_hole(side, n + 1);
        if let Some(ev) = ev {
            ev.push(Event::Transfer {
                from: Hole::from_track(p, n - 2, nn),
                to: Hole::from_track(p, n - 1, nn),
                stones: pair,
            });
            ev.push(Event::Remove {
                hole: Hole::from_track(p, n + 1, nn),
                stones: removed,
            });
        }
        s.stones[me] -= removed as u16;
        s.discarded += removed as u16;
        s.moves += 2;
    }

    /// A turn that was one forced pass has ended: two such turns in a row end the game (once
    /// the openings are over), else the next turn begins.
    fn forced_pass_turn(&self, s: &mut SowingState) {
        s.passes += 1;
        if s.passes >= 2 && s.open == [Open::Done; 2] {
            s.turns += 1;
            match self.rules.config.end.mutual_pass {
                MutualPass::Draw => finish(s, None, EndReason::NoMoves),
                MutualPass::TurnLimit => {
                    s.turns = s.turns.max(self.rules.config.end.turn_limit);
                    finish(s, None, EndReason::TurnLimit);
                }
            }
        } else {
            self.end_turn(s);
        }
    }

    /// Ends the current player's turn and starts the next one.
    #[inline]
    fn end_turn(&self, s: &mut SowingState) {
        if s.outcome.is_some() {
            return;
        }
        let me = s.to_move.index();
        if s.open[me] == Open::LudiiSpread {
            // Ludii's `nextPhase (not (is Next Mover)) "Sowing"`: both players leave Opening2.
            s.open = [Open::Done; 2];
        }
        s.turns += 1;
        s.pending = Pending::Start;
        s.to_move = s.to_move.other();
        if s.turns >= self.rules.config.end.turn_limit {
            finish(s, None, EndReason::TurnLimit);
            return;
        }
        self.begin_turn(s);
    }

    /// Settles what the new player to move faces: no stones, openings running out, no moves.
    #[inline]
    pub(super) fn begin_turn(&self, s: &mut SowingState) {
        let r = &self.rules;
        let p = s.to_move;
        let me = p.index();
        if s.stones[me] == 0 {
            finish(s, Some(p.other()), EndReason::NoStones);
            return;
        }
        s.mask = 0;
        if s.owed > 0 {
            // A shared count of takes owed: this turn makes them, from the opponent's holes.
            s.pending = Pending::Takes { left: s.owed };
            s.carried = true;
            return;
        }
        if s.nominations_left[me] > 0 {
            return;
        }
        // Openings that have run their course give way to ordinary play.
        while s.open[me] != Open::Done {
            let next = match s.open[me] {
                Open::Forced => match r.opening {
                    OpeningRule::Forced { k, .. } if s.pits[me][k] >= 2 => None,
                    _ => Some(Open::Done),
                },
                Open::Pairs => (!has_count(&s.pits[me], r.len, 2)).then_some(Open::Spread),
                Open::Spread => (s.pits[me][0] < 2).then_some(Open::Done),
                Open::OneCounter => (s.pits[me][r.n as usize - 1] != 1).then_some(Open::Done),
                Open::LudiiBaiaFirst => match r.opening {
                    OpeningRule::LudiiBaia { k } if s.pits[me][k] > 0 => None,
                    _ => Some(Open::Done),
                },
                _ => None,
            };
            match next {
                Some(o) => s.open[me] = o,
                None => return,
            }
        }
        s.mask = self.sow_mask(s);
        if s.mask == 0 {
            self.no_moves(s);
        }
    }

    /// The player to move has stones but no ordinary move.
    #[cold]
    pub(super) fn no_moves(&self, s: &mut SowingState) {
        let r = &self.rules;
        let p = s.to_move;
        let me = p.index();
        match r.config.end.no_moves {
            NoMoves::Pass => {}
            NoMoves::Loss => finish(s, Some(p.other()), EndReason::NoMoves),
            NoMoves::MoreStones => {
                let (a, b) = (s.stones[me], s.stones[1 - me]);
                let w = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(p),
                    std::cmp::Ordering::Less => Some(p.other()),
                    std::cmp::Ordering::Equal => None,
                };
                finish(s, w, EndReason::NoMoves);
            }
        }
    }
}

/// The start position before its first turn begins.
fn start_state(r: &Rules) -> SowingState {
    let open = match r.opening {
        OpeningRule::None => Open::Done,
        OpeningRule::Forced { .. } => Open::Forced,
        OpeningRule::Gambit { .. } => Open::Pairs,
        OpeningRule::OneCounter => Open::OneCounter,
        OpeningRule::LudiiOneCounter => Open::LudiiEndRelay,
        OpeningRule::LudiiBaia { .. } => Open::LudiiBaiaFirst,
        OpeningRule::LudiiNjombwa => Open::LudiiPairs,
    };
    fresh_state(r, r.start, r.first, open, r.nominate)
}

/// A position with these stones, before its first turn begins: nothing captured, no move made.
fn fresh_state(
    r: &Rules,
    pits: [[u8; SIDE_CAP]; 2],
    to_move: Player,
    open: Open,
    nominations: u8,
) -> SowingState {
    let stones = |p: usize| pits[p].iter().map(|&v| v as u16).sum();
    SowingState {
        pits,
        heads: r.start_heads,
        stones: [stones(0), stones(1)],
        captured: [0; 2],
        discarded: 0,
        captures_made: [0; 2],
        to_move,
        pending: Pending::Start,
        open: [open; 2],
        nominations_left: [nominations; 2],
        turns: 0,
        moves: 0,
        passes: 0,
        owed: 0,
        carried: false,
        outcome: None,
        n: r.n,
        mask: 0,
    }
}

/// One thing that happened during an action, for replays.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A lap: `stones` lifted from `from`, the last dropped in `last`.
    Lap {
        /// The hole lifted.
        from: Hole,
        /// Stones sown.
        stones: u8,
        /// Where the last stone fell.
        last: Hole,
    },
    /// A capture from the last stone's hole `at`: the opponent's holes and stones taken.
    Capture {
        /// The capturing hole.
        at: Hole,
        /// Holes taken and their stones.
        taken: Vec<(Hole, u8)>,
    },
    /// An additional take.
    Take {
        /// The hole emptied.
        hole: Hole,
        /// Stones taken.
        stones: u8,
    },
    /// Stones moved by a stylised opening.
    Transfer {
        /// From this hole.
        from: Hole,
        /// To this hole.
        to: Hole,
        /// How many.
        stones: u8,
    },
    /// Stones removed from the board by a stylised opening.
    Remove {
        /// The hole emptied.
        hole: Hole,
        /// Stones removed.
        stones: u8,
    },
}

impl Event {
    fn lap(p: Player, from: usize, stones: u8, last: usize, n: u8) -> Event {
        Event::Lap {
            from: Hole::from_track(p, from, n),
            stones,
            last: Hole::from_track(p, last, n),
        }
    }
}

/// A uniform random member of the non-empty set `m` (bits of track indices): a number below
/// its size, then the set bit of that rank, found without a branch on the number drawn (a
/// loop clearing that many bits mispredicts its exit about once a draw).
#[inline]
fn pick(m: u64, rng: &mut crate::rng::Rng) -> usize {
    let sums = byte_counts(m);
    select(m, sums, rng.below((sums >> 56) as usize) as u64)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The running counts of `x`'s set bits by bytes: byte `b` holds the set bits of bytes `0..=b`
/// (byte 7 the size of the set).
#[inline(always)]
fn byte_counts(x: u64) -> u64 {
    let s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    let s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    s.wrapping_mul(ONES)
}

/// The index of the set bit of rank `k` (from 0, below the size) of `x`, whose running byte
/// counts are `sums` ([`byte_counts`]).
#[inline(always)]
fn select(x: u64, sums: u64, k: u64) -> usize {
    // The bytes whose running count is at most `k` (each below 128, so no borrow crosses a
    // byte): those before the byte holding the bit.
    let before = (((k * ONES) | HIGHS) - sums) & HIGHS;
    let b = (((before >> 7).wrapping_mul(ONES) >> 56) * 8) as u32;
    let rank = k - (((sums << 8) >> b) & 0xFF);
    b as usize + SELECT_IN_BYTE[((x >> b) & 0xFF) as usize][rank as usize] as usize
}

/// `BYTE_SIZE[x]`: the set bits of the byte `x`.
static BYTE_SIZE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = (x as u8).count_ones() as u8;
        x += 1;
    }
    t
};

/// `SELECT_IN_BYTE[x][k]`: the index of the set bit of rank `k` of the byte `x`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut x = 0;
    while x < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if x >> bit & 1 == 1 {
                t[x][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        x += 1;
    }
    t
};

/// The occupied holes of a side, and those holding more than one stone (bits of track
/// indices; bits past `len` are clear).
#[inline]
fn occupied_multi(side: &[u8; SIDE_CAP], len: usize) -> (u64, u64) {
    let (mut occupied, mut multi) = (0u64, 0u64);
    for w in 0..len.div_ceil(8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(&side[8 * w..8 * w + 8]);
        let word = u64::from_le_bytes(b);
        occupied |= nonzero_bytes(word) << (8 * w);
        multi |= nonzero_bytes(word & 0xFEFE_FEFE_FEFE_FEFE) << (8 * w);
    }
    (occupied, multi)
}

/// Bit `i` set when byte `i` of `w` is not zero.
#[inline(always)]
pub(super) fn nonzero_bytes(w: u64) -> u64 {
    const LO7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let t = (w | ((w & LO7) + LO7)) & !LO7;
    ((t >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

#[inline]
fn take_hole(side: &mut [u8; SIDE_CAP], k: usize) -> u8 {
    std::mem::take(&mut side[k])
}

fn has_count(side: &[u8; SIDE_CAP], len: usize, v: u8) -> bool {
    side[..len].contains(&v)
}

pub(super) fn finish(s: &mut SowingState, winner: Option<Player>, reason: EndReason) {
    s.outcome = Some(Outcome {
        winner,
        reason,
        turns: s.turns,
    });
}

#[cfg(test)]
mod tests {
    use crate::anygame::AnyGame;
    use crate::catalogue;
    use crate::game::{ActionList, random_legal};
    use crate::playout::{Playout, reference_step};
    use crate::rng::Rng;

    /// The set bit of each rank, found without a loop, is the one the loop clearing lower
    /// bits finds, on sets of every size and spread.
    #[test]
    fn select_finds_the_bit_of_each_rank() {
        let mut rng = Rng::from_seed(7);
        let mut sets: Vec<u64> = vec![1, u64::MAX, 1 << 63, 0xFF, 0xFF00, 0x8000_0000_0000_0001];
        sets.extend(
            (0..2000)
                .map(|i| rng.next_u64() >> (i % 64))
                .filter(|&m| m != 0),
        );
        for m in sets {
            let sums = super::byte_counts(m);
            assert_eq!((sums >> 56) as u32, m.count_ones());
            let mut rest = m;
            for k in 0..m.count_ones() as u64 {
                assert_eq!(
                    super::select(m, sums, k),
                    rest.trailing_zeros() as usize,
                    "{m:#x} {k}"
                );
                rest &= rest - 1;
            }
        }
    }

    /// Nominations drawn without the action list (`legal_count`, `random_action`,
    /// `random_nomination`) are those drawn from it, counted alike.
    #[test]
    fn nominations_drawn_as_from_the_list() {
        let id = "tsoro-ludii-misoro-additional-capture";
        let Ok(AnyGame::Sowing(g)) = catalogue::get(id).unwrap().build(&Default::default()) else {
            panic!("{id}")
        };
        for k in 0..200 {
            let mut fast = Playout::new(g.initial_state(), Rng::for_game(7, k), k);
            let mut slow = fast.clone();
            let mut nominations = 0;
            while fast.state.nominations_left[fast.state.to_move.index()] > 0 {
                let mut list = ActionList::new();
                g.legal_actions(&fast.state, &mut list);
                assert_eq!(g.legal_count(&fast.state), list.len());
                let (mut r1, mut r2) = (fast.rng.clone(), fast.rng.clone());
                assert_eq!(
                    g.random_action(&fast.state, &mut r1),
                    random_legal(&g, &fast.state, &mut r2)
                );
                assert!(g.random_nomination(&mut fast));
                assert!(reference_step(&g, &mut slow));
                assert_eq!(fast, slow, "game {k}");
                nominations += 1;
            }
            assert_eq!(nominations, 4);
            assert!(!g.random_nomination(&mut fast));
        }
    }

    #[test]
    fn nonzero_bytes_mask() {
        for w in [
            0u64,
            1,
            0xFF,
            0x0100,
            0x8000_0000_0000_0000,
            0x0102_0300_0004_0500,
        ] {
            let expect = (0..8).fold(0u64, |m, i| m | (((w >> (8 * i)) & 0xFF != 0) as u64) << i);
            assert_eq!(super::nonzero_bytes(w), expect, "{w:#x}");
        }
    }
}
