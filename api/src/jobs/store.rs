//! The jobs' tables: creating jobs and their chunks, claiming chunks under a lease, storing a
//! chunk's records, folding a finished job's records into its statistics.

use super::request::JobSpec;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgPool, Postgres, Row, Transaction};
use std::time::Duration;
use tsoro_engine::stats::{GameRecord, Summary};
use uuid::Uuid;

/// A job as stored.
#[derive(Clone, Debug)]
pub struct JobRow {
    /// Id.
    pub id: Uuid,
    /// The comparison it belongs to.
    pub comparison_id: Option<Uuid>,
    /// Ruleset id.
    pub ruleset: String,
    /// Version: sha256 of the configuration.
    pub ruleset_hash: String,
    /// The configuration run.
    pub config: Value,
    /// Every parameter in force.
    pub params: Value,
    /// The two agents.
    pub agents: Vec<String>,
    /// Games.
    pub games: i64,
    /// Seed (a u64).
    pub seed: u64,
    /// Swap seats.
    pub swap_seats: bool,
    /// Play through the reference only.
    pub reference: bool,
    /// Games per chunk.
    pub chunk_games: i64,
    /// queued, running, done, failed or cancelled.
    pub status: String,
    /// Why it failed.
    pub error: Option<String>,
    /// Games stored.
    pub games_done: i64,
    /// The aggregates, when done.
    pub summary: Option<Value>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// First chunk claimed.
    pub started_at: Option<DateTime<Utc>>,
    /// Done, failed or cancelled.
    pub finished_at: Option<DateTime<Utc>>,
    /// Bytes its stored records take (their blocks as stored, TOAST included).
    pub stored_bytes: i64,
}

const JOB_COLUMNS: &str = "id, comparison_id, ruleset, ruleset_hash, config, params, agents, \
     games, seed::text AS seed, swap_seats, reference, chunk_games, status, error, games_done, summary, \
     created_at, started_at, finished_at, \
     (SELECT coalesce(sum(pg_column_size(c.records)), 0)::bigint FROM simulation_chunks c \
      WHERE c.job_id = simulation_jobs.id) AS stored_bytes";

fn job_from(r: &sqlx::postgres::PgRow) -> Result<JobRow, sqlx::Error> {
    let seed: String = r.try_get("seed")?;
    Ok(JobRow {
        id: r.try_get("id")?,
        comparison_id: r.try_get("comparison_id")?,
        ruleset: r.try_get("ruleset")?,
        ruleset_hash: r.try_get("ruleset_hash")?,
        config: r.try_get("config")?,
        params: r.try_get("params")?,
        agents: r.try_get("agents")?,
        games: r.try_get("games")?,
        seed: seed.parse().map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
        swap_seats: r.try_get("swap_seats")?,
        reference: r.try_get("reference")?,
        chunk_games: r.try_get("chunk_games")?,
        status: r.try_get("status")?,
        error: r.try_get("error")?,
        games_done: r.try_get("games_done")?,
        summary: r.try_get("summary")?,
        created_at: r.try_get("created_at")?,
        started_at: r.try_get("started_at")?,
        finished_at: r.try_get("finished_at")?,
        stored_bytes: r.try_get("stored_bytes")?,
    })
}

/// Takes the admission lock for the rest of the transaction and counts the jobs queued or
/// running. Every admission takes it before counting and inserting, so the count and the
/// insert are one step: concurrent requests cannot all see room for one more.
pub async fn lock_admission(tx: &mut Transaction<'_, Postgres>) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('tsoro.jobs.admission'))")
        .execute(&mut **tx)
        .await?;
    sqlx::query_scalar("SELECT count(*) FROM simulation_jobs WHERE status IN ('queued', 'running')")
        .fetch_one(&mut **tx)
        .await
}

