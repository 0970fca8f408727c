//! The service under faults and abuse (issue 20): bad bytes and media types, racing clients,
//! cancellation that reaches inside a search, budgets, deletion and retention, long polling,
//! and a database that comes back.

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_api::jobs::JobSettings;
use tsoro_tests::{TestApp, spawn_app, spawn_app_with_jobs};

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

#[tokio::test]
async fn a_nul_byte_anywhere_in_a_path_or_query_is_a_400() {
    let app = spawn_app().await;
    for path in [
        "/api/v1/games/%00",
        "/api/v1/games/tsoro%00",
        "/api/v1/sources/%00",
        "/api/v1/sources/%00/citation",
        "/api/v1/evidence/%00",
        "/api/v1/rulesets/%00",
        "/api/v1/rulesets/tsoro-russ/diff/%00",
        "/api/v1/archive/%00",
        "/api/v1/simulations/%00",
        "/api/v1/comparisons/%00",
        "/api/v1/evidence?q=%00",
        "/api/v1/evidence?q=board%00game",
        "/api/v1/evidence?location=%00",
        "/api/v1/evidence?source=%00",
        "/api/v1/evidence?game=%00",
        "/api/v1/evidence?cursor=%00",
        "/api/v1/simulations?ruleset=%00",
        "/api/v1/rulesets?q=%00",
        "/api/v1/games?format=%00",
        "/archive/games/%00",
    ] {
        let body = problem(app.get(path).await, 400).await;
        assert!(
            body["detail"].as_str().unwrap().contains("NUL"),
            "{path}: {body}"
        );
        assert!(!body["errors"].as_array().unwrap().is_empty(), "{path}");
    }
    // The same query without the NUL is still served.
    assert_eq!(app.get("/api/v1/evidence?q=board").await.status(), 200);
    // A NUL byte inside a JSON body's strings: a 4xx, never a 500.
    for body in [
        json!({"ruleset": "tsoro\u{0}", "games": 10}),
        json!({"ruleset": "tsoro-russ", "agents": "random\u{0}", "games": 10}),
    ] {
        let r = app.post("/api/v1/simulations", &body).await;
        assert!(r.status().is_client_error(), "{body}: {}", r.status());
    }
    let r = app
        .post(
            "/api/v1/comparisons",
            &json!({"rulesets": ["tsoro-russ", "tsoro\u{0}"], "games": 10}),
        )
        .await;
    assert!(r.status().is_client_error(), "{}", r.status());
}

#[tokio::test]
async fn json_bodies_must_be_sent_as_application_json() {
    let app = spawn_app().await;
    let body = r#"{"ruleset": "tsoro-russ", "agents": "random,random", "games": 10}"#;
    for (path, media) in [
        ("/api/v1/simulations", "application/vnd.foo+json"),
        ("/api/v1/simulations", "text/plain"),
        ("/api/v1/simulations", "application/x-www-form-urlencoded"),
        ("/api/v1/comparisons", "application/problem+json"),
        ("/api/v1/rulesets/tsoro-russ/replay", "application/ld+json"),
        (
            "/api/v1/rulesets/tsoro-russ/legal",
            "application/vnd.foo+json",
        ),
        (
            "/api/v1/rulesets/tsoro-russ/agent-move",
            "application/vnd.foo+json",
        ),
    ] {
        let r = app
            .client
            .post(format!("{}{path}", app.address))
            .header("content-type", media)
            .body(body)
            .send()
            .await
            .unwrap();
        let p = problem(r, 415).await;
        assert!(
            p["detail"].as_str().unwrap().contains("application/json"),
            "{path} {media}: {p}"
        );
    }
    // application/json, with or without a charset, is taken.
    for media in ["application/json", "application/json; charset=utf-8"] {
        let r = app
            .client
            .post(format!("{}/api/v1/simulations", app.address))
            .header("content-type", media)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::ACCEPTED, "{media}");
    }
}
