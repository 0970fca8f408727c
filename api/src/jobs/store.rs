//! The jobs' tables: creating jobs, cutting and claiming their chunks under a lease (lazily:
//! a job keeps the next game to hand out), storing a chunk's records, folding a finished
//! job's records into its statistics.

use super::quota::{Account, Outstanding};
use super::request::JobSpec;
use super::status::JobStatus;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgPool, Postgres, Row, Transaction};
use std::collections::HashMap;
use std::time::Duration;
use tsoro_engine::stats::Summary;
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
    /// Where it is in its life.
    pub status: JobStatus,
    /// Why it failed.
    pub error: Option<String>,
    /// Games stored.
    pub games_done: i64,
    /// Games handed out to chunks so far (the next chunk starts here).
    pub next_game: i64,
    /// The aggregates, when done.
    pub summary: Option<Value>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// First chunk claimed.
    pub started_at: Option<DateTime<Utc>>,
    /// Done, failed or cancelled.
    pub finished_at: Option<DateTime<Utc>>,
    /// The name of the API token that created it (None: created anonymously).
    pub owner: Option<String>,
    /// Its estimated cost when queued, in core-seconds (0 for a job queued before estimates
    /// were kept).
    pub estimated_cost: f64,
    /// A simulation's, or a tournament's: what else it plays
    /// ([`super::tournament::Stored`]).
    pub tournament: Option<Value>,
    /// The engine version that made it ([`tsoro_engine::VERSION`]; None: made before jobs
    /// recorded it). Only workers of that version play it.
    pub engine_version: Option<String>,
    /// Why it cannot progress now (the disk is full), until one of its chunks is stored.
    pub paused: Option<String>,
    /// Since when.
    pub paused_at: Option<DateTime<Utc>>,
    /// What it plays: `simulation` (of a comparison or not), `tournament` or `nhodo`.
    pub kind: String,
}

impl JobRow {
    /// Whether it is a tournament.
    pub fn is_tournament(&self) -> bool {
        self.tournament.is_some()
    }

    /// Whether it is a nhodo run ([`super::nhodo`]).
    pub fn is_nhodo(&self) -> bool {
        self.kind == "nhodo"
    }

    /// Whether it is a simulation of a game with players (of a comparison or not).
    pub fn is_simulation(&self) -> bool {
        self.kind == "simulation"
    }

    /// Why this process's workers leave it alone, while it waits for play: it was made by
    /// another engine version than theirs.
    pub fn held_back(&self) -> Option<String> {
        let version = self.engine_version.as_deref()?;
        let waiting = matches!(self.status, JobStatus::Queued | JobStatus::Running);
        (waiting && version != tsoro_engine::VERSION).then(|| {
            format!(
                "made by engine version {version}; this service's workers run engine version \
                 {}, and only a worker of version {version} plays it (another engine could \
                 record other games for the same inputs)",
                tsoro_engine::VERSION
            )
        })
    }
}

/// A job's columns: only its own row (what its chunks add up to is [`usage`]'s, read by the
/// views that show it, not by every read such as a worker's claim).
const JOB_COLUMNS: &str = "id, comparison_id, ruleset, ruleset_hash, config, params, agents, \
     games, seed::text AS seed, swap_seats, reference, chunk_games, status, error, games_done, \
     next_game, summary, created_at, started_at, finished_at, owner, tournament, engine_version, \
     paused, paused_at, estimated_cost, kind";

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
        status: r
            .try_get::<String, _>("status")?
            .parse()
            .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
        error: r.try_get("error")?,
        games_done: r.try_get("games_done")?,
        next_game: r.try_get("next_game")?,
        summary: r.try_get("summary")?,
        created_at: r.try_get("created_at")?,
        started_at: r.try_get("started_at")?,
        finished_at: r.try_get("finished_at")?,
        owner: r.try_get("owner")?,
        tournament: r.try_get("tournament")?,
        engine_version: r.try_get("engine_version")?,
        paused: r.try_get("paused")?,
        paused_at: r.try_get("paused_at")?,
        estimated_cost: r.try_get("estimated_cost")?,
        kind: r.try_get("kind")?,
    })
}

