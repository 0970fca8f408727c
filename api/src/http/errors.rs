//! The domain's errors as problems: each domain error type maps to problem+json here, once,
//! naming the field at fault.

use super::problem::Problem;
use crate::archive::ArchiveError;
use crate::jobs::admission::AdmissionError;
use crate::jobs::export::{EXPORT_RETRY_SECS, ExportError};
use crate::jobs::game::JobGameError;
use crate::jobs::request::JobRequestError;
use crate::play::{MoveError, PlayRequestError};
use crate::runs::nhodo::NhodoRequestError;
use crate::runs::plan::RunError;
use crate::runs::tournament::TournamentRequestError;
use serde_json::json;
use tsoro_engine::catalogue::ParamError;
use tsoro_engine::replay::ReplayError;

impl From<JobGameError> for Problem {
    fn from(e: JobGameError) -> Problem {
        let m = e.to_string();
        match e {
            // A game the job does not have is a resource that does not exist.
            JobGameError::NoSuchGame { .. } => Problem::not_found(m.clone()).with_error("game", m),
            JobGameError::TooStrong(..) => Problem::unprocessable(m.clone()).with_error("game", m),
            JobGameError::Stored(_) => Problem::internal(m),
        }
    }
}

impl From<ParamError> for Problem {
    fn from(e: ParamError) -> Problem {
        let detail = e.to_string();
        match e {
            ParamError::UnknownRuleset { .. } => Problem::not_found(detail),
            ParamError::OutOfRange { name, allowed, .. } => Problem::unprocessable(detail)
                .with_error(format!("params.{name}"), format!("allowed: {allowed}")),
            ParamError::UnknownParam { name, known, .. } => Problem::unprocessable(detail)
                .with_error(
                    format!("params.{name}"),
                    format!("parameters: {}", known.join(", ")),
                ),
            _ => Problem::unprocessable(detail),
        }
    }
}

impl From<ReplayError> for Problem {
    fn from(e: ReplayError) -> Problem {
        let detail = e.to_string();
        match e {
            ReplayError::Params(p) => p.into(),
            ReplayError::BadAction { index, message } => {
                Problem::unprocessable(detail).with_error(format!("actions[{index}]"), message)
            }
            ReplayError::Illegal { index, legal, .. } => {
                let mut p = Problem::unprocessable(detail)
                    .with_error(format!("actions[{index}]"), "not legal at this point");
                p.extra.insert("index".into(), json!(index));
                p.extra.insert("legal".into(), json!(legal));
                p
            }
        }
    }
}

impl From<MoveError> for Problem {
    fn from(e: MoveError) -> Problem {
        let detail = e.to_string();
        match e {
            MoveError::Params(p) => p.into(),
            MoveError::BadAction { index, message } => {
                Problem::unprocessable(detail).with_error(format!("actions[{index}]"), message)
            }
            MoveError::Illegal { index } => Problem::unprocessable(detail)
                .with_error(format!("actions[{index}]"), "not legal at this point"),
            MoveError::Over(_) => Problem::unprocessable(detail)
                .with_error("actions", "the game is over: there is no move to choose"),
        }
    }
}

impl From<PlayRequestError> for Problem {
    fn from(e: PlayRequestError) -> Problem {
        use crate::play::{AGENTS, MAX_ACTIONS, MAX_REPLAY_BYTES};
        let detail = e.to_string();
        match e {
            PlayRequestError::TooManyActions { .. } => Problem::unprocessable(detail)
                .with_error("actions", format!("at most {MAX_ACTIONS}")),
            PlayRequestError::TooManyStates { most, .. } => Problem::unprocessable(detail)
                .with_error(
                    "actions",
                    format!("at most {most} for this game ({MAX_REPLAY_BYTES} bytes of states)"),
                ),
            PlayRequestError::UnknownAgent(_) | PlayRequestError::TooStrong(_) => {
                Problem::unprocessable(detail)
                    .with_error("agent", format!("one of: {}", AGENTS.describe()))
            }
        }
    }
}

impl From<ArchiveError> for Problem {
    fn from(e: ArchiveError) -> Problem {
        match e {
            ArchiveError::Database(e) => e.into(),
            ArchiveError::Stored(_) => Problem::internal(e),
        }
    }
}

impl From<RunError> for Problem {
    fn from(e: RunError) -> Problem {
        Problem::unprocessable(e.detail).with_error(e.field, e.message)
    }
}

impl From<JobRequestError> for Problem {
    fn from(e: JobRequestError) -> Problem {
        match e {
            JobRequestError::Run(e) => e.into(),
            JobRequestError::OverBudget { over, ruleset } => {
                let field = match ruleset {
                    Some(i) => format!("rulesets[{i}].games"),
                    None => "games".to_string(),
                };
                let mut p = Problem::of(&super::problem::OVER_BUDGET, over.to_string()).with_error(
                    field,
                    format!(
                        "estimated {:.0} core-seconds, over {:.0}",
                        over.cost, over.max_job_cost
                    ),
                );
                p.extra.insert("estimated_cost".into(), over.cost.into());
                p.extra.insert("per_game_cost".into(), over.per_game.into());
                p.extra
                    .insert("max_job_cost".into(), over.max_job_cost.into());
                p
            }
            JobRequestError::Pricing(_) => Problem::internal(e),
        }
    }
}

impl From<TournamentRequestError> for Problem {
    fn from(e: TournamentRequestError) -> Problem {
        match e {
            TournamentRequestError::Run(e) => e.into(),
            TournamentRequestError::OverBudget(over) => {
                let mut p = Problem::of(&super::problem::OVER_BUDGET, over.to_string()).with_error(
                    "pairs",
                    format!(
                        "estimated {:.0} core-seconds, over {:.0}",
                        over.cost, over.max_job_cost
                    ),
                );
                p.extra.insert("estimated_cost".into(), over.cost.into());
                p.extra
                    .insert("max_job_cost".into(), over.max_job_cost.into());
                p
            }
            TournamentRequestError::Pricing(_) => Problem::internal(e),
        }
    }
}

