//! Readings studies over HTTP: queued as one job (one id, one cancel, one quota entry),
//! listed, shown and exported; what a study is and how it is read is the domain's
//! ([`crate::jobs::study`]).

use super::job_kind::{
    DeleteQuery, WaitQuery, accepted, account, cancel_group, csv, list_groups, parse_id, priced,
    queued_group,
};
use super::listing::ListQuery;
use super::problem::Problem;
use super::state::AppState;
use crate::jobs::groups::Group;
use crate::jobs::listing::Listed;
use crate::jobs::paired::PairedCache;
use crate::jobs::request;
use crate::jobs::store;
use crate::jobs::study::{self, StudyView};
use crate::jobs::view::GroupItem;
use crate::jobs::view::Queued;
use crate::runs::readings::{self, ReadingsRequest, StudyPlan};
use crate::settings::JobSettings;
use actix_web::{HttpRequest, HttpResponse, web};
use uuid::Uuid;

/// The stored study `id` (its request, planned again), or 404 at `path`.
async fn load(
    state: &AppState,
    id: Uuid,
    path: &str,
) -> Result<(ReadingsRequest, StudyPlan), Problem> {
    study::load(&state.pool, id)
        .await?
        .ok_or_else(|| Problem::not_found(format!("no readings study {id}")).at(path))
}

/// A study's view: its runs' progress and, once they are all done, its results.
async fn view(
    state: &AppState,
    cache: &PairedCache,
    id: Uuid,
    req: ReadingsRequest,
    plan: &StudyPlan,
) -> Result<StudyView, Problem> {
    Ok(study::view(&state.pool, cache, id, req, plan).await?)
}

