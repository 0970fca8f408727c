//! Prefix full-text search over the archive's words: the passages' quotations and summaries,
//! the rules' citations and the rulesets' descriptions, each hit with highlighted snippets
//! (PostgreSQL `ts_headline`). The query is built here from the reader's words alone, so no
//! input can be read as query syntax.

use super::ArchiveError;
use sqlx::PgPool;

/// The longest query read (characters); the rest is ignored.
pub const MAX_QUERY_CHARS: usize = 200;
/// The most terms in a query.
const MAX_TERMS: usize = 12;
/// The most hits answered.
const MAX_HITS: i64 = 100;

/// A `to_tsquery` text from a reader's words: every word a prefix (`capt` finds "capture"),
/// words in double quotes a phrase, all of them required. Anything but letters and digits
/// separates words, so quotes, `&|!:*()` and the like cannot reach the query's syntax.
/// `None` when no word is left.
pub fn prefix_query(text: &str) -> Option<String> {
    let text: String = text.chars().take(MAX_QUERY_CHARS).collect();
    let mut terms = vec![];
    for (i, part) in text.split('"').enumerate() {
        let words: Vec<String> = part
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| format!("{}:*", w.to_lowercase()))
            .collect();
        if i % 2 == 1 && words.len() > 1 {
            terms.push(format!("({})", words.join(" <-> ")));
        } else {
            terms.extend(words);
        }
    }
    terms.truncate(MAX_TERMS);
    (!terms.is_empty()).then(|| terms.join(" & "))
}

/// What a hit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitKind {
    /// A passage of evidence (its quotation or summary).
    Evidence,
    /// One rule of a ruleset (the words that cite it or the reasoning behind it).
    Rule,
    /// A ruleset (its title and description).
    Ruleset,
}

/// One hit: what and where, and its snippets with the matched words between `\u{2}` and
/// `\u{3}` (the caller escapes the text, then marks them).
#[derive(Clone, Debug)]
pub struct Hit {
    pub kind: HitKind,
    /// The passage's or the ruleset's id.
    pub id: String,
    /// The rule's field, for a rule.
    pub field: Option<String>,
    /// The main snippet (the quotation, the citation, the description).
    pub snippet: String,
    /// A second snippet (a passage's summary) when it matched too.
    pub summary: Option<String>,
    pub rank: f32,
}

/// Where a match starts and ends in a snippet.
pub const MARK_START: char = '\u{2}';
pub const MARK_END: char = '\u{3}';

/// A hit as the query answers it: kind, id, field, snippet, summary snippet, rank.
type HitRow = (String, String, Option<String>, String, Option<String>, f32);

/// The hits of a `to_tsquery` text (from [`prefix_query`]), best first.
pub async fn search(pool: &PgPool, query: &str) -> Result<Vec<Hit>, ArchiveError> {
    let rows: Vec<HitRow> =
        sqlx::query_as(
            "WITH q AS (SELECT to_tsquery('english', $1) AS q), \
             o AS (SELECT 'StartSel=' || chr(2) || ', StopSel=' || chr(3) || \
                   ', MaxWords=40, MinWords=15, MaxFragments=2' AS o) \
             SELECT 'evidence', e.id, NULL::text, \
                    ts_headline('english', e.quote, q.q, o.o), \
                    CASE WHEN to_tsvector('english', e.summary) @@ q.q \
                      THEN ts_headline('english', e.summary, q.q, o.o) END, \
                    ts_rank(e.search, q.q) \
               FROM archive_evidence e, q, o WHERE e.search @@ q.q \
             UNION ALL \
             SELECT 'rule', c.ruleset_id, c.field, ts_headline('english', t.text, q.q, o.o), \
                    NULL, (ts_rank(t.v, q.q) * 0.8)::real \
               FROM archive_rule_citations c, q, o, LATERAL ( \
                 SELECT x.text, to_tsvector('english', replace(c.field, '.', ' ') || ' ' || x.text) AS v \
                 FROM (SELECT coalesce(c.citation->>'quote', c.citation->>'reconstructed', \
                       c.citation->>'assumed', c.citation->>'not_applicable', '') AS text) x) t \
              WHERE t.v @@ q.q \
             UNION ALL \
             SELECT 'ruleset', r.id, NULL, \
                    ts_headline('english', r.title || '. ' || coalesce(r.record->>'description', ''), q.q, o.o), \
                    NULL, ts_rank(t.v, q.q) \
               FROM archive_rulesets r, q, o, LATERAL ( \
                 SELECT to_tsvector('english', r.title || ' ' || coalesce(r.record->>'description', '')) AS v) t \
              WHERE t.v @@ q.q \
             ORDER BY 6 DESC, 1, 2, 3 \
             LIMIT $2",
        )
        .bind(query)
        .bind(MAX_HITS)
        .fetch_all(pool)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(kind, id, field, snippet, summary, rank)| Hit {
            kind: match kind.as_str() {
                "evidence" => HitKind::Evidence,
                "rule" => HitKind::Rule,
                _ => HitKind::Ruleset,
            },
            id,
            field,
            snippet,
            summary,
            rank,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_a_prefix_and_no_input_is_syntax() {
        assert_eq!(
            prefix_query("capt head").as_deref(),
            Some("capt:* & head:*")
        );
        assert_eq!(
            prefix_query("\"last stone\" heads").as_deref(),
            Some("(last:* <-> stone:*) & heads:*")
        );
        assert_eq!(
            prefix_query("a&b|!c:*(d)'e'").as_deref(),
            Some("a:* & b:* & c:* & d:* & e:*")
        );
        for empty in ["", "   ", "&|!:*()\"'", "\"\"", "<->"] {
            assert_eq!(prefix_query(empty), None, "{empty:?}");
        }
        assert_eq!(
            prefix_query("\"unclosed phrase").as_deref(),
            Some("(unclosed:* <-> phrase:*)")
        );
        let long = "word ".repeat(100);
        assert_eq!(
            prefix_query(&long).unwrap().matches(":*").count(),
            MAX_TERMS
        );
    }
}
