//! Import of the compiled-in corpus into PostgreSQL: idempotent and cheap. Every record is
//! stored whole with a sha256 of it; an import inserts new records, rewrites changed ones (and
//! their links), leaves unchanged ones untouched and removes records the corpus has dropped.

use super::detail::{
    DetailParts, citation_kind, etag_of, param_reading, ruleset_detail, stored_citation,
};
use super::store::{self, Table};
use super::views::RulesetItem;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use std::collections::BTreeMap;
use tsoro_corpus::{Citation, Corpus};
use tsoro_engine::catalogue::{self, ParamKind, ParamSpec};

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    /// Records new to the database.
    pub inserted: u64,
    /// Records whose content changed.
    pub updated: u64,
    /// Records left as they were.
    pub unchanged: u64,
    /// Records the corpus no longer has.
    pub deleted: u64,
}

impl ImportReport {
    fn count(&mut self, outcome: Option<bool>) -> bool {
        match outcome {
            Some(true) => self.inserted += 1,
            Some(false) => self.updated += 1,
            None => self.unchanged += 1,
        }
        outcome.is_some()
    }
}

fn sha256(v: &Value) -> String {
    Sha256::digest(v.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn to_json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// A parameter as the archive shows it: name, type, default, range, meaning, and each choice
/// as a reading with its citation (`readings`, from the ruleset's archive record).
pub fn param_json(p: &ParamSpec, readings: Option<&BTreeMap<String, Citation>>) -> Value {
    let readings: Vec<_> = readings
        .into_iter()
        .flatten()
        .map(|(choice, c)| param_reading(choice, c))
        .collect();
    let mut v = json!({
        "name": p.name,
        "type": p.type_name(),
        "default": p.default,
        "range": p.range(),
        "description": p.description,
        "readings": readings,
    });
    match &p.kind {
        ParamKind::Int { min, max, .. } => {
            v["min"] = json!(min);
            v["max"] = json!(max);
        }
        ParamKind::Bool { .. } => v["choices"] = json!([false, true]),
        ParamKind::Choice { choices } => v["choices"] = json!(choices.keys().collect::<Vec<_>>()),
    }
    v
}

/// Imports the compiled-in corpus.
pub async fn import_corpus(pool: &PgPool) -> anyhow::Result<ImportReport> {
    let corpus = Corpus::load()?;
    Ok(import(pool, &corpus).await?)
}

/// Imports `corpus` in one transaction (serialised between processes by an advisory lock).
pub async fn import(pool: &PgPool, corpus: &Corpus) -> Result<ImportReport, sqlx::Error> {
    let mut tx = pool.begin().await?;
    store::lock_import(&mut tx).await?;
    let mut report = ImportReport::default();

    for g in corpus.games.values() {
        let record = to_json(g);
        let changed = store::upsert(
            &mut tx,
            Table::Games,
            &g.id,
            sha256(&record),
            &[
                g.names.first().cloned().unwrap_or_default().into(),
                g.family.clone().into(),
                record,
            ],
        )
        .await?;
        report.count(changed);
    }
    for s in corpus.sources.values() {
        let record = to_json(s);
        let changed = store::upsert(
            &mut tx,
            Table::Sources,
            &s.id,
            sha256(&record),
            &[
                s.kind.clone().into(),
                s.title.clone().into(),
                s.year.into(),
                record,
            ],
        )
        .await?;
        report.count(changed);
    }
    let mut changed_evidence = vec![];
    for e in corpus.evidence.values() {
        let record = to_json(e);
        let changed = store::upsert(
            &mut tx,
            Table::Evidence,
            &e.id,
            sha256(&record),
            &[
                e.source.clone().into(),
                e.game.clone().into(),
                e.location.clone().into(),
                e.date_from.into(),
                e.date_to.into(),
                e.quote.clone().into(),
                e.summary.clone().into(),
                record,
            ],
        )
        .await?;
        if report.count(changed) {
            changed_evidence.push(e);
        }
    }
    let mut changed_rulesets = vec![];
    for r in corpus.rulesets.values() {
        let Ok(def) = catalogue::get(&r.id) else {
            continue; // the corpus validates that every record is a shipped ruleset
        };
        let params: Vec<Value> = def
            .params
            .iter()
            .map(|p| param_json(p, r.params.get(&p.name)))
            .collect();
        let version = crate::runs::plan::config_hash(&def.config);
        let record = to_json(r);
        let detail = ruleset_detail(DetailParts {
            item: RulesetItem {
                url: format!("/api/v1/rulesets/{}", r.id),
                id: r.id.clone(),
                title: def.title.clone(),
                game: r.game.clone(),
                sources: r.sources.clone(),
                version: version.clone(),
            },
            inherit: r.inherit.clone(),
            config: &def.config,
            params: &params,
            rules: &r.rules,
            inherited: &r.inherited,
            description: &r.description,
        });
        let detail = serde_json::to_string(&detail).unwrap_or_default();
        let etag = etag_of(detail.as_bytes());
        // The detail is in the hash, so a change in how it is rendered rewrites the row too.
        let whole = json!({"record": record, "config": def.config, "params": params,
            "title": def.title, "detail": etag});
        let changed = store::upsert(
            &mut tx,
            Table::Rulesets,
            &r.id,
            sha256(&whole),
            &[
                r.game.clone().into(),
                def.title.clone().into(),
                version.into(),
                def.config.clone(),
                Value::Array(params),
                record,
                detail.into(),
                etag.into(),
            ],
        )
        .await?;
        if report.count(changed) {
            changed_rulesets.push(r);
        }
    }

    // Links of the records that changed.
    for r in &changed_rulesets {
        let citations: Vec<store::CitationRow> = r
            .rules
            .iter()
            .map(|(field, c)| {
                let evidence = match c {
                    Citation::Evidence { evidence, .. } => Some(evidence.clone()),
                    _ => None,
                };
                let stored = stored_citation(c, r.inherited.get(field));
                (field.clone(), citation_kind(c), evidence, stored)
            })
            .collect();
        let readings: Vec<store::ReadingRow> = r
            .params
            .iter()
            .flat_map(|(param, choices)| {
                choices.iter().map(move |(choice, c)| {
                    let evidence: Vec<&str> = c.evidence_ids();
                    (
                        param.clone(),
                        choice.clone(),
                        citation_kind(c),
                        json!(evidence),
                        to_json(c),
                    )
                })
            })
            .collect();
        store::relink_ruleset(&mut tx, &r.id, &r.sources, &citations, &readings).await?;
    }
    for e in &changed_evidence {
        store::relink_evidence(&mut tx, &e.id, &e.rulesets).await?;
    }
    // A ruleset record that comes back after being removed gets its evidence links again.
    for r in &changed_rulesets {
        store::link_evidence_naming(&mut tx, &r.id).await?;
    }

    // Records the corpus no longer has, dependants first.
    let ids = |m: Vec<&String>| m.into_iter().cloned().collect::<Vec<String>>();
    for (table, keep) in [
        (Table::Rulesets, ids(corpus.rulesets.keys().collect())),
        (Table::Evidence, ids(corpus.evidence.keys().collect())),
        (Table::Sources, ids(corpus.sources.keys().collect())),
        (Table::Games, ids(corpus.games.keys().collect())),
    ] {
        report.deleted += store::delete_others(&mut tx, table, &keep).await?;
    }
    tx.commit().await?;
    Ok(report)
}
