//! What the routes of every kind of job do alike, written once: a kind ([`Kind`]: the word
//! its problems name it by, how its rows are told apart, its view) loads one of its jobs
//! (404 for another kind's), a finished one (409 otherwise), shows it (`?wait=` to await its
//! end) and cancels or purges it; a new job is priced off the executor ([`priced`]) and
//! admitted within the limits ([`admitted`]); an export answers as CSV ([`csv`]). Each kind's
//! module keeps its handlers and their OpenAPI paths, which call these.

use super::access::Access;
use super::listing::ListQuery;
use super::problem::Problem;
use super::state::AppState;
use crate::http::client::Client;
use crate::jobs::admission::admit;
use crate::jobs::events;
use crate::jobs::events::JobEvents;
use crate::jobs::export;
use crate::jobs::fresh::Shared;
use crate::jobs::groups::{self, Group, GroupRow};
use crate::jobs::listing::{Cursor, Listed};
use crate::jobs::quota::Account;
use crate::jobs::request::JobSpec;
use crate::jobs::status::JobStatus;
use crate::jobs::store::{self, JobRow, JobUsage};
use crate::jobs::view::GroupItem;
use crate::jobs::view::Queued;
use crate::settings::JobSettings;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, web};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{Postgres, Transaction};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use uuid::Uuid;

/// A kind of job as its routes see it.
pub(super) struct Kind<V> {
    /// The word a 404 or 409 names it by: "simulation", "tournament", "nhodo run".
    pub what: &'static str,
    /// Which stored jobs are of this kind.
    pub kind: crate::jobs::kind::Kind,
    /// Only the tournaments that are ladders.
    pub ladder: bool,
    /// Its view, from its row and what its chunks add up to.
    pub view: fn(&JobRow, &JobUsage) -> V,
}

impl<V: Serialize> Kind<V> {
    /// Whether a stored job is of this kind.
    pub fn is(&self, job: &JobRow) -> bool {
        job.kind == self.kind && (!self.ladder || crate::jobs::tournament::is_ladder(job))
    }

