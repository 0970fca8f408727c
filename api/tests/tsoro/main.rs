//! The `tsoro` binary end to end, one module per subject in one test binary (one link for
//! all, as Zero To Production's `tests/api/main.rs`): the database-free commands, `serve` and
//! its embedded PostgreSQL, shutdown, workers in processes of their own, scaling out, and
//! `tsoro token`. Each test runs the binary as child processes on a data directory and ports
//! of its own, so they share nothing but the machine and run in parallel as any tests do.
//! Run one subject with `cargo test -p tsoro-api --test tsoro -- serve::`.

mod backup;
mod cli;
mod disk_full;
mod embedded_pg;
mod helpers;
mod jobs_processes;
mod ladders;
mod scale_out;
mod serve;
mod shutdown;
mod token;
