//! Exports of a finished job: every game's record as CSV or JSON, the summary, and a
//! Frictionless data package describing them.
//!
//! The records are streamed a slice of a chunk at a time, so an export holds at most one
//! slice ([`SLICE_BYTES`]) and what it renders to, however slowly its client reads. Each
//! slice is read on a connection of the exports' own small pool, held for that one query: a
//! slow reader holds no connection, and exports cannot take the connections other requests
//! need. At most `max_exports` stream at once, and at most `max_client_exports` of them for
//! one client; one more is refused before its body starts ([`ExportError::Busy`],
//! [`ExportError::ClientBusy`]), never cut in the middle. An export whose client reads nothing
//! for `export_stall` is dropped: its slot is freed at once and its connection closed (reset,
//! so that the kernel lets go of what it still held to send).

use super::records::{self, Decoder};
use super::store::{self, JobRow};
use crate::runs::csv::{RunLabel, SUMMARY_FIELDS, header, summary_csv};
use crate::settings::JobSettings;
use futures_util::{Stream, StreamExt, stream};
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use thiserror::Error;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tsoro_engine::stats::GameRecord;
use tsoro_engine::stats::{Stats, Summary};
use tsoro_engine::tournament::report::GAME_COLUMNS;
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
    /// This client streams as many exports at once as one client may.
    #[error(
        "this client is streaming {max} exports, the most one client may at once; try again \
         when one has ended"
    )]
    ClientBusy {
        /// The most at once for one client (`--max-client-exports`).
        max: usize,
    },
    /// The client read nothing for this long: the export was dropped.
    #[error("the client read nothing for {secs} s: the export was dropped")]
    Stalled {
        /// `--export-stall-secs`.
        secs: f64,
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

/// The exports of a process: their pool, how many may stream at once (in all and per client)
/// and how long one waits for its client.
#[derive(Clone)]
pub struct Exports {
    pool: PgPool,
    permits: Arc<Semaphore>,
    max: usize,
    per_client: usize,
    stall: Duration,
    clients: Arc<Mutex<HashMap<String, usize>>>,
}

impl Exports {
    /// Exports reading through a small pool of their own (same database and credentials as
    /// `pool`, connected on first use), bounded as `limits` say (`max_exports`,
    /// `max_client_exports`, `export_stall`).
    pub fn new(pool: &PgPool, limits: &JobSettings) -> Exports {
        let options = (*pool.connect_options()).clone();
        let pool = PgPoolOptions::new()
            .max_connections(EXPORT_CONNECTIONS)
            .min_connections(0)
            .acquire_timeout(SLICE_WAIT)
            .idle_timeout(Duration::from_secs(60))
            .connect_lazy_with(options);
        let max = limits.max_exports.max(1);
        Exports {
            pool,
            permits: Arc::new(Semaphore::new(max)),
            max,
            per_client: limits.max_client_exports.max(1),
            stall: limits.export_stall,
            clients: Arc::default(),
        }
    }

    /// A place for one more export of `client`: refused when the client has its share
    /// ([`ExportError::ClientBusy`]), or when every place is taken ([`ExportError::Busy`]).
    fn admit(&self, client: &str) -> Result<Slot, ExportError> {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if clients.get(client).copied().unwrap_or(0) >= self.per_client {
            return Err(ExportError::ClientBusy {
                max: self.per_client,
            });
        }
        let permit = self
            .permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| ExportError::Busy { max: self.max })?;
        *clients.entry(client.to_string()).or_default() += 1;
        Ok(Slot {
            _permit: permit,
            client: client.to_string(),
            clients: self.clients.clone(),
        })
    }

    /// Starts reading a finished job's records for `client`: admitted (or refused) and the
    /// list of its stored chunks read before any byte of the body is sent.
    async fn open(&self, job: &JobRow, client: &str) -> Result<(RecordReader, Slot), ExportError> {
        let slot = self.admit(client)?;
        let chunks = store::stored_chunks(&self.pool, job.id).await?;
        let reader = RecordReader {
            pool: self.pool.clone(),
            job: job.id,
            chunks: chunks.into(),
            current: None,
        };
        Ok((reader, slot))
    }
}

