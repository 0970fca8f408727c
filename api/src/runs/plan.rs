//! One validation of a run: a [`RunRequest`] (a JSON body, or the command line's options)
//! checked into a [`RunPlan`], or a [`RunError`] naming the field at fault. The command line
//! prints the error on one line and exits 2; the service answers 422 with the field.

use crate::runs::csv::RunLabel;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use thiserror::Error;
use tsoro_engine::AnyGame;
use tsoro_engine::agents::{self, AgentBounds, AgentSpec};
use tsoro_engine::catalogue::{self, ParamError, Params, RulesetDef};
use tsoro_engine::sim::SimSpec;
use utoipa::ToSchema;

/// Most rulesets in one comparison.
pub const MAX_COMPARED: usize = 8;

/// Agents as `"random,greedy"` or `["random", "greedy"]` (one name: both seats). An agent is
/// `random`, `greedy`, `alphabeta:D` or `alphabeta:D:mobility` (search depth D, 1 to 8;
/// `material` or `mobility` evaluation), or `mcts:N` or `mcts:N:C` (N iterations, 1 to
/// 1000000; exploration constant C).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum Agents {
    /// Comma-separated.
    Text(String),
    /// A list.
    List(Vec<String>),
}

/// Read by hand rather than derived: a derived untagged enum answers anything else with
/// serde's "data did not match any variant of untagged enum Agents", naming a Rust type.
impl<'de> Deserialize<'de> for Agents {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let wrong = || {
            serde::de::Error::custom(
                "agents: agent names separated by commas (\"random,greedy\"), or a list of \
                 them ([\"random\", \"greedy\"])",
            )
        };
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Agents::Text(s)),
            Value::Array(items) => items
                .into_iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s),
                    _ => Err(wrong()),
                })
                .collect::<Result<_, _>>()
                .map(Agents::List),
            _ => Err(wrong()),
        }
    }
}

impl Default for Agents {
    fn default() -> Self {
        Agents::Text("random,random".into())
    }
}

impl Agents {
    /// The names given, without the spaces around them.
    pub fn names(&self) -> Vec<String> {
        match self {
            Agents::Text(t) => t
                .split(',')
                .map(|s| s.trim_matches(' ').to_string())
                .collect(),
            Agents::List(l) => l.iter().map(|s| s.trim_matches(' ').to_string()).collect(),
        }
    }
}

/// The schema of a list of 1 to `max` agent names, as text or a list: reproducible agents
/// within the engine's bounds ([`agents::name_pattern`]), spaces around each allowed.
pub fn agents_schema(max: usize) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
    let name = agents::name_pattern(agents::MAX_DEPTH, agents::MAX_ITERATIONS);
    let one = format!(" *{name} *");
    let (text, list, what) = if max == 2 {
        (
            "One name, or two separated by a comma.".to_string(),
            "One name or two.".to_string(),
            "(one name: both seats)".to_string(),
        )
    } else {
        (
            format!("1 to {max} names separated by commas."),
            format!("1 to {max} names."),
            format!("(1 to {max} agents)"),
        )
    };
    Schema::OneOf(
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(format!("^{one}(,{one}){{0,{}}}$", max - 1)))
                    .description(Some(text)),
            )
            .item(
                ArrayBuilder::new()
                    .items(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .pattern(Some(format!("^{one}$"))),
                    )
                    .min_items(Some(1))
                    .max_items(Some(max))
                    .description(Some(list)),
            )
            .description(Some(format!(
                "Agents as `\"random,greedy\"` or `[\"random\", \"greedy\"]` {what}: {}.",
                AgentBounds::REPRODUCIBLE.describe()
            )))
            .examples([serde_json::json!("random,greedy")])
            .build(),
    )
}

/// The schema says what [`parse_agents`] takes: one or two agents.
impl utoipa::PartialSchema for Agents {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        agents_schema(2).into()
    }
}

impl ToSchema for Agents {}

