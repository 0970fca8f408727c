//! CPU-bound work done while a request waits (an agent's move, a replay, a job's game played
//! again): at most a fixed number at once ([`Slots`]; more are refused at once, so that cheap
//! reads keep their latency), each on a blocking thread under a stop flag that the engine's
//! searches look at ([`tsoro_engine::agents::stop`]). The flag is set when the request goes
//! away (its client disconnected: the handler's future, which owns the flag's guard, is
//! dropped) or when its time budget runs out; the slot is held until the work has really
//! stopped.
//!
//! One client holds at most a share of the slots (`--max-client-cpu-requests`), so that
//! another still gets one. The client is the one the HTTP layer names for the request being
//! handled ([`as_client`], around every request); work run outside any request (a test's)
//! counts for no client.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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
    /// The request's client holds its share of the slots.
    #[error(
        "this client has {max} CPU-bound requests running, as many as one client may \
         (--max-client-cpu-requests); try again once one has answered"
    )]
    ClientBusy {
        /// One client's share (`--max-client-cpu-requests`).
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

tokio::task_local! {
    /// The client of the request being handled (`crate::http::client::Client`'s key).
    static CLIENT: String;
}

/// Runs `f` as the work of `client`'s request: the slots it takes count toward that client's
/// share.
pub async fn as_client<F: std::future::Future>(client: String, f: F) -> F::Output {
    CLIENT.scope(client, f).await
}

/// Slots taken by each client.
type PerClient = Arc<Mutex<HashMap<String, usize>>>;

/// The slots of CPU-bound work, shared by every request.
#[derive(Clone, Debug)]
pub struct Slots {
    busy: Arc<AtomicUsize>,
    max: usize,
    per_client: usize,
    clients: PerClient,
    budget: Duration,
}

/// A taken slot, given back when dropped (with its client's).
struct Slot {
    busy: Arc<AtomicUsize>,
    client: Option<(PerClient, String)>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some((clients, key)) = &self.client
            && let Ok(mut map) = clients.lock()
            && let Some(n) = map.get_mut(key)
        {
            *n -= 1;
            if *n == 0 {
                map.remove(key);
            }
        }
        self.busy.fetch_sub(1, Ordering::AcqRel);
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
    /// `max` slots (0: one per core), each piece of work stopped after `budget`; one client
    /// holds at most half of them, rounded up (see [`per_client`](Self::per_client)).
    pub fn new(max: usize, budget: Duration) -> Slots {
        let max = if max == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            max
        };
        Slots {
            busy: Arc::new(AtomicUsize::new(0)),
            max,
            per_client: default_share(max),
            clients: Arc::default(),
            budget,
        }
    }

    /// One client holds at most `n` slots (0: half of them, rounded up; never more than all).
    pub fn per_client(mut self, n: usize) -> Slots {
        self.per_client = if n == 0 {
            default_share(self.max)
        } else {
            n.min(self.max)
        };
        self
    }

    /// The slots one client may hold at once.
    pub fn client_share(&self) -> usize {
        self.per_client
    }

    /// Slots taken now (by work that has not yet stopped).
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::Acquire)
    }

    /// A slot for `client` (None: no client's), if one is free and the client holds fewer
    /// than its share.
    fn take(&self, client: Option<String>) -> Result<Slot, ComputeError> {
        self.busy
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .map_err(|_| ComputeError::Busy { max: self.max })?;
        // From here on, dropping the slot gives it back.
        let mut slot = Slot {
            busy: self.busy.clone(),
            client: None,
        };
        if let Some(key) = client {
            let mut map = self
                .clients
                .lock()
                .map_err(|_| ComputeError::Failed("the slots' lock is poisoned".into()))?;
            let n = map.entry(key.clone()).or_insert(0);
            if *n >= self.per_client {
                return Err(ComputeError::ClientBusy {
                    max: self.per_client,
                });
            }
            *n += 1;
            slot.client = Some((self.clients.clone(), key));
        }
        Ok(slot)
    }

    /// Runs `work` on a blocking thread in a slot, stopped when this future is dropped or the
    /// budget runs out; a result of work that was asked to stop is never returned.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ComputeError> {
        let slot = self.take(CLIENT.try_with(String::clone).ok())?;
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

/// One client's share of `max` slots by default: half, rounded up.
fn default_share(max: usize) -> usize {
    max.div_ceil(2).max(1)
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

    #[tokio::test]
    async fn one_client_holds_its_share_and_another_still_gets_a_slot() {
        let slots = Slots::new(4, Duration::from_secs(600));
        let spin = || {
            while !stop::requested() {
                std::thread::yield_now();
            }
        };
        let mut greedy = vec![];
        for _ in 0..2 {
            let slots = slots.clone();
            greedy.push(tokio::spawn(as_client("a".into(), async move {
                slots.run(spin).await
            })));
        }
        while slots.busy() < 2 {
            tokio::task::yield_now().await;
        }
        // Half of four: a third is refused to the same client, not to another.
        assert!(matches!(
            as_client("a".into(), slots.run(|| 1)).await,
            Err(ComputeError::ClientBusy { max: 2 })
        ));
        assert_eq!(as_client("b".into(), slots.run(|| 2)).await.unwrap(), 2);
        for g in greedy {
            g.abort();
        }
        while slots.busy() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // Its slots given back, the client has its share again.
        assert_eq!(as_client("a".into(), slots.run(|| 3)).await.unwrap(), 3);
        assert_eq!(slots.clients.lock().unwrap().len(), 0);
    }
}
