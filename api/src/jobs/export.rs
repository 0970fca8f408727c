//! Exports of a finished job: every game's record as CSV or JSON, the summary, and a
//! Frictionless data package describing them.
//!
//! The records are streamed a slice of a chunk at a time, so an export holds at most one
//! slice ([`SLICE_BYTES`]) and what it renders to, however slowly its client reads. Each
//! slice is read on a connection of the exports' own small pool, held for that one query: a
//! slow reader holds no connection, and exports cannot take the connections other requests
//! need. At most `max_exports` stream at once; one more is refused before its body starts
//! ([`ExportError::Busy`]), never cut in the middle.

use super::records::{self, Decoder};
use super::store::{self, JobRow};
use crate::runs::csv::{
    GAME_FIELDS, RunLabel, SUMMARY_FIELDS, frictionless_fields, header, summary_csv,
};
use futures_util::{Stream, StreamExt, stream};
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tsoro_engine::stats::{Stats, Summary};
use uuid::Uuid;

/// Bytes of a chunk's stored records read at a time.
pub const SLICE_BYTES: i64 = 64 * 1024;

/// Connections of the exports' own pool.
pub const EXPORT_CONNECTIONS: u32 = 4;

/// Seconds a client refused for too many exports is told to wait (`Retry-After`).
pub const EXPORT_RETRY_SECS: u64 = 2;

/// Why an export cannot start, or stopped.
#[derive(Debug, Error)]
pub enum ExportError {
    /// As many exports as may stream at once are streaming.
    #[error("{max} exports are streaming, the most at once; try again in a moment")]
    Busy {
        /// The most at once (`--max-exports`).
        max: usize,
    },
    /// The database failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// Stored records did not render (a fault of the service's).
    #[error("rendering the records: {0}")]
    Render(String),
}

/// An export's body: pieces of bytes, in order.
pub type Body = std::pin::Pin<Box<dyn Stream<Item = Result<Vec<u8>, ExportError>>>>;

/// How long a slice waits for one of the exports' connections before the export fails.
const SLICE_WAIT: Duration = Duration::from_secs(300);

/// The exports of a process: their pool and how many may stream at once.
#[derive(Clone)]
pub struct Exports {
    pool: PgPool,
    permits: Arc<Semaphore>,
    max: usize,
}

