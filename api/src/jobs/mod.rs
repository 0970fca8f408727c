//! Simulations and comparisons as durable jobs.
//!
//! A job is cut into chunks of games as workers claim them (the job keeps the next game to
//! hand out, so queuing a job of ten million games writes one row). Worker loops (inside the service, and any number of
//! `tsoro worker` processes on other machines) claim chunks with `SELECT ... FOR UPDATE SKIP
//! LOCKED` under a lease they renew while they play; the chunk of a worker that died is claimed
//! again when its lease runs out. A chunk's records are stored (COPY) in the same transaction
//! that marks it done, so a chunk is stored once or not at all. Game k's seed depends only on
//! (seed, k), so a job's records and statistics are the same whichever workers ran it.

// Handlers and their helpers return `Problem` (the RFC 7807 body) by value: errors are rare and
// small next to a request, so boxing them would only add noise.
#![allow(clippy::result_large_err)]

pub mod budget;
pub mod events;
pub mod export;
pub mod packed;
pub mod records;
pub mod request;
pub mod routes;
pub mod status;
pub mod store;
pub mod view;
pub mod worker;

use std::time::Duration;

/// Most games in a chunk, by default (`--chunk-games`).
pub const DEFAULT_CHUNK_GAMES: u64 = 1_000_000;
/// Core-seconds of play a chunk aims at, by default (`--chunk-seconds`): long enough that a
/// chunk's claim, start and storing are a small part of it (random games on the kernel: some
/// 600,000 games of tsoro 4x8), short enough that progress is stored often.
pub const DEFAULT_CHUNK_SECONDS: f64 = 0.5;

/// Limits and tuning of the job system.
#[derive(Clone, Debug)]
pub struct JobSettings {
    /// Most games in one job.
    pub max_games: u64,
    /// Most jobs queued or running at once.
    pub max_active_jobs: i64,
    /// Largest estimated cost of one job, in core-seconds ([`budget`]).
    pub max_job_cost: f64,
    /// Most games in a chunk.
    pub chunk_games: u64,
    /// Core-seconds of play a chunk aims at, by the cost estimate ([`budget::chunk_games`]).
    pub chunk_seconds: f64,
    /// Most exports of games (`games.csv`, `games.json`) streaming at once; more get 503.
    pub max_exports: usize,
    /// Ended jobs older than this are deleted with what they stored (None: kept).
    pub retention: Option<Duration>,
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
            max_games: 10_000_000,
            max_active_jobs: 16,
            max_job_cost: budget::DEFAULT_MAX_JOB_COST,
            chunk_games: DEFAULT_CHUNK_GAMES,
            chunk_seconds: DEFAULT_CHUNK_SECONDS,
            max_exports: 32,
            retention: None,
            lease: Duration::from_secs(30),
            poll: Duration::from_millis(200),
            workers: 1,
            threads: 0,
        }
    }
}
