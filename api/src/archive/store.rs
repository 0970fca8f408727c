//! The archive's SQL: every read of its tables, one function per query, returning the stored
//! records and rows (`read` turns them into the API's documents), and the import's writes
//! (upserts by hash, links, deletions) inside its one transaction.

use serde_json::Value;
use sqlx::{PgPool, Postgres, Transaction};

/// A table of records with an `id` (what a filter may name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Games,
    Sources,
    Evidence,
    Rulesets,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Games => "archive_games",
            Table::Sources => "archive_sources",
            Table::Evidence => "archive_evidence",
            Table::Rulesets => "archive_rulesets",
        }
    }

    /// The import's upsert of one record: `$1` the id, `$2` the hash, then the columns
    /// [`upsert`] binds; a row whose hash is unchanged is left alone.
    fn upsert_sql(self) -> &'static str {
        match self {
            Table::Games => {
                "INSERT INTO archive_games (id, hash, name, family, record) \
                 VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, name = EXCLUDED.name, \
                 family = EXCLUDED.family, record = EXCLUDED.record, imported_at = now() \
                 WHERE archive_games.hash <> EXCLUDED.hash RETURNING (xmax = 0)"
            }
            Table::Sources => {
                "INSERT INTO archive_sources (id, hash, kind, title, year, record) \
                 VALUES ($1, $2, $3, $4, $5::int, $6) \
                 ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, kind = EXCLUDED.kind, \
                 title = EXCLUDED.title, year = EXCLUDED.year, record = EXCLUDED.record, \
                 imported_at = now() WHERE archive_sources.hash <> EXCLUDED.hash \
                 RETURNING (xmax = 0)"
            }
            Table::Evidence => {
                "INSERT INTO archive_evidence (id, hash, source_id, game_id, location, date_from, \
                 date_to, quote, summary, record) \
                 VALUES ($1, $2, $3, $4, $5, $6::int, $7::int, $8, $9, $10) \
                 ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, \
                 source_id = EXCLUDED.source_id, game_id = EXCLUDED.game_id, \
                 location = EXCLUDED.location, date_from = EXCLUDED.date_from, \
                 date_to = EXCLUDED.date_to, quote = EXCLUDED.quote, \
                 summary = EXCLUDED.summary, record = EXCLUDED.record, imported_at = now() \
                 WHERE archive_evidence.hash <> EXCLUDED.hash RETURNING (xmax = 0)"
            }
            Table::Rulesets => {
                "INSERT INTO archive_rulesets (id, hash, game_id, title, version, config, \
                 params, record, detail, etag) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                 ON CONFLICT (id) DO UPDATE SET hash = EXCLUDED.hash, \
                 game_id = EXCLUDED.game_id, title = EXCLUDED.title, \
                 version = EXCLUDED.version, config = EXCLUDED.config, \
                 params = EXCLUDED.params, record = EXCLUDED.record, \
                 detail = EXCLUDED.detail, etag = EXCLUDED.etag, imported_at = now() \
                 WHERE archive_rulesets.hash <> EXCLUDED.hash RETURNING (xmax = 0)"
            }
        }
    }
}

/// Every id of a table, in order.
pub async fn ids(pool: &PgPool, table: Table) -> Result<Vec<String>, sqlx::Error> {
    let sql = format!("SELECT id FROM {} ORDER BY id", table.name());
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .fetch_all(pool)
        .await
}

/// Every record of a table, by id.
pub async fn records(pool: &PgPool, table: Table) -> Result<Vec<Value>, sqlx::Error> {
    let sql = format!("SELECT record FROM {} ORDER BY id", table.name());
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .fetch_all(pool)
        .await
}

/// The record with this id, if there is one.
pub async fn record(pool: &PgPool, table: Table, id: &str) -> Result<Option<Value>, sqlx::Error> {
    let sql = format!("SELECT record FROM {} WHERE id = $1", table.name());
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// The records linked to one record: (id, label) pairs, by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linked {
    /// A game's passages, labelled by place.
    EvidenceOfGame,
    /// A game's rulesets, by title.
    RulesetsOfGame,
    /// A source's passages, by place.
    EvidenceOfSource,
    /// The rulesets following a source, by title.
    RulesetsOfSource,
    /// The rulesets a passage supports, by title.
    RulesetsOfEvidence,
}

/// The (id, label) pairs of the records linked to `id`.
pub async fn linked(
    pool: &PgPool,
    what: Linked,
    id: &str,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let sql = match what {
        Linked::EvidenceOfGame => {
            "SELECT id, location FROM archive_evidence WHERE game_id = $1 ORDER BY id"
        }
        Linked::RulesetsOfGame => {
            "SELECT id, title FROM archive_rulesets WHERE game_id = $1 ORDER BY id"
        }
        Linked::EvidenceOfSource => {
            "SELECT id, location FROM archive_evidence WHERE source_id = $1 ORDER BY id"
        }
        Linked::RulesetsOfSource => {
            "SELECT r.id, r.title FROM archive_rulesets r JOIN archive_ruleset_sources s \
             ON s.ruleset_id = r.id WHERE s.source_id = $1 ORDER BY r.id"
        }
        Linked::RulesetsOfEvidence => {
            "SELECT r.id, r.title FROM archive_rulesets r JOIN archive_evidence_rulesets x \
             ON x.ruleset_id = r.id WHERE x.evidence_id = $1 ORDER BY r.id"
        }
    };
    sqlx::query_as(sql).bind(id).fetch_all(pool).await
}

