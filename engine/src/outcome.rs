//! How a game ended.

use crate::player::Player;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A player has no stones left on the board and loses.
    NoStones,
    /// The player to move has stones but no legal move (or neither player can move).
    NoMoves,
    /// The turn limit was reached: a draw.
    TurnLimit,
    /// The move limit was reached (Ludii's 10,000-move cap): a draw.
    MoveLimit,
    /// A relay sowing would repeat forever: a draw.
    EndlessSowing,
    /// A line of three was made (three-in-a-row games).
    Line,
    /// A player was reduced to too few pieces (morris games).
    TooFewPieces,
    /// Every other player has been eaten (nhodo).
    LastStanding,
    /// The same position came back too often (line games): a draw.
    Repetition,
}

impl EndReason {
    /// The snake_case name used in JSON and CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::NoStones => "no_stones",
            EndReason::NoMoves => "no_moves",
            EndReason::TurnLimit => "turn_limit",
            EndReason::MoveLimit => "move_limit",
            EndReason::EndlessSowing => "endless_sowing",
            EndReason::Line => "line",
            EndReason::TooFewPieces => "too_few_pieces",
            EndReason::LastStanding => "last_standing",
            EndReason::Repetition => "repetition",
        }
    }

    /// Why the game ended, in words for a reader (`no_stones`: "a player had no stones
    /// left").
    pub fn words(self) -> &'static str {
        match self {
            EndReason::NoStones => "a player had no stones left",
            EndReason::NoMoves => "a player had no move",
            EndReason::TurnLimit => "the turn limit was reached",
            EndReason::MoveLimit => "the move limit was reached",
            EndReason::EndlessSowing => "a sowing would never end",
            EndReason::Line => "a line of three was made",
            EndReason::TooFewPieces => "a player was left with too few pieces",
            EndReason::LastStanding => "one player was left standing",
            EndReason::Repetition => "the same position came back too often",
        }
    }

    /// The words of a reason given by its snake_case name (`None` for a name no reason has).
    pub fn words_of(name: &str) -> Option<&'static str> {
        Self::ALL
            .iter()
            .find(|r| r.as_str() == name)
            .map(|r| r.words())
    }

    /// Every reason, in a stable order.
    pub const ALL: [EndReason; 9] = [
        EndReason::NoStones,
        EndReason::NoMoves,
        EndReason::TurnLimit,
        EndReason::MoveLimit,
        EndReason::EndlessSowing,
        EndReason::Line,
        EndReason::TooFewPieces,
        EndReason::LastStanding,
        EndReason::Repetition,
    ];
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Completed turns when the game ended.
    pub turns: u32,
}
