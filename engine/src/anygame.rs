//! A game of any kind the engine plays, chosen at run time.

use crate::morris::MorrisGame;
use crate::sowing::SowingGame;

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
