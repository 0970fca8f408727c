//! `POST /api/v1/rulesets/{id}/agent-move`: an agent's move at a point of a game, for playing
//! against the computer. [`choose_move`] is the one place that asks the engine for a move.

#![allow(clippy::result_large_err)]

use crate::problem::Problem;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;
use tsoro_engine::agents::search::analyse;
use tsoro_engine::agents::{AgentSpec, KNOWN_AGENTS};
use tsoro_engine::catalogue::{self, ParamError, Params};
use tsoro_engine::game::Game;
use tsoro_engine::replay::{ReplayError, position_after};
use tsoro_engine::rng::Rng;
use utoipa::ToSchema;

/// Deepest alpha-beta search a request may ask for (deeper takes too long to answer).
pub const MAX_DEPTH: u32 = 6;
/// Most MCTS iterations a request may ask for.
pub const MAX_ITERATIONS: u32 = 20_000;
/// Most actions before the move.
pub const MAX_ACTIONS: usize = 100_000;

/// The game so far and who is to choose the next move.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(example = json!({"params": {"holes": 8}, "actions": [{"sow": "i,6"}], "agent": "greedy"}))]
#[serde(deny_unknown_fields)]
pub struct AgentMoveRequest {
    /// Parameter values (others at their defaults).
    #[serde(default)]
    #[schema(value_type = HashMap<String, Value>)]
    pub params: Params,
    /// The actions played so far, as for `/replay`.
    #[serde(default)]
    #[schema(value_type = Vec<Value>)]
    pub actions: Vec<Value>,
    /// The agent: `random`, `greedy`, `alphabeta:D` (D at most 6), `mcts:N` (N at most
    /// 20000).
    pub agent: String,
    /// Seed of the agent's random choices (ties, playouts); default 0.
    #[serde(default, deserialize_with = "crate::plan::deserialize_seed")]
    #[schema(value_type = crate::plan::Seed)]
    pub seed: u64,
}

/// The agent's move.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AgentMoveResponse {
    /// The action chosen, in the form `/replay` takes.
    #[schema(value_type = Value)]
    pub action: Value,
    /// The agent that chose it.
    pub agent: String,
    /// How many actions it follows.
    pub after: usize,
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

/// Registers the route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/api/v1/rulesets/{id}/agent-move")
            .route(web::post().to(agent_move))
            .default_service(crate::fallback::only("POST")),
    );
}

fn parse_agent(text: &str) -> Result<AgentSpec, Problem> {
    let agent: AgentSpec = text
        .parse()
        .map_err(|e: tsoro_engine::agents::UnknownAgent| {
            Problem::unprocessable(e.to_string())
                .with_error("agent", format!("one of: {KNOWN_AGENTS}"))
        })?;
    let too_strong = match agent {
        AgentSpec::AlphaBeta { depth, .. } => depth > MAX_DEPTH,
        AgentSpec::Mcts { iterations, .. } => iterations > MAX_ITERATIONS,
        _ => false,
    };
    if too_strong {
        return Err(Problem::unprocessable(format!(
            "{agent} searches too long to answer a request"
        ))
        .with_error(
            "agent",
            format!(
                "alphabeta depth at most {MAX_DEPTH}, mcts at most {MAX_ITERATIONS} iterations"
            ),
        ));
    }
    Ok(agent)
}

fn move_problem(e: MoveError) -> Problem {
    match &e {
        MoveError::Params(ParamError::UnknownRuleset { .. }) => Problem::not_found(e.to_string()),
        MoveError::Params(ParamError::OutOfRange { name, allowed, .. }) => {
            Problem::unprocessable(e.to_string())
                .with_error(format!("params.{name}"), format!("allowed: {allowed}"))
        }
        MoveError::Params(ParamError::UnknownParam { name, known, .. }) => {
            Problem::unprocessable(e.to_string()).with_error(
                format!("params.{name}"),
                format!("parameters: {}", known.join(", ")),
            )
        }
        MoveError::Params(_) => Problem::unprocessable(e.to_string()),
        MoveError::BadAction { index, message } => Problem::unprocessable(e.to_string())
            .with_error(format!("actions[{index}]"), message.clone()),
        MoveError::Illegal { index } => Problem::unprocessable(e.to_string())
            .with_error(format!("actions[{index}]"), "not legal at this point"),
        MoveError::Over(_) => Problem::unprocessable(e.to_string())
            .with_error("actions", "the game is over: there is no move to choose"),
    }
}

#[utoipa::path(post, path = "/api/v1/rulesets/{id}/agent-move", tag = "play",
    params(("id" = String, Path, description = "Ruleset id", example = "tsoro-ludii")),
    request_body = AgentMoveRequest,
    responses(
        (status = 200, description = "The agent's move", body = AgentMoveResponse),
        (status = 404, description = "No such ruleset", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown or too strong agent, an illegal action, a bad parameter, or a game already over", body = crate::problem::Problem, content_type = "application/problem+json"),
    ))]
/// An agent's move after the given actions (to play against the computer).
pub async fn agent_move(
    req: HttpRequest,
    path: web::Path<String>,
    body: crate::json_body::JsonObject<AgentMoveRequest>,
) -> Result<HttpResponse, Problem> {
    let b = body.into_inner();
    let agent = parse_agent(&b.agent).map_err(|p| p.at(req.path()))?;
    if b.actions.len() > MAX_ACTIONS {
        return Err(Problem::unprocessable(format!(
            "{} actions: at most {MAX_ACTIONS}",
            b.actions.len()
        ))
        .with_error("actions", format!("at most {MAX_ACTIONS}"))
        .at(req.path()));
    }
    let id = path.into_inner();
    let after = b.actions.len();
    let action = web::block(move || choose_move(&id, &b.params, &b.actions, agent, b.seed))
        .await
        .map_err(Problem::internal)?
        .map_err(|e| move_problem(e).at(req.path()))?;
    Ok(HttpResponse::Ok().json(AgentMoveResponse {
        action,
        agent: agent.to_string(),
        after,
    }))
}
