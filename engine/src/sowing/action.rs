//! Decisions a player makes in a four-row sowing game.

use crate::notation::Hole;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Stop in an occupied head, or lift it and sow on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelayChoice {
    /// End the turn, leaving the stones in the head.
    Stop,
    /// Lift the head and sow on.
    Continue,
}

/// One decision. JSON: `{"sow":"ii,3"}`, `{"relay":"stop"}`, `{"take":"iv,5"}`,
/// `{"move":["i,7","i,8"]}`, `{"nominate":"i,1"}`, `"pass"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Start a turn by lifting this hole of one's own.
    Sow(Hole),
    /// Decide at an occupied head.
    Relay(RelayChoice),
    /// Empty this hole: an additional take of the opponent's, or a removal of one's own
    /// stones that an opening prescribes.
    Take(Hole),
    /// Move all the stones of one hole into another (an opening's step): `[from, to]`.
    Move([Hole; 2]),
    /// Nominate this back-row hole of one's own as a head.
    Nominate(Hole),
    /// Pass (no legal move).
    Pass,
}

impl Action {
    /// The same decision seen after a half turn of the board (B's equivalent of A's action).
    pub fn rotate(self, n: u8) -> Action {
        match self {
            Action::Sow(h) => Action::Sow(h.rotate(n)),
            Action::Take(h) => Action::Take(h.rotate(n)),
            Action::Move([a, b]) => Action::Move([a.rotate(n), b.rotate(n)]),
            Action::Nominate(h) => Action::Nominate(h.rotate(n)),
            a => a,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Sow(h) => write!(f, "sow {h}"),
            Action::Relay(RelayChoice::Stop) => f.write_str("stop"),
            Action::Relay(RelayChoice::Continue) => f.write_str("continue"),
            Action::Take(h) => write!(f, "take {h}"),
            Action::Move([a, b]) => write!(f, "move {a} {b}"),
            Action::Nominate(h) => write!(f, "nominate {h}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Row;

    #[test]
    fn json_forms() {
        let cases = [
            (Action::Sow(Hole::new(Row::Ii, 3)), r#"{"sow":"ii,3"}"#),
            (Action::Relay(RelayChoice::Stop), r#"{"relay":"stop"}"#),
            (
                Action::Relay(RelayChoice::Continue),
                r#"{"relay":"continue"}"#,
            ),
            (Action::Take(Hole::new(Row::Iv, 5)), r#"{"take":"iv,5"}"#),
            (
                Action::Move([Hole::new(Row::I, 7), Hole::new(Row::I, 8)]),
                r#"{"move":["i,7","i,8"]}"#,
            ),
            (
                Action::Nominate(Hole::new(Row::I, 1)),
                r#"{"nominate":"i,1"}"#,
            ),
            (Action::Pass, r#""pass""#),
        ];
        for (a, j) in cases {
            assert_eq!(serde_json::to_string(&a).unwrap(), j);
            assert_eq!(serde_json::from_str::<Action>(j).unwrap(), a);
        }
    }
}