/// The schema of a request's `params`: an object whose names are parameters of some ruleset,
/// each a whole number, a boolean or a choice's name (which of them a ruleset has, and their
/// ranges, are in its `params`).
pub fn params_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, SchemaType, Type};
    let mut names: Vec<&str> = catalogue::all()
        .iter()
        .flat_map(|d| d.params.iter().map(|p| p.name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    let value = ObjectBuilder::new().schema_type(SchemaType::from_iter([
        Type::Integer,
        Type::Boolean,
        Type::String,
    ]));
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .property_names(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(names)),
        ))
        .additional_properties(Some(AdditionalProperties::RefOr(value.into())))
        .build()
}

/// The schema of a run's `turn_limit`: a whole number within the widest range any ruleset
/// allows (each ruleset's own range is in its `params`), or null.
fn turn_limit_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{SchemaType, Type};
    let ranges = catalogue::all()
        .iter()
        .flat_map(|d| &d.params)
        .filter_map(|p| match (&p.name[..], &p.kind) {
            ("turn_limit", catalogue::ParamKind::Int { min, max, .. }) => Some((*min, *max)),
            _ => None,
        });
    let (min, max) = ranges.fold((i64::MAX, i64::MIN), |(a, b), (lo, hi)| {
        (a.min(lo), b.max(hi))
    });
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
        .minimum(Some(min))
        .maximum(Some(max))
        .description(Some(
            "Turns after which a game is a draw (overrides the ruleset's `turn_limit`, within \
             the range its `params` give).",
        ))
        .build()
}

/// The ids of the rulesets a run can play: every shipped ruleset but the stochastic models
/// without players (nhodo, simulated by `tsoro simulate` alone).
pub fn playable_ids() -> Vec<&'static str> {
    catalogue::all()
        .iter()
        .filter(|d| d.kind != catalogue::Kind::Nhodo)
        .map(|d| d.id.as_str())
        .collect()
}

/// The schema of a run's ruleset: one of [`playable_ids`].
pub fn ruleset_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(playable_ids()))
        .description(Some("The ruleset id."))
        .build()
}

/// The schema of a comparison's rulesets: two to [`MAX_COMPARED`] of [`playable_ids`].
fn compared_schema() -> utoipa::openapi::Array {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(ruleset_schema())
        .min_items(Some(2))
        .max_items(Some(MAX_COMPARED))
        .description(Some(format!(
            "Two to {MAX_COMPARED} ruleset ids; the first is the reference the others are \
             compared with."
        )))
        .build()
}

fn yes() -> bool {
    true
}

/// A seed: an unsigned 64-bit integer, as a JSON number or a decimal string (JavaScript's
/// `JSON.parse` rounds numbers above 2^53, so the service writes seeds as strings).
#[derive(Clone, Debug)]
pub enum Seed {
    /// Decimal digits, `"18446744073709551615"` at most.
    Text(String),
    /// A number.
    Number(serde_json::Number),
}

/// Read by hand rather than derived as an untagged enum, whose error names the Rust type
/// ("data did not match any variant of untagged enum Seed").
impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Seed::Text(s)),
            Value::Number(n) => Ok(Seed::Number(n)),
            other => Err(serde::de::Error::custom(format!(
                "seed: an unsigned 64-bit integer, as a number or a string of decimal digits, \
                 not {}",
                json_kind(&other)
            ))),
        }
    }
}

/// What a JSON value is, in words ("an object", "a boolean").
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Seed {
    /// Its value: a number, or a string of decimal digits only (no sign, no spaces) that
    /// fits in 64 bits, as [`u64_pattern`] says.
    pub fn value(&self) -> Option<u64> {
        match self {
            Seed::Number(n) => whole_u64(n),
            Seed::Text(t) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
                t.parse().ok()
            }
            Seed::Text(_) => None,
        }
    }
}

