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
            title: "Variant 7: four stones at once, then more takes (Matthews)",
            ruleset: "tsoro-matthews-v7",
            caption: "From the reconstructed start of Variant 7, A's only move ii,3 captures four stones at once and earns additional takes from other holes of B's.",
            evidence: "matthews-1964-tsoro-v7",
            actions: vec![json!({"sow": "ii,3"})],
        },
    ]
}

/// The demonstrations of one ruleset.
pub fn of(ruleset: &str) -> Vec<Demo> {
    all().into_iter().filter(|d| d.ruleset == ruleset).collect()
}
