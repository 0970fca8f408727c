//! `/tournaments/new` (the form, for a tournament of chosen agents or a ladder) and
//! `/tournaments/{id}` (live progress, then the ratings with their intervals, the first-move
//! advantage, the pairwise scores and the first player's score in self-play by strength; for
//! a ladder its rungs and skill trace first), over the tournaments API
//! (`crate::jobs::tournament`).

use super::charts::{self, Bar};
use super::job_page::{self, params_text, ruleset_title};
use super::{Page, html};
use crate::http::state::AppState;
use crate::jobs::status::JobStatus;
use crate::jobs::store::JobRow;
use crate::jobs::tournament_view::TournamentView;
use actix_web::{HttpRequest, web};
use askama::Template;
use serde_json::Value;
use tsoro_engine::catalogue::Kind;
use tsoro_engine::tournament::ladder;

/// Registers the pages (`new` before `{id}`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/tournaments/new").route(web::get().to(new)))
        .service(web::resource("/tournaments/{id}").route(web::get().to(show)));
}

type St = web::Data<AppState>;

#[derive(Template)]
#[template(path = "tournament_new.html")]
struct NewPage {
    /// (id, title) of every ruleset agents can play.
    rulesets: Vec<(String, String)>,
    chosen: String,
    agents: &'static [&'static str],
    /// Whether starting a job needs a token (the form then asks for one).
    token_needed: bool,
    /// Whether the form opens on a ladder (`?ladder=1`).
    ladder: bool,
    families: [&'static str; 2],
    max_depth: u32,
}

async fn new(req: HttpRequest, state: St) -> Page {
    let token_needed = !crate::http::access::anonymous_writes_open(&req, &state.pool).await;
    let query = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let chosen = query
        .iter()
        .find(|(k, _)| k == "ruleset")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| "tsoro-ludii".into());
    let ladder = query.iter().any(|(k, v)| k == "ladder" && v == "1");
    html(&NewPage {
        rulesets: super::order::catalogue_in_order(&state.pool)
            .await?
            .into_iter()
            .filter(|d| d.kind != Kind::Nhodo)
            .map(|d| (d.id.clone(), d.title.clone()))
            .collect(),
        chosen,
        agents: super::simulations::AGENTS,
        token_needed,
        ladder,
        families: ladder::FAMILIES,
        max_depth: ladder::MAX_DEPTH,
    })
}

/// One agent's line of the ratings table.
struct RatingRow {
    agent: String,
    elo: String,
    interval: String,
    games: String,
    score: String,
    ms: String,
}

#[derive(Template)]
#[template(path = "tournament.html")]
struct TournamentPage {
    view: TournamentView,
    title: String,
    params: String,
    percent: u32,
    finished: bool,
    done: bool,
    charts: Vec<(String, String)>,
    ratings: Vec<RatingRow>,
    first_move: String,
    /// The agents, in the matrix's order.
    agents: Vec<String>,
    /// Row agent's score against each column agent (both seats), with its interval.
    matrix: Vec<Vec<String>>,
    method: String,
    /// A finished ladder's section.
    ladder: Option<LadderSection>,
}

/// One level of a ladder's table.
struct RungRow {
    agent: String,
    first_player: String,
    draws: String,
    decisive: String,
    turns: String,
    skill: String,
    elo: String,
    flat: bool,
}

/// What a finished ladder shows: its rungs, two charts and whether the skill trace flattens.
#[derive(Default)]
struct LadderSection {
    rows: Vec<RungRow>,
    charts: Vec<(String, String)>,
    verdict: String,
    flat: bool,
}

