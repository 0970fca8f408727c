//! Job status changes, heard once per process: one PostgreSQL `LISTEN` (fed by a trigger on
//! `simulation_jobs`, migration 0009) fanned out to every waiter through a broadcast channel,
//! so that a thousand clients waiting on jobs (`?wait=`) cost one connection, not a query
//! every 100 ms each. When each change was heard is kept a moment, so that the reads waiters
//! share ([`super::fresh`]) are never older than the news.

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use uuid::Uuid;

/// The notification channel the trigger sends on.
pub const CHANNEL: &str = "tsoro_job_status";

/// How long a waiter sleeps without news before it looks for itself (notifications are lost
/// while the listener reconnects).
pub const FALLBACK: Duration = Duration::from_secs(5);

/// When changes were heard: per job, of any job, and when news may have been lost (the
/// listener reconnected). Entries older than [`super::fresh::TTL`] are dropped: no shared read
/// is kept longer than that anyway.
#[derive(Default)]
struct Heard {
    job: HashMap<Uuid, Instant>,
    any: Option<Instant>,
    lost: Option<Instant>,
}

impl Heard {
    fn change(&mut self, id: Uuid) {
        let now = Instant::now();
        if self.job.len() >= 1024 {
            self.job
                .retain(|_, t| now.duration_since(*t) < super::fresh::TTL);
        }
        self.job.insert(id, now);
        self.any = Some(now);
    }

    fn lost(&mut self) {
        let now = Instant::now();
        self.job.clear();
        self.any = Some(now);
        self.lost = Some(now);
    }
}

/// The process's job status changes.
#[derive(Clone)]
pub struct JobEvents {
    tx: broadcast::Sender<Uuid>,
    heard: Arc<Mutex<Heard>>,
}

impl JobEvents {
    /// Starts the listener on this pool's database (it reconnects by itself).
    pub fn listen(pool: &PgPool) -> JobEvents {
        let (tx, _) = broadcast::channel(1024);
        let events = JobEvents {
            tx,
            heard: Arc::default(),
        };
        tokio::spawn(run(pool.clone(), events.clone()));
        events
    }

    /// A receiver of the ids of jobs whose status changed from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Uuid> {
        self.tx.subscribe()
    }

    /// How many receivers are open: the requests awaiting a change (`?wait=`).
    pub fn waiting(&self) -> usize {
        self.tx.receiver_count()
    }

    fn heard(&self) -> std::sync::MutexGuard<'_, Heard> {
        self.heard.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// When a change of job `id` was last heard, or news may have been lost (None: not
    /// within [`super::fresh::TTL`]): a read of it begun before then may be out of date.
    pub fn changed_at(&self, id: Uuid) -> Option<Instant> {
        let h = self.heard();
        h.job.get(&id).copied().max(h.lost)
    }

    /// When a change of any job was last heard (for what spans several jobs).
    pub fn any_changed_at(&self) -> Option<Instant> {
        self.heard().any
    }
}

async fn run(pool: PgPool, events: JobEvents) {
    let tx = events.tx.clone();
    let mut backoff = Duration::from_millis(200);
    loop {
        let listener = async {
            let mut l = PgListener::connect_with(&pool).await?;
            l.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        }
        .await;
        let mut l = match listener {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "listening for job status changes; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(10));
                continue;
            }
        };
        backoff = Duration::from_millis(200);
        // Listening again: what changed meanwhile was not heard.
        events.heard().lost();
        loop {
            match l.try_recv().await {
                Ok(Some(n)) => {
                    if let Ok(id) = n.payload().parse::<Uuid>() {
                        // Heard before it is told, so that a woken waiter's read is new.
                        events.heard().change(id);
                        let _ = tx.send(id);
                    }
                }
                // The connection was lost (the next call reconnects): news may be lost.
                Ok(None) => events.heard().lost(),
                Err(e) => {
                    tracing::warn!(error = %e, "job status listener lost; reconnecting");
                    break;
                }
            }
            if tx.receiver_count() == 0 && pool.is_closed() {
                return;
            }
        }
        if pool.is_closed() {
            return;
        }
    }
}