/// A regular expression matching exactly the decimal strings of 0 to `u64::MAX` (leading
/// zeros allowed): the schema's statement of what [`Seed::value`] accepts.
pub fn u64_pattern() -> String {
    let max = u64::MAX.to_string();
    let digits: Vec<u32> = max.chars().filter_map(|c| c.to_digit(10)).collect();
    let n = digits.len();
    // Shorter numbers, then those of the same length below the maximum at each digit.
    let mut alternatives = vec![format!("[0-9]{{1,{}}}", n - 1)];
    for (i, &d) in digits.iter().enumerate() {
        if d > 0 {
            let rest = n - i - 1;
            let below = if d == 1 {
                "0".to_string()
            } else {
                format!("[0-{}]", d - 1)
            };
            let tail = if rest > 0 {
                format!("[0-9]{{{rest}}}")
            } else {
                String::new()
            };
            alternatives.push(format!("{}{below}{tail}", &max[..i]));
        }
    }
    alternatives.push(max);
    format!("^0*({})$", alternatives.join("|"))
}

impl utoipa::PartialSchema for Seed {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(u64_pattern()))
                    .description(Some("Decimal digits, `\"18446744073709551615\"` at most.")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(utoipa::Number::UInt(u64::MAX as usize)))
                    .description(Some("A number.")),
            )
            .description(Some(
                "A seed: an unsigned 64-bit integer, as a JSON number or a decimal string \
                 (JavaScript's `JSON.parse` rounds numbers above 2^53, so the service writes \
                 seeds as strings).",
            ))
            .examples([serde_json::json!("7")])
            .into()
    }
}

impl ToSchema for Seed {}

/// A JSON number's value if it is a whole number from 0 to `u64::MAX`: JSON Schema's
/// integers include those written with a fraction of zero (`8.0`, as Python writes a float).
pub fn whole_u64(n: &serde_json::Number) -> Option<u64> {
    n.as_u64().or_else(|| {
        // 2^64 is the first float above u64::MAX.
        n.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 18_446_744_073_709_551_616.0)
            .map(|f| f as u64)
    })
}

/// Reads a whole number (see [`whole_u64`]): `8` or `8.0`.
pub fn deserialize_u64<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let n = serde_json::Number::deserialize(d)?;
    whole_u64(&n).ok_or_else(|| {
        serde::de::Error::custom(format!("{n}: a whole number from 0 to {}", u64::MAX))
    })
}

/// Reads a whole number into a `u32` (`8` or `8.0`).
pub fn deserialize_u32<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = serde_json::Number::deserialize(d)?;
    whole_u64(&n)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| {
            serde::de::Error::custom(format!("{n}: a whole number from 0 to {}", u32::MAX))
        })
}

/// Reads an optional whole number into a `u32` (`null`, `8` or `8.0`).
pub fn deserialize_opt_u32<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<u32>, D::Error> {
    Option::<serde_json::Number>::deserialize(d)?
        .map(|n| {
            whole_u64(&n)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| {
                    serde::de::Error::custom(format!("{n}: a whole number from 0 to {}", u32::MAX))
                })
        })
        .transpose()
}

/// Reads a [`Seed`] into its number.
pub fn deserialize_seed<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let seed = Seed::deserialize(d)?;
    seed.value().ok_or_else(|| {
        let given = match &seed {
            Seed::Text(t) => serde_json::to_string(t).unwrap_or_default(),
            Seed::Number(n) => n.to_string(),
        };
        serde::de::Error::custom(format!(
            "seed {given}: an unsigned 64-bit integer, as a number or a string of decimal digits"
        ))
    })
}

