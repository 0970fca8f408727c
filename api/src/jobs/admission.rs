//! Admitting new jobs: inside the transaction that will insert them, under the admission lock
//! ([`store::lock_admission`]), within the service's `--max-jobs` and the account's quotas
//! ([`super::quota`]), so that concurrent requests cannot overshoot either.

use super::quota::{self, Account, OverQuota};
use super::store;
use crate::settings::JobSettings;
use thiserror::Error;

/// Why new jobs are not admitted.
#[derive(Debug, Error)]
pub enum AdmissionError {
    /// The account is over one of its quotas.
    #[error(transparent)]
    Quota(#[from] OverQuota),
    /// The service has as many jobs queued or running as it takes (`--max-jobs`).
    #[error("{active} jobs are queued or running (at most {max}); try again when one is done")]
    TooManyJobs {
        /// Jobs queued or running now.
        active: i64,
        /// The bound.
        max: i64,
    },
    /// The database failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Admits `new` jobs of `account` estimated at `cost` core-seconds in all, inside the
/// transaction that will insert them (holding the admission lock until it ends); returns how
/// many jobs were queued or running before them (their place in the queue).
pub async fn admit(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    limits: &JobSettings,
    account: &Account,
    new: i64,
    cost: f64,
) -> Result<i64, AdmissionError> {
    let active = store::lock_admission(tx).await?;
    let now = store::outstanding(tx, account).await?;
    quota::check(account, now, new, cost, limits)?;
    if active + new > limits.max_active_jobs {
        return Err(AdmissionError::TooManyJobs {
            active,
            max: limits.max_active_jobs,
        });
    }
    Ok(active)
}
