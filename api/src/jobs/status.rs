//! Where a job is in its life: one enum for the store, the views and the OpenAPI document.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A job's status: `queued` until a worker takes its first chunk, `running` until its last is
/// stored, then `done`; or `failed` (its `error` says why) or `cancelled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    /// Waiting for a worker.
    Queued,
    /// Being played.
    Running,
    /// Every game played and stored; the statistics and exports are ready.
    Done,
    /// Stopped by an error.
    Failed,
    /// Stopped on request.
    Cancelled,
}

/// A status name that is none of [`JobStatus`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a job status (queued, running, done, failed or cancelled)")]
pub struct UnknownStatus(pub String);

impl JobStatus {
    /// Every status, in the order of a job's life.
    pub const ALL: [JobStatus; 5] = [
        JobStatus::Queued,
        JobStatus::Running,
        JobStatus::Done,
        JobStatus::Failed,
        JobStatus::Cancelled,
    ];

    /// Its name, as stored and as JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Done => "done",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the job has ended (done, failed or cancelled).
    pub fn is_ended(self) -> bool {
        matches!(
            self,
            JobStatus::Done | JobStatus::Failed | JobStatus::Cancelled
        )
    }
}

impl std::fmt::Display for JobStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for JobStatus {
    type Err = UnknownStatus;
    fn from_str(s: &str) -> Result<JobStatus, UnknownStatus> {
        JobStatus::ALL
            .into_iter()
            .find(|j| j.as_str() == s)
            .ok_or_else(|| UnknownStatus(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_match_json() {
        for s in JobStatus::ALL {
            assert_eq!(s.as_str().parse::<JobStatus>(), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert!("Done".parse::<JobStatus>().is_err());
    }
}
