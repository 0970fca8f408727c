//! Exports of a finished job: every game's record as CSV or JSON (streamed chunk by chunk,
//! never whole in memory), the summary, and a Frictionless data package describing them.

use super::store::{self, JobRow};
use crate::run_export::{
    GAME_FIELDS, RunLabel, SUMMARY_FIELDS, frictionless_fields, header, summary_csv,
};
use actix_web::HttpResponse;
use actix_web::web::Bytes;
use futures_util::{StreamExt, stream};
use serde_json::{Value, json};
use sqlx::PgPool;
use tsoro_engine::stats::{Stats, Summary};
use uuid::Uuid;

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
    let head = Bytes::from(header(GAME_FIELDS) + "\n");
    let body = stream::once(async { Ok(head) }).chain(chunk_stream(pool, job.id, |_, lines| {
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
                    "fields": frictionless_fields(GAME_FIELDS).into_iter().map(|mut f| {
                        if f["type"] == "integer" && f["name"] != "seed" {
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
                    "fields": frictionless_fields(SUMMARY_FIELDS),
                    "missingValues": [""],
                },
            },
        ],
    })
}
