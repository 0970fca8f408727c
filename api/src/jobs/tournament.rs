//! Tournaments as jobs: what a tournament job stores beside a run's columns, how a worker
//! plays a chunk of its games ([`playing`]), how its finished games are rated ([`finish`]),
//! and its exports. A chunk stores its games as JSON lines (one
//! [`TournamentGame`] each, in game order) and its agents' CPU time; game `t` depends only on
//! the tournament and `t`, so the games and ratings are the same whichever workers played.

use super::store::{self, Claim, JobRow};
use super::worker::{Finished, Outcome, Work};
use crate::runs::tournament::Ladder;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgPool;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use tsoro_corpus::frictionless::Resource;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Model};
use tsoro_engine::tournament::ladder::{self, LADDER_COLUMNS, ladder_csv};
use tsoro_engine::tournament::ratings::DEFAULT_BOOTSTRAP;
use tsoro_engine::tournament::report::{
    GAME_COLUMNS, RATING_COLUMNS, ratings_csv, report, write_game_row,
};
use tsoro_engine::tournament::{
    AgentTime, TournamentError, TournamentGame, TournamentOptions, TournamentSpec, play_range_any,
};

/// What a tournament job plays beside its ruleset, agents and seed (the job's `tournament`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    /// Seat-swapped pairs per pairing.
    pub pairs: u64,
    /// Random opening plies.
    pub opening_plies: u32,
    /// The pairings, as agent indices.
    pub pairings: Vec<[usize; 2]>,
    /// The ladder that defined the agents and pairings, if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ladder: Option<Ladder>,
}

impl Stored {
    /// What `spec` plays beside its agents and seed (a tournament `ladder` defines, if
    /// given).
    pub fn of(spec: &TournamentSpec, ladder: Option<Ladder>) -> Stored {
        Stored {
            pairs: spec.pairs,
            opening_plies: spec.opening_plies,
            pairings: spec.pairings.clone(),
            ladder,
        }
    }

    /// What a tournament job stores.
    pub fn of_job(job: &JobRow) -> Option<Stored> {
        job.tournament
            .clone()
            .and_then(|v| serde_json::from_value(v).ok())
    }
}

/// The tournament a job plays.
pub fn spec_of(job: &JobRow) -> Result<TournamentSpec, String> {
    let stored: Stored = job
        .tournament
        .clone()
        .ok_or("not a tournament")
        .and_then(|v| serde_json::from_value(v).map_err(|_| "a tournament's spec does not read"))
        .map_err(str::to_string)?;
    let agents = job
        .agents
        .iter()
        .map(|a| a.parse::<AgentSpec>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TournamentSpec {
        agents,
        pairings: stored.pairings,
        pairs: stored.pairs,
        seed: job.seed,
        opening_plies: stored.opening_plies,
    })
}

/// The play of a tournament's chunk (its games `first_game..end_game`), to run on a blocking
/// thread.
pub(super) fn playing(
    c: &Claim,
    threads: usize,
    cancel: Arc<AtomicBool>,
    counter: Arc<Finished>,
) -> Result<Work, String> {
    let spec = spec_of(&c.job)?;
    let def = catalogue::get(&c.job.ruleset).map_err(|e| e.to_string())?;
    let game =
        match catalogue::build_config(def.kind, c.job.config.clone()).map_err(|e| e.to_string())? {
            Model::Game(g) => g,
            Model::Nhodo(_) => return Err("nhodo runs no agents".into()),
        };
    let range = c.first_game..c.end_game;
    let opts = TournamentOptions {
        threads,
        cancel: Some(cancel),
        progress: Some(Arc::new(move |_, _| counter.add())),
    };
    Ok(Box::new(move || {
        match play_range_any(&game, &spec, range.clone(), &opts) {
            Ok(run) => {
                let mut lines = Vec::with_capacity(run.games.len() * 256);
                for g in &run.games {
                    if let Err(e) = serde_json::to_writer(&mut lines, g) {
                        return Outcome::Failed(e.to_string());
                    }
                    lines.push(b'\n');
                }
                Outcome::Played(lines, json!({ "time": run.time }), range.end - range.start)
            }
            Err(TournamentError::Cancelled { .. }) => Outcome::Cancelled,
            Err(e) => Outcome::Failed(e.to_string()),
        }
    }))
}

/// A stored chunk's games.
fn decode(stored: &[u8]) -> Result<Vec<TournamentGame>, sqlx::Error> {
    stored
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).map_err(|e| sqlx::Error::Protocol(e.to_string())))
        .collect()
}

/// Every stored game of a tournament job, in game order.
pub async fn games(pool: &PgPool, job: &JobRow) -> Result<Vec<TournamentGame>, sqlx::Error> {
    let mut out = Vec::with_capacity(job.games_done.max(0) as usize);
    for (idx, _) in store::stored_chunks(pool, job.id).await? {
        let stored = store::chunk_records(pool, job.id, idx)
            .await?
            .unwrap_or_default();
        out.extend(decode(&stored)?);
    }
    Ok(out)
}

