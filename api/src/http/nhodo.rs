//! Nhodo runs as jobs: queued, awaited, cancelled or deleted, and exported, on the same
//! durable machinery as simulations ([`crate::jobs`]); a nhodo run has no agents, so it is
//! a resource of its own (`/api/v1/nhodo`), not a simulation.

use super::job_kind::{Kind, admitted, csv, priced};
use super::jobs::{DeleteQuery, JobReads, WaitQuery, accepted, account, streamed};
use crate::http::access::Access;
use crate::http::client::Client;
use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::export;
use crate::jobs::nhodo::{self, NhodoView, nhodo_url};
use crate::jobs::store::{self, JobRow};
use crate::jobs::view::Queued;
use crate::runs::nhodo::{NhodoRequest, check};
use crate::settings::JobSettings;
use actix_web::{HttpRequest, HttpResponse, web};

/// The nhodo runs among the jobs.
const NHODO: Kind<NhodoView> = Kind {
    what: "nhodo run",
    is: JobRow::is_nhodo,
    view: NhodoView::of,
};

#[utoipa::path(post, path = "/api/v1/nhodo", tag = "nhodo", operation_id = "create_nhodo",
    request_body = NhodoRequest,
    responses(
        (status = 202, description = "Queued; the run (its `url` also in `Location`), its estimated cost (`estimate`) and how many jobs were queued or running before it (`queue_position`)", body = Queued<NhodoView>),
        (status = 400, description = "A malformed body", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "A body over the size limit", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown or non-nhodo ruleset, a parameter out of range, too many games, or an estimated cost over the budget (`--max-job-cost`; `estimated_cost`, `per_game_cost` and `max_job_cost`, in core-seconds)", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many jobs queued or running (`--max-jobs`), or the owner's quota of jobs or outstanding work is reached; `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 507, description = "The owner's jobs store as many bytes as one owner may (`--max-owner-bytes`)", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Starting a run needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))),
        (status = 403, description = "The token is a reader's (starting jobs needs runner or admin), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = [])))]
/// Queues a nhodo run (202 with its URL; owned by the token's holder): `games` games of the
/// model with these parameters, game k from (seed, k).
pub async fn create(
    req: HttpRequest,
    access: Access,
    client: Client,
    state: web::Data<AppState>,
    limits: web::Data<JobSettings>,
    body: crate::http::extract::JsonObject<NhodoRequest>,
) -> Result<HttpResponse, Problem> {
    let account = account(access.may_create()?, client);
    let (b, l) = (body.into_inner(), limits.clone());
    let plan = priced(req.path(), move || check(&b, &l)).await?;
    let (mut tx, queue_position) =
        admitted(&state, &limits, &account, 1, plan.cost, req.path()).await?;
    let job = store::create_nhodo(&mut tx, &plan, &account).await?;
    tx.commit().await?;
    Ok(accepted(
        nhodo_url(job.id),
        NhodoView::of(&job, &store::JobUsage::default()),
        queue_position,
    ))
}

#[utoipa::path(get, path = "/api/v1/nhodo/{id}", tag = "nhodo", operation_id = "show_nhodo",
    params(("id" = String, Path, description = "Nhodo run id"), ("wait" = Option<u64>, Query, description = "Seconds (at most 60) to wait for the run to end", maximum = 60)),
    responses((status = 200, description = "Status and progress and, when done, the statistics: each seat's win rate and the draws with Wilson 95% intervals, turns and clean throws per game", body = NhodoView), (status = 400, description = "A bad `wait`", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 404, description = "No such nhodo run", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A nhodo run's status, progress and, when done, its statistics (`?wait=` to await it).
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    events: web::Data<crate::jobs::events::JobEvents>,
    reads: web::Data<JobReads>,
    path: web::Path<String>,
    q: web::Query<WaitQuery>,
) -> Result<HttpResponse, Problem> {
    NHODO.show(&req, &state, &events, &reads, &path, &q).await
}

#[utoipa::path(delete, path = "/api/v1/nhodo/{id}", tag = "nhodo", operation_id = "cancel_nhodo", params(("id" = String, Path, description = "Nhodo run id"), ("purge" = Option<bool>, Query, description = "Delete the run and everything it stored (whatever its status; a running one stops), answering its id and `freed_bytes`")),
    responses((status = 200, description = "Cancelled: the run (a `NhodoView`); with `purge=true`, deleted: its `id`, `deleted`, `status_before` and `freed_bytes`", body = Object), (status = 409, description = "Already ended (without `purge`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 404, description = "No such nhodo run", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 401, description = "Stopping or deleting a run needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))), (status = 403, description = "Another's run (stopping or deleting it needs an admin token), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
/// Cancels a nhodo run; with `?purge=true`, deletes it and everything it stored (its owner
/// or an admin).
pub async fn cancel(
    req: HttpRequest,
    access: Access,
    state: web::Data<AppState>,
    path: web::Path<String>,
    q: web::Query<DeleteQuery>,
) -> Result<HttpResponse, Problem> {
    NHODO
        .cancel(&req, &access, &state, &path, q.purge, NHODO.what)
        .await
}

#[utoipa::path(get, path = "/api/v1/nhodo/{id}/games.csv", tag = "nhodo", operation_id = "nhodo_games_csv", params(("id" = String, Path, description = "Nhodo run id")),
    responses((status = 200, description = "Every game, in order: byte for byte the file `tsoro simulate RULESET --csv` writes for the same ruleset, parameters, games and seed", body = String, content_type = "text/csv", headers(("Content-Disposition" = String, description = "`attachment; filename=\"games.csv\"`: the path the data package gives"))), (status = 404, description = "No such nhodo run", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The run is not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// Every game of a finished nhodo run, as CSV (streamed a chunk at a time).
pub async fn games_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = NHODO.load_done(&state, &path, req.path()).await?;
    let body = nhodo::games_csv(state.pool.clone(), job.id);
    Ok(csv(Some(export::GAMES_FILE)).streaming(streamed(body)))
}

#[utoipa::path(get, path = "/api/v1/nhodo/{id}/summary.csv", tag = "nhodo", operation_id = "nhodo_summary_csv", params(("id" = String, Path, description = "Nhodo run id")),
    responses((status = 200, description = "The statistics, one metric per row with Wilson 95% intervals for the rates: the file `tsoro simulate RULESET --summary` writes", body = String, content_type = "text/csv", headers(("Content-Disposition" = String, description = "`attachment; filename=\"summary.csv\"`: the path the data package gives"))), (status = 404, description = "No such nhodo run", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The run is not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A finished nhodo run's statistics, one metric per row.
pub async fn summary_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = NHODO.load_done(&state, &path, req.path()).await?;
    let stats =
        nhodo::stats_of(&job).ok_or_else(|| Problem::internal("a done run without a summary"))?;
    let body = crate::runs::nhodo::summary_csv(&stats).map_err(Problem::internal)?;
    Ok(csv(Some(export::SUMMARY_FILE)).body(body))
}

#[utoipa::path(get, path = "/api/v1/nhodo/{id}/datapackage.json", tag = "nhodo", operation_id = "nhodo_datapackage", params(("id" = String, Path, description = "Nhodo run id")),
    responses((status = 200, description = "A Frictionless Tabular Data Package describing games.csv and summary.csv", body = Object, headers(("Content-Disposition" = String, description = "`attachment; filename=\"datapackage.json\"`: saved beside games.csv and summary.csv, the three form the package"))), (status = 404, description = "No such nhodo run", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// The Frictionless data package describing a nhodo run's exports.
pub async fn datapackage(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = NHODO.load(&state, &path, req.path()).await?;
    Ok(HttpResponse::Ok()
        .insert_header(export::attachment(export::PACKAGE_FILE))
        .json(nhodo::datapackage(&job)))
}
