//! Replaying a recorded game: every state from the start, and the result.

use crate::catalogue::{self, ParamError, Params};
use crate::describe::Describe;
use crate::game::Game;
use crate::outcome::EndReason;
use crate::player::Player;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

/// A recorded game: `{"ruleset":"tsoro-ludii","params":{"holes":8},"actions":[{"sow":"i,6"}]}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    /// The ruleset id.
    pub ruleset: String,
    /// Parameter values (others at their defaults).
    #[serde(default)]
    pub params: Params,
    /// The actions in order.
    pub actions: Vec<Value>,
}

/// How a replayed game stands at its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayResult {
    /// The winner, `null` for a draw or an unfinished game.
    pub winner: Option<Player>,
    /// Why it ended, `null` while unfinished.
    pub reason: Option<EndReason>,
    /// Completed turns.
    pub turns: u32,
    /// Whether the game is over.
    pub finished: bool,
}

/// Every state of a replayed game: `states[0]` the start, `states[k]` after action `k`.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayOutput {
    /// The states.
    pub states: Vec<Value>,
    /// What each action did (`events[k-1]` belongs to action `k`).
    pub events: Vec<Vec<Value>>,
    /// The result.
    pub result: ReplayResult,
}

/// Why a replay failed.
#[derive(Debug, Clone, Error)]
pub enum ReplayError {
    /// The ruleset or a parameter is wrong.
    #[error(transparent)]
    Params(#[from] ParamError),
    /// An action is not an action of this game.
    #[error("action {index}: {message}")]
    BadAction {
        /// Its index (0-based).
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// An action is not legal where it stands.
    #[error("action {index} ({action}) is illegal; legal there: {}", legal.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "))]
    Illegal {
        /// Its index (0-based).
        index: usize,
        /// The action as given.
        action: Value,
        /// The legal actions at that point.
        legal: Vec<Value>,
    },
}

impl ReplayError {
    /// The error as JSON, for the command line and the API.
    pub fn to_json(&self) -> Value {
        match self {
            ReplayError::Params(e) => {
                serde_json::json!({"error": "params", "message": e.to_string()})
            }
            ReplayError::BadAction { index, message } => {
                serde_json::json!({"error": "bad_action", "index": index, "message": message})
            }
            ReplayError::Illegal {
                index,
                action,
                legal,
            } => serde_json::json!({
                "error": "illegal_action", "index": index, "action": action, "legal": legal,
                "message": self.to_string(),
            }),
        }
    }
}

/// Replays a recorded game with a shipped ruleset.
pub fn replay(req: &ReplayRequest) -> Result<ReplayOutput, ReplayError> {
    let def = catalogue::get(&req.ruleset)?;
    let game = def.build(&req.params)?;
    crate::with_game!(&game, g => replay_game(g, &req.actions))
}

/// Action `index` of a recorded game, read and checked against the legal actions at `s`.
fn checked<G: Game>(
    g: &G,
    s: &G::State,
    index: usize,
    raw: &Value,
) -> Result<G::Action, ReplayError> {
    let a: G::Action = serde_json::from_value(raw.clone()).map_err(|e| ReplayError::BadAction {
        index,
        message: format!("{raw} is not an action: {e}"),
    })?;
    let mut legal = crate::game::ActionList::new();
    g.legal_actions(s, &mut legal);
    if !legal.contains(&a) {
        return Err(ReplayError::Illegal {
            index,
            action: raw.clone(),
            legal: legal
                .iter()
                .map(|a| serde_json::to_value(a).unwrap_or_default())
                .collect(),
        });
    }
    Ok(a)
}

/// The position a recorded game's actions reach.
pub fn position_after<G: Game>(g: &G, actions: &[Value]) -> Result<G::State, ReplayError> {
    let mut s = g.initial_state();
    for (index, raw) in actions.iter().enumerate() {
        let a = checked(g, &s, index, raw)?;
        g.apply_unchecked(&mut s, a);
    }
    Ok(s)
}

/// Replays actions on a game.
pub fn replay_game<G: Describe>(g: &G, actions: &[Value]) -> Result<ReplayOutput, ReplayError> {
    let mut s = g.initial_state();
    let mut states = vec![g.state_json(&s)];
    let mut events = Vec::with_capacity(actions.len());
    for (index, raw) in actions.iter().enumerate() {
        let a = checked(g, &s, index, raw)?;
        let (_, ev) = g.apply_described(&mut s, a);
        events.push(ev);
        states.push(g.state_json(&s));
    }
    let result = match g.outcome(&s) {
        Some(o) => ReplayResult {
            winner: o.winner,
            reason: Some(o.reason),
            turns: o.turns,
            finished: true,
        },
        None => ReplayResult {
            winner: None,
            reason: None,
            turns: g.turns(&s),
            finished: false,
        },
    };
    Ok(ReplayOutput {
        states,
        events,
        result,
    })
}

/// The legal actions after these actions (for studying a recorded game).
pub fn legal_after(req: &ReplayRequest) -> Result<Vec<Value>, ReplayError> {
    let out = replay(req)?;
    Ok(out
        .states
        .last()
        .and_then(|s| s.get("legal"))
        .and_then(|l| l.as_array().cloned())
        .unwrap_or_default())
}
