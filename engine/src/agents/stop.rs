//! A stop request that reaches inside a search: a run sets its cancel flag for the games a
//! thread plays ([`scoped`]), and the searching agents look at it ([`requested`]) once per
//! batch of MCTS rollouts and at alpha-beta's interior nodes, then return what they have.
//! A game whose search was cut short is not a real game: whoever stops a run discards the
//! games in play (as [`crate::sim`] does).
//!
//! The flag is one `Arc<AtomicBool>` shared by every thread of a run: a search that hands
//! work to other threads (alpha-beta's analysis spreads its root over a rayon pool) passes
//! the flag along with it ([`current`], then [`scoped`] on each thread), so that the work
//! stops wherever it runs.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as this thread's stop request (restored afterwards, even on panic).
pub fn scoped<R>(flag: Option<&Arc<AtomicBool>>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            STOP.with(|s| *s.borrow_mut() = previous);
        }
    }
    let previous = STOP.with(|s| s.replace(flag.cloned()));
    let _restore = Restore(previous);
    f()
}

/// This thread's stop request, to hand to the threads that do part of its work.
pub fn current() -> Option<Arc<AtomicBool>> {
    STOP.with(|s| s.borrow().clone())
}

/// Whether this thread's run has been asked to stop.
pub fn requested() -> bool {
    STOP.with(|s| {
        s.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_seen_inside_its_scope_only() {
        let flag = Arc::new(AtomicBool::new(false));
        assert!(!requested());
        scoped(Some(&flag), || {
            assert!(!requested());
            flag.store(true, Ordering::Relaxed);
            assert!(requested());
            scoped(None, || assert!(!requested()));
            assert!(requested());
        });
        assert!(!requested());
    }
}
