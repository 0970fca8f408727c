//! Reading the archive's records from PostgreSQL into the typed documents the API answers
//! (and the web pages show), one function per document.

use super::ArchiveError;
use super::detail::rule_citation;
use super::store::{self, Linked, Table};
use super::views::*;
use serde_json::Value;
use sqlx::PgPool;
use tsoro_corpus::{Evidence, Game, Source, cite, render_html};
use tsoro_engine::catalogue::rule_differences;

/// Takes the body key out of a stored record and reads the rest as the model.
pub fn from_record<T: serde::de::DeserializeOwned>(
    mut v: Value,
    body: &str,
) -> Result<(T, String), ArchiveError> {
    let text = v
        .as_object_mut()
        .and_then(|o| o.remove(body))
        .and_then(|b| b.as_str().map(str::to_string))
        .unwrap_or_default();
    let t = serde_json::from_value(v).map_err(ArchiveError::stored)?;
    Ok((t, text))
}

pub fn game_item(g: &Game) -> GameItem {
    GameItem {
        id: g.id.clone(),
        name: g.names.first().cloned().unwrap_or_default(),
        names: g.names.clone(),
        family: g.family.clone(),
        region: g.region.clone(),
        people: g.people.clone(),
        url: format!("/api/v1/games/{}", g.id),
    }
}

pub fn source_item(s: &Source) -> SourceItem {
    SourceItem {
        id: s.id.clone(),
        kind: s.kind.clone(),
        authors: s.authors.iter().map(|p| p.inverted()).collect(),
        title: s.title.clone(),
        year: s.year,
        container: s.container.clone(),
        volume: s.volume.clone(),
        issue: s.issue.clone(),
        pages: s.pages.clone(),
        publisher: s.publisher.clone(),
        place: s.place.clone(),
        web: s.url.clone(),
        accessed: s.accessed.clone(),
        original_year: s.original_year,
        url: format!("/api/v1/sources/{}", s.id),
        citation: format!("/api/v1/sources/{}/citation", s.id),
    }
}

pub fn evidence_item(e: &Evidence, rank: Option<f32>) -> EvidenceItem {
    EvidenceItem {
        id: e.id.clone(),
        source: e.source.clone(),
        game: e.game.clone(),
        label: e.label.clone(),
        position: e.position,
        pages: e.pages.clone(),
        location: e.location.clone(),
        date_from: e.date_from,
        date_to: e.date_to,
        kind: e.kind.clone(),
        confidence: e.confidence,
        quote: e.quote.clone(),
        rank,
        url: format!("/api/v1/evidence/{}", e.id),
    }
}

