//! Ready-made demonstrations for the play page: the sources' worked examples and openings,
//! each a recorded game from the start position with what it shows, in our words, and the
//! passage it illustrates. Every one is replayed by the tests, so each action is legal.

use serde::Serialize;
use serde_json::{Value, json};

/// A recorded sequence of actions to step through.
#[derive(Clone, Debug, Serialize)]
pub struct Demo {
    /// Short name.
    pub title: &'static str,
    /// The ruleset it is played in.
    pub ruleset: &'static str,
    /// What to watch for, in our words.
    pub caption: &'static str,
    /// The passage it illustrates.
    pub evidence: &'static str,
    /// The actions from the start position.
    pub actions: Vec<Value>,
}

/// Every demonstration.
pub fn all() -> Vec<Demo> {
    vec![
        Demo {
            title: "A relay sowing (Ludii's worked example)",
            ruleset: "tsoro-ludii",
            caption: "A lifts i,1: each lap whose last stone falls into an occupied hole lifts that hole and sows on, so the laps end at i,3, i,6 and ii,8. B answers with the mirror move from iv,8.",
            evidence: "ludii-dlp-1882-rules",
            actions: vec![json!({"sow": "i,1"}), json!({"sow": "iv,8"})],
        },
        Demo {
            title: "Variant 7: four stones at once, then five more takes (Matthews)",
            ruleset: "tsoro-matthews-v7",
            caption: "From the reconstructed start of Variant 7, A's only move ii,3 captures four stones at once and earns five additional takes from B's holes; B's answer iii,6 does the same to A.",
            evidence: "matthews-1964-tsoro-v7",
            actions: sow_and_take(&[
                "ii,3", "iv,7", "iv,6", "iv,5", "iv,4", "iv,3", "iii,6", "i,2", "i,3", "i,4",
                "i,5", "i,6",
            ]),
        },
        Demo {
            title: "The 29/2/1 gambit (Sanderson)",
            ruleset: "njombwa-sanderson-gambit",
            caption: "Both players march their pair along the back row and back along the front until the first takes one man and the second takes two; then each spreads his 29 from the end hole, relaying as in Bau.",
            evidence: "sanderson-1913-njombwa-gambit",
            actions: sows(&[
                "i,2", "iv,7", "i,3", "iv,6", "i,4", "iv,5", "i,5", "iv,4", "i,6", "iv,3", "i,7",
                "iv,2", "i,8", "iv,1", "ii,8", "iii,1", "ii,7", "iii,2", "ii,6", "iii,3", "i,1",
                "iv,8",
            ]),
        },
        Demo {
            title: "The one-counter start (Sanderson)",
            ruleset: "njombwa-sanderson-one-counter",
            caption: "Each player's first move is the stylised one: the man at the right-hand end of his back row joins the end hole of the front row and is spread, relaying, to the last hole but one of the back row; that pair goes to the end hole and two men of the front row leave the board.",
            evidence: "sanderson-1913-njombwa-one-counter",
            actions: sows(&["i,8", "iv,1"]),
        },
    ]
}

fn sows(holes: &[&str]) -> Vec<Value> {
    holes.iter().map(|h| json!({"sow": h})).collect()
}

/// A sowing followed by takes, twice (Variant 7's opening): the 1st and 7th are sowings.
fn sow_and_take(holes: &[&str]) -> Vec<Value> {
    holes
        .iter()
        .enumerate()
        .map(|(i, h)| {
            if i % 6 == 0 {
                json!({"sow": h})
            } else {
                json!({"take": h})
            }
        })
        .collect()
}

/// The demonstrations of one ruleset.
pub fn of(ruleset: &str) -> Vec<Demo> {
    all().into_iter().filter(|d| d.ruleset == ruleset).collect()
}
