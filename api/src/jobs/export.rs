//! Exports of a finished job: every game's record as CSV or JSON (streamed chunk by chunk,
//! never whole in memory), the summary, and a Frictionless data package describing them.

use super::store::{self, JobRow};
use crate::commands::simulate::{RunLabel, summary_csv};
use actix_web::HttpResponse;
use actix_web::web::Bytes;
use futures_util::{StreamExt, stream};
use serde_json::{Value, json};
use sqlx::PgPool;
use tsoro_engine::stats::{Stats, Summary};
use uuid::Uuid;

/// The columns of `games.csv`: name, Frictionless type, description (with units).
pub const GAME_FIELDS: &[(&str, &str, &str)] = &[
    ("game", "integer", "index of the game in the run, from 0"),
    (
        "seed",
        "integer",
        "the game's own seed (an unsigned 64-bit number), derived from (run seed, game) only",
    ),
    (
        "agent_a",
        "string",
        "the agent in seat A (rows i and ii), e.g. random, alphabeta:4",
    ),
    ("agent_b", "string", "the agent in seat B"),
    (
        "agent_a_index",
        "integer",
        "which of the run's two agents (0 or 1) sat in seat A",
    ),
    ("first", "string", "the seat that moved first (A or B)"),
    ("winner", "string", "A, B or draw"),
    (
        "reason",
        "string",
        "why the game ended: no_stones, no_moves, turn_limit, move_limit, endless_sowing, line, too_few_pieces, repetition",
    ),
    (
        "turns",
        "integer",
        "turns played (one player's whole go is a turn)",
    ),
    ("actions", "integer", "decisions made"),
    (
        "moves",
        "integer",
        "moves as Ludii counts them (each relay lap and each take is one)",
    ),
    (
        "captures_a",
        "integer",
        "capture events by seat A (lines made, in line games)",
    ),
    ("captures_b", "integer", "capture events by seat B"),
    (
        "stones_captured_a",
        "integer",
        "stones taken by seat A (captures and takes), in stones",
    ),
    (
        "stones_captured_b",
        "integer",
        "stones taken by seat B, in stones",
    ),
    (
        "stones_left_a",
        "integer",
        "stones left to seat A at the end, in stones",
    ),
    (
        "stones_left_b",
        "integer",
        "stones left to seat B at the end, in stones",
    ),
    (
        "longest_relay",
        "integer",
        "the longest sowing of one action, in laps",
    ),
    (
        "mean_branching",
        "number",
        "mean number of legal actions over the game's decisions",
    ),
    (
        "legal_sum",
        "integer",
        "legal-action counts summed over the decisions",
    ),
    (
        "multi_decisions",
        "integer",
        "decisions with more than one legal action",
    ),
];

/// The header of `games.csv` (the same as `tsoro simulate --csv`).
pub fn games_header() -> String {
    GAME_FIELDS
        .iter()
        .map(|(name, _, _)| *name)
        .collect::<Vec<_>>()
        .join(",")
}

fn stream_error(e: impl std::fmt::Display) -> actix_web::Error {
    actix_web::error::ErrorInternalServerError(e.to_string())
}

/// The stored chunks of a job in order, one at a time (so at most one chunk's records are in
/// memory), each turned into a piece of the response body by `render`.
fn chunk_stream<F>(
    pool: PgPool,
    id: Uuid,
    render: F,
) -> impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>>
where
    F: Fn(bool, Vec<u8>) -> Result<Bytes, sqlx::Error> + Clone + 'static,
{
    stream::unfold(Some(-1i32), move |after| {
        let pool = pool.clone();
        let render = render.clone();
        async move {
            let after = after?;
            match store::next_chunk_records(&pool, id, after).await {
                Ok(None) => None,
                Ok(Some((idx, lines))) => match render(after < 0, lines) {
                    Ok(piece) => Some((Ok(piece), Some(idx))),
                    Err(e) => Some((Err(stream_error(e)), None)),
                },
                Err(e) => Some((Err(stream_error(e)), None)),
            }
        }
    })
}

/// `games.csv`: the header, then each chunk's stored lines in game order; byte for byte the
/// file `tsoro simulate --csv` writes for the same inputs.
pub fn games_csv(pool: PgPool, job: &JobRow) -> HttpResponse {
    let header = Bytes::from(games_header() + "\n");
    let body = stream::once(async { Ok(header) }).chain(chunk_stream(pool, job.id, |_, lines| {
        Ok(Bytes::from(lines))
    }));
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{}-games.csv\"", job.id),
        ))
        .streaming(body)
}

/// `games.json`: a JSON array of records, streamed chunk by chunk.
pub fn games_json(pool: PgPool, job: &JobRow) -> HttpResponse {
    let pages = chunk_stream(pool, job.id, |first, lines| {
        let page = store::parse_records(&lines)?;
        let mut buf = Vec::with_capacity(page.len() * 400);
        for (i, r) in page.iter().enumerate() {
            if !first || i > 0 {
                buf.push(b',');
            }
            buf.push(b'\n');
            serde_json::to_writer(&mut buf, r).map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
        }
        Ok(Bytes::from(buf))
    });
    let body = stream::once(async { Ok(Bytes::from_static(b"[")) })
        .chain(pages)
        .chain(stream::once(async { Ok(Bytes::from_static(b"\n]\n")) }));
    HttpResponse::Ok()
        .content_type("application/json")
        .streaming(body)
}

