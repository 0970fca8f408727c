//! The CPU time of the calling thread: what a time budget per decision spends and what a
//! tournament reports as an agent's time per decision, so that "equal CPU per move" holds on
//! a loaded machine, where wall time also counts the time other processes ran.

use std::time::Duration;

/// CPU time the calling thread has used (Linux and other Unix systems: the POSIX per-thread
/// CPU clock; elsewhere, wall time since the first call).
pub fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant
        // every POSIX system with thread CPU clocks defines.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
        if ok {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

/// CPU time the whole process has used, every thread's (the POSIX process CPU clock; elsewhere
/// wall time since the first call): what a parallel search costs, whatever else the machine
/// runs.
pub fn process_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant
        // every POSIX system defines.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
        if ok {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_clock_advances_with_work_and_not_with_sleep() {
        let a = thread_cpu();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let b = thread_cpu();
        assert!(b > a, "{a:?} {b:?} {x}");
        std::thread::sleep(Duration::from_millis(200));
        let c = thread_cpu();
        assert!(
            c - b < Duration::from_millis(150),
            "sleeping used {:?}",
            c - b
        );
    }

    /// The process clock counts this thread's work (it is the sum over the process's threads,
    /// so other tests running beside this one may add to it: only a lower bound is tested).
    #[test]
    fn the_process_clock_counts_this_threads_work() {
        let (a, t) = (process_cpu(), thread_cpu());
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let (b, u) = (process_cpu(), thread_cpu());
        assert!(u > t, "{t:?} {u:?} {x}");
        assert!(
            b - a >= (u - t) / 2,
            "process {:?}, thread {:?}",
            b - a,
            u - t
        );
    }
}
