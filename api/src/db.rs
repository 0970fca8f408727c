//! The database: connecting, creating the database if missing, and migrating.

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Executor, PgPool};
use std::str::FromStr;
use std::time::Duration;

/// The migrations under `migrations/`, compiled in.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// A pool that gives up quickly when the database is down (so `/ready` answers at once) and
/// reconnects by itself when it is back.
pub fn pool_options() -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(16)
        .min_connections(0)
        .acquire_timeout(Duration::from_secs(2))
        .test_before_acquire(true)
}

/// Parses a URL into connect options with quiet statement logging.
pub fn options(url: &str) -> Result<PgConnectOptions, sqlx::Error> {
    Ok(PgConnectOptions::from_str(url)?.log_statements(tracing::log::LevelFilter::Debug))
}

/// Creates the URL's database when it does not exist (connecting to `postgres` to do so). A
/// database that exists is only connected to, so the URL's role needs no right on `postgres`
/// nor to create databases.
pub async fn create_database_if_missing(url: &str) -> Result<(), sqlx::Error> {
    let opts = options(url)?;
    match opts.connect().await {
        Ok(conn) => {
            let _ = sqlx::Connection::close(conn).await;
            return Ok(());
        }
        // 3D000: invalid_catalog_name, "database ... does not exist".
        Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("3D000") => {}
        Err(e) => return Err(e),
    }
    let name = opts.get_database().unwrap_or("postgres").to_string();
    let admin = opts.clone().database("postgres");
    let mut conn = admin.connect().await?;
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(&name)
            .fetch_one(&mut conn)
            .await?;
    if !exists {
        tracing::info!(database = %name, "creating the database");
        let quoted = format!("\"{}\"", name.replace('"', "\"\""));
        let stmt = format!("CREATE DATABASE {quoted}");
        conn.execute(sqlx::raw_sql(sqlx::AssertSqlSafe(stmt)))
            .await?;
    }
    Ok(())
}

/// Connects a pool to the URL's database.
pub async fn connect(url: &str) -> Result<PgPool, sqlx::Error> {
    pool_options().connect_with(options(url)?).await
}

/// Runs the pending migrations.
pub async fn migrate(pool: &PgPool) -> Result<(), sqlx::migrate::MigrateError> {
    MIGRATOR.run(pool).await
}
