//! A readings study as the service keeps it: every reading of a ruleset's parameters played
//! on the same seeds under random play and a pairing of agents ([`crate::runs::readings`]),
//! stored as a group of runs ([`super::groups`]) whose runs are paired with their pairing's
//! default. What the API and the pages both read: the stored study and its view.

use super::paired::{PairedCache, PairedError};
use super::status::JobStatus;
use super::store;
use super::view::{ComparisonView, Estimate, comparison_url};
use crate::runs::readings::{self, PairingResult, ReadingsRequest, StudyPlan};
use serde::Serialize;
use sqlx::PgPool;
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

/// Why a stored study cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// The database failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// Its request no longer plans (the catalogue changed under it).
    #[error("the stored study does not plan: {0}")]
    Plan(String),
    /// Its runs' paired figures.
    #[error(transparent)]
    Paired(#[from] PairedError),
}

/// The stored study `id`: its request, planned again (the catalogue is compiled in); None
/// when there is no such study.
pub async fn load(
    pool: &PgPool,
    id: Uuid,
) -> Result<Option<(ReadingsRequest, StudyPlan)>, StudyError> {
    let Some((stored, _)) = store::get_comparison(pool, id).await? else {
        return Ok(None);
    };
    let Some(req) = stored
        .get("readings")
        .cloned()
        .and_then(|v| serde_json::from_value::<ReadingsRequest>(v).ok())
    else {
        return Ok(None);
    };
    let plan = readings::plan_study(&req, u64::MAX).map_err(|e| StudyError::Plan(e.to_string()))?;
    Ok(Some((req, plan)))
}

/// A study's view: its runs' progress and, once they are all done, its results.
pub async fn view(
    pool: &PgPool,
    cache: &PairedCache,
    id: Uuid,
    req: ReadingsRequest,
    plan: &StudyPlan,
) -> Result<StudyView, StudyError> {
    let jobs = store::comparison_jobs(pool, id).await?;
    let ids: Vec<Uuid> = jobs.iter().map(|j| j.id).collect();
    let usage = store::usage(pool, &ids).await?;
    let figures = cache.get(pool, id, &jobs).await?;
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
            datapackage: format!("{url}/{}", super::package::PACKAGE_FILE),
            comparison: comparison_url(id),
            page: format!("/readings/{id}"),
        },
        command,
        url,
    })
}
