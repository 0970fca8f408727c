//! A game played through the service: the move an agent chooses after some actions
//! ([`choose_move`], the one place that asks the engine for a move for a request).

use serde_json::Value;
use thiserror::Error;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::agents::search::{AnalyseError, analyse_after};
use tsoro_engine::catalogue::{self, ParamError, Params};
use tsoro_engine::replay::ReplayError;

/// Why no move could be chosen.
#[derive(Debug, Error)]
pub enum MoveError {
    /// The ruleset or a parameter is wrong.
    #[error(transparent)]
    Params(#[from] ParamError),
    /// An action is not an action of this game.
    #[error("action {index}: {message}")]
    BadAction { index: usize, message: String },
    /// An action is not legal where it stands.
    #[error("action {index} is not legal at that point")]
    Illegal { index: usize },
    /// The game is over: there is nothing to choose.
    #[error("the game is over after these {0} actions")]
    Over(usize),
}

/// The move `agent` chooses after `actions` in this ruleset, by the engine's one call
/// ([`analyse_after`], as `tsoro search` asks it).
pub fn choose_move(
    ruleset: &str,
    params: &Params,
    actions: &[Value],
    agent: AgentSpec,
    seed: u64,
) -> Result<Value, MoveError> {
    let game = catalogue::get(ruleset)?.build(params)?;
    let found = analyse_after(&game, actions, agent, seed).map_err(|e| match e {
        AnalyseError::Replay(ReplayError::Params(p)) => MoveError::Params(p),
        AnalyseError::Replay(ReplayError::BadAction { index, message }) => {
            MoveError::BadAction { index, message }
        }
        AnalyseError::Replay(ReplayError::Illegal { index, .. }) => MoveError::Illegal { index },
        AnalyseError::Over(n) => MoveError::Over(n),
    })?;
    serde_json::to_value(found.analysis.action).map_err(|e| MoveError::BadAction {
        index: actions.len(),
        message: e.to_string(),
    })
}

/// Bytes of one state of the ruleset's game as `/replay` writes it, about: its start
/// position's JSON (the board's size is fixed; only its list of legal actions varies).
pub fn state_bytes(ruleset: &str, params: &Params) -> Result<usize, ParamError> {
    use tsoro_engine::describe::Describe;
    let game = catalogue::get(ruleset)?.build(params)?;
    Ok(tsoro_engine::with_game!(&game, g => {
        serde_json::to_vec(&g.state_json(&g.initial_state())).map_or(0, |v| v.len())
    }))
}
