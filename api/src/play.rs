//! A game played through the service: the move an agent chooses after some actions
//! ([`choose_move`], the one place that asks the engine for a move for a request), and the
//! limits on what a request to play may ask ([`PlayRequestError`]).

use serde_json::Value;
use thiserror::Error;
use tsoro_engine::agents::search::{AnalyseError, analyse_after};
use tsoro_engine::agents::{AgentBounds, AgentSpec, UnknownAgent};
use tsoro_engine::catalogue::{self, ParamError, Params};
use tsoro_engine::replay::ReplayError;

/// Deepest alpha-beta search a request may ask for (deeper takes too long to answer).
pub const MAX_DEPTH: u32 = 6;
/// Most MCTS iterations a request may ask for.
pub const MAX_ITERATIONS: u32 = 20_000;
/// The agents a request may ask for a move: reproducible ones within [`MAX_DEPTH`] and
/// [`MAX_ITERATIONS`] (what the errors and the OpenAPI say, and what [`parse_agent`] takes).
pub const AGENTS: AgentBounds = AgentBounds {
    max_depth: MAX_DEPTH,
    max_iterations: MAX_ITERATIONS,
    timed: false,
};
/// Most actions in one request (a replay, or the game before a move).
pub const MAX_ACTIONS: usize = 100_000;
/// Most bytes of states a replay (or `/legal`, which replays) may hold: its actions times the
/// size of a state of the ruleset, so that a request's memory stays bounded (its reply is
/// about this size, its memory some tens of times more while it is built).
pub const MAX_REPLAY_BYTES: usize = 4 << 20;

/// A request to play refused before any play: over a limit of a request, or an agent it may
/// not ask for.
#[derive(Debug, Error)]
pub enum PlayRequestError {
    /// More actions than [`MAX_ACTIONS`].
    #[error("{given} actions: at most {MAX_ACTIONS}")]
    TooManyActions {
        /// The actions given.
        given: usize,
    },
    /// More actions than a replay of this game may hold in [`MAX_REPLAY_BYTES`] of states.
    #[error(
        "{given} actions: a replay of this game holds at most {most} ({state} bytes a state, at \
         most {MAX_REPLAY_BYTES} bytes of states a request)"
    )]
    TooManyStates {
        /// The actions given.
        given: usize,
        /// The most this game's replay may hold.
        most: usize,
        /// Bytes of one of its states.
        state: usize,
    },
    /// Not an agent.
    #[error(transparent)]
    UnknownAgent(#[from] UnknownAgent),
    /// An agent [`AGENTS`] does not take: one that searches too long (past [`MAX_DEPTH`] or
    /// [`MAX_ITERATIONS`]), or with a time budget (an answer would not be the same twice).
    #[error(
        "{0} is not taken to answer a request: too long a search, or a time budget (an answer \
         would not be the same twice)"
    )]
    TooStrong(AgentSpec),
}

/// The agent a request names: one [`AGENTS`] takes.
pub fn parse_agent(text: &str) -> Result<AgentSpec, PlayRequestError> {
    let agent: AgentSpec = text.parse()?;
    if !AGENTS.admits(&agent) {
        return Err(PlayRequestError::TooStrong(agent));
    }
    Ok(agent)
}

/// At most [`MAX_ACTIONS`] actions.
pub fn check_actions(actions: &[Value]) -> Result<(), PlayRequestError> {
    if actions.len() > MAX_ACTIONS {
        return Err(PlayRequestError::TooManyActions {
            given: actions.len(),
        });
    }
    Ok(())
}

/// A replay's actions: at most [`MAX_ACTIONS`], and no more states than [`MAX_REPLAY_BYTES`]
/// hold. An unknown ruleset or a bad parameter is left to the replay to report.
pub fn check_replay(
    ruleset: &str,
    params: &Params,
    actions: &[Value],
) -> Result<(), PlayRequestError> {
    check_actions(actions)?;
    if let Ok(state) = state_bytes(ruleset, params) {
        let most = MAX_REPLAY_BYTES / state.max(1) - 1;
        if actions.len() > most {
            return Err(PlayRequestError::TooManyStates {
                given: actions.len(),
                most,
                state,
            });
        }
    }
    Ok(())
}

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