/// A ruleset in a list: id, title, game, version and its sources in order.
pub type RulesetRow = (String, String, String, String, Vec<String>);

/// Which rulesets to list (each filter, when given, must hold).
#[derive(Clone, Copy, Debug, Default)]
pub struct RulesetFilter<'a> {
    /// Of this game.
    pub game: Option<&'a str>,
    /// Following this source.
    pub source: Option<&'a str>,
    /// Supported by or citing this passage.
    pub evidence: Option<&'a str>,
}

/// The rulesets passing the filter, by id.
pub async fn rulesets(
    pool: &PgPool,
    filter: RulesetFilter<'_>,
) -> Result<Vec<RulesetRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.title, r.game_id, r.version, \
           array(SELECT s.source_id FROM archive_ruleset_sources s WHERE s.ruleset_id = r.id \
                 ORDER BY s.position) AS sources \
         FROM archive_rulesets r \
         WHERE ($1::text IS NULL OR r.game_id = $1) \
           AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM archive_ruleset_sources s \
                WHERE s.ruleset_id = r.id AND s.source_id = $2)) \
           AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM archive_evidence_rulesets x \
                WHERE x.ruleset_id = r.id AND x.evidence_id = $3) \
                OR EXISTS (SELECT 1 FROM archive_rule_citations c \
                WHERE c.ruleset_id = r.id AND (c.evidence_id = $3 \
                   OR c.citation->'evidence' ? $3)) \
                OR EXISTS (SELECT 1 FROM archive_parameter_readings p \
                WHERE p.ruleset_id = r.id AND p.evidence ? $3)) \
         ORDER BY r.id",
    )
    .bind(filter.game)
    .bind(filter.source)
    .bind(filter.evidence)
    .fetch_all(pool)
    .await
}

/// A ruleset's citations: (field, kind, citation), by field.
pub async fn citations(
    pool: &PgPool,
    ruleset: &str,
) -> Result<Vec<(String, String, Value)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT field, kind, citation FROM archive_rule_citations WHERE ruleset_id = $1 \
         ORDER BY field",
    )
    .bind(ruleset)
    .fetch_all(pool)
    .await
}

/// A ruleset's detail document as rendered at import, and its ETag.
pub async fn ruleset_detail(
    pool: &PgPool,
    id: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT detail, etag FROM archive_rulesets WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// A ruleset's engine configuration at default parameters.
pub async fn ruleset_config(pool: &PgPool, id: &str) -> Result<Option<Value>, sqlx::Error> {
    sqlx::query_scalar("SELECT config FROM archive_rulesets WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// The passage records of a game or a source (or all), oldest period first.
pub async fn evidence_by_period(
    pool: &PgPool,
    game: Option<&str>,
    source: Option<&str>,
) -> Result<Vec<Value>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT record FROM archive_evidence \
         WHERE ($1::text IS NULL OR game_id = $1) AND ($2::text IS NULL OR source_id = $2) \
         ORDER BY date_from, date_to, id",
    )
    .bind(game)
    .bind(source)
    .fetch_all(pool)
    .await
}

/// A page of the evidence list: its filters, the search, and where the previous page ended.
#[derive(Clone, Debug, Default)]
pub struct EvidenceQuery<'a> {
    pub source: Option<&'a str>,
    pub game: Option<&'a str>,
    /// Words of the place (a case-insensitive substring).
    pub location: Option<&'a str>,
    /// Periods reaching this year or later.
    pub from: Option<i32>,
    /// Periods starting this year or earlier.
    pub to: Option<i32>,
    /// A web-search query: results ranked.
    pub text: Option<&'a str>,
    /// The last id of the previous page (and its rank, when searched).
    pub after: Option<(String, Option<f32>)>,
    /// Rows to read.
    pub limit: i64,
}

/// The passages of one page: (record, rank), by rank then id.
pub async fn evidence_page(
    pool: &PgPool,
    q: &EvidenceQuery<'_>,
) -> Result<Vec<(Value, Option<f32>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT record, rank FROM ( \
           SELECT id, record, CASE WHEN $6::text IS NULL THEN NULL \
             ELSE ts_rank(search, websearch_to_tsquery('english', $6)) END AS rank \
           FROM archive_evidence \
           WHERE ($1::text IS NULL OR source_id = $1) \
             AND ($2::text IS NULL OR game_id = $2) \
             AND ($3::text IS NULL OR strpos(lower(location), lower($3)) > 0) \
             AND ($4::int IS NULL OR date_to >= $4) \
             AND ($5::int IS NULL OR date_from <= $5) \
             AND ($6::text IS NULL OR search @@ websearch_to_tsquery('english', $6)) \
         ) e \
         WHERE $7::text IS NULL \
            OR ($8::real IS NULL AND id > $7) \
            OR ($8::real IS NOT NULL AND (rank < $8 OR (rank = $8 AND id > $7))) \
         ORDER BY rank DESC NULLS LAST, id \
         LIMIT $9",
    )
    .bind(q.source)
    .bind(q.game)
    .bind(q.location)
    .bind(q.from)
    .bind(q.to)
    .bind(q.text)
    .bind(q.after.as_ref().map(|a| a.0.clone()))
    .bind(q.after.as_ref().and_then(|a| a.1))
    .bind(q.limit)
    .fetch_all(pool)
    .await
}

