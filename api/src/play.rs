//! A game played through the service: the move an agent chooses after some actions
//! ([`choose_move`], the one place that asks the engine for a move for a request).

use serde_json::Value;
use thiserror::Error;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::agents::search::analyse;
use tsoro_engine::catalogue::{self, ParamError, Params};
use tsoro_engine::game::Game;
use tsoro_engine::replay::{ReplayError, position_after};
use tsoro_engine::rng::Rng;

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

/// The move `agent` chooses after `actions` in this ruleset: the one function that asks the
/// engine for a move.
pub fn choose_move(
    ruleset: &str,
    params: &Params,
    actions: &[Value],
    agent: AgentSpec,
    seed: u64,
) -> Result<Value, MoveError> {
    let game = catalogue::get(ruleset)?.build(params)?;
    tsoro_engine::with_game!(&game, g => choose_in(g, actions, agent, seed))
}

fn choose_in<G: Game + 'static>(
    g: &G,
    actions: &[Value],
    agent: AgentSpec,
    seed: u64,
) -> Result<Value, MoveError> {
    let s = position_after(g, actions).map_err(|e| match e {
        ReplayError::Params(p) => MoveError::Params(p),
        ReplayError::BadAction { index, message } => MoveError::BadAction { index, message },
        ReplayError::Illegal { index, .. } => MoveError::Illegal { index },
    })?;
    let mut rng = Rng::for_game(seed, actions.len() as u64);
    // The engine's search call: the move the agent plays, as in a simulation.
    let found = analyse(g, &s, agent, &mut rng).map_err(|_| MoveError::Over(actions.len()))?;
    serde_json::to_value(found.action).map_err(|e| MoveError::BadAction {
        index: actions.len(),
        message: e.to_string(),
    })
}
