//! Random playouts of rules with Ludii's limits (`end.limits = ludii`) on the kernel, exactly.
//!
//! The kernel does not model Ludii's cut of the last turn after its first lap. But until the
//! last turn begins, a game under Ludii's limits and the same game under whole-turn limits
//! with Ludii's board at the move limit (an endless relay run on to it) draw the same numbers
//! and play the same moves. So the kernel plays that twin of the rules with a turn limit one
//! lower, and every game it ends there is at the start of the last turn: the reference takes
//! it on from that position, under Ludii's limits. The few games the twin ends in what would be
//! the last turn, or at a turn limit otherwise (both players passing, with Ludii's
//! `mutual_pass`), are played again by the reference from the position the feed handed out.
//! Other games, those stopped at the move limit included, are handed on as the kernel ended
//! them.

use super::SowingGame;
use super::config::Limits;
use super::state::{Pending, SowingState};
use crate::outcome::EndReason;
use crate::playout::{Feed, Playout, play_out_reference};

/// The whole-turn twin of `g`'s rules (Ludii's board at the move limit kept), one turn shorter
/// when it can be, when `g` has Ludii's limits and the kernel admits the twin.
pub(super) fn twin(g: &SowingGame) -> Option<SowingGame> {
    let r = g.rules();
    if r.end().limits != Limits::Ludii {
        return None;
    }
    let mut c = r.config().clone();
    c.end.limits = Limits::WholeTurns;
    let mut rules = c.compile().ok()?;
    rules.ludii_board = true;
    // `with_turn_limit` may have lowered the limit below the configuration's.
    rules.config.end = r.end();
    rules.config.end.limits = Limits::WholeTurns;
    rules.config.end.turn_limit = shortened(r.end().turn_limit);
    let twin = SowingGame::new(rules);
    super::kernel::admits(&twin).then_some(twin)
}

/// The twin's turn limit: the turn before the last, so that its games stop where the last turn
/// begins (a limit of one cannot be lowered: those games are all replayed).
fn shortened(turn_limit: u32) -> u32 {
    turn_limit.saturating_sub(1).max(1)
}

/// A feed that keeps each game as handed out (or has the feed it draws from make it again,
/// when that feed [`replays`](Feed::replays)), takes on under `g`'s (Ludii's) limits the games
/// the twin's kernel stopped at the start of the last turn, and replays the games it ended in
/// the last turn or at another turn limit.
pub(super) struct Capped<'a> {
    g: &'a SowingGame,
    inner: &'a mut dyn Feed<SowingState>,
    /// The games in play, by the tag this feed gave them (a slot here): the caller's game as
    /// handed out.
    out: Vec<Option<Playout<SowingState>>>,
    /// Slots of `out` free again.
    free: Vec<u64>,
}

impl<'a> Capped<'a> {
    pub(super) fn new(g: &'a SowingGame, inner: &'a mut dyn Feed<SowingState>) -> Self {
        Capped {
            g,
            inner,
            out: Vec::new(),
            free: Vec::new(),
        }
    }

    /// The twin stopped this game at its turn limit, at the start of `g`'s last turn, as the
    /// reference under `g`'s rules stands just before that turn begins.
    fn at_last_turn(&self, s: &SowingState) -> bool {
        let limit = self.g.rules().end().turn_limit;
        s.outcome().is_some_and(|o| {
            // (A limit of one is not lowered: then `o.turns + 1` is never the limit.)
            o.reason == EndReason::TurnLimit
                && o.turns + 1 == limit
                // Both players passing ends the twin's game at its own limit: replayed.
                && s.passes < 2
                && s.pending == Pending::Start
                // At the move limit too, the reference ends it there: replayed.
                && s.moves < self.g.rules().end().move_limit
        })
    }
}

