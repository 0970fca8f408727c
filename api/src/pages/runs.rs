//! `/runs`: every kind of run on one index (simulations, comparisons, readings studies,
//! tournaments, ladders, nhodo runs), newest first, filterable by kind, ruleset, status and
//! owner, with the cursor of the API's lists ([`crate::jobs::listing`]), so that a run can
//! be found again once its tab is closed. Listed only where anyone may list runs (elsewhere
//! a run's id is its share link).

use super::{Page, PageError, html};
use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::groups::{self, Group};
use crate::jobs::kind::Kind;
use crate::jobs::listing::{Cursor, Filter, RULESET_ID_PATTERN, is_ruleset_id};
use crate::jobs::status::JobStatus;
use crate::jobs::store;
use actix_web::{HttpRequest, web};
use askama::Template;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use uuid::Uuid;

/// Routes `/runs`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/runs").route(web::get().to(runs)));
}

/// The kinds of run the index tells apart, as its `kind` filter names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IndexKind {
    Simulation,
    Comparison,
    Readings,
    Tournament,
    Ladder,
    Nhodo,
}

impl IndexKind {
    const ALL: [IndexKind; 6] = [
        IndexKind::Simulation,
        IndexKind::Comparison,
        IndexKind::Readings,
        IndexKind::Tournament,
        IndexKind::Ladder,
        IndexKind::Nhodo,
    ];

    /// As the filter names it.
    fn name(self) -> &'static str {
        match self {
            IndexKind::Simulation => "simulation",
            IndexKind::Comparison => "comparison",
            IndexKind::Readings => "readings",
            IndexKind::Tournament => "tournament",
            IndexKind::Ladder => "ladder",
            IndexKind::Nhodo => "nhodo",
        }
    }

    /// In words.
    fn word(self) -> &'static str {
        match self {
            IndexKind::Readings => "readings study",
            IndexKind::Nhodo => "nhodo run",
            k => k.name(),
        }
    }
}

/// The index's query: its filters and where the page begins.
#[derive(Deserialize)]
struct RunsQuery {
    kind: Option<String>,
    ruleset: Option<String>,
    status: Option<String>,
    owner: Option<String>,
    after: Option<String>,
}

/// One run as the index lists it.
struct RunLine {
    kind: &'static str,
    url: String,
    short_id: String,
    rulesets: Vec<String>,
    agents: String,
    games: i64,
    status: String,
    owner: String,
    created: String,
    created_at: DateTime<Utc>,
    id: Uuid,
}

/// One option of a filter's select.
struct Choice {
    value: &'static str,
    label: &'static str,
    selected: bool,
}

#[derive(Template)]
#[template(path = "runs.html")]
struct RunsPage {
    listed: bool,
    runs: Vec<RunLine>,
    kinds: Vec<Choice>,
    statuses: Vec<Choice>,
    ruleset: String,
    owner: String,
    /// The address of the next page, when there is one.
    next: Option<String>,
    /// Whether any filter is set.
    filtered: bool,
}

/// How many runs a page of the index shows.
const PAGE: i64 = 50;

/// A 400 page naming a bad filter.
fn bad(detail: String, field: &str, expected: &str) -> PageError {
    PageError(
        Problem::bad_request(detail)
            .with_error(field, expected)
            .at("/runs"),
    )
}