/// Stores a job and its chunks.
pub async fn create_job(
    tx: &mut Transaction<'_, Postgres>,
    spec: &JobSpec,
    comparison: Option<(Uuid, i32)>,
) -> Result<Uuid, sqlx::Error> {
    let id = Uuid::new_v4();
    let agents: Vec<String> = spec.agents.iter().map(|a| a.to_string()).collect();
    sqlx::query(
        "INSERT INTO simulation_jobs (id, comparison_id, position, ruleset, ruleset_hash, \
         config, params, agents, games, seed, swap_seats, chunk_games, reference) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text::numeric, $11, $12, $13)",
    )
    .bind(id)
    .bind(comparison.map(|c| c.0))
    .bind(comparison.map_or(0, |c| c.1))
    .bind(&spec.def.id)
    .bind(&spec.hash)
    .bind(&spec.config)
    .bind(serde_json::to_value(&spec.params).unwrap_or_default())
    .bind(&agents)
    .bind(spec.games as i64)
    .bind(spec.seed.to_string())
    .bind(spec.swap_seats)
    .bind(spec.chunk_games as i64)
    .bind(spec.reference)
    .execute(&mut **tx)
    .await?;
    let chunks = spec.games.div_ceil(spec.chunk_games) as i64;
    sqlx::query(
        "INSERT INTO simulation_chunks (job_id, idx, first_game, end_game) \
         SELECT $1, i, i * $2, LEAST((i + 1) * $2, $3) FROM generate_series(0, $4 - 1) AS i",
    )
    .bind(id)
    .bind(spec.chunk_games as i64)
    .bind(spec.games as i64)
    .bind(chunks)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// One job by id.
pub async fn get_job(pool: &PgPool, id: Uuid) -> Result<Option<JobRow>, sqlx::Error> {
    let sql = format!("SELECT {JOB_COLUMNS} FROM simulation_jobs WHERE id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(pool)
        .await?;
    row.as_ref().map(job_from).transpose()
}

/// Jobs, newest first, filtered by status and ruleset.
pub async fn list_jobs(
    pool: &PgPool,
    status: Option<&str>,
    ruleset: Option<&str>,
    limit: i64,
) -> Result<Vec<JobRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM simulation_jobs \
         WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR ruleset = $2) \
         ORDER BY created_at DESC, id LIMIT $3"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(status)
        .bind(ruleset)
        .bind(limit)
        .fetch_all(pool)
        .await?;
    rows.iter().map(job_from).collect()
}

/// The jobs of a comparison, in order.
pub async fn comparison_jobs(pool: &PgPool, id: Uuid) -> Result<Vec<JobRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM simulation_jobs WHERE comparison_id = $1 ORDER BY position"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_all(pool)
        .await?;
    rows.iter().map(job_from).collect()
}

/// Cancels a queued or running job, dropping its chunks not yet played; returns whether it
/// was.
pub async fn cancel(pool: &PgPool, id: Uuid) -> Result<bool, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let r = sqlx::query(
        "UPDATE simulation_jobs SET status = 'cancelled', finished_at = now() \
         WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM simulation_chunks WHERE job_id = $1 AND status = 'pending'")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(r.rows_affected() > 0)
}

/// Deletes a job and everything it stored (its chunks go with it); returns the bytes its
/// records took, or None when there was no such job. A worker playing one of its chunks
/// loses the lease and stores nothing.
pub async fn purge(pool: &PgPool, id: Uuid) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "WITH gone AS (DELETE FROM simulation_jobs WHERE id = $1 RETURNING id) \
         SELECT coalesce((SELECT sum(pg_column_size(c.records)) FROM simulation_chunks c \
                          WHERE c.job_id = $1), 0)::bigint FROM gone",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// Deletes the jobs that ended (done, failed, cancelled) more than `age` ago, with what they
/// stored; returns how many.
pub async fn expire(pool: &PgPool, age: Duration) -> Result<u64, sqlx::Error> {
    let r = sqlx::query(
        "DELETE FROM simulation_jobs WHERE status IN ('done', 'failed', 'cancelled') \
         AND finished_at < now() - make_interval(secs => $1)",
    )
    .bind(age.as_secs_f64())
    .execute(pool)
    .await?;
    Ok(r.rows_affected())
}

/// Whether a job is still queued or running (false when cancelled, failed, done or gone).
pub async fn is_active(pool: &PgPool, id: Uuid) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM simulation_jobs \
         WHERE id = $1 AND status IN ('queued', 'running'))",
    )
    .bind(id)
    .fetch_one(pool)
    .await
}

/// A chunk a worker holds.
#[derive(Clone, Debug)]
pub struct Claim {
    /// The job.
    pub job: JobRow,
    /// The chunk's index.
    pub idx: i32,
    /// First game.
    pub first_game: u64,
    /// One past the last.
    pub end_game: u64,
}