/// A ladder's section from its stored report (`tsoro ladder --json`'s `ladder`).
fn ladder_section(l: &Value) -> LadderSection {
    let rungs: Vec<&Value> = l["rungs"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let flat_from = l["flat_from"].as_str();
    let share = |v: &Value, lo: &Value, hi: &Value| {
        format!(
            "{:.1}% ({:.1}–{:.1}%)",
            100.0 * f(v),
            100.0 * f(lo),
            100.0 * f(hi)
        )
    };
    let mut flat = false;
    let rows = rungs
        .iter()
        .map(|r| {
            flat |= flat_from == r["agent"].as_str();
            let fp = &r["first_player"];
            let sk = &r["skill"];
            RungRow {
                agent: r["agent"].as_str().unwrap_or("").to_string(),
                first_player: share(&fp["score"], &fp["ci"]["low"], &fp["ci"]["high"]),
                draws: share(&r["draws"], &r["draws_ci"]["low"], &r["draws_ci"]["high"]),
                decisive: share(
                    &r["decisive"],
                    &r["decisive_ci"]["low"],
                    &r["decisive_ci"]["high"],
                ),
                turns: format!(
                    "{:.1} ({:.1}–{:.1})",
                    f(&r["turns"]["mean"]),
                    f(&r["turns"]["ci"]["low"]),
                    f(&r["turns"]["ci"]["high"])
                ),
                skill: if sk.is_null() {
                    "–".to_string()
                } else {
                    share(&sk["score"], &sk["ci"]["low"], &sk["ci"]["high"])
                },
                elo: format!(
                    "{:+.0} ({:.0} to {:.0})",
                    elo(&r["elo"]),
                    elo(&r["elo_ci"]["low"]),
                    elo(&r["elo_ci"]["high"])
                ),
                flat,
            }
        })
        .collect();
    let bar = |r: &Value, at: &Value| Bar {
        label: r["agent"].as_str().unwrap_or("").to_string(),
        value: f(&at["score"]),
        low: f(&at["ci"]["low"]),
        high: f(&at["ci"]["high"]),
    };
    let first: Vec<Bar> = rungs.iter().map(|r| bar(r, &r["first_player"])).collect();
    let skill: Vec<Bar> = rungs
        .iter()
        .filter(|r| !r["skill"].is_null())
        .map(|r| bar(r, &r["skill"]))
        .collect();
    let mut figures = vec![];
    let title = "The first player's score at each level, the level playing itself, weakest \
                 first (95% intervals from a bootstrap over seat-swapped pairs; 50% is no \
                 advantage)";
    figures.push((title.to_string(), charts::rates(title, &first)));
    if !skill.is_empty() {
        let title = "The skill trace: each level's score against the level below, over both \
                     seats (95% intervals from a bootstrap over seat-swapped pairs; 50% is no \
                     gain from the doubling)";
        figures.push((title.to_string(), charts::rates(title, &skill)));
    }
    LadderSection {
        rows,
        charts: figures,
        verdict: l["verdict"].as_str().unwrap_or("").to_string(),
        flat: flat_from.is_some(),
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

/// An Elo figure to print with no decimals (never `-0`).
fn elo(v: &Value) -> f64 {
    tsoro_engine::stats::number::no_minus_zero(f(v), 0)
}

/// The charts, tables and figures of a finished tournament's stored report.
type Results = (
    Vec<(String, String)>,
    Vec<RatingRow>,
    String,
    Vec<Vec<String>>,
    String,
);

fn results(job: &JobRow, report: &Value, time: &Value) -> Results {
    let ratings: Vec<&Value> = report["ratings"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let bars: Vec<Bar> = ratings
        .iter()
        .map(|r| Bar {
            label: r["agent"].as_str().unwrap_or("").to_string(),
            value: f(&r["elo"]),
            low: f(&r["ci"]["low"]),
            high: f(&r["ci"]["high"]),
        })
        .collect();
    let title = "Elo ratings with their 95% bootstrap intervals (the agents' mean is 0)";
    let mut out = vec![(
        title.to_string(),
        charts::differences(title, "Elo rating (0 is the agents' mean)", &bars, false),
    )];
    let rows = ratings
        .iter()
        .enumerate()
        .map(|(i, r)| RatingRow {
            agent: r["agent"].as_str().unwrap_or("").to_string(),
            elo: format!("{:+.0}", elo(&r["elo"])),
            interval: format!(
                "{:.0} to {:.0}",
                elo(&r["ci"]["low"]),
                elo(&r["ci"]["high"])
            ),
            games: r["games"].to_string(),
            score: format!("{:.3}", f(&r["score"])),
            ms: format!("{:.3}", f(&time[i]["ms_per_decision"])),
        })
        .collect();
    let fm = &report["first_move_elo"];
    let first_move = format!(
        "{:+.0} Elo (95% interval {:.0} to {:.0})",
        elo(&fm["value"]),
        elo(&fm["ci"]["low"]),
        elo(&fm["ci"]["high"])
    );
    // The first player's score in each self-play pairing, weakest agent first.
    let elo_of = |agent: &str| {
        ratings
            .iter()
            .find(|r| r["agent"] == agent)
            .map_or(0.0, |r| f(&r["elo"]))
    };
    let pairings: Vec<&Value> = report["pairings"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let mut selfplay: Vec<Bar> = pairings
        .iter()
        .filter(|p| p["agents"][0] == p["agents"][1])
        .map(|p| Bar {
            label: p["agents"][0].as_str().unwrap_or("").to_string(),
            value: f(&p["first_player"]["score"]),
            low: f(&p["first_player"]["ci"]["low"]),
            high: f(&p["first_player"]["ci"]["high"]),
        })
        .collect();
    selfplay.sort_by(|a, b| elo_of(&a.label).total_cmp(&elo_of(&b.label)));
    if !selfplay.is_empty() {
        let title = "The first player's score when an agent plays itself, weakest agent first \
                     (95% intervals from a bootstrap over seat-swapped pairs; 50% is no \
                     advantage)";
        out.push((title.to_string(), charts::rates(title, &selfplay)));
    }
    // The matrix: the row agent's score against the column agent.
    let n = job.agents.len();
    let mut matrix = vec![vec!["".to_string(); n]; n];
    for p in &pairings {
        let (Some(a), Some(b)) = (
            job.agents.iter().position(|x| p["agents"][0] == x.as_str()),
            job.agents.iter().position(|x| p["agents"][1] == x.as_str()),
        ) else {
            continue;
        };
        let s = &p["first_agent"];
        let cell = |v: f64, lo: f64, hi: f64| format!("{v:.2} ({lo:.2}–{hi:.2})");
        matrix[a][b] = cell(f(&s["score"]), f(&s["ci"]["low"]), f(&s["ci"]["high"]));
        if a != b {
            matrix[b][a] = cell(
                1.0 - f(&s["score"]),
                1.0 - f(&s["ci"]["high"]),
                1.0 - f(&s["ci"]["low"]),
            );
        }
    }
    let method = report["method"].as_str().unwrap_or("").to_string();
    (out, rows, first_move, matrix, method)
}

async fn show(state: St, id: web::Path<String>) -> Page {
    let (job, usage) = job_page::load(&state, &id, "tournament", JobRow::is_tournament).await?;
    let view = TournamentView::of(&job, &usage);
    let done = job.status == JobStatus::Done;
    let (charts, ratings, first_move, matrix, method) = match &view.results {
        Some(r) => results(&job, &r["report"], &r["time"]),
        None => Default::default(),
    };
    let ladder = view
        .results
        .as_ref()
        .filter(|_| view.ladder.is_some())
        .map(|r| ladder_section(&r["ladder"]));
    html(&TournamentPage {
        title: ruleset_title(&job),
        params: params_text(&job),
        percent: (view.progress.fraction * 100.0) as u32,
        finished: job.status.is_ended(),
        done,
        charts,
        ratings,
        first_move,
        agents: job.agents.clone(),
        matrix,
        method,
        ladder,
        view,
    })
}
