//! The `tsoro` command line.

use crate::commands::{
    replay::ReplayArgs,
    run_args::{CompareArgs, SimulateArgs},
};
use crate::settings;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// tsoro: an archive and simulator of the stone games of Zimbabwe and Malawi.
#[derive(Debug, Parser)]
#[command(name = "tsoro", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (with an embedded PostgreSQL unless DATABASE_URL is set).
    Serve(ServeArgs),
    /// Apply the database migrations and exit.
    Migrate(DbArgs),
    /// Replay a recorded game (JSON on stdin or --file): every state and the result.
    Replay(ReplayArgs),
    /// Simulate games of a ruleset between two agents and print statistics.
    Simulate(SimulateArgs),
    /// What an agent chooses in a position (the start, or after --actions), with its view of
    /// every candidate and its speed.
    Search(crate::commands::search::SearchArgs),
    /// Simulate several rulesets on the same seeds and print them side by side.
    Compare(CompareArgs),
    /// Agents against each other (seat-swapped pairs of games), rated on the Elo scale with
    /// a first-move term.
    Tournament(crate::commands::tournament::TournamentArgs),
    /// One family of agents at doubling strength against itself and its neighbours: the
    /// first-player advantage as a curve of strength, and the skill trace.
    Ladder(crate::commands::tournament::LadderArgs),
    /// What each reading of the sources changes in play: every choice of the parameters
    /// named, against the default on the same seeds, under random play and a pairing of
    /// agents, with intervals and Holm-corrected paired tests.
    Readings(crate::commands::readings::ReadingsArgs),
    /// Work on simulation jobs of a service: through its shared PostgreSQL (`DATABASE_URL`, any
    /// number of machines), or on its machine through the embedded server of its data directory.
    Worker(WorkerArgs),
    /// Write the OpenAPI description of the service (`openapi/openapi.json`).
    Openapi {
        /// Where to write it (`-` for standard output).
        #[arg(long, default_value = "openapi/openapi.json")]
        out: PathBuf,
    },
    /// Write the whole archive offline: the Frictionless data package (`datapackage.json` and
    /// `archive/*.csv`, as `GET /api/v1/datapackage.json` serves it) and the bibliography
    /// (`citations.bib`, `citations.json`).
    Export {
        /// The directory to write to (created if need be).
        #[arg(long)]
        archive: PathBuf,
    },
    /// Manage the API tokens of a service (run against its data directory or DATABASE_URL):
    /// once one exists, starting jobs needs a `runner` token.
    Token(TokenArgs),
    /// Write a backup of the service's database to FILE (pg_dump's custom format, as the
    /// service's role): of a running service's embedded server, of the data directory's, or of
    /// DATABASE_URL.
    Backup {
        /// The file to write.
        file: PathBuf,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Restore a backup made by `tsoro backup` into the data directory's embedded server (made
    /// if need be; no service may be running on it) or DATABASE_URL, replacing what its
    /// database holds, then apply the migrations newer than the backup.
    Restore {
        /// The backup.
        file: PathBuf,
        #[command(flatten)]
        db: DbArgs,
    },
    /// The PostgreSQL clusters kept for data directories the server user cannot reach (under
    /// /var/lib/tsoro/clusters): list them, and remove those whose data directory is gone.
    Clusters(ClustersArgs),
    /// List the compiled-in rulesets and their parameters.
    Rulesets {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Arguments of `tsoro clusters`.
#[derive(Debug, Args)]
pub struct ClustersArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: ClustersAction,
    /// Where the clusters are kept.
    #[arg(long, env = "TSORO_CLUSTERS_ROOT", default_value = tsoro_pg::clusters::CLUSTERS_ROOT)]
    pub root: PathBuf,
}

/// What `tsoro clusters` does.
#[derive(Debug, Subcommand)]
pub enum ClustersAction {
    /// List every kept cluster, its data directory and whether it is in use.
    List,
    /// Remove the clusters whose data directory is gone (or was replaced by another), listing
    /// each; clusters in use, running, or with no data directory recorded are kept.
    Prune {
        /// Only list what would be removed.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Where the database is.
#[derive(Debug, Args, Clone)]
pub struct DbArgs {
    /// PostgreSQL URL of an existing server; without it an embedded server is started from
    /// the system's PostgreSQL binaries, with its data under the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Directory of the embedded server's data (kept between runs).
    #[arg(long, env = "TSORO_DATA_DIR", default_value = settings::DEFAULT_DATA_DIR)]
    pub data_dir: PathBuf,
}

/// Arguments of `tsoro serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "TSORO_BIND", default_value = settings::DEFAULT_BIND)]
    pub bind: String,
    /// Largest request body, in bytes.
    #[arg(long, env = "TSORO_BODY_LIMIT", default_value_t = settings::DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
    /// Seconds the database may be down (not answering, while the embedded server is restarted
    /// or a DATABASE_URL server is away) before `/health` answers 503.
    #[arg(long, env = "TSORO_HEALTH_DB_DOWN_SECS", default_value_t = settings::DEFAULT_DOWN_THRESHOLD.as_secs_f64())]
    pub health_db_down_secs: f64,
    /// Take anonymous writes (starting and deleting jobs) while no API token exists, even when
    /// listening on an address other machines can reach (without it, such a service refuses to
    /// start until a token exists).
    #[arg(long, env = "TSORO_ALLOW_ANONYMOUS_WRITES")]
    pub allow_anonymous_writes: bool,
    /// A reverse proxy in front of the service, whose `X-Forwarded-For` names the client (for
    /// the shares per client: anonymous jobs' quotas, exports). Repeat it, or separate
    /// addresses with commas; without it the header is ignored and the client is the peer.
    #[arg(
        long = "trusted-proxy",
        env = "TSORO_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// A name the service answers to besides localhost, 127.0.0.1 and [::1] (its name behind a
    /// reverse proxy, say). Repeat it, or separate names with commas. On loopback, requests
    /// naming another host (`Host` header) are refused with 421, against DNS rebinding;
    /// beyond loopback, they are once any name is given.
    #[arg(
        long = "allowed-host",
        env = "TSORO_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    pub allowed_hosts: Vec<String>,
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub jobs: JobArgs,
    #[command(flatten)]
    pub requests: RequestArgs,
}

/// Bounds of the CPU-bound requests (agent moves, replays, a job's game played again).
#[derive(Debug, Args, Clone)]
pub struct RequestArgs {
    /// CPU-bound requests running at once (0: one per core); more get 503 with Retry-After.
    #[arg(long, env = "TSORO_MAX_CPU_REQUESTS", default_value_t = settings::DEFAULT_CPU_REQUESTS)]
    pub max_cpu_requests: usize,
    /// CPU-bound requests one client (its address; behind --trusted-proxy, the one forwarded)
    /// runs at once (0: half of --max-cpu-requests, rounded up); more get 429 with Retry-After.
    #[arg(long, env = "TSORO_MAX_CLIENT_CPU_REQUESTS", default_value_t = settings::DEFAULT_CLIENT_CPU_REQUESTS)]
    pub max_client_cpu_requests: usize,
    /// Seconds a CPU-bound request may compute; a search still running then is stopped and
    /// the request refused (422).
    #[arg(long, env = "TSORO_REQUEST_SECONDS", default_value_t = settings::DEFAULT_REQUEST_SECONDS)]
    pub request_seconds: f64,
}

impl RequestArgs {
    /// The settings these arguments give.
    pub fn settings(&self) -> settings::RequestSettings {
        let seconds = if self.request_seconds.is_finite() && self.request_seconds > 0.0 {
            self.request_seconds.min(3600.0)
        } else {
            settings::DEFAULT_REQUEST_SECONDS
        };
        settings::RequestSettings {
            max_cpu_requests: self.max_cpu_requests,
            max_client_cpu_requests: self.max_client_cpu_requests,
            budget: std::time::Duration::from_secs_f64(seconds),
        }
    }
}

/// Arguments of `tsoro token`.
#[derive(Debug, Args)]
pub struct TokenArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: TokenAction,
    #[command(flatten)]
    pub db: DbArgs,
}

/// What `tsoro token` does.
#[derive(Debug, Subcommand)]
pub enum TokenAction {
    /// Make a token and print it (once: only its hash is stored).
    Add {
        /// Its name (a job's owner): letters, digits, '.', '_' and '-'.
        name: String,
        /// What its holder may do: reader (identifies itself), runner (starts jobs, stops
        /// its own), admin (lists, stops and deletes anyone's).
        #[arg(long)]
        role: crate::access::Role,
    },
    /// List the tokens (names, roles, dates; never the tokens themselves).
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a token: requests bearing it are refused from now on.
    Revoke {
        /// Its name.
        name: String,
    },
}

/// Limits and tuning of simulation jobs.
#[derive(Debug, Args, Clone)]
pub struct JobArgs {
    /// Most games in one simulation job.
    #[arg(long, env = "TSORO_MAX_GAMES", default_value_t = settings::DEFAULT_MAX_GAMES)]
    pub max_games: u64,
    /// Most jobs queued or running at once (more are refused with 429).
    #[arg(long, env = "TSORO_MAX_JOBS", default_value_t = settings::DEFAULT_MAX_JOBS)]
    pub max_jobs: i64,
    /// Largest estimated cost of one job, in core-seconds (more is refused with 422 naming the
    /// estimate; the model is in `api/src/runs/cost.rs`).
    #[arg(long, env = "TSORO_MAX_JOB_COST", default_value_t = settings::DEFAULT_MAX_JOB_COST)]
    pub max_job_cost: f64,
    /// Days an ended job (done, failed, cancelled) and its records are kept; 0 keeps them.
    #[arg(long, env = "TSORO_RETENTION_DAYS", default_value_t = settings::DEFAULT_RETENTION_DAYS)]
    pub retention_days: f64,
    /// Days an ended anonymous job (made without a token) and its records are kept; 0 keeps
    /// them (unless --retention-days is shorter).
    #[arg(long, env = "TSORO_ANONYMOUS_RETENTION_DAYS", default_value_t = settings::DEFAULT_ANONYMOUS_RETENTION_DAYS)]
    pub anonymous_retention_days: f64,
    /// Most jobs one owner (a token's holder; without a token, a client address) has queued
    /// or running at once (more are refused with 429 naming the figures).
    #[arg(long, env = "TSORO_MAX_OWNER_JOBS", default_value_t = settings::DEFAULT_MAX_OWNER_JOBS)]
    pub max_owner_jobs: i64,
    /// Most core-seconds of estimated work one owner has outstanding (more are refused with
    /// 429 naming the figures).
    #[arg(long, env = "TSORO_MAX_OWNER_COST", default_value_t = settings::DEFAULT_MAX_OWNER_COST)]
    pub max_owner_cost: f64,
    /// Most bytes one owner's jobs store; past it, its new jobs are refused with 507 until it
    /// deletes some.
    #[arg(long, env = "TSORO_MAX_OWNER_BYTES", default_value_t = settings::DEFAULT_MAX_OWNER_BYTES)]
    pub max_owner_bytes: i64,
    /// Most games in a chunk of a job.
    #[arg(long, env = "TSORO_CHUNK_GAMES", default_value_t = settings::DEFAULT_CHUNK_GAMES)]
    pub chunk_games: u64,
    /// Core-seconds of play a chunk of a job aims at, by the cost estimate of the job's games
    /// (at least 16 games, at most --chunk-games).
    #[arg(long, env = "TSORO_CHUNK_SECONDS", default_value_t = settings::DEFAULT_CHUNK_SECONDS)]
    pub chunk_seconds: f64,
    /// Most exports of games (games.csv, games.json) streaming at once (more are refused with
    /// 503 and Retry-After before their body starts).
    #[arg(long, env = "TSORO_MAX_EXPORTS", default_value_t = settings::DEFAULT_MAX_EXPORTS)]
    pub max_exports: usize,
    /// Most exports one client streams at once (more are refused with 429 and Retry-After).
    #[arg(long, env = "TSORO_MAX_CLIENT_EXPORTS", default_value_t = settings::DEFAULT_MAX_CLIENT_EXPORTS)]
    pub max_client_exports: usize,
    /// Seconds an export waits for its client to read before it is dropped (its slot freed).
    #[arg(long, env = "TSORO_EXPORT_STALL_SECS", default_value_t = settings::DEFAULT_EXPORT_STALL_SECS)]
    pub export_stall_secs: f64,
    /// Seconds a claimed chunk stays a worker's without renewal.
    #[arg(long, env = "TSORO_LEASE_SECS", default_value_t = settings::DEFAULT_LEASE_SECS)]
    pub lease_secs: f64,
    /// Worker loops in this process (for `serve`, 0 leaves the work to `tsoro worker`).
    #[arg(long, env = "TSORO_WORKERS", default_value_t = settings::DEFAULT_WORKERS)]
    pub workers: usize,
    /// Threads each worker loop plays with (default: one per core).
    #[arg(long, env = "TSORO_WORKER_THREADS", default_value_t = settings::DEFAULT_WORKER_THREADS)]
    pub worker_threads: usize,
}

impl JobArgs {
    /// The settings these arguments give.
    pub fn settings(&self) -> settings::JobSettings {
        settings::JobSettings {
            max_games: self.max_games.clamp(1, tsoro_engine::sim::MAX_GAMES),
            max_active_jobs: self.max_jobs.max(1),
            max_job_cost: if self.max_job_cost > 0.0 {
                self.max_job_cost
            } else {
                0.0
            },
            chunk_games: self.chunk_games.max(1),
            chunk_seconds: if self.chunk_seconds.is_finite() {
                self.chunk_seconds.clamp(0.0, 3600.0)
            } else {
                settings::DEFAULT_CHUNK_SECONDS
            },
            max_exports: self.max_exports.max(1),
            max_client_exports: self.max_client_exports.max(1),
            export_stall: std::time::Duration::from_secs_f64(
                if self.export_stall_secs.is_finite() {
                    self.export_stall_secs.clamp(0.1, 86_400.0)
                } else {
                    settings::DEFAULT_EXPORT_STALL_SECS
                },
            ),
            max_owner_jobs: self.max_owner_jobs.max(1),
            max_owner_cost: if self.max_owner_cost > 0.0 {
                self.max_owner_cost
            } else {
                0.0
            },
            max_owner_bytes: self.max_owner_bytes.max(0),
            retention: settings::retention(self.retention_days),
            anonymous_retention: settings::retention(self.anonymous_retention_days),
            lease: std::time::Duration::from_secs_f64(self.lease_secs.clamp(0.5, 3600.0)),
            poll: settings::POLL,
            workers: self.workers,
            threads: self.worker_threads,
        }
    }
}

/// Arguments of `tsoro worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// PostgreSQL URL of the service's database (the server a `tsoro serve` was given through
    /// DATABASE_URL); without it, the embedded server of --data-dir.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Data directory of a `tsoro serve` running on this machine, whose embedded PostgreSQL to
    /// join (its password file is read there: run as the service's user or root).
    #[arg(long, env = "TSORO_DATA_DIR", default_value = settings::DEFAULT_DATA_DIR)]
    pub data_dir: PathBuf,
    #[command(flatten)]
    pub jobs: JobArgs,
}