/// Claims the oldest open chunk (pending, or running with an expired lease).
pub async fn claim(
    pool: &PgPool,
    owner: &str,
    lease: Duration,
) -> Result<Option<Claim>, sqlx::Error> {
    let row = sqlx::query(
        "WITH next AS ( \
           SELECT c.job_id, c.idx FROM simulation_chunks c \
           JOIN simulation_jobs j ON j.id = c.job_id \
           WHERE j.status IN ('queued', 'running') \
             AND (c.status = 'pending' OR (c.status = 'running' AND c.lease_until < now())) \
           ORDER BY j.created_at, j.id, c.idx \
           LIMIT 1 FOR UPDATE OF c SKIP LOCKED) \
         UPDATE simulation_chunks c SET status = 'running', lease_owner = $1, \
           lease_until = now() + make_interval(secs => $2), attempts = c.attempts + 1 \
         FROM next WHERE c.job_id = next.job_id AND c.idx = next.idx \
         RETURNING c.job_id, c.idx, c.first_game, c.end_game",
    )
    .bind(owner)
    .bind(lease.as_secs_f64())
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let job_id: Uuid = row.try_get("job_id")?;
    sqlx::query(
        "UPDATE simulation_jobs SET status = 'running', started_at = coalesce(started_at, now()) \
         WHERE id = $1 AND status = 'queued'",
    )
    .bind(job_id)
    .execute(pool)
    .await?;
    let Some(job) = get_job(pool, job_id).await? else {
        return Ok(None);
    };
    Ok(Some(Claim {
        job,
        idx: row.try_get("idx")?,
        first_game: row.try_get::<i64, _>("first_game")? as u64,
        end_game: row.try_get::<i64, _>("end_game")? as u64,
    }))
}

/// Extends the lease; false when the chunk is no longer ours or its job no longer runs.
pub async fn renew(
    pool: &PgPool,
    c: &Claim,
    owner: &str,
    lease: Duration,
) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE simulation_chunks c SET lease_until = now() + make_interval(secs => $4) \
         FROM simulation_jobs j \
         WHERE c.job_id = $1 AND c.idx = $2 AND c.lease_owner = $3 AND c.status = 'running' \
           AND j.id = c.job_id AND j.status = 'running'",
    )
    .bind(c.job.id)
    .bind(c.idx)
    .bind(owner)
    .bind(lease.as_secs_f64())
    .execute(pool)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Gives a chunk back (pending again) when a worker abandons it while it still holds it.
pub async fn release(pool: &PgPool, c: &Claim, owner: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE simulation_chunks SET status = 'pending', lease_owner = NULL, lease_until = NULL \
         WHERE job_id = $1 AND idx = $2 AND lease_owner = $3 AND status = 'running'",
    )
    .bind(c.job.id)
    .bind(c.idx)
    .bind(owner)
    .execute(pool)
    .await?;
    Ok(())
}

/// The records of a stored chunk, parsed back.
pub fn parse_records(lines: &[u8]) -> Result<Vec<GameRecord>, sqlx::Error> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(lines)
        .deserialize()
        .collect::<Result<_, _>>()
        .map_err(|e| sqlx::Error::Protocol(format!("a stored game does not read back: {e}")))
}

/// The aggregates of a job's two agents, empty.
fn empty_summary(job: &JobRow) -> Summary {
    Summary::new([
        job.agents.first().cloned().unwrap_or_default(),
        job.agents.get(1).cloned().unwrap_or_default(),
    ])
}

/// A played chunk, ready to store: its records as CSV lines and their aggregates.
pub struct Played {
    /// The claim it was played under.
    pub claim: Claim,
    /// The records, one CSV line each (`tsoro_engine::stats::csv_line`), in game order.
    pub lines: Vec<u8>,
    /// Their aggregates.
    pub summary: Summary,
    /// How many games.
    pub games: u64,
}

/// Stores a chunk's records and their aggregates and marks it done, if it is still ours and
/// its job still runs; returns whether it was stored. Finishes the job after its last chunk.
pub async fn complete(pool: &PgPool, owner: &str, played: Played) -> Result<bool, sqlx::Error> {
    let Played {
        claim: c,
        lines,
        summary,
        games,
    } = played;
    let summary =
        serde_json::to_value(&summary).map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
    let mut tx = pool.begin().await?;
    let stored = sqlx::query(
        "UPDATE simulation_chunks c \
         SET status = 'done', lease_until = NULL, records = $4, summary = $5 \
         FROM simulation_jobs j \
         WHERE c.job_id = $1 AND c.idx = $2 AND c.lease_owner = $3 AND c.status = 'running' \
           AND j.id = c.job_id AND j.status = 'running'",
    )
    .bind(c.job.id)
    .bind(c.idx)
    .bind(owner)
    .bind(lines)
    .bind(summary)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !stored {
        tx.rollback().await?;
        return Ok(false);
    }
    sqlx::query("UPDATE simulation_jobs SET games_done = games_done + $2 WHERE id = $1")
        .bind(c.job.id)
        .bind(games as i64)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    finish_if_complete(pool, c.job.id).await?;
    Ok(true)
}

