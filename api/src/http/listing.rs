//! The query of every list of runs (`GET /api/v1/{kind}`): the same filters and cursor for
//! each kind, checked once, each bad one a 400 naming its field.

use super::access::Access;
use super::problem::Problem;
use crate::jobs::listing::{
    Cursor, DEFAULT_LIMIT, Filter, MAX_LIMIT, RULESET_ID_PATTERN, is_ruleset_id,
};
use crate::jobs::status::JobStatus;
use serde::Deserialize;
use utoipa::IntoParams;

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
/// Filters of a list of runs, the same for every kind.
pub struct ListQuery {
    /// Only the runs with this status.
    #[param(value_type = Option<JobStatus>)]
    status: Option<String>,
    /// Only the runs of this ruleset (a comparison's: any of its runs').
    #[param(pattern = "^[a-z0-9][a-z0-9-]*$")]
    ruleset: Option<String>,
    /// At most this many, newest first.
    #[param(minimum = 1, maximum = 500)]
    limit: Option<i64>,
    /// Where the page begins: the `next` of the page before.
    after: Option<String>,
}

/// A run's status named by a filter, or 400 naming `field` and the statuses.
pub fn status_of(raw: Option<&str>, field: &str, path: &str) -> Result<Option<JobStatus>, Problem> {
    match raw.map(str::parse::<JobStatus>) {
        None => Ok(None),
        Some(Ok(s)) => Ok(Some(s)),
        Some(Err(e)) => {
            let all: Vec<&str> = JobStatus::ALL.iter().map(|s| s.as_str()).collect();
            Err(Problem::bad_request(e.to_string())
                .with_error(field, all.join("|"))
                .at(path))
        }
    }
}

impl ListQuery {
    /// What the list holds for this caller (everyone's for an admin, else the caller's own),
    /// or 400 naming the bad filter.
    pub fn filter(&self, access: &Access, path: &str) -> Result<Filter, Problem> {
        let scope = access.list_scope()?;
        let status = status_of(self.status.as_deref(), "status", path)?;
        let limit = self.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(
                Problem::bad_request(format!("limit = {limit}: 1 to {MAX_LIMIT}"))
                    .with_error("limit", format!("1..={MAX_LIMIT}"))
                    .at(path),
            );
        }
        if let Some(r) = self.ruleset.as_deref()
            && !is_ruleset_id(r)
        {
            return Err(Problem::bad_request(format!(
                "ruleset = {r:?}: a ruleset id is lowercase letters, digits and hyphens"
            ))
            .with_error("ruleset", RULESET_ID_PATTERN)
            .at(path));
        }
        let after = match self.after.as_deref() {
            None => None,
            Some(raw) => Some(Cursor::parse(raw).ok_or_else(|| {
                Problem::bad_request(format!(
                    "after = {raw:?}: a cursor is the `next` of the page before"
                ))
                .with_error("after", "the `next` of a list")
                .at(path)
            })?),
        };
        Ok(Filter {
            owner: scope.owner().map(str::to_string),
            status,
            ruleset: self.ruleset.clone(),
            after,
            limit,
        })
    }
}
