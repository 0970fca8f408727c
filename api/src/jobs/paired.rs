//! A finished comparison's paired figures: game k of each run against game k of the first
//! (its runs share their seeds), read from the stored records a chunk at a time. Done once
//! per comparison and kept: a finished comparison's records do not change.

use super::records::{self, DecodeError};
use super::store::{self, JobRow};
use serde::Serialize;
use sqlx::PgPool;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use thiserror::Error;
use tsoro_engine::stats::paired::{Paired, PairedGame, PairedSummary};
use uuid::Uuid;

/// One run of a comparison against the first, game by game.
#[derive(Clone, Debug, Serialize)]
pub struct PairedDifference {
    /// The run's ruleset: each figure is this run's minus the reference's.
    pub ruleset: String,
    /// The first run's ruleset, the reference.
    pub reference: String,
    /// The figures.
    #[serde(flatten)]
    pub paired: Paired,
}

/// Why the paired figures could not be read.
#[derive(Debug, Error)]
pub enum PairedError {
    /// The database failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// A stored chunk did not decode.
    #[error("stored records: {0}")]
    Decode(#[from] DecodeError),
    /// The runs' stored records do not line up game by game.
    #[error("{0}")]
    Misaligned(String),
}

/// A job's stored records in game order, a chunk at a time.
struct Games<'a> {
    pool: &'a PgPool,
    job: Uuid,
    chunks: VecDeque<i32>,
    buffered: VecDeque<(u64, PairedGame)>,
}

impl<'a> Games<'a> {
    async fn open(pool: &'a PgPool, job: Uuid) -> Result<Games<'a>, sqlx::Error> {
        let chunks = store::stored_chunks(pool, job).await?;
        Ok(Games {
            pool,
            job,
            chunks: chunks.into_iter().map(|(idx, _)| idx).collect(),
            buffered: VecDeque::new(),
        })
    }

    /// The next game (its index and figures), or None after the last.
    async fn next(&mut self) -> Result<Option<(u64, PairedGame)>, PairedError> {
        while self.buffered.is_empty() {
            let Some(idx) = self.chunks.pop_front() else {
                return Ok(None);
            };
            let stored = store::chunk_records(self.pool, self.job, idx)
                .await?
                .unwrap_or_default();
            self.buffered = records::decode_all(&stored)?
                .iter()
                .map(|r| (r.game, PairedGame::of(r)))
                .collect();
        }
        Ok(self.buffered.pop_front())
    }
}

/// Each later run of a finished comparison against the first, pairing game k with game k.
pub async fn compute(pool: &PgPool, jobs: &[JobRow]) -> Result<Vec<PairedDifference>, PairedError> {
    let Some((first, rest)) = jobs.split_first() else {
        return Ok(vec![]);
    };
    let mut reference = Games::open(pool, first.id).await?;
    let mut others = Vec::with_capacity(rest.len());
    for j in rest {
        others.push(Games::open(pool, j.id).await?);
    }
    let mut sums = vec![PairedSummary::default(); rest.len()];
    while let Some((k, x)) = reference.next().await? {
        for (i, games) in others.iter_mut().enumerate() {
            match games.next().await? {
                Some((k2, y)) if k2 == k => sums[i].add(&y, &x),
                other => {
                    return Err(PairedError::Misaligned(format!(
                        "game {k} of {} has no game {k} in {} (found {:?})",
                        first.ruleset,
                        rest[i].ruleset,
                        other.map(|(k, _)| k)
                    )));
                }
            }
        }
    }
    Ok(rest
        .iter()
        .zip(sums)
        .map(|(j, s)| PairedDifference {
            ruleset: j.ruleset.clone(),
            reference: first.ruleset.clone(),
            paired: s.stats(),
        })
        .collect())
}

/// Most comparisons whose figures are kept.
const KEPT: usize = 256;

/// The paired figures of finished comparisons, computed on first request.
#[derive(Clone, Default)]
pub struct PairedCache {
    kept: Arc<Mutex<HashMap<Uuid, Arc<Vec<PairedDifference>>>>>,
}

impl PairedCache {
    /// The paired figures of comparison `id` (whose runs are `jobs`), or None while any run
    /// is not done.
    pub async fn get(
        &self,
        pool: &PgPool,
        id: Uuid,
        jobs: &[JobRow],
    ) -> Result<Option<Arc<Vec<PairedDifference>>>, PairedError> {
        if jobs.is_empty() || jobs.iter().any(|j| j.summary.is_none()) {
            return Ok(None);
        }
        if let Some(found) = self.lock().get(&id) {
            return Ok(Some(found.clone()));
        }
        let figures = Arc::new(compute(pool, jobs).await?);
        let mut kept = self.lock();
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(id, figures.clone());
        Ok(Some(figures))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Arc<Vec<PairedDifference>>>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}
