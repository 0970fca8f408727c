//! The `tsoro` binary end to end: `serve` with an embedded PostgreSQL on an empty data
//! directory, a restart that keeps the data, a clean stop that leaves no PostgreSQL process,
//! recovery after a crash, and the clear error when no server binaries can be found.

use crate::helpers::*;
use std::path::Path;
use std::time::Duration;

#[tokio::test]
async fn serve_migrates_an_empty_data_dir_keeps_data_and_stops_cleanly() {
    let dir = data_dir("tsoro-serve-");
    let mut s = serve(&dir);
    wait_ready(&mut s).await;
    assert!(
        dir.join("postgres/PG_VERSION").exists(),
        "initdb ran in the data dir"
    );
    let pool = sqlx::PgPool::connect(&db_url(&dir)).await.unwrap();
    let migrated: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(migrated >= 1);
    sqlx::query("INSERT INTO service_meta (key, value) VALUES ('kept', 'yes')")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    terminate(&mut s);
    assert!(
        postgres_processes(&dir).is_empty(),
        "no PostgreSQL left after SIGTERM"
    );

    // A restart on the same data dir keeps the data.
    let mut s = serve(&dir);
    wait_ready(&mut s).await;
    let pool = sqlx::PgPool::connect(&db_url(&dir)).await.unwrap();
    let v: String = sqlx::query_scalar("SELECT value FROM service_meta WHERE key = 'kept'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(v, "yes");
    pool.close().await;
    terminate(&mut s);
    assert!(postgres_processes(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// After a crash (the service and its PostgreSQL killed), the next start recovers.
#[tokio::test]
async fn serve_recovers_after_a_crash() {
    let dir = data_dir("tsoro-crash-");
    let mut s = serve(&dir);
    wait_ready(&mut s).await;
    let postmasters = postgres_processes(&dir);
    assert!(!postmasters.is_empty());
    s.child.kill().unwrap();
    let _ = s.child.wait();
    for pid in postmasters {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        dir.join("postgres/postmaster.pid").exists(),
        "a stale pid file is left"
    );
    let mut s = serve(&dir);
    wait_ready(&mut s).await;
    terminate(&mut s);
    assert!(postgres_processes(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_without_server_binaries_says_what_to_install() {
    let dir = data_dir("tsoro-nobin-");
    let empty = data_dir("tsoro-empty-bin-");
    let out = tsoro()
        .args(["serve", "--bind", &format!("127.0.0.1:{}", free_port())])
        .env("TSORO_DATA_DIR", &dir)
        .env("TSORO_PG_BIN_DIR", &empty)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("apt-get install postgresql"), "{err}");
    assert!(err.contains("DATABASE_URL"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn help_shows_the_configuration() {
    let out = tsoro().args(["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for word in ["DATABASE_URL", "TSORO_DATA_DIR", "TSORO_BIND", "--bind"] {
        assert!(help.contains(word), "{word} missing from:\n{help}");
    }
}

/// With DATABASE_URL, the given server is used and a missing database is created (by a role
/// allowed to: here the server's superuser).
#[tokio::test]
async fn migrate_with_database_url_creates_the_database() {
    let dir = data_dir("tsoro-ext-");
    let mut pg = tsoro_pg::EmbeddedPg::new(dir.join("pg")).unwrap();
    pg.start().unwrap();
    let url = pg.admin_url("brand_new_db");
    let out = tsoro()
        .arg("migrate")
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(n >= 1);
    pool.close().await;
    pg.stop().unwrap();
    assert!(postgres_processes(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run as root with a data directory the `postgres` user cannot reach (a checkout under a
/// private home): the cluster is kept in a persistent place of its own, and the service works.
#[tokio::test]
async fn serve_from_a_private_directory_as_root() {
    if !nix::unistd::Uid::effective().is_root() {
        return; // Only root hands the server to another user.
    }
    let private = data_dir("tsoro-private-");
    std::fs::set_permissions(
        &private,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let dir = private.join("data");
    let mut s = serve(&dir);
    wait_ready(&mut s).await;
    let note = std::fs::read_to_string(dir.join("postgres/WHERE-IS-THE-CLUSTER.txt")).unwrap();
    let cluster = note.split_whitespace().last().unwrap().to_string();
    assert!(Path::new(&cluster).join("PG_VERSION").exists(), "{note}");
    terminate(&mut s);
    assert!(postgres_processes(Path::new(&cluster)).is_empty());
    // The same data directory finds the same cluster again.
    let mut s = serve(&dir);
    wait_ready(&mut s).await;
    terminate(&mut s);
    // A new data directory at the same path is not given the old one's cluster.
    std::fs::remove_dir_all(&dir).unwrap();
    let mut s = serve(&dir);
    let status = s.child.wait().unwrap();
    assert!(!status.success());
    let err = s.child.wait_with_output_ref();
    assert!(err.contains("belongs to another data directory"), "{err}");
    assert!(err.contains(&cluster), "{err}");
    assert!(postgres_processes(Path::new(&cluster)).is_empty());
    // `tsoro clusters` lists it as left behind (listing only: other clusters under the real
    // root may be other tests'; `cli::clusters_prune_*` removes them from a root of its own).
    let out = tsoro().args(["clusters", "list"]).output().unwrap();
    assert!(out.status.success());
    let listed = String::from_utf8_lossy(&out.stdout).to_string();
    let ours = listed
        .lines()
        .find(|l| l.starts_with(&format!("{cluster}\t")))
        .unwrap_or_else(|| panic!("{cluster} not listed: {listed}"));
    assert!(
        ours.contains(&format!("\t{}\t", dir.join("postgres").display()))
            && ours.ends_with("another data directory took its path"),
        "{ours}"
    );
    let _ = std::fs::remove_dir_all(&cluster);
    let _ = std::fs::remove_file(Path::new(&cluster).with_extension("path"));
    let _ = std::fs::remove_file(Path::new(&cluster).with_extension("id"));
    let _ = std::fs::remove_dir_all(&private);
}

/// A second `tsoro serve` on a data directory in use fails at once, naming the running one,
/// and leaves the first one's PostgreSQL alone; the first keeps serving.
#[tokio::test]
async fn a_second_service_on_the_same_data_directory_is_refused() {
    let dir = data_dir("tsoro-twice-");
    let mut first = serve(&dir);
    wait_ready(&mut first).await;
    let postmasters = postgres_processes(&dir);
    assert_eq!(postmasters.len(), 1, "{postmasters:?}");
    let pid_file = std::fs::read_to_string(dir.join("postgres/postmaster.pid")).unwrap();

    let mut second = serve(&dir);
    let status = second.child.wait().unwrap();
    assert!(!status.success());
    let err = second.child.wait_with_output_ref();
    assert!(err.contains("is in use by tsoro serve"), "{err}");
    assert!(
        err.contains(&format!("pid {}", first.child.id())),
        "names the running one's pid: {err}"
    );
    assert!(
        err.contains(&format!("http://127.0.0.1:{}", first.port)),
        "and its address: {err}"
    );
    assert!(
        !err.contains("earlier run"),
        "it never looked at the cluster: {err}"
    );

    // The first one's PostgreSQL was not touched: the same postmaster, the same pid file.
    assert_eq!(postgres_processes(&dir), postmasters);
    assert_eq!(
        std::fs::read_to_string(dir.join("postgres/postmaster.pid")).unwrap(),
        pid_file
    );
    let r = reqwest::get(format!("http://127.0.0.1:{}/ready", first.port))
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let health: serde_json::Value = reqwest::get(format!("http://127.0.0.1:{}/health", first.port))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["database"]["embedded"]["restarts"], 0, "{health}");

    // Stopped, the first frees the directory for the next.
    terminate(&mut first);
    let mut third = serve(&dir);
    wait_ready(&mut third).await;
    terminate(&mut third);
    assert!(postgres_processes(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
