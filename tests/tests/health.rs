//! Health, readiness and errors, end to end over HTTP against a real PostgreSQL.

use std::time::{Duration, Instant};
use tsoro_api::pg::EmbeddedPg;
use tsoro_tests::{spawn_app, spawn_app_with, temp_dir, watchdog};

async fn problem(resp: reqwest::Response, status: u16) -> serde_json::Value {
    assert_eq!(resp.status().as_u16(), status);
    assert_eq!(
        resp.headers()["content-type"].to_str().unwrap(),
        "application/problem+json"
    );
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["status"], status);
    assert!(body["type"].as_str().unwrap().starts_with("/problems/"));
    assert!(body["title"].is_string());
    assert!(body["detail"].is_string());
    body
}

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

/// `/ready` goes 503 while the database is down and 200 again once it is back, with no
/// restart of the service.
#[tokio::test]
async fn ready_follows_the_database() {
    let dir = temp_dir("tsoro-ready-");
    let mut pg = EmbeddedPg::new(dir.join("pg")).unwrap();
    pg.start().unwrap();
    watchdog(&pg, &dir);
    let url = pg.url("postgres");
    let pool = tsoro_api::db::connect(&url).await.unwrap();
    let app = spawn_app_with(pool).await;
    wait_status(&app, "/ready", 200, Duration::from_secs(10)).await;

    tokio::task::spawn_blocking({
        let dir = pg.dir().to_path_buf();
        move || {
            let mut p = EmbeddedPg::new(dir).unwrap();
            p.stop().unwrap();
            std::mem::forget(p);
        }
    })
    .await
    .unwrap();
    let r = wait_status(&app, "/ready", 503, Duration::from_secs(15)).await;
    let body = problem(r, 503).await;
    assert!(body["detail"].as_str().unwrap().contains("database"));
    // The process itself is still alive.
    assert_eq!(app.get("/health").await.status().as_u16(), 200);

    let mut pg = tokio::task::spawn_blocking(move || {
        pg.start().unwrap();
        pg
    })
    .await
    .unwrap();
    wait_status(&app, "/ready", 200, Duration::from_secs(15)).await;
    tokio::task::spawn_blocking(move || pg.stop().unwrap())
        .await
        .unwrap();
}
