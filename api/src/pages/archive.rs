//! The archive's pages: a game, a ruleset (every rule with its citation), two rulesets side by
//! side, a passage of evidence and a source.

use super::home::{SourceRef, playable, source_refs};
use super::words::kind_label;
use super::{Page, excerpt, html, missing, period, value_text};
use crate::archive::read;
use crate::archive::views::{
    EvidenceDetail, GameItem, ParamInfo, RuleCitation, RulesetDetail, SourceDetail,
};
use crate::http::state::AppState;
use actix_web::web;
use askama::Template;
use std::collections::BTreeMap;
use tsoro_corpus::cite;

/// Registers the archive's pages.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/games/{id}").route(web::get().to(game)))
        .service(web::resource("/rulesets/{id}").route(web::get().to(ruleset)))
        .service(web::resource("/rulesets/{a}/diff/{b}").route(web::get().to(diff)))
        .service(web::resource("/evidence/{id}").route(web::get().to(evidence)))
        .service(web::resource("/sources/{id}").route(web::get().to(source)));
}

type St = web::Data<AppState>;

struct EvidenceLine {
    id: String,
    /// What the passage describes (`Tsoro, Variant 7 ...`).
    label: String,
    /// The whole quotation.
    quote: String,
    source_short: String,
    game: String,
    pages: Option<String>,
    location: String,
    period: String,
    kind: String,
    confidence: u8,
    excerpt: String,
}

struct RulesetLine {
    id: String,
    title: String,
    sources: String,
}

struct Reading {
    value: String,
    /// (ruleset id, citation kind).
    rulesets: Vec<(String, String)>,
}

/// A rule's readings: value -> [(ruleset, citation kind)].
type ReadingsOf = BTreeMap<String, Vec<(String, String)>>;

struct Disagreement {
    field: String,
    anchor: String,
    readings: Vec<Reading>,
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    game: GameItem,
    period: String,
    materials: Vec<String>,
    summary_html: String,
    evidence: Vec<EvidenceLine>,
    rulesets: Vec<RulesetLine>,
    disagreements: Vec<Disagreement>,
}

fn anchor(field: &str) -> String {
    field.replace('.', "-")
}

async fn evidence_lines(
    state: &AppState,
    refs: &BTreeMap<String, SourceRef>,
    game: Option<&str>,
    source: Option<&str>,
) -> Result<Vec<EvidenceLine>, crate::http::problem::Problem> {
    let mut items = read::evidence_items(&state.pool, game, source).await?;
    // By source, then in each source's order (not by the period described).
    super::order::sort_evidence(&mut items, &read::all_sources(&state.pool).await?);
    Ok(items
        .into_iter()
        .map(|e| EvidenceLine {
            label: e.label.clone().unwrap_or_else(|| e.id.clone()),
            quote: e.quote.split_whitespace().collect::<Vec<_>>().join(" "),
            source_short: refs
                .get(&e.source)
                .map(|s| s.short.clone())
                .unwrap_or_else(|| e.source.clone()),
            period: period(e.date_from, e.date_to),
            excerpt: excerpt(&e.quote, 240),
            id: e.id,
            game: e.game,
            pages: e.pages,
            location: e.location,
            kind: e.kind,
            confidence: e.confidence,
        })
        .collect())
}

