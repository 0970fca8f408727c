//! The one parallel runner every driver plays its games through (the simulator, the nhodo
//! model, tournaments): a range of game indices cut into chunks, the chunks played on a pool
//! of threads, their results handed back on the calling thread in index order.
//!
//! A game's result depends only on its index (each draws its randomness from its own seed),
//! so a run gives the same results on any number of threads. The runner also owns what every
//! driver needs around the play: the cancel flag (checked between chunks and, through
//! [`crate::agents::stop`], inside searches), progress, and a bound on how far the threads
//! run ahead of the results taken (so memory stays bounded however long the run).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use thiserror::Error;

/// Largest number of games of one run.
pub const MAX_GAMES: u64 = 100_000_000;

/// How a run is played (its results do not depend on it).
#[derive(Clone, Default)]
pub struct RunOptions {
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// Set to stop: games not started are skipped and searches end early (the games in play
    /// are discarded); the run ends with [`RunError::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called on a playing thread as each chunk of games ends, with (games done, games in
    /// the run).
    pub progress: Option<Arc<dyn Fn(u64, u64) + Send + Sync>>,
}

/// Why a run stopped early or could not start.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum RunError {
    /// Too many games, or an empty range.
    #[error("games {start}..{end}: a run has 1 to {MAX_GAMES} games")]
    Games {
        /// First game.
        start: u64,
        /// One past the last.
        end: u64,
    },
    /// The cancel flag was set; the results taken cover the games done.
    #[error("cancelled after {done} games")]
    Cancelled {
        /// Games finished (their results taken).
        done: u64,
    },
    /// The thread pool could not be built.
    #[error("thread pool: {0}")]
    Threads(String),
    /// Too long a random opening (a simulation's or a tournament's).
    #[error("opening plies: {0} given; allowed 0 to {max}", max = crate::tournament::MAX_OPENING_PLIES)]
    OpeningPlies(u32),
}

/// Checks that `games` holds 1 to [`MAX_GAMES`] games.
pub fn check_games(games: &Range<u64>) -> Result<(), RunError> {
    let Range { start, end } = *games;
    if start >= end || end - start > MAX_GAMES {
        return Err(RunError::Games { start, end });
    }
    Ok(())
}

/// A pool of threads with a run's cancel flag and progress.
pub struct Runner<'a> {
    pool: rayon::ThreadPool,
    opts: &'a RunOptions,
}

/// Chunks taken by the calling thread, and whether it stopped taking them: the threads wait
/// on it when they are a window ahead.
struct Gate {
    state: Mutex<(u64, bool)>,
    moved: Condvar,
}

impl Gate {
    /// Waits until chunk `c` is less than `window` chunks ahead of those taken; false if the
    /// run stopped meanwhile.
    fn room_for(&self, c: u64, window: u64) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while c >= s.0 + window && !s.1 {
            s = self.moved.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        !s.1
    }

    fn taken(&self, chunks: u64) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 = chunks;
        self.moved.notify_all();
    }

    fn stop(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.moved.notify_all();
    }
}

/// Stops the run when dropped: at the end of the taking (`always`), and when a playing thread
/// unwinds (so that none waits for a chunk that will never come).
struct StopOnDrop<'a> {
    gate: &'a Gate,
    always: bool,
}

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        if self.always || std::thread::panicking() {
            self.gate.stop();
        }
    }
}

impl<'a> Runner<'a> {
    /// A pool of `opts.threads` threads.
    pub fn new(opts: &'a RunOptions) -> Result<Self, RunError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
            .map_err(|e| RunError::Threads(e.to_string()))?;
        Ok(Runner { pool, opts })
    }

    /// Threads in the pool.
    pub fn threads(&self) -> u64 {
        self.pool.current_num_threads() as u64
    }

