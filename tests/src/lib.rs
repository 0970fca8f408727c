//! Test support: one PostgreSQL per test process, a fresh database per test, and the real
//! server spawned on a random port.
//!
//! Without `DATABASE_URL`, the first test to ask starts an embedded PostgreSQL (from the
//! system's binaries) in a temporary directory and migrates a template database once; every
//! test then gets its own database cloned from it (`CREATE DATABASE ... TEMPLATE`), owned by the
//! service's role and reached as that role, as the service reaches its own (the superuser only
//! creates the databases). A watchdog process stops that server and removes its directory when
//! the test process exits. With `DATABASE_URL`, that server is used instead (its user must be
//! allowed to create databases).

pub mod browser;
pub mod store_gate;

use sqlx::{Executor, PgPool};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use tsoro_api::settings::AppSettings;
use tsoro_api::startup::Application;
use tsoro_pg::EmbeddedPg;

/// The server all tests of this process share.
pub struct Cluster {
    /// URL of its administrative database (`postgres`), as a role that creates databases.
    pub admin_url: String,
    /// URL (of `postgres`) as the role the tests' databases are reached as.
    pub user_url: String,
    /// The role that owns the tests' databases (None: the creator of `DATABASE_URL`).
    pub owner: Option<String>,
    /// The migrated template every test database is cloned from.
    pub template: String,
    /// The embedded server, if we started one (kept for the life of the process).
    pub embedded: Option<EmbeddedPg>,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();
static CREATE_LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
static COUNTER: AtomicU32 = AtomicU32::new(0);

/// Replaces the database name of a PostgreSQL URL (keeping the query, e.g. `?host=`).
pub fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let path_start = base[scheme_end..]
        .find('/')
        .map(|i| i + scheme_end)
        .unwrap_or(base.len());
    let mut out = format!("{}/{db}", &base[..path_start]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// A temporary directory under /tmp (reachable by the `postgres` user when we are root),
/// not removed automatically.
pub fn temp_dir(prefix: &str) -> PathBuf {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in("/tmp")
        .expect("a temporary directory")
        .keep()
}

/// Starts a process that waits for this test process to exit, then stops the server and
/// removes its directory.
pub fn watchdog(pg: &EmbeddedPg, remove: &Path) {
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 0.2; done; {stop} >/dev/null 2>&1; rm -rf '{dir}'",
        pid = std::process::id(),
        stop = pg.stop_command(),
        dir = remove.display()
    );
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let _ = cmd.spawn();
}

fn init() -> Result<Cluster, String> {
    // Runs on its own thread and runtime: called from inside tests' runtimes.
    std::thread::spawn(|| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        rt.block_on(async {
            let (admin_url, user_url, owner, embedded) = match std::env::var("DATABASE_URL") {
                Ok(url) => (
                    with_database(&url, "postgres"),
                    with_database(&url, "postgres"),
                    None,
                    None,
                ),
                Err(_) => {
                    let dir = temp_dir("tsoro-test-pg-");
                    let mut pg = EmbeddedPg::new(dir.join("pg")).map_err(|e| e.to_string())?;
                    pg.start().map_err(|e| e.to_string())?;
                    watchdog(&pg, &dir);
                    (
                        pg.admin_url("postgres"),
                        pg.url("postgres"),
                        Some(tsoro_pg::DB_USER.to_string()),
                        Some(pg),
                    )
                }
            };
            let owned_by = owner
                .as_deref()
                .map(|o| format!(" OWNER {o}"))
                .unwrap_or_default();
            let template = format!("tsoro_template_{}", std::process::id());
            let admin = PgPool::connect(&admin_url)
                .await
                .map_err(|e| e.to_string())?;
            admin
                .execute(sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {template}"
                ))))
                .await
                .map_err(|e| e.to_string())?;
            admin
                .execute(sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                    "CREATE DATABASE {template}{owned_by}"
                ))))
                .await
                .map_err(|e| e.to_string())?;
            let pool = PgPool::connect(&with_database(&user_url, &template))
                .await
                .map_err(|e| e.to_string())?;
            tsoro_api::database::migrate(&pool)
                .await
                .map_err(|e| e.to_string())?;
            tsoro_api::archive::import::import_corpus(&pool)
                .await
                .map_err(|e| e.to_string())?;
            pool.close().await;
            admin.close().await;
            Ok(Cluster {
                admin_url,
                user_url,
                owner,
                template,
                embedded,
            })
        })
    })
    .join()
    .map_err(|_| "the cluster set-up thread panicked".to_string())?
}

