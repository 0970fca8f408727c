//! A worker loop: claim a chunk, play its games while renewing the lease, store the records
//! (while the next chunk plays).
//! The same loop runs inside the service and in `tsoro worker` processes.

use super::records;
use super::store::{self, Claim, Played};
use crate::settings::JobSettings;
use sqlx::PgPool;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Model};
use tsoro_engine::sim::{SimError, SimOptions, SimSpec, simulate_any_with};

/// How often a worker playing a chunk reports its games done and looks whether its job was
/// cancelled.
const CANCEL_CHECK: std::time::Duration = std::time::Duration::from_millis(500);

/// A name for a worker, unique enough to own leases: host, process and a random part.
pub fn worker_name(label: &str) -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "host".into());
    format!(
        "{label}@{host}:{}:{}",
        std::process::id(),
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    )
}

/// How long a worker first waits after the disk was found full, before it claims again.
const DISK_FULL_WAIT: std::time::Duration = std::time::Duration::from_secs(1);
/// The longest it waits (the wait doubles while the disk stays full).
const DISK_FULL_MAX_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// What the storing of a played chunk met.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stored {
    /// Stored, or not for a reason of its own (the lease lost, the job ended, an error).
    Done,
    /// The database's disk is full.
    DiskFull,
}

/// Runs until `stop` turns true: claims and plays chunks, or waits `poll` when there is none.
/// A played chunk is stored while the next one plays. When the disk is full (a chunk could
/// not be stored, or claimed), it stops claiming for a while, longer each time it stays full,
/// instead of playing chunks it cannot store.
pub async fn run(
    pool: PgPool,
    settings: JobSettings,
    name: String,
    mut stop: watch::Receiver<bool>,
) {
    tracing::info!(worker = %name, "worker started");
    let mut storing: Option<JoinHandle<Stored>> = None;
    let mut full = false;
    let mut wait = DISK_FULL_WAIT;
    loop {
        if *stop.borrow() {
            break;
        }
        if storing.as_ref().is_some_and(JoinHandle::is_finished) {
            settle(storing.take(), &mut full, &mut wait).await;
        }
        if full {
            full = false;
            tracing::warn!(
                worker = %name, wait_secs = wait.as_secs(),
                "disk full: the worker waits before claiming again; its jobs resume by \
                 themselves once space is freed"
            );
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = stop.changed() => {}
            }
            wait = (wait * 2).min(DISK_FULL_MAX_WAIT);
            continue;
        }
        let claimed = match store::claim(&pool, &name, settings.lease).await {
            Ok(c) => c,
            Err(e) if crate::database::is_disk_full(&e) => {
                tracing::error!(worker = %name, error = %e, "disk full: claiming a chunk");
                full = true;
                continue;
            }
            Err(e) => {
                tracing::warn!(worker = %name, error = %e, "claiming a chunk");
                None
            }
        };
        match claimed {
            Some(c) => {
                let (job, idx) = (c.job.id, c.idx);
                match play(&pool, &settings, &name, c, &mut stop).await {
                    Ok(Some(played)) => {
                        settle(storing.take(), &mut full, &mut wait).await;
                        storing = Some(tokio::spawn(store_played(
                            pool.clone(),
                            name.clone(),
                            played,
                        )));
                    }
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(worker = %name, %job, chunk = idx, error = %e, "chunk not played")
                    }
                }
            }
            None => {
                settle(storing.take(), &mut full, &mut wait).await;
                if let Err(e) = store::finish_stragglers(&pool).await {
                    tracing::warn!(worker = %name, error = %e, "finishing jobs");
                }
                if settings.retention.is_some() || settings.anonymous_retention.is_some() {
                    let (age, anonymous) = (settings.retention, settings.anonymous_retention);
                    match store::expire(&pool, age, anonymous).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(worker = %name, jobs = n, "expired jobs deleted"),
                        Err(e) => tracing::warn!(worker = %name, error = %e, "expiring jobs"),
                    }
                }
                tokio::select! {
                    _ = tokio::time::sleep(settings.poll) => {}
                    _ = stop.changed() => {}
                }
            }
        }
    }
    settle(storing.take(), &mut full, &mut wait).await;
    tracing::info!(worker = %name, "worker stopped");
}

/// Awaits a storing, noting a full disk (and, once a chunk is stored, forgetting how long
/// the last wait was).
async fn settle(
    storing: Option<JoinHandle<Stored>>,
    full: &mut bool,
    wait: &mut std::time::Duration,
) {
    if let Some(h) = storing {
        match h.await {
            Ok(Stored::DiskFull) => *full = true,
            Ok(Stored::Done) => *wait = DISK_FULL_WAIT,
            Err(_) => {}
        }
    }
}

/// Why a job waits while the disk is full, as its page and JSON say.
const DISK_FULL_PAUSE: &str = "disk full: the database could not store a chunk's records; the \
     job is paused and resumes by itself once space is freed";

