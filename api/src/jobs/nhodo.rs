//! Nhodo runs as jobs: how a worker plays a chunk of a nhodo run ([`playing`]), how a
//! finished run's statistics are folded ([`finish`]), its view and its exports. A chunk
//! stores its games as rows of the nhodo games CSV ([`crate::runs::nhodo`], the rows `tsoro
//! simulate --csv` writes) and their exact aggregates; game k depends only on the run's seed
//! and k, so the exports are the same whichever workers played, on any number of threads.

use super::status::JobStatus;
use super::store::{self, Claim, JobRow, JobUsage};
use super::view::{Estimate, Progress};
use super::worker::{Finished, Outcome, Work};
use crate::runs::nhodo::{self as run, GAME_COLUMNS, SUMMARY_COLUMNS};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgPool;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use tsoro_engine::catalogue::{self, Model};
use tsoro_engine::nhodo::{NhodoStats, NhodoSummary, simulate};
use tsoro_engine::sim::SimOptions;
use utoipa::ToSchema;
use uuid::Uuid;

/// The play of a nhodo run's chunk (its games `first_game..end_game`), to run on a blocking
/// thread.
pub(super) fn playing(
    c: &Claim,
    threads: usize,
    cancel: Arc<AtomicBool>,
    counter: Arc<Finished>,
) -> Result<Work, String> {
    let def = catalogue::get(&c.job.ruleset).map_err(|e| e.to_string())?;
    let model =
        match catalogue::build_config(def.kind, c.job.config.clone()).map_err(|e| e.to_string())? {
            Model::Nhodo(m) => m,
            Model::Game(_) => return Err(format!("{} is not a nhodo ruleset", def.id)),
        };
    let (range, seed) = (c.first_game..c.end_game, c.job.seed);
    let opts = SimOptions {
        threads,
        cancel: Some(cancel),
        ..SimOptions::default()
    };
    Ok(Box::new(move || {
        let games = range.end - range.start;
        let mut w = run::rows_writer(Vec::with_capacity(games as usize * 32));
        let mut refused = None;
        let summary = simulate(&model, range, seed, &opts, &mut |r| {
            counter.add();
            if let Err(e) = run::write_row(&mut w, r) {
                refused.get_or_insert(e.to_string());
            }
        });
        if let Some(e) = refused {
            return Outcome::Failed(e);
        }
        let lines = match w.into_inner() {
            Ok(l) => l,
            Err(e) => return Outcome::Failed(e.to_string()),
        };
        Outcome::of_simulation(summary, lines, games)
    }))
}

/// Folds a finished run's chunks' aggregates, in order, into the job's summary and marks it
/// done (or failed, when a chunk's aggregates do not read).
pub async fn finish(pool: &PgPool, job: &JobRow) -> Result<(), sqlx::Error> {
    let parts: Vec<(i32, Option<Value>)> =
        sqlx::query_as("SELECT idx, summary FROM simulation_chunks WHERE job_id = $1 ORDER BY idx")
            .bind(job.id)
            .fetch_all(pool)
            .await?;
    let mut summary = NhodoSummary::default();
    for (idx, part) in parts {
        let part = part.ok_or_else(|| format!("chunk {idx} was stored without its aggregates"));
        match part
            .and_then(|v| serde_json::from_value::<NhodoSummary>(v).map_err(|e| e.to_string()))
        {
            Ok(p) => summary.merge(&p),
            Err(e) => {
                return store::fail(pool, job.id, &format!("the run's statistics: {e}")).await;
            }
        }
    }
    sqlx::query(
        "UPDATE simulation_jobs SET status = 'done', summary = $2, finished_at = now() \
         WHERE id = $1 AND status = 'running'",
    )
    .bind(job.id)
    .bind(serde_json::to_value(&summary).unwrap_or_default())
    .execute(pool)
    .await?;
    Ok(())
}

/// The statistics of a finished run.
pub fn stats_of(job: &JobRow) -> Option<NhodoStats> {
    let s: NhodoSummary = serde_json::from_value(job.summary.clone()?).ok()?;
    Some(s.stats())
}

/// A nhodo run's URL.
pub fn nhodo_url(id: Uuid) -> String {
    format!("/api/v1/nhodo/{id}")
}

/// Where a nhodo run's exports are (each answers 409 until it is done) and its page.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NhodoLinks {
    /// Every game's record as CSV (the columns of `tsoro simulate --csv`).
    pub games_csv: String,
    /// The statistics, one metric per row (as `tsoro simulate --summary` writes them).
    pub summary_csv: String,
    /// The Frictionless data package describing the CSV files.
    pub datapackage: String,
    /// Its page.
    pub page: String,
}

