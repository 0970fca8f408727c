//! `/`: what the archive is, its games, rulesets and sources, and the latest simulations.

use super::{Page, html};
use crate::archive::read;
use crate::http::state::AppState;
use actix_web::web;
use askama::Template;
use std::collections::BTreeMap;
use tsoro_corpus::cite;

/// Registers `/`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/").route(web::get().to(home)));
}

struct GameLine {
    id: String,
    name: String,
    other_names: String,
    facts: String,
    line: String,
    rulesets: usize,
}

/// A source as a short in-text citation, for links.
#[derive(Clone)]
pub struct SourceRef {
    pub id: String,
    pub short: String,
    pub reference: String,
}

struct RulesetLine {
    id: String,
    title: String,
    game: String,
    sources: Vec<SourceRef>,
    playable: bool,
}

/// A job as the home page and `/simulations` list it.
pub(super) struct JobLine {
    /// What kind of run it is, in words (`simulation`, `nhodo run`).
    pub(super) kind: &'static str,
    pub(super) url: String,
    pub(super) short_id: String,
    pub(super) ruleset: String,
    pub(super) agents: String,
    pub(super) games: i64,
    pub(super) status: String,
}

#[derive(Template)]
#[template(path = "home.html")]
struct Home {
    games: Vec<GameLine>,
    rulesets: Vec<RulesetLine>,
    sources: Vec<SourceRef>,
    jobs: Vec<JobLine>,
    /// Whether the latest jobs are listed here (anonymous mode only).
    jobs_listed: bool,
}

/// Every source as a reference, by id.
pub async fn source_refs(
    pool: &sqlx::PgPool,
) -> Result<BTreeMap<String, SourceRef>, crate::http::problem::Problem> {
    let mut out = BTreeMap::new();
    for item in read::all_sources(pool).await? {
        if let Some((s, _)) = read::load_source(pool, &item.id).await? {
            out.insert(
                s.id.clone(),
                SourceRef {
                    id: s.id.clone(),
                    short: cite::author_date_short(&s),
                    reference: cite::author_date(&s),
                },
            );
        }
    }
    Ok(out)
}

/// Whether a ruleset has a board to play (nhodo is a model without one).
pub fn playable(id: &str) -> bool {
    tsoro_engine::catalogue::get(id).is_ok_and(|d| d.kind != tsoro_engine::catalogue::Kind::Nhodo)
}

async fn home(req: actix_web::HttpRequest, state: web::Data<AppState>) -> Page {
    let pool = &state.pool;
    let rulesets = read::all_rulesets(pool).await?;
    let refs = source_refs(pool).await?;
    let mut games = read::all_games(pool).await?;
    // Tsoro, the archive's main subject, first; the others in the archive's order.
    games.sort_by_key(|(g, _)| super::order::game_key(&g.id));
    let games = games
        .into_iter()
        .map(|(g, summary)| GameLine {
            rulesets: rulesets.iter().filter(|r| r.game == g.id).count(),
            facts: format!("{}; {}, {}", capitalise(&g.family), g.people, g.region),
            line: super::excerpt(summary.split(". ").next().unwrap_or_default(), 200),
            other_names: g
                .names
                .iter()
                .skip(1)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            id: g.id,
            name: g.name,
        })
        .collect();
    // Grouped by game and source, in reading order.
    let lines = super::order::sort_rulesets(rulesets, &read::all_sources(pool).await?)
        .into_iter()
        .map(|r| RulesetLine {
            playable: playable(&r.id),
            sources: r
                .sources
                .iter()
                .filter_map(|s| refs.get(s).cloned())
                .collect(),
            id: r.id,
            title: r.title,
            game: r.game,
        })
        .collect();
    let (jobs_listed, jobs) = listed_jobs(&req, pool, 10).await?;
    html(&Home {
        games,
        rulesets: lines,
        sources: refs.into_values().collect(),
        jobs,
        jobs_listed,
    })
}

/// The kinds of job the lists show, each with its name and its page: simulations of games
/// with players, and nhodo runs (a model without agents).
const LISTED: &[(&str, &str, &str)] = &[
    ("simulation", "simulation", "/simulations"),
    ("nhodo", "nhodo run", "/nhodo"),
];

/// The latest `limit` simulations and nhodo runs, and whether jobs are listed at all: only
/// where anyone may list them (elsewhere a job's id is its share link).
pub(super) async fn listed_jobs(
    req: &actix_web::HttpRequest,
    pool: &sqlx::PgPool,
    limit: i64,
) -> Result<(bool, Vec<JobLine>), sqlx::Error> {
    if !crate::http::access::anonymous_writes_open(req, pool).await {
        return Ok((false, Vec::new()));
    }
    let kinds: Vec<&str> = LISTED.iter().map(|(k, _, _)| *k).collect();
    let jobs = crate::jobs::store::list_jobs(pool, None, None, None, limit, &kinds).await?;
    let lines = jobs
        .into_iter()
        .filter_map(|j| {
            let (_, kind, base) = LISTED.iter().find(|(k, _, _)| *k == j.kind)?;
            Some((*kind, *base, j))
        })
        .map(|(kind, base, j)| JobLine {
            kind,
            url: format!("{base}/{}", j.id),
            short_id: j.id.to_string()[..8].to_string(),
            ruleset: j.ruleset,
            agents: if j.agents.is_empty() {
                "none (a model)".into()
            } else {
                j.agents.join(" vs ")
            },
            games: j.games,
            status: j.status.to_string(),
        })
        .collect();
    Ok((true, lines))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