/// A simulation run as asked for (`POST /api/v1/simulations`, `tsoro simulate`).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"ruleset": "tsoro-matthews-basic", "params": {"holes": 8},
    "agents": "random,greedy", "games": 200, "seed": "7"}))]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The ruleset id.
    #[schema(schema_with = ruleset_schema)]
    pub ruleset: String,
    /// Parameter values by name (others at their defaults; the ruleset's `params` lists them
    /// with their types and ranges).
    #[serde(default)]
    #[schema(schema_with = params_schema)]
    pub params: Params,
    /// The two agents.
    #[serde(default)]
    pub agents: Agents,
    /// Games to play (at most the service's `--max-games`).
    #[serde(deserialize_with = "deserialize_u64")]
    #[schema(minimum = 1)]
    pub games: u64,
    /// The run's seed: game k depends only on (seed, k).
    #[serde(default, deserialize_with = "deserialize_seed")]
    #[schema(value_type = Seed)]
    pub seed: u64,
    /// Turns after which a game is a draw (overrides the ruleset's `turn_limit`).
    #[serde(default, deserialize_with = "deserialize_opt_u32")]
    #[schema(schema_with = turn_limit_schema)]
    pub turn_limit: Option<u32>,
    /// Agents swap seats every other game.
    #[serde(default = "yes")]
    pub swap_seats: bool,
    /// Play every game action by action through the reference rules, not the fast kernel
    /// (the records are the same: this is for checking that they are).
    #[serde(default)]
    pub reference: bool,
}

/// The same run on several rulesets, on the same seeds (`POST /api/v1/comparisons`,
/// `tsoro compare`).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"rulesets": ["tsoro-ludii", "tsoro-ludii-additional-capture"],
    "agents": ["random", "random"], "games": 200, "seed": "1"}))]
#[serde(deny_unknown_fields)]
pub struct ComparisonRequest {
    /// Two to eight ruleset ids; the first is the reference the others are compared with
    /// (give these or `variants`).
    #[serde(default)]
    #[schema(schema_with = compared_schema)]
    pub rulesets: Vec<String>,
    /// Parameter values, applied to every ruleset that has them (each must belong to one;
    /// with `rulesets` only).
    #[serde(default)]
    #[schema(schema_with = params_schema)]
    pub params: Params,
    /// Two to eight variants, each a ruleset with its own parameters; the first is the
    /// reference (give these or `rulesets`).
    #[serde(default)]
    #[schema(min_items = 2, max_items = 8)]
    pub variants: Vec<Variant>,
    /// The two agents.
    #[serde(default)]
    pub agents: Agents,
    /// Games per ruleset.
    #[serde(deserialize_with = "deserialize_u64")]
    #[schema(minimum = 1)]
    pub games: u64,
    /// The seed shared by every run.
    #[serde(default, deserialize_with = "deserialize_seed")]
    #[schema(value_type = Seed)]
    pub seed: u64,
    /// Turn limit for every run.
    #[serde(default, deserialize_with = "deserialize_opt_u32")]
    #[schema(schema_with = turn_limit_schema)]
    pub turn_limit: Option<u32>,
    /// Agents swap seats every other game.
    #[serde(default = "yes")]
    pub swap_seats: bool,
    /// Play every game action by action through the reference rules, not the fast kernel.
    #[serde(default)]
    pub reference: bool,
}

/// A ruleset with its own parameters: one run of a comparison of variants.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// The ruleset id.
    #[schema(schema_with = ruleset_schema)]
    pub ruleset: String,
    /// Its parameter values (others at their defaults).
    #[serde(default)]
    #[schema(schema_with = params_schema)]
    pub params: Params,
}

/// A checked run, ready to play or to store as a job.
#[derive(Clone, Debug)]
pub struct RunPlan {
    /// The ruleset.
    pub def: &'static RulesetDef,
    /// Every parameter in force (defaults included).
    pub params: Params,
    /// The resolved configuration (the exact version run).
    pub config: Value,
    /// sha256 of the configuration's canonical JSON.
    pub hash: String,
    /// The game built from the configuration.
    pub game: AnyGame,
    /// The two agents.
    pub agents: [AgentSpec; 2],
    /// Games to play.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Agents swap seats every other game.
    pub swap_seats: bool,
    /// Play through the reference rules only.
    pub reference: bool,
    /// Random opening plies before the agents play ([`SimSpec::opening_plies`]; 0 for the
    /// service's jobs, which do not take them yet).
    pub opening_plies: u32,
}

