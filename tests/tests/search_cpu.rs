//! A search stopped by its request's budget stops on every thread it uses (issue 46, item 2):
//! alpha-beta's analysis spreads its root over a rayon pool whose threads did not see the
//! stop, so an `agent-move` answered 422 at its budget kept both cores busy for hundreds of
//! CPU-seconds, holding its CPU slot. Alone in its test binary, so that the process's CPU
//! time is this test's.

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// CPU seconds this process has used (user + system), from /proc/self/stat (USER_HZ = 100).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

#[tokio::test]
async fn an_agent_move_stopped_at_its_budget_leaves_no_cpu_busy() {
    let url = tsoro_tests::fresh_database().await;
    let pool = tsoro_api::database::connect(&url).await.unwrap();
    let app = tsoro_tests::spawn_app_from(
        pool,
        tsoro_api::settings::AppSettings {
            bind: String::new(),
            body_limit: tsoro_api::settings::DEFAULT_BODY_LIMIT,
            jobs: tsoro_api::settings::JobSettings {
                workers: 0,
                ..Default::default()
            },
            db_down_threshold: tsoro_api::settings::DEFAULT_DOWN_THRESHOLD,
            embedded: None,
            allow_anonymous_writes: false,
            requests: tsoro_api::settings::RequestSettings {
                max_cpu_requests: 1,
                max_client_cpu_requests: 0,
                budget: Duration::from_millis(50),
            },
            trusted_proxies: vec![],
            allowed_hosts: vec![],
        },
    )
    .await;
    // A full-width search of 6 turns on the largest board: capped in positions (some million
    // over its root actions), yet far more than the request's 50 ms.
    let before = cpu_seconds();
    let r = app
        .post(
            "/api/v1/rulesets/tsoro-russ/agent-move",
            &json!({"agent": "alphabeta:6:mobility"}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = r.json().await.unwrap();
    assert_eq!(p["type"], "/problems/over-time", "{p}");
    let searched = cpu_seconds() - before;
    // Its slot comes back within a moment: the next request is served, not refused 503.
    let since = Instant::now();
    loop {
        let r = app
            .post(
                "/api/v1/rulesets/tsoro-ludii/agent-move",
                &json!({"agent": "random"}),
            )
            .await;
        if r.status() == StatusCode::OK {
            break;
        }
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            since.elapsed() < Duration::from_secs(3),
            "the stopped search still holds the only slot"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // And no thread searches on: the process is idle. A search going on would take about
    // 3 CPU-seconds of these 1.5 s on two cores; 0.3 leaves room for the service's own work
    // on a loaded machine (0.15 failed once in three runs at a load of 10).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let start = cpu_seconds();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let idle = cpu_seconds() - start;
    assert!(
        searched > 0.02,
        "the search ran ({searched:.2} CPU-seconds in its 50 ms budget)"
    );
    assert!(
        idle < 0.3,
        "{idle:.2} CPU-seconds in the 1.5 s after the stopped search (it used {searched:.2})"
    );
}
