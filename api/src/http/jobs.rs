//! Simulations and comparisons as jobs, and their exports.

use super::job_kind::{Kind, admitted, csv, priced, queued_group};
use crate::http::access::Access;
use crate::http::client::Client;
use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::events::{self, JobEvents};
use crate::jobs::export;
use crate::jobs::fresh::Shared;
use crate::jobs::paired::{PairedCache, PairedError};
use crate::jobs::quota::Account;
use crate::jobs::request;
use crate::jobs::status::JobStatus;
use crate::jobs::store::{self, JobRow};
use crate::jobs::view::{
    self, ComparisonView, JobGame, JobList, JobView, Queued, SummaryView, job_url,
};
use crate::runs::plan::{ComparisonRequest, RunRequest};
use crate::settings::JobSettings;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use uuid::Uuid;

pub(super) fn parse_id(raw: &str, what: &str, path: &str) -> Result<Uuid, Problem> {
    raw.parse::<Uuid>()
        .map_err(|_| Problem::not_found(format!("no {what} {raw:?}: ids are UUIDs")).at(path))
}

/// Simulations (of a comparison or not).
const SIMULATION: Kind<JobView> = Kind {
    what: "simulation",
    is: JobRow::is_simulation,
    view: JobView::of,
};

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

#[utoipa::path(post, path = "/api/v1/simulations", tag = "simulations",
    request_body = RunRequest,
    responses(
        (status = 202, description = "Queued; the job (its `url` also in `Location`), its estimated cost (`estimate`) and how many jobs were queued or running before it (`queue_position`)", body = Queued<JobView>),
        (status = 400, description = "A malformed body", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "A body over the size limit", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A parameter out of range, an unknown ruleset or agent, too many games, or an estimated cost over the budget (`--max-job-cost`; the problem's `estimated_cost`, `per_game_cost` and `max_job_cost`, in core-seconds)", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many jobs queued or running (`--max-jobs`), or the owner's quota of jobs or outstanding work is reached (`--max-owner-jobs`, `--max-owner-cost`: `/problems/over-quota`, with `limit` and the figures); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 507, description = "The owner's jobs store as many bytes as one owner may (`--max-owner-bytes`; `stored_bytes`, `max_owner_bytes`): delete some first", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Starting a job needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))), (status = 403, description = "The token is a reader's (starting jobs needs runner or admin), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = [])))]
/// Queues a simulation job (202 with its URL; owned by the token's holder).
pub async fn create(
    req: HttpRequest,
    access: Access,
    client: Client,
    state: web::Data<AppState>,
    limits: web::Data<JobSettings>,
    body: crate::http::extract::JsonObject<RunRequest>,
) -> Result<HttpResponse, Problem> {
    let account = account(access.may_create()?, client);
    let (b, l) = (body.into_inner(), limits.clone());
    let spec = priced(req.path(), move || request::check(&b, &l)).await?;
    let (mut tx, queue_position) =
        admitted(&state, &limits, &account, 1, spec.cost, req.path()).await?;
    let job = store::create_job(&mut tx, &spec, None, &account).await?;
    tx.commit().await?;
    Ok(accepted(
        job_url(job.id),
        JobView::of(&job, &store::JobUsage::default()),
        queue_position,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
/// Filters of the job list.
pub struct ListQuery {
    status: Option<String>,
    ruleset: Option<String>,
    limit: Option<i64>,
}

/// The views of stored jobs, with what their chunks add up to (one query for them all).
async fn views(state: &AppState, jobs: &[JobRow]) -> Result<Vec<JobView>, Problem> {
    let ids: Vec<Uuid> = jobs.iter().map(|j| j.id).collect();
    let usage = store::usage(&state.pool, &ids).await?;
    Ok(jobs
        .iter()
        .map(|j| JobView::of(j, &usage.get(&j.id).copied().unwrap_or_default()))
        .collect())
}

/// The form of a ruleset id (the `ruleset` filter's schema states the same pattern).
const RULESET_ID_PATTERN: &str = "^[a-z0-9][a-z0-9-]*$";

/// Whether `s` has the form of a ruleset id ([`RULESET_ID_PATTERN`]).
fn is_ruleset_id(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[utoipa::path(get, path = "/api/v1/simulations", tag = "simulations",
    params(("status" = Option<JobStatus>, Query, description = "Only the jobs with this status"),
           ("ruleset" = Option<String>, Query, description = "A ruleset id", pattern = "^[a-z0-9][a-z0-9-]*$"),
           ("limit" = Option<i64>, Query, description = "At most this many, newest first", minimum = 1, maximum = 500)),
    responses((status = 200, description = "Jobs, newest first: everyone's for an admin token (or anyone, on a service without tokens that takes anonymous writes), the holder's own for another token", body = JobList), (status = 400, description = "A bad filter", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 401, description = "Listing jobs needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`")))),
    security((), ("bearer" = [])))]
/// Lists jobs, newest first, by status and ruleset (the caller's own unless an admin).
pub async fn list(
    req: HttpRequest,
    access: Access,
    state: web::Data<AppState>,
    q: web::Query<ListQuery>,
) -> Result<HttpResponse, Problem> {
    let scope = access.list_scope()?;
    let status = match q.status.as_deref().map(str::parse::<JobStatus>) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            let all: Vec<&str> = JobStatus::ALL.iter().map(|s| s.as_str()).collect();
            return Err(Problem::bad_request(e.to_string())
                .with_error("status", all.join("|"))
                .at(req.path()));
        }
    };
    let limit = q.limit.unwrap_or(50);
    if !(1..=500).contains(&limit) {
        return Err(Problem::bad_request(format!("limit = {limit}: 1 to 500"))
            .with_error("limit", "1..=500")
            .at(req.path()));
    }
    if let Some(r) = q.ruleset.as_deref()
        && !is_ruleset_id(r)
    {
        return Err(Problem::bad_request(format!(
            "ruleset = {r:?}: a ruleset id is lowercase letters, digits and hyphens"
        ))
        .with_error("ruleset", RULESET_ID_PATTERN)
        .at(req.path()));
    }
    let jobs = store::list_jobs(
        &state.pool,
        scope.owner(),
        status,
        q.ruleset.as_deref(),
        limit,
        &["simulation"],
    )
    .await?;
    Ok(HttpResponse::Ok().json(JobList {
        items: views(&state, &jobs).await?,
    }))
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

#[utoipa::path(get, path = "/api/v1/simulations/{id}", tag = "simulations",
    params(("id" = String, Path, description = "Job id"), ("wait" = Option<u64>, Query, description = "Seconds (at most 60) to wait for the job to end", maximum = 60)),
    responses((status = 200, description = "Status, progress (games/s, ETA) and, when done, the statistics", body = JobView), (status = 404, description = "No such job", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A job's status, progress and, when done, its statistics (`?wait=` to await it: woken by
/// the job's status change, see [`super::events`]).
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    events: web::Data<JobEvents>,
    reads: web::Data<JobReads>,
    path: web::Path<String>,
    q: web::Query<WaitQuery>,
) -> Result<HttpResponse, Problem> {
    SIMULATION
        .show(&req, &state, &events, &reads, &path, &q)
        .await
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

#[utoipa::path(delete, path = "/api/v1/simulations/{id}", tag = "simulations", params(("id" = String, Path, description = "Job id"), ("purge" = Option<bool>, Query, description = "Delete the job and everything it stored (whatever its status; a running job stops), answering its id and `freed_bytes`")),
    responses((status = 200, description = "Cancelled: the job (a `JobView`); with `purge=true`, deleted: its `id`, `deleted`, `status_before` and `freed_bytes` (the bytes its records and aggregates took as stored, which PostgreSQL reuses for new records; its files shrink only when compacted, `VACUUM FULL`)", body = Object), (status = 409, description = "Already ended (without `purge`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 404, description = "No such job", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 401, description = "Stopping or deleting a job needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))), (status = 403, description = "Another's job (stopping or deleting it needs an admin token), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
/// Cancels a job; with `?purge=true`, deletes it and everything it stored.
pub async fn cancel(
    req: HttpRequest,
    access: Access,
    state: web::Data<AppState>,
    path: web::Path<String>,
    q: web::Query<DeleteQuery>,
) -> Result<HttpResponse, Problem> {
    SIMULATION
        .cancel(&req, &access, &state, &path, q.purge, "job")
        .await
}

#[utoipa::path(get, path = "/api/v1/simulations/{id}/games.csv", tag = "simulations", params(("id" = String, Path, description = "Job id")),
    responses((status = 200, description = "Every game's record, streamed: the columns of `tsoro simulate --csv`", body = String, content_type = "text/csv", headers(("Content-Disposition" = String, description = "`attachment; filename=\"games.csv\"`: the path the data package gives"))), (status = 404, description = "No such job", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The job is not done", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 429, description = "This client streams as many exports as one client may (`--max-client-exports`); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 503, description = "Too many exports streaming (`--max-exports`), or the database is unavailable; `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// Every game's record of a finished job, as CSV, streamed.
pub async fn games_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    exports: web::Data<export::Exports>,
    client: Client,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = SIMULATION.load_done(&state, &path, req.path()).await?;
    let conn = crate::http::client::socket_of(&req);
    let body = export::games_csv(&exports, &job, &client.0, conn)
        .await
        .map_err(|e| Problem::from(e).at(req.path()))?;
    Ok(csv(Some(export::GAMES_FILE)).streaming(streamed(body)))
}

#[utoipa::path(get, path = "/api/v1/simulations/{id}/games/{game}", tag = "simulations",
    params(("id" = String, Path, description = "Job id"), ("game" = u64, Path, description = "The game's index in the run (0-based)")),
    responses((status = 200, description = "The game's actions, as `/replay` takes them (played again from the job's inputs and the game's seed; kept, and answered again without playing)", body = JobGame), (status = 404, description = "No such job, or no such game in it", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 422, description = "Agents too strong to replay on request, or a game stopped after `--request-seconds`", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 503, description = "As many CPU-bound requests are running as the service allows (`--max-cpu-requests`); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// One game of a job, move by move, to replay or show on the board.
pub async fn game_moves(
    req: HttpRequest,
    state: web::Data<AppState>,
    slots: web::Data<crate::compute::Slots>,
    cache: web::Data<crate::jobs::game::GameCache>,
    path: web::Path<(String, u64)>,
) -> Result<HttpResponse, Problem> {
    let (id, k) = path.into_inner();
    let job = SIMULATION.load(&state, &id, req.path()).await?;
    let body = match cache.get(job.id, k) {
        Some(body) => body,
        None => {
            let id = job.id;
            let v = slots
                .run(move || crate::jobs::game::job_game(&job, k))
                .await
                .map_err(|e| crate::http::errors::compute(e, "game").at(req.path()))?
                .map_err(|e| Problem::from(e).at(req.path()))?;
            let body = std::sync::Arc::new(serde_json::to_vec(&v).map_err(Problem::internal)?);
            cache.put(id, k, body.clone());
            body
        }
    };
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(body.as_ref().clone()))
}

#[utoipa::path(get, path = "/api/v1/simulations/{id}/games.json", tag = "simulations", params(("id" = String, Path, description = "Job id")),
    responses((status = 200, description = "Every game's record, streamed", body = Vec<Object>), (status = 404, description = "No such job", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The job is not done", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 429, description = "This client streams as many exports as one client may (`--max-client-exports`); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 503, description = "Too many exports streaming (`--max-exports`), or the database is unavailable; `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// Every game's record of a finished job, as JSON, streamed.
pub async fn games_json(
    req: HttpRequest,
    state: web::Data<AppState>,
    exports: web::Data<export::Exports>,
    client: Client,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = SIMULATION.load_done(&state, &path, req.path()).await?;
    let conn = crate::http::client::socket_of(&req);
    let body = export::games_json(&exports, &job, &client.0, conn)
        .await
        .map_err(|e| Problem::from(e).at(req.path()))?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .streaming(streamed(body)))
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

#[utoipa::path(get, path = "/api/v1/simulations/{id}/summary.csv", tag = "simulations", params(("id" = String, Path, description = "Job id")),
    responses((status = 200, description = "The statistics, one metric per row", body = String, content_type = "text/csv", headers(("Content-Disposition" = String, description = "`attachment; filename=\"summary.csv\"`: the path the data package gives"))), (status = 404, description = "No such job", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The job is not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A finished job's statistics, one metric per row.
pub async fn summary_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = SIMULATION.load_done(&state, &path, req.path()).await?;
    let stats =
        export::stats_of(&job).ok_or_else(|| Problem::internal("a done job without a summary"))?;
    let body = export::summary_csv_bytes(&job, &stats).map_err(Problem::internal)?;
    Ok(csv(Some(export::SUMMARY_FILE)).body(body))
}

#[utoipa::path(get, path = "/api/v1/simulations/{id}/summary.json", tag = "simulations", params(("id" = String, Path, description = "Job id")),
    responses((status = 200, description = "The statistics", body = SummaryView), (status = 404, description = "No such job", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The job is not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A finished job's statistics.
pub async fn summary_json(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = SIMULATION.load_done(&state, &path, req.path()).await?;
    Ok(HttpResponse::Ok().json(SummaryView::of(&job)))
}

#[utoipa::path(get, path = "/api/v1/simulations/{id}/datapackage.json", tag = "simulations", operation_id = "simulation_datapackage", params(("id" = String, Path, description = "Job id")),
    responses((status = 200, description = "A Frictionless Tabular Data Package describing games.csv and summary.csv", body = Object, headers(("Content-Disposition" = String, description = "`attachment; filename=\"datapackage.json\"`: saved beside games.csv and summary.csv, the three form the package"))), (status = 404, description = "No such job", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// The Frictionless data package describing a job's exports.
pub async fn datapackage(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = SIMULATION.load(&state, &path, req.path()).await?;
    Ok(HttpResponse::Ok()
        .insert_header(export::attachment(export::PACKAGE_FILE))
        .json(export::datapackage(&job)))
}

#[utoipa::path(post, path = "/api/v1/comparisons", tag = "simulations",
    request_body = ComparisonRequest,
    responses((status = 202, description = "One job per ruleset, on the same seeds (its `url` also in `Location`), their estimated cost together (`estimate`) and how many jobs were queued or running before them (`queue_position`)", body = Queued<ComparisonView>), (status = 400, description = "A malformed body", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 422, description = "A bad ruleset, parameter or agent, or a run over the budget (`--max-job-cost`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 429, description = "Too many jobs (`--max-jobs`), or the owner's quota of jobs or outstanding work is reached (`/problems/over-quota`, with `limit` and the figures); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 507, description = "The owner's jobs store as many bytes as one owner may (`--max-owner-bytes`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 401, description = "Starting a comparison needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))), (status = 403, description = "The token is a reader's (starting jobs needs runner or admin), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
/// Queues one job per ruleset, on the same seeds.
pub async fn create_comparison(
    req: HttpRequest,
    access: Access,
    client: Client,
    state: web::Data<AppState>,
    limits: web::Data<JobSettings>,
    body: crate::http::extract::JsonObject<ComparisonRequest>,
) -> Result<HttpResponse, Problem> {
    let account = account(access.may_create()?, client);
    let (b, l) = (body.into_inner(), limits.clone());
    let (b, specs) = priced(req.path(), move || {
        request::check_comparison(&b, &l).map(|specs| (b, specs))
    })
    .await?;
    let request = serde_json::to_value(&b).unwrap_or_default();
    let (cid, jobs, queue_position) =
        queued_group(&state, &limits, &account, &specs, &request, req.path()).await?;
    let url = view::comparison_url(cid);
    // The comparison as queued (workers may start it as soon as it is committed).
    let view = ComparisonView::of(cid, &jobs, &Default::default(), None);
    Ok(accepted(url, view, queue_position))
}

async fn comparison_view(
    state: &AppState,
    cache: &PairedCache,
    id: Uuid,
) -> Result<ComparisonView, Problem> {
    let jobs = store::comparison_jobs(&state.pool, id).await?;
    let ids: Vec<Uuid> = jobs.iter().map(|j| j.id).collect();
    let usage = store::usage(&state.pool, &ids).await?;
    let paired = paired_figures(state, cache, id, &jobs).await?;
    Ok(ComparisonView::of(
        id,
        &jobs,
        &usage,
        paired.as_deref().map(|f| &f.diffs[..]),
    ))
}

/// A comparison's paired figures once its runs are all done.
pub async fn paired_figures(
    state: &AppState,
    cache: &PairedCache,
    id: Uuid,
    jobs: &[JobRow],
) -> Result<Option<std::sync::Arc<crate::jobs::paired::Figures>>, Problem> {
    cache.get(&state.pool, id, jobs).await.map_err(|e| match e {
        PairedError::Database(e) => Problem::from(e),
        e => Problem::internal(e),
    })
}

#[utoipa::path(get, path = "/api/v1/comparisons/{id}", tag = "simulations", params(("id" = String, Path, description = "Comparison id"), ("wait" = Option<u64>, Query, description = "Seconds (at most 60) to wait for the comparison's runs to end", maximum = 60)),
    responses((status = 200, description = "The runs side by side, with differences, intervals and p-values when done", body = ComparisonView), (status = 404, description = "No such comparison", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A comparison: its runs side by side with the differences.
pub async fn show_comparison(
    req: HttpRequest,
    state: web::Data<AppState>,
    events: web::Data<JobEvents>,
    cache: web::Data<PairedCache>,
    reads: web::Data<ComparisonReads>,
    path: web::Path<String>,
    q: web::Query<WaitQuery>,
) -> Result<HttpResponse, Problem> {
    let id = parse_id(&path, "comparison", req.path())?;
    if store::get_comparison(&state.pool, id).await?.is_none() {
        return Err(Problem::not_found(format!("no comparison {id}")).at(req.path()));
    }
    let wait = q.duration(req.path())?;
    if wait.is_zero() {
        return Ok(HttpResponse::Ok().json(comparison_view(&state, &cache, id).await?));
    }
    let deadline = tokio::time::Instant::now() + wait;
    let mut changes = events.subscribe();
    loop {
        // One read for all its waiters, begun after the last change heard of any job.
        let read = || async { comparison_view(&state, &cache, id).await.map(Arc::new) };
        let view = reads.get(id, events.any_changed_at(), read).await?;
        if view.status.is_ended() || tokio::time::Instant::now() >= deadline {
            return Ok(HttpResponse::Ok().json(view.as_ref()));
        }
        // Any job's change, then a look (a comparison's runs are few).
        let look_again = (tokio::time::Instant::now() + events::FALLBACK).min(deadline);
        if let Ok(Err(broadcast::error::RecvError::Closed)) =
            tokio::time::timeout_at(look_again, changes.recv()).await
        {
            tokio::time::sleep_until(look_again).await;
        }
    }
}

/// The reads of comparisons their long polls share ([`crate::jobs::fresh`]).
pub type ComparisonReads = Shared<Uuid, Arc<ComparisonView>>;

#[utoipa::path(get, path = "/api/v1/comparisons/{id}/table.csv", tag = "simulations", params(("id" = String, Path, description = "Comparison id")),
    responses((status = 200, description = "The comparison table", body = String, content_type = "text/csv"), (status = 404, description = "No such comparison", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "Not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A comparison's table as CSV: each run's figures, and each later run against the first,
/// paired game by game.
pub async fn comparison_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    cache: web::Data<PairedCache>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let id = parse_id(&path, "comparison", req.path())?;
    let jobs = store::comparison_jobs(&state.pool, id).await?;
    if jobs.is_empty() {
        return Err(Problem::not_found(format!("no comparison {id}")).at(req.path()));
    }
    let stats: Vec<_> = jobs.iter().filter_map(export::stats_of).collect();
    let paired = paired_figures(&state, &cache, id, &jobs).await?;
    let (Some(diffs), true) = (paired, stats.len() == jobs.len()) else {
        return Err(Problem::of(
            &crate::http::problem::JOB_NOT_DONE,
            "the comparison's runs are not all done",
        )
        .at(req.path()));
    };
    let labels: Vec<_> = jobs.iter().map(export::label).collect();
    let mut out = Vec::new();
    let diffs: Vec<_> = diffs.diffs.iter().map(|d| d.paired).collect();
    crate::runs::csv::compare_csv(&mut out, &labels, &stats, &diffs).map_err(Problem::internal)?;
    Ok(csv(None).body(out))
}