impl RunPlan {
    /// Games `0..games` of the run.
    pub fn sim_spec(&self) -> SimSpec {
        SimSpec {
            agents: self.agents,
            games: 0..self.games,
            seed: self.seed,
            swap_seats: self.swap_seats,
            opening_plies: self.opening_plies,
        }
    }

    /// How the run is labelled in the CSV exports.
    pub fn label(&self) -> RunLabel {
        RunLabel {
            ruleset: self.def.id.clone(),
            params: serde_json::to_value(&self.params).unwrap_or_default(),
            agents: format!("{},{}", self.agents[0], self.agents[1]),
            seed: self.seed,
        }
    }

    /// The agents' names, as stored and shown.
    pub fn agent_names(&self) -> [String; 2] {
        self.agents.map(|a| a.to_string())
    }
}

/// What is wrong with a run: the field at fault (`ruleset`, `params.holes`, `agents`, `games`,
/// `rulesets[1]`...), what is wrong with it, and one line saying so.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{detail}")]
pub struct RunError {
    /// One line: what is wrong and what is allowed.
    pub detail: String,
    /// The field at fault.
    pub field: String,
    /// What is allowed there.
    pub message: String,
}

impl RunError {
    /// The fault of `field`: one line `detail`, and what is allowed there.
    pub fn new(
        field: impl Into<String>,
        detail: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        RunError {
            detail: detail.into(),
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same fault, of the run on `rulesets[i]` of a comparison.
    fn in_ruleset(self, i: usize) -> Self {
        self.within(&format!("rulesets[{i}]"))
    }

    /// The same fault, of the run `at` (`rulesets[1]`, `variants[2]`) of a comparison: its
    /// `ruleset`, `params.` and `config.` fields are that run's.
    fn within(mut self, at: &str) -> Self {
        self.field = match self.field.strip_prefix("ruleset") {
            Some(rest) if at.starts_with("rulesets") => format!("{at}{rest}"),
            Some(rest) => format!("{at}.ruleset{rest}"),
            None if self.field.starts_with("params.") || self.field.starts_with("config.") => {
                format!("{at}.{}", self.field)
            }
            None => self.field,
        };
        self
    }
}

impl From<ParamError> for RunError {
    fn from(e: ParamError) -> Self {
        let detail = e.to_string();
        let field = match &e {
            ParamError::UnknownRuleset { .. } | ParamError::NotAGame { .. } => {
                "ruleset".to_string()
            }
            ParamError::UnknownParam { name, .. } | ParamError::OutOfRange { name, .. } => {
                format!("params.{name}")
            }
            ParamError::Config(c) => format!("config.{}", c.field),
            ParamError::Catalogue(_) => "ruleset".to_string(),
        };
        let message = match &e {
            ParamError::UnknownRuleset { known, .. } => format!("one of: {}", known.join(", ")),
            ParamError::UnknownParam { known, .. } => format!("parameters: {}", known.join(", ")),
            ParamError::OutOfRange { allowed, .. } => format!("allowed: {allowed}"),
            ParamError::NotAGame { .. } => {
                "a game with players (a nhodo ruleset runs at POST /api/v1/nhodo)".into()
            }
            ParamError::Config(c) => c.message.clone(),
            ParamError::Catalogue(_) => detail.clone(),
        };
        RunError::new(field, detail, message)
    }
}

/// The version of a configuration: sha256 of its JSON (object keys sorted by serde_json).
pub fn config_hash(config: &Value) -> String {
    let digest = Sha256::digest(config.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// One agent by name, named `field` in faults: a known agent, and reproducible from its seed
/// (a time budget is refused: its play depends on the machine), as
/// [`AgentBounds::REPRODUCIBLE`] says.
pub fn parse_agent(name: &str, field: &str) -> Result<AgentSpec, RunError> {
    let bounds = AgentBounds::REPRODUCIBLE;
    bounds
        .parse(name)
        .map_err(|detail| RunError::new(field, detail, format!("known: {}", bounds.describe())))
}

/// The two agents of a run, from one or two names.
pub fn parse_agents(agents: &Agents) -> Result<[AgentSpec; 2], RunError> {
    let parsed = agents
        .names()
        .iter()
        .map(|n| parse_agent(n, "agents"))
        .collect::<Result<Vec<_>, _>>()?;
    match parsed.as_slice() {
        [a] => Ok([*a, *a]),
        [a, b] => Ok([*a, *b]),
        _ => Err(RunError::new(
            "agents",
            format!("{} agents given: a run takes one or two", parsed.len()),
            format!("one or two of: {}", AgentBounds::REPRODUCIBLE.describe()),
        )),
    }
}

/// Checks a run against the catalogue and `max_games` (the most games one run may have).
pub fn plan(req: &RunRequest, max_games: u64) -> Result<RunPlan, RunError> {
    let def = catalogue::get(&req.ruleset)?;
    let mut params = req.params.clone();
    if let Some(t) = req.turn_limit {
        let spec = def
            .params
            .iter()
            .find(|p| p.name == "turn_limit")
            .ok_or_else(|| {
                RunError::new(
                    "turn_limit",
                    format!("{} has no turn limit parameter", def.id),
                    "this ruleset has no turn_limit parameter",
                )
            })?;
        let v = Value::from(t);
        spec.check(&v).map_err(|e| {
            RunError::new(
                "turn_limit",
                e.to_string(),
                format!("allowed: {}", spec.range()),
            )
        })?;
        params.insert("turn_limit".into(), v);
    }
    let config = def.resolve(&params)?;
    let game = def.build(&params)?;
    let agents = parse_agents(&req.agents)?;
    if req.games == 0 || req.games > max_games {
        return Err(RunError::new(
            "games",
            format!("games = {}: a run has 1 to {max_games} games", req.games),
            format!("1..={max_games}"),
        ));
    }
    Ok(RunPlan {
        def,
        params: def.effective_params(&params),
        hash: config_hash(&config),
        config,
        game,
        agents,
        games: req.games,
        seed: req.seed,
        swap_seats: req.swap_seats,
        reference: req.reference,
        opening_plies: 0,
    })
}

/// Checks a comparison: one run per ruleset, each with the parameters it has; every parameter
/// must belong to at least one of the rulesets.
pub fn plan_comparison(req: &ComparisonRequest, max_games: u64) -> Result<Vec<RunPlan>, RunError> {
    if !req.variants.is_empty() {
        if !req.rulesets.is_empty() || !req.params.is_empty() {
            let field = if req.rulesets.is_empty() {
                "params"
            } else {
                "rulesets"
            };
            return Err(RunError::new(
                field,
                format!("{field} given with variants: a comparison has one or the other"),
                "rulesets (with shared params) or variants (each with its own params)",
            ));
        }
        return plan_variants(req, max_games);
    }
    let n = req.rulesets.len();
    if !(2..=MAX_COMPARED).contains(&n) {
        return Err(RunError::new(
            "rulesets",
            format!("{n} rulesets given: a comparison has 2 to {MAX_COMPARED}"),
            format!("2 to {MAX_COMPARED} ruleset ids"),
        ));
    }
    let defs = req
        .rulesets
        .iter()
        .enumerate()
        .map(|(i, id)| catalogue::get(id).map_err(|e| RunError::from(e).in_ruleset(i)))
        .collect::<Result<Vec<_>, _>>()?;
    for name in req.params.keys() {
        if !defs
            .iter()
            .any(|d| d.params.iter().any(|p| &p.name == name))
        {
            return Err(RunError::new(
                format!("params.{name}"),
                format!("no ruleset of the comparison has a parameter {name:?}"),
                "a parameter of at least one of the rulesets",
            ));
        }
    }
    defs.iter()
        .enumerate()
        .map(|(i, def)| {
            let params = req
                .params
                .iter()
                .filter(|(k, _)| def.params.iter().any(|p| &p.name == *k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let run = RunRequest {
                ruleset: def.id.clone(),
                params,
                agents: req.agents.clone(),
                games: req.games,
                seed: req.seed,
                turn_limit: req.turn_limit,
                swap_seats: req.swap_seats,
                reference: req.reference,
            };
            plan(&run, max_games).map_err(|e| e.in_ruleset(i))
        })
        .collect()
}

/// Checks a comparison of variants: one run per variant, each with its own parameters.
fn plan_variants(req: &ComparisonRequest, max_games: u64) -> Result<Vec<RunPlan>, RunError> {
    let n = req.variants.len();
    if !(2..=MAX_COMPARED).contains(&n) {
        return Err(RunError::new(
            "variants",
            format!("{n} variants given: a comparison has 2 to {MAX_COMPARED}"),
            format!("2 to {MAX_COMPARED} variants"),
        ));
    }
    req.variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let run = RunRequest {
                ruleset: v.ruleset.clone(),
                params: v.params.clone(),
                agents: req.agents.clone(),
                games: req.games,
                seed: req.seed,
                turn_limit: req.turn_limit,
                swap_seats: req.swap_seats,
                reference: req.reference,
            };
            plan(&run, max_games).map_err(|e| e.within(&format!("variants[{i}]")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: Value) -> Result<RunPlan, RunError> {
        plan(&serde_json::from_value(body).unwrap(), 1000)
    }

    #[test]
    fn seeds_and_counts_are_read_as_the_schema_states_them() {
        let read = |v: Value| {
            serde_json::from_value::<RunRequest>(
                serde_json::json!({"ruleset": "tsoro-ludii", "games": 1, "seed": v}),
            )
            .map(|r| r.seed)
            .ok()
        };
        let max = u64::MAX;
        assert_eq!(read(serde_json::json!("18446744073709551615")), Some(max));
        assert_eq!(read(serde_json::json!("007")), Some(7));
        assert_eq!(read(serde_json::json!(7)), Some(7));
        assert_eq!(
            read(serde_json::json!(7.0)),
            Some(7),
            "JSON Schema's integer"
        );
        for bad in [
            serde_json::json!("18446744073709551616"),
            serde_json::json!(" 7"),
            serde_json::json!("+7"),
            serde_json::json!(""),
            serde_json::json!(7.5),
            serde_json::json!(-1),
            serde_json::json!(18446744073709551616.0),
        ] {
            assert_eq!(read(bad.clone()), None, "{bad}");
        }
        let games = |v: Value| {
            serde_json::from_value::<RunRequest>(
                serde_json::json!({"ruleset": "tsoro-ludii", "games": v, "turn_limit": 8.0}),
            )
            .map(|r| (r.games, r.turn_limit))
            .ok()
        };
        assert_eq!(games(serde_json::json!(1232.0)), Some((1232, Some(8))));
        assert_eq!(games(serde_json::json!(12.5)), None);
    }

    #[test]
    fn seeds_are_numbers_or_decimal_strings() {
        let seed = |v: Value| {
            serde_json::from_value::<RunRequest>(
                serde_json::json!({"ruleset": "tsoro-ludii", "games": 1, "seed": v}),
            )
            .map(|r| r.seed)
        };
        assert_eq!(seed(serde_json::json!(7)).unwrap(), 7);
        assert_eq!(
            seed(serde_json::json!("18446744073709551615")).unwrap(),
            u64::MAX
        );
        assert!(seed(serde_json::json!("-1")).is_err());
        assert!(seed(serde_json::json!(-1)).is_err());
    }

    #[test]
    fn a_good_request_plans_a_run_with_every_parameter_in_force() {
        let p = run(
            serde_json::json!({"ruleset": "tsoro-ludii", "games": 10, "seed": 3,
            "agents": ["random", " greedy"], "turn_limit": 300}),
        )
        .unwrap();
        assert_eq!(p.agent_names(), ["random", "greedy"]);
        assert_eq!(p.params["turn_limit"], 300);
        assert!(p.params.contains_key("holes"));
        assert_eq!(p.sim_spec().games, 0..10);
        assert_eq!(p.hash.len(), 64);
    }

    #[test]
    fn each_fault_names_its_field() {
        for (body, field) in [
            (
                serde_json::json!({"ruleset": "nope", "games": 1}),
                "ruleset",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-ludii", "params": {"holes": 99}, "games": 1}),
                "params.holes",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-ludii", "agents": "wizard", "games": 1}),
                "agents",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-ludii", "agents": "a,b,c", "games": 1}),
                "agents",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-ludii", "games": 1001}),
                "games",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-ludii", "games": 1, "turn_limit": 0}),
                "turn_limit",
            ),
            (
                serde_json::json!({"ruleset": "nhodo-matthews", "games": 1}),
                "ruleset",
            ),
        ] {
            let e = run(body.clone()).unwrap_err();
            assert_eq!(e.field, field, "{body}: {e}");
            assert!(!e.detail.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn a_comparison_applies_parameters_where_they_belong() {
        let req = |params: Value, rulesets: &[&str]| -> ComparisonRequest {
            serde_json::from_value(serde_json::json!({
                "rulesets": rulesets, "params": params, "games": 10
            }))
            .unwrap()
        };
        let plans = plan_comparison(
            &req(
                serde_json::json!({"holes": 10}),
                &["tsoro-ludii", "tsoro-ludii-additional-capture"],
            ),
            1000,
        )
        .unwrap();
        assert!(plans.iter().all(|p| p.params["holes"] == 10));
        let e = plan_comparison(
            &req(
                serde_json::json!({"colour": 1}),
                &["tsoro-ludii", "tsoro-ludii-additional-capture"],
            ),
            1000,
        )
        .unwrap_err();
        assert_eq!(e.field, "params.colour");
        let e = plan_comparison(&req(serde_json::json!({}), &["tsoro-ludii", "nope"]), 1000)
            .unwrap_err();
        assert_eq!(e.field, "rulesets[1]");
        let e = plan_comparison(
            &req(
                serde_json::json!({"holes": 99}),
                &["tsoro-ludii", "tsoro-ludii"],
            ),
            1000,
        )
        .unwrap_err();
        assert_eq!(e.field, "rulesets[0].params.holes");
        let e = plan_comparison(&req(serde_json::json!({}), &["tsoro-ludii"]), 1000).unwrap_err();
        assert_eq!(e.field, "rulesets");
    }

    #[test]
    fn a_comparison_of_variants_gives_each_its_own_parameters() {
        let req = |body: Value| -> ComparisonRequest { serde_json::from_value(body).unwrap() };
        let plans = plan_comparison(
            &req(serde_json::json!({"games": 10, "variants": [
                {"ruleset": "tsoro-matthews-basic"},
                {"ruleset": "tsoro-matthews-basic", "params": {"back_capture": "require_both"}},
            ]})),
            1000,
        )
        .unwrap();
        assert_eq!(plans.len(), 2);
        assert_eq!(plans[0].params["back_capture"], "with_front");
        assert_eq!(plans[1].params["back_capture"], "require_both");
        assert_ne!(plans[0].hash, plans[1].hash);
        for (body, field) in [
            (
                serde_json::json!({"games": 10, "variants": [{"ruleset": "tsoro-ludii"},
                    {"ruleset": "tsoro-ludii", "params": {"holes": 99}}]}),
                "variants[1].params.holes",
            ),
            (
                serde_json::json!({"games": 10, "variants": [{"ruleset": "nope"},
                    {"ruleset": "tsoro-ludii"}]}),
                "variants[0].ruleset",
            ),
            (
                serde_json::json!({"games": 10, "variants": [{"ruleset": "tsoro-ludii"}]}),
                "variants",
            ),
            (
                serde_json::json!({"games": 10, "rulesets": ["tsoro-ludii", "tsoro-ludii"],
                    "variants": [{"ruleset": "tsoro-ludii"}, {"ruleset": "tsoro-ludii"}]}),
                "rulesets",
            ),
        ] {
            let e = plan_comparison(&req(body.clone()), 1000).unwrap_err();
            assert_eq!(e.field, field, "{body}: {e}");
        }
    }
}
