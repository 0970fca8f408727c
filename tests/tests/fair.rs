//! Fair shares and bounded work (issue 34, items 3-9): jobs priced from their real agents,
//! synchronous endpoints with budgets and a bound on their concurrency, memory per request,
//! fair claiming across jobs, quotas per owner, exports and long polls.

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_api::settings::JobSettings;
use tsoro_tests::spawn_app_with_jobs;

/// Asserts a problem+json answer of this status; returns its body.
async fn problem(resp: reqwest::Response, status: u16) -> Value {
    let url = resp.url().to_string();
    assert_eq!(resp.status().as_u16(), status, "{url}");
    assert_eq!(
        resp.headers()["content-type"].to_str().unwrap(),
        "application/problem+json",
        "{url}"
    );
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["status"], status, "{url}: {body}");
    body
}

fn settings(workers: usize) -> JobSettings {
    JobSettings {
        workers,
        lease: Duration::from_secs(2),
        poll: Duration::from_millis(50),
        threads: 1,
        ..JobSettings::default()
    }
}

/// Item 3: `alphabeta:4` on tsoro-russ was priced from fixed rates at 0.004 s a game, some
/// 3,500 times under its measured 14 core-seconds. Its decisions are now timed on the ruleset.
#[tokio::test]
async fn a_search_is_priced_by_its_decisions_timed_on_the_ruleset() {
    let app = spawn_app_with_jobs(settings(0)).await;
    let r = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-russ", "agents": "alphabeta:4", "games": 10_000_000}),
        )
        .await;
    let p = problem(r, 422).await;
    assert_eq!(p["type"], "/problems/over-budget");
    assert_eq!(p["errors"][0]["field"], "games");
    let cost = p["estimated_cost"].as_f64().unwrap();
    let per_game = p["per_game_cost"].as_f64().unwrap();
    assert_eq!(
        p["max_job_cost"].as_f64().unwrap(),
        tsoro_api::settings::DEFAULT_MAX_JOB_COST
    );
    // The old model's 0.004 s a game priced the job at 40,000 core-seconds, under the budget.
    // A game's price is now of the order of the measured 14 s (2 s here, timed at positions
    // of random games): at least 0.1 s leaves room for a machine 20 times faster.
    assert!(per_game > 0.1, "{per_game}");
    assert!(
        (cost - per_game * 1e7).abs() <= 1e-6 * cost,
        "{cost} {per_game}"
    );
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("timed on this ruleset"), "{detail}");

    // A few of the same games are accepted, priced by the kept rate.
    let r = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-russ", "agents": "alphabeta:4", "games": 4}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
}
