//! The tsoro service: an actix-web REST API over PostgreSQL, and the `tsoro` command line.

pub mod agent_move;
pub mod app;
pub mod archive;
pub mod cli;
pub mod commands;
pub mod cors;
pub mod db;
pub mod db_watch;
pub mod fallback;
pub mod jobs;
pub mod json_body;
pub mod openapi;
pub mod plan;
pub mod problem;
pub mod request_guard;
pub mod routes;
pub mod run;
pub mod run_export;
pub mod state;
pub mod telemetry;
pub mod web;
