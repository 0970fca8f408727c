//! Starting the process: the database (embedded or given), then the server and the workers
//! (`tsoro serve`), the migrations (`tsoro migrate`), or workers alone (`tsoro worker`).

use crate::cli::{DbArgs, ServeArgs};
use crate::data_lock::DataDirLock;
use crate::http::{AppState, Server, ServerHandle};
use crate::settings::AppSettings;
use anyhow::Context;
use sqlx::PgPool;
use std::net::TcpListener;
use tsoro_pg::{DB_NAME, EmbeddedPg};

/// A bound, not yet running, server.
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Binds the address and builds the server over this pool.
    pub fn build(settings: &AppSettings, pool: PgPool) -> std::io::Result<Application> {
        let listener = TcpListener::bind(&settings.bind)?;
        let port = listener.local_addr()?.port();
        let db = crate::database::probe::DbWatch::spawn(
            &pool,
            settings.db_down_threshold,
            settings.embedded.clone(),
        );
        let server = crate::http::server(listener, settings, AppState { pool, db })?;
        Ok(Application { port, server })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server.
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until stopped through its [`handle`](Self::handle).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// A database for the service: an embedded server we own, or a URL we were given.
pub struct Database {
    /// The URL to connect to.
    pub url: String,
    /// The embedded server, if we started one (stopped when dropped, before the lock is).
    pub embedded: Option<EmbeddedPg>,
    /// The data directory's lock, held while we run its embedded server.
    pub lock: Option<DataDirLock>,
}

impl Database {
    /// Uses `DATABASE_URL` (creating its database if missing), or locks the data directory
    /// (as `holder`, such as "tsoro serve") and starts its embedded server.
    pub async fn open(args: &DbArgs, holder: &str) -> anyhow::Result<Database> {
        match &args.database_url {
            Some(_) => Self::open_locked(args, None).await,
            None => {
                let lock = DataDirLock::acquire(&args.data_dir, holder)?;
                Self::open_locked(args, Some(lock)).await
            }
        }
    }

    /// The database of a running `tsoro serve` (its embedded server, found by the data
    /// directory's lock it holds: joined and left running), or, when none runs, opened as
    /// [`open`](Self::open) opens it (and stopped on [`close`](Self::close)).
    pub async fn open_or_join(args: &DbArgs, holder: &str) -> anyhow::Result<Database> {
        if args.database_url.is_some() {
            return Database::open(args, holder).await;
        }
        match DataDirLock::acquire(&args.data_dir, holder) {
            Ok(lock) => Database::open_locked(args, Some(lock)).await,
            Err(crate::data_lock::LockError::Held { holder, .. }) => {
                tracing::info!(%holder, "joining the database of the running service");
                Ok(Database {
                    url: tsoro_pg::service_url_of(&args.data_dir.join("postgres"))?,
                    embedded: None,
                    lock: None,
                })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// [`open`](Self::open) with the data directory's lock already held (when embedded).
    pub async fn open_locked(args: &DbArgs, lock: Option<DataDirLock>) -> anyhow::Result<Database> {
        match &args.database_url {
            Some(url) => {
                crate::database::create_database_if_missing(url)
                    .await
                    .with_context(|| {
                        format!(
                            "cannot reach the database at DATABASE_URL ({})",
                            redact(url)
                        )
                    })?;
                Ok(Database {
                    url: url.clone(),
                    embedded: None,
                    lock,
                })
            }
            None => {
                let dir = args.data_dir.join("postgres");
                // Started (and stopped) by a supervisor thread of its own: the blocking task
                // only waits for it.
                let pg = tokio::task::spawn_blocking(move || -> anyhow::Result<EmbeddedPg> {
                    let mut pg = EmbeddedPg::new(&dir)?;
                    pg.start()?;
                    Ok(pg)
                })
                .await??;
                // `start` made the service's role and database.
                let url = pg.url(DB_NAME);
                Ok(Database {
                    url,
                    embedded: Some(pg),
                    lock,
                })
            }
        }
    }

    /// Stops the embedded server, if any.
    pub async fn close(mut self) {
        if let Some(mut pg) = self.embedded.take() {
            let _ = tokio::task::spawn_blocking(move || {
                if let Err(e) = pg.stop() {
                    tracing::error!(error = %e, "stopping the embedded PostgreSQL");
                } else {
                    tracing::info!("embedded PostgreSQL stopped");
                }
            })
            .await;
        }
    }
}

fn redact(url: &str) -> String {
    match url.split_once('@') {
        Some((creds, rest)) => match creds.rsplit_once(':') {
            Some((user, _)) if user.contains("//") => format!("{user}:***@{rest}"),
            _ => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// A pool on the URL's database with every migration applied.
pub(crate) async fn open_pool(url: &str) -> anyhow::Result<PgPool> {
    let pool = crate::database::connect(url)
        .await
        .context("connecting to the database")?;
    crate::database::migrate(&pool)
        .await
        .context("running the migrations")?;
    Ok(pool)
}

/// `tsoro serve`.
pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let db = Database::open(&args.db, "tsoro serve").await?;
    let result = async {
        let pool = open_pool(&db.url).await?;
        let report = crate::archive::import::import_corpus(&pool)
            .await
            .context("importing the archive")?;
        tracing::info!(?report, "archive imported");
        let settings = AppSettings {
            bind: args.bind.clone(),
            body_limit: args.body_limit,
            jobs: args.jobs.settings(),
            db_down_threshold: std::time::Duration::from_secs_f64(
                args.health_db_down_secs.clamp(0.0, 86_400.0),
            ),
            embedded: db.embedded.as_ref().and_then(EmbeddedPg::watch),
            allow_anonymous_writes: args.allow_anonymous_writes,
            requests: args.requests.settings(),
            trusted_proxies: args.trusted_proxies.clone(),
            allowed_hosts: args.allowed_hosts.clone(),
        };
        crate::http::access::check_exposure(&settings, &pool).await?;
        let app = Application::build(&settings, pool.clone())
            .with_context(|| format!("binding {}", args.bind))?;
        let address = match args.bind.rsplit_once(':') {
            Some((host, _)) => format!("http://{host}:{}", app.port()),
            None => format!("http://{}", args.bind),
        };
        if let Some(lock) = &db.lock
            && let Err(e) = lock.describe(&format!("tsoro serve on {address}"))
        {
            tracing::warn!(error = %e, file = %lock.path().display(), "writing the lock file");
        }
        tracing::info!(%address, port = app.port(), "serving");
        let workers = crate::jobs::worker::Workers::spawn(&pool, &settings.jobs, "service");
        let handle = app.handle();
        let mut server = tokio::spawn(app.run_until_stopped());
        let served = tokio::select! {
            r = &mut server => Some(r),
            r = stop_signal() => { r?; None }
        };
        // Stopping: new connections are refused at once, requests in flight get a few
        // seconds, and the workers abandon their chunks (their searches stop within a moment).
        tracing::info!("stopping: the server, then the workers");
        let (_, _) = tokio::join!(handle.stop(true), workers.shutdown());
        let served = match served {
            Some(r) => r,
            None => server.await,
        };
        if tokio::time::timeout(std::time::Duration::from_secs(2), pool.close())
            .await
            .is_err()
        {
            tracing::warn!("connections still busy after 2 s: closing the database anyway");
        }
        served.context("the server task")?.context("serving")
    }
    .await;
    db.close().await;
    result
}

/// Waits for Ctrl-C or SIGTERM.
async fn stop_signal() -> anyhow::Result<()> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("listening for SIGTERM")?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r.context("listening for Ctrl-C")?,
        _ = term.recv() => {}
    }
    Ok(())
}

/// `tsoro migrate`.
pub async fn migrate(args: DbArgs) -> anyhow::Result<()> {
    let db = Database::open(&args, "tsoro migrate").await?;
    let result = async {
        let pool = open_pool(&db.url).await?;
        let report = crate::archive::import::import_corpus(&pool).await?;
        pool.close().await;
        tracing::info!(?report, "migrations applied, archive imported");
        anyhow::Ok(())
    }
    .await;
    db.close().await;
    result
}

/// `tsoro worker`: worker loops against a shared database until Ctrl-C or SIGTERM: the
/// `DATABASE_URL` given, or the embedded server a `tsoro serve` runs on the data directory.
pub async fn worker(args: crate::cli::WorkerArgs) -> anyhow::Result<()> {
    let url = match &args.database_url {
        Some(url) => url.clone(),
        None => tsoro_pg::service_url_of(&args.data_dir.join("postgres")).with_context(|| {
            format!(
                "finding the embedded PostgreSQL of the data directory {} (or set \
                     DATABASE_URL)",
                args.data_dir.display()
            )
        })?,
    };
    let pool = crate::database::connect(&url)
        .await
        .with_context(|| format!("connecting to {}", redact(&url)))?;
    crate::database::migrate(&pool)
        .await
        .context("running the migrations")?;
    let mut settings = args.jobs.settings();
    settings.workers = settings.workers.max(1);
    let workers = crate::jobs::worker::Workers::spawn(&pool, &settings, "worker");
    stop_signal().await?;
    tracing::info!("stopping the workers");
    workers.shutdown().await;
    pool.close().await;
    Ok(())
}