    /// Whether the run was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.opts
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Games `games` cut into chunks of `chunk` games: each thread of the pool takes the next
    /// chunk, `play`s it and goes on (at most a window of chunks ahead of the taking), while
    /// the calling thread hands each chunk's result to `take` in index order. Inside `play`
    /// the cancel flag is the thread's stop request ([`crate::agents::stop::requested`]).
    /// Ends with [`RunError::Cancelled`] (the games taken) once the flag is seen set; a chunk
    /// played while it was set is never taken.
    pub fn run<R: Send>(
        &self,
        games: Range<u64>,
        chunk: u64,
        play: impl Fn(Range<u64>) -> R + Sync,
        mut take: impl FnMut(Range<u64>, R),
    ) -> Result<(), RunError> {
        let Range { start, end } = games;
        let total = end.saturating_sub(start);
        let chunk = chunk.max(1);
        let chunks = total.div_ceil(chunk);
        let span = |c: u64| {
            let from = start + c * chunk;
            from..(from + chunk).min(end)
        };
        let threads = self.threads();
        // At least four chunks a thread ahead (so none waits for a slow one), and at least
        // 1,024 games a thread when chunks are small.
        let window = (4 * threads).max((1024 * threads).div_ceil(chunk));
        let claimed = AtomicU64::new(0);
        let finished = AtomicU64::new(0);
        let gate = Gate {
            state: Mutex::new((0, false)),
            moved: Condvar::new(),
        };
        let (tx, rx) = mpsc::channel::<(u64, R)>();
        let (play, claimed, finished, gate) = (&play, &claimed, &finished, &gate);
        self.pool.in_place_scope(|scope| {
            for _ in 0..threads {
                let tx = tx.clone();
                scope.spawn(move |_| {
                    let _unwinding = StopOnDrop {
                        gate,
                        always: false,
                    };
                    crate::agents::stop::scoped(self.opts.cancel.as_ref(), || {
                        loop {
                            if self.cancelled() {
                                return;
                            }
                            let c = claimed.fetch_add(1, Ordering::Relaxed);
                            // The chunk the taking waits for never waits here: it was claimed
                            // before any chunk that does.
                            if c >= chunks || !gate.room_for(c, window) {
                                return;
                            }
                            let ks = span(c);
                            let n = ks.end - ks.start;
                            let r = play(ks);
                            if let Some(p) = &self.opts.progress {
                                p(finished.fetch_add(n, Ordering::Relaxed) + n, total);
                            }
                            if tx.send((c, r)).is_err() {
                                return;
                            }
                        }
                    })
                });
            }
            drop(tx);
            let _done = StopOnDrop { gate, always: true };
            let mut waiting = BTreeMap::new();
            let (mut next, mut done) = (0u64, 0u64);
            for (c, r) in rx.iter() {
                if self.cancelled() {
                    break;
                }
                waiting.insert(c, r);
                while let Some(r) = waiting.remove(&next) {
                    let ks = span(next);
                    done += ks.end - ks.start;
                    take(ks, r);
                    next += 1;
                    gate.taken(next);
                }
            }
            // The threads still playing see the gate stopped or the channel closed, and end.
            drop(rx);
            if next == chunks {
                Ok(())
            } else {
                Err(RunError::Cancelled { done })
            }
        })
    }

