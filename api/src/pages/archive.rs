//! The archive's pages: a game, a ruleset (every rule with its citation), two rulesets side by
//! side, a passage of evidence and a source.

use super::about::note_html;
use super::home::{SourceRef, playable, source_refs};
use super::words::{citation_badge, range_words, rule_value_words, rules_in_words};
use super::{Page, html, missing, period, value_text};
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
        // Before `/rulesets/{id}`, which would match it too.
        .service(web::resource("/rulesets/compare").route(web::get().to(compare)))
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
    /// The whole quotation as HTML (each picture of the source once).
    quote_html: String,
    source_short: String,
    game: String,
    pages: Option<String>,
    location: String,
    period: String,
    kind: String,
    confidence: u8,
}

struct RulesetLine {
    id: String,
    title: String,
    sources: String,
}

struct Reading {
    /// The value in words.
    value: String,
    /// (ruleset id, its citation's badge).
    rulesets: Vec<(String, &'static str)>,
}

/// A rule's readings: value in words -> [(ruleset, badge)].
type ReadingsOf = BTreeMap<String, Vec<(String, &'static str)>>;

struct Disagreement {
    field: String,
    /// What the rule decides (the engine's words beside the field).
    about: String,
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
            quote_html: tsoro_corpus::quotation::html(&e.quote),
            source_short: refs
                .get(&e.source)
                .map(|s| s.short.clone())
                .unwrap_or_else(|| e.source.clone()),
            period: period(e.date_from, e.date_to),
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
    // (field, what it decides), in the engine's order.
    let mut field_order: Vec<(&'static str, &'static str)> = vec![];
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
        // Each rule through the engine's types, in the ruleset page's words.
        for rule in rules_in_words(def.kind, &r.config) {
            if !field_order.iter().any(|(f, _)| *f == rule.field) {
                field_order.push((rule.field, rule.about));
            }
            let kind = r
                .citations
                .iter()
                .find(|c| c.field == rule.field)
                .map(|c| citation_badge(&c.kind))
                .unwrap_or("uncited");
            readings
                .entry(rule.field)
                .or_default()
                .entry(rule.value)
                .or_default()
                .push((r.ruleset.id.clone(), kind));
        }
    }
    let disagreements = field_order
        .into_iter()
        .filter_map(|(f, about)| {
            let values = readings.remove(f)?;
            (values.len() > 1).then(|| Disagreement {
                field: f.to_string(),
                about: about.to_string(),
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
    /// What the field decides (the engine's words beside the field).
    about: String,
    /// Its value in words.
    value: String,
    /// The citation's badge (`cited`, `reconstructed`, ...).
    badge: &'static str,
    quote_html: Option<String>,
    reasoning_html: Option<String>,
    evidence: Vec<String>,
    /// The ancestor whose citation this is, when the ruleset does not cite the rule itself.
    inherited_from: Option<String>,
}

struct ParamLine {
    name: String,
    default: String,
    /// The allowed values in words (`6 to 21 holes in each row`, `with_front, never`).
    choices: String,
    description: String,
    /// Each choice as a reading, with its citation (from the archive's ruleset record).
    readings: Vec<ParamReading>,
}

/// One choice of a parameter as a reading: its badge and its words or reasoning.
struct ParamReading {
    choice: String,
    badge: &'static str,
    quote_html: Option<String>,
    reasoning_html: Option<String>,
    evidence: Vec<String>,
}

/// The readings of a parameter's choices, as the database holds them (imported with the
/// ruleset's record).
fn param_readings(p: &ParamInfo) -> Vec<ParamReading> {
    p.readings
        .iter()
        .map(|r| ParamReading {
            choice: r.choice.clone(),
            badge: citation_badge(&r.kind),
            quote_html: r.quote.as_deref().map(tsoro_corpus::quotation::html),
            reasoning_html: r.reasoning.as_deref().map(note_html),
            evidence: r.evidence.clone(),
        })
        .collect()
}

/// The rules a ruleset inherits from one ancestor.
struct Inherited {
    from: String,
    /// (field, anchor).
    rules: Vec<(String, String)>,
}

/// A ruleset to compare with, in the picker.
struct PickerOption {
    id: String,
    title: String,
    game: String,
}

#[derive(Template)]
#[template(path = "ruleset.html")]
struct RulesetPage {
    r: RulesetDetail,
    sources: Vec<SourceRef>,
    playable: bool,
    board_svg: Option<String>,
    /// Each player's heads at the start, in words (`A's i,7 and i,8`), for the caption.
    heads: Vec<String>,
    rules: Vec<RuleLine>,
    /// The rules it cites itself: (field, anchor).
    own: Vec<(String, String)>,
    /// The rules whose citations it inherits, by ancestor.
    inherited: Vec<Inherited>,
    params: Vec<ParamLine>,
    /// (other ruleset, why it is related).
    related: Vec<(String, String)>,
    /// Every other ruleset, in reading order, for the diff picker.
    picker: Vec<PickerOption>,
    /// The first-player advantage measured on this service ([`super::advantage`]).
    advantage_html: String,
}

fn rule_line(field: String, about: String, value: String, c: Option<&RuleCitation>) -> RuleLine {
    RuleLine {
        anchor: anchor(&field),
        field,
        value,
        badge: citation_badge(c.map(|c| c.kind.as_str()).unwrap_or("uncited")),
        about,
        quote_html: c
            .and_then(|c| c.quote.as_deref())
            .map(tsoro_corpus::quotation::html),
        reasoning_html: c.and_then(|c| c.reasoning.as_deref()).map(note_html),
        evidence: c.map(|c| c.evidence.clone()).unwrap_or_default(),
        inherited_from: c.and_then(|c| c.inherited_from.clone()),
    }
}

/// A number parameter's allowed values in words, from the engine's parameter (the fields it
/// sets give the unit); a choice parameter's choices by name.
fn choices_words(ruleset: &str, p: &ParamInfo) -> String {
    let spec = tsoro_engine::catalogue::get(ruleset)
        .ok()
        .and_then(|d| d.params.iter().find(|s| s.name == p.name));
    match (spec.map(|s| &s.kind), &p.choices) {
        (Some(tsoro_engine::catalogue::ParamKind::Int { min, max, set }), _) => {
            range_words(*min, *max, set)
        }
        (Some(tsoro_engine::catalogue::ParamKind::Bool { .. }), _) => "yes or no".into(),
        (_, Some(serde_json::Value::Array(a))) => {
            a.iter().map(value_text).collect::<Vec<_>>().join(", ")
        }
        _ => p.range.clone(),
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
    // Each field with what it decides and its value in words, through the engine's types
    // (for a ruleset the engine does not ship, each cited field by name and its stored value).
    let fields: Vec<(String, String, String)> = match tsoro_engine::catalogue::get(&id) {
        Ok(def) => rules_in_words(def.kind, &r.config)
            .into_iter()
            .map(|w| (w.field.to_string(), w.about.to_string(), w.value))
            .collect(),
        Err(_) => r
            .citations
            .iter()
            .map(|c| {
                let v = tsoro_engine::catalogue::rule_value(&r.config, &c.field);
                (c.field.clone(), c.field.clone(), value_text(&v))
            })
            .collect(),
    };
    let rules: Vec<RuleLine> = fields
        .into_iter()
        .map(|(f, about, value)| {
            let c = r.citations.iter().find(|c| c.field == f);
            rule_line(f, about, value, c)
        })
        .collect();
    let own = rules
        .iter()
        .filter(|l| l.inherited_from.is_none())
        .map(|l| (l.field.clone(), l.anchor.clone()))
        .collect();
    let mut inherited: Vec<Inherited> = vec![];
    for l in &rules {
        let Some(from) = &l.inherited_from else {
            continue;
        };
        let rule = (l.field.clone(), l.anchor.clone());
        match inherited.iter_mut().find(|i| &i.from == from) {
            Some(i) => i.rules.push(rule),
            None => inherited.push(Inherited {
                from: from.clone(),
                rules: vec![rule],
            }),
        }
    }
    let params = r
        .params
        .iter()
        .map(|p| ParamLine {
            name: p.name.clone(),
            default: value_text(&p.default),
            choices: choices_words(&id, p),
            description: p.description.clone(),
            readings: param_readings(p),
        })
        .collect();
    let mut related = vec![];
    if let Some(parent) = &r.inherit {
        related.push((parent.clone(), "the ruleset it inherits from".into()));
    }
    let all = super::order::sort_rulesets(
        read::all_rulesets(pool).await?,
        &read::all_sources(pool).await?,
    );
    for other in &all {
        if other.id == r.ruleset.id || related.iter().any(|(o, _)| *o == other.id) {
            continue;
        }
        if other.game == r.ruleset.game {
            related.push((
                other.id.clone(),
                format!("another reading of {}", other.game),
            ));
        }
    }
    let picker = all
        .into_iter()
        .filter(|o| o.id != r.ruleset.id)
        .map(|o| PickerOption {
            id: o.id,
            title: o.title,
            game: o.game,
        })
        .collect();
    let board = super::board::start_board(&id);
    let heads = board
        .as_ref()
        .map(|b| {
            b.heads
                .iter()
                .map(|(p, holes)| format!("{p}'s {}", holes.join(" and ")))
                .collect()
        })
        .unwrap_or_default();
    let advantage_html = super::advantage::section(pool, &id).await?;
    html(&RulesetPage {
        playable: playable(&id),
        r,
        sources,
        board_svg: board.map(|b| b.svg),
        heads,
        rules,
        own,
        inherited,
        params,
        related,
        picker,
        advantage_html,
    })
}

/// The picker's answer (`/rulesets/compare?a=X&b=Y`).
#[derive(serde::Deserialize)]
struct Compare {
    a: String,
    b: String,
}

/// Sends the diff picker's choice to the diff page of the two rulesets.
async fn compare(q: web::Query<Compare>) -> actix_web::HttpResponse {
    let enc = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect::<String>()
    };
    actix_web::HttpResponse::SeeOther()
        .insert_header((
            actix_web::http::header::LOCATION,
            format!("/rulesets/{}/diff/{}", enc(&q.a), enc(&q.b)),
        ))
        .finish()
}

struct Side {
    /// The value in words.
    value: String,
    badge: Option<&'static str>,
    quote_html: Option<String>,
    reasoning_html: Option<String>,
    evidence: Vec<String>,
    inherited_from: Option<String>,
}

struct DiffRow {
    field: String,
    anchor: String,
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

fn side(field: &str, v: &serde_json::Value, c: &Option<RuleCitation>) -> Side {
    Side {
        value: rule_value_words(field, v).unwrap_or_else(|| value_text(v)),
        badge: c.as_ref().map(|c| citation_badge(&c.kind)),
        quote_html: c
            .as_ref()
            .and_then(|c| c.quote.as_deref())
            .map(tsoro_corpus::quotation::html),
        reasoning_html: c
            .as_ref()
            .and_then(|c| c.reasoning.as_deref())
            .map(note_html),
        evidence: c.as_ref().map(|c| c.evidence.clone()).unwrap_or_default(),
        inherited_from: c.as_ref().and_then(|c| c.inherited_from.clone()),
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
                anchor: anchor(&row.field),
                sides: [
                    side(&row.field, &row.a, &row.a_citation),
                    side(&row.field, &row.b, &row.b_citation),
                ],
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
