//! A tournament as a client asks for one (`POST /api/v1/tournaments`), checked into a
//! [`TournamentPlan`] by the same validation as a run's ([`super::plan`]) and priced by the
//! same cost model ([`super::cost`]); and the command line that plays the same tournament.

use super::cost;
use super::plan::{self, Agents, RunError, RunPlan, RunRequest, deserialize_seed, deserialize_u64};
use crate::settings::JobSettings;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::tournament::ladder::{self, LadderError};
use tsoro_engine::tournament::{
    MAX_AGENTS, MAX_OPENING_PLIES, MAX_PAIRS, TournamentError, TournamentSpec,
};
use utoipa::ToSchema;

/// A round robin on one ruleset (`POST /api/v1/tournaments`, `tsoro tournament`): every pair
/// of agents plays `pairs` seat-swapped pairs of games, and every agent plays itself.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"ruleset": "tsoro-ludii", "params": {"holes": 8},
    "agents": ["random", "greedy", "mcts:100"], "pairs": 20, "seed": "1", "opening_plies": 2}))]
#[serde(deny_unknown_fields)]
pub struct TournamentRequest {
    /// The ruleset id.
    pub ruleset: String,
    /// Parameter values by name (others at their defaults).
    #[serde(default)]
    #[schema(value_type = HashMap<String, Value>)]
    pub params: Params,
    /// The agents, as a list or comma-separated ([`MAX_AGENTS`] at most).
    #[schema(schema_with = tournament_agents_schema)]
    pub agents: Agents,
    /// Seat-swapped pairs of games per pairing (1 to 100000): each pair plays from one opening,
    /// once with each agent first.
    #[serde(deserialize_with = "deserialize_u64")]
    #[schema(minimum = 1, maximum = 100000)]
    pub pairs: u64,
    /// The tournament's seed: pair k of pairing p depends only on (seed, p, k).
    #[serde(default, deserialize_with = "deserialize_seed")]
    #[schema(value_type = plan::Seed)]
    pub seed: u64,
    /// Uniformly random plies before the agents take over (0 to 64; the same for both games of
    /// a pair).
    #[serde(default, deserialize_with = "plan::deserialize_u32")]
    #[schema(minimum = 0, maximum = 64)]
    pub opening_plies: u32,
}

/// A ladder (`POST /api/v1/ladders`, `tsoro ladder`): one family of agents at rising strength
/// on one ruleset, each level playing itself (the first player's advantage at that strength)
/// and the level above (the skill trace), `pairs` seat-swapped pairs of games each. It is a
/// tournament whose agents and pairings the ladder defines.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"ruleset": "tsoro-ludii", "family": "mcts", "from": 16, "to": 128,
    "pairs": 20, "seed": "1", "opening_plies": 2}))]
#[serde(deny_unknown_fields)]
pub struct LadderRequest {
    /// The ruleset id.
    #[schema(schema_with = plan::ruleset_schema)]
    pub ruleset: String,
    /// Parameter values by name (others at their defaults).
    #[serde(default)]
    #[schema(schema_with = plan::params_schema)]
    pub params: Params,
    /// The family: `mcts` (iterations doubling from `from` to `to`) or `alphabeta` (depth one
    /// more at each level, from `from` to `to`).
    #[serde(default = "default_family")]
    #[schema(schema_with = family_schema)]
    pub family: String,
    /// The lowest level: MCTS iterations (1 to 1000000) or an alpha-beta depth (1 to 8).
    #[serde(deserialize_with = "plan::deserialize_u32")]
    #[schema(minimum = 1, maximum = 1000000)]
    pub from: u32,
    /// The highest level: for `mcts`, `from` times a power of two (at most 1000000); for
    /// `alphabeta`, a depth above `from` (at most 8).
    #[serde(deserialize_with = "plan::deserialize_u32")]
    #[schema(minimum = 1, maximum = 1000000)]
    pub to: u32,
    /// Seat-swapped pairs of games per pairing (1 to 100000).
    #[serde(deserialize_with = "deserialize_u64")]
    #[schema(minimum = 1, maximum = 100000)]
    pub pairs: u64,
    /// The ladder's seed: pair k of pairing p depends only on (seed, p, k).
    #[serde(default, deserialize_with = "deserialize_seed")]
    #[schema(value_type = plan::Seed)]
    pub seed: u64,
    /// Uniformly random plies before the agents take over (0 to 64; the same for both games of
    /// a pair).
    #[serde(default, deserialize_with = "plan::deserialize_u32")]
    #[schema(minimum = 0, maximum = 64)]
    pub opening_plies: u32,
}