    /// [`Runner::run`] one game at a time: `play(k)` plays game `k` on a thread of the pool,
    /// `take(k, result)` receives it on the calling thread in index order. Games are grouped
    /// in chunks of up to 64, at least 64 chunks a thread (so the threads end together).
    pub fn run_games<T: Send>(
        &self,
        games: Range<u64>,
        play: impl Fn(u64) -> T + Sync,
        mut take: impl FnMut(u64, T),
    ) -> Result<(), RunError> {
        let total = games.end.saturating_sub(games.start);
        let chunk = total.div_ceil(64 * self.threads()).clamp(1, 64);
        self.run(
            games,
            chunk,
            |ks| {
                let mut out = Vec::with_capacity((ks.end - ks.start) as usize);
                for k in ks {
                    if self.cancelled() {
                        break; // the chunk will not be taken
                    }
                    out.push(play(k));
                }
                out
            },
            |ks, out| {
                for (k, t) in ks.zip(out) {
                    take(k, t);
                }
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn opts(threads: usize) -> RunOptions {
        RunOptions {
            threads,
            ..RunOptions::default()
        }
    }

    /// A result that depends only on the index, and costs a little.
    fn work(k: u64) -> u64 {
        (0..(k % 97) * 50).fold(k, |h, i| {
            h.wrapping_mul(6364136223846793005).wrapping_add(i)
        })
    }

    #[test]
    fn results_come_in_index_order_on_any_thread_count() {
        let want: Vec<(u64, u64)> = (10..5_010).map(|k| (k, work(k))).collect();
        for threads in [1, 2, 3, 8] {
            let o = opts(threads);
            let r = Runner::new(&o).unwrap();
            let mut got = vec![];
            r.run_games(10..5_010, work, |k, t| got.push((k, t)))
                .unwrap();
            assert_eq!(got, want, "{threads} threads");
            // Chunks of any size, the last one short.
            for chunk in [1, 7, 4096] {
                let mut got = vec![];
                r.run(
                    10..5_010,
                    chunk,
                    |ks| ks.map(work).collect::<Vec<_>>(),
                    |ks, v| {
                        assert!(ks.end - ks.start <= chunk);
                        got.extend(ks.zip(v));
                    },
                )
                .unwrap();
                assert_eq!(got, want, "{threads} threads, chunks of {chunk}");
            }
        }
    }

    #[test]
    fn an_empty_range_plays_nothing() {
        let o = opts(2);
        let r = Runner::new(&o).unwrap();
        let mut n = 0;
        r.run_games(5..5, |k| k, |_, _| n += 1).unwrap();
        assert_eq!(n, 0);
        assert!(check_games(&(5..5)).is_err());
        assert!(check_games(&(0..MAX_GAMES + 1)).is_err());
        assert!(check_games(&(0..1)).is_ok());
    }

    #[test]
    fn progress_counts_every_game_once() {
        let seen = Arc::new(AtomicU64::new(0));
        let calls = Arc::new(AtomicUsize::new(0));
        let (s, c) = (seen.clone(), calls.clone());
        let o = RunOptions {
            threads: 3,
            progress: Some(Arc::new(move |done, total| {
                assert_eq!(total, 1_000);
                assert!(done <= total);
                s.fetch_max(done, Ordering::Relaxed);
                c.fetch_add(1, Ordering::Relaxed);
            })),
            ..RunOptions::default()
        };
        let r = Runner::new(&o).unwrap();
        r.run(0..1_000, 10, |ks| ks.end - ks.start, |_, _| {})
            .unwrap();
        assert_eq!(seen.load(Ordering::Relaxed), 1_000);
        assert_eq!(calls.load(Ordering::Relaxed), 100, "once a chunk");
    }

    #[test]
    fn a_cancelled_run_stops_with_the_games_taken_in_order() {
        for threads in [1, 2, 4] {
            let flag = Arc::new(AtomicBool::new(false));
            let o = RunOptions {
                threads,
                cancel: Some(flag.clone()),
                ..RunOptions::default()
            };
            let r = Runner::new(&o).unwrap();
            let played = AtomicU64::new(0);
            let mut taken = vec![];
            let e = r
                .run_games(
                    0..1_000_000,
                    |k| {
                        // Set from inside the run, after some games; searches see it too.
                        if played.fetch_add(1, Ordering::Relaxed) == 5_000 {
                            flag.store(true, Ordering::Relaxed);
                        }
                        (k, crate::agents::stop::requested())
                    },
                    |_, t| taken.push(t),
                )
                .unwrap_err();
            let RunError::Cancelled { done } = e else {
                panic!("{e:?}")
            };
            assert_eq!(done, taken.len() as u64);
            assert!(done < 1_000_000, "{threads} threads: stopped early");
            assert!(
                played.load(Ordering::Relaxed) < 100_000,
                "games not started are skipped"
            );
            for (i, &(k, stopped)) in taken.iter().enumerate() {
                assert_eq!(k, i as u64, "the games taken are the first ones");
                assert!(!stopped, "no game played with the stop set is taken");
            }
        }
    }

    #[test]
    fn a_run_cancelled_before_it_starts_takes_nothing() {
        let o = RunOptions {
            threads: 2,
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..RunOptions::default()
        };
        let r = Runner::new(&o).unwrap();
        let e = r
            .run_games(0..100, |k| k, |_, _| panic!("taken"))
            .unwrap_err();
        assert_eq!(e, RunError::Cancelled { done: 0 });
    }

    #[test]
    fn a_panic_in_a_game_reaches_the_caller() {
        let o = opts(2);
        let r = Runner::new(&o).unwrap();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            r.run_games(
                0..100_000,
                |k| assert_ne!(k, 500, "game 500 fails"),
                |_, _| {},
            )
        }));
        assert!(caught.is_err());
    }

    #[test]
    fn the_threads_are_the_pools() {
        let o = opts(3);
        let r = Runner::new(&o).unwrap();
        assert_eq!(r.threads(), 3);
        let mut on_pool = true;
        r.run_games(
            0..1_000,
            |_| rayon::current_thread_index().is_some() && rayon::current_num_threads() == 3,
            |_, t| on_pool &= t,
        )
        .unwrap();
        assert!(on_pool, "games are played on the run's pool");
    }
}
