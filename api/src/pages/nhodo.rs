//! `/nhodo/{id}`: a nhodo run's live progress, then its results (each seat's chances with
//! 95% intervals, how long games lasted) and its exports, over the nhodo jobs API
//! ([`crate::jobs::nhodo`]).

use super::charts::{self, CutOff};
use super::simulations::{bar, estimate_text, length_counts, pct};
use super::{Page, html, missing, value_text};
use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::export::{GAMES_FILE, PACKAGE_FILE, SUMMARY_FILE};
use crate::jobs::nhodo::{NhodoView, nhodo_url};
use crate::jobs::status::JobStatus;
use crate::jobs::store::{self, JobRow};
use crate::settings::JobSettings;
use actix_web::web;
use askama::Template;
use serde_json::Value;
use tsoro_engine::catalogue;
use uuid::Uuid;

/// Registers the page.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/nhodo/{id}").route(web::get().to(show)));
}

/// A download: its label, URL and the file name the data package gives it.
struct Link {
    label: &'static str,
    url: String,
    download: Option<&'static str>,
}

#[derive(Template)]
#[template(path = "nhodo.html")]
struct NhodoPage {
    job: JobRow,
    title: String,
    params: String,
    percent: u32,
    games_done: i64,
    estimate: Option<String>,
    finished: bool,
    /// Each seat's result in words.
    headline: Vec<String>,
    /// (caption, SVG).
    charts: Vec<(String, String)>,
    /// (name, value in words).
    figures: Vec<(String, String)>,
    links: Vec<Link>,
    command: String,
    api: String,
}

async fn show(
    state: web::Data<AppState>,
    limits: web::Data<JobSettings>,
    id: web::Path<String>,
) -> Page {
    let uid: Uuid = id.parse().map_err(|_| missing("nhodo run", &id))?;
    let job = store::get_job(&state.pool, uid)
        .await
        .map_err(Problem::from)?
        .filter(JobRow::is_nhodo)
        .ok_or_else(|| missing("nhodo run", &id))?;
    let usage = store::usage(&state.pool, &[job.id])
        .await
        .map_err(Problem::from)?
        .remove(&job.id)
        .unwrap_or_default();
    let view = NhodoView::of(&job, &usage);
    let (mut headline, mut charts, mut figures) = (vec![], vec![], vec![]);
    if let Some(st) = &view.stats {
        let mut rows = vec![];
        for (i, w) in st.wins.iter().enumerate() {
            let seat = i + 1;
            headline.push(format!(
                "Seat {seat}{} won {} of {} games ({}, 95% interval {} to {}).",
                if seat == 1 {
                    " (the first to throw)"
                } else {
                    ""
                },
                w.count,
                st.games,
                pct(w.rate),
                pct(w.ci.low),
                pct(w.ci.high)
            ));
            rows.push(bar(format!("Seat {seat}"), w.rate, w.ci.low, w.ci.high));
        }
        rows.push(bar(
            "Draws",
            st.draws.rate,
            st.draws.ci.low,
            st.draws.ci.high,
        ));
        let title = "Each seat's wins with their 95% intervals";
        charts.push((title.to_string(), charts::rates(title, &rows)));
        let turns = length_counts(&job, "turns");
        if !turns.is_empty() {
            let title = "How long the games lasted (turns)";
            let cut = job
                .config
                .get("turn_limit")
                .and_then(Value::as_u64)
                .map(|limit| CutOff {
                    limit,
                    games: st.draws.count,
                });
            charts.push((
                title.to_string(),
                charts::histogram(title, "turns", &turns, cut),
            ));
        }
        figures.push(("Games".into(), st.games.to_string()));
        figures.push((
            "Draws at the turn limit".into(),
            format!(
                "{} ({}, 95% interval {}–{})",
                st.draws.count,
                pct(st.draws.rate),
                pct(st.draws.ci.low),
                pct(st.draws.ci.high)
            ),
        ));
        for (name, d) in [("Length in turns", &st.turns), ("Clean throws", &st.throws)] {
            figures.push((
                name.into(),
                format!(
                    "mean {:.1} (sd {:.1}), median {}, 10th–90th percentile {}–{}, from {} to {}",
                    d.mean, d.sd, d.median, d.p10, d.p90, d.min, d.max
                ),
            ));
        }
    }
    let api = nhodo_url(job.id);
    let mut links = vec![];
    if job.status == JobStatus::Done {
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
        label: "the run as JSON",
        url: api.clone(),
        download: None,
    });
    let estimate = (job.status == JobStatus::Queued || job.status == JobStatus::Running)
        .then(|| estimate_text(&job, &limits))
        .flatten();
    html(&NhodoPage {
        title: catalogue::get(&job.ruleset)
            .map(|d| d.title.clone())
            .unwrap_or_else(|_| job.ruleset.clone()),
        params: job
            .params
            .as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, v)| format!("{k}={}", value_text(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default(),
        percent: (view.progress.fraction * 100.0) as u32,
        games_done: view.progress.games_done,
        estimate,
        finished: job.status.is_ended(),
        headline,
        charts,
        figures,
        links,
        command: format!("{} --csv games.csv --summary summary.csv", view.command),
        api,
        job,
    })
}
