//! A game of any kind the engine plays, chosen at run time.

use crate::morris::{MorrisAction, MorrisGame};
use crate::sowing::{Action, SowingGame};
use serde::Serialize;

/// A playable game of one of the engine's kinds.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A four-row sowing game.
    Sowing(SowingGame),
    /// A line game on a morris board.
    Morris(MorrisGame),
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::anygame::AnyGame::Sowing($g) => $body,
            $crate::anygame::AnyGame::Morris($g) => $body,
        }
    };
}

/// An action of a game of any kind: written as the game's own action is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum AnyAction {
    /// A sowing game's.
    Sowing(Action),
    /// A line game's.
    Morris(MorrisAction),
}

impl From<Action> for AnyAction {
    fn from(a: Action) -> Self {
        AnyAction::Sowing(a)
    }
}

impl From<MorrisAction> for AnyAction {
    fn from(a: MorrisAction) -> Self {
        AnyAction::Morris(a)
    }
}

impl std::fmt::Display for AnyAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyAction::Sowing(a) => a.fmt(f),
            AnyAction::Morris(a) => a.fmt(f),
        }
    }
}
