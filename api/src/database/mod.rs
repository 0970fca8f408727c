//! The service's PostgreSQL database: connecting, creating the database if missing, and
//! migrating; and the background [`probe`] of whether it answers, which `/health` reports.

pub mod probe;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Executor, PgPool};
use std::str::FromStr;
use std::time::Duration;

/// PostgreSQL's SQLSTATE for a full disk (`disk_full`).
pub const DISK_FULL: &str = "53100";

/// Whether an error is a full disk: PostgreSQL's `disk_full` (it could not extend a file), or
/// ENOSPC on a connection's side.
pub fn is_disk_full(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) => db.code().as_deref() == Some(DISK_FULL),
        sqlx::Error::Io(io) => io.kind() == std::io::ErrorKind::StorageFull,
        _ => false,
    }
}

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
        match conn.execute(sqlx::raw_sql(sqlx::AssertSqlSafe(stmt))).await {
            Ok(_) => {}
            // Another replica made it meanwhile: what was wanted exists.
            Err(e) if made_meanwhile(&e) => {
                tracing::info!(database = %name, "the database was made meanwhile by another");
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether `CREATE DATABASE` failed because another session made the same database at the
/// same time: `duplicate_database` (42P04) once the other has committed, or a unique
/// violation (23505) on `pg_database`'s name index while both were under way.
fn made_meanwhile(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("42P04" | "23505")))
}

/// Connects a pool to the URL's database.
pub async fn connect(url: &str) -> Result<PgPool, sqlx::Error> {
    pool_options().connect_with(options(url)?).await
}

/// Runs the pending migrations.
pub async fn migrate(pool: &PgPool) -> Result<(), sqlx::migrate::MigrateError> {
    MIGRATOR.run(pool).await
}

#[cfg(test)]
mod immutable_migrations {
    use super::MIGRATOR;
    use sha2::{Digest, Sha384};
    use std::collections::BTreeMap;
    use std::path::Path;

    /// The committed list: `migrations/SHA384SUMS`, as `sha384sum *.sql` writes it.
    fn committed() -> BTreeMap<String, String> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations/SHA384SUMS");
        let text = std::fs::read_to_string(&path).expect("migrations/SHA384SUMS");
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let (sum, file) = l.split_once("  ").expect("`SUM  FILE` lines");
                (file.to_string(), sum.to_string())
            })
            .collect()
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A migration that shipped is never edited, renumbered or removed: a database made by an
    /// earlier commit would be refused ("previously applied but has been modified"). Each file
    /// matches its committed SHA-384, which is also the checksum sqlx records when it applies
    /// it; a new migration adds its line (`cd migrations && sha384sum NEW.sql >> SHA384SUMS`).
    #[test]
    fn every_migration_matches_its_committed_checksum() {
        let committed = committed();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
        let mut on_disk = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("migrations/") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "sql") {
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                let sum = hex(&Sha384::digest(std::fs::read(&path).expect("a migration")));
                on_disk.insert(name, sum);
            }
        }
        for (file, sum) in &committed {
            match on_disk.get(file) {
                None => panic!("migration {file} shipped and is gone (renamed or renumbered?)"),
                Some(s) => assert_eq!(
                    s, sum,
                    "migration {file} shipped and has been modified: write a new migration instead"
                ),
            }
        }
        for file in on_disk.keys() {
            assert!(
                committed.contains_key(file),
                "{file} is not in migrations/SHA384SUMS: a new migration? add its line with \
                 `cd migrations && sha384sum {file} >> SHA384SUMS`"
            );
        }
        // sqlx's own checksum of each (what a database records) is the same SHA-384.
        assert_eq!(MIGRATOR.iter().count(), committed.len());
        for m in MIGRATOR.iter() {
            let file = format!("{:04}_{}.sql", m.version, m.description.replace(' ', "_"));
            assert_eq!(
                committed.get(&file).map(String::as_str),
                Some(hex(&m.checksum).as_str()),
                "{file}"
            );
        }
    }
}
