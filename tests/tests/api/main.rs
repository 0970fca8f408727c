//! The service's end-to-end tests, one module per subject in one test binary (as Zero To
//! Production's `tests/api/main.rs`): one link for all of them, and one PostgreSQL (started by
//! the first test that asks, `tsoro_tests::cluster`) in which each test gets a database of its
//! own, cloned from a migrated template. Each test also gets its own server on a free port, so
//! the tests share no state and run in parallel as any tests do.
//!
//! Three tests have binaries of their own, since each measures or drives the whole process:
//! `export_memory` (the process's resident memory under stalled exports, which any other test
//! running beside it would add to), `cancel_cpu` (the process's CPU time once a search is
//! cancelled, which any other test's work would add to) and `browser` (a headless Chromium per
//! test, whose page loads take both cores for seconds: beside it, the deadlines that tests of
//! this binary hold the service to, such as a long poll woken within 2 s, would be measuring
//! the browser).
//!
//! Run one subject with `cargo test -p tsoro-tests --test api -- jobs::`.

mod access;
mod archive;
mod contract;
mod disk_full;
mod fair;
mod health;
mod helpers;
mod jobs;
mod jobs_scale;
mod nhodo;
mod pages;
mod quotas;
mod readings;
mod robustness;
mod schemathesis;
mod strict_input;
mod tournaments;
mod upgrades;