/// What a finished tournament says (the job's `summary`): the report, the agents' time per
/// decision over all chunks, and the ratings as CSV.
pub async fn finish(pool: &PgPool, job: &JobRow) -> Result<(), sqlx::Error> {
    let spec = match spec_of(job) {
        Ok(s) => s,
        Err(e) => return store::fail(pool, job.id, &e).await,
    };
    let games = games(pool, job).await?;
    let parts: Vec<Option<Value>> =
        sqlx::query_scalar("SELECT summary FROM simulation_chunks WHERE job_id = $1 ORDER BY idx")
            .bind(job.id)
            .fetch_all(pool)
            .await?;
    let mut time: Vec<AgentTime> = spec
        .agents
        .iter()
        .map(|a| AgentTime {
            agent: a.to_string(),
            ..AgentTime::default()
        })
        .collect();
    for part in parts.into_iter().flatten() {
        let chunk: Vec<AgentTime> =
            serde_json::from_value(part["time"].clone()).unwrap_or_default();
        for (t, c) in time.iter_mut().zip(chunk) {
            t.decisions += c.decisions;
            t.seconds += c.seconds;
        }
    }
    for t in &mut time {
        t.ms_per_decision = if t.decisions == 0 {
            0.0
        } else {
            1000.0 * t.seconds / t.decisions as f64
        };
    }
    if games.len() as u64 != spec.games() {
        let e = format!("{} games stored of {}", games.len(), spec.games());
        return store::fail(pool, job.id, &e).await;
    }
    let is_ladder = Stored::of_job(job).is_some_and(|s| s.ladder.is_some());
    // The bootstrap takes a moment: off the async executor.
    let summary = tokio::task::spawn_blocking(move || {
        let r = report(&spec, &games, DEFAULT_BOOTSTRAP);
        let mut summary = json!({ "report": r, "time": time, "ratings_csv": ratings_csv(&r) });
        if is_ladder {
            let l = ladder::report(&spec, &r);
            summary["ladder_csv"] = ladder_csv(&l).into();
            summary["ladder"] = json!(l);
        }
        summary
    })
    .await
    .map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
    sqlx::query(
        "UPDATE simulation_jobs SET status = 'done', summary = $2, finished_at = now() \
         WHERE id = $1 AND status = 'running'",
    )
    .bind(job.id)
    .bind(summary)
    .execute(pool)
    .await?;
    Ok(())
}

/// One stored chunk's games as lines of `games.csv` (the columns of `tsoro tournament --csv`,
/// after the header of [`GAME_COLUMNS`]); what [`super::export::tournament_games_csv`] streams.
pub fn csv_lines(spec: &TournamentSpec, stored: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = String::new();
    for g in decode(stored).map_err(|e| e.to_string())? {
        if g.first >= spec.agents.len() || g.second >= spec.agents.len() {
            return Err(format!(
                "a stored game names agent {} or {}",
                g.first, g.second
            ));
        }
        write_game_row(&mut out, spec, &g);
    }
    Ok(out.into_bytes())
}

/// The Frictionless data package describing a tournament's `games.csv` and `ratings.csv`, and
/// a ladder's `ladder.csv`.
pub fn datapackage(job: &JobRow) -> Value {
    let ladder = Stored::of_job(job).and_then(|s| s.ladder);
    let title = match &ladder {
        Some(l) => format!(
            "Ladder of {} from {} to {} on {}, seed {}",
            l.family, l.from, l.to, job.ruleset, job.seed
        ),
        None => format!(
            "Tournament of {} on {}, seed {}",
            job.agents.join(", "),
            job.ruleset,
            job.seed
        ),
    };
    let mut resources = vec![
        Resource {
            name: "games",
            path: "games.csv",
            description: None,
            columns: GAME_COLUMNS,
            primary_key: &["pairing", "pair", "game"],
            foreign_keys: &[],
        }
        .descriptor(),
        Resource {
            name: "ratings",
            path: "ratings.csv",
            description: None,
            columns: RATING_COLUMNS,
            primary_key: &[],
            foreign_keys: &[],
        }
        .descriptor(),
    ];
    if ladder.is_some() {
        resources.push(
            Resource {
                name: "ladder",
                path: "ladder.csv",
                description: None,
                columns: LADDER_COLUMNS,
                primary_key: &["level"],
                foreign_keys: &[],
            }
            .descriptor(),
        );
    }
    super::package::package(
        job,
        "tournament",
        title,
        format!(
            "The games and ratings of a seeded tournament played by the tsoro engine: {} plays seat-swapped pairs of games from shared random openings; ratings on the Elo scale from a Bradley-Terry model with a first-move term (Hunter's MM), with 95% bootstrap intervals over the pairs. The games depend only on the inputs and the seed, on any machine and any number of workers.",
            if ladder.is_some() {
                "a ladder, one family of agents at rising strength, each level against itself (its first-player advantage) and against the level above (the skill trace, in ladder.csv),"
            } else {
                "every pair of agents (and each against itself)"
            }
        ),
        json!({
            "agents": job.agents,
            "tournament": job.tournament,
        }),
        resources,
    )
}
