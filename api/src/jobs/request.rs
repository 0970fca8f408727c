//! What a client asks for, checked by the one validation of a run ([`crate::runs::plan`]) and
//! priced by the cost model ([`crate::runs::cost`]): every fault named with its field; a
//! checked run becomes a job.

use crate::runs::cost::{self, OverBudget};
use crate::runs::plan::{self, ComparisonRequest, RunError, RunPlan, RunRequest};
use crate::runs::readings::{self, ReadingsRequest, StudyPlan};
use crate::settings::JobSettings;
use thiserror::Error;

/// A checked job, ready to store: the run and how it is cut into chunks (it reads as its
/// run: `spec.games`, `spec.def`).
#[derive(Clone, Debug)]
pub struct JobSpec {
    /// The checked run.
    pub plan: RunPlan,
    /// Games per chunk.
    pub chunk_games: u64,
    /// Its estimated cost, in core-seconds (what it counts against its owner's quota).
    pub cost: f64,
}

impl std::ops::Deref for JobSpec {
    type Target = RunPlan;
    fn deref(&self) -> &RunPlan {
        &self.plan
    }
}

/// Why a request cannot become a job.
#[derive(Debug, Error)]
pub enum JobRequestError {
    /// The run is not one the service can play (the field at fault named).
    #[error(transparent)]
    Run(#[from] RunError),
    /// The run would cost more than a job may (of the comparison's run on `rulesets[i]`, when
    /// `ruleset` is `Some(i)`).
    #[error("{over}")]
    OverBudget {
        /// The estimate and the bound.
        over: OverBudget,
        /// The run's place in a comparison.
        ruleset: Option<usize>,
    },
    /// Sampling the ruleset's games to price the run failed (a fault of the service's).
    #[error("pricing the run: {0}")]
    Pricing(String),
}

/// A run within the cost budget as a job, cut into chunks of about `--chunk-seconds` of play
/// each by the same estimate.
fn job(
    plan: RunPlan,
    limits: &JobSettings,
    ruleset: Option<usize>,
) -> Result<JobSpec, JobRequestError> {
    let price = cost::price(&plan).map_err(JobRequestError::Pricing)?;
    cost::check(&plan, price, limits)
        .map_err(|over| JobRequestError::OverBudget { over, ruleset })?;
    let chunk_games = cost::chunk_games(price.per_game, limits);
    let cost = plan.games as f64 * price.per_game;
    Ok(JobSpec {
        plan,
        chunk_games,
        cost,
    })
}

/// Checks a simulation request against the catalogue, the service's limits and its cost
/// budget.
pub fn check(req: &RunRequest, limits: &JobSettings) -> Result<JobSpec, JobRequestError> {
    let plan = plan::plan(req, limits.max_games)?;
    job(plan, limits, None)
}

/// Checks a comparison request: one job per ruleset, on the same seeds, each within the
/// budget.
pub fn check_comparison(
    req: &ComparisonRequest,
    limits: &JobSettings,
) -> Result<Vec<JobSpec>, JobRequestError> {
    let plans = plan::plan_comparison(req, limits.max_games)?;
    plans
        .into_iter()
        .enumerate()
        .map(|(i, plan)| job(plan, limits, Some(i)))
        .collect()
}

/// Checks a readings study: one job per (pairing, reading), on the same seeds, each within
/// the budget.
pub fn check_study(
    req: &ReadingsRequest,
    limits: &JobSettings,
) -> Result<(StudyPlan, Vec<JobSpec>), JobRequestError> {
    let study = readings::plan_study(req, limits.max_games)?;
    let specs = study
        .runs
        .iter()
        .map(|plan| job(plan.clone(), limits, None))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((study, specs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chunk(body: serde_json::Value, limits: &JobSettings) -> u64 {
        check(&serde_json::from_value(body).unwrap(), limits)
            .unwrap()
            .chunk_games
    }

    #[test]
    fn chunks_hold_about_the_same_play_whatever_the_agents() {
        let limits = JobSettings::default();
        let random =
            json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 10_000_000});
        // Random games on the kernel: hundreds of thousands to a chunk, so that claiming and
        // storing it are a small part of its time.
        let many = chunk(random.clone(), &limits);
        assert!((100_000..=1_000_000).contains(&many), "{many}");
        // The same games through the reference rules cost more, so a chunk holds fewer.
        let mut reference = random.clone();
        reference["reference"] = json!(true);
        let fewer = chunk(reference, &limits);
        assert!(fewer < many / 3, "{fewer} against {many}");
        // Searching agents: a chunk holds the fewest games, enough for the threads to share.
        let mcts = json!({"ruleset": "tsoro-ludii", "agents": "mcts:2000,random", "games": 100});
        assert_eq!(chunk(mcts, &limits), cost::MIN_CHUNK_GAMES);
        // --chunk-games bounds it.
        let small = JobSettings {
            chunk_games: 500,
            ..JobSettings::default()
        };
        assert_eq!(chunk(random, &small), 500);
        let tiny = JobSettings {
            chunk_games: 3,
            ..JobSettings::default()
        };
        let alphabeta =
            json!({"ruleset": "tsoro-ludii", "agents": "alphabeta:3,random", "games": 10});
        assert_eq!(chunk(alphabeta, &tiny), 3);
        // Twice the target, about twice the games.
        let long = JobSettings {
            chunk_seconds: 2.0 * limits.chunk_seconds,
            chunk_games: u64::MAX,
            ..JobSettings::default()
        };
        let random =
            json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 10_000_000});
        let double = chunk(random, &long);
        assert!(double.abs_diff(2 * many) <= 2, "{double} against {many}");
    }
}
