//! The embedded PostgreSQL under `tsoro serve` (issue 20, items 5 and 10): stopped or killed
//! under the service it comes back and the database endpoints work again; it dies with a
//! killed service; the service connects as a role of its own that is not a superuser; nothing
//! connects without a password; the cluster is private; and a cluster made before all this
//! (the service's role its superuser, every local connection trusted) is converted.

use crate::helpers::*;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};
use tsoro_pg::EmbeddedPg;

/// The postmaster's pid, from its pid file.
fn postmaster_pid(dir: &Path) -> Option<i32> {
    std::fs::read_to_string(dir.join("postgres/postmaster.pid"))
        .ok()?
        .lines()
        .next()?
        .trim()
        .parse()
        .ok()
}

/// Waits until `/health` says the embedded server was restarted `restarts` times and runs,
/// and a database endpoint answers 200; returns the postmaster's pid and `/health`'s body.
async fn wait_back(s: &Served, dir: &Path, restarts: u64, within: Duration) -> (i32, Value) {
    let client = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{}", s.port);
    let start = Instant::now();
    let mut seen = vec![];
    loop {
        let health: Value = match client.get(format!("{base}/health")).send().await {
            Ok(r) => r.json().await.unwrap_or_default(),
            Err(_) => Value::Null,
        };
        let embedded = &health["database"]["embedded"];
        if embedded["restarts"] == restarts && embedded["running"] == true {
            let status = client
                .get(format!("{base}/api/v1/simulations"))
                .send()
                .await
                .map(|r| r.status().as_u16())
                .unwrap_or(0);
            seen.push(status);
            if status == 200 {
                return (postmaster_pid(dir).unwrap(), health);
            }
        }
        assert!(
            start.elapsed() < within,
            "not back within {within:?}: {health} {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn pg_ctl(dir: &Path, args: &[&str]) {
    let pg = EmbeddedPg::new(dir.join("postgres")).unwrap();
    let out = pg
        .pg_ctl()
        .args(args)
        .arg("-D")
        .arg(pg.dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pg_ctl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn the_embedded_postgresql_comes_back_and_dies_with_the_service() {
    let dir = data_dir("tsoro-heal-");
    let mut s = serve_with(&dir, &["--workers", "0"]);
    wait_ready(&mut s).await;
    let first = postmaster_pid(&dir).unwrap();
    // A direct child of the service, not a daemon.
    let stat = std::fs::read_to_string(format!("/proc/{first}/stat")).unwrap();
    let ppid: u32 = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(ppid, s.child.id(), "the postmaster's parent is the service");

    // Stopped by an operator (a fast shutdown): started again.
    pg_ctl(&dir, &["stop", "-w", "-m", "fast"]);
    let (second, health) = wait_back(&s, &dir, 1, Duration::from_secs(20)).await;
    assert_ne!(second, first, "a new postmaster");
    assert_eq!(
        health["database"]["embedded"]["last_exit"], "exit status: 0",
        "{health}"
    );

    // Killed: started again (after crash recovery).
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(second),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let (third, health) = wait_back(&s, &dir, 2, Duration::from_secs(30)).await;
    assert_ne!(third, second, "a new postmaster");
    assert!(
        health["database"]["embedded"]["last_exit"]
            .as_str()
            .unwrap()
            .contains("SIGKILL"),
        "{health}"
    );

    // The service killed: its PostgreSQL goes with it.
    s.child.kill().unwrap();
    let _ = s.child.wait();
    let start = Instant::now();
    while !postgres_processes(&dir).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "PostgreSQL outlived the killed service: {:?}",
            postgres_processes(&dir)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Asserts the service's view of its own role and that connections without the password fail.
async fn assert_private(dir: &Path) {
    let pool = sqlx::PgPool::connect(&db_url(dir)).await.unwrap();
    let (user, superuser, createdb, createrole): (String, bool, bool, bool) = sqlx::query_as(
        "SELECT rolname::text, rolsuper, rolcreatedb, rolcreaterole FROM pg_roles \
         WHERE rolname = current_user",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(user, "tsoro");
    assert!(
        !superuser && !createdb && !createrole,
        "the service's role is unprivileged"
    );
    assert!(
        sqlx::query("CREATE ROLE intruder SUPERUSER")
            .execute(&pool)
            .await
            .is_err()
    );
    // It owns what it migrated, so it can migrate again.
    let foreign: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace \
         AND relowner <> 'tsoro'::regrole",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        foreign, 0,
        "every table of the service's database is its own"
    );
    pool.close().await;

    let pg = dir.canonicalize().unwrap().join("postgres");
    let host = pg.display();
    for url in [
        db_url_without_password(dir),
        format!("postgres://postgres@localhost/postgres?host={host}"),
        format!("postgres://tsoro:wrong@localhost/tsoro?host={host}"),
        format!("postgres://postgres:wrong@localhost/postgres?host={host}"),
    ] {
        let e = sqlx::PgPool::connect(&url).await.err();
        let e = e.unwrap_or_else(|| panic!("{url} connected without the password"));
        assert!(e.to_string().contains("password"), "{url}: {e}");
    }
    assert_eq!(mode(&pg), 0o700, "the cluster directory is private");
    assert_eq!(mode(&pg.join(".s.PGSQL.5432")), 0o700, "and its socket");
    for file in [
        "tsoro-admin.password",
        "tsoro-service.password",
        "server.log",
    ] {
        assert_eq!(mode(&pg.join(file)), 0o600, "{file}");
    }
}

#[tokio::test]
async fn the_service_connects_as_its_own_role_and_nothing_connects_without_a_password() {
    let dir = data_dir("tsoro-roles-");
    let mut s = serve_with(&dir, &["--workers", "0"]);
    wait_ready(&mut s).await;
    assert_private(&dir).await;
    terminate(&mut s);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cluster made by an earlier version: `initdb -U tsoro --auth=trust`, its tables made by
/// that superuser, and its server still running (daemonised by `pg_ctl`).
#[tokio::test]
async fn a_cluster_of_before_is_converted_on_its_next_start() {
    let dir = data_dir("tsoro-convert-");
    let cluster = dir.join("postgres");
    let host = EmbeddedPg::new(&cluster).unwrap().dir().to_path_buf();
    pg_ctl(
        &dir,
        &[
            "init",
            "-s",
            "-o",
            "-U tsoro --auth=trust -E UTF8 --no-instructions",
        ],
    );
    let opts = format!(
        "-c listen_addresses='' -c unix_socket_directories='{}'",
        host.display()
    );
    pg_ctl(&dir, &["start", "-w", "-s", "-l", "/dev/null", "-o", &opts]);
    let admin = format!(
        "postgres://tsoro@localhost/postgres?host={}",
        host.display()
    );
    let pool = sqlx::PgPool::connect(&admin).await.unwrap();
    sqlx::query("CREATE DATABASE tsoro")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let pool = sqlx::PgPool::connect(&admin.replace("/postgres?", "/tsoro?"))
        .await
        .unwrap();
    for stmt in [
        "CREATE TABLE kept (id serial PRIMARY KEY, v text)",
        "INSERT INTO kept (v) VALUES ('from before')",
        "CREATE FUNCTION kept_count() RETURNS bigint AS 'SELECT count(*) FROM kept' LANGUAGE sql",
        "CREATE TYPE kept_mood AS ENUM ('calm')",
    ] {
        sqlx::query(stmt).execute(&pool).await.unwrap();
    }
    pool.close().await;

    let mut s = serve_with(&dir, &["--workers", "0"]);
    wait_ready(&mut s).await;
    assert_private(&dir).await;
    let pool = sqlx::PgPool::connect(&db_url(&dir)).await.unwrap();
    // The data of before is the service's, and usable as it.
    sqlx::query("INSERT INTO kept (v) VALUES ('after')")
        .execute(&pool)
        .await
        .unwrap();
    let n: i64 = sqlx::query_scalar("SELECT kept_count()")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(n, 2);
    let owners: Vec<String> = sqlx::query_scalar(
        "SELECT pg_get_userbyid(proowner)::text FROM pg_proc WHERE proname = 'kept_count' \
         UNION ALL SELECT pg_get_userbyid(typowner)::text FROM pg_type WHERE typname = 'kept_mood'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(owners, ["tsoro", "tsoro"]);
    let bootstrap: String = sqlx::query_scalar("SELECT rolname::text FROM pg_roles WHERE oid = 10")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(bootstrap, "postgres", "the old superuser was renamed");
    pool.close().await;
    terminate(&mut s);
    assert!(postgres_processes(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
