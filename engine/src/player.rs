//! The two players of a two-player game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player: `A` sits at rows i and ii, `B` at rows iii and iv.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
pub enum Player {
    /// The first player (rows i and ii).
    A,
    /// The second player (rows iii and iv).
    B,
}

impl Player {
    /// Both players, A first.
    pub const BOTH: [Player; 2] = [Player::A, Player::B];

    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }

    /// 0 for A, 1 for B.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::A => "A",
            Player::B => "B",
        })
    }
}