/// The schema of a tournament's agents: 1 to [`MAX_AGENTS`] of them.
fn tournament_agents_schema() -> utoipa::openapi::schema::Schema {
    plan::agents_schema(MAX_AGENTS)
}

/// The family a ladder climbs when none is named (as `tsoro ladder`'s `--family`).
fn default_family() -> String {
    ladder::DEFAULT_FAMILY.to_string()
}

/// The schema of a ladder's family: one of [`ladder::FAMILIES`].
fn family_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(ladder::FAMILIES))
        .default(Some(Value::from(ladder::DEFAULT_FAMILY)))
        .build()
}

/// A ladder's preset, as stored with its tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Ladder {
    /// The family: `mcts` or `alphabeta`.
    pub family: String,
    /// The lowest level (iterations or depth).
    pub from: u32,
    /// The highest level.
    pub to: u32,
}

/// A checked tournament, ready to store as a job.
#[derive(Clone, Debug)]
pub struct TournamentPlan {
    /// The ruleset, its parameters and configuration, as a run's (its agents and seat swaps
    /// are not the tournament's: see `spec`).
    pub run: RunPlan,
    /// What is played.
    pub spec: TournamentSpec,
    /// The ladder that defines it, if it is one.
    pub ladder: Option<Ladder>,
}

/// Why a tournament cannot become a job.
#[derive(Debug, Error)]
pub enum TournamentRequestError {
    /// A field at fault.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Estimated over the cost budget.
    #[error("{0}")]
    OverBudget(TournamentOverBudget),
    /// Sampling the ruleset's games to price it failed (a fault of the service's).
    #[error("pricing the tournament: {0}")]
    Pricing(String),
}

/// A tournament estimated to cost more core-seconds than the service allows one job.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "this tournament is estimated at {}{:.0} core-seconds ({} games, each pairing's priced \
     from its agents' decisions timed on this ruleset), over the service's budget of {:.0} \
     core-seconds a job (--max-job-cost): ask for at most {} pairs, or weaker agents",
    crate::runs::cost::at_least(*.at_least), .cost, .games, .max_job_cost,
    (.max_job_cost / (.cost / (*.pairs).max(1) as f64)).floor() as u64
)]
pub struct TournamentOverBudget {
    /// The estimate, in core-seconds.
    pub cost: f64,
    /// The estimate is a lower bound (a timed search ran out of its sample's time).
    pub at_least: bool,
    /// Its games.
    pub games: u64,
    /// Its pairs per pairing.
    pub pairs: u64,
    /// The most a job may cost (`--max-job-cost`).
    pub max_job_cost: f64,
}

/// A tournament's fault as the request's field.
fn field_of(e: &TournamentError) -> RunError {
    let field = match e {
        TournamentError::Agents(_) | TournamentError::Unlinked(_) => "agents",
        TournamentError::Pairs(_) => "pairs",
        TournamentError::OpeningPlies(_) => "opening_plies",
        _ => "agents",
    };
    let allowed = match e {
        TournamentError::Agents(_) => format!("1 to {MAX_AGENTS} agents"),
        TournamentError::Pairs(_) => format!("1..={MAX_PAIRS}"),
        TournamentError::OpeningPlies(_) => format!("0..={MAX_OPENING_PLIES}"),
        other => other.to_string(),
    };
    RunError::new(field, e.to_string(), allowed)
}

