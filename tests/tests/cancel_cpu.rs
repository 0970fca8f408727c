//! Cancelling a job stops its computation, not only its status (issue 20, item 2): after DELETE
//! the worker's search ends within a moment and the process goes idle. Alone in its test
//! binary, so that the process's CPU time is this test's.

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tsoro_api::settings::JobSettings;
use tsoro_tests::spawn_app_with_jobs;

/// CPU seconds this process has used (user + system), from /proc/self/stat (USER_HZ = 100).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

/// CPU seconds used over the next `secs` seconds.
async fn cpu_over(secs: f64) -> f64 {
    let before = cpu_seconds();
    tokio::time::sleep(Duration::from_secs_f64(secs)).await;
    cpu_seconds() - before
}

#[tokio::test]
async fn after_delete_the_job_s_search_stops_within_two_seconds() {
    let app = spawn_app_with_jobs(JobSettings {
        workers: 1,
        threads: 1,
        lease: Duration::from_secs(30),
        poll: Duration::from_millis(50),
        max_job_cost: f64::INFINITY,
        ..JobSettings::default()
    })
    .await;
    // One move of this search takes far longer than the test.
    let r = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-russ", "agents": "mcts:1000000,mcts:1000000", "games": 4}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.headers()["location"].to_str().unwrap().to_string();
    let start = Instant::now();
    loop {
        let v: Value = app.get(&url).await.json().await.unwrap();
        if v["status"] == "running" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "never ran: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let busy = cpu_over(1.0).await;
    let r = app.delete(&url).await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["status"], "cancelled");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle = cpu_over(1.5).await;
    // (The machine may be shared: the busy share is only known to be clearly above idle.)
    assert!(
        busy > 0.1,
        "the search is busy before the cancel ({busy:.2} s of CPU in 1 s)"
    );
    assert!(
        idle < 0.1,
        "{idle:.2} s of CPU in the 1.5 s after the cancel took effect (before: {busy:.2} s in 1 s)"
    );
    // The worker gave its chunk back rather than storing a cut-short game, and the chunk of
    // the cancelled job was dropped with it.
    let chunks: i64 = sqlx::query_scalar("SELECT count(*) FROM simulation_chunks")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(chunks, 0);
}
