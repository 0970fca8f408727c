//! The service's settings and every default they have: each a named constant, read by the
//! command line's arguments (`crate::cli`) and by the settings' `Default` alike.

use std::time::Duration;

/// Address the service listens on by default.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
/// Directory of the embedded server's data by default.
pub const DEFAULT_DATA_DIR: &str = "./data";
/// Largest JSON request body by default (1 MiB).
pub const DEFAULT_BODY_LIMIT: usize = 1 << 20;
/// How long the database may be down before `/health` answers 503, by default.
pub const DEFAULT_DOWN_THRESHOLD: Duration = Duration::from_secs(30);
/// Seconds the requests in flight get to finish when the server stops.
pub const SHUTDOWN_GRACE_SECS: u64 = 4;

/// Most games in one simulation job, by default (`--max-games`).
pub const DEFAULT_MAX_GAMES: u64 = 10_000_000;
/// Most jobs queued or running at once, by default (`--max-jobs`): eight owners' worth of
/// [`DEFAULT_MAX_OWNER_JOBS`], so that a few owners at their quota never lock everyone else
/// out (at 16, two did). Queued jobs cost only their rows; the workers play one chunk at a
/// time whatever the queue holds.
pub const DEFAULT_MAX_JOBS: i64 = 8 * DEFAULT_MAX_OWNER_JOBS;
/// Largest estimated cost of one job, in core-seconds, by default (`--max-job-cost`): a
/// core-day (the model is in [`crate::runs::cost`]).
pub const DEFAULT_MAX_JOB_COST: f64 = 86_400.0;
/// Days an ended job is kept, by default (`--retention-days`; 0 keeps them).
pub const DEFAULT_RETENTION_DAYS: f64 = 0.0;
/// Days an ended anonymous job (made without a token) is kept, by default
/// (`--anonymous-retention-days`; 0 keeps them): on a shared service, what anyone may make
/// does not fill its disk for good.
pub const DEFAULT_ANONYMOUS_RETENTION_DAYS: f64 = 30.0;
/// Most jobs one owner has queued or running at once, by default (`--max-owner-jobs`): a
/// comparison of the most rulesets fits. An owner is a token's holder or, for anonymous jobs,
/// a client address ([`crate::jobs::quota`]).
pub const DEFAULT_MAX_OWNER_JOBS: i64 = 8;
/// Most core-seconds of estimated work one owner has outstanding (its queued and running jobs'
/// games not yet played), by default (`--max-owner-cost`): two core-days.
pub const DEFAULT_MAX_OWNER_COST: f64 = 172_800.0;
/// Most bytes one owner's jobs may store before its new jobs are refused, by default
/// (`--max-owner-bytes`): 2 GiB, the records of some 100 million games.
pub const DEFAULT_MAX_OWNER_BYTES: i64 = 2 << 30;
/// Most games in a chunk, by default (`--chunk-games`).
pub const DEFAULT_CHUNK_GAMES: u64 = 1_000_000;
/// Core-seconds of play a chunk aims at, by default (`--chunk-seconds`): long enough that a
/// chunk's claim, start and storing are a small part of it (random games on the kernel: some
/// 600,000 games of tsoro 4x8), short enough that progress is stored often.
pub const DEFAULT_CHUNK_SECONDS: f64 = 0.5;
/// Most exports of games streaming at once, by default (`--max-exports`).
pub const DEFAULT_MAX_EXPORTS: usize = 32;
/// Most exports one client streams at once, by default (`--max-client-exports`): its share
/// of the `--max-exports` slots.
pub const DEFAULT_MAX_CLIENT_EXPORTS: usize = 4;
/// Seconds an export waits for its client to read before it is dropped and its slot freed, by
/// default (`--export-stall-secs`).
pub const DEFAULT_EXPORT_STALL_SECS: f64 = 60.0;
/// Seconds a claimed chunk stays a worker's without renewal, by default (`--lease-secs`).
pub const DEFAULT_LEASE_SECS: f64 = 30.0;
/// Worker loops in a process, by default (`--workers`).
pub const DEFAULT_WORKERS: usize = 1;
/// Threads each worker loop plays with, by default (`--worker-threads`; 0: one per core).
pub const DEFAULT_WORKER_THREADS: usize = 0;
/// CPU-bound requests (agent moves, replays, a job's game played again) running at once, by
/// default (`--max-cpu-requests`; 0: one per core). More get 503 with `Retry-After`.
pub const DEFAULT_CPU_REQUESTS: usize = 0;
/// CPU-bound requests one client runs at once, by default (`--max-client-cpu-requests`; 0:
/// half of `--max-cpu-requests`, rounded up), so that one client cannot take every slot. More
/// get 429 with `Retry-After`.
pub const DEFAULT_CLIENT_CPU_REQUESTS: usize = 0;
/// Seconds a CPU-bound request may compute, by default (`--request-seconds`): an agent's move
/// still searching then is stopped and refused.
pub const DEFAULT_REQUEST_SECONDS: f64 = 10.0;
/// Games of jobs played again on request that are kept, to answer again without playing.
pub const GAMES_CACHED: usize = 256;
/// How often an idle worker looks for work.
pub const POLL: Duration = Duration::from_millis(200);

