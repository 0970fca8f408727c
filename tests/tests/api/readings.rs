//! Readings studies and comparisons of variants over HTTP against the real database: a study's
//! `readings.csv` equals the one `tsoro readings` plays here (on two workers, chunks cut
//! across every run); bad input names its field.

use crate::helpers::problem;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_api::runs::readings::{self, ReadingsRequest};
use tsoro_api::settings::JobSettings;
use tsoro_engine::sim::SimOptions;
use tsoro_tests::{TestApp, spawn_app_with_jobs};

fn settings(workers: usize, chunk: u64) -> JobSettings {
    JobSettings {
        workers,
        chunk_games: chunk,
        lease: Duration::from_secs(2),
        poll: Duration::from_millis(50),
        threads: 2,
        ..JobSettings::default()
    }
}

async fn wait_done(app: &TestApp, url: &str) -> Value {
    for _ in 0..18 {
        let r = app.get(&format!("{url}?wait=10")).await;
        assert_eq!(r.status(), StatusCode::OK);
        let v: Value = r.json().await.unwrap();
        if ["done", "failed", "cancelled"].contains(&v["status"].as_str().unwrap()) {
            return v;
        }
    }
    panic!("{url} did not finish");
}

#[tokio::test]
async fn a_study_over_http_gives_what_the_command_line_plays() {
    let body = json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture", "layout"],
        "agents": "greedy", "games": 30, "seed": "5"});
    let app = spawn_app_with_jobs(settings(2, 7)).await;
    let r = app.post("/api/v1/readings", &body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.headers()["location"].to_str().unwrap().to_string();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["url"], url.as_str());
    assert!(v["pairings"].is_null());
    // Six runs: three readings under random play, three under greedy play.
    assert_eq!(v["runs"]["runs"].as_array().unwrap().len(), 6);
    // Not done yet, or done: never a table of unfinished runs.
    let early = app.get(&format!("{url}/readings.csv")).await;
    assert!(
        [StatusCode::CONFLICT, StatusCode::OK].contains(&early.status()),
        "{}",
        early.status()
    );
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    let pairings = v["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    assert_eq!(pairings[1]["agents"], json!(["greedy", "greedy"]));
    let rb = &pairings[0]["readings"][1];
    assert_eq!(rb["parameter"], "back_capture");
    assert_eq!(rb["reading"], "require_both");
    assert_eq!(
        rb["attestation"]["evidence"],
        json!(["matthews-1964-tsoro-b"])
    );
    assert_eq!(rb["tests"].as_array().unwrap().len(), 4);
    assert_eq!(rb["metrics"]["games"], 30);

    // The same study played here, as `tsoro readings` does.
    let req: ReadingsRequest = serde_json::from_value(body).unwrap();
    let plan = readings::plan_study(&req, 1000).unwrap();
    let local = readings::play(&plan, &SimOptions::default()).unwrap();
    let mut want = Vec::new();
    readings::readings_csv(&mut want, &local).unwrap();
    let r = app.get(&format!("{url}/readings.csv")).await;
    assert_eq!(r.status(), StatusCode::OK);
    let got = r.text().await.unwrap();
    assert_eq!(got, String::from_utf8(want).unwrap());
    assert_eq!(got.lines().count(), 7, "{got}");
    assert!(
        got.lines()
            .nth(2)
            .unwrap()
            .contains("matthews-1964-tsoro-b")
    );
}

#[tokio::test]
async fn a_comparison_of_variants_pairs_each_with_the_first() {
    let app = spawn_app_with_jobs(settings(1, 50)).await;
    let body = json!({"games": 40, "seed": "3", "variants": [
        {"ruleset": "tsoro-matthews-basic"},
        {"ruleset": "tsoro-matthews-basic", "params": {"single_capture": false}},
    ]});
    let r = app.post("/api/v1/comparisons", &body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.headers()["location"].to_str().unwrap().to_string();
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    assert_eq!(v["runs"][1]["params"]["single_capture"], false);
    assert_eq!(v["runs"][0]["params"]["single_capture"], true);
    let d = &v["differences_from_first"][0];
    assert_eq!(d["pairs"], 40);
    // The old form keeps working beside it.
    let r = app
        .post(
            "/api/v1/comparisons",
            &json!({"rulesets": ["tsoro-ludii", "tsoro-ludii-additional-capture"], "games": 4}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn bad_studies_and_variants_name_their_field() {
    let app = spawn_app_with_jobs(settings(1, 50)).await;
    for (body, field) in [
        (
            json!({"ruleset": "tsoro-matthews-basic", "params": ["holes"], "games": 10}),
            "params[0]",
        ),
        (
            json!({"ruleset": "tsoro-matthews-basic", "params": ["layout", "wizardry"], "games": 10}),
            "params[1]",
        ),
        (
            json!({"ruleset": "tsoro-matthews-basic", "params": ["layout"], "agents": "wizard", "games": 10}),
            "agents",
        ),
        (
            json!({"ruleset": "nope", "params": ["layout"], "games": 10}),
            "ruleset",
        ),
    ] {
        let v = problem(app.post("/api/v1/readings", &body).await, 422).await;
        assert_eq!(v["errors"][0]["field"], field, "{body}: {v}");
    }
    let r = app
        .post(
            "/api/v1/readings",
            &json!({"ruleset": "tsoro-matthews-basic", "params": ["layout"], "games": 10, "extra": 1}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let v = problem(
        app.post(
            "/api/v1/comparisons",
            &json!({"games": 10, "variants": [{"ruleset": "tsoro-ludii"},
                {"ruleset": "tsoro-ludii", "params": {"holes": 99}}]}),
        )
        .await,
        422,
    )
    .await;
    assert_eq!(v["errors"][0]["field"], "variants[1].params.holes", "{v}");
    let r = app
        .get("/api/v1/readings/00000000-0000-0000-0000-000000000000")
        .await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
}