/// Seconds a client refused for too many jobs is told to wait (`Retry-After`).
pub const ADMISSION_RETRY_SECS: u64 = 5;

impl From<AdmissionError> for Problem {
    fn from(e: AdmissionError) -> Problem {
        match e {
            AdmissionError::Quota(e) => e.into(),
            AdmissionError::TooManyJobs { max, .. } => {
                Problem::of(&super::problem::TOO_MANY_JOBS, e.to_string())
                    .with_error("max_jobs", format!("at most {max} at once"))
                    .retry_after(ADMISSION_RETRY_SECS)
            }
            AdmissionError::Database(e) => e.into(),
        }
    }
}

/// Seconds an owner refused for its quota of jobs or work is told to wait (`Retry-After`).
pub const QUOTA_RETRY_SECS: u64 = 10;

impl From<crate::jobs::quota::OverQuota> for Problem {
    fn from(e: crate::jobs::quota::OverQuota) -> Problem {
        use crate::jobs::quota::OverQuota;
        let detail = e.to_string();
        let limit = e.limit().name();
        let f = e.figures();
        let jobs = || format!("at most {} jobs at once", f.max_jobs);
        let cost = || format!("at most {:.0} core-seconds outstanding", f.max_cost);
        let mut p = match &e {
            OverQuota::Bytes(_) => Problem::of(&super::problem::STORAGE_QUOTA, detail)
                .with_error(limit, format!("at most {} bytes stored", f.max_bytes)),
            OverQuota::JobsAlone(_) => Problem::unprocessable(detail).with_error(limit, jobs()),
            OverQuota::CostAlone(_) => Problem::unprocessable(detail).with_error(limit, cost()),
            OverQuota::Jobs(_) => Problem::of(&super::problem::OVER_QUOTA, detail)
                .with_error(limit, jobs())
                .retry_after(QUOTA_RETRY_SECS),
            OverQuota::Cost(_) => Problem::of(&super::problem::OVER_QUOTA, detail)
                .with_error(limit, cost())
                .retry_after(QUOTA_RETRY_SECS),
        };
        let o = f.outstanding;
        for (k, v) in [
            ("limit", json!(limit)),
            ("outstanding_jobs", json!(o.jobs)),
            ("outstanding_cost", json!(o.cost)),
            ("stored_bytes", json!(o.stored_bytes)),
            ("requested_jobs", json!(f.requested_jobs)),
            ("requested_cost", json!(f.requested_cost)),
            ("max_owner_jobs", json!(f.max_jobs)),
            ("max_owner_cost", json!(f.max_cost)),
            ("max_owner_bytes", json!(f.max_bytes)),
        ] {
            p.extra.insert(k.into(), v);
        }
        p
    }
}

impl From<ExportError> for Problem {
    fn from(e: ExportError) -> Problem {
        match e {
            ExportError::Busy { max } => {
                Problem::of(&super::problem::TOO_MANY_EXPORTS, e.to_string())
                    .with_error("max_exports", format!("at most {max} at once"))
                    .retry_after(EXPORT_RETRY_SECS)
            }
            ExportError::ClientBusy { max, .. } => {
                Problem::of(&super::problem::TOO_MANY_CLIENT_EXPORTS, e.to_string())
                    .with_error("max_client_exports", format!("at most {max} at once"))
                    .retry_after(EXPORT_RETRY_SECS)
            }
            ExportError::Database(e) => e.into(),
            ExportError::Render(_) | ExportError::Stalled { .. } => Problem::internal(e),
        }
    }
}

/// Seconds a request refused for want of a CPU slot is told to wait (`Retry-After`).
pub const CPU_RETRY_SECS: u64 = 2;

/// The problem of CPU-bound work not done; `field` is the request's part that made the work
/// (an agent, the actions).
pub fn compute(e: crate::compute::ComputeError, field: &str) -> Problem {
    use crate::compute::ComputeError;
    match e {
        ComputeError::Busy { max } => Problem::of(&super::problem::CPU_BUSY, e.to_string())
            .with_error("max_cpu_requests", format!("at most {max} at once"))
            .retry_after(CPU_RETRY_SECS),
        ComputeError::ClientBusy { max } => {
            Problem::of(&super::problem::CPU_CLIENT_SHARE, e.to_string())
                .with_error(
                    "max_client_cpu_requests",
                    format!("at most {max} at once for one client"),
                )
                .retry_after(CPU_RETRY_SECS)
        }
        ComputeError::OverTime { seconds } => {
            Problem::of(&super::problem::OVER_TIME, e.to_string()).with_error(
                field,
                format!("stopped after {seconds} s (--request-seconds)"),
            )
        }
        ComputeError::Failed(_) => Problem::internal(e),
    }
}

impl From<NhodoRequestError> for Problem {
    fn from(e: NhodoRequestError) -> Problem {
        let detail = e.to_string();
        match e {
            NhodoRequestError::Run(e) => e.into(),
            NhodoRequestError::OverBudget(cost, per_game, max) => {
                let mut p = Problem::of(&super::problem::OVER_BUDGET, detail).with_error(
                    "games",
                    format!("estimated {cost:.0} core-seconds, over {max:.0}"),
                );
                p.extra.insert("estimated_cost".into(), cost.into());
                p.extra.insert("per_game_cost".into(), per_game.into());
                p.extra.insert("max_job_cost".into(), max.into());
                p
            }
        }
    }
}