/// An optional text, empty when absent.
pub fn opt(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

async fn links(
    pool: &PgPool,
    what: Linked,
    id: &str,
    base: &str,
) -> Result<Vec<Link>, ArchiveError> {
    let rows = store::linked(pool, what, id).await?;
    Ok(rows
        .into_iter()
        .map(|(id, label)| Link {
            url: format!("{base}/{id}"),
            id,
            label,
        })
        .collect())
}

/// A source and its summary, if there is one with this id.
pub async fn load_source(
    pool: &PgPool,
    id: &str,
) -> Result<Option<(Source, String)>, ArchiveError> {
    store::record(pool, Table::Sources, id)
        .await?
        .map(|record| from_record(record, "summary"))
        .transpose()
}

pub use store::RulesetRow;

pub fn ruleset_item((id, title, game, version, sources): RulesetRow) -> RulesetItem {
    RulesetItem {
        url: format!("/api/v1/rulesets/{id}"),
        id,
        title,
        game,
        sources,
        version,
    }
}

pub async fn citations(pool: &PgPool, id: &str) -> Result<Vec<RuleCitation>, ArchiveError> {
    let rows = store::citations(pool, id).await?;
    Ok(rows
        .iter()
        .map(|(f, k, c)| rule_citation(f, k, c))
        .collect())
}

/// Every game, by id.
pub async fn all_games(pool: &PgPool) -> Result<Vec<(GameItem, String)>, ArchiveError> {
    let rows = store::records(pool, Table::Games).await?;
    rows.into_iter()
        .map(|r| from_record::<Game>(r, "summary").map(|(g, summary)| (game_item(&g), summary)))
        .collect()
}

/// Every source, by id.
pub async fn all_sources(pool: &PgPool) -> Result<Vec<SourceItem>, ArchiveError> {
    let rows = store::records(pool, Table::Sources).await?;
    rows.into_iter()
        .map(|r| from_record::<Source>(r, "summary").map(|(s, _)| source_item(&s)))
        .collect()
}

/// Every ruleset, by id.
pub async fn all_rulesets(pool: &PgPool) -> Result<Vec<RulesetItem>, ArchiveError> {
    let rows = store::rulesets(pool, store::RulesetFilter::default()).await?;
    Ok(rows.into_iter().map(ruleset_item).collect())
}

/// One game, with its summary, evidence and rulesets.
pub async fn game_detail(pool: &PgPool, id: &str) -> Result<Option<GameDetail>, ArchiveError> {
    let Some(record) = store::record(pool, Table::Games, id).await? else {
        return Ok(None);
    };
    let (g, summary): (Game, String) = from_record(record, "summary")?;
    Ok(Some(GameDetail {
        game: game_item(&g),
        materials: g.materials.clone(),
        players_evidence: g.players_evidence.clone(),
        summary_html: render_html(&summary),
        summary,
        evidence: links(pool, Linked::EvidenceOfGame, &g.id, "/api/v1/evidence").await?,
        rulesets: links(pool, Linked::RulesetsOfGame, &g.id, "/api/v1/rulesets").await?,
    }))
}

/// One source (its detail and the record itself), with the passages quoted from it and the
/// rulesets that follow it.
pub async fn source_detail(
    pool: &PgPool,
    id: &str,
) -> Result<Option<(SourceDetail, Source)>, ArchiveError> {
    let Some((s, summary)) = load_source(pool, id).await? else {
        return Ok(None);
    };
    let detail = SourceDetail {
        source: source_item(&s),
        derived_from: s.derived_from.clone(),
        variants: serde_json::to_value(&s.variants).map_err(ArchiveError::stored)?,
        summary_html: render_html(&summary),
        summary,
        evidence: links(pool, Linked::EvidenceOfSource, &s.id, "/api/v1/evidence").await?,
        rulesets: links(pool, Linked::RulesetsOfSource, &s.id, "/api/v1/rulesets").await?,
    };
    Ok(Some((detail, s)))
}

/// One passage: its quote as HTML, summary, citation and the rulesets it supports.
pub async fn evidence_detail(
    pool: &PgPool,
    id: &str,
) -> Result<Option<EvidenceDetail>, ArchiveError> {
    let Some(record) = store::record(pool, Table::Evidence, id).await? else {
        return Ok(None);
    };
    let (mut e, summary): (Evidence, String) = from_record(record, "summary")?;
    let (source, _) = load_source(pool, &e.source)
        .await?
        .ok_or_else(|| ArchiveError::Stored(format!("evidence {} cites no stored source", e.id)))?;
    e.summary = summary.clone();
    // Verbatim, paragraph by paragraph, each picture of the source once.
    let quote_html = tsoro_corpus::quotation::html(&e.quote);
    Ok(Some(EvidenceDetail {
        evidence: evidence_item(&e, None),
        page_note: e.page_note.clone(),
        observed: e.observed.clone(),
        xref: e.xref.clone(),
        not_executable: e.not_executable.clone(),
        quote_html,
        summary_html: render_html(&summary),
        summary,
        source_url: format!("/api/v1/sources/{}", e.source),
        citation: cite::evidence_citation(&e, &source),
        rulesets: links(pool, Linked::RulesetsOfEvidence, &e.id, "/api/v1/rulesets").await?,
    }))
}

/// One ruleset's stored detail document (rendered at import) and its ETag.
pub async fn ruleset_stored(
    pool: &PgPool,
    id: &str,
) -> Result<Option<(String, String)>, ArchiveError> {
    Ok(store::ruleset_detail(pool, id).await?)
}

/// One ruleset: configuration, parameters, a citation per rule and its description.
pub async fn ruleset_detail(
    pool: &PgPool,
    id: &str,
) -> Result<Option<RulesetDetail>, ArchiveError> {
    ruleset_stored(pool, id)
        .await?
        .map(|(detail, _)| serde_json::from_str(&detail).map_err(ArchiveError::stored))
        .transpose()
}

/// Two rulesets rule by rule: the fields whose values differ at default parameters, each
/// side with its citation; `Err(id)` names a ruleset that does not exist.
pub async fn ruleset_diff(
    pool: &PgPool,
    a: &str,
    b: &str,
) -> Result<Result<RulesetDiff, String>, ArchiveError> {
    let mut sides = vec![];
    for id in [a, b] {
        let Some(config) = store::ruleset_config(pool, id).await? else {
            return Ok(Err(id.to_string()));
        };
        let Ok(def) = tsoro_engine::catalogue::get(id) else {
            return Ok(Err(id.to_string()));
        };
        sides.push((config, def.kind, citations(pool, id).await?));
    }
    let cite = |i: usize, f: &str| sides[i].2.iter().find(|c| c.field == f).cloned();
    let differences: Vec<RuleDiffRow> =
        rule_differences((&sides[0].0, sides[0].1), (&sides[1].0, sides[1].1))
            .into_iter()
            .map(|d| RuleDiffRow {
                field: d.field.to_string(),
                a_citation: cite(0, d.field),
                b_citation: cite(1, d.field),
                a: d.a,
                b: d.b,
            })
            .collect();
    Ok(Ok(RulesetDiff {
        a: a.to_string(),
        b: b.to_string(),
        differences,
    }))
}

/// The passages of a game or a source, oldest period first.
pub async fn evidence_items(
    pool: &PgPool,
    game: Option<&str>,
    source: Option<&str>,
) -> Result<Vec<EvidenceItem>, ArchiveError> {
    let rows = store::evidence_by_period(pool, game, source).await?;
    rows.into_iter()
        .map(|r| from_record::<Evidence>(r, "summary").map(|(e, _)| evidence_item(&e, None)))
        .collect()
}

/// A ruleset's engine configuration at default parameters, as stored.
pub async fn ruleset_config(pool: &PgPool, id: &str) -> Result<Option<Value>, ArchiveError> {
    Ok(store::ruleset_config(pool, id).await?)
}