/// A nhodo run: what it plays, its progress and, when done, its statistics.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NhodoView {
    /// The run's id.
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
    /// Games.
    pub games: i64,
    /// The run's seed, an unsigned 64-bit integer as a decimal string.
    #[schema(example = "7")]
    pub seed: String,
    /// The command line that plays the same games (its `--csv` and `--summary` files are the
    /// exports, byte for byte).
    pub command: String,
    /// How far it has got.
    pub progress: Progress,
    /// Its estimated cost when it was queued.
    pub estimate: Option<Estimate>,
    /// Why it failed.
    pub error: Option<String>,
    /// The engine version that made it. Only workers of that version play it.
    #[schema(example = "3f2a9c0d41b7e865")]
    pub engine_version: Option<String>,
    /// Why it waits: made by another engine version than this service's workers'.
    pub held: Option<String>,
    /// The name of the token that created it.
    pub owner: Option<String>,
    /// When it was queued.
    pub created_at: DateTime<Utc>,
    /// When its first chunk was claimed.
    pub started_at: Option<DateTime<Utc>>,
    /// When it ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// When done, as `tsoro simulate --json` prints them: `games`; `wins`, each seat's win
    /// rate (seat 1 first) with its Wilson 95% interval `ci`; `draws` at the turn limit,
    /// likewise; `turns` and `throws` per game (mean, sd, median, p10, p90, min, max).
    #[schema(value_type = Option<Object>)]
    pub stats: Option<NhodoStats>,
    /// Its exports and page.
    pub links: NhodoLinks,
}

impl NhodoView {
    /// The view of a stored nhodo job with what its chunks add up to.
    pub fn of(job: &JobRow, usage: &JobUsage) -> NhodoView {
        let url = nhodo_url(job.id);
        let params: tsoro_engine::catalogue::Params =
            serde_json::from_value(job.params.clone()).unwrap_or_default();
        NhodoView {
            id: job.id,
            status: job.status,
            ruleset: job.ruleset.clone(),
            ruleset_version: job.ruleset_hash.clone(),
            params: job.params.clone(),
            games: job.games,
            seed: job.seed.to_string(),
            command: run::command(&job.ruleset, &params, job.games, job.seed),
            progress: Progress::of(job, usage, Utc::now()),
            estimate: Estimate::of([job.estimated_cost]),
            error: job.error.clone(),
            engine_version: job.engine_version.clone(),
            held: job.held_back(),
            owner: job.owner.clone(),
            created_at: job.created_at,
            started_at: job.started_at,
            finished_at: job.finished_at,
            stats: (job.status == JobStatus::Done)
                .then(|| stats_of(job))
                .flatten(),
            links: NhodoLinks {
                games_csv: format!("{url}/games.csv"),
                summary_csv: format!("{url}/summary.csv"),
                datapackage: format!("{url}/datapackage.json"),
                page: format!("/nhodo/{}", job.id),
            },
            url,
        }
    }
}

/// `games.csv` of run `id`: the header, then every chunk's rows in game order, a chunk at a time; byte
/// for byte the file `tsoro simulate --csv` writes for the same run.
pub fn games_csv(
    pool: PgPool,
    id: Uuid,
) -> impl futures_util::Stream<Item = Result<Vec<u8>, String>> + 'static {
    use futures_util::StreamExt;
    let head = futures_util::stream::once(async { run::header().map_err(|e| e.to_string()) });
    let chunks = futures_util::stream::once({
        let pool = pool.clone();
        async move { store::stored_chunks(&pool, id).await }
    })
    .flat_map(move |listed| {
        let pool = pool.clone();
        let idxs: Vec<Result<i32, String>> = match listed {
            Ok(l) => l.into_iter().map(|(idx, _)| Ok(idx)).collect(),
            Err(e) => vec![Err(e.to_string())],
        };
        futures_util::stream::iter(idxs).then(move |idx| {
            let pool = pool.clone();
            async move {
                let idx = idx?;
                store::chunk_records(&pool, id, idx)
                    .await
                    .map(Option::unwrap_or_default)
                    .map_err(|e| e.to_string())
            }
        })
    });
    head.chain(chunks)
}

/// `datapackage.json`: a Frictionless Tabular Data Package describing `games.csv` and
/// `summary.csv`, with what defines the run (ruleset version, configuration, seed).
pub fn datapackage(job: &JobRow) -> Value {
    use super::package::{games_and_summary, package};
    package(
        job,
        "nhodo",
        format!("{} games of {}, seed {}", job.games, job.ruleset, job.seed),
        "Per-game records and summary statistics of a seeded nhodo run by the tsoro engine (a stochastic model of a dexterity game: no decisions, only the players' skill). Game k's record depends only on the run's seed and k, so the same inputs give the same data on any machine and any number of workers.".into(),
        json!({}),
        games_and_summary(GAME_COLUMNS, SUMMARY_COLUMNS),
    )
}
