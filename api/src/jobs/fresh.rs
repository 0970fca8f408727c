//! One read shared by every long poll of the same thing: when a job ends, the thousands of
//! requests awaiting it (`?wait=`) wake together, and each would query the database at once,
//! exhausting its pool. Here the first to ask runs the read and the others await its answer,
//! which stays theirs until the thing changes again (a notification, [`super::events`]) or
//! [`TTL`] passes; so a wake-up costs one read per job, not one per waiter.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::OnceCell;

/// How long a read may be answered again when nothing was heard of its subject meanwhile (a
/// job's progress is not notified, only its status).
pub const TTL: Duration = Duration::from_secs(1);

/// Past this many entries, the stale ones are dropped as a new one comes.
const SWEEP_OVER: usize = 256;

struct Entry<V> {
    /// When its read began (anything it shows was true then or later).
    began: Instant,
    value: OnceCell<V>,
}

/// Reads shared by key (cheap to clone: the clones share the entries).
pub struct Shared<K, V> {
    entries: Arc<Mutex<HashMap<K, Arc<Entry<V>>>>>,
}

impl<K, V> Clone for Shared<K, V> {
    fn clone(&self) -> Self {
        Shared {
            entries: self.entries.clone(),
        }
    }
}

impl<K, V> Default for Shared<K, V> {
    fn default() -> Self {
        Shared {
            entries: Arc::default(),
        }
    }
}

impl<K: Eq + Hash + Clone, V: Clone> Shared<K, V> {
    /// `key`'s value as read by a read begun after `after` (and within [`TTL`]): joins such a
    /// read, running or done, or runs `read` and shares it. A failed read is not shared: the
    /// next caller reads again.
    pub async fn get<E, F, Fut>(&self, key: K, after: Option<Instant>, read: F) -> Result<V, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<V, E>>,
    {
        let now = Instant::now();
        let fresh_from = match (after, now.checked_sub(TTL)) {
            (Some(a), Some(t)) => Some(a.max(t)),
            (a, t) => a.or(t),
        };
        let entry = {
            let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            match entries.get(&key) {
                Some(e) if fresh_from.is_none_or(|f| e.began >= f) => e.clone(),
                _ => {
                    if entries.len() >= SWEEP_OVER {
                        entries.retain(|_, e| now.duration_since(e.began) < TTL);
                    }
                    let e = Arc::new(Entry {
                        began: now,
                        value: OnceCell::new(),
                    });
                    entries.insert(key, e.clone());
                    e
                }
            }
        };
        entry.value.get_or_try_init(read).await.cloned()
    }

    /// How many entries are kept (for tests).
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Many callers at once: one read (in flight or done), the same answer for all.
    #[tokio::test]
    async fn concurrent_callers_share_one_read() {
        let shared: Shared<u32, u64> = Shared::default();
        let reads = Arc::new(AtomicUsize::new(0));
        let (open, gate) = tokio::sync::watch::channel(false);
        let mut tasks = Vec::new();
        for _ in 0..100 {
            let (s, r, mut g) = (shared.clone(), reads.clone(), gate.clone());
            tasks.push(tokio::spawn(async move {
                s.get(7, None, || async move {
                    r.fetch_add(1, Ordering::SeqCst);
                    let _ = g.wait_for(|open| *open).await;
                    Ok::<_, ()>(42)
                })
                .await
            }));
        }
        tokio::task::yield_now().await;
        open.send_replace(true);
        for t in tasks {
            assert_eq!(t.await.unwrap(), Ok(42));
        }
        assert_eq!(reads.load(Ordering::SeqCst), 1);
    }

    /// A read begun before the news is not answered after it; a failed one is not kept.
    #[tokio::test]
    async fn news_and_failures_make_a_new_read() {
        let shared: Shared<u32, u64> = Shared::default();
        assert_eq!(
            shared.get(1, None, || async { Ok::<_, ()>(1) }).await,
            Ok(1)
        );
        assert_eq!(
            shared.get(1, None, || async { Ok::<_, ()>(2) }).await,
            Ok(1)
        );
        let news = Instant::now();
        assert_eq!(
            shared.get(1, Some(news), || async { Ok::<_, ()>(3) }).await,
            Ok(3)
        );
        assert_eq!(
            shared.get(2, None, || async { Err::<u64, _>("no") }).await,
            Err("no")
        );
        assert_eq!(
            shared.get(2, None, || async { Ok::<_, &str>(4) }).await,
            Ok(4)
        );
    }
}
