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
    // Score, wins and draws are tested apart, beside length and captures.
    assert_eq!(rb["tests"].as_array().unwrap().len(), 5);
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

/// Runs `frictionless validate` on `dir` (skipped with a notice outside CI when the tool is
/// not installed).
fn validate_package(dir: &std::path::Path) {
    let Some(tool) = crate::jobs::frictionless() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "frictionless not installed: CI runs scripts/frictionless-venv (.ci/run does)"
        );
        eprintln!("frictionless not installed: run scripts/frictionless-venv (as .ci/run does)");
        return;
    };
    let out = std::process::Command::new(&tool)
        .args(["validate", "--json", "datapackage.json"])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", tool.display()));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(report["valid"], true, "{report:#}");
    assert!(out.status.success());
}

/// A study's page shows each reading's metrics with intervals, the readings that differ after
/// Holm, and the command that plays it again; the files saved from its links form a valid
/// Frictionless package whose every field of `readings.csv` is described; and the ruleset's
/// readings page sets each reading's citation beside its consequences as the study measured
/// them (before any study, it says so and offers the form prefilled).
#[tokio::test]
async fn a_study_s_page_its_data_package_and_the_ruleset_s_readings_page() {
    let app = spawn_app_with_jobs(settings(1, 50)).await;
    let page = |path: String| {
        let app = &app;
        async move {
            let r = app.get(&path).await;
            assert_eq!(r.status(), StatusCode::OK, "{path}");
            r.text().await.unwrap()
        }
    };
    let before = page("/rulesets/tsoro-matthews-basic/readings".into()).await;
    assert!(before.contains("id=\"no-study\""), "{before}");
    assert!(
        before.contains("/readings/new?ruleset=tsoro-matthews-basic&#38;param=")
            && before.contains("param=back_capture"),
        "the form, prefilled: {before}"
    );
    // The readings' citations are there before any study: rule (b) read literally.
    assert!(
        before.contains("/evidence/matthews-1964-tsoro-b"),
        "{before}"
    );

    let body = json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture"],
        "agents": "greedy", "games": 40, "seed": "5"});
    let r = app.post("/api/v1/readings", &body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.headers()["location"].to_str().unwrap().to_string();
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    let id = v["id"].as_str().unwrap();
    let cmd = "tsoro readings --ruleset tsoro-matthews-basic --param back_capture --agents \
               greedy,greedy --games 40 --seed 5 --csv readings.csv";
    assert_eq!(v["command"], cmd);
    assert_eq!(v["links"]["page"], format!("/readings/{id}"));

    let html = page(format!("/readings/{id}")).await;
    assert!(html.contains(cmd), "the command: {html}");
    assert_eq!(
        html.matches("class=\"readings-table\"").count(),
        2,
        "{html}"
    );
    assert!(html.contains("back_capture = require_both"), "{html}");
    // The first player's score of each reading with its interval, as the API gives it.
    for p in v["pairings"].as_array().unwrap() {
        for rd in p["readings"].as_array().unwrap() {
            let s = &rd["metrics"]["first_player_score"];
            let cell = format!(
                "{:.1}% ({:.1}–{:.1}%)",
                100.0 * s["value"].as_f64().unwrap(),
                100.0 * s["ci"]["low"].as_f64().unwrap(),
                100.0 * s["ci"]["high"].as_f64().unwrap()
            );
            assert!(html.contains(&cell), "{cell} in the page");
        }
    }
    // Which readings differ after Holm is said, one way or the other, pairing by pairing.
    let differs: Vec<bool> = v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["readings"][1]["differs"].as_bool().unwrap())
        .collect();
    assert_eq!(
        html.matches("No reading differs detectably").count(),
        differs.iter().filter(|d| !**d).count(),
        "{differs:?}"
    );
    assert_eq!(
        html.matches("Readings that differ detectably").count(),
        differs.iter().filter(|d| **d).count(),
        "{differs:?}"
    );

    // The files saved from the page's links form a valid data package.
    let links = crate::jobs::download_links(&html);
    let names: Vec<&str> = links.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["readings.csv", "datapackage.json"], "{html}");
    let dir = tempfile::tempdir().unwrap();
    for (href, name) in &links {
        let r = app.get(href).await;
        assert_eq!(r.status(), StatusCode::OK, "{href}");
        assert_eq!(
            r.headers()["content-disposition"].to_str().unwrap(),
            format!("attachment; filename=\"{name}\"")
        );
        std::fs::write(dir.path().join(name), r.bytes().await.unwrap()).unwrap();
    }
    let dp: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("datapackage.json")).unwrap())
            .unwrap();
    assert_eq!(dp["tsoro"]["command"], cmd);
    assert_eq!(dp["tsoro"]["study"], id);
    assert!(!dp["sources"].as_array().unwrap().is_empty(), "{dp}");
    let csv = std::fs::read_to_string(dir.path().join("readings.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let fields = dp["resources"][0]["schema"]["fields"].as_array().unwrap();
    let described: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(described, header, "every column described, in order");
    assert!(
        fields
            .iter()
            .all(|f| f["description"].as_str().is_some_and(|d| d.len() > 20)),
        "{fields:?}"
    );
    validate_package(dir.path());

    // The ruleset's readings page: each reading's citation beside its consequences.
    let after = page("/rulesets/tsoro-matthews-basic/readings".into()).await;
    assert!(!after.contains("id=\"no-study\""), "{after}");
    assert!(
        after.contains(&format!("href=\"/readings/{id}\"")),
        "{after}"
    );
    let section = after
        .split("id=\"reading-back_capture-require_both\"")
        .nth(1)
        .unwrap()
        .split("</li>\n")
        .next()
        .unwrap()
        .to_string();
    assert!(
        section.contains("/evidence/matthews-1964-tsoro-b"),
        "{section}"
    );
    for p in v["pairings"].as_array().unwrap() {
        let s = &p["readings"][1]["metrics"]["first_player_score"];
        let d = &p["readings"][0]["metrics"]["first_player_score"]["value"];
        let line = format!(
            "Played by {}: mean length ",
            p["agents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(section.contains(&line), "{line} in {section}");
        let fp = format!(
            "first player&#39;s score (a draw counting half) {:.1}% ({:.1}–{:.1}%) against {:.1}%",
            100.0 * s["value"].as_f64().unwrap(),
            100.0 * s["ci"]["low"].as_f64().unwrap(),
            100.0 * s["ci"]["high"].as_f64().unwrap(),
            100.0 * d.as_f64().unwrap()
        );
        assert!(section.contains(&fp), "{fp} in {section}");
    }
    // A parameter the study did not play offers the form for it.
    assert!(
        after.contains("/readings/new?ruleset=tsoro-matthews-basic&#38;param=layout"),
        "{after}"
    );
    // The comparison page of the study's runs says each run has its own parameters.
    let cmp = page(format!("/comparisons/{id}")).await;
    assert!(
        cmp.contains("each run&#39;s own: every choice of back_capture"),
        "{cmp}"
    );
    assert!(cmp.contains(&format!("href=\"/readings/{id}\"")), "{cmp}");

    // The form prefilled, and a study that does not exist.
    let form =
        page("/readings/new?ruleset=tsoro-matthews-basic&param=layout&games=12".into()).await;
    assert!(form.contains("value=\"layout\" checked"), "{form}");
    assert!(form.contains("value=\"12\""), "{form}");
    let r = app
        .get("/readings/00000000-0000-0000-0000-000000000000")
        .await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let r = app
        .get("/api/v1/readings/00000000-0000-0000-0000-000000000000/datapackage.json")
        .await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
}
