//! Random playouts of rules with Ludii's limits (`end.limits = ludii`) on the kernel, exactly.
//!
//! The kernel does not model Ludii's cut of the last turn after its first lap, nor its board at
//! the move limit. But a game under Ludii's limits and the same game under whole-turn limits
//! draw the same numbers and play the same moves until one of them reaches a limit: the first
//! move of turn `turn_limit`, or move `move_limit` (an endless relay included). So the kernel
//! plays the whole-turn twin of the rules, and every game it ends in turn `turn_limit` or at
//! the move limit is played again by the reference, under Ludii's limits, from the position
//! the feed handed out. Other games are handed on as the kernel ended them.

use super::SowingGame;
use super::config::Limits;
use super::state::SowingState;
use crate::outcome::EndReason;
use crate::playout::{Feed, Playout, play_out_reference};
use std::collections::HashMap;

/// The whole-turn twin of `g`'s rules, when `g` has Ludii's limits and the kernel admits the
/// twin.
pub(super) fn twin(g: &SowingGame) -> Option<SowingGame> {
    let r = g.rules();
    if r.end.limits != Limits::Ludii {
        return None;
    }
    let mut c = r.config().clone();
    c.end.limits = Limits::WholeTurns;
    let mut rules = c.compile().ok()?;
    // `with_turn_limit` may have lowered the limit below the configuration's.
    rules.end = r.end;
    rules.end.limits = Limits::WholeTurns;
    rules.config.end = rules.end;
    let twin = SowingGame::new(rules);
    super::kernel::admits(&twin).then_some(twin)
}

/// A feed that keeps each game as handed out, and replays under `g`'s (Ludii's) limits the
/// games the twin's kernel ended at a limit.
pub(super) struct Capped<'a> {
    g: &'a SowingGame,
    inner: &'a mut dyn Feed<SowingState>,
    /// The games in play, by the tag this feed gave them: the caller's game as handed out.
    out: HashMap<u64, Playout<SowingState>>,
    next_tag: u64,
}

impl<'a> Capped<'a> {
    pub(super) fn new(g: &'a SowingGame, inner: &'a mut dyn Feed<SowingState>) -> Self {
        Capped {
            g,
            inner,
            out: HashMap::new(),
            next_tag: 0,
        }
    }
}

impl Feed<SowingState> for Capped<'_> {
    fn next(&mut self) -> Option<Playout<SowingState>> {
        let p = self.inner.next()?;
        let tag = self.next_tag;
        self.next_tag += 1;
        let mut mine = p.clone();
        mine.tag = tag;
        self.out.insert(tag, p);
        Some(mine)
    }

    fn done(&mut self, p: Playout<SowingState>) {
        let Some(mut orig) = self.out.remove(&p.tag) else {
            // Not one of ours: cannot happen (the kernel hands back what it was given).
            debug_assert!(false, "an unknown playout");
            return;
        };
        let end = &self.g.rules().end;
        let at_limit = p.state.outcome().is_none_or(|o| {
            o.turns >= end.turn_limit
                || o.reason == EndReason::MoveLimit
                || o.reason == EndReason::TurnLimit
        });
        if at_limit {
            play_out_reference(self.g, &mut orig);
        } else {
            let tag = orig.tag;
            orig = p;
            orig.tag = tag;
        }
        self.inner.done(orig);
    }
}