/// Marks a job failed.
pub async fn fail(pool: &PgPool, id: Uuid, error: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE simulation_jobs SET status = 'failed', error = $2, finished_at = now() \
         WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .bind(error)
    .execute(pool)
    .await?;
    Ok(())
}

/// When every chunk of a running job is done, merges the chunks' aggregates (folding the
/// records of a chunk stored without them) and marks it done. Idempotent: two workers
/// finishing at once compute the same thing, and every aggregate is exact, so the result is
/// the fold of all the records in game order.
pub async fn finish_if_complete(pool: &PgPool, id: Uuid) -> Result<(), sqlx::Error> {
    let open: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM simulation_chunks WHERE job_id = $1 AND status <> 'done'",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    if open > 0 {
        return Ok(());
    }
    let Some(job) = get_job(pool, id).await? else {
        return Ok(());
    };
    if job.status != "running" {
        return Ok(());
    }
    let mut summary = empty_summary(&job);
    let parts: Vec<(i32, Option<Value>)> =
        sqlx::query_as("SELECT idx, summary FROM simulation_chunks WHERE job_id = $1 ORDER BY idx")
            .bind(id)
            .fetch_all(pool)
            .await?;
    for (idx, part) in parts {
        match part.and_then(|v| serde_json::from_value::<Summary>(v).ok()) {
            Some(p) => summary.merge(&p),
            None => {
                let lines = chunk_records(pool, id, idx).await?.unwrap_or_default();
                parse_records(&lines)?.iter().for_each(|r| summary.add(r));
            }
        }
    }
    sqlx::query(
        "UPDATE simulation_jobs SET status = 'done', summary = $2, finished_at = now() \
         WHERE id = $1 AND status = 'running'",
    )
    .bind(id)
    .bind(serde_json::to_value(&summary).unwrap_or_default())
    .execute(pool)
    .await?;
    Ok(())
}

/// Finishes every running job whose chunks are all done (after a crash between storing the
/// last chunk and folding the statistics).
pub async fn finish_stragglers(pool: &PgPool) -> Result<(), sqlx::Error> {
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "SELECT j.id FROM simulation_jobs j WHERE j.status = 'running' AND NOT EXISTS \
         (SELECT 1 FROM simulation_chunks c WHERE c.job_id = j.id AND c.status <> 'done')",
    )
    .fetch_all(pool)
    .await?;
    for id in ids {
        finish_if_complete(pool, id).await?;
    }
    Ok(())
}

/// The stored records (CSV lines) of one chunk of a job.
pub async fn chunk_records(
    pool: &PgPool,
    job: Uuid,
    idx: i32,
) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar("SELECT records FROM simulation_chunks WHERE job_id = $1 AND idx = $2")
        .bind(job)
        .bind(idx)
        .fetch_optional(pool)
        .await
        .map(Option::flatten)
}

/// The first stored chunk of a job after chunk `after`: its index and records.
pub async fn next_chunk_records(
    pool: &PgPool,
    job: Uuid,
    after: i32,
) -> Result<Option<(i32, Vec<u8>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT idx, records FROM simulation_chunks \
         WHERE job_id = $1 AND idx > $2 AND records IS NOT NULL ORDER BY idx LIMIT 1",
    )
    .bind(job)
    .bind(after)
    .fetch_optional(pool)
    .await
}

/// Stores a comparison's request; returns its id.
pub async fn create_comparison(
    tx: &mut Transaction<'_, Postgres>,
    request: &Value,
) -> Result<Uuid, sqlx::Error> {
    let id = Uuid::new_v4();
    sqlx::query("INSERT INTO comparisons (id, request) VALUES ($1, $2)")
        .bind(id)
        .bind(request)
        .execute(&mut **tx)
        .await?;
    Ok(id)
}

/// A comparison's request and creation time.
pub async fn get_comparison(
    pool: &PgPool,
    id: Uuid,
) -> Result<Option<(Value, DateTime<Utc>)>, sqlx::Error> {
    let row = sqlx::query("SELECT request, created_at FROM comparisons WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?;
    row.map(|r| Ok((r.try_get("request")?, r.try_get("created_at")?)))
        .transpose()
}
