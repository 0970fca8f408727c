//! Quotas per owner: how much one owner may have queued, running and stored at once, so that
//! one client cannot fill the service for everyone else.
//!
//! An owner is a token's holder, or, for a job made without a token, the address of the
//! client that made it ([`Account`]). Per owner, at most `--max-owner-jobs` jobs are queued
//! or running, at most `--max-owner-cost` core-seconds of estimated work are outstanding (each
//! active job's price by the cost model, [`crate::runs::cost`], times the share of its games
//! not yet played; tournaments count as any job), and once its jobs store more than
//! `--max-owner-bytes`, its new jobs are refused until it deletes some. The figures are
//! counted and the job inserted under the admission lock ([`super::store::lock_admission`]),
//! so concurrent requests cannot overshoot them.

use crate::settings::JobSettings;

/// Whose quotas a job counts against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The token's holder (None: made anonymously).
    pub owner: Option<String>,
    /// The client's address ([`crate::http::client`]), the account of an anonymous job.
    pub client: String,
}

impl Account {
    /// How the account is named in refusals: `token "ann"` or `client 203.0.113.7`.
    pub fn label(&self) -> String {
        match &self.owner {
            Some(o) => format!("token {o:?}"),
            None => format!("client {}", self.client),
        }
    }
}

/// What an account has now.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outstanding {
    /// Jobs queued or running.
    pub jobs: i64,
    /// Core-seconds of estimated work of those jobs not yet played.
    pub cost: f64,
    /// Bytes the records of all its jobs take.
    pub stored_bytes: i64,
}

/// Which quota a request is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `--max-owner-jobs`.
    Jobs,
    /// `--max-owner-cost`.
    Cost,
    /// `--max-owner-bytes`.
    Bytes,
}

impl Limit {
    /// The setting's name, as the problem's `limit` member and its field error give it.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Jobs => "max_owner_jobs",
            Limit::Cost => "max_owner_cost",
            Limit::Bytes => "max_owner_bytes",
        }
    }
}

/// The figures of a refusal: whose, what it has, what the request adds, and the bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Whose ([`Account::label`]).
    pub account: String,
    /// What the account has now.
    pub outstanding: Outstanding,
    /// Jobs the request would add.
    pub requested_jobs: i64,
    /// Core-seconds the request would add.
    pub requested_cost: f64,
    /// The bounds.
    pub max_jobs: i64,
    /// Core-seconds.
    pub max_cost: f64,
    /// Bytes.
    pub max_bytes: i64,
}

/// A request over one of its account's quotas: which, and the figures.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OverQuota {
    /// The request alone makes more jobs than an owner may have: it can never be admitted as
    /// it is (422, not 429).
    #[error(
        "this request makes {} jobs, over the {} one owner may have queued or running \
         (--max-owner-jobs): compare fewer rulesets",
        .0.requested_jobs, .0.max_jobs
    )]
    JobsAlone(Figures),
    /// The request alone costs more than an owner may have outstanding: never admitted as it
    /// is.
    #[error(
        "this request is estimated at {:.0} core-seconds, over the {:.0} one owner may have \
         outstanding (--max-owner-cost): ask for fewer games",
        .0.requested_cost, .0.max_cost
    )]
    CostAlone(Figures),
    /// The account's jobs store as many bytes as an owner may.
    #[error(
        "{}'s jobs store {} bytes, at least the {} one owner may store (--max-owner-bytes): \
         delete some (DELETE /api/v1/simulations/{{id}}?purge=true) before starting more",
        .0.account, .0.outstanding.stored_bytes, .0.max_bytes
    )]
    Bytes(Figures),
    /// The account has as many jobs queued or running as an owner may.
    #[error(
        "{} has {} jobs queued or running, at most {} (--max-owner-jobs); try again when one \
         has ended",
        .0.account, .0.outstanding.jobs, .0.max_jobs
    )]
    Jobs(Figures),
    /// The account's outstanding work and the request's are over what an owner may have.
    #[error(
        "{} has {:.0} core-seconds of work outstanding and this request adds {:.0}, over the \
         {:.0} one owner may have (--max-owner-cost); try again when some is done",
        .0.account, .0.outstanding.cost, .0.requested_cost, .0.max_cost
    )]
    Cost(Figures),
}

