//! Job status changes, heard once per process: one PostgreSQL `LISTEN` (fed by a trigger on
//! `simulation_jobs`, migration 0009) fanned out to every waiter through a broadcast channel,
//! so that a thousand clients waiting on jobs (`?wait=`) cost one connection, not a query
//! every 100 ms each.

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use std::time::Duration;
use tokio::sync::broadcast;
use uuid::Uuid;

/// The notification channel the trigger sends on.
pub const CHANNEL: &str = "tsoro_job_status";

/// How long a waiter sleeps without news before it looks for itself (notifications are lost
/// while the listener reconnects).
pub const FALLBACK: Duration = Duration::from_secs(5);

/// The process's job status changes.
#[derive(Clone)]
pub struct JobEvents {
    tx: broadcast::Sender<Uuid>,
}

impl JobEvents {
    /// Starts the listener on this pool's database (it reconnects by itself).
    pub fn listen(pool: &PgPool) -> JobEvents {
        let (tx, _) = broadcast::channel(1024);
        let events = JobEvents { tx };
        tokio::spawn(run(pool.clone(), events.tx.clone()));
        events
    }

    /// A receiver of the ids of jobs whose status changed from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Uuid> {
        self.tx.subscribe()
    }
}

async fn run(pool: PgPool, tx: broadcast::Sender<Uuid>) {
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
        loop {
            match l.recv().await {
                Ok(n) => {
                    if let Ok(id) = n.payload().parse::<Uuid>() {
                        let _ = tx.send(id);
                    }
                }
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
