//! `/nhodo/{id}`: a nhodo run's live progress, then its results (each seat's chances with
//! 95% intervals, how long games lasted) and its exports, over the nhodo jobs API
//! ([`crate::jobs::nhodo`]).

use super::charts::{self, CutOff};
use super::job_page::{self, Link, params_text, ruleset_title, run_links};
use super::simulations::{bar, estimate_text, length_counts, pct};
use super::{Page, html};
use crate::http::state::AppState;
use crate::jobs::nhodo::{NhodoView, nhodo_url};
use crate::jobs::status::JobStatus;
use crate::jobs::store::JobRow;
use crate::settings::JobSettings;
use actix_web::web;
use askama::Template;
use serde_json::Value;

/// Registers the page.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/nhodo/{id}").route(web::get().to(show)));
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
    let (job, usage) = job_page::load(&state, &id, "nhodo run", JobRow::is_nhodo).await?;
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
    let links = run_links(&api, job.status == JobStatus::Done, "the run as JSON");
    let estimate = estimate_text(&job, &limits);
    html(&NhodoPage {
        title: ruleset_title(&job),
        params: params_text(&job),
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