/// The aggregates of a finished job.
pub fn summary_of(job: &JobRow) -> Option<Summary> {
    serde_json::from_value(job.summary.clone()?).ok()
}

/// The statistics of a finished job.
pub fn stats_of(job: &JobRow) -> Option<Stats> {
    summary_of(job).map(|s| s.stats())
}

/// How a job is labelled in CSV exports.
pub fn label(job: &JobRow) -> RunLabel {
    RunLabel {
        ruleset: job.ruleset.clone(),
        params: job.params.clone(),
        agents: job.agents.join(","),
        seed: job.seed,
    }
}

/// `summary.csv`: the tidy summary, one metric per row.
pub fn summary_csv_bytes(job: &JobRow, stats: &Stats) -> Result<Vec<u8>, csv::Error> {
    let mut out = Vec::new();
    summary_csv(&mut out, &label(job), stats)?;
    Ok(out)
}

/// `datapackage.json`: a Frictionless Tabular Data Package describing `games.csv` and
/// `summary.csv`, with what defines the run (ruleset version, configuration, seed, agents).
pub fn datapackage(job: &JobRow) -> Value {
    let sources: Vec<Value> = tsoro_corpus::Corpus::load()
        .ok()
        .and_then(|c| {
            let rec = c.rulesets.get(&job.ruleset)?.clone();
            Some(
                rec.sources
                    .iter()
                    .filter_map(|s| c.sources.get(s))
                    .map(|s| json!({"title": s.title, "path": format!("/api/v1/sources/{}", s.id)}))
                    .collect(),
            )
        })
        .unwrap_or_default();
    json!({
        "profile": "tabular-data-package",
        "name": format!("tsoro-simulation-{}", job.id),
        "title": format!("{} games of {} ({}), seed {}", job.games, job.ruleset, job.agents.join(" vs "), job.seed),
        "description": "Per-game records and summary statistics of a seeded simulation run by the tsoro engine. Game k's record depends only on the run's seed and k, so the same inputs give the same data on any machine and any number of workers.",
        "created": job.finished_at.unwrap_or(job.created_at).to_rfc3339(),
        "version": env!("CARGO_PKG_VERSION"),
        "sources": sources,
        "tsoro": {
            "job": job.id,
            "ruleset": job.ruleset,
            "ruleset_version": job.ruleset_hash,
            "config": job.config,
            "params": job.params,
            "agents": job.agents,
            "games": job.games,
            "seed": job.seed.to_string(),
            "swap_seats": job.swap_seats,
            "reference": job.reference,
            "engine": format!("tsoro-engine {}", env!("CARGO_PKG_VERSION")),
        },
        "resources": [
            {
                "name": "games",
                "path": "games.csv",
                "profile": "tabular-data-resource",
                "format": "csv",
                "mediatype": "text/csv",
                "encoding": "utf-8",
                "schema": {
                    "fields": GAME_FIELDS.iter().map(|(n, t, d)| {
                        let mut f = json!({"name": n, "type": t, "description": d});
                        if *t == "integer" && *n != "seed" {
                            f["constraints"] = json!({"minimum": 0});
                        }
                        f
                    }).collect::<Vec<_>>(),
                    "primaryKey": ["game"],
                    "missingValues": [""],
                },
            },
            {
                "name": "summary",
                "path": "summary.csv",
                "profile": "tabular-data-resource",
                "format": "csv",
                "mediatype": "text/csv",
                "encoding": "utf-8",
                "schema": {
                    "fields": [
                        {"name": "ruleset", "type": "string", "description": "the ruleset id"},
                        {"name": "params", "type": "object", "description": "every parameter in force, as JSON"},
                        {"name": "agents", "type": "string", "description": "the two agents, comma-separated"},
                        {"name": "seed", "type": "integer", "description": "the run's seed"},
                        {"name": "games", "type": "integer", "description": "games played"},
                        {"name": "metric", "type": "string", "description": "the statistic (win rates are proportions of games; lengths in turns or Ludii moves)"},
                        {"name": "value", "type": "number", "description": "its value"},
                        {"name": "ci_low", "type": "number", "description": "lower end of its 95% interval (Wilson for proportions), when it has one"},
                        {"name": "ci_high", "type": "number", "description": "upper end of its 95% interval"},
                    ],
                    "missingValues": [""],
                },
            },
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::games_header;
    use std::sync::Arc;
    use tsoro_engine::stats::{GameRecord, Winner};
    use tsoro_engine::{EndReason, Player};

    /// The header is the one serde writes for a record: the columns' names and order are the
    /// record's fields.
    #[test]
    fn the_header_is_the_records_fields() {
        let r = GameRecord {
            game: 0,
            seed: 0,
            agent_a: Arc::from("random"),
            agent_b: Arc::from("random"),
            agent_a_index: 0,
            first: Player::A,
            winner: Winner::Draw,
            reason: EndReason::NoMoves,
            turns: 0,
            actions: 0,
            moves: 0,
            captures_a: 0,
            captures_b: 0,
            stones_captured_a: 0,
            stones_captured_b: 0,
            stones_left_a: 0,
            stones_left_b: 0,
            longest_relay: 0,
            mean_branching: 0.0,
            legal_sum: 0,
            multi_decisions: 0,
        };
        let mut w = csv::Writer::from_writer(vec![]);
        w.serialize(&r).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next(), Some(games_header().as_str()));
    }
}
