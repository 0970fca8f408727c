//! Simulations and comparisons as durable jobs.
//!
//! A job is cut into chunks of games as workers claim them (the job keeps the next game to
//! hand out, so queuing a job of ten million games writes one row). Worker loops (inside the service, and any number of
//! `tsoro worker` processes on other machines) claim chunks with `SELECT ... FOR UPDATE SKIP
//! LOCKED` under a lease they renew while they play; the chunk of a worker that died is claimed
//! again when its lease runs out. A chunk's records are stored (COPY) in the same transaction
//! that marks it done, so a chunk is stored once or not at all. Game k's seed depends only on
//! (seed, k), so a job's records and statistics are the same whichever workers ran it.

pub mod admission;
pub mod events;
pub mod export;
pub mod fresh;
pub mod game;
pub mod nhodo;
pub mod package;
pub mod packed;
pub mod paired;
pub mod quota;
pub mod records;
pub mod request;
pub mod status;
pub mod store;
pub mod tournament;
pub mod tournament_view;
pub mod view;
pub mod worker;
