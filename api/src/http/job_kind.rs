//! What the routes of every kind of job do alike, written once: a kind ([`Kind`]: the word
//! its problems name it by, how its rows are told apart, its view) loads one of its jobs
//! (404 for another kind's), a finished one (409 otherwise), shows it (`?wait=` to await its
//! end) and cancels or purges it; a new job is priced off the executor ([`priced`]) and
//! admitted within the limits ([`admitted`]); an export answers as CSV ([`csv`]). Each kind's
//! module keeps its handlers and their OpenAPI paths, which call these.

use super::access::Access;
use super::jobs::{JobReads, WaitQuery, await_job, parse_id};
use super::problem::Problem;
use super::state::AppState;
use crate::jobs::admission::admit;
use crate::jobs::events::JobEvents;
use crate::jobs::export;
use crate::jobs::quota::Account;
use crate::jobs::request::JobSpec;
use crate::jobs::status::JobStatus;
use crate::jobs::store::{self, JobRow, JobUsage};
use crate::settings::JobSettings;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, web};
use serde::Serialize;
use serde_json::json;
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

/// A kind of job as its routes see it.
pub(super) struct Kind<V> {
    /// The word a 404 or 409 names it by: "simulation", "tournament", "nhodo run".
    pub what: &'static str,
    /// Whether a stored job is of this kind.
    pub is: fn(&JobRow) -> bool,
    /// Its view, from its row and what its chunks add up to.
    pub view: fn(&JobRow, &JobUsage) -> V,
}

impl<V: Serialize> Kind<V> {
    /// The stored job of this kind whose id is `raw` (404 otherwise).
    pub async fn load(&self, state: &AppState, raw: &str, path: &str) -> Result<JobRow, Problem> {
        let id = parse_id(raw, self.what, path)?;
        store::get_job(&state.pool, id)
            .await?
            .filter(self.is)
            .ok_or_else(|| Problem::not_found(format!("no {} {id}", self.what)).at(path))
    }

    /// The finished job of this kind whose id is `raw`, or 409 naming its progress.
    pub async fn load_done(
        &self,
        state: &AppState,
        raw: &str,
        path: &str,
    ) -> Result<JobRow, Problem> {
        let job = self.load(state, raw, path).await?;
        if job.status != JobStatus::Done {
            return Err(Problem::of(
                &crate::http::problem::JOB_NOT_DONE,
                format!(
                    "the {} is {} ({} of {} games); its data is exported when it is done",
                    self.what, job.status, job.games_done, job.games
                ),
            )
            .at(path));
        }
        Ok(job)
    }

    /// The view of one stored job of this kind.
    pub async fn view_of(&self, state: &AppState, job: &JobRow) -> Result<V, Problem> {
        let usage = store::usage(&state.pool, &[job.id]).await?;
        Ok((self.view)(
            job,
            &usage.get(&job.id).copied().unwrap_or_default(),
        ))
    }

    /// `GET` one: its view now, or with `?wait=` once it has ended (woken by its status
    /// change) or the wait is over.
    pub async fn show(
        &self,
        req: &HttpRequest,
        state: &AppState,
        events: &JobEvents,
        reads: &JobReads,
        raw: &str,
        q: &WaitQuery,
    ) -> Result<HttpResponse, Problem> {
        let wait = q.duration(req.path())?;
        if wait.is_zero() {
            let job = self.load(state, raw, req.path()).await?;
            return Ok(HttpResponse::Ok().json(self.view_of(state, &job).await?));
        }
        let id = parse_id(raw, self.what, req.path())?;
        match await_job(state, events, reads, id, wait).await? {
            Some(j) if (self.is)(&j.0) => Ok(HttpResponse::Ok().json((self.view)(&j.0, &j.1))),
            _ => Err(Problem::not_found(format!("no {} {id}", self.what)).at(req.path())),
        }
    }

