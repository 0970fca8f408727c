//! What the jobs API answers: a job, a list of jobs, a comparison, a job's statistics and one
//! of its games, as typed bodies (the OpenAPI schemas are derived from them). Seeds are
//! decimal strings: JSON numbers above 2^53 lose digits in JavaScript.

use super::export;
use super::paired::PairedDifference;
use super::status::JobStatus;
use super::store::{JobRow, JobUsage};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use tsoro_engine::stats::Stats;
use utoipa::ToSchema;
use uuid::Uuid;

/// The URL of a job.
pub fn job_url(id: Uuid) -> String {
    format!("/api/v1/simulations/{id}")
}

/// The URL of a comparison.
pub fn comparison_url(id: Uuid) -> String {
    format!("/api/v1/comparisons/{id}")
}

/// How far a job has got. Games are counted as each one ends (workers report every half
/// second), so progress moves within seconds even when a chunk of games takes minutes.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Progress {
    /// Games played: stored, or ended in a chunk still being played.
    pub games_done: i64,
    /// Games whose records are stored (a chunk's are stored when all its games are played).
    pub games_stored: i64,
    /// Games in the job.
    pub games: i64,
    /// `games_done / games`, 0 to 1.
    pub fraction: f64,
    /// Games per second since the job started (none before its first game ends).
    pub games_per_second: Option<f64>,
    /// Seconds left at that rate (0 when done; none when not running or no game has ended).
    pub eta_seconds: Option<f64>,
    /// When it should be done at that rate (the time it ended, when done; none when not
    /// running or no game has ended).
    pub eta: Option<DateTime<Utc>>,
}

impl Progress {
    /// The progress of a stored job with its games in play, as of `now`.
    pub fn of(job: &JobRow, usage: &JobUsage, now: DateTime<Utc>) -> Progress {
        let done = (job.games_done + usage.games_in_play).clamp(0, job.games);
        let elapsed = job.started_at.map(|s| {
            let end = job.finished_at.unwrap_or(now);
            ((end - s).num_milliseconds().max(1)) as f64 / 1000.0
        });
        let rate = elapsed.map(|e| done as f64 / e).filter(|r| *r > 0.0);
        let eta_seconds = match (job.status, rate) {
            (JobStatus::Running, Some(r)) => Some(((job.games - done) as f64 / r).max(0.0)),
            (JobStatus::Done, _) => Some(0.0),
            _ => None,
        };
        let eta = match job.status {
            JobStatus::Done => job.finished_at,
            _ => eta_seconds.and_then(|s| {
                chrono::Duration::try_milliseconds((s * 1000.0).min(1e15) as i64).map(|d| now + d)
            }),
        };
        Progress {
            games_done: done,
            games_stored: job.games_done,
            games: job.games,
            fraction: done as f64 / job.games.max(1) as f64,
            games_per_second: rate,
            eta_seconds,
            eta,
        }
    }
}

/// A job's estimated cost, from the cost model that admitted it (`--max-job-cost`).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct Estimate {
    /// Core-seconds of play the whole job should take (divide by the cores working on it for
    /// the time it should take once started).
    pub core_seconds: f64,
}

impl Estimate {
    /// The estimate of jobs stored with these costs (core-seconds; none when none was kept,
    /// as for jobs queued before estimates were).
    pub fn of(costs: impl IntoIterator<Item = f64>) -> Option<Estimate> {
        let core_seconds: f64 = costs.into_iter().sum();
        (core_seconds > 0.0).then_some(Estimate { core_seconds })
    }
}

/// What was just queued (the answer of a POST that starts jobs: a simulation, comparison,
/// readings study or tournament): its view, and how many jobs were queued or running before
/// it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Queued<T> {
    /// What was queued.
    #[serde(flatten)]
    pub view: T,
    /// Jobs queued or running when it was queued, not counting its own (workers share
    /// themselves among owners and jobs, so a small job may start before some of them end).
    pub queue_position: i64,
}

/// Where a job's exports are (each answers 409 until the job is done).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct JobLinks {
    /// Every game's record as CSV.
    pub games_csv: String,
    /// Every game's record as JSON.
    pub games_json: String,
    /// The statistics, one metric per row.
    pub summary_csv: String,
    /// The statistics as JSON.
    pub summary_json: String,
    /// The Frictionless data package describing the CSV files.
    pub datapackage: String,
}