impl Capped<'_> {
    /// Takes on a game the inner feed handed out: false when it was already in the last turn
    /// (past the twin's limit), in which case it has been played and handed back; else keeps
    /// what a replay needs (a copy, unless the inner feed can make the game again).
    fn admit(&mut self, p: &mut Playout<SowingState>) -> bool {
        if p.state.outcome().is_none()
            && p.state.turns >= shortened(self.g.rules().end().turn_limit)
        {
            play_out_reference(self.g, p);
            self.inner.done_in(p);
            return false;
        }
        if self.inner.replays() {
            // Made again when it must be replayed: no copy kept.
            return true;
        }
        let mine = p.clone();
        p.tag = match self.free.pop() {
            Some(slot) => {
                self.out[slot as usize] = Some(mine);
                slot
            }
            None => {
                self.out.push(Some(mine));
                self.out.len() as u64 - 1
            }
        };
        true
    }
}

impl Feed<SowingState> for Capped<'_> {
    fn ahead(&self) -> bool {
        self.inner.ahead()
    }

    fn next(&mut self) -> Option<Playout<SowingState>> {
        loop {
            let mut p = self.inner.next()?;
            if self.admit(&mut p) {
                return Some(p);
            }
        }
    }

    fn next_into(&mut self, slot: &mut Playout<SowingState>) -> bool {
        loop {
            if !self.inner.next_into(slot) {
                return false;
            }
            if self.admit(slot) {
                return true;
            }
        }
    }

    fn done(&mut self, mut p: Playout<SowingState>) {
        self.done_in(&mut p);
    }

    fn done_in(&mut self, p: &mut Playout<SowingState>) {
        // The caller's game is moved out of its slot only when it is played again (each move
        // of a game is a copy of it).
        let replays = self.inner.replays();
        let slot = p.tag as usize;
        let tag = if replays {
            p.tag
        } else {
            let Some(tag) = self.out.get(slot).and_then(Option::as_ref).map(|o| o.tag) else {
                // Not one of ours: cannot happen (the kernel hands back what it was given).
                debug_assert!(false, "an unknown playout");
                return;
            };
            self.free.push(p.tag);
            tag
        };
        let end = self.g.rules().end();
        if self.at_last_turn(&p.state) {
            p.state.outcome = None;
            self.g.begin_turn(&mut p.state);
            play_out_reference(self.g, p);
        } else if p
            .state
            .outcome()
            .is_none_or(|o| o.turns + 1 >= end.turn_limit || o.reason == EndReason::TurnLimit)
        {
            let orig = if replays {
                self.inner.again(tag)
            } else {
                self.out[slot].take()
            };
            if let Some(mut orig) = orig {
                play_out_reference(self.g, &mut orig);
                self.inner.done(orig);
            }
            return;
        }
        if !replays {
            self.out[slot] = None;
        }
        p.tag = tag;
        self.inner.done_in(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anygame::AnyGame;
    use crate::catalogue;
    use crate::playout::SliceFeed;
    use crate::rng::Rng;

    /// The twin's kernel ends the games that reach the move limit before the last turn (an
    /// endless relay run on to it, on Ludii's board) exactly as the reference under Ludii's
    /// limits does, so they are not played again.
    #[test]
    fn the_twin_ends_games_at_the_move_limit_as_ludii_does() {
        let id = "tsoro-ludii-reentered-captures";
        let Ok(AnyGame::Sowing(g)) = catalogue::get(id).unwrap().build(&Default::default()) else {
            panic!("{id}")
        };
        let twin = twin(&g).expect("on the kernel");
        let fresh = |k: u64| Playout::new(g.initial_state(), Rng::for_game(3, k), k);
        let mut batch: Vec<Playout<SowingState>> = (0..150).map(fresh).collect();
        assert!(super::super::kernel::play(
            &twin,
            &mut SliceFeed::new(&mut batch)
        ));
        let limit = g.rules().end().turn_limit;
        let mut at_limit = 0;
        for (k, p) in batch.iter().enumerate() {
            let o = p.state.outcome().expect("over");
            if o.reason != EndReason::MoveLimit || o.turns + 1 >= limit {
                continue;
            }
            at_limit += 1;
            let mut alone = fresh(k as u64);
            play_out_reference(&g, &mut alone);
            assert_eq!(p, &alone, "game {k}");
        }
        assert!(at_limit >= 50, "{at_limit} of 150 games at the move limit");
    }
}
