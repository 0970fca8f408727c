//! CPU-bound work done while a request waits (an agent's move, a replay, a job's game played
//! again): at most a fixed number at once ([`Slots`]; more are refused at once, so that cheap
//! reads keep their latency), each on a blocking thread under a stop flag that the engine's
//! searches look at ([`tsoro_engine::agents::stop`]). The flag is set when the request goes
//! away (its client disconnected: the handler's future, which owns the flag's guard, is
//! dropped) or when its time budget runs out; the slot is held until the work has really
//! stopped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use thiserror::Error;
use tsoro_engine::agents::stop;

/// Why work was not done.
#[derive(Debug, Error)]
pub enum ComputeError {
    /// Every slot is taken.
    #[error("{max} CPU-bound requests are running (at most {max} at once); try again shortly")]
    Busy {
        /// The slots there are (`--max-cpu-requests`).
        max: usize,
    },
    /// The work ran out of its time budget and was stopped.
    #[error(
        "the work was stopped after {seconds} s, the most a request may take \
         (--request-seconds); ask for a weaker agent or fewer actions"
    )]
    OverTime {
        /// The budget, in seconds.
        seconds: f64,
    },
    /// The work panicked (a fault of the service's).
    #[error("the work failed: {0}")]
    Failed(String),
}

/// The slots of CPU-bound work, shared by every request.
#[derive(Clone, Debug)]
pub struct Slots {
    busy: Arc<AtomicUsize>,
    max: usize,
    budget: Duration,
}

/// A taken slot, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Sets the stop flag when dropped (with the request's future, when its client goes away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Slots {
    /// `max` slots (0: one per core), each piece of work stopped after `budget`.
    pub fn new(max: usize, budget: Duration) -> Slots {
        let max = if max == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            max
        };
        Slots {
            busy: Arc::new(AtomicUsize::new(0)),
            max,
            budget,
        }
    }

    /// Slots taken now (by work that has not yet stopped).
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::Acquire)
    }

    fn take(&self) -> Option<Slot> {
        self.busy
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(self.busy.clone()))
    }

    /// Runs `work` on a blocking thread in a slot, stopped when this future is dropped or the
    /// budget runs out; a result of work that was asked to stop is never returned.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ComputeError> {
        let slot = self.take().ok_or(ComputeError::Busy { max: self.max })?;
        let flag = Arc::new(AtomicBool::new(false));
        let _stop = StopOnDrop(flag.clone());
        let inner = flag.clone();
        let task = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let out = stop::scoped(Some(&inner), work);
            (!inner.load(Ordering::Relaxed)).then_some(out)
        });
        let over = || ComputeError::OverTime {
            seconds: self.budget.as_secs_f64(),
        };
        match tokio::time::timeout(self.budget, task).await {
            Ok(Ok(Some(out))) => Ok(out),
            Ok(Ok(None)) => Err(over()),
            Ok(Err(e)) => Err(ComputeError::Failed(e.to_string())),
            Err(_) => {
                flag.store(true, Ordering::Relaxed);
                Err(over())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn past_the_slots_work_is_refused_and_a_dropped_request_stops_its_work() {
        let slots = Slots::new(1, Duration::from_secs(600));
        // Work that runs until it is asked to stop.
        let spin = || {
            while !stop::requested() {
                std::thread::yield_now();
            }
        };
        let first = tokio::spawn({
            let slots = slots.clone();
            async move { slots.run(spin).await }
        });
        while slots.busy() == 0 {
            tokio::task::yield_now().await;
        }
        assert!(matches!(
            slots.run(|| 1).await,
            Err(ComputeError::Busy { max: 1 })
        ));
        // The request goes away: its work stops and gives its slot back.
        first.abort();
        while slots.busy() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(slots.run(|| 2).await.unwrap(), 2);
        // Over its budget, work is stopped and its result refused.
        let short = Slots::new(1, Duration::from_millis(50));
        assert!(matches!(
            short.run(spin).await,
            Err(ComputeError::OverTime { .. })
        ));
    }
}