async fn runs(req: HttpRequest, state: web::Data<AppState>, q: web::Query<RunsQuery>) -> Page {
    let kind = match q.kind.as_deref().filter(|k| !k.is_empty()) {
        None => None,
        Some(k) => Some(
            IndexKind::ALL
                .into_iter()
                .find(|r| r.name() == k)
                .ok_or_else(|| {
                    let all: Vec<&str> = IndexKind::ALL.iter().map(|r| r.name()).collect();
                    bad(format!("kind = {k:?}"), "kind", &all.join("|"))
                })?,
        ),
    };
    let status = match q.status.as_deref().filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(s.parse::<JobStatus>().map_err(|e| {
            let all: Vec<&str> = JobStatus::ALL.iter().map(|s| s.as_str()).collect();
            bad(e.to_string(), "status", &all.join("|"))
        })?),
    };
    let ruleset = q.ruleset.clone().filter(|r| !r.is_empty());
    if let Some(r) = ruleset.as_deref()
        && !is_ruleset_id(r)
    {
        return Err(bad(
            format!("ruleset = {r:?}: a ruleset id is lowercase letters, digits and hyphens"),
            "ruleset",
            RULESET_ID_PATTERN,
        ));
    }
    let after = match q.after.as_deref().filter(|a| !a.is_empty()) {
        None => None,
        Some(a) => Some(Cursor::parse(a).ok_or_else(|| {
            bad(
                format!("after = {a:?}"),
                "after",
                "the cursor of a next page",
            )
        })?),
    };
    let owner = q.owner.clone().filter(|o| !o.is_empty());
    let filter = Filter {
        owner: owner.clone(),
        status,
        ruleset: ruleset.clone(),
        after,
        limit: PAGE,
    };
    let listed = crate::http::access::anonymous_writes_open(&req, &state.pool).await;
    let mut runs = Vec::new();
    if listed {
        for k in IndexKind::ALL
            .into_iter()
            .filter(|k| kind.is_none_or(|w| w == *k))
        {
            runs.extend(lines(&state, k, &filter).await.map_err(Problem::from)?);
        }
    }
    runs.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    runs.truncate(PAGE as usize);
    let next = (runs.len() as i64 == PAGE)
        .then(|| runs.last())
        .flatten()
        .map(|last| {
            let mut query = vec![];
            for (key, value) in [
                ("kind", kind.map(|k| k.name().to_string())),
                ("ruleset", ruleset.clone()),
                ("status", status.map(|s| s.as_str().to_string())),
                ("owner", owner.clone()),
                (
                    "after",
                    Some(Cursor::after(last.created_at, last.id).encode()),
                ),
            ] {
                if let Some(v) = value {
                    query.push(format!("{key}={}", urlencoding(&v)));
                }
            }
            format!("/runs?{}", query.join("&"))
        });
    let choices = |all: &[(&'static str, &'static str)], chosen: Option<&str>| -> Vec<Choice> {
        all.iter()
            .map(|&(value, label)| Choice {
                value,
                label,
                selected: chosen == Some(value),
            })
            .collect()
    };
    let kinds: Vec<(&'static str, &'static str)> = IndexKind::ALL
        .iter()
        .map(|k| (k.name(), k.word()))
        .collect();
    let statuses: Vec<(&'static str, &'static str)> = JobStatus::ALL
        .iter()
        .map(|s| (s.as_str(), s.as_str()))
        .collect();
    html(&RunsPage {
        listed,
        filtered: kind.is_some() || status.is_some() || ruleset.is_some() || owner.is_some(),
        runs,
        kinds: choices(&kinds, kind.map(IndexKind::name)),
        statuses: choices(&statuses, status.map(JobStatus::as_str)),
        ruleset: ruleset.unwrap_or_default(),
        owner: owner.unwrap_or_default(),
        next,
    })
}

/// A query value percent-encoded (a cursor, a ruleset id or a token name).
fn urlencoding(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The runs of kind `k` that `filter` asks for, as the index lists them.
async fn lines(
    state: &AppState,
    k: IndexKind,
    filter: &Filter,
) -> Result<Vec<RunLine>, sqlx::Error> {
    let group = match k {
        IndexKind::Comparison => Some(Group::Comparison),
        IndexKind::Readings => Some(Group::Readings),
        _ => None,
    };
    if let Some(group) = group {
        let rows = groups::list(&state.pool, group, filter).await?;
        return Ok(rows
            .into_iter()
            .map(|g| RunLine {
                kind: k.word(),
                url: format!("/{}/{}", group.collection(), g.id),
                short_id: g.id.to_string()[..8].to_string(),
                rulesets: g.rulesets,
                agents: format!("{} runs", g.runs),
                games: g.games,
                status: g.status.to_string(),
                owner: g.owner.unwrap_or_default(),
                created: g.created_at.format("%Y-%m-%d %H:%M").to_string(),
                created_at: g.created_at,
                id: g.id,
            })
            .collect());
    }
    let (kind, ladder) = match k {
        IndexKind::Tournament => (Kind::Tournament, Some(false)),
        IndexKind::Ladder => (Kind::Tournament, Some(true)),
        IndexKind::Nhodo => (Kind::Nhodo, None),
        _ => (Kind::Simulation, None),
    };
    let jobs = store::list_jobs(&state.pool, filter, &[kind], ladder, true).await?;
    Ok(jobs
        .into_iter()
        .map(|j| RunLine {
            kind: k.word(),
            url: j.kind.page(j.id),
            short_id: j.id.to_string()[..8].to_string(),
            rulesets: vec![j.ruleset],
            agents: if j.agents.is_empty() {
                "none (a model)".into()
            } else {
                j.agents.join(", ")
            },
            games: j.games,
            status: j.status.to_string(),
            owner: j.owner.unwrap_or_default(),
            created: j.created_at.format("%Y-%m-%d %H:%M").to_string(),
            created_at: j.created_at,
            id: j.id,
        })
        .collect())
}
