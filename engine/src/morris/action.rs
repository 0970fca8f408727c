//! Decisions in a line game.

use super::board::Square;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One decision. JSON: `{"place":"d5"}`, `{"move":["d5","d6"]}`, `{"take":"a1"}`, `"pass"`.
///
/// In Dig Dig a `place` on an opponent's single stone cancels it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MorrisAction {
    /// Put a stone from the hand on this point.
    Place(Square),
    /// Move a stone from the first point to the second.
    Move(Square, Square),
    /// Take the opponent's stone on this point (after making a line).
    Take(Square),
    /// Pass (no legal move, where the rules say to pass).
    Pass,
}

impl fmt::Display for MorrisAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MorrisAction::Place(p) => write!(f, "place {p}"),
            MorrisAction::Move(p, q) => write!(f, "move {p}-{q}"),
            MorrisAction::Take(p) => write!(f, "take {p}"),
            MorrisAction::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_forms() {
        let d5: Square = "d5".parse().unwrap();
        let d6: Square = "d6".parse().unwrap();
        let cases = [
            (MorrisAction::Place(d5), r#"{"place":"d5"}"#),
            (MorrisAction::Move(d5, d6), r#"{"move":["d5","d6"]}"#),
            (MorrisAction::Take(d6), r#"{"take":"d6"}"#),
            (MorrisAction::Pass, r#""pass""#),
        ];
        for (a, j) in cases {
            assert_eq!(serde_json::to_string(&a).unwrap(), j);
            assert_eq!(serde_json::from_str::<MorrisAction>(j).unwrap(), a);
        }
        assert!(serde_json::from_str::<MorrisAction>(r#"{"place":"z9"}"#).is_err());
    }
}
