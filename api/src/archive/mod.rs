//! The archive over PostgreSQL: the corpus imported at start-up ([`import`]), stored
//! ([`store`]) and read ([`read`]) as the API's types ([`views`]); `crate::http::archive`
//! serves it read-only under `/api/v1` as JSON or CSV, with ETags.

pub mod detail;
pub mod import;
pub mod read;
pub mod search;
pub mod store;
pub mod views;

/// Why the archive could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The database failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// A stored record does not read as its document (a fault of the service's).
    #[error("a stored record does not read: {0}")]
    Stored(String),
}

impl ArchiveError {
    /// A stored record that does not read.
    pub fn stored(e: impl std::fmt::Display) -> ArchiveError {
        ArchiveError::Stored(e.to_string())
    }
}
