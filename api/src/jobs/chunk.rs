//! A chunk's play as every kind of job hands it to the worker ([`super::worker`]): the
//! work to run on a blocking thread, how it ended, and the count of games finished that the
//! worker reports as the job's progress.

use std::sync::atomic::{AtomicU64, Ordering};
use tsoro_engine::sim::SimError;

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
    /// How many counters it keeps (one a pool thread, one for the others).
    #[cfg(test)]
    pub(super) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Slots for a pool of `threads` threads (0: rayon's default, as the engine's pool has).
    pub(super) fn new(threads: usize) -> Self {
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
    pub(super) fn total(&self) -> u64 {
        self.slots.iter().map(|s| s.0.load(Ordering::Relaxed)).sum()
    }
}