async fn store_played(pool: PgPool, name: String, played: Played) -> Stored {
    let (job, idx, games) = (played.claim.job.id, played.claim.idx, played.games);
    match store::complete(&pool, &name, played).await {
        Ok(stored) => tracing::debug!(%job, chunk = idx, games, stored, "chunk played"),
        Err(e) if crate::database::is_disk_full(&e) => {
            tracing::error!(
                worker = %name, %job, chunk = idx, error = %e,
                "disk full: the chunk was not stored; the job waits (its chunk is claimed \
                 again once its lease runs out) and resumes once space is freed"
            );
            // Said where the job is shown, if the database can still take that much.
            if let Err(e) = store::pause(&pool, job, DISK_FULL_PAUSE).await {
                tracing::warn!(worker = %name, %job, error = %e, "marking the job paused");
            }
            return Stored::DiskFull;
        }
        Err(e) => tracing::warn!(worker = %name, %job, chunk = idx, error = %e, "chunk not stored"),
    }
    Stored::Done
}

/// A chunk's play, to run on a blocking thread.
pub(super) type Work = Box<dyn FnOnce() -> Outcome + Send + 'static>;

/// How playing a chunk ended.
pub(super) enum Outcome {
    /// Every game played: the records encoded, their aggregates, how many games.
    Played(Vec<u8>, serde_json::Value, u64),
    /// Stopped: cancelled, the lease lost, or the worker stopping.
    Cancelled,
    /// The job cannot run.
    Failed(String),
}

impl Outcome {
    /// How a chunk that simulated its games ended: `Played` with its records `lines` and the
    /// simulation's `summary` of its `games` as its aggregates, `Cancelled` when stopped,
    /// else `Failed`.
    pub(super) fn of_simulation<S: serde::Serialize>(
        summary: Result<S, SimError>,
        lines: Vec<u8>,
        games: u64,
    ) -> Outcome {
        match summary {
            Ok(s) => match serde_json::to_value(&s) {
                Ok(v) => Outcome::Played(lines, v, games),
                Err(e) => Outcome::Failed(e.to_string()),
            },
            Err(SimError::Cancelled { .. }) => Outcome::Cancelled,
            Err(e) => Outcome::Failed(e.to_string()),
        }
    }
}

/// Plays one chunk, renewing its lease meanwhile; gives it back unless the lease was lost, the
/// job cancelled, or we stop (then the chunk is released), or the job cannot run (then the
/// job is marked failed).
async fn play(
    pool: &PgPool,
    settings: &JobSettings,
    name: &str,
    c: Claim,
    stop: &mut watch::Receiver<bool>,
) -> Result<Option<Played>, sqlx::Error> {
    let cancel = Arc::new(AtomicBool::new(false));
    // Games finished, counted as each ends (on the threads that play them), so that the
    // job's progress moves even when a chunk takes minutes.
    let played = Arc::new(Finished::new(settings.threads));
    let work = if c.job.is_tournament() {
        super::tournament::playing(&c, settings.threads, cancel.clone(), played.clone())
    } else if c.job.is_nhodo() {
        super::nhodo::playing(&c, settings.threads, cancel.clone(), played.clone())
    } else {
        simulating(&c, settings.threads, cancel.clone(), played.clone())
    };
    let work = match work {
        Ok(w) => w,
        Err(e) => {
            store::fail(pool, c.job.id, &e).await?;
            return Ok(None);
        }
    };
    let mut play = tokio::task::spawn_blocking(work);
    let mut reported = 0;
    let mut beat = tokio::time::interval(settings.lease / 3);
    beat.tick().await;
    // A cancelled job stops within a moment: its status is looked at often (a cheap read),
    // and the flag reaches inside the agents' searches.
    let mut look = tokio::time::interval(CANCEL_CHECK.min(settings.lease / 3));
    look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    look.tick().await;
    let outcome = loop {
        tokio::select! {
            done = &mut play => break done,
            _ = beat.tick() => {
                match store::renew(pool, &c, name, settings.lease).await {
                    Ok(true) => {}
                    Ok(false) => cancel.store(true, Ordering::Relaxed),
                    Err(e) => tracing::warn!(error = %e, "renewing a lease"),
                }
            }
            _ = look.tick() => {
                let now = played.total();
                let active = if now != reported {
                    reported = now;
                    store::report(pool, &c, name, now).await
                } else {
                    store::is_active(pool, c.job.id).await
                };
                if let Ok(false) = active {
                    cancel.store(true, Ordering::Relaxed);
                }
            }
            _ = stop.changed() => cancel.store(true, Ordering::Relaxed),
        }
    };
    match outcome {
        Ok(Outcome::Played(lines, summary, games)) => {
            return Ok(Some(Played {
                claim: c,
                lines,
                summary,
                games,
            }));
        }
        Ok(Outcome::Cancelled) => {
            store::release(pool, &c, name).await?;
            tracing::info!(job = %c.job.id, chunk = c.idx, "chunk abandoned (cancelled, lease lost or stopping)");
        }
        Ok(Outcome::Failed(e)) => store::fail(pool, c.job.id, &e).await?,
        Err(e) => store::fail(pool, c.job.id, &format!("the worker panicked: {e}")).await?,
    }
    Ok(None)
}