/// The shared server (started on first use).
pub fn cluster() -> &'static Cluster {
    match CLUSTER.get_or_init(init) {
        Ok(c) => c,
        Err(e) => panic!("test PostgreSQL: {e}"),
    }
}

/// A fresh, migrated database of its own for one test; returns its URL.
pub async fn fresh_database() -> String {
    let c = cluster();
    let name = format!(
        "test_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let _guard = CREATE_LOCK.lock().await;
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&c.admin_url)
        .await
        .expect("connect to the test server");
    let owned_by = c
        .owner
        .as_deref()
        .map(|o| format!(" OWNER {o}"))
        .unwrap_or_default();
    conn.execute(sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "CREATE DATABASE {name} TEMPLATE {}{owned_by}",
        c.template
    ))))
    .await
    .expect("clone the template database");
    with_database(&c.user_url, &name)
}

/// The real server on a random port over a fresh database.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub address: String,
    /// The test's database.
    pub pool: PgPool,
    /// A client.
    pub client: reqwest::Client,
}

impl TestApp {
    /// `GET address + path`.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .expect("request")
    }

    /// POSTs a JSON body.
    pub async fn post(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.address))
            .json(body)
            .send()
            .await
            .expect("request")
    }

    /// DELETEs a resource.
    pub async fn delete(&self, path: &str) -> reqwest::Response {
        self.client
            .delete(format!("{}{path}", self.address))
            .send()
            .await
            .expect("request")
    }
}

/// Spawns the application on 127.0.0.1:0 over this pool.
pub async fn spawn_app_with(pool: PgPool) -> TestApp {
    let jobs = tsoro_api::settings::JobSettings {
        workers: 0,
        ..Default::default()
    };
    spawn_app_with_settings(pool, jobs).await
}

/// The app over `pool` with these job settings; its worker loops (if `jobs.workers` > 0) run
/// in this process until the test ends.
pub async fn spawn_app_with_settings(
    pool: PgPool,
    jobs: tsoro_api::settings::JobSettings,
) -> TestApp {
    spawn_app_from(
        pool,
        AppSettings {
            bind: "127.0.0.1:0".into(),
            body_limit: tsoro_api::settings::DEFAULT_BODY_LIMIT,
            jobs,
            db_down_threshold: tsoro_api::settings::DEFAULT_DOWN_THRESHOLD,
            embedded: None,
            allow_anonymous_writes: false,
            requests: Default::default(),
            trusted_proxies: vec![],
            allowed_hosts: vec![],
        },
    )
    .await
}

/// The app over `pool` with these settings (the bind address is ignored: a free port).
pub async fn spawn_app_from(pool: PgPool, mut settings: AppSettings) -> TestApp {
    settings.bind = "127.0.0.1:0".into();
    let jobs = settings.jobs.clone();
    let app = Application::build(&settings, pool.clone()).expect("build the app");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    if jobs.workers > 0 {
        // Dropped with the runtime at the end of the test.
        std::mem::forget(tsoro_api::jobs::worker::Workers::spawn(
            &pool, &jobs, "test",
        ));
    }
    TestApp {
        address,
        pool,
        client: reqwest::Client::new(),
    }
}

/// A fresh database and the app over it with these job settings.
pub async fn spawn_app_with_jobs(jobs: tsoro_api::settings::JobSettings) -> TestApp {
    let url = fresh_database().await;
    let pool = tsoro_api::database::connect(&url)
        .await
        .expect("connect the pool");
    spawn_app_with_settings(pool, jobs).await
}

pub async fn spawn_app() -> TestApp {
    let url = fresh_database().await;
    let pool = tsoro_api::database::connect(&url)
        .await
        .expect("connect the pool");
    spawn_app_with(pool).await
}
