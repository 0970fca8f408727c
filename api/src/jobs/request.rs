//! What a client asks for, checked: every fault named with its field, as 422 problem+json.

use super::JobSettings;
use crate::problem::Problem;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tsoro_engine::agents::{AgentSpec, KNOWN_AGENTS};
use tsoro_engine::catalogue::{self, Kind, ParamError, Params, RulesetDef};

/// Agents as `"random,greedy"` or `["random", "greedy"]` (one name: both seats).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Agents {
    /// Comma-separated.
    Text(String),
    /// A list.
    List(Vec<String>),
}

impl Default for Agents {
    fn default() -> Self {
        Agents::Text("random,random".into())
    }
}

impl Agents {
    fn names(&self) -> Vec<String> {
        match self {
            Agents::Text(t) => t.split(',').map(|s| s.trim().to_string()).collect(),
            Agents::List(l) => l.clone(),
        }
    }
}

fn yes() -> bool {
    true
}

/// `POST /api/v1/simulations`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationRequest {
    /// The ruleset id.
    pub ruleset: String,
    /// Parameter values (others at their defaults).
    #[serde(default)]
    pub params: Params,
    /// The two agents.
    #[serde(default)]
    pub agents: Agents,
    /// Games to play.
    pub games: u64,
    /// The run's seed.
    #[serde(default)]
    pub seed: u64,
    /// Turns after which a game is a draw (overrides the ruleset's `turn_limit`).
    #[serde(default)]
    pub turn_limit: Option<u32>,
    /// Agents swap seats every other game.
    #[serde(default = "yes")]
    pub swap_seats: bool,
    /// Play every game action by action through the reference rules, not the fast kernel
    /// (the records are the same: this is for checking that they are).
    #[serde(default)]
    pub reference: bool,
}

/// `POST /api/v1/comparisons`: the same run on several rulesets, on the same seeds.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ComparisonRequest {
    /// Two or more ruleset ids.
    pub rulesets: Vec<String>,
    /// Parameter values applied to every ruleset that has them.
    #[serde(default)]
    pub params: Params,
    /// The two agents.
    #[serde(default)]
    pub agents: Agents,
    /// Games per ruleset.
    pub games: u64,
    /// The seed shared by every run.
    #[serde(default)]
    pub seed: u64,
    /// Turn limit for every run.
    #[serde(default)]
    pub turn_limit: Option<u32>,
    /// Agents swap seats every other game.
    #[serde(default = "yes")]
    pub swap_seats: bool,
    /// Play every game action by action through the reference rules, not the fast kernel
    /// (the records are the same: this is for checking that they are).
    #[serde(default)]
    pub reference: bool,
}

/// A checked job, ready to store.
#[derive(Clone, Debug)]
pub struct JobSpec {
    /// The ruleset.
    pub def: &'static RulesetDef,
    /// Every parameter in force.
    pub params: Params,
    /// The resolved configuration (the exact version run).
    pub config: Value,
    /// sha256 of the configuration's canonical JSON.
    pub hash: String,
    /// The two agents.
    pub agents: [AgentSpec; 2],
    /// Games.
    pub games: u64,
    /// Seed.
    pub seed: u64,
    /// Swap seats.
    pub swap_seats: bool,
    /// Play through the reference only.
    pub reference: bool,
    /// Games per chunk.
    pub chunk_games: u64,
}

/// The version of a configuration: sha256 of its JSON (object keys sorted by serde_json).
pub fn config_hash(config: &Value) -> String {
    let digest = Sha256::digest(config.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn param_problem(e: &ParamError) -> Problem {
    let p = Problem::unprocessable(e.to_string());
    match e {
        ParamError::UnknownRuleset { .. } => p.with_error("ruleset", e.to_string()),
        ParamError::UnknownParam { name, .. } | ParamError::OutOfRange { name, .. } => {
            p.with_error(format!("params.{name}"), e.to_string())
        }
        ParamError::NotAGame { .. } => p.with_error("ruleset", e.to_string()),
        ParamError::Config(c) => p.with_error(format!("config.{}", c.field), c.message.clone()),
        ParamError::Catalogue(_) => p,
    }
}

/// How a run is played, whatever its ruleset.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions<'a> {
    /// The agents.
    pub agents: &'a Agents,
    /// Games.
    pub games: u64,
    /// Seed.
    pub seed: u64,
    /// Turn limit override.
    pub turn_limit: Option<u32>,
    /// Swap seats.
    pub swap_seats: bool,
    /// Play through the reference only.
    pub reference: bool,
}

/// Checks a simulation request against the catalogue and the limits.
pub fn check(
    ruleset: &str,
    params: &Params,
    run: RunOptions<'_>,
    limits: &JobSettings,
) -> Result<JobSpec, Problem> {
    let RunOptions {
        agents,
        games,
        seed,
        turn_limit,
        swap_seats,
        reference,
    } = run;
    let def = catalogue::get(ruleset).map_err(|e| param_problem(&e))?;
    if def.kind == Kind::Nhodo {
        return Err(Problem::unprocessable(format!(
            "{ruleset} is a stochastic model with no decisions: simulate it with `tsoro simulate`"
        ))
        .with_error("ruleset", "nhodo has no agents to run as a job"));
    }
    let mut params = params.clone();
    if let Some(t) = turn_limit {
        if !def.params.iter().any(|p| p.name == "turn_limit") {
            return Err(
                Problem::unprocessable(format!("{ruleset} has no turn limit"))
                    .with_error("turn_limit", "this ruleset has no turn_limit parameter"),
            );
        }
        params.insert("turn_limit".into(), t.into());
    }
    let config = def.resolve(&params).map_err(|e| param_problem(&e))?;
    def.build_model(&params).map_err(|e| param_problem(&e))?;
    let names = agents.names();
    let parsed: Result<Vec<AgentSpec>, _> = names.iter().map(|n| n.parse::<AgentSpec>()).collect();
    let parsed = parsed.map_err(|e| {
        Problem::unprocessable(e.to_string()).with_error("agents", format!("known: {KNOWN_AGENTS}"))
    })?;
    let agents = match parsed.as_slice() {
        [a] => [*a, *a],
        [a, b] => [*a, *b],
        _ => {
            return Err(Problem::unprocessable("give one or two agents")
                .with_error("agents", format!("one or two of: {KNOWN_AGENTS}")));
        }
    };
    if games == 0 || games > limits.max_games {
        return Err(Problem::unprocessable(format!(
            "games = {games}: a job has 1 to {} games",
            limits.max_games
        ))
        .with_error("games", format!("1..={}", limits.max_games)));
    }
    let searching = agents
        .iter()
        .any(|a| matches!(a, AgentSpec::AlphaBeta { .. } | AgentSpec::Mcts { .. }));
    let chunk_games = if searching {
        (limits.chunk_games / 200).max(1)
    } else {
        limits.chunk_games.max(1)
    };
    let spec = JobSpec {
        def,
        hash: config_hash(&config),
        params: def.effective_params(&params),
        config,
        agents,
        games,
        seed,
        swap_seats,
        reference,
        chunk_games,
    };
    super::budget::check(&spec, limits)?;
    Ok(spec)
}
