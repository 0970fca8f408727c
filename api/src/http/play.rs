//! Playing a ruleset's game: `POST /api/v1/rulesets/{id}/replay` (every state of a recorded
//! game), `/legal` (the legal actions after some) and `/agent-move` (an agent's move there,
//! for playing against the computer), with one cap on the actions a request may carry and one
//! mapping of their errors to problems (`super::errors`).

use crate::compute::Slots;
use crate::http::errors::compute;
use crate::http::ids::RulesetPath;
use crate::http::problem::Problem;
use crate::play::{
    AGENTS, MAX_DEPTH, MAX_ITERATIONS, check_actions, check_replay, choose_move, parse_agent,
};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tsoro_engine::catalogue::Params;
use tsoro_engine::replay::{ReplayRequest, legal_after, replay};
use utoipa::ToSchema;

/// The game so far and who is to choose the next move.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(example = json!({"params": {"holes": 8}, "actions": [{"sow": "i,6"}], "agent": "greedy"}))]
#[serde(deny_unknown_fields)]
pub struct AgentMoveRequest {
    /// Parameter values (others at their defaults).
    #[serde(default)]
    #[schema(schema_with = crate::runs::plan::params_schema)]
    pub params: Params,
    /// The actions played so far, as for `/replay`.
    #[serde(default)]
    #[schema(value_type = Vec<Value>)]
    pub actions: Vec<Value>,
    /// The agent (see [`AGENTS`]).
    #[schema(schema_with = agent_schema)]
    pub agent: String,
    /// Seed of the agent's random choices (ties, playouts); default 0. After N actions the
    /// agent draws from game N's generator of a run with this seed (as `tsoro search --seed`).
    #[serde(default, deserialize_with = "crate::runs::plan::deserialize_seed")]
    #[schema(value_type = crate::runs::plan::Seed)]
    pub seed: u64,
}

/// The schema of the agent: a name of a reproducible agent within [`MAX_DEPTH`] and
/// [`MAX_ITERATIONS`], exactly what [`parse_agent`] takes.
fn agent_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(format!(
            "^{}$",
            tsoro_engine::agents::name_pattern(MAX_DEPTH, MAX_ITERATIONS)
        )))
        .description(Some(format!("The agent: {}.", AGENTS.describe())))
        .build()
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

#[utoipa::path(post, path = "/api/v1/rulesets/{id}/agent-move", tag = "play",
    params(RulesetPath),
    request_body = AgentMoveRequest,
    responses(
        (status = 200, description = "The agent's move", body = AgentMoveResponse),
        (status = 404, description = "No such ruleset", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown or too strong agent, an illegal action, a bad parameter, a game already over, or a search stopped after `--request-seconds` (`/problems/over-time`)", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 503, description = "As many CPU-bound requests are running as the service allows (`--max-cpu-requests`); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// An agent's move after the given actions (to play against the computer).
pub async fn agent_move(
    req: HttpRequest,
    slots: web::Data<Slots>,
    path: web::Path<RulesetPath>,
    body: crate::http::extract::JsonObject<AgentMoveRequest>,
) -> Result<HttpResponse, Problem> {
    let b = body.into_inner();
    let agent = parse_agent(&b.agent)
        .and_then(|agent| check_actions(&b.actions).map(|()| agent))
        .map_err(|e| Problem::from(e).at(req.path()))?;
    let id = path.into_inner().id;
    let after = b.actions.len();
    let action = slots
        .run(move || choose_move(&id, &b.params, &b.actions, agent, b.seed))
        .await
        .map_err(|e| compute(e, "agent").at(req.path()))?
        .map_err(|e| Problem::from(e).at(req.path()))?;
    Ok(HttpResponse::Ok().json(AgentMoveResponse {
        action,
        agent: agent.to_string(),
        after,
    }))
}

/// A recorded game (`POST /api/v1/rulesets/{id}/replay` and `/legal`): the parameters and the
/// actions in order.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"params": {"holes": 8}, "actions": [{"sow": "i,6"}]}))]
pub struct GameBody {
    /// Parameter values by name (others at their defaults).
    #[serde(default)]
    #[schema(schema_with = crate::runs::plan::params_schema)]
    pub params: tsoro_engine::catalogue::Params,
    /// The actions in order: `{"sow":"ii,3"}`, `{"relay":"stop"}`, `{"take":"iv,5"}`,
    /// `{"nominate":"i,1"}`, `"pass"`, `{"place":"a1"}`, `{"move":["a1","a4"]}`.
    #[serde(default)]
    #[schema(value_type = Vec<Value>)]
    pub actions: Vec<Value>,
}

/// The engine's request for a recorded game, its actions within the limits
/// ([`check_replay`]).
fn game_request(id: &str, body: GameBody) -> Result<ReplayRequest, Problem> {
    check_replay(id, &body.params, &body.actions)?;
    Ok(ReplayRequest {
        ruleset: id.to_string(),
        params: body.params,
        actions: body.actions,
    })
}

#[utoipa::path(post, path = "/api/v1/rulesets/{id}/replay", tag = "play", params(RulesetPath),
    request_body = GameBody,
    responses((status = 200, description = "The states after each action, the legal actions and the result", body = Object), (status = 404, description = "No such ruleset", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 422, description = "An illegal action (its index and the legal actions), a bad parameter, or more actions than a replay of this game may hold (`4 MiB of states)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 503, description = "As many CPU-bound requests are running as the service allows (`--max-cpu-requests`); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// Replays a recorded game: every state, the legal actions and the result.
pub async fn replay_game(
    req: HttpRequest,
    slots: web::Data<Slots>,
    path: web::Path<RulesetPath>,
    body: crate::http::extract::JsonObject<GameBody>,
) -> Result<HttpResponse, Problem> {
    let r = game_request(&path.id, body.into_inner()).map_err(|p| p.at(req.path()))?;
    let out = slots
        .run(move || replay(&r))
        .await
        .map_err(|e| compute(e, "actions").at(req.path()))?
        .map_err(|e| Problem::from(e).at(req.path()))?;
    Ok(HttpResponse::Ok().json(out))
}

#[utoipa::path(post, path = "/api/v1/rulesets/{id}/legal", tag = "play", params(RulesetPath),
    request_body = GameBody,
    responses((status = 200, description = "The legal actions after the given ones", body = Object), (status = 404, description = "No such ruleset", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 422, description = "An illegal action, a bad parameter, or more actions than a replay of this game may hold", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 503, description = "As many CPU-bound requests are running as the service allows (`--max-cpu-requests`); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// The legal actions after the given ones.
pub async fn legal(
    req: HttpRequest,
    slots: web::Data<Slots>,
    path: web::Path<RulesetPath>,
    body: crate::http::extract::JsonObject<GameBody>,
) -> Result<HttpResponse, Problem> {
    let r = game_request(&path.id, body.into_inner()).map_err(|p| p.at(req.path()))?;
    let n = r.actions.len();
    let out = slots
        .run(move || legal_after(&r))
        .await
        .map_err(|e| compute(e, "actions").at(req.path()))?
        .map_err(|e| Problem::from(e).at(req.path()))?;
    Ok(HttpResponse::Ok().json(json!({"after": n, "legal": out})))
}
