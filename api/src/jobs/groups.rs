//! Comparisons and readings studies: runs on the same seeds kept under one id (a row of
//! `comparisons`), each run a simulation job. A group is one job to its owner: one id, one
//! cancel or purge of all its runs, one entry against the quotas ([`super::store`]'s
//! admission counts it once), one line in the lists.

use super::listing::{Cursor, Filter};
use super::status::JobStatus;
use super::store::chunk_bytes;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgPool, Row};
use uuid::Uuid;

/// Which kind of group: a comparison of rulesets (`POST /api/v1/comparisons`) or a readings
/// study (`POST /api/v1/readings`, whose request is kept under `readings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// A comparison.
    Comparison,
    /// A readings study.
    Readings,
}

impl Group {
    /// Whether a stored request is of this kind.
    pub fn holds(self, request: &Value) -> bool {
        request.get("readings").is_some() == (self == Group::Readings)
    }

    /// The word a problem or page names one by.
    pub fn word(self) -> &'static str {
        match self {
            Group::Comparison => "comparison",
            Group::Readings => "readings study",
        }
    }

    /// Its collection under `/api/v1` (and its pages').
    pub fn collection(self) -> &'static str {
        match self {
            Group::Comparison => "comparisons",
            Group::Readings => "readings",
        }
    }
}

/// A group as a list shows it: what its runs add up to.
#[derive(Clone, Debug)]
pub struct GroupRow {
    /// Its id.
    pub id: Uuid,
    /// What was asked for.
    pub request: Value,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// `done` when every run is; else `failed`, `cancelled`, `running` or `queued`, the first
    /// that any run is ([`super::view::comparison_status`]).
    pub status: JobStatus,
    /// Its runs' owner.
    pub owner: Option<String>,
    /// The rulesets its runs play, each once, in the runs' order.
    pub rulesets: Vec<String>,
    /// Its runs.
    pub runs: i64,
    /// Games in all its runs, and those stored.
    pub games: i64,
    /// Games stored.
    pub games_done: i64,
    /// Its runs' estimated cost together (core-seconds).
    pub estimated_cost: f64,
    /// When its last run ended, once all have.
    pub finished_at: Option<DateTime<Utc>>,
}

/// The status of a group from its runs', in SQL over the runs `j` of one group.
const STATUS_SQL: &str = "CASE WHEN bool_and(j.status = 'done') THEN 'done' \
     WHEN bool_or(j.status = 'failed') THEN 'failed' \
     WHEN bool_or(j.status = 'cancelled') THEN 'cancelled' \
     WHEN bool_or(j.status = 'running') THEN 'running' ELSE 'queued' END";

/// The groups of kind `group` as `filter` asks (the ruleset: any of its runs'), newest first.
pub async fn list(
    pool: &PgPool,
    group: Group,
    filter: &Filter,
) -> Result<Vec<GroupRow>, sqlx::Error> {
    let sql = format!(
        "SELECT * FROM ( \
           SELECT c.id, c.request, c.created_at, {STATUS_SQL} AS status, min(j.owner) AS owner, \
             array_agg(j.ruleset ORDER BY j.position) AS rulesets, count(*) AS runs, \
             sum(j.games)::bigint AS games, sum(j.games_done)::bigint AS games_done, \
             sum(j.estimated_cost)::float8 AS estimated_cost, \
             CASE WHEN bool_and(j.finished_at IS NOT NULL) THEN max(j.finished_at) END \
               AS finished_at \
           FROM comparisons c JOIN simulation_jobs j ON j.comparison_id = c.id \
           WHERE (c.request ? 'readings') = $1 \
             AND ($5::timestamptz IS NULL OR c.created_at < $5 \
                  OR (c.created_at = $5 AND c.id > $6)) \
           GROUP BY c.id \
           HAVING ($2::text IS NULL OR bool_and(j.owner = $2)) \
             AND ($3::text IS NULL OR bool_or(j.ruleset = $3))) g \
         WHERE ($4::text IS NULL OR g.status = $4) \
         ORDER BY g.created_at DESC, g.id LIMIT $7"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(group == Group::Readings)
        .bind(filter.owner.as_deref())
        .bind(filter.ruleset.as_deref())
        .bind(filter.status.map(JobStatus::as_str))
        .bind(filter.after.map(|c| c.created_at))
        .bind(filter.after.map(|c| c.id))
        .bind(filter.limit)
        .fetch_all(pool)
        .await?;
    rows.iter()
        .map(|r| {
            let mut rulesets: Vec<String> = r.try_get("rulesets")?;
            let mut seen = std::collections::HashSet::new();
            rulesets.retain(|s| seen.insert(s.clone()));
            Ok(GroupRow {
                id: r.try_get("id")?,
                request: r.try_get("request")?,
                created_at: r.try_get("created_at")?,
                status: r
                    .try_get::<String, _>("status")?
                    .parse()
                    .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                owner: r.try_get("owner")?,
                rulesets,
                runs: r.try_get("runs")?,
                games: r.try_get("games")?,
                games_done: r.try_get("games_done")?,
                estimated_cost: r.try_get("estimated_cost")?,
                finished_at: r.try_get("finished_at")?,
            })
        })
        .collect()
}

impl GroupRow {
    /// The cursor after it in a list.
    pub fn cursor(&self) -> Cursor {
        Cursor::after(self.created_at, self.id)
    }
}

/// Cancels every run of group `id` still queued or running (dropping their chunks not yet
/// played), in one transaction; returns how many were.
pub async fn cancel(pool: &PgPool, id: Uuid) -> Result<u64, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let r = sqlx::query(
        "UPDATE simulation_jobs SET status = 'cancelled', finished_at = now() \
         WHERE comparison_id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM simulation_chunks c USING simulation_jobs j \
         WHERE j.id = c.job_id AND j.comparison_id = $1 AND c.status = 'pending'",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(r.rows_affected())
}

/// Deletes group `id`, its runs and everything they stored; returns the bytes their records
/// took, or None when there was no such group.
pub async fn purge(pool: &PgPool, id: Uuid) -> Result<Option<i64>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let freed: i64 = sqlx::query_scalar(concat!(
        "SELECT coalesce(sum(",
        chunk_bytes!(),
        "), 0)::bigint FROM simulation_chunks c JOIN simulation_jobs j ON j.id = c.job_id \
         WHERE j.comparison_id = $1"
    ))
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM simulation_jobs WHERE comparison_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let gone = sqlx::query("DELETE FROM comparisons WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok((gone > 0).then_some(freed))
}
