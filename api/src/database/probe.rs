//! Whether the database answers, as one background probe sees it: what `/health` reports.
//! The probe asks on a connection of its own, outside the pool: a pool whose connections are
//! all in use (thousands of requests at once) is busy, not a database that is down, and must
//! not make a liveness probe restart a healthy service.

use sqlx::postgres::PgConnection;
use sqlx::{ConnectOptions, PgPool};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tsoro_pg::{ServerState, ServerWatch};

/// How often the probe asks.
const EVERY: Duration = Duration::from_secs(1);
/// How long one probe may take before it counts as a failure.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Debug)]
struct Seen {
    down_since: Option<Instant>,
    last_error: Option<String>,
}

/// The probe's latest view (cheap to clone; the probe ends when the last clone is dropped).
#[derive(Clone, Debug)]
pub struct DbWatch {
    seen: Arc<Mutex<Seen>>,
    /// How long the database may be down before the process reports itself unhealthy.
    pub threshold: Duration,
    embedded: Option<ServerWatch>,
}

/// The database as `/health` reports it.
#[derive(Clone, Debug)]
pub struct DbStatus {
    /// How long it has not answered (None: it answers).
    pub down_for: Option<Duration>,
    /// Why the last probe failed.
    pub last_error: Option<String>,
    /// The threshold past which the process is unhealthy.
    pub threshold: Duration,
    /// The embedded server as its supervisor sees it, if the service runs one.
    pub embedded: Option<ServerState>,
}

impl DbStatus {
    /// Down for longer than the threshold.
    pub fn past_threshold(&self) -> bool {
        self.down_for.is_some_and(|d| d >= self.threshold)
    }
}

impl DbWatch {
    /// Starts probing the pool every second (needs a Tokio runtime). The database is taken to
    /// answer at first: the service has just migrated it.
    pub fn spawn(pool: &PgPool, threshold: Duration, embedded: Option<ServerWatch>) -> DbWatch {
        let seen = Arc::new(Mutex::new(Seen {
            down_since: None,
            last_error: None,
        }));
        tokio::spawn(probe(pool.clone(), Arc::downgrade(&seen)));
        DbWatch {
            seen,
            threshold,
            embedded,
        }
    }

    /// What the probe saw last.
    pub fn status(&self) -> DbStatus {
        let seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        DbStatus {
            down_for: seen.down_since.map(|t| t.elapsed()),
            last_error: seen.last_error.clone(),
            threshold: self.threshold,
            embedded: self.embedded.as_ref().map(ServerWatch::state),
        }
    }
}

async fn probe(pool: PgPool, seen: Weak<Mutex<Seen>>) {
    let mut conn: Option<PgConnection> = None;
    loop {
        tokio::time::sleep(EVERY).await;
        // A connection that died (the server restarted) is replaced at once: only a server
        // that refuses a new one, or does not answer, is down.
        let mut result = ask(&pool, &mut conn).await;
        if result.is_err() && conn.take().is_some() {
            result = ask(&pool, &mut conn).await;
        }
        if result.is_err() {
            conn = None;
        }
        let Some(seen) = seen.upgrade() else { return };
        let mut s = seen.lock().unwrap_or_else(|p| p.into_inner());
        match result {
            Ok(()) => {
                if let Some(since) = s.down_since.take() {
                    tracing::info!(down_for = ?since.elapsed(), "the database answers again");
                }
                s.last_error = None;
            }
            Err(e) => {
                if s.down_since.is_none() {
                    tracing::warn!(error = %e, "the database does not answer");
                    s.down_since = Some(Instant::now());
                }
                s.last_error = Some(e);
            }
        }
    }
}

/// `SELECT 1` on the probe's own connection (made first if there is none), within
/// [`PROBE_TIMEOUT`].
async fn ask(pool: &PgPool, conn: &mut Option<PgConnection>) -> Result<(), String> {
    let asked = async {
        let c = match conn {
            Some(c) => c,
            None => conn.insert(pool.connect_options().connect().await?),
        };
        sqlx::query_scalar::<_, i32>("SELECT 1").fetch_one(c).await
    };
    match tokio::time::timeout(PROBE_TIMEOUT, asked).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {PROBE_TIMEOUT:?}")),
    }
}
