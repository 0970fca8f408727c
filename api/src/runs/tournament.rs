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
    /// The agents (1 to 32), as a list or comma-separated: `random`, `greedy`,
    /// `alphabeta:D[:material|mobility]`, `mcts:N[:C]`. Time budgets (`mcts:1s`) are refused:
    /// their games are not reproducible.
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

/// A checked tournament, ready to store as a job.
#[derive(Clone, Debug)]
pub struct TournamentPlan {
    /// The ruleset, its parameters and configuration, as a run's (its agents and seat swaps
    /// are not the tournament's: see `spec`).
    pub run: RunPlan,
    /// What is played.
    pub spec: TournamentSpec,
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
#[derive(Clone, Debug, PartialEq)]
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

impl std::fmt::Display for TournamentOverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let per_pair = self.cost / self.pairs.max(1) as f64;
        write!(
            f,
            "this tournament is estimated at {}{:.0} core-seconds ({} games, each pairing's \
             priced from its agents' decisions timed on this ruleset), over the service's budget \
             of {:.0} core-seconds a job (--max-job-cost): ask for at most {} pairs, or weaker \
             agents",
            if self.at_least { "at least " } else { "" },
            self.cost,
            self.games,
            self.max_job_cost,
            (self.max_job_cost / per_pair).floor() as u64
        )
    }
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
    spec.check().map_err(|e| field_of(&e))?;
    let games = spec.games();
    if games > max_games {
        return Err(RunError::new(
            "pairs",
            format!(
                "{games} games ({} pairings of {} pairs, two games each): a job has at most \
                 {max_games}",
                spec.pairings.len(),
                req.pairs
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
            ruleset: req.ruleset.clone(),
            params: req.params.clone(),
            agents: Agents::Text("random".into()),
            games,
            seed: req.seed,
            turn_limit: None,
            swap_seats: true,
            reference: false,
        },
        u64::MAX,
    )?;
    Ok(TournamentPlan { run, spec })
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
    let p = plan(req, limits.max_games)?;
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
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.,:=/".contains(&b))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The command line that plays the same tournament (`tsoro tournament`); `params` are the
/// parameters in force, by name (those at their defaults are left out).
pub fn command(
    ruleset: &str,
    params: &Value,
    agents: &[String],
    pairs: u64,
    seed: u64,
    opening_plies: u32,
) -> String {
    let mut words = vec![
        "tsoro".to_string(),
        "tournament".into(),
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
    words.extend([
        "--agents".into(),
        shell_word(&agents.join(",")),
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
