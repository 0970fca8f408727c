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

/// A request over one of its account's quotas, with the figures.
#[derive(Clone, Debug, PartialEq)]
pub struct OverQuota {
    /// Whose.
    pub account: String,
    /// Which quota.
    pub limit: Limit,
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
    /// The request alone is over the quota: it can never be admitted as it is (422, not 429).
    pub never: bool,
}

impl std::fmt::Display for OverQuota {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.outstanding;
        match (self.limit, self.never) {
            (Limit::Jobs, false) => write!(
                f,
                "{} has {} jobs queued or running, at most {} (--max-owner-jobs); try again \
                 when one has ended",
                self.account, o.jobs, self.max_jobs
            ),
            (Limit::Jobs, true) => write!(
                f,
                "this request makes {} jobs, over the {} one owner may have queued or running \
                 (--max-owner-jobs): compare fewer rulesets",
                self.requested_jobs, self.max_jobs
            ),
            (Limit::Cost, false) => write!(
                f,
                "{} has {:.0} core-seconds of work outstanding and this request adds {:.0}, \
                 over the {:.0} one owner may have (--max-owner-cost); try again when some is \
                 done",
                self.account, o.cost, self.requested_cost, self.max_cost
            ),
            (Limit::Cost, true) => write!(
                f,
                "this request is estimated at {:.0} core-seconds, over the {:.0} one owner may \
                 have outstanding (--max-owner-cost): ask for fewer games",
                self.requested_cost, self.max_cost
            ),
            (Limit::Bytes, _) => write!(
                f,
                "{}'s jobs store {} bytes, at least the {} one owner may store \
                 (--max-owner-bytes): delete some (DELETE /api/v1/simulations/{{id}}?purge=true) \
                 before starting more",
                self.account, o.stored_bytes, self.max_bytes
            ),
        }
    }
}

impl std::error::Error for OverQuota {}

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
    let over = |limit, never| OverQuota {
        account: account.label(),
        limit,
        outstanding: now,
        requested_jobs: jobs,
        requested_cost: cost,
        max_jobs: limits.max_owner_jobs,
        max_cost: limits.max_owner_cost,
        max_bytes: limits.max_owner_bytes,
        never,
    };
    if jobs > limits.max_owner_jobs {
        return Err(over(Limit::Jobs, true));
    }
    if cost > limits.max_owner_cost {
        return Err(over(Limit::Cost, true));
    }
    if now.stored_bytes >= limits.max_owner_bytes {
        return Err(over(Limit::Bytes, false));
    }
    if now.jobs + jobs > limits.max_owner_jobs {
        return Err(over(Limit::Jobs, false));
    }
    if now.cost + cost > limits.max_owner_cost {
        return Err(over(Limit::Cost, false));
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
            .map(|e| (e.limit, e.never))
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