/// The play of a simulation's chunk, to run on a blocking thread.
fn simulating(
    c: &Claim,
    threads: usize,
    cancel: Arc<AtomicBool>,
    counter: Arc<Finished>,
) -> Result<Work, String> {
    let (game, spec) = prepare(c)?;
    let opts = SimOptions {
        threads,
        cancel: Some(cancel),
        progress: None,
        reference: c.job.reference,
        // The records are stored.
        summary_only: false,
    };
    Ok(Box::new(move || {
        let games = spec.games.end - spec.games.start;
        let mut lines = Vec::with_capacity(games as usize * records::BYTES_PER_RECORD);
        let count = |_: &tsoro_engine::stats::GameRecord| counter.add();
        // Each record is encoded as it comes back.
        let mut encoder = records::Encoder::new(spec.seed);
        let mut refused = None;
        let summary = simulate_any_with(&game, &spec, &opts, &count, &mut |r, ()| {
            if let Err(e) = encoder.encode(r, &mut lines) {
                refused.get_or_insert(e);
            }
        });
        if let Some(e) = refused {
            return Outcome::Failed(e.to_string());
        }
        Outcome::of_simulation(summary, lines, games)
    }))
}

/// Games finished, counted by the threads that play them, each thread in its own cache line
/// (one counter shared by every game of a fast chunk cost the playing threads 2-3%).
pub(super) struct Finished {
    /// One slot per thread of the pool playing the chunk (`rayon::current_thread_index`), and
    /// a last one for any other thread.
    slots: Vec<Slot>,
}

#[repr(align(128))]
#[derive(Default)]
struct Slot(AtomicU64);

impl Finished {
    /// Slots for a pool of `threads` threads (0: rayon's default, as the engine's pool has).
    fn new(threads: usize) -> Self {
        let threads = if threads == 0 {
            rayon::current_num_threads()
        } else {
            threads
        };
        Finished {
            slots: (0..=threads).map(|_| Slot::default()).collect(),
        }
    }

    /// One more game finished on this thread.
    pub(super) fn add(&self) {
        let last = self.slots.len() - 1;
        let slot = rayon::current_thread_index().map_or(last, |i| i.min(last));
        self.slots[slot].0.fetch_add(1, Ordering::Relaxed);
    }

    /// Games finished so far.
    fn total(&self) -> u64 {
        self.slots.iter().map(|s| s.0.load(Ordering::Relaxed)).sum()
    }
}

/// The game (from the stored configuration: the exact version) and the chunk's spec.
fn prepare(c: &Claim) -> Result<(tsoro_engine::AnyGame, SimSpec), String> {
    let def = catalogue::get(&c.job.ruleset).map_err(|e| e.to_string())?;
    let game =
        match catalogue::build_config(def.kind, c.job.config.clone()).map_err(|e| e.to_string())? {
            Model::Game(g) => g,
            Model::Nhodo(_) => return Err("nhodo runs no agents".into()),
        };
    let agents: Vec<AgentSpec> = c
        .job
        .agents
        .iter()
        .map(|a| a.parse::<AgentSpec>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let [a, b] = agents.as_slice() else {
        return Err("a job has two agents".into());
    };
    Ok((
        game,
        SimSpec {
            agents: [*a, *b],
            games: c.first_game..c.end_game,
            seed: c.job.seed,
            swap_seats: c.job.swap_seats,
            opening_plies: 0,
        },
    ))
}

/// Worker loops running in the background, stopped together.
pub struct Workers {
    stop: watch::Sender<bool>,
    handles: Vec<tokio::task::JoinHandle<()>>,
}

impl Workers {
    /// Starts `settings.workers` loops.
    pub fn spawn(pool: &PgPool, settings: &JobSettings, label: &str) -> Workers {
        let (stop, rx) = watch::channel(false);
        let handles = (0..settings.workers)
            .map(|_| {
                tokio::spawn(run(
                    pool.clone(),
                    settings.clone(),
                    worker_name(label),
                    rx.clone(),
                ))
            })
            .collect();
        Workers { stop, handles }
    }

    /// Asks every loop to stop (abandoning chunks in play; their leases run out) and waits.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for h in self.handles {
            let _ = h.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    fn on_pool(threads: usize, work: impl FnOnce() + Send) {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
            .install(work);
    }

    /// Games finished on a pool's threads and on others all count, once each.
    #[test]
    fn finished_games_add_up_across_threads() {
        assert!(
            Finished::new(0).slots.len() > 1,
            "one per core, and one for the others"
        );
        let f = Finished::new(2);
        on_pool(2, || (0..1000).into_par_iter().for_each(|_| f.add()));
        assert_eq!(f.total(), 1000);
        // Outside a pool, and on a pool with more threads than slots: the last slot.
        f.add();
        on_pool(4, || (0..100).into_par_iter().for_each(|_| f.add()));
        assert_eq!(f.total(), 1101);
    }
}