/// An export's place: one of the service's slots and one of its client's share, given back
/// when dropped.
struct Slot {
    _permit: OwnedSemaphorePermit,
    client: String,
    clients: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = clients.get_mut(&self.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                clients.remove(&self.client);
            }
        }
    }
}

/// An export's slot, shared by its body and its watchdog.
struct Watch {
    /// The slot (None once the export ended or was dropped for stalling).
    slot: Mutex<Option<Slot>>,
    /// When the body last handed a piece over that the client has not come back for: ms
    /// since `origin`, plus one (0: the body is at work, not waiting for its client).
    waiting: AtomicU64,
    origin: Instant,
    /// The export's connection (a handle of our own on its socket), closed if it stalls.
    conn: Mutex<Option<std::net::TcpStream>>,
}

impl Watch {
    fn now(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64 + 1
    }

    fn release(&self) -> Option<Slot> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn holds(&self) -> bool {
        self.slot
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }
}

/// An export's body under its watch: each piece handed over starts the wait for the client
/// (actix asks for the next piece only once the last has gone out to the socket, so a client
/// that stops reading stops the asking); the body's own work (reading the database) is not
/// waiting. Past `stall`, the watchdog frees the slot and the body ends in an error.
struct Watched {
    inner: Body,
    watch: Arc<Watch>,
    stall: Duration,
    ended: bool,
}

impl Stream for Watched {
    type Item = Result<Vec<u8>, ExportError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.ended {
            return Poll::Ready(None);
        }
        if !this.watch.holds() {
            this.ended = true;
            return Poll::Ready(Some(Err(ExportError::Stalled {
                secs: this.stall.as_secs_f64(),
            })));
        }
        this.watch.waiting.store(0, Ordering::Relaxed);
        let next = this.inner.as_mut().poll_next(cx);
        match &next {
            Poll::Ready(Some(Ok(_))) => {
                let now = this.watch.now();
                this.watch.waiting.store(now, Ordering::Relaxed);
            }
            Poll::Ready(_) => {
                this.ended = true;
                drop(this.watch.release());
            }
            Poll::Pending => {}
        }
        next
    }
}