impl OverQuota {
    /// The quota it is over.
    pub fn limit(&self) -> Limit {
        match self {
            OverQuota::JobsAlone(_) | OverQuota::Jobs(_) => Limit::Jobs,
            OverQuota::CostAlone(_) | OverQuota::Cost(_) => Limit::Cost,
            OverQuota::Bytes(_) => Limit::Bytes,
        }
    }

    /// The request alone is over the quota: it can never be admitted as it is.
    pub fn never(&self) -> bool {
        matches!(self, OverQuota::JobsAlone(_) | OverQuota::CostAlone(_))
    }

    /// Its figures.
    pub fn figures(&self) -> &Figures {
        match self {
            OverQuota::JobsAlone(f)
            | OverQuota::CostAlone(f)
            | OverQuota::Bytes(f)
            | OverQuota::Jobs(f)
            | OverQuota::Cost(f) => f,
        }
    }
}

/// Admits a request of `jobs` jobs costing `cost` core-seconds in all from an account that
/// has `now`, or says which quota it is over: first what the request could never fit (more
/// jobs or core-seconds than an owner may have at all), then the disk, the jobs and the work.
pub fn check(
    account: &Account,
    now: Outstanding,
    jobs: i64,
    cost: f64,
    limits: &JobSettings,
) -> Result<(), OverQuota> {
    let figures = || Figures {
        account: account.label(),
        outstanding: now,
        requested_jobs: jobs,
        requested_cost: cost,
        max_jobs: limits.max_owner_jobs,
        max_cost: limits.max_owner_cost,
        max_bytes: limits.max_owner_bytes,
    };
    if jobs > limits.max_owner_jobs {
        return Err(OverQuota::JobsAlone(figures()));
    }
    if cost > limits.max_owner_cost {
        return Err(OverQuota::CostAlone(figures()));
    }
    if now.stored_bytes >= limits.max_owner_bytes {
        return Err(OverQuota::Bytes(figures()));
    }
    if now.jobs + jobs > limits.max_owner_jobs {
        return Err(OverQuota::Jobs(figures()));
    }
    if now.cost + cost > limits.max_owner_cost {
        return Err(OverQuota::Cost(figures()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> JobSettings {
        JobSettings {
            max_owner_jobs: 3,
            max_owner_cost: 100.0,
            max_owner_bytes: 1000,
            ..JobSettings::default()
        }
    }

    fn anon() -> Account {
        Account {
            owner: None,
            client: "203.0.113.7".into(),
        }
    }

    fn limit(now: Outstanding, jobs: i64, cost: f64) -> Option<(Limit, bool)> {
        check(&anon(), now, jobs, cost, &limits())
            .err()
            .map(|e| (e.limit(), e.never()))
    }

    #[test]
    fn each_quota_refuses_past_its_bound_and_names_itself() {
        let none = Outstanding::default();
        assert_eq!(limit(none, 3, 100.0), None);
        let busy = Outstanding {
            jobs: 2,
            cost: 60.0,
            stored_bytes: 999,
        };
        assert_eq!(limit(busy, 1, 40.0), None);
        assert_eq!(limit(busy, 2, 1.0), Some((Limit::Jobs, false)));
        assert_eq!(limit(busy, 1, 41.0), Some((Limit::Cost, false)));
        let full = Outstanding {
            stored_bytes: 1000,
            ..none
        };
        assert_eq!(limit(full, 1, 1.0), Some((Limit::Bytes, false)));
        // A request that could never fit says so, whatever is outstanding.
        assert_eq!(limit(busy, 4, 1.0), Some((Limit::Jobs, true)));
        assert_eq!(limit(none, 1, 101.0), Some((Limit::Cost, true)));
        let e = check(&anon(), busy, 1, 41.0, &limits()).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("client 203.0.113.7 has 60 core-seconds"),
            "{text}"
        );
        assert!(text.contains("--max-owner-cost"), "{text}");
    }
}