async fn game(state: St, id: web::Path<String>) -> Page {
    let pool = &state.pool;
    let detail = read::game_detail(pool, &id)
        .await?
        .ok_or_else(|| missing("game", &id))?;
    let refs = source_refs(pool).await?;
    let evidence = evidence_lines(&state, &refs, Some(&id), None).await?;
    let (from, to) = read::evidence_items(pool, Some(&id), None)
        .await?
        .iter()
        .fold((i32::MAX, i32::MIN), |(a, b), e| {
            (a.min(e.date_from), b.max(e.date_to))
        });
    let mut rulesets = vec![];
    let mut readings: BTreeMap<&str, ReadingsOf> = BTreeMap::new();
    let mut field_order: Vec<&'static str> = vec![];
    for link in &detail.rulesets {
        let Some(r) = read::ruleset_detail(pool, &link.id).await? else {
            continue;
        };
        rulesets.push(RulesetLine {
            id: r.ruleset.id.clone(),
            title: r.ruleset.title.clone(),
            sources: r
                .ruleset
                .sources
                .iter()
                .map(|s| refs.get(s).map(|s| s.short.clone()).unwrap_or(s.clone()))
                .collect::<Vec<_>>()
                .join("; "),
        });
        let Ok(def) = tsoro_engine::catalogue::get(&r.ruleset.id) else {
            continue;
        };
        for f in tsoro_engine::catalogue::rule_fields(def.kind)
            .iter()
            .map(|f| f.name)
        {
            if !field_order.contains(&f) {
                field_order.push(f);
            }
            let kind = r
                .citations
                .iter()
                .find(|c| c.field == f)
                .map(|c| c.kind.clone())
                .unwrap_or_else(|| "uncited".into());
            readings
                .entry(f)
                .or_default()
                .entry(value_text(&tsoro_engine::catalogue::rule_value(
                    &r.config, f,
                )))
                .or_default()
                .push((r.ruleset.id.clone(), kind));
        }
    }
    let disagreements = field_order
        .into_iter()
        .filter_map(|f| {
            let values = readings.remove(f)?;
            (values.len() > 1).then(|| Disagreement {
                field: f.to_string(),
                anchor: anchor(f),
                readings: values
                    .into_iter()
                    .map(|(value, rulesets)| Reading { value, rulesets })
                    .collect(),
            })
        })
        .collect();
    html(&GamePage {
        period: if from <= to {
            period(from, to)
        } else {
            "unknown".into()
        },
        materials: detail.materials,
        summary_html: detail.summary_html,
        game: detail.game,
        evidence,
        rulesets,
        disagreements,
    })
}

struct RuleLine {
    field: String,
    anchor: String,
    value: String,
    kind: String,
    kind_label: &'static str,
    words: String,
    quote: Option<String>,
    reasoning: Option<String>,
    evidence: Vec<String>,
}

struct ParamLine {
    name: String,
    default: String,
    choices: String,
    description: String,
    /// Each choice as a reading, with its citation (from the archive's ruleset record).
    readings: Vec<ParamReading>,
}

/// One choice of a parameter as a reading: its kind and its words or reasoning.
struct ParamReading {
    choice: String,
    kind: String,
    kind_label: &'static str,
    quote: Option<String>,
    reasoning: Option<String>,
    evidence: Vec<String>,
}

/// The readings of a parameter's choices, as the database holds them (imported with the
/// ruleset's record).
fn param_readings(p: &ParamInfo) -> Vec<ParamReading> {
    p.readings
        .iter()
        .map(|r| ParamReading {
            choice: r.choice.clone(),
            kind_label: kind_label(&r.kind),
            kind: r.kind.clone(),
            quote: r.quote.clone(),
            reasoning: r.reasoning.clone(),
            evidence: r.evidence.clone(),
        })
        .collect()
}

#[derive(Template)]
#[template(path = "ruleset.html")]
struct RulesetPage {
    r: RulesetDetail,
    sources: Vec<SourceRef>,
    playable: bool,
    board_svg: Option<String>,
    rules: Vec<RuleLine>,
    params: Vec<ParamLine>,
    /// (other ruleset, why it is related).
    related: Vec<(String, String)>,
}

fn rule_line(
    field: &str,
    words: &str,
    value: &serde_json::Value,
    c: Option<&RuleCitation>,
) -> RuleLine {
    let kind = c
        .map(|c| c.kind.clone())
        .unwrap_or_else(|| "uncited".into());
    RuleLine {
        field: field.to_string(),
        anchor: anchor(field),
        value: value_text(value),
        kind_label: kind_label(&kind),
        kind,
        words: words.to_string(),
        quote: c.and_then(|c| c.quote.clone()),
        reasoning: c.and_then(|c| c.reasoning.clone()),
        evidence: c.map(|c| c.evidence.clone()).unwrap_or_default(),
    }
}