    /// The stored job of this kind whose id is `raw` (404 otherwise).
    pub async fn load(&self, state: &AppState, raw: &str, path: &str) -> Result<JobRow, Problem> {
        let id = parse_id(raw, self.what, path)?;
        store::get_job(&state.pool, id)
            .await?
            .filter(|j| self.is(j))
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

    /// `GET` the list: the jobs of this kind `q` asks for (the caller's own unless an
    /// admin), newest first, with the cursor of the next page.
    pub async fn list(
        &self,
        req: &HttpRequest,
        access: &Access,
        state: &AppState,
        q: &ListQuery,
    ) -> Result<HttpResponse, Problem> {
        let filter = q.filter(access, req.path())?;
        let ladder = self.ladder.then_some(true);
        let jobs = store::list_jobs(&state.pool, &filter, &[self.kind], ladder, false).await?;
        let ids: Vec<Uuid> = jobs.iter().map(|j| j.id).collect();
        let usage = store::usage(&state.pool, &ids).await?;
        let last = jobs.last().map(|j| Cursor::after(j.created_at, j.id));
        let items: Vec<V> = jobs
            .iter()
            .map(|j| (self.view)(j, &usage.get(&j.id).copied().unwrap_or_default()))
            .collect();
        Ok(HttpResponse::Ok().json(Listed::new(items, filter.limit, last)))
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
            Some(j) if self.is(&j.0) => Ok(HttpResponse::Ok().json((self.view)(&j.0, &j.1))),
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
/// one comparison holding `request`, once admitted together as one job with their estimate
/// together ([`admitted`]): the group's id, its jobs in the order of `specs`, and the queue
/// position.
pub(super) async fn queued_group(
    state: &AppState,
    limits: &JobSettings,
    account: &Account,
    specs: &[JobSpec],
    request: &serde_json::Value,
    path: &str,
) -> Result<(Uuid, Vec<JobRow>, i64), Problem> {
    let cost = specs.iter().map(|s| s.cost).sum();
    let (mut tx, queue_position) = admitted(state, limits, account, 1, cost, path).await?;
    let id = store::create_comparison(&mut tx, request).await?;
    let mut jobs = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        jobs.push(store::create_job(&mut tx, spec, Some((id, i as i32)), account).await?);
    }
    tx.commit().await?;
    Ok((id, jobs, queue_position))
}

/// A 200 answering CSV, to be saved as `file` (the path its data package gives it).
pub(super) fn csv(file: &str) -> HttpResponseBuilder {
    let mut r = HttpResponse::Ok();
    r.content_type("text/csv; charset=utf-8")
        .insert_header(export::attachment(file));
    r
}

/// A run's id from its path, or 404 naming `what`.
pub(super) fn parse_id(raw: &str, what: &str, path: &str) -> Result<Uuid, Problem> {
    raw.parse::<Uuid>()
        .map_err(|_| Problem::not_found(format!("no {what} {raw:?}: ids are UUIDs")).at(path))
}

/// The 202 of a POST that queued jobs: `Location` and the view of what was queued (which
/// carries its `estimate`), with the `queue_position` [`admit`] found.
pub(super) fn accepted<T: serde::Serialize>(
    location: String,
    view: T,
    queue_position: i64,
) -> HttpResponse {
    HttpResponse::Accepted()
        .insert_header(("Location", location))
        .json(Queued {
            view,
            queue_position,
        })
}

/// The account a new job of this caller counts against: its token's holder (`owner`), or
/// the client's address.
pub(super) fn account(owner: Option<String>, client: Client) -> Account {
    Account {
        owner,
        client: client.0,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
/// `?wait=` seconds.
pub struct WaitQuery {
    /// Seconds to wait for the job to end (0 to [`MAX_WAIT_SECS`]).
    wait: Option<u64>,
}

/// The longest `?wait=` a request may ask for, in seconds.
pub const MAX_WAIT_SECS: u64 = 60;

impl WaitQuery {
    /// How long to wait: 0 when not asked; over [`MAX_WAIT_SECS`], 400 naming `wait` (for
    /// simulations and comparisons alike).
    pub(super) fn duration(&self, path: &str) -> Result<Duration, Problem> {
        let wait = self.wait.unwrap_or(0);
        if wait > MAX_WAIT_SECS {
            return Err(Problem::bad_request(format!(
                "wait = {wait}: at most {MAX_WAIT_SECS} seconds"
            ))
            .with_error("wait", format!("0..={MAX_WAIT_SECS}"))
            .at(path));
        }
        Ok(Duration::from_secs(wait))
    }
}

/// A job's row and usage as the long polls of it share them (None: no such job).
pub type SharedJob = Option<Arc<(JobRow, store::JobUsage)>>;

/// The reads of jobs the long polls share ([`crate::jobs::fresh`]).
pub type JobReads = Shared<Uuid, SharedJob>;

/// The job as a read begun after its last heard change shows it: one read (two queries) for
/// all who ask at once.
async fn shared_job(
    state: &AppState,
    events: &JobEvents,
    reads: &JobReads,
    id: Uuid,
) -> Result<SharedJob, Problem> {
    let read = || async {
        let Some(job) = store::get_job(&state.pool, id).await? else {
            return Ok(None);
        };
        let usage = store::usage(&state.pool, &[id]).await?;
        let usage = usage.get(&id).copied().unwrap_or_default();
        Ok::<_, sqlx::Error>(Some(Arc::new((job, usage))))
    };
    Ok(reads.get(id, events.changed_at(id), read).await?)
}

/// Awaits job `id`'s end for at most `wait`: woken by its status change, when it looks again
/// through the read all its waiters share ([`shared_job`]); its state when it ended, or at
/// the deadline (None: no such job).
pub(super) async fn await_job(
    state: &AppState,
    events: &JobEvents,
    reads: &JobReads,
    id: Uuid,
    wait: Duration,
) -> Result<SharedJob, Problem> {
    let deadline = tokio::time::Instant::now() + wait;
    // Subscribed before the first look, so that no change between the two is missed.
    let mut changes = events.subscribe();
    loop {
        let job = shared_job(state, events, reads, id).await?;
        match &job {
            Some(j) if !j.0.status.is_ended() && tokio::time::Instant::now() < deadline => {}
            _ => return Ok(job),
        }
        let look_again = (tokio::time::Instant::now() + events::FALLBACK).min(deadline);
        loop {
            match tokio::time::timeout_at(look_again, changes.recv()).await {
                Ok(Ok(changed)) if changed != id => continue,
                Ok(Err(broadcast::error::RecvError::Closed)) => {
                    tokio::time::sleep_until(look_again).await;
                    break;
                }
                // Ours, news lost (lagged: its time is kept all the same), or time to look.
                _ => break,
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
/// `?purge=true`: delete rather than cancel.
pub struct DeleteQuery {
    #[serde(default)]
    pub(super) purge: bool,
}

/// An export's body as actix streams it: a failure once it has started can only end the
/// response early (logged as an internal error).
pub(super) fn streamed<E: std::fmt::Display>(
    body: impl futures_util::Stream<Item = Result<Vec<u8>, E>>,
) -> impl futures_util::Stream<Item = Result<web::Bytes, actix_web::Error>> {
    use futures_util::StreamExt;
    body.map(|piece| {
        piece
            .map(web::Bytes::from)
            .map_err(|e| actix_web::error::ErrorInternalServerError(e.to_string()))
    })
}

/// `GET` the list of comparisons or readings studies: those `q` asks for (the caller's own
/// unless an admin), newest first, as one line each.
pub(super) async fn list_groups(
    req: &HttpRequest,
    access: &Access,
    state: &AppState,
    q: &ListQuery,
    group: Group,
) -> Result<HttpResponse, Problem> {
    let filter = q.filter(access, req.path())?;
    let rows = groups::list(&state.pool, group, &filter).await?;
    let last = rows.last().map(GroupRow::cursor);
    let items: Vec<GroupItem> = rows.iter().map(|g| GroupItem::of(g, group)).collect();
    Ok(HttpResponse::Ok().json(Listed::new(items, filter.limit, last)))
}

/// `DELETE` a comparison or readings study as one job: its runs, whoever may manage them
/// (their owner or an admin), cancelled together (`None`: the caller answers with its
/// view; 409 when none was still queued or running), or with `purge` deleted with all
/// they stored (the answer: its `id`, `deleted`, `status_before` and `freed_bytes`).
pub(super) async fn cancel_group(
    state: &AppState,
    access: &Access,
    id: Uuid,
    purge: bool,
    group: Group,
    path: &str,
) -> Result<Option<HttpResponse>, Problem> {
    let jobs = store::comparison_jobs(&state.pool, id).await?;
    let held = store::get_comparison(&state.pool, id)
        .await?
        .filter(|(request, _)| group.holds(request));
    if held.is_none() || jobs.is_empty() {
        return Err(Problem::not_found(format!("no {} {id}", group.word())).at(path));
    }
    for j in &jobs {
        access.may_manage(j.owner.as_deref())?;
    }
    let before = crate::jobs::view::comparison_status(&jobs);
    if purge {
        let freed = groups::purge(&state.pool, id).await?.unwrap_or(0);
        return Ok(Some(HttpResponse::Ok().json(json!({
            "id": id,
            "deleted": true,
            "status_before": before,
            "freed_bytes": freed,
        }))));
    }
    if groups::cancel(&state.pool, id).await? == 0 {
        return Err(Problem::of(
            &crate::http::problem::JOB_FINISHED,
            format!("the {} is already {before}", group.word()),
        )
        .at(path));
    }
    Ok(None)
}