impl Exports {
    /// Exports reading through a small pool of their own (same database and credentials as
    /// `pool`, connected on first use), at most `max` at once.
    pub fn new(pool: &PgPool, max: usize) -> Exports {
        let options = (*pool.connect_options()).clone();
        let pool = PgPoolOptions::new()
            .max_connections(EXPORT_CONNECTIONS)
            .min_connections(0)
            .acquire_timeout(SLICE_WAIT)
            .idle_timeout(Duration::from_secs(60))
            .connect_lazy_with(options);
        let max = max.max(1);
        Exports {
            pool,
            permits: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// A place for one more export, or [`ExportError::Busy`] when all are taken.
    fn admit(&self) -> Result<OwnedSemaphorePermit, ExportError> {
        self.permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| ExportError::Busy { max: self.max })
    }

    /// Starts reading a finished job's records: admitted (or refused) and the list of its
    /// stored chunks read before any byte of the body is sent.
    async fn open(&self, job: &JobRow) -> Result<RecordReader, ExportError> {
        let permit = self.admit()?;
        let chunks = store::stored_chunks(&self.pool, job.id).await?;
        Ok(RecordReader {
            pool: self.pool.clone(),
            job: job.id,
            chunks: chunks.into(),
            current: None,
            _permit: permit,
        })
    }
}

/// The chunk being read: index, stored length, bytes read so far, and its decoder.
struct Reading {
    idx: i32,
    len: i64,
    offset: i64,
    decoder: Decoder,
}

/// A job's records read a slice at a time, in game order, as CSV lines; holds its export's
/// place until dropped (the body ended or the client went away).
struct RecordReader {
    pool: PgPool,
    job: Uuid,
    chunks: VecDeque<(i32, i64)>,
    current: Option<Reading>,
    _permit: OwnedSemaphorePermit,
}

impl RecordReader {
    /// The next whole records (CSV lines, never empty); None after the last.
    async fn next_lines(&mut self) -> Result<Option<Vec<u8>>, sqlx::Error> {
        loop {
            let reading = match &mut self.current {
                Some(r) => r,
                None => {
                    let Some((idx, len)) = self.chunks.pop_front() else {
                        return Ok(None);
                    };
                    self.current.insert(Reading {
                        idx,
                        len,
                        offset: 0,
                        decoder: Decoder::new(),
                    })
                }
            };
            let slice = store::chunk_slice(
                &self.pool,
                self.job,
                reading.idx,
                reading.offset,
                SLICE_BYTES,
            )
            .await?
            .ok_or_else(|| sqlx::Error::Protocol("the job was deleted during its export".into()))?;
            if slice.is_empty() && reading.offset < reading.len {
                return Err(sqlx::Error::Protocol("a stored chunk shrank".into()));
            }
            reading.offset += slice.len() as i64;
            let lines = reading.decoder.feed(&slice)?;
            if reading.offset >= reading.len
                && let Some(done) = self.current.take()
            {
                done.decoder.finish()?;
            }
            if !lines.is_empty() {
                return Ok(Some(lines));
            }
        }
    }
}

/// The job's records as body pieces, each the CSV lines of a slice turned into bytes by
/// `render` (told whether it is the first piece).
fn record_stream<F>(
    reader: RecordReader,
    render: F,
) -> impl Stream<Item = Result<Vec<u8>, ExportError>> + 'static
where
    F: FnMut(bool, Vec<u8>) -> Result<Vec<u8>, String> + 'static,
{
    stream::unfold(Some((reader, render, true)), |state| async move {
        let (mut reader, mut render, first) = state?;
        match reader.next_lines().await {
            Ok(None) => None,
            Ok(Some(lines)) => match render(first, lines) {
                Ok(piece) => Some((Ok(piece), Some((reader, render, false)))),
                Err(e) => Some((Err(ExportError::Render(e)), None)),
            },
            Err(e) => Some((Err(ExportError::Database(e)), None)),
        }
    })
}

/// `games.csv`: the header, then the stored lines in game order; byte for byte the file
/// `tsoro simulate --csv` writes for the same inputs.
pub async fn games_csv(exports: &Exports, job: &JobRow) -> Result<Body, ExportError> {
    let reader = exports.open(job).await?;
    let head = (header(GAME_FIELDS) + "\n").into_bytes();
    let body = stream::once(async { Ok(head) }).chain(record_stream(reader, |_, lines| Ok(lines)));
    Ok(Box::pin(body))
}

/// `games.json`: a JSON array of records, streamed a slice at a time.
pub async fn games_json(exports: &Exports, job: &JobRow) -> Result<Body, ExportError> {
    let reader = exports.open(job).await?;
    let pages = record_stream(reader, |first, lines| {
        let page = records::parse(&lines).map_err(|e| e.to_string())?;
        let mut buf = Vec::with_capacity(page.len() * 400);
        for (i, r) in page.iter().enumerate() {
            if !first || i > 0 {
                buf.push(b',');
            }
            buf.push(b'\n');
            serde_json::to_writer(&mut buf, r).map_err(|e| e.to_string())?;
        }
        Ok(buf)
    });
    let body = stream::once(async { Ok(b"[".to_vec()) })
        .chain(pages)
        .chain(stream::once(async { Ok(b"\n]\n".to_vec()) }));
    Ok(Box::pin(body))
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

/// The names a job's files are saved under: the paths its `datapackage.json` gives, so that
/// the files downloaded into one folder form the package (`frictionless validate` passes).
pub const GAMES_FILE: &str = "games.csv";
/// The summary's file name (see [`GAMES_FILE`]).
pub const SUMMARY_FILE: &str = "summary.csv";
/// The package descriptor's file name (see [`GAMES_FILE`]).
pub const PACKAGE_FILE: &str = "datapackage.json";

/// `Content-Disposition` for a download saved as `name`.
pub fn attachment(name: &str) -> (&'static str, String) {
    (
        "Content-Disposition",
        format!("attachment; filename=\"{name}\""),
    )
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
                "path": GAMES_FILE,
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
                "path": SUMMARY_FILE,
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