/// Checks a tournament against the catalogue and `max_games` (the most games one job may
/// have).
pub fn plan(req: &TournamentRequest, max_games: u64) -> Result<TournamentPlan, RunError> {
    let names = req.agents.names();
    let agents = names
        .iter()
        .enumerate()
        .map(|(i, n)| plan::parse_agent(n, &format!("agents[{i}]")))
        .collect::<Result<Vec<AgentSpec>, _>>()?;
    let spec = TournamentSpec::round_robin(agents, req.pairs, req.seed, req.opening_plies);
    plan_spec(&req.ruleset, &req.params, spec, max_games)
}

/// Checks what `spec` plays on `ruleset` with `params` against the catalogue and `max_games`.
fn plan_spec(
    ruleset: &str,
    params: &Params,
    spec: TournamentSpec,
    max_games: u64,
) -> Result<TournamentPlan, RunError> {
    spec.check().map_err(|e| field_of(&e))?;
    let games = spec.games();
    if games > max_games {
        return Err(RunError::new(
            "pairs",
            format!(
                "{games} games ({} pairings of {} pairs, two games each): a job has at most \
                 {max_games}",
                spec.pairings.len(),
                spec.pairs
            ),
            format!(
                "at most {} pairs with these agents",
                max_games / (2 * spec.pairings.len() as u64)
            ),
        ));
    }
    // The ruleset and its parameters, checked as a run's.
    let run = plan::plan(
        &RunRequest {
            ruleset: ruleset.to_string(),
            params: params.clone(),
            agents: Agents::Text("random".into()),
            games,
            seed: spec.seed,
            turn_limit: None,
            swap_seats: true,
            reference: false,
        },
        u64::MAX,
    )?;
    Ok(TournamentPlan {
        run,
        spec,
        ladder: None,
    })
}

/// Checks a ladder against the catalogue and `max_games`: its range as the agents' syntax
/// allows ([`ladder::levels`]), then the tournament it defines ([`ladder::spec`]).
pub fn plan_ladder(req: &LadderRequest, max_games: u64) -> Result<TournamentPlan, RunError> {
    let levels = ladder::levels(&req.family, req.from, req.to).map_err(|e| {
        let (field, allowed) = match &e {
            LadderError::Family(_) => {
                ("family", format!("one of: {}", ladder::FAMILIES.join(", ")))
            }
            LadderError::From(_) => ("from", ladder_range(&req.family)),
            LadderError::To(_) => ("to", ladder_range(&req.family)),
        };
        RunError::new(field, e.to_string(), allowed)
    })?;
    let spec = ladder::spec(levels, req.pairs, req.seed, req.opening_plies);
    let mut p = plan_spec(&req.ruleset, &req.params, spec, max_games)?;
    p.ladder = Some(Ladder {
        family: req.family.clone(),
        from: req.from,
        to: req.to,
    });
    Ok(p)
}

/// What a ladder's range may be, for faults.
fn ladder_range(family: &str) -> String {
    match family {
        "alphabeta" => format!("depths from 1 to {}, `to` above `from`", ladder::MAX_DEPTH),
        _ => format!(
            "iterations from 1 to {}, `to` being `from` times 2, 4, 8, ...",
            ladder::MAX_MCTS
        ),
    }
}

/// Core-seconds the tournament's games are estimated to take: each pairing's games priced
/// as the cost model prices a game between its two agents ([`cost::game_price`]). Plays and
/// times games: call it off the async executor.
pub fn estimate(p: &TournamentPlan) -> Result<cost::Price, String> {
    let mut total = cost::Price {
        per_game: 0.0,
        at_least: false,
    };
    for &[a, b] in &p.spec.pairings {
        let agents = [p.spec.agents[a], p.spec.agents[b]];
        let price = cost::game_price(&p.run.hash, &p.run.game, &agents, false)?;
        total.per_game += 2.0 * p.spec.pairs as f64 * price.per_game;
        total.at_least |= price.at_least;
    }
    Ok(total)
}

