//! Readings studies as jobs: every reading of a ruleset's parameters played on the same seeds
//! under random play and a pairing of agents ([`crate::runs::readings`]), stored as a
//! comparison of variants whose runs are paired with their pairing's default.

use super::job_kind::{csv, priced, queued_group};
use super::jobs::{WaitQuery, paired_figures, parse_id};
use super::problem::Problem;
use super::state::AppState;
use crate::jobs::paired::PairedCache;
use crate::jobs::request;
use crate::jobs::status::JobStatus;
use crate::jobs::store;
use crate::jobs::view::{ComparisonView, Estimate, Queued, comparison_url};
use crate::runs::readings::{self, PairingResult, ReadingsRequest, StudyPlan};
use crate::settings::JobSettings;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// The URL of a readings study.
pub fn study_url(id: Uuid) -> String {
    format!("/api/v1/readings/{id}")
}

/// Where a study's exports are.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StudyLinks {
    /// Each reading's metrics, intervals and tests as CSV (409 until every run is done).
    pub readings_csv: String,
    /// The data package describing `readings.csv` (Frictionless).
    pub datapackage: String,
    /// The study as a comparison of its runs.
    pub comparison: String,
    /// The study's page.
    pub page: String,
}

/// A readings study: its request, its runs, and once they are all done each reading's
/// metric vector with 95% intervals and its paired tests against the default.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StudyView {
    /// The study's id.
    pub id: Uuid,
    /// Its URL.
    pub url: String,
    /// `done` when every run is; else `failed`, `cancelled`, `running` or `queued`.
    pub status: JobStatus,
    /// What was asked for.
    pub request: ReadingsRequest,
    /// Per pairing (random play first), each reading, the default first, when done.
    pub pairings: Option<Vec<PairingResult>>,
    /// Its runs' estimated cost together, from when they were queued.
    pub estimate: Option<Estimate>,
    /// The runs, pairing by pairing, each reading's in the order of `pairings`.
    pub runs: ComparisonView,
    /// Its exports.
    pub links: StudyLinks,
    /// The `tsoro readings` command that plays the same study and writes its `readings.csv`.
    pub command: String,
}

/// The stored study `id`: its request, planned again (the catalogue is compiled in), or 404.
pub async fn load(
    state: &AppState,
    id: Uuid,
    path: &str,
) -> Result<(ReadingsRequest, StudyPlan), Problem> {
    let missing = || Problem::not_found(format!("no readings study {id}")).at(path);
    let (stored, _) = store::get_comparison(&state.pool, id)
        .await?
        .ok_or_else(missing)?;
    let req: ReadingsRequest = stored
        .get("readings")
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or_else(missing)?;
    let plan = readings::plan_study(&req, u64::MAX).map_err(Problem::internal)?;
    Ok((req, plan))
}

/// A study's view: its runs' progress and, once they are all done, its results.
pub async fn view(
    state: &AppState,
    cache: &PairedCache,
    id: Uuid,
    req: ReadingsRequest,
    plan: &StudyPlan,
) -> Result<StudyView, Problem> {
    let jobs = store::comparison_jobs(&state.pool, id).await?;
    let ids: Vec<Uuid> = jobs.iter().map(|j| j.id).collect();
    let usage = store::usage(&state.pool, &ids).await?;
    let figures = paired_figures(state, cache, id, &jobs).await?;
    let pairings = figures.as_deref().map(|f| {
        let diffs: Vec<_> = f.diffs.iter().map(|d| d.paired).collect();
        readings::results(plan, &f.sums, &diffs)
    });
    let runs = ComparisonView::of(id, &jobs, &usage, figures.as_deref().map(|f| &f.diffs[..]));
    let url = study_url(id);
    let command = readings::command(&req);
    Ok(StudyView {
        id,
        status: runs.status,
        request: req,
        pairings,
        estimate: runs.estimate,
        runs,
        links: StudyLinks {
            readings_csv: format!("{url}/{}", readings::READINGS_FILE),
            datapackage: format!("{url}/{}", crate::jobs::export::PACKAGE_FILE),
            comparison: comparison_url(id),
            page: format!("/readings/{id}"),
        },
        command,
        url,
    })
}

#[utoipa::path(post, path = "/api/v1/readings", tag = "simulations",
    request_body = ReadingsRequest,
    responses((status = 202, description = "One job per reading and pairing, on the same seeds (its `url` also in `Location`), their estimated cost together (`estimate`) and how many jobs were queued or running before them (`queue_position`)", body = Queued<StudyView>), (status = 400, description = "A malformed body", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 422, description = "A bad ruleset, parameter (one without choices) or agent, or a run over the budget (`--max-job-cost`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 429, description = "Too many jobs (`--max-jobs`), or the owner's quota of jobs or outstanding work is reached (`/problems/over-quota`, with `limit` and the figures); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 507, description = "The owner's jobs store as many bytes as one owner may (`--max-owner-bytes`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 401, description = "Starting a study needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))), (status = 403, description = "The token is a reader's (starting jobs needs runner or admin), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json")),
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
    let account = super::jobs::account(access.may_create()?, client);
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
    Ok(super::jobs::accepted(
        view.url.clone(),
        view,
        queue_position,
    ))
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
    Ok(csv(Some(readings::READINGS_FILE)).body(out))
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