/// A simulation job: what it runs, its progress and, when done, its statistics.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct JobView {
    /// The job's id.
    pub id: Uuid,
    /// Its URL.
    pub url: String,
    /// Where it is in its life.
    pub status: JobStatus,
    /// The ruleset id.
    pub ruleset: String,
    /// The version run: sha256 of the resolved configuration.
    pub ruleset_version: String,
    /// Every parameter in force.
    #[schema(value_type = HashMap<String, Value>)]
    pub params: Value,
    /// The two agents.
    pub agents: Vec<String>,
    /// Games.
    pub games: i64,
    /// The run's seed, an unsigned 64-bit integer as a decimal string.
    #[schema(example = "7")]
    pub seed: String,
    /// Agents swap seats every other game.
    pub swap_seats: bool,
    /// Played through the reference rules only.
    pub reference: bool,
    /// The comparison the job belongs to, if any (its URL).
    pub comparison: Option<String>,
    /// How far it has got.
    pub progress: Progress,
    /// Its estimated cost when it was queued (none for jobs queued before estimates were
    /// kept).
    pub estimate: Option<Estimate>,
    /// Why it failed.
    pub error: Option<String>,
    /// The engine version that made it (a digest of the engine's sources; none for jobs made
    /// before jobs recorded it). Only workers of that version play it.
    #[schema(example = "3f2a9c0d41b7e865")]
    pub engine_version: Option<String>,
    /// Why it waits: made by another engine version than this service's workers', which leave
    /// it to workers of its own version.
    pub held: Option<String>,
    /// Why it cannot progress now, while it has not ended (the database's disk is full: it
    /// resumes by itself once space is freed); absent when it can.
    pub paused: Option<Paused>,
    /// Bytes its stored records and aggregates take in the database.
    pub stored_bytes: i64,
    /// When it was queued.
    pub created_at: DateTime<Utc>,
    /// When its first chunk was claimed.
    pub started_at: Option<DateTime<Utc>>,
    /// When it ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// The statistics (win rates with 95% intervals, lengths, Ludii's metrics), when done.
    #[schema(value_type = Option<Object>)]
    pub stats: Option<Stats>,
    /// Its exports.
    pub links: JobLinks,
}

impl JobView {
    /// The view of a stored job with what its chunks add up to.
    pub fn of(job: &JobRow, usage: &JobUsage) -> JobView {
        let url = job_url(job.id);
        JobView {
            id: job.id,
            status: job.status,
            ruleset: job.ruleset.clone(),
            ruleset_version: job.ruleset_hash.clone(),
            params: job.params.clone(),
            agents: job.agents.clone(),
            games: job.games,
            seed: job.seed.to_string(),
            swap_seats: job.swap_seats,
            reference: job.reference,
            comparison: job.comparison_id.map(comparison_url),
            progress: Progress::of(job, usage, Utc::now()),
            estimate: Estimate::of([job.estimated_cost]),
            error: job.error.clone(),
            engine_version: job.engine_version.clone(),
            held: job.held_back(),
            paused: Paused::of(job),
            stored_bytes: usage.stored_bytes,
            created_at: job.created_at,
            started_at: job.started_at,
            finished_at: job.finished_at,
            stats: export::stats_of(job),
            links: JobLinks {
                games_csv: format!("{url}/games.csv"),
                games_json: format!("{url}/games.json"),
                summary_csv: format!("{url}/summary.csv"),
                summary_json: format!("{url}/summary.json"),
                datapackage: format!("{url}/datapackage.json"),
            },
            url,
        }
    }
}

/// Why a job that has not ended cannot progress now.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Paused {
    /// Why, such as "disk full: ...".
    pub reason: String,
    /// Since when.
    pub since: DateTime<Utc>,
}

impl Paused {
    /// The job's pause, while it has not ended.
    pub fn of(job: &JobRow) -> Option<Paused> {
        match (&job.paused, job.paused_at) {
            (Some(reason), Some(since)) if !job.status.is_ended() => Some(Paused {
                reason: reason.clone(),
                since,
            }),
            _ => None,
        }
    }
}

/// Jobs, newest first.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct JobList {
    /// The jobs.
    pub items: Vec<JobView>,
}

/// Where a comparison's table is.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ComparisonLinks {
    /// The comparison table as CSV (409 until every run is done).
    pub table_csv: String,
}