/// A checked tournament within the cost budget, the games a chunk of it holds, and its
/// estimated cost in core-seconds.
pub fn check(
    req: &TournamentRequest,
    limits: &JobSettings,
) -> Result<(TournamentPlan, u64, f64), TournamentRequestError> {
    within_budget(plan(req, limits.max_games)?, limits)
}

/// A checked ladder within the cost budget, as [`check`].
pub fn check_ladder(
    req: &LadderRequest,
    limits: &JobSettings,
) -> Result<(TournamentPlan, u64, f64), TournamentRequestError> {
    within_budget(plan_ladder(req, limits.max_games)?, limits)
}

/// A checked tournament priced and refused over the budget.
fn within_budget(
    p: TournamentPlan,
    limits: &JobSettings,
) -> Result<(TournamentPlan, u64, f64), TournamentRequestError> {
    let total = estimate(&p).map_err(TournamentRequestError::Pricing)?;
    let games = p.spec.games();
    if total.per_game > limits.max_job_cost {
        return Err(TournamentRequestError::OverBudget(TournamentOverBudget {
            cost: total.per_game,
            at_least: total.at_least,
            games,
            pairs: p.spec.pairs,
            max_job_cost: limits.max_job_cost,
        }));
    }
    let chunk = cost::chunk_games(total.per_game / games.max(1) as f64, limits);
    Ok((p, chunk, total.per_game))
}

