//! OpenAPI schemas of the jobs' request bodies (the handlers read them with serde).

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// `POST /api/v1/simulations`.
#[derive(Serialize, ToSchema)]
pub struct SimulationRequestDoc {
    /// The ruleset id (`tsoro-matthews-basic`).
    pub ruleset: String,
    /// Parameter values (others at their defaults; see the ruleset's `params`).
    #[schema(value_type = Object)]
    pub params: Option<Value>,
    /// Two agents: `"random,greedy"` or `["alphabeta:4", "mcts:1000"]` (one name: both seats).
    /// Agents: `random`, `greedy`, `alphabeta:D`, `alphabeta-mobility:D`, `mcts:N`.
    #[schema(value_type = Object, example = json!("random,greedy"))]
    pub agents: Option<Value>,
    /// Games to play (at most the service's `--max-games`).
    pub games: u64,
    /// The run's seed (default 0): game k depends only on (seed, k).
    pub seed: Option<u64>,
    /// Turns after which a game is a draw (overrides the ruleset's `turn_limit`).
    pub turn_limit: Option<u32>,
    /// Agents swap seats every other game (default true).
    pub swap_seats: Option<bool>,
    /// Play every game through the reference rules, action by action, not the fast kernel
    /// (default false; the records are the same).
    pub reference: Option<bool>,
}

/// `POST /api/v1/comparisons`: the same run on several rulesets, on the same seeds.
#[derive(Serialize, ToSchema)]
pub struct ComparisonRequestDoc {
    /// Two or more ruleset ids.
    pub rulesets: Vec<String>,
    /// Parameter values applied to every ruleset that has them.
    #[schema(value_type = Object)]
    pub params: Option<Value>,
    /// The two agents, as for a simulation.
    #[schema(value_type = Object)]
    pub agents: Option<Value>,
    /// Games per ruleset.
    pub games: u64,
    /// The seed shared by every run.
    pub seed: Option<u64>,
    /// Turn limit for every run.
    pub turn_limit: Option<u32>,
    /// Agents swap seats every other game (default true).
    pub swap_seats: Option<bool>,
    /// Play every game through the reference rules, action by action, not the fast kernel
    /// (default false; the records are the same).
    pub reference: Option<bool>,
}

/// `POST /api/v1/rulesets/{id}/replay` and `/legal`.
#[derive(Serialize, ToSchema)]
pub struct ReplayRequestDoc {
    /// Parameter values (others at their defaults).
    #[schema(value_type = Object)]
    pub params: Option<Value>,
    /// The actions in order: `{"sow":"ii,3"}`, `{"relay":"stop"}`, `{"take":"iv,5"}`,
    /// `{"nominate":"i,1"}`, `"pass"`, `{"place":"a1"}`, `{"move":["a1","a4"]}`.
    #[schema(value_type = Vec<Object>)]
    pub actions: Vec<Value>,
}
