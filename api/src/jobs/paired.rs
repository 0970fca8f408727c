//! A finished comparison's paired figures: game k of each run against game k of its
//! reference (the runs share their seeds), and each run's metric vector, read from the stored records a chunk at a time. Done once
//! per comparison and kept: a finished comparison's records do not change.

use super::records::{self, DecodeError};
use super::store::{self, JobRow};
use serde::Serialize;
use sqlx::PgPool;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use thiserror::Error;
use tsoro_engine::stats::paired::{Paired, PairedGame, PairedSummary};
use tsoro_engine::stats::study::ReadingSums;
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

/// A job's stored records in game order, a chunk at a time; every record read is also
/// folded into the job's metric vector.
struct Games<'a> {
    pool: &'a PgPool,
    job: Uuid,
    chunks: VecDeque<i32>,
    buffered: VecDeque<(u64, PairedGame)>,
    sums: ReadingSums,
}

impl<'a> Games<'a> {
    async fn open(pool: &'a PgPool, job: Uuid) -> Result<Games<'a>, sqlx::Error> {
        let chunks = store::stored_chunks(pool, job).await?;
        Ok(Games {
            pool,
            job,
            chunks: chunks.into_iter().map(|(idx, _)| idx).collect(),
            buffered: VecDeque::new(),
            sums: ReadingSums::default(),
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
            let records = records::decode_all(&stored)?;
            records.iter().for_each(|r| self.sums.add(r));
            self.buffered = records
                .iter()
                .map(|r| (r.game, PairedGame::of(r)))
                .collect();
        }
        Ok(self.buffered.pop_front())
    }
}

/// What a finished comparison's records add up to: each run against its reference, game by
/// game, and each run's metric vector.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// Each run but the references against its reference, in the runs' order.
    pub diffs: Vec<PairedDifference>,
    /// Each run's metric vector, in the runs' order.
    pub sums: Vec<ReadingSums>,
}

/// The run each run of a comparison is paired with: the first run with the same agents (a
/// comparison's runs all share theirs, so that is the first run; a readings study plays its
/// readings under two pairings, each with its own default first).
pub fn references(jobs: &[JobRow]) -> Vec<usize> {
    jobs.iter()
        .map(|j| jobs.iter().position(|o| o.agents == j.agents).unwrap_or(0))
        .collect()
}

/// Each run of a finished comparison against its reference ([`references`]), pairing game k
/// with game k, and every run's metric vector.
pub async fn compute(pool: &PgPool, jobs: &[JobRow]) -> Result<Figures, PairedError> {
    let refs = references(jobs);
    let mut games = Vec::with_capacity(jobs.len());
    for j in jobs {
        games.push(Games::open(pool, j.id).await?);
    }
    let mut pairs = vec![PairedSummary::default(); jobs.len()];
    loop {
        let mut row = Vec::with_capacity(jobs.len());
        for g in games.iter_mut() {
            row.push(g.next().await?);
        }
        if row.iter().all(Option::is_none) {
            break;
        }
        for (i, &r) in refs.iter().enumerate() {
            match (&row[r], &row[i]) {
                (Some((k, x)), Some((k2, y))) if k == k2 => {
                    if i != r {
                        pairs[i].add(y, x);
                    }
                }
                (x, y) => {
                    return Err(PairedError::Misaligned(format!(
                        "game {:?} of {} has no game to pair with in {} (found {:?})",
                        x.as_ref().map(|g| g.0),
                        jobs[r].ruleset,
                        jobs[i].ruleset,
                        y.as_ref().map(|g| g.0)
                    )));
                }
            }
        }
    }
    let diffs = jobs
        .iter()
        .zip(&refs)
        .zip(&pairs)
        .enumerate()
        .filter(|(i, ((_, r), _))| *i != **r)
        .map(|(_, ((j, &r), s))| PairedDifference {
            ruleset: j.ruleset.clone(),
            reference: jobs[r].ruleset.clone(),
            paired: s.stats(),
        })
        .collect();
    Ok(Figures {
        diffs,
        sums: games.into_iter().map(|g| g.sums).collect(),
    })
}

/// Most comparisons whose figures are kept.
const KEPT: usize = 256;

/// The paired figures of finished comparisons, computed on first request.
#[derive(Clone, Default)]
pub struct PairedCache {
    kept: Arc<Mutex<HashMap<Uuid, Arc<Figures>>>>,
}

impl PairedCache {
    /// The paired figures of comparison `id` (whose runs are `jobs`), or None while any run
    /// is not done.
    pub async fn get(
        &self,
        pool: &PgPool,
        id: Uuid,
        jobs: &[JobRow],
    ) -> Result<Option<Arc<Figures>>, PairedError> {
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

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Arc<Figures>>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}
