//! Nhodo runs as jobs: how a worker plays a chunk of a nhodo run ([`playing`]), its view
//! and its exports (its chunks' aggregates are folded by [`super::finish`]). A chunk
//! stores its games as rows of the nhodo games CSV ([`crate::runs::nhodo`], the rows `tsoro
//! simulate --csv` writes) and their exact aggregates; game k depends only on the run's seed
//! and k, so the exports are the same whichever workers played, on any number of threads.

use super::chunk::{Finished, Outcome, Work};
use super::status::JobStatus;
use super::store::{self, Claim, JobRow, JobUsage};
use super::view::JobCommon;
use crate::runs::nhodo::{self as run, GAME_COLUMNS, SUMMARY_COLUMNS};
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

/// The statistics of a finished run.
pub fn stats_of(job: &JobRow) -> Option<NhodoStats> {
    let s: NhodoSummary = serde_json::from_value(job.summary.clone()?).ok()?;
    Some(s.stats())
}

/// A nhodo run's URL.
pub fn nhodo_url(id: Uuid) -> String {
    super::kind::Kind::Nhodo.url(id)
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
    /// What every job shows.
    #[serde(flatten)]
    pub job: JobCommon,
    /// The command line that plays the same games (its `--csv` and `--summary` files are the
    /// exports, byte for byte).
    pub command: String,
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
            command: run::command(&job.ruleset, &params, job.games, job.seed),
            stats: (job.status == JobStatus::Done)
                .then(|| stats_of(job))
                .flatten(),
            links: NhodoLinks {
                games_csv: format!("{url}/games.csv"),
                summary_csv: format!("{url}/summary.csv"),
                datapackage: format!("{url}/datapackage.json"),
                page: super::kind::Kind::Nhodo.page(job.id),
            },
            job: JobCommon::of(job, usage),
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