/// Settings of the HTTP application.
#[derive(Clone, Debug)]
pub struct AppSettings {
    /// Address to bind (`127.0.0.1:8080`; port 0 picks a free one).
    pub bind: String,
    /// Largest JSON request body.
    pub body_limit: usize,
    /// Limits and tuning of simulation jobs.
    pub jobs: JobSettings,
    /// How long the database may be down before `/health` answers 503.
    pub db_down_threshold: Duration,
    /// The embedded server's supervisor, when the service runs one (its restarts show in
    /// `/health`).
    pub embedded: Option<tsoro_pg::ServerWatch>,
    /// Take anonymous writes while no API token exists even when listening beyond loopback
    /// (`--allow-anonymous-writes`; see [`crate::access`]).
    pub allow_anonymous_writes: bool,
    /// Bounds of the CPU-bound requests.
    pub requests: RequestSettings,
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`; none by default:
    /// the client is the peer).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Names the service answers to besides the loopback ones (`--allowed-host`; see
    /// [`crate::http::host`]).
    pub allowed_hosts: Vec<String>,
}

/// Bounds of the CPU-bound requests ([`crate::compute`]).
#[derive(Clone, Debug)]
pub struct RequestSettings {
    /// Most running at once (0: one per core).
    pub max_cpu_requests: usize,
    /// Most one client runs at once (0: half of `max_cpu_requests`, rounded up).
    pub max_client_cpu_requests: usize,
    /// Longest one may compute.
    pub budget: Duration,
}

impl Default for RequestSettings {
    fn default() -> Self {
        RequestSettings {
            max_cpu_requests: DEFAULT_CPU_REQUESTS,
            max_client_cpu_requests: DEFAULT_CLIENT_CPU_REQUESTS,
            budget: Duration::from_secs_f64(DEFAULT_REQUEST_SECONDS),
        }
    }
}

/// Limits and tuning of the job system.
#[derive(Clone, Debug)]
pub struct JobSettings {
    /// Most games in one job.
    pub max_games: u64,
    /// Most jobs queued or running at once.
    pub max_active_jobs: i64,
    /// Largest estimated cost of one job, in core-seconds ([`crate::runs::cost`]).
    pub max_job_cost: f64,
    /// Most games in a chunk.
    pub chunk_games: u64,
    /// Core-seconds of play a chunk aims at, by the cost estimate
    /// ([`crate::runs::cost::chunk_games`]).
    pub chunk_seconds: f64,
    /// Most exports of games (`games.csv`, `games.json`) streaming at once; more get 503.
    pub max_exports: usize,
    /// Most exports one client streams at once; more get 429.
    pub max_client_exports: usize,
    /// How long an export waits for its client to read before it is dropped.
    pub export_stall: Duration,
    /// Most jobs one owner has queued or running.
    pub max_owner_jobs: i64,
    /// Most core-seconds of estimated work one owner has outstanding.
    pub max_owner_cost: f64,
    /// Most bytes one owner's jobs store before its new jobs are refused.
    pub max_owner_bytes: i64,
    /// Ended jobs older than this are deleted with what they stored (None: kept).
    pub retention: Option<Duration>,
    /// Ended anonymous jobs older than this are deleted with what they stored (None: kept, or
    /// as `retention` says).
    pub anonymous_retention: Option<Duration>,
    /// How long a claimed chunk stays a worker's without renewal.
    pub lease: Duration,
    /// How often an idle worker looks for work.
    pub poll: Duration,
    /// Worker loops inside the service (0: none; `tsoro worker` processes do the work).
    pub workers: usize,
    /// Threads each worker loop plays with (0: one per core).
    pub threads: usize,
}

impl Default for JobSettings {
    fn default() -> Self {
        JobSettings {
            max_games: DEFAULT_MAX_GAMES,
            max_active_jobs: DEFAULT_MAX_JOBS,
            max_job_cost: DEFAULT_MAX_JOB_COST,
            chunk_games: DEFAULT_CHUNK_GAMES,
            chunk_seconds: DEFAULT_CHUNK_SECONDS,
            max_exports: DEFAULT_MAX_EXPORTS,
            max_client_exports: DEFAULT_MAX_CLIENT_EXPORTS,
            export_stall: Duration::from_secs_f64(DEFAULT_EXPORT_STALL_SECS),
            max_owner_jobs: DEFAULT_MAX_OWNER_JOBS,
            max_owner_cost: DEFAULT_MAX_OWNER_COST,
            max_owner_bytes: DEFAULT_MAX_OWNER_BYTES,
            retention: retention(DEFAULT_RETENTION_DAYS),
            anonymous_retention: retention(DEFAULT_ANONYMOUS_RETENTION_DAYS),
            lease: Duration::from_secs_f64(DEFAULT_LEASE_SECS),
            poll: POLL,
            workers: DEFAULT_WORKERS,
            threads: DEFAULT_WORKER_THREADS,
        }
    }
}

/// How long ended jobs are kept, from a number of days (0 or less: kept for good).
pub fn retention(days: f64) -> Option<Duration> {
    (days > 0.0).then(|| Duration::from_secs_f64(days.min(36_500.0) * 86_400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Owners at their quota of jobs leave room for others: at least eight of them fit in
    /// `--max-jobs`, and one client's share of the CPU slots leaves one to another.
    #[test]
    fn the_defaults_leave_room_for_others() {
        const { assert!(DEFAULT_MAX_JOBS >= 8 * DEFAULT_MAX_OWNER_JOBS) };
        let slots = crate::compute::Slots::new(2, std::time::Duration::from_secs(1))
            .per_client(DEFAULT_CLIENT_CPU_REQUESTS);
        assert_eq!(slots.client_share(), 1);
    }
}
