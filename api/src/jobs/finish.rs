//! Finishing a job once its last chunk is stored: its chunks' aggregates folded into its
//! result, each kind its own way ([`Kind`]), and the job marked done. Above the store (which
//! stores a chunk and nothing more) and the kinds' modules, so that none of them imports the
//! others in a circle.

use super::kind::Kind;
use super::status::JobStatus;
use super::store::{self, JobRow};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use sqlx::PgPool;
use tsoro_engine::nhodo::NhodoSummary;
use tsoro_engine::stats::Summary;
use uuid::Uuid;

/// When every game of a running job is handed out and every chunk is done, merges the
/// chunks' aggregates and marks it done. Idempotent: two workers finishing at once compute the same thing, and every
/// aggregate is exact, so the result is the fold of all the records in game order.
pub async fn if_complete(pool: &PgPool, id: Uuid) -> Result<(), sqlx::Error> {
    let Some(job) = store::get_job(pool, id).await? else {
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
    let parts: Vec<(i32, Option<Value>)> =
        sqlx::query_as("SELECT idx, summary FROM simulation_chunks WHERE job_id = $1 ORDER BY idx")
            .bind(id)
            .fetch_all(pool)
            .await?;
    // The one place the kinds are told apart when a job ends: how each makes its result
    // from its chunks' aggregates.
    let result = match job.kind {
        Kind::Simulation => fold(parts, empty_summary(&job), Summary::merge),
        Kind::Nhodo => fold(parts, NhodoSummary::default(), NhodoSummary::merge),
        Kind::Tournament => super::tournament::result(pool, &job, parts).await?,
    };
    match result {
        Ok(summary) => done(pool, id, summary).await,
        Err(e) => store::fail(pool, id, &format!("the {}'s result: {e}", job.kind.word())).await,
    }
}

/// The chunks' aggregates `parts` (in game order) merged into `acc`, as the job's summary; or
/// why they do not read.
fn fold<S: DeserializeOwned + Serialize>(
    parts: Vec<(i32, Option<Value>)>,
    mut acc: S,
    merge: impl Fn(&mut S, &S),
) -> Result<Value, String> {
    for (idx, part) in parts {
        let part = part.ok_or_else(|| format!("chunk {idx} was stored without its aggregates"))?;
        let part: S = serde_json::from_value(part).map_err(|e| format!("chunk {idx}: {e}"))?;
        merge(&mut acc, &part);
    }
    serde_json::to_value(&acc).map_err(|e| e.to_string())
}

/// Marks a running job done with its result.
async fn done(pool: &PgPool, id: Uuid, summary: Value) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE simulation_jobs SET status = 'done', summary = $2, finished_at = now() \
         WHERE id = $1 AND status = 'running'",
    )
    .bind(id)
    .bind(summary)
    .execute(pool)
    .await?;
    Ok(())
}

/// Finishes every running job whose chunks are all done (after a crash between storing the
/// last chunk and folding the statistics).
pub async fn stragglers(pool: &PgPool) -> Result<(), sqlx::Error> {
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "SELECT j.id FROM simulation_jobs j \
         WHERE j.status = 'running' AND j.next_game >= j.games AND NOT EXISTS \
         (SELECT 1 FROM simulation_chunks c WHERE c.job_id = j.id AND c.status <> 'done')",
    )
    .fetch_all(pool)
    .await?;
    for id in ids {
        if_complete(pool, id).await?;
    }
    Ok(())
}

/// The aggregates of a job's two agents, empty.
fn empty_summary(job: &JobRow) -> Summary {
    Summary::new([
        job.agents.first().cloned().unwrap_or_default(),
        job.agents.get(1).cloned().unwrap_or_default(),
    ])
}
