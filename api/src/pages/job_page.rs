//! What the pages of jobs share (a simulation's, a nhodo run's, a tournament's): the job
//! with what its chunks add up to, its ruleset's title, its parameters in words, and the
//! downloads of a run that exports games, a summary and their data package.

use super::{PageError, missing, value_text};
use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::export::{GAMES_FILE, PACKAGE_FILE, SUMMARY_FILE};
use crate::jobs::store::{self, JobRow, JobUsage};
use tsoro_engine::catalogue;
use uuid::Uuid;

/// A download: its label, URL and the file name the data package gives it.
pub struct Link {
    pub label: &'static str,
    pub url: String,
    /// The file name a browser saves it under (the data package's path), if it is a file.
    pub download: Option<&'static str>,
}

/// The stored job `raw` names, when `is` says it is of the page's kind (a 404 page naming
/// `what` otherwise), with what its chunks add up to.
pub async fn load(
    state: &AppState,
    raw: &str,
    what: &str,
    is: fn(&JobRow) -> bool,
) -> Result<(JobRow, JobUsage), PageError> {
    let id: Uuid = raw.parse().map_err(|_| missing(what, raw))?;
    let job = store::get_job(&state.pool, id)
        .await
        .map_err(Problem::from)?
        .filter(is)
        .ok_or_else(|| missing(what, raw))?;
    let usage = usage(state, &job).await?;
    Ok((job, usage))
}

/// What a stored job's chunks add up to.
pub async fn usage(state: &AppState, job: &JobRow) -> Result<JobUsage, PageError> {
    Ok(store::usage(&state.pool, &[job.id])
        .await
        .map_err(Problem::from)?
        .remove(&job.id)
        .unwrap_or_default())
}

/// The title of the job's ruleset (its id, should the catalogue no longer hold it).
pub fn ruleset_title(job: &JobRow) -> String {
    catalogue::get(&job.ruleset)
        .map(|d| d.title.clone())
        .unwrap_or_else(|_| job.ruleset.clone())
}

/// The parameters in force of a job, as `name=value, ...`.
pub fn params_text(job: &JobRow) -> String {
    job.params
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| format!("{k}={}", value_text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// The downloads of a run whose API is at `api`: once it is `done`, its games, summary and
/// data package; always the run itself as JSON (labelled `as_json`).
pub fn run_links(api: &str, done: bool, as_json: &'static str) -> Vec<Link> {
    let mut links = vec![];
    if done {
        links.push(Link {
            label: "games.csv (every game's record)",
            url: format!("{api}/{GAMES_FILE}"),
            download: Some(GAMES_FILE),
        });
        links.push(Link {
            label: "summary.csv (every statistic, with intervals)",
            url: format!("{api}/{SUMMARY_FILE}"),
            download: Some(SUMMARY_FILE),
        });
        links.push(Link {
            label: "datapackage.json (describes both files: save the three in one folder)",
            url: format!("{api}/{PACKAGE_FILE}"),
            download: Some(PACKAGE_FILE),
        });
    }
    links.push(Link {
        label: as_json,
        url: api.to_string(),
        download: None,
    });
    links
}
