//! Import of the compiled-in corpus into PostgreSQL: idempotent and cheap. Every record is
//! stored whole with a sha256 of it; an import inserts new records, rewrites changed ones (and
//! their links), leaves unchanged ones untouched and removes records the corpus has dropped.

use super::detail::{DetailParts, citation_kind, etag_of, ruleset_detail};
use super::schema::RulesetItem;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::{PgPool, Postgres, Transaction};
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

/// A parameter as the archive shows it: name, type, default, range and meaning.
pub fn param_json(p: &ParamSpec) -> Value {
    let mut v = json!({
        "name": p.name,
        "type": p.type_name(),
        "default": p.default,
        "range": p.range(),
        "description": p.description,
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
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('tsoro archive import'))")
        .execute(&mut *tx)
        .await?;
    let mut report = ImportReport::default();

    for g in corpus.games.values() {
        let record = to_json(g);
        let changed = upsert(
            &mut tx,
            "INSERT INTO archive_games (id, hash, name, family, record) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, name = EXCLUDED.name, \
             family = EXCLUDED.family, record = EXCLUDED.record, imported_at = now() \
             WHERE archive_games.hash <> EXCLUDED.hash RETURNING (xmax = 0)",
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
        let changed = upsert(
            &mut tx,
            "INSERT INTO archive_sources (id, hash, kind, title, year, record) \
             VALUES ($1, $2, $3, $4, $5::int, $6) \
             ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, kind = EXCLUDED.kind, \
             title = EXCLUDED.title, year = EXCLUDED.year, record = EXCLUDED.record, \
             imported_at = now() WHERE archive_sources.hash <> EXCLUDED.hash RETURNING (xmax = 0)",
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
        let changed = upsert(
            &mut tx,
            "INSERT INTO archive_evidence (id, hash, source_id, game_id, location, date_from, \
             date_to, quote, summary, record) \
             VALUES ($1, $2, $3, $4, $5, $6::int, $7::int, $8, $9, $10) \
             ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, source_id = EXCLUDED.source_id, \
             game_id = EXCLUDED.game_id, location = EXCLUDED.location, \
             date_from = EXCLUDED.date_from, date_to = EXCLUDED.date_to, quote = EXCLUDED.quote, \
             summary = EXCLUDED.summary, record = EXCLUDED.record, imported_at = now() \
             WHERE archive_evidence.hash <> EXCLUDED.hash RETURNING (xmax = 0)",
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
        let params: Vec<Value> = def.params.iter().map(param_json).collect();
        let version = crate::plan::config_hash(&def.config);
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
            description: &r.description,
        });
        let detail = serde_json::to_string(&detail).unwrap_or_default();
        let etag = etag_of(detail.as_bytes());
        // The detail is in the hash, so a change in how it is rendered rewrites the row too.
        let whole = json!({"record": record, "config": def.config, "params": params,
            "title": def.title, "detail": etag});
        let changed = upsert(
            &mut tx,
            "INSERT INTO archive_rulesets (id, hash, game_id, title, version, config, params, \
             record, detail, etag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, game_id = EXCLUDED.game_id, \
             title = EXCLUDED.title, version = EXCLUDED.version, config = EXCLUDED.config, \
             params = EXCLUDED.params, record = EXCLUDED.record, detail = EXCLUDED.detail, \
             etag = EXCLUDED.etag, imported_at = now() \
             WHERE archive_rulesets.hash <> EXCLUDED.hash RETURNING (xmax = 0)",
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
        sqlx::query("DELETE FROM archive_ruleset_sources WHERE ruleset_id = $1")
            .bind(&r.id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM archive_rule_citations WHERE ruleset_id = $1")
            .bind(&r.id)
            .execute(&mut *tx)
            .await?;
        for (i, s) in r.sources.iter().enumerate() {
            sqlx::query(
                "INSERT INTO archive_ruleset_sources (ruleset_id, source_id, position) \
                 VALUES ($1, $2, $3)",
            )
            .bind(&r.id)
            .bind(s)
            .bind(i as i32)
            .execute(&mut *tx)
            .await?;
        }
        for (field, c) in &r.rules {
            let kind = citation_kind(c);
            let evidence = match c {
                Citation::Evidence { evidence, .. } => Some(evidence.clone()),
                _ => None,
            };
            sqlx::query(
                "INSERT INTO archive_rule_citations (ruleset_id, field, kind, evidence_id, citation) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&r.id)
            .bind(field)
            .bind(kind)
            .bind(evidence)
            .bind(to_json(c))
            .execute(&mut *tx)
            .await?;
        }
    }
    for e in &changed_evidence {
        sqlx::query("DELETE FROM archive_evidence_rulesets WHERE evidence_id = $1")
            .bind(&e.id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO archive_evidence_rulesets (evidence_id, ruleset_id) \
             SELECT $1, r FROM unnest($2::text[]) AS r \
             WHERE EXISTS (SELECT 1 FROM archive_rulesets WHERE id = r) ON CONFLICT DO NOTHING",
        )
        .bind(&e.id)
        .bind(&e.rulesets)
        .execute(&mut *tx)
        .await?;
    }
    // A ruleset record that comes back after being removed gets its evidence links again.
    for r in &changed_rulesets {
        sqlx::query(
            "INSERT INTO archive_evidence_rulesets (evidence_id, ruleset_id) \
             SELECT id, $1 FROM archive_evidence WHERE record->'rulesets' ? $1 \
             ON CONFLICT DO NOTHING",
        )
        .bind(&r.id)
        .execute(&mut *tx)
        .await?;
    }

    // Records the corpus no longer has, dependants first.
    let ids = |m: Vec<&String>| m.into_iter().cloned().collect::<Vec<String>>();
    for (table, keep) in [
        ("archive_rulesets", ids(corpus.rulesets.keys().collect())),
        ("archive_evidence", ids(corpus.evidence.keys().collect())),
        ("archive_sources", ids(corpus.sources.keys().collect())),
        ("archive_games", ids(corpus.games.keys().collect())),
    ] {
        let sql = format!("DELETE FROM {table} WHERE NOT (id = ANY($1))");
        report.deleted += sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&keep)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    tx.commit().await?;
    Ok(report)
}

/// Inserts or updates one record unless its hash is unchanged: `Some(true)` inserted,
/// `Some(false)` updated, `None` untouched. `$1` is the id, `$2` the hash, then `binds`
/// (strings, numbers or null as such, objects and arrays as jsonb).
async fn upsert(
    tx: &mut Transaction<'_, Postgres>,
    sql: &'static str,
    id: &str,
    hash: String,
    binds: &[Value],
) -> Result<Option<bool>, sqlx::Error> {
    let mut q = sqlx::query_scalar::<_, bool>(sql).bind(id).bind(hash);
    for v in binds {
        q = match v {
            Value::String(s) => q.bind(s.clone()),
            Value::Number(n) => q.bind(n.as_i64()),
            Value::Null => q.bind(None::<i64>),
            other => q.bind(other.clone()),
        };
    }
    q.fetch_optional(&mut **tx).await
}
