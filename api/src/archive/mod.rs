//! The archive over PostgreSQL: the corpus imported at start-up, served read-only under
//! `/api/v1` as JSON or CSV, with ETags.

pub mod import;
pub mod respond;
pub mod routes;
pub mod schema;
