//! Games described for readers, as JSON: a state (board, player to move, legal actions,
//! captures) and what an action did. Kept beside [`replay`](crate::replay) and outside the
//! [`Game`] trait, which plays and does not describe (as shakmaty keeps FEN and SAN outside
//! `Position`).

use crate::game::{ActionList, Game, Report};
use crate::morris::{MorrisAction, MorrisGame, MorrisState};
use crate::sowing::{Action, SowingGame, SowingState};
use serde_json::Value;

/// A game whose states and actions can be shown to a reader.
pub trait Describe: Game {
    /// The state as JSON for replays (board, to move, legal actions, captured counts).
    fn state_json(&self, s: &Self::State) -> Value;
    /// Applies a legal action and lists what happened, as JSON (for replays).
    fn apply_described(&self, s: &mut Self::State, a: Self::Action) -> (Report, Vec<Value>);
}

/// Each event as JSON.
fn events<E: serde::Serialize>(ev: &[E]) -> Vec<Value> {
    ev.iter()
        .map(|e| serde_json::to_value(e).unwrap_or_default())
        .collect()
}

impl Describe for SowingGame {
    fn state_json(&self, s: &SowingState) -> Value {
        let mut legal = ActionList::new();
        SowingGame::legal_actions(self, s, &mut legal);
        let mut v = serde_json::json!({
            "board": s.board(),
            "to_move": s.to_move(),
            "legal": legal.as_slice(),
            "captured": s.captured_map(),
        });
        if self.rules().into_hand {
            // Ludii's Baia keeps captured stones in the capturer's hand.
            v["hands"] = serde_json::json!(s.captured_map());
        }
        v
    }
    fn apply_described(&self, s: &mut SowingState, a: Action) -> (Report, Vec<Value>) {
        let (rep, ev) = self.apply_traced(s, a);
        (rep, events(&ev))
    }
}

impl Describe for MorrisGame {
    fn state_json(&self, s: &MorrisState) -> Value {
        MorrisGame::state_json(self, s)
    }
    fn apply_described(&self, s: &mut MorrisState, a: MorrisAction) -> (Report, Vec<Value>) {
        let (rep, ev) = self.apply_traced(s, a);
        (rep, events(&ev))
    }
}
