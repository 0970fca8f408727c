//! The index pages a reader browses from the header: `/games`, `/rulesets` (grouped by game
//! and source), `/sources`, `/evidence` (by source, in each source's order), `/simulations`,
//! and `/search`, prefix full-text search over the archive's words with highlighted snippets.

use super::home::{JobLine, SourceRef, listed_jobs, playable, source_refs};
use super::order;
use super::{Page, html};
use crate::archive::read;
use crate::archive::search::{self, HitKind, MARK_END, MARK_START};
use crate::http::state::AppState;
use actix_web::{HttpRequest, web};
use askama::Template;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Registers the index pages.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/games").route(web::get().to(games)))
        .service(web::resource("/rulesets").route(web::get().to(rulesets)))
        .service(web::resource("/sources").route(web::get().to(sources)))
        .service(web::resource("/evidence").route(web::get().to(evidence)))
        .service(web::resource("/simulations").route(web::get().to(simulations)))
        .service(web::resource("/search").route(web::get().to(search_page)));
}

type St = web::Data<AppState>;

struct GameLine {
    id: String,
    name: String,
    facts: String,
    other_names: String,
    rulesets: usize,
}

#[derive(Template)]
#[template(path = "games.html")]
struct GamesPage {
    games: Vec<GameLine>,
}