    /// `DELETE` one: cancelled (answering its view; 409 naming it `word` when it had already
    /// ended), or with `purge` deleted with all it stored (see [`cancel_or_purge`]).
    pub async fn cancel(
        &self,
        req: &HttpRequest,
        access: &Access,
        state: &AppState,
        raw: &str,
        purge: bool,
        word: &str,
    ) -> Result<HttpResponse, Problem> {
        let job = self.load(state, raw, req.path()).await?;
        if let Some(purged) = cancel_or_purge(state, access, &job, purge, word, req.path()).await? {
            return Ok(purged);
        }
        let job = self.load(state, raw, req.path()).await?;
        Ok(HttpResponse::Ok().json(self.view_of(state, &job).await?))
    }
}

/// Checks `access` may manage `job`, then with `purge` deletes it (the answer: its id,
/// `deleted`, `status_before` and `freed_bytes`), else cancels it (`None`: the caller answers
/// with its view) or gives 409 when the `what` had already ended.
async fn cancel_or_purge(
    state: &AppState,
    access: &Access,
    job: &JobRow,
    purge: bool,
    what: &str,
    path: &str,
) -> Result<Option<HttpResponse>, Problem> {
    access.may_manage(job.owner.as_deref())?;
    if purge {
        let freed = store::purge(&state.pool, job.id).await?.unwrap_or(0);
        return Ok(Some(HttpResponse::Ok().json(json!({
            "id": job.id,
            "deleted": true,
            "status_before": job.status,
            "freed_bytes": freed,
        }))));
    }
    if !store::cancel(&state.pool, job.id).await? {
        return Err(Problem::of(
            &crate::http::problem::JOB_FINISHED,
            format!("the {what} is already {}", job.status),
        )
        .at(path));
    }
    Ok(None)
}

/// A new job's request checked and priced off the async executor (pricing may play sample
/// games): what `check` gives, or its problem at `path`.
pub(super) async fn priced<T, E>(
    path: &str,
    check: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, Problem>
where
    T: Send + 'static,
    E: Send + 'static,
    Problem: From<E>,
{
    web::block(check)
        .await
        .map_err(Problem::internal)?
        .map_err(|e| Problem::from(e).at(path))
}

/// The transaction that stores `new` jobs costing `cost` core-seconds together, admitted
/// within the service's and `account`'s limits (their problem at `path` otherwise), and the
/// queue position [`admit`] found.
pub(super) async fn admitted(
    state: &AppState,
    limits: &JobSettings,
    account: &Account,
    new: i64,
    cost: f64,
    path: &str,
) -> Result<(Transaction<'static, Postgres>, i64), Problem> {
    let mut tx = state.pool.begin().await?;
    let queue_position = admit(&mut tx, limits, account, new, cost)
        .await
        .map_err(|e| Problem::from(e).at(path))?;
    Ok((tx, queue_position))
}

/// A group of jobs run on the same seeds (a comparison's, a readings study's) stored under
/// one comparison holding `request`, once admitted together ([`admitted`]): the group's id,
/// its jobs in the order of `specs`, and the queue position.
pub(super) async fn queued_group(
    state: &AppState,
    limits: &JobSettings,
    account: &Account,
    specs: &[JobSpec],
    request: &serde_json::Value,
    path: &str,
) -> Result<(Uuid, Vec<JobRow>, i64), Problem> {
    let cost = specs.iter().map(|s| s.cost).sum();
    let new = specs.len() as i64;
    let (mut tx, queue_position) = admitted(state, limits, account, new, cost, path).await?;
    let id = store::create_comparison(&mut tx, request).await?;
    let mut jobs = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        jobs.push(store::create_job(&mut tx, spec, Some((id, i as i32)), account).await?);
    }
    tx.commit().await?;
    Ok((id, jobs, queue_position))
}

/// A 200 answering CSV, to be saved as `file` when it names one (the data package's path).
pub(super) fn csv(file: Option<&str>) -> HttpResponseBuilder {
    let mut r = HttpResponse::Ok();
    r.content_type("text/csv; charset=utf-8");
    if let Some(file) = file {
        r.insert_header(export::attachment(file));
    }
    r
}