/// Frees the slot of an export whose client has not come back for a piece for `stall`; ends
/// with the export.
async fn watchdog(watch: Weak<Watch>, stall: Duration) {
    let period = (stall / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
    loop {
        tokio::time::sleep(period).await;
        let Some(w) = watch.upgrade() else { return };
        if !w.holds() {
            return;
        }
        let since = w.waiting.load(Ordering::Relaxed);
        if since != 0 && w.now().saturating_sub(since) >= stall.as_millis() as u64 {
            if let Some(conn) = w.conn.lock().unwrap_or_else(|e| e.into_inner()).take() {
                // Reset rather than closed: what the socket still holds to send is dropped
                // (a closed socket would keep trying to deliver it to a client that does not
                // read). The server then sees the connection end and drops it.
                let _ = socket2::SockRef::from(&conn).set_linger(Some(Duration::ZERO));
                let _ = conn.shutdown(std::net::Shutdown::Both);
            }
            if let Some(slot) = w.release() {
                tracing::warn!(
                    client = %slot.client,
                    stall_secs = stall.as_secs_f64(),
                    "an export's client read nothing: the export is dropped, its slot freed and \
                     its connection closed"
                );
            }
            return;
        }
    }
}

/// `body` holding `slot`, dropped (its slot freed, its connection `conn` closed) once its
/// client has read nothing for `stall`.
fn watched(body: Body, slot: Slot, stall: Duration, conn: Option<std::net::TcpStream>) -> Body {
    let watch = Arc::new(Watch {
        slot: Mutex::new(Some(slot)),
        waiting: AtomicU64::new(0),
        origin: Instant::now(),
        conn: Mutex::new(conn),
    });
    // Waiting from the start: the client has the head, and has yet to ask for the body.
    watch.waiting.store(watch.now(), Ordering::Relaxed);
    tokio::spawn(watchdog(Arc::downgrade(&watch), stall));
    Box::pin(Watched {
        inner: body,
        watch,
        stall,
        ended: false,
    })
}

/// The chunk being read: index, stored length, bytes read so far, and its decoder.
struct Reading {
    idx: i32,
    len: i64,
    offset: i64,
    decoder: Decoder,
}

/// A job's records read a slice at a time, in game order, as CSV lines.
struct RecordReader {
    pool: PgPool,
    job: Uuid,
    chunks: VecDeque<(i32, i64)>,
    current: Option<Reading>,
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
/// `tsoro simulate --csv` writes for the same inputs; as `client` (as
/// [`crate::http::client`] names it) asks, on the connection `conn` (closed if it stalls).
pub async fn games_csv(
    exports: &Exports,
    job: &JobRow,
    client: &str,
    conn: Option<std::net::TcpStream>,
) -> Result<Body, ExportError> {
    let (reader, slot) = exports.open(job, client).await?;
    let head = (header(GameRecord::COLUMNS) + "\n").into_bytes();
    let body = stream::once(async { Ok(head) }).chain(record_stream(reader, |_, lines| Ok(lines)));
    Ok(watched(Box::pin(body), slot, exports.stall, conn))
}

/// A finished tournament's `games.csv`: the header, then each stored chunk's games in game
/// order (a chunk at a time: a tournament's chunks hold a few hundred games); byte for byte
/// what `tsoro tournament --csv` writes for the same inputs. In the same slots, with the same
/// stall timeout, as the simulations' exports.
pub async fn tournament_games_csv(
    exports: &Exports,
    job: &JobRow,
    client: &str,
    conn: Option<std::net::TcpStream>,
) -> Result<Body, ExportError> {
    let spec = super::tournament::spec_of(job).map_err(ExportError::Render)?;
    let (reader, slot) = exports.open(job, client).await?;
    let RecordReader {
        pool,
        job: id,
        chunks,
        ..
    } = reader;
    let head = (header(GAME_COLUMNS) + "\n").into_bytes();
    let lines = stream::unfold(Some(chunks), move |state| {
        let (pool, spec) = (pool.clone(), spec.clone());
        async move {
            let mut chunks = state?;
            let (idx, _) = chunks.pop_front()?;
            let piece = match store::chunk_records(&pool, id, idx).await {
                Ok(stored) => super::tournament::csv_lines(&spec, &stored.unwrap_or_default())
                    .map_err(ExportError::Render),
                Err(e) => Err(ExportError::Database(e)),
            };
            let next = piece.is_ok().then_some(chunks);
            Some((piece, next))
        }
    });
    let body = stream::once(async { Ok(head) }).chain(lines);
    Ok(watched(Box::pin(body), slot, exports.stall, conn))
}

/// `games.json`: a JSON array of records, streamed a slice at a time, as `client` asks (on
/// the connection `conn`).
pub async fn games_json(
    exports: &Exports,
    job: &JobRow,
    client: &str,
    conn: Option<std::net::TcpStream>,
) -> Result<Body, ExportError> {
    let (reader, slot) = exports.open(job, client).await?;
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
    Ok(watched(Box::pin(body), slot, exports.stall, conn))
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
/// `summary.csv`, with what defines the run (ruleset version, configuration, seed, agents)
/// and the ruleset's sources.
pub fn datapackage(job: &JobRow) -> Value {
    use super::package::{games_and_summary, package};
    let mut doc = package(
        job,
        "simulation",
        format!("{} games of {} ({}), seed {}", job.games, job.ruleset, job.agents.join(" vs "), job.seed),
        "Per-game records and summary statistics of a seeded simulation run by the tsoro engine. Game k's record depends only on the run's seed and k, so the same inputs give the same data on any machine and any number of workers.".into(),
        json!({
            "agents": job.agents,
            "swap_seats": job.swap_seats,
            "reference": job.reference,
        }),
        games_and_summary(GameRecord::COLUMNS, SUMMARY_FIELDS),
    );
    doc["sources"] = json!(crate::runs::csv::package_sources(&job.ruleset));
    doc
}