async fn games(state: St) -> Page {
    let pool = &state.pool;
    let rulesets = read::all_rulesets(pool).await?;
    let mut all = read::all_games(pool).await?;
    all.sort_by_key(|(g, _)| order::game_key(&g.id));
    let games = all
        .into_iter()
        .map(|(g, _)| GameLine {
            rulesets: rulesets.iter().filter(|r| r.game == g.id).count(),
            facts: format!("{}; {}, {}", g.family, g.people, g.region),
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
    html(&GamesPage { games })
}

struct RulesetLine {
    id: String,
    title: String,
    also: Vec<SourceRef>,
    playable: bool,
}

struct SourceGroup {
    source: Option<SourceRef>,
    rulesets: Vec<RulesetLine>,
}

struct GameGroup {
    id: String,
    name: String,
    groups: Vec<SourceGroup>,
}

#[derive(Template)]
#[template(path = "rulesets.html")]
struct RulesetsPage {
    games: Vec<GameGroup>,
}

async fn rulesets(state: St) -> Page {
    let pool = &state.pool;
    let refs = source_refs(pool).await?;
    let sources = read::all_sources(pool).await?;
    let names: BTreeMap<String, String> = read::all_games(pool)
        .await?
        .into_iter()
        .map(|(g, _)| (g.id, g.name))
        .collect();
    let mut games: Vec<GameGroup> = vec![];
    for g in order::ruleset_groups(read::all_rulesets(pool).await?, &sources) {
        let group = SourceGroup {
            source: refs.get(&g.source).cloned(),
            rulesets: g
                .rulesets
                .into_iter()
                .map(|r| RulesetLine {
                    playable: playable(&r.id),
                    also: r
                        .sources
                        .iter()
                        .skip(1)
                        .filter_map(|s| refs.get(s).cloned())
                        .collect(),
                    id: r.id,
                    title: r.title,
                })
                .collect(),
        };
        match games.last_mut() {
            Some(last) if last.id == g.game => last.groups.push(group),
            _ => games.push(GameGroup {
                name: names.get(&g.game).cloned().unwrap_or(g.game.clone()),
                id: g.game,
                groups: vec![group],
            }),
        }
    }
    html(&RulesetsPage { games })
}

struct SourceLine {
    r: SourceRef,
    passages: usize,
}

#[derive(Template)]
#[template(path = "sources.html")]
struct SourcesPage {
    sources: Vec<SourceLine>,
}

async fn sources(state: St) -> Page {
    let pool = &state.pool;
    let refs = source_refs(pool).await?;
    let mut all = read::all_sources(pool).await?;
    order::sort_sources(&mut all);
    let evidence = read::evidence_items(pool, None, None).await?;
    let sources = all
        .iter()
        .filter_map(|s| refs.get(&s.id).cloned())
        .map(|r| SourceLine {
            passages: evidence.iter().filter(|e| e.source == r.id).count(),
            r,
        })
        .collect();
    html(&SourcesPage { sources })
}

struct PassageLine {
    id: String,
    label: String,
    game: String,
    pages: Option<String>,
}

struct PassageGroup {
    source: SourceRef,
    passages: Vec<PassageLine>,
}

#[derive(Template)]
#[template(path = "evidence_index.html")]
struct EvidenceIndex {
    groups: Vec<PassageGroup>,
}

async fn evidence(state: St) -> Page {
    let pool = &state.pool;
    let refs = source_refs(pool).await?;
    let sources = read::all_sources(pool).await?;
    let mut items = read::evidence_items(pool, None, None).await?;
    order::sort_evidence(&mut items, &sources);
    let mut groups: Vec<PassageGroup> = vec![];
    for e in items {
        let line = PassageLine {
            label: e.label.clone().unwrap_or_else(|| e.id.clone()),
            id: e.id,
            game: e.game,
            pages: e.pages,
        };
        match groups.last_mut() {
            Some(g) if g.source.id == e.source => g.passages.push(line),
            _ => groups.push(PassageGroup {
                source: refs.get(&e.source).cloned().unwrap_or(SourceRef {
                    id: e.source.clone(),
                    short: e.source.clone(),
                    reference: e.source.clone(),
                }),
                passages: vec![line],
            }),
        }
    }
    html(&EvidenceIndex { groups })
}

#[derive(Template)]
#[template(path = "simulations.html")]
struct SimulationsPage {
    jobs: Vec<JobLine>,
    listed: bool,
}

async fn simulations(req: HttpRequest, state: St) -> Page {
    let (listed, jobs) = listed_jobs(&req, &state.pool, 100).await?;
    html(&SimulationsPage { jobs, listed })
}

/// `/search?q=`: the reader's words.
#[derive(Deserialize)]
struct SearchQuery {
    q: Option<String>,
}

struct HitLine {
    /// What it is, in words.
    what: String,
    href: String,
    title: String,
    /// Escaped HTML with the matched words in `<mark>`.
    snippet_html: String,
    summary_html: Option<String>,
}

#[derive(Template)]
#[template(path = "search.html")]
struct SearchPage {
    q: String,
    searched: bool,
    hits: Vec<HitLine>,
    cut: bool,
}

/// A snippet as HTML: the text escaped, then its match marks made `<mark>`.
fn marked(s: &str) -> String {
    askama::filters::escape(s, askama::filters::Html)
        .map(|e| e.to_string())
        .unwrap_or_default()
        .replace(MARK_START, "<mark>")
        .replace(MARK_END, "</mark>")
}

async fn search_page(state: St, q: web::Query<SearchQuery>) -> Page {
    let pool = &state.pool;
    let text = q.q.clone().unwrap_or_default();
    let cut = text.chars().count() > search::MAX_QUERY_CHARS;
    let Some(query) = search::prefix_query(&text) else {
        return html(&SearchPage {
            searched: !text.trim().is_empty(),
            q: text,
            hits: vec![],
            cut,
        });
    };
    let labels: BTreeMap<String, String> = read::evidence_items(pool, None, None)
        .await?
        .into_iter()
        .map(|e| (e.id.clone(), e.label.unwrap_or(e.id)))
        .collect();
    let titles: BTreeMap<String, String> = read::all_rulesets(pool)
        .await?
        .into_iter()
        .map(|r| (r.id, r.title))
        .collect();
    let hits = search::search(pool, &query)
        .await?
        .into_iter()
        .map(|h| {
            let (what, href, title) = match h.kind {
                HitKind::Evidence => (
                    "Passage".to_string(),
                    format!("/evidence/{}", h.id),
                    labels.get(&h.id).cloned().unwrap_or(h.id.clone()),
                ),
                HitKind::Rule => {
                    let f = h.field.clone().unwrap_or_default();
                    (
                        format!("Rule {f}"),
                        format!("/rulesets/{}#rule-{}", h.id, f.replace('.', "-")),
                        titles.get(&h.id).cloned().unwrap_or(h.id.clone()),
                    )
                }
                HitKind::Ruleset => (
                    "Ruleset".to_string(),
                    format!("/rulesets/{}", h.id),
                    titles.get(&h.id).cloned().unwrap_or(h.id.clone()),
                ),
            };
            HitLine {
                what,
                href,
                title,
                snippet_html: marked(&h.snippet),
                summary_html: h.summary.as_deref().map(marked),
            }
        })
        .collect();
    html(&SearchPage {
        q: text,
        searched: true,
        hits,
        cut,
    })
}