/// The import's transaction.
pub type Tx<'a> = Transaction<'a, Postgres>;

/// Serialises imports between processes (until the transaction ends).
pub async fn lock_import(tx: &mut Tx<'_>) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('tsoro archive import'))")
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Inserts or updates one record of `table` unless its hash is unchanged: `Some(true)`
/// inserted, `Some(false)` updated, `None` untouched. `columns` follow the id and the hash in
/// the table's order (strings, numbers or null as such, objects and arrays as jsonb).
pub async fn upsert(
    tx: &mut Tx<'_>,
    table: Table,
    id: &str,
    hash: String,
    columns: &[Value],
) -> Result<Option<bool>, sqlx::Error> {
    let mut q = sqlx::query_scalar::<_, bool>(table.upsert_sql())
        .bind(id)
        .bind(hash);
    for v in columns {
        q = match v {
            Value::String(s) => q.bind(s.clone()),
            Value::Number(n) => q.bind(n.as_i64()),
            Value::Null => q.bind(None::<i64>),
            other => q.bind(other.clone()),
        };
    }
    q.fetch_optional(&mut **tx).await
}

/// A rule's citation as stored: field, kind, the evidence quoted (if any), the citation.
pub type CitationRow = (String, &'static str, Option<String>, Value);

/// A parameter choice's reading as stored: parameter, choice, kind, the evidence ids it
/// quotes or rests on (a JSON array), the citation.
pub type ReadingRow = (String, String, &'static str, Value, Value);

/// Replaces a ruleset's sources (in order), rule citations and parameter readings.
pub async fn relink_ruleset(
    tx: &mut Tx<'_>,
    ruleset: &str,
    sources: &[String],
    citations: &[CitationRow],
    readings: &[ReadingRow],
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM archive_parameter_readings WHERE ruleset_id = $1")
        .bind(ruleset)
        .execute(&mut **tx)
        .await?;
    for (param, choice, kind, evidence, citation) in readings {
        sqlx::query(
            "INSERT INTO archive_parameter_readings \
             (ruleset_id, parameter, choice, kind, evidence, citation) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(ruleset)
        .bind(param)
        .bind(choice)
        .bind(kind)
        .bind(evidence)
        .bind(citation)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("DELETE FROM archive_ruleset_sources WHERE ruleset_id = $1")
        .bind(ruleset)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM archive_rule_citations WHERE ruleset_id = $1")
        .bind(ruleset)
        .execute(&mut **tx)
        .await?;
    for (i, s) in sources.iter().enumerate() {
        sqlx::query(
            "INSERT INTO archive_ruleset_sources (ruleset_id, source_id, position) \
             VALUES ($1, $2, $3)",
        )
        .bind(ruleset)
        .bind(s)
        .bind(i as i32)
        .execute(&mut **tx)
        .await?;
    }
    for (field, kind, evidence, citation) in citations {
        sqlx::query(
            "INSERT INTO archive_rule_citations (ruleset_id, field, kind, evidence_id, citation) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(ruleset)
        .bind(field)
        .bind(kind)
        .bind(evidence)
        .bind(citation)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Replaces the rulesets a passage supports (those that exist).
pub async fn relink_evidence(
    tx: &mut Tx<'_>,
    evidence: &str,
    rulesets: &[String],
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM archive_evidence_rulesets WHERE evidence_id = $1")
        .bind(evidence)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO archive_evidence_rulesets (evidence_id, ruleset_id) \
         SELECT $1, r FROM unnest($2::text[]) AS r \
         WHERE EXISTS (SELECT 1 FROM archive_rulesets WHERE id = r) ON CONFLICT DO NOTHING",
    )
    .bind(evidence)
    .bind(rulesets)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Links a ruleset to every passage whose record names it (for a ruleset that comes back
/// after being removed).
pub async fn link_evidence_naming(tx: &mut Tx<'_>, ruleset: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO archive_evidence_rulesets (evidence_id, ruleset_id) \
         SELECT id, $1 FROM archive_evidence WHERE record->'rulesets' ? $1 \
         ON CONFLICT DO NOTHING",
    )
    .bind(ruleset)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Deletes the records of `table` not in `keep`; returns how many.
pub async fn delete_others(
    tx: &mut Tx<'_>,
    table: Table,
    keep: &[String],
) -> Result<u64, sqlx::Error> {
    let sql = format!("DELETE FROM {} WHERE NOT (id = ANY($1))", table.name());
    Ok(sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(keep)
        .execute(&mut **tx)
        .await?
        .rows_affected())
}
