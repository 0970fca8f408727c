//! Health, readiness and errors, end to end over HTTP against a real PostgreSQL.

use crate::helpers::problem;
use serde_json::Value;
use std::time::{Duration, Instant};
use tsoro_pg::EmbeddedPg;
use tsoro_tests::{spawn_app, temp_dir, watchdog};

#[tokio::test]
async fn health_and_ready() {
    let app = spawn_app().await;
    let r = app.get("/health").await;
    assert_eq!(r.status().as_u16(), 200);
    let r = app.get("/ready").await;
    assert_eq!(r.status().as_u16(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["database"], "ok");
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let app = spawn_app().await;
    let body = problem(app.get("/no/such/thing").await, 404).await;
    assert_eq!(body["instance"], "/no/such/thing");
    let r = app
        .client
        .post(format!("{}/health", app.address))
        .send()
        .await
        .unwrap();
    let body = problem(r, 405).await;
    assert!(body["detail"].as_str().unwrap().contains("POST"));
}

#[tokio::test]
async fn each_test_has_its_own_migrated_database() {
    let a = spawn_app().await;
    let b = spawn_app().await;
    sqlx::query("INSERT INTO service_meta (key, value) VALUES ('probe', 'a')")
        .execute(&a.pool)
        .await
        .unwrap();
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM service_meta WHERE key = 'probe'")
        .fetch_one(&b.pool)
        .await
        .unwrap();
    assert_eq!(n, 0);
}

async fn wait_status(
    app: &tsoro_tests::TestApp,
    path: &str,
    status: u16,
    within: Duration,
) -> reqwest::Response {
    let start = Instant::now();
    loop {
        let r = app.get(path).await;
        if r.status().as_u16() == status {
            return r;
        }
        assert!(
            start.elapsed() < within,
            "{path} did not answer {status} within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The embedded PostgreSQL stopped under the service (issue 20, item 5) comes back by itself,
/// and `/ready` follows; `/health` reports an outage past its threshold (503
/// `/problems/database-down`) and is 200 again once the database answers.
#[tokio::test]
async fn the_database_comes_back_and_health_reports_a_long_outage() {
    let dir = temp_dir("tsoro-ready-");
    let mut pg = EmbeddedPg::new(dir.join("pg")).unwrap();
    pg.start().unwrap();
    watchdog(&pg, &dir);
    let pool = tsoro_api::database::connect(&pg.url("postgres"))
        .await
        .unwrap();
    let settings = tsoro_api::settings::AppSettings {
        bind: String::new(),
        body_limit: tsoro_api::settings::DEFAULT_BODY_LIMIT,
        jobs: Default::default(),
        db_down_threshold: Duration::from_secs(2),
        embedded: pg.watch(),
        allow_anonymous_writes: false,
        requests: Default::default(),
        trusted_proxies: vec![],
        allowed_hosts: vec![],
    };
    let app = tsoro_tests::spawn_app_from(pool, settings).await;
    wait_status(&app, "/ready", 200, Duration::from_secs(10)).await;
    let body: serde_json::Value = app.get("/health").await.json().await.unwrap();
    assert_eq!(body["database"]["state"], "up", "{body}");

    // Stopped from outside (as an operator or a crash would), it is started again.
    let watch = pg.watch().unwrap();
    let mut stop = pg.pg_ctl();
    stop.args(["stop", "-w", "-m", "fast", "-D"]).arg(pg.dir());
    let out = tokio::task::spawn_blocking(move || stop.output().unwrap())
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    wait_status(&app, "/ready", 200, Duration::from_secs(15)).await;
    // The supervisor marks it running on the `ready` of its pid file, a moment after it
    // starts taking connections.
    let start = Instant::now();
    while !(watch.state().running && watch.state().restarts == 1) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            watch.state()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let body: serde_json::Value = app.get("/health").await.json().await.unwrap();
    assert_eq!(body["database"]["embedded"]["restarts"], 1, "{body}");
    assert_eq!(body["database"]["embedded"]["running"], true, "{body}");

    // Stopped for good (supervision too): /ready 503 at once, /health 503 past 2 s.
    let mut pg = tokio::task::spawn_blocking(move || {
        pg.stop().unwrap();
        pg
    })
    .await
    .unwrap();
    let r = wait_status(&app, "/ready", 503, Duration::from_secs(15)).await;
    let body = problem(r, 503).await;
    assert!(body["detail"].as_str().unwrap().contains("database"));
    let r = wait_status(&app, "/health", 503, Duration::from_secs(15)).await;
    let body = problem(r, 503).await;
    assert_eq!(body["type"], "/problems/database-down");
    assert_eq!(body["database"]["state"], "down", "{body}");
    assert!(
        body["database"]["down_secs"].as_f64().unwrap() >= 2.0,
        "{body}"
    );
    assert_eq!(body["database"]["threshold_secs"], 2.0);

    let pg = tokio::task::spawn_blocking(move || {
        pg.start().unwrap();
        pg
    })
    .await
    .unwrap();
    wait_status(&app, "/ready", 200, Duration::from_secs(15)).await;
    let r = wait_status(&app, "/health", 200, Duration::from_secs(15)).await;
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["database"]["state"], "up", "{body}");
    tokio::task::spawn_blocking(move || drop(pg)).await.unwrap();
}

/// Issue 34, item 9: a pool whose every connection is in use is a busy service, not a dead
/// database: `/health` stays 200 (`busy`, the database `up`) however long it lasts, past the
/// threshold and the probe's timeout, and a request that finds no connection is told to try
/// again; a database really stopped is `down` (503 past the threshold).
#[tokio::test]
async fn a_busy_pool_is_not_a_dead_database() {
    let dir = temp_dir("tsoro-busy-");
    let mut pg = EmbeddedPg::new(dir.join("pg")).unwrap();
    pg.start().unwrap();
    watchdog(&pg, &dir);
    let pool = tsoro_api::database::pool_options()
        .max_connections(3)
        .connect_with(tsoro_api::database::options(&pg.url("postgres")).unwrap())
        .await
        .unwrap();
    let settings = tsoro_api::settings::AppSettings {
        bind: String::new(),
        body_limit: tsoro_api::settings::DEFAULT_BODY_LIMIT,
        jobs: Default::default(),
        db_down_threshold: Duration::from_secs(1),
        embedded: pg.watch(),
        allow_anonymous_writes: false,
        requests: Default::default(),
        trusted_proxies: vec![],
        allowed_hosts: vec![],
    };
    let app = tsoro_tests::spawn_app_from(pool.clone(), settings).await;
    wait_status(&app, "/ready", 200, Duration::from_secs(10)).await;

    // Every connection taken (one is the service's listener for job changes): until the
    // pool has none to give.
    let mut held = Vec::new();
    while let Ok(Ok(c)) = tokio::time::timeout(Duration::from_millis(500), pool.acquire()).await {
        held.push(c);
    }
    let body: Value = app.get("/health").await.json().await.unwrap();
    assert_eq!(body["status"], "busy", "{body}");
    assert_eq!(body["database"]["pool"]["state"], "busy", "{body}");
    assert_eq!(body["database"]["pool"]["in_use"], 3, "{body}");
    // A request that needs a connection is told the service is busy, and when to try again.
    let r = app.get("/ready").await;
    let retry = r.headers().get("retry-after").cloned();
    let status = r.status();
    let p: Value = r.json().await.unwrap();
    assert_eq!(status.as_u16(), 503, "{p}");
    assert!(retry.is_some(), "{p}");
    assert!(p["detail"].as_str().unwrap().contains("busy"), "{p}");
    // Longer than the probe's timeout (2 s) and the threshold (1 s) together: never down.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        let r = app.get("/health").await;
        assert_eq!(r.status().as_u16(), 200);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["database"]["state"], "up", "{body}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // Given back (a connection returns to the pool on a task of its own): ok again.
    drop(held);
    let start = Instant::now();
    loop {
        let body: Value = app.get("/health").await.json().await.unwrap();
        if body["status"] == "ok" {
            assert_eq!(body["database"]["pool"]["state"], "ok", "{body}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Stopped for good: down, and past the threshold, 503.
    let pg = tokio::task::spawn_blocking(move || {
        pg.stop().unwrap();
        pg
    })
    .await
    .unwrap();
    let r = wait_status(&app, "/health", 503, Duration::from_secs(15)).await;
    let body = problem(r, 503).await;
    assert_eq!(body["type"], "/problems/database-down", "{body}");
    assert_eq!(body["database"]["state"], "down", "{body}");
    tokio::task::spawn_blocking(move || drop(pg)).await.unwrap();
}