/// Quotes a word for a POSIX shell if it needs it.
pub fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.,:=/".contains(&b))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The command line that plays the same tournament (`tsoro tournament`), or the same ladder
/// (`tsoro ladder`) if `ladder` is given; `params` are the parameters in force, by name (those
/// at their defaults are left out).
pub fn command(
    ruleset: &str,
    params: &Value,
    agents: &[String],
    ladder: Option<&Ladder>,
    pairs: u64,
    seed: u64,
    opening_plies: u32,
) -> String {
    let mut words = vec![
        "tsoro".to_string(),
        if ladder.is_some() {
            "ladder"
        } else {
            "tournament"
        }
        .into(),
        "--ruleset".into(),
        shell_word(ruleset),
    ];
    // Parameters at their defaults go without saying.
    let defaults = catalogue::get(ruleset)
        .map(|d| d.effective_params(&Params::new()))
        .unwrap_or_default();
    if let Some(map) = params.as_object() {
        for (k, v) in map.iter().filter(|(k, v)| defaults.get(*k) != Some(*v)) {
            let v = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            words.push("--param".into());
            words.push(shell_word(&format!("{k}={v}")));
        }
    }
    match ladder {
        Some(l) => words.extend([
            "--family".into(),
            shell_word(&l.family),
            "--from".into(),
            l.from.to_string(),
            "--to".into(),
            l.to.to_string(),
        ]),
        None => words.extend(["--agents".into(), shell_word(&agents.join(","))]),
    }
    words.extend([
        "--pairs".into(),
        pairs.to_string(),
        "--seed".into(),
        seed.to_string(),
        "--opening-plies".into(),
        opening_plies.to_string(),
    ]);
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(v: Value) -> TournamentRequest {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn each_fault_names_its_field() {
        for (body, field) in [
            (
                json!({"ruleset": "tsoro-ludii", "agents": "random,wizard", "pairs": 1}),
                "agents[1]",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "agents": "random,mcts:1s", "pairs": 1}),
                "agents[1]",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "agents": "random", "pairs": 0}),
                "pairs",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "agents": "random", "pairs": 1, "opening_plies": 65}),
                "opening_plies",
            ),
            (
                json!({"ruleset": "nope", "agents": "random", "pairs": 1}),
                "ruleset",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "params": {"holes": 99}, "agents": "random", "pairs": 1}),
                "params.holes",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "pairs": 400}),
                "pairs",
            ),
        ] {
            let e = plan(&req(body.clone()), 1000).unwrap_err();
            assert_eq!(e.field, field, "{body}: {e}");
        }
    }

    #[test]
    fn a_ladder_is_the_tournament_of_its_levels_and_each_bad_range_names_its_field() {
        let l = |v: Value| serde_json::from_value::<LadderRequest>(v).unwrap();
        let p = plan_ladder(
            &l(json!({"ruleset": "tsoro-ludii", "from": 16, "to": 64, "pairs": 2, "seed": 3})),
            1000,
        )
        .unwrap();
        assert_eq!(
            p.spec,
            ladder::spec(ladder::levels("mcts", 16, 64).unwrap(), 2, 3, 0)
        );
        assert_eq!(
            p.ladder,
            Some(Ladder {
                family: "mcts".into(),
                from: 16,
                to: 64
            })
        );
        for (body, field) in [
            (
                json!({"ruleset": "tsoro-ludii", "from": 16, "to": 100, "pairs": 1}),
                "to",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "from": 0, "to": 16, "pairs": 1}),
                "from",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "family": "alphabeta", "from": 1, "to": 9, "pairs": 1}),
                "to",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "family": "chess", "from": 1, "to": 2, "pairs": 1}),
                "family",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "from": 1, "to": 2, "pairs": 0}),
                "pairs",
            ),
            (
                json!({"ruleset": "nope", "from": 1, "to": 2, "pairs": 1}),
                "ruleset",
            ),
            (
                json!({"ruleset": "tsoro-ludii", "from": 1, "to": 1024, "pairs": 100}),
                "pairs",
            ),
        ] {
            let e = plan_ladder(&l(body.clone()), 1000).unwrap_err();
            assert_eq!(e.field, field, "{body}: {e}");
        }
        let c = command("tsoro-ludii", &json!({}), &[], p.ladder.as_ref(), 2, 3, 0);
        assert_eq!(
            c,
            "tsoro ladder --ruleset tsoro-ludii --family mcts --from 16 --to 64 --pairs 2 \
             --seed 3 --opening-plies 0"
        );
    }

    #[test]
    fn a_tournament_is_priced_pairing_by_pairing_and_refused_over_the_budget() {
        let limits = JobSettings::default();
        let weak = json!({"ruleset": "tsoro-ludii", "agents": ["random", "greedy"], "pairs": 10});
        let (p, chunk, _) = check(&req(weak), &limits).unwrap();
        assert_eq!(p.spec.games(), 60);
        assert!(chunk >= 1);
        // The sum of its pairings' games, each priced as a run of its two agents is.
        let mut sum = 0.0;
        for &[a, b] in &p.spec.pairings {
            let agents = [p.spec.agents[a], p.spec.agents[b]];
            let price = cost::game_price(&p.run.hash, &p.run.game, &agents, false).unwrap();
            sum += 20.0 * price.per_game;
        }
        assert_eq!(estimate(&p).unwrap().per_game, sum);
        let dear = json!({"ruleset": "tsoro-ludii", "agents": ["mcts:1000000", "alphabeta:8"],
            "pairs": 50000});
        match check(&req(dear), &limits) {
            Err(TournamentRequestError::OverBudget(o)) => {
                assert!(o.cost > limits.max_job_cost);
                assert!(o.to_string().contains("--max-job-cost"), "{o}");
            }
            other => panic!("{:?}", other.map(|x| x.1)),
        }
    }

    #[test]
    fn the_command_names_every_input() {
        // Every parameter in force, all at their defaults but one.
        let mut params = catalogue::get("tsoro-ludii")
            .unwrap()
            .effective_params(&Params::new());
        params.insert("holes".into(), json!(10));
        let c = command(
            "tsoro-ludii",
            &serde_json::to_value(&params).unwrap(),
            &["random".into(), "mcts:100".into()],
            None,
            20,
            7,
            2,
        );
        assert_eq!(
            c,
            "tsoro tournament --ruleset tsoro-ludii --param holes=10 \
             --agents random,mcts:100 --pairs 20 --seed 7 --opening-plies 2"
        );
    }
}