async fn ruleset(state: St, id: web::Path<String>) -> Page {
    let pool = &state.pool;
    let r = read::ruleset_detail(pool, &id)
        .await?
        .ok_or_else(|| missing("ruleset", &id))?;
    let refs = source_refs(pool).await?;
    let sources = r
        .ruleset
        .sources
        .iter()
        .filter_map(|s| refs.get(s).cloned())
        .collect();
    // Each field with what it decides in words (the name itself for a ruleset the engine
    // does not ship).
    let fields: Vec<(String, String)> = match tsoro_engine::catalogue::get(&id) {
        Ok(def) => tsoro_engine::catalogue::rule_fields(def.kind)
            .iter()
            .map(|f| (f.name.to_string(), f.about.to_string()))
            .collect(),
        Err(_) => r
            .citations
            .iter()
            .map(|c| (c.field.clone(), c.field.clone()))
            .collect(),
    };
    let rules = fields
        .iter()
        .map(|(f, words)| {
            rule_line(
                f,
                words,
                &tsoro_engine::catalogue::rule_value(&r.config, f),
                r.citations.iter().find(|c| &c.field == f),
            )
        })
        .collect();
    let params = r
        .params
        .iter()
        .map(|p| ParamLine {
            name: p.name.clone(),
            default: value_text(&p.default),
            choices: match &p.choices {
                Some(serde_json::Value::Array(a)) => {
                    a.iter().map(value_text).collect::<Vec<_>>().join(", ")
                }
                _ => p.range.clone(),
            },
            description: p.description.clone(),
            readings: param_readings(p),
        })
        .collect();
    let mut related = vec![];
    if let Some(parent) = &r.inherit {
        related.push((
            parent.clone(),
            "the ruleset it takes uncited rules from".into(),
        ));
    }
    for other in read::all_rulesets(pool).await? {
        if other.id == r.ruleset.id || related.iter().any(|(o, _)| *o == other.id) {
            continue;
        }
        if other.game == r.ruleset.game {
            related.push((other.id, format!("another reading of {}", other.game)));
        }
    }
    let board_svg = super::board::start_board_svg(&id);
    html(&RulesetPage {
        playable: playable(&id),
        r,
        sources,
        board_svg,
        rules,
        params,
        related,
    })
}

struct Side {
    value: String,
    kind: Option<String>,
    quote: Option<String>,
    reasoning: Option<String>,
    evidence: Vec<String>,
}

struct DiffRow {
    field: String,
    /// The first ruleset's side, then the second's.
    sides: [Side; 2],
}

#[derive(Template)]
#[template(path = "diff.html")]
struct DiffPage {
    a: String,
    b: String,
    rows: Vec<DiffRow>,
}

fn side(v: &serde_json::Value, c: &Option<RuleCitation>) -> Side {
    Side {
        value: value_text(v),
        kind: c.as_ref().map(|c| c.kind.clone()),
        quote: c.as_ref().and_then(|c| c.quote.clone()),
        reasoning: c.as_ref().and_then(|c| c.reasoning.clone()),
        evidence: c.as_ref().map(|c| c.evidence.clone()).unwrap_or_default(),
    }
}

async fn diff(state: St, path: web::Path<(String, String)>) -> Page {
    let (a, b) = path.into_inner();
    let d = read::ruleset_diff(&state.pool, &a, &b)
        .await?
        .map_err(|id| missing("ruleset", &id))?;
    html(&DiffPage {
        rows: d
            .differences
            .iter()
            .map(|row| DiffRow {
                field: row.field.clone(),
                sides: [side(&row.a, &row.a_citation), side(&row.b, &row.b_citation)],
            })
            .collect(),
        a: d.a,
        b: d.b,
    })
}

#[derive(Template)]
#[template(path = "evidence.html")]
struct EvidencePage {
    e: EvidenceDetail,
    period: String,
    source_short: String,
    reference: String,
}

async fn evidence(state: St, id: web::Path<String>) -> Page {
    let pool = &state.pool;
    let e = read::evidence_detail(pool, &id)
        .await?
        .ok_or_else(|| missing("passage of evidence", &id))?;
    let (s, _) = read::load_source(pool, &e.evidence.source)
        .await?
        .ok_or_else(|| missing("source", &e.evidence.source))?;
    html(&EvidencePage {
        period: period(e.evidence.date_from, e.evidence.date_to),
        source_short: cite::author_date_short(&s),
        reference: cite::author_date(&s),
        e,
    })
}

#[derive(Template)]
#[template(path = "source.html")]
struct SourcePage {
    s: SourceDetail,
    short: String,
    reference: String,
    bibtex: String,
    /// (field, written as, where).
    variants: Vec<(String, String, String)>,
    passages: Vec<EvidenceLine>,
}

async fn source(state: St, id: web::Path<String>) -> Page {
    let pool = &state.pool;
    let (detail, s) = read::source_detail(pool, &id)
        .await?
        .ok_or_else(|| missing("source", &id))?;
    let refs = source_refs(pool).await?;
    html(&SourcePage {
        short: cite::author_date_short(&s),
        reference: cite::author_date(&s),
        bibtex: cite::bibtex(&s),
        variants: s
            .variants
            .iter()
            .map(|v| (v.field.clone(), v.value.clone(), v.place.clone()))
            .collect(),
        passages: evidence_lines(&state, &refs, None, Some(&id)).await?,
        s: detail,
    })
}
