//! What a client asks for, checked by the one validation of a run ([`crate::plan`]): every
//! fault named with its field, as 422 problem+json; a checked run becomes a job.

use super::{JobSettings, budget};
use crate::plan::{self, ComparisonRequest, RunError, RunPlan, RunRequest};
use crate::problem::Problem;

/// A checked job, ready to store: the run and how it is cut into chunks (it reads as its
/// run: `spec.games`, `spec.def`).
#[derive(Clone, Debug)]
pub struct JobSpec {
    /// The checked run.
    pub plan: RunPlan,
    /// Games per chunk.
    pub chunk_games: u64,
}

impl std::ops::Deref for JobSpec {
    type Target = RunPlan;
    fn deref(&self) -> &RunPlan {
        &self.plan
    }
}

/// A fault of a run as 422 problem+json naming its field.
pub fn run_problem(e: RunError) -> Problem {
    Problem::unprocessable(e.detail).with_error(e.field, e.message)
}

/// A run within the cost budget as a job, cut into chunks of about `--chunk-seconds` of play
/// each by the same estimate.
fn job(plan: RunPlan, limits: &JobSettings) -> Result<JobSpec, Problem> {
    let shape = budget::shape(&plan).map_err(Problem::internal)?;
    let per_game = budget::game_cost(&plan, shape);
    budget::check(&plan, per_game, limits)?;
    let chunk_games = budget::chunk_games(per_game, limits);
    Ok(JobSpec { plan, chunk_games })
}

/// Checks a simulation request against the catalogue, the service's limits and its cost
/// budget.
pub fn check(req: &RunRequest, limits: &JobSettings) -> Result<JobSpec, Problem> {
    let plan = plan::plan(req, limits.max_games).map_err(run_problem)?;
    job(plan, limits)
}

/// Checks a comparison request: one job per ruleset, on the same seeds, each within the
/// budget.
pub fn check_comparison(
    req: &ComparisonRequest,
    limits: &JobSettings,
) -> Result<Vec<JobSpec>, Problem> {
    let plans = plan::plan_comparison(req, limits.max_games).map_err(run_problem)?;
    plans
        .into_iter()
        .enumerate()
        .map(|(i, plan)| {
            job(plan, limits).map_err(|mut p| {
                for e in &mut p.errors {
                    e.field = format!("rulesets[{i}].{}", e.field);
                }
                p
            })
        })
        .collect()
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
        assert_eq!(chunk(mcts, &limits), budget::MIN_CHUNK_GAMES);
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
