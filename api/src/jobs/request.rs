//! What a client asks for, checked by the one validation of a run ([`crate::plan`]): every
//! fault named with its field, as 422 problem+json; a checked run becomes a job.

use super::JobSettings;
use crate::plan::{self, ComparisonRequest, RunError, RunPlan, RunRequest};
use crate::problem::Problem;
use tsoro_engine::agents::AgentSpec;

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

fn job(plan: RunPlan, limits: &JobSettings) -> JobSpec {
    let searching = plan
        .agents
        .iter()
        .any(|a| matches!(a, AgentSpec::AlphaBeta { .. } | AgentSpec::Mcts { .. }));
    let chunk_games = if searching {
        (limits.chunk_games / 200).max(1)
    } else {
        limits.chunk_games.max(1)
    };
    JobSpec { plan, chunk_games }
}

/// Checks a simulation request against the catalogue, the service's limits and its cost
/// budget.
pub fn check(req: &RunRequest, limits: &JobSettings) -> Result<JobSpec, Problem> {
    let plan = plan::plan(req, limits.max_games).map_err(run_problem)?;
    let spec = job(plan, limits);
    super::budget::check(&spec, limits)?;
    Ok(spec)
}

/// Checks a comparison request: one job per ruleset, on the same seeds, each within the
/// budget.
pub fn check_comparison(
    req: &ComparisonRequest,
    limits: &JobSettings,
) -> Result<Vec<JobSpec>, Problem> {
    let plans = plan::plan_comparison(req, limits.max_games).map_err(run_problem)?;
    let specs: Vec<JobSpec> = plans.into_iter().map(|p| job(p, limits)).collect();
    for (i, spec) in specs.iter().enumerate() {
        super::budget::check(spec, limits).map_err(|mut p| {
            for e in &mut p.errors {
                e.field = format!("rulesets[{i}].{}", e.field);
            }
            p
        })?;
    }
    Ok(specs)
}