#[utoipa::path(post, path = "/api/v1/readings", tag = "simulations",
    request_body = ReadingsRequest,
    responses((status = 202, description = "One job per reading and pairing, on the same seeds (its `url` also in `Location`), their estimated cost together (`estimate`) and how many jobs were queued or running before them (`queue_position`)", body = Queued<StudyView>),  (status = 422, description = "A bad ruleset, parameter (one without choices) or agent, or a run over the budget (`--max-job-cost`)", body = crate::http::problem::Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
/// Queues a readings study: every choice of the parameters named against the default, on
/// the same seeds, under random play and the pairing named.
pub async fn create(
    req: HttpRequest,
    access: crate::http::access::Access,
    client: crate::http::client::Client,
    state: web::Data<AppState>,
    limits: web::Data<JobSettings>,
    body: crate::http::extract::JsonObject<ReadingsRequest>,
) -> Result<HttpResponse, Problem> {
    let account = account(access.may_create()?, client);
    let (b, l) = (body.into_inner(), limits.clone());
    let (b, (plan, specs)) = priced(req.path(), move || {
        request::check_study(&b, &l).map(|checked| (b, checked))
    })
    .await?;
    let stored = serde_json::json!({ "readings": b });
    let (id, _, queue_position) =
        queued_group(&state, &limits, &account, &specs, &stored, req.path()).await?;
    let cache = PairedCache::default();
    let view = view(&state, &cache, id, b, &plan).await?;
    Ok(accepted(view.url.clone(), view, queue_position))
}

#[utoipa::path(get, path = "/api/v1/readings/{id}", tag = "simulations", params(("id" = String, Path, description = "Study id"), ("wait" = Option<u64>, Query, description = "Seconds (at most 60) to wait for the study's runs to end", maximum = 60)),
    responses((status = 200, description = "The study: its runs, and each reading's metrics with intervals and tests when done", body = StudyView), (status = 400, description = "A bad `wait`", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 404, description = "No such study", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A readings study: progress, then each reading's consequences in play.
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    events: web::Data<crate::jobs::events::JobEvents>,
    cache: web::Data<PairedCache>,
    path: web::Path<String>,
    q: web::Query<WaitQuery>,
) -> Result<HttpResponse, Problem> {
    let id = parse_id(&path, "readings study", req.path())?;
    let (request, plan) = load(&state, id, req.path()).await?;
    let deadline = tokio::time::Instant::now() + q.duration(req.path())?;
    let mut changes = events.subscribe();
    loop {
        let v = view(&state, &cache, id, request.clone(), &plan).await?;
        if v.status.is_ended() || tokio::time::Instant::now() >= deadline {
            return Ok(HttpResponse::Ok().json(v));
        }
        let look_again =
            (tokio::time::Instant::now() + crate::jobs::events::FALLBACK).min(deadline);
        let _ = tokio::time::timeout_at(look_again, changes.recv()).await;
    }
}

#[utoipa::path(get, path = "/api/v1/readings", tag = "simulations", operation_id = "list_readings",
    params(ListQuery),
    responses((status = 200, description = "Readings studies, one line each, newest first, with the filters and cursor of every list: everyone's for an admin token (or anyone, on a service without tokens that takes anonymous writes), the holder's own for another token; `next` is the cursor of the next page", body = Listed<GroupItem>), (status = 400, description = "A bad filter", body = crate::http::problem::Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
/// Lists readings studies, newest first, by status and ruleset.
pub async fn list(
    req: HttpRequest,
    access: crate::http::access::Access,
    state: web::Data<AppState>,
    q: web::Query<ListQuery>,
) -> Result<HttpResponse, Problem> {
    list_groups(&req, &access, &state, &q, Group::Readings).await
}

#[utoipa::path(delete, path = "/api/v1/readings/{id}", tag = "simulations", operation_id = "cancel_readings", params(("id" = String, Path, description = "Readings study id"), ("purge" = Option<bool>, Query, description = "Delete the readings study with its runs and everything they stored (whatever their status; running ones stop), answering its id and `freed_bytes`")),
    responses((status = 200, description = "Its runs cancelled together: the readings study (a `StudyView`); with `purge=true`, deleted: its `id`, `deleted`, `status_before` and `freed_bytes`", body = Object), (status = 409, description = "Every run had already ended (without `purge`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 404, description = "No such readings study", body = crate::http::problem::Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
/// Cancels a readings study (all its runs, as one job); with `?purge=true`, deletes it with
/// them.
pub async fn cancel(
    req: HttpRequest,
    access: crate::http::access::Access,
    state: web::Data<AppState>,
    cache: web::Data<PairedCache>,
    path: web::Path<String>,
    q: web::Query<DeleteQuery>,
) -> Result<HttpResponse, Problem> {
    let id = parse_id(&path, "readings study", req.path())?;
    let (request, plan) = load(&state, id, req.path()).await?;
    let purged = cancel_group(&state, &access, id, q.purge, Group::Readings, req.path()).await?;
    match purged {
        Some(answer) => Ok(answer),
        None => Ok(HttpResponse::Ok().json(view(&state, &cache, id, request, &plan).await?)),
    }
}

#[utoipa::path(get, path = "/api/v1/readings/{id}/readings.csv", tag = "simulations", params(("id" = String, Path, description = "Study id")),
    responses((status = 200, description = "One row per pairing and reading: its citation ids, metrics with 95% intervals, and paired tests against the default (raw and Holm-adjusted p-values); its fields are described in the study's datapackage.json", body = String, content_type = "text/csv", headers(("Content-Disposition" = String, description = "`attachment; filename=\"readings.csv\"`: saved beside datapackage.json, the two form the package"))), (status = 404, description = "No such study", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "Not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A study's readings as CSV, so that a paper can cite a reading and its measured
/// consequence together.
pub async fn readings_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    cache: web::Data<PairedCache>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let id = parse_id(&path, "readings study", req.path())?;
    let (request, plan) = load(&state, id, req.path()).await?;
    let v = view(&state, &cache, id, request, &plan).await?;
    let Some(pairings) = v.pairings else {
        return Err(Problem::of(
            &crate::http::problem::JOB_NOT_DONE,
            "the study's runs are not all done",
        )
        .at(req.path()));
    };
    let mut out = Vec::new();
    readings::readings_csv(&mut out, &pairings).map_err(Problem::internal)?;
    Ok(csv(readings::READINGS_FILE).body(out))
}

#[utoipa::path(get, path = "/api/v1/readings/{id}/datapackage.json", tag = "simulations", operation_id = "readings_datapackage", params(("id" = String, Path, description = "Study id")),
    responses((status = 200, description = "A Frictionless Tabular Data Package describing readings.csv field by field, with the study's inputs and the ruleset's version and sources", body = Object, headers(("Content-Disposition" = String, description = "`attachment; filename=\"datapackage.json\"`: saved beside readings.csv, the two form the package"))), (status = 404, description = "No such study", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// The Frictionless data package describing a study's `readings.csv`, so that a paper can
/// cite a reading and its measured consequence together.
pub async fn datapackage(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let id = parse_id(&path, "readings study", req.path())?;
    let (request, _) = load(&state, id, req.path()).await?;
    let (_, created) = store::get_comparison(&state.pool, id)
        .await?
        .ok_or_else(|| Problem::not_found(format!("no readings study {id}")).at(req.path()))?;
    let jobs = store::comparison_jobs(&state.pool, id).await?;
    let version = jobs
        .first()
        .map(|j| j.ruleset_hash.clone())
        .unwrap_or_default();
    // When the last run ended, once all have; else when the study was made.
    let ended = jobs
        .iter()
        .map(|j| j.finished_at)
        .collect::<Option<Vec<_>>>()
        .and_then(|t| t.into_iter().max())
        .unwrap_or(created);
    let doc = readings::datapackage(id, &request, &version, &ended.to_rfc3339());
    Ok(HttpResponse::Ok()
        .insert_header(crate::jobs::export::attachment(
            crate::jobs::export::PACKAGE_FILE,
        ))
        .json(doc))
}
