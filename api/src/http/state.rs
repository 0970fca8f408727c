//! What every handler shares (its own module, so handlers need not import the application
//! that mounts them).

use sqlx::PgPool;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub pool: PgPool,
    /// Whether it answers, as a background probe sees it (for `/health`).
    pub db: crate::database::probe::DbWatch,
}
