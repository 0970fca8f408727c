//! The archive over PostgreSQL: the corpus imported at start-up, served read-only under
//! `/api/v1` as JSON or CSV, with ETags.

// As in `jobs`: handlers return `Problem` by value; errors are rare next to requests.
#![allow(clippy::result_large_err)]

pub mod detail;
pub mod import;
pub mod package;

pub mod read;
pub mod respond;
pub mod routes;
pub mod schema;
pub mod store;