/// A comparison: one job per ruleset on the same seeds, and, when all are done, each later
/// run against the first game by game (paired: game k of each run has the same seed), with
/// 95% intervals and p-values.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ComparisonView {
    /// The comparison's id.
    pub id: Uuid,
    /// Its URL.
    pub url: String,
    /// `done` when every run is; else `failed`, `cancelled`, `running` or `queued`, the
    /// first that any run is.
    pub status: JobStatus,
    /// The runs, in the order of the request's rulesets.
    pub runs: Vec<JobView>,
    /// Its runs' estimated cost together, from when they were queued.
    pub estimate: Option<Estimate>,
    /// Each later run minus the first, paired game by game, when all are done: `ruleset`
    /// and `reference` (the first run's ruleset) name the two; `pairs` and `identical` (pairs
    /// whose records agree in every column); `first_mover`, `first_agent_wins` and `draws`
    /// (each with both proportions, `diff`, Newcombe's paired 95% interval `ci`, the
    /// discordant games `only_first` and `only_second`, and McNemar's exact `p_value`);
    /// `turns` and `captures` (mean per-game difference `diff`, its `sd`, the `differing`
    /// games, the paired t 95% interval `ci` and `p_value`).
    #[schema(value_type = Option<Vec<Object>>)]
    pub differences_from_first: Option<Vec<PairedDifference>>,
    /// Its table.
    pub links: ComparisonLinks,
}

impl ComparisonView {
    /// The view of a comparison's stored jobs with what their chunks add up to, and the
    /// paired figures once every run is done.
    pub fn of(
        id: Uuid,
        jobs: &[JobRow],
        usage: &HashMap<Uuid, JobUsage>,
        paired: Option<&[PairedDifference]>,
    ) -> ComparisonView {
        let status = comparison_status(jobs);
        let url = comparison_url(id);
        ComparisonView {
            id,
            status,
            runs: jobs
                .iter()
                .map(|j| JobView::of(j, &usage.get(&j.id).copied().unwrap_or_default()))
                .collect(),
            estimate: Estimate::of(jobs.iter().map(|j| j.estimated_cost)),
            differences_from_first: paired.map(<[PairedDifference]>::to_vec),
            links: ComparisonLinks {
                table_csv: format!("{url}/table.csv"),
            },
            url,
        }
    }
}

/// A comparison's status from its runs': `done` when every run is; else `failed`,
/// `cancelled`, `running` or `queued`, the first that any run is.
pub fn comparison_status(jobs: &[JobRow]) -> JobStatus {
    use JobStatus::*;
    if jobs.iter().all(|j| j.status == Done) {
        return Done;
    }
    [Failed, Cancelled, Running]
        .into_iter()
        .find(|s| jobs.iter().any(|j| j.status == *s))
        .unwrap_or(Queued)
}

/// A finished job's statistics with what defines the run.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SummaryView {
    /// The ruleset id.
    pub ruleset: String,
    /// The version run: sha256 of the resolved configuration.
    pub ruleset_version: String,
    /// Every parameter in force.
    #[schema(value_type = HashMap<String, Value>)]
    pub params: Value,
    /// The two agents.
    pub agents: Vec<String>,
    /// The run's seed, as a decimal string.
    pub seed: String,
    /// Games.
    pub games: i64,
    /// The statistics.
    #[schema(value_type = Option<Object>)]
    pub stats: Option<Stats>,
}

impl SummaryView {
    /// The summary of a stored job.
    pub fn of(job: &JobRow) -> SummaryView {
        SummaryView {
            ruleset: job.ruleset.clone(),
            ruleset_version: job.ruleset_hash.clone(),
            params: job.params.clone(),
            agents: job.agents.clone(),
            seed: job.seed.to_string(),
            games: job.games,
            stats: export::stats_of(job),
        }
    }
}

/// Game k of a job, played again from the job's inputs: its actions, as `/replay` takes them.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct JobGame {
    /// The job's URL.
    pub simulation: String,
    /// The game's index in the run.
    pub game: u64,
    /// The ruleset id.
    pub ruleset: String,
    /// Every parameter in force.
    #[schema(value_type = HashMap<String, Value>)]
    pub params: Value,
    /// The two agents.
    pub agents: Vec<String>,
    /// Which of the two agents (0 or 1) sat in seat A.
    pub seat_a: u64,
    /// The actions in order.
    #[schema(value_type = Vec<Object>)]
    pub actions: Vec<Value>,
}