/// The bytes a chunk `c` takes as stored, its records and aggregates (read from the values'
/// headers, not their bodies): what a job's `stored_bytes` and a purge's `freed_bytes` add up.
macro_rules! chunk_bytes {
    () => {
        "coalesce(pg_column_size(c.records), 0) + coalesce(pg_column_size(c.summary), 0)"
    };
}

/// What a job's chunks add up to, for the views that show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobUsage {
    /// Bytes its chunks' records and aggregates take as stored (PostgreSQL's row and page
    /// overhead adds a few percent on disk).
    pub stored_bytes: i64,
    /// Games played in its chunks still running (under a live lease), not yet stored.
    pub games_in_play: i64,
}

/// The usage of these jobs (those with no chunk yet are absent: nothing stored, nothing in
/// play). One query over their chunks, by the primary key.
pub async fn usage(pool: &PgPool, ids: &[Uuid]) -> Result<HashMap<Uuid, JobUsage>, sqlx::Error> {
    let rows: Vec<(Uuid, i64, i64)> = sqlx::query_as(
        concat!(
            "SELECT job_id, coalesce(sum(",
            chunk_bytes!(),
            "), 0)::bigint, \
             coalesce(sum(played) FILTER (WHERE status = 'running' AND lease_until > now()), 0)::bigint \
             FROM simulation_chunks c WHERE job_id = ANY($1) GROUP BY job_id"
        ),
    )
    .bind(ids)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, stored_bytes, games_in_play)| {
            (
                id,
                JobUsage {
                    stored_bytes,
                    games_in_play,
                },
            )
        })
        .collect())
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

/// What an account has queued, running and stored ([`super::quota`]), read inside the
/// admission's transaction (after [`lock_admission`]): its active jobs, their estimated
/// core-seconds not yet played, and the bytes all its jobs' records take.
pub async fn outstanding(
    tx: &mut Transaction<'_, Postgres>,
    account: &Account,
) -> Result<Outstanding, sqlx::Error> {
    // One statement per kind of account, so each reads its own index.
    let whose = match account.owner {
        Some(_) => "j.owner = $1",
        None => "j.owner IS NULL AND j.client = $2",
    };
    let sql = format!(
        "SELECT count(*) FILTER (WHERE j.status IN ('queued', 'running')), \
           coalesce(sum(j.estimated_cost * (j.games - j.games_done)::float8 / greatest(j.games, 1)) \
             FILTER (WHERE j.status IN ('queued', 'running')), 0)::float8, \
           coalesce((SELECT sum({chunk_bytes}) \
                     FROM simulation_chunks c JOIN simulation_jobs j ON j.id = c.job_id WHERE {whose}), 0)::bigint \
         FROM simulation_jobs j WHERE {whose}",
        chunk_bytes = chunk_bytes!()
    );
    let (jobs, cost, stored_bytes): (i64, f64, i64) = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(account.owner.as_deref())
        .bind(&account.client)
        .fetch_one(&mut **tx)
        .await?;
    Ok(Outstanding {
        jobs,
        cost: cost.max(0.0),
        stored_bytes,
    })
}

/// Stores a job of `account` (its owner: a token's name, None: anonymous; and its client);
/// its chunks are cut as workers claim them, see [`claim`]. Returns it as stored, queued (a
/// worker may start it as soon as the transaction commits).
pub async fn create_job(
    tx: &mut Transaction<'_, Postgres>,
    spec: &JobSpec,
    comparison: Option<(Uuid, i32)>,
    account: &Account,
) -> Result<JobRow, sqlx::Error> {
    let id = Uuid::new_v4();
    let agents: Vec<String> = spec.agents.iter().map(|a| a.to_string()).collect();
    let sql = format!(
        "INSERT INTO simulation_jobs (id, comparison_id, position, ruleset, ruleset_hash, \
         config, params, agents, games, seed, swap_seats, chunk_games, reference, owner, \
         estimated_cost, client, engine_version) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text::numeric, $11, $12, $13, $14, \
         $15, $16, $17) \
         RETURNING {JOB_COLUMNS}"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
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
        .bind(account.owner.as_deref())
        .bind(spec.cost)
        .bind(&account.client)
        .bind(tsoro_engine::VERSION)
        .fetch_one(&mut **tx)
        .await?;
    job_from(&row)
}

/// Stores a tournament of `account` as a job of `games` games, `chunk_games` to a chunk,
/// estimated at `cost` core-seconds, its agents and what else it plays (`tournament`) beside
/// the run's ruleset and seed; queued.
pub async fn create_tournament(
    tx: &mut Transaction<'_, Postgres>,
    run: &crate::runs::plan::RunPlan,
    agents: &[String],
    tournament: &Value,
    chunk_games: u64,
    cost: f64,
    account: &Account,
) -> Result<JobRow, sqlx::Error> {
    let sql = format!(
        "INSERT INTO simulation_jobs (id, ruleset, ruleset_hash, config, params, agents, games, \
         seed, swap_seats, chunk_games, reference, owner, kind, tournament, estimated_cost, \
         client, engine_version) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::numeric, true, $9, false, $10, \
         'tournament', $11, $12, $13, $14) RETURNING {JOB_COLUMNS}"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(Uuid::new_v4())
        .bind(&run.def.id)
        .bind(&run.hash)
        .bind(&run.config)
        .bind(serde_json::to_value(&run.params).unwrap_or_default())
        .bind(agents)
        .bind(run.games as i64)
        .bind(run.seed.to_string())
        .bind(chunk_games as i64)
        .bind(account.owner.as_deref())
        .bind(tournament)
        .bind(cost)
        .bind(&account.client)
        .bind(tsoro_engine::VERSION)
        .fetch_one(&mut **tx)
        .await?;
    job_from(&row)
}

/// Stores a nhodo run of `account` as a job (no agents), queued.
pub async fn create_nhodo(
    tx: &mut Transaction<'_, Postgres>,
    plan: &crate::runs::nhodo::NhodoPlan,
    account: &Account,
) -> Result<JobRow, sqlx::Error> {
    let sql = format!(
        "INSERT INTO simulation_jobs (id, ruleset, ruleset_hash, config, params, agents, games, \
         seed, swap_seats, chunk_games, reference, owner, kind, estimated_cost, client, \
         engine_version) \
         VALUES ($1, $2, $3, $4, $5, '{{}}', $6, $7::text::numeric, false, $8, false, $9, \
         'nhodo', $10, $11, $12) RETURNING {JOB_COLUMNS}"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(Uuid::new_v4())
        .bind(&plan.def.id)
        .bind(&plan.hash)
        .bind(&plan.config)
        .bind(serde_json::to_value(&plan.params).unwrap_or_default())
        .bind(plan.games as i64)
        .bind(plan.seed.to_string())
        .bind(plan.chunk_games as i64)
        .bind(account.owner.as_deref())
        .bind(plan.cost)
        .bind(&account.client)
        .bind(tsoro_engine::VERSION)
        .fetch_one(&mut **tx)
        .await?;
    job_from(&row)
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

/// Jobs of these kinds (`simulation`, `tournament`, `nhodo`: [`JobRow::kind`]), newest
/// first, filtered by owner (None: everyone's), status and ruleset.
pub async fn list_jobs(
    pool: &PgPool,
    owner: Option<&str>,
    status: Option<JobStatus>,
    ruleset: Option<&str>,
    limit: i64,
    kinds: &[&str],
) -> Result<Vec<JobRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM simulation_jobs \
         WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR ruleset = $2) \
         AND ($4::text IS NULL OR owner = $4) AND kind = ANY($5) \
         ORDER BY created_at DESC, id LIMIT $3"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(status.map(JobStatus::as_str))
        .bind(ruleset)
        .bind(limit)
        .bind(owner)
        .bind(kinds)
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
    sqlx::query_scalar(concat!(
        "WITH gone AS (DELETE FROM simulation_jobs WHERE id = $1 RETURNING id) \
             SELECT coalesce((SELECT sum(",
        chunk_bytes!(),
        ") FROM simulation_chunks c WHERE c.job_id = $1), 0)::bigint FROM gone"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// Deletes the jobs that ended (done, failed, cancelled) more than `age` ago, and the
/// anonymous ones (made without a token) that ended more than `anonymous_age` ago, with what
/// they stored; returns how many. None keeps them.
pub async fn expire(
    pool: &PgPool,
    age: Option<Duration>,
    anonymous_age: Option<Duration>,
) -> Result<u64, sqlx::Error> {
    let r = sqlx::query(
        "DELETE FROM simulation_jobs WHERE status IN ('done', 'failed', 'cancelled') \
         AND (finished_at < now() - make_interval(secs => $1) \
              OR (owner IS NULL AND finished_at < now() - make_interval(secs => $2)))",
    )
    .bind(age.map(|a| a.as_secs_f64()))
    .bind(anonymous_age.map(|a| a.as_secs_f64()))
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

/// Takes back a chunk whose lease ran out or that was given back: the oldest job's first.
/// Reads only the chunks not done (the partial index `simulation_chunks_open`) of the active
/// jobs, never the history; only the jobs of the worker's engine version (`$3`), or of none.
pub const RECLAIM_SQL: &str = "WITH next AS ( \
       SELECT c.job_id, c.idx FROM simulation_chunks c \
       JOIN simulation_jobs j ON j.id = c.job_id \
       WHERE c.status <> 'done' AND j.status IN ('queued', 'running') \
         AND coalesce(j.engine_version, $3) = $3 \
         AND (c.status = 'pending' OR c.lease_until < now()) \
       ORDER BY j.created_at, j.id, c.idx \
       LIMIT 1 FOR UPDATE OF c SKIP LOCKED) \
     UPDATE simulation_chunks c SET status = 'running', lease_owner = $1, \
       lease_until = now() + make_interval(secs => $2), attempts = c.attempts + 1, played = 0 \
     FROM next WHERE c.job_id = next.job_id AND c.idx = next.idx \
     RETURNING c.job_id, c.idx, c.first_game, c.end_game";

/// Cuts the next chunk of the active job with games not yet handed out that has been served
/// least, and claims it: the job's `next_game` moves on by a chunk in the same statement, so
/// two workers cutting at once get consecutive chunks (the second waits for the first's row
/// and reads its new `next_game`). Reads only the active jobs (the partial index
/// `simulation_jobs_active`) and the chunks not done (`simulation_chunks_open`).
///
/// Served least, so that a small job starts as soon as a worker finishes its chunk whatever
/// else runs (round robin, by job's kind of work alike): first the owner with the fewest
/// chunks in play (anonymous jobs are one owner), then the job with the fewest chunks in
/// play, then the fewest chunks cut so far (each about `--chunk-seconds` of play, so about
/// the least CPU time given), then the oldest. Only the jobs of the worker's engine version
/// (`$3`), or of none.
pub const CUT_SQL: &str = "WITH playing AS ( \
       SELECT c.job_id, j.owner, count(*) AS n FROM simulation_chunks c \
       JOIN simulation_jobs j ON j.id = c.job_id \
       WHERE c.status = 'running' AND j.status IN ('queued', 'running') \
       GROUP BY c.job_id, j.owner), \
     cut AS ( \
       UPDATE simulation_jobs j SET next_game = LEAST(j.next_game + j.chunk_games, j.games), \
         status = 'running', started_at = coalesce(j.started_at, now()) \
       WHERE j.id = (SELECT a.id FROM simulation_jobs a \
                     WHERE a.status IN ('queued', 'running') AND a.next_game < a.games \
                       AND coalesce(a.engine_version, $3) = $3 \
                     ORDER BY (SELECT coalesce(sum(p.n), 0) FROM playing p \
                               WHERE p.owner IS NOT DISTINCT FROM a.owner), \
                       (SELECT coalesce(sum(p.n), 0) FROM playing p WHERE p.job_id = a.id), \
                       a.next_game / a.chunk_games, a.created_at, a.id LIMIT 1) \
         AND j.status IN ('queued', 'running') AND j.next_game < j.games \
       RETURNING j.id, j.next_game AS end_game, j.chunk_games) \
     INSERT INTO simulation_chunks \
       (job_id, idx, first_game, end_game, status, lease_owner, lease_until, attempts) \
     SELECT id, ((end_game - 1) / chunk_games)::int, ((end_game - 1) / chunk_games) * chunk_games, \
       end_game, 'running', $1, now() + make_interval(secs => $2), 1 FROM cut \
     RETURNING job_id, idx, first_game, end_game";

/// How many times a claim tries again to cut a chunk when another worker took the last games
/// of the job it chose in between (there may be another job with games to hand out).
const CUT_TRIES: usize = 4;

/// Claims work: a chunk whose lease ran out (or given back) if there is one, else the next
/// chunk of the job served least ([`CUT_SQL`]); only of the jobs made by this build's engine
/// version ([`tsoro_engine::VERSION`]) or by none. None when there is no such work.
pub async fn claim(
    pool: &PgPool,
    owner: &str,
    lease: Duration,
) -> Result<Option<Claim>, sqlx::Error> {
    let secs = lease.as_secs_f64();
    let mut row = sqlx::query(RECLAIM_SQL)
        .bind(owner)
        .bind(secs)
        .bind(tsoro_engine::VERSION)
        .fetch_optional(pool)
        .await?;
    for _ in 0..CUT_TRIES {
        if row.is_some() {
            break;
        }
        row = sqlx::query(CUT_SQL)
            .bind(owner)
            .bind(secs)
            .bind(tsoro_engine::VERSION)
            .fetch_optional(pool)
            .await?;
        if row.is_none() && !uncut_work(pool).await? {
            break;
        }
    }
    let Some(row) = row else { return Ok(None) };
    let job_id: Uuid = row.try_get("job_id")?;
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

/// Whether an active job of this engine version (or of none) has games not yet handed out.
async fn uncut_work(pool: &PgPool) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM simulation_jobs \
         WHERE status IN ('queued', 'running') AND next_game < games \
           AND coalesce(engine_version, $1) = $1)",
    )
    .bind(tsoro_engine::VERSION)
    .fetch_one(pool)
    .await
}

/// Records how many games of a chunk in play are done (so the job's progress moves between
/// chunks); false when the chunk is no longer ours or its job no longer runs.
pub async fn report(
    pool: &PgPool,
    c: &Claim,
    owner: &str,
    played: u64,
) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE simulation_chunks c SET played = $4 FROM simulation_jobs j \
         WHERE c.job_id = $1 AND c.idx = $2 AND c.lease_owner = $3 AND c.status = 'running' \
           AND j.id = c.job_id AND j.status = 'running'",
    )
    .bind(c.job.id)
    .bind(c.idx)
    .bind(owner)
    .bind(played as i64)
    .execute(pool)
    .await?;
    Ok(r.rows_affected() > 0)
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

/// Gives a chunk back (pending again, for the next claim) when a worker abandons it while it
/// still holds it; drops it when its job has ended (cancelled), as a cancel drops the others.
pub async fn release(pool: &PgPool, c: &Claim, owner: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE simulation_chunks SET status = 'pending', lease_owner = NULL, lease_until = NULL, \
           played = 0 \
         WHERE job_id = $1 AND idx = $2 AND lease_owner = $3 AND status = 'running'",
    )
    .bind(c.job.id)
    .bind(c.idx)
    .bind(owner)
    .execute(pool)
    .await?;
    sqlx::query(
        "DELETE FROM simulation_chunks c USING simulation_jobs j \
         WHERE c.job_id = $1 AND c.idx = $2 AND c.status = 'pending' \
           AND j.id = c.job_id AND j.status NOT IN ('queued', 'running')",
    )
    .bind(c.job.id)
    .bind(c.idx)
    .execute(pool)
    .await?;
    Ok(())
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
    /// The records in game order, encoded ([`super::records::Encoder`]).
    pub lines: Vec<u8>,
    /// Their aggregates (a simulation's [`Summary`]; a tournament's agents' time).
    pub summary: Value,
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
    sqlx::query(
        "UPDATE simulation_jobs SET games_done = games_done + $2, paused = NULL, \
         paused_at = NULL WHERE id = $1",
    )
    .bind(c.job.id)
    .bind(games as i64)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    finish_if_complete(pool, c.job.id).await?;
    Ok(true)
}

/// Marks a job that has not ended as paused, saying why (kept until one of its chunks is
/// stored, [`complete`]); the first reason and time stay while it lasts.
pub async fn pause(pool: &PgPool, id: Uuid, why: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE simulation_jobs SET paused = $2, paused_at = coalesce(paused_at, now()) \
         WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .bind(why)
    .execute(pool)
    .await?;
    Ok(())
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

/// When every game of a running job is handed out and every chunk is done, merges the
/// chunks' aggregates and marks it done. Idempotent: two workers finishing at once compute the same thing, and every
/// aggregate is exact, so the result is the fold of all the records in game order.
pub async fn finish_if_complete(pool: &PgPool, id: Uuid) -> Result<(), sqlx::Error> {
    let Some(job) = get_job(pool, id).await? else {
        return Ok(());
    };
    if job.status != JobStatus::Running || job.next_game < job.games {
        return Ok(());
    }
    let open: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM simulation_chunks WHERE job_id = $1 AND status <> 'done'",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    if open > 0 {
        return Ok(());
    }
    if job.is_tournament() {
        return super::tournament::finish(pool, &job).await;
    }
    if job.is_nhodo() {
        return super::nhodo::finish(pool, &job).await;
    }
    let mut summary = empty_summary(&job);
    let parts: Vec<(i32, Option<Value>)> =
        sqlx::query_as("SELECT idx, summary FROM simulation_chunks WHERE job_id = $1 ORDER BY idx")
            .bind(id)
            .fetch_all(pool)
            .await?;
    for (idx, part) in parts {
        let part = part.ok_or_else(|| format!("chunk {idx} was stored without its aggregates"));
        match part.and_then(|v| serde_json::from_value::<Summary>(v).map_err(|e| e.to_string())) {
            Ok(p) => summary.merge(&p),
            Err(e) => return fail(pool, id, &format!("the job's statistics: {e}")).await,
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
        "SELECT j.id FROM simulation_jobs j \
         WHERE j.status = 'running' AND j.next_game >= j.games AND NOT EXISTS \
         (SELECT 1 FROM simulation_chunks c WHERE c.job_id = j.id AND c.status <> 'done')",
    )
    .fetch_all(pool)
    .await?;
    for id in ids {
        finish_if_complete(pool, id).await?;
    }
    Ok(())
}

/// The stored records (encoded, [`records`]) of one chunk of a job, whole.
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

/// The stored chunks of a job in game order: each one's index and how many bytes its records
/// take (read from the value's header, not its body).
pub async fn stored_chunks(pool: &PgPool, job: Uuid) -> Result<Vec<(i32, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT idx, octet_length(records)::bigint FROM simulation_chunks \
         WHERE job_id = $1 AND records IS NOT NULL ORDER BY idx",
    )
    .bind(job)
    .fetch_all(pool)
    .await
}

/// `len` bytes of a chunk's stored records from `offset` (fewer at its end): the records are
/// stored uncompressed out of line, so PostgreSQL reads only the blocks of that slice. None
/// when the chunk is gone (its job was deleted).
pub async fn chunk_slice(
    pool: &PgPool,
    job: Uuid,
    idx: i32,
    offset: i64,
    len: i64,
) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT substring(records FROM ($3 + 1)::int FOR $4::int) FROM simulation_chunks \
         WHERE job_id = $1 AND idx = $2 AND records IS NOT NULL",
    )
    .bind(job)
    .bind(idx)
    .bind(offset)
    .bind(len)
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

/// The readings studies of ruleset `ruleset` (comparisons made by `POST /api/v1/readings`),
/// newest first, at most `limit`.
pub async fn readings_studies(
    pool: &PgPool,
    ruleset: &str,
    limit: i64,
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM comparisons WHERE request -> 'readings' ->> 'ruleset' = $1 \
         ORDER BY created_at DESC, id LIMIT $2",
    )
    .bind(ruleset)
    .bind(limit)
    .fetch_all(pool)
    .await
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
