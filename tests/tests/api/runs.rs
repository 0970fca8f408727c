//! Every kind of run findable again and managed as one (issue 44, items 3 to 5; issue 49,
//! item 8): `GET /api/v1/{kind}` lists with the same filters and cursor for every kind, the
//! `/runs` index, a readings study or comparison cancelled and counted as one job, and every
//! export saved under the name its data package gives it.

use crate::helpers::problem;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::time::Duration;
use tsoro_api::settings::JobSettings;
use tsoro_tests::{TestApp, spawn_app_with_jobs};

fn settings(workers: usize) -> JobSettings {
    JobSettings {
        workers,
        chunk_games: 20,
        lease: Duration::from_secs(2),
        poll: Duration::from_millis(50),
        threads: 1,
        ..JobSettings::default()
    }
}

/// Posts `body` to `path`: 202, and the `Location` of what was queued.
async fn queued(app: &TestApp, path: &str, body: Value) -> String {
    let r = app.post(path, &body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED, "{path}");
    r.headers()["location"].to_str().unwrap().to_string()
}

async fn list(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    r.json().await.unwrap()
}

fn urls(v: &Value) -> Vec<String> {
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["url"].as_str().unwrap().to_string())
        .collect()
}

async fn wait_ended(app: &TestApp, url: &str) -> Value {
    for _ in 0..30 {
        let v: Value = app
            .get(&format!("{url}?wait=10"))
            .await
            .json()
            .await
            .unwrap();
        if ["done", "failed", "cancelled"].contains(&v["status"].as_str().unwrap()) {
            return v;
        }
    }
    panic!("{url} did not end");
}

#[tokio::test]
async fn every_kind_is_listed_with_the_same_filters_and_cursor() {
    // No worker: everything stays queued, so the lists are what was posted.
    let app = spawn_app_with_jobs(settings(0)).await;
    let mut sims = vec![];
    for seed in ["1", "2", "3"] {
        let body = json!({"ruleset": "tsoro-ludii", "games": 10, "seed": seed});
        sims.push(queued(&app, "/api/v1/simulations", body).await);
    }
    let other = queued(
        &app,
        "/api/v1/simulations",
        json!({"ruleset": "tsoro-russ", "games": 10}),
    )
    .await;
    let tournament = queued(
        &app,
        "/api/v1/tournaments",
        json!({"ruleset": "tsoro-ludii", "agents": ["random", "greedy"], "pairs": 2}),
    )
    .await;
    let ladder = queued(
        &app,
        "/api/v1/ladders",
        json!({"ruleset": "tsoro-ludii", "from": 2, "to": 4, "pairs": 2}),
    )
    .await;
    let nhodo = queued(
        &app,
        "/api/v1/nhodo",
        json!({"ruleset": "nhodo-matthews", "games": 10}),
    )
    .await;
    let comparison = queued(
        &app,
        "/api/v1/comparisons",
        json!({"rulesets": ["tsoro-ludii", "tsoro-russ"], "games": 10}),
    )
    .await;
    let study = queued(
        &app,
        "/api/v1/readings",
        json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture"], "games": 10}),
    )
    .await;

    // Each kind's list holds its own, newest first.
    let t = list(&app, "/api/v1/tournaments").await;
    assert_eq!(urls(&t), [ladder.clone(), tournament.clone()]);
    assert_eq!(t["next"], Value::Null);
    assert_eq!(urls(&list(&app, "/api/v1/ladders").await), [ladder.clone()]);
    assert_eq!(urls(&list(&app, "/api/v1/nhodo").await), [nhodo.clone()]);
    let c = list(&app, "/api/v1/comparisons").await;
    assert_eq!(urls(&c), [comparison.clone()]);
    assert_eq!(c["items"][0]["runs"], 2);
    assert_eq!(
        c["items"][0]["rulesets"],
        json!(["tsoro-ludii", "tsoro-russ"])
    );
    assert_eq!(c["items"][0]["status"], "queued");
    let r = list(&app, "/api/v1/readings").await;
    assert_eq!(urls(&r), [study.clone()]);
    assert!(r["items"][0]["runs"].as_i64().unwrap() > 1, "{r}");

    // The same filters everywhere: ruleset, status.
    let by_ruleset = list(&app, "/api/v1/comparisons?ruleset=tsoro-russ").await;
    assert_eq!(urls(&by_ruleset), [comparison.clone()]);
    let none = list(&app, "/api/v1/comparisons?ruleset=tsoro-matthews-v7").await;
    assert!(urls(&none).is_empty());
    for path in [
        "/api/v1/tournaments",
        "/api/v1/ladders",
        "/api/v1/nhodo",
        "/api/v1/comparisons",
        "/api/v1/readings",
    ] {
        let done = list(&app, &format!("{path}?status=done")).await;
        assert!(urls(&done).is_empty(), "{path}");
        let p = problem(app.get(&format!("{path}?status=finished")).await, 400).await;
        assert!(p.to_string().contains("status"), "{p}");
        let p = problem(app.get(&format!("{path}?after=nonsense")).await, 400).await;
        assert!(p.to_string().contains("after"), "{p}");
    }

    // The cursor walks a list page by page, each item once, newest first.
    let mut seen = vec![];
    let mut path = "/api/v1/simulations?ruleset=tsoro-ludii&limit=2".to_string();
    loop {
        let page = list(&app, &path).await;
        assert!(page["items"].as_array().unwrap().len() <= 2);
        seen.extend(urls(&page));
        match page["next"].as_str() {
            Some(next) => {
                path = format!("/api/v1/simulations?ruleset=tsoro-ludii&limit=2&after={next}")
            }
            None => break,
        }
    }
    let unique: HashSet<&String> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "{seen:?}");
    for s in &sims {
        assert!(seen.contains(s), "{s} not in {seen:?}");
    }
    assert!(!seen.contains(&other));
    let newest_first: Vec<&String> = sims.iter().rev().collect();
    let listed: Vec<&String> = seen.iter().filter(|u| sims.contains(*u)).collect();
    assert_eq!(listed, newest_first);

    // The index shows every kind, links each to its page, and filters by kind.
    let page = app.get("/runs").await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(
        html.contains(r#"<a href="/runs">Runs</a>"#),
        "the site's navigation"
    );
    let id = |url: &str| url.rsplit('/').next().unwrap().to_string();
    for (url, page) in [
        (&tournament, "/tournaments/"),
        (&ladder, "/tournaments/"),
        (&nhodo, "/nhodo/"),
        (&comparison, "/comparisons/"),
        (&study, "/readings/"),
        (&other, "/simulations/"),
    ] {
        let href = format!("{page}{}", id(url.as_str()));
        assert!(html.contains(&href), "{href} not on /runs");
    }
    // A comparison's runs are shown through it, not one by one.
    let runs: Value = app.get(&comparison).await.json().await.unwrap();
    let run = runs["runs"][0]["id"].as_str().unwrap();
    assert!(!html.contains(&format!("/simulations/{run}")));
    let only = app
        .get("/runs?kind=readings&status=queued&ruleset=tsoro-matthews-basic")
        .await
        .text()
        .await
        .unwrap();
    assert!(only.contains(&format!("/readings/{}", id(study.as_str()))));
    assert!(!only.contains(&format!("/nhodo/{}", id(nhodo.as_str()))));
    let none = app
        .get("/runs?kind=ladder&owner=nobody")
        .await
        .text()
        .await
        .unwrap();
    assert!(none.contains("No run matches these filters"));
    assert_eq!(
        app.get("/runs?kind=galaxy").await.status(),
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_readings_study_is_one_job_one_cancel_one_quota_entry() {
    let mut s = settings(0);
    s.max_owner_jobs = 1;
    let app = spawn_app_with_jobs(s).await;
    // Its runs are many, its entry one: admitted within a quota of one job.
    let body = json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture", "layout"],
        "agents": "greedy", "games": 10});
    let study = queued(&app, "/api/v1/readings", body).await;
    let v: Value = app.get(&study).await.json().await.unwrap();
    let runs = v["runs"]["runs"].as_array().unwrap().len();
    assert!(runs > 1, "{v}");
    assert!(v["estimate"]["core_seconds"].as_f64().unwrap() > 0.0);
    // The quota's one place is taken by the study.
    let p = problem(
        app.post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "games": 10}),
        )
        .await,
        429,
    )
    .await;
    assert_eq!(p["outstanding_jobs"], 1, "{p}");

    // One DELETE cancels every run.
    let r = app.delete(&study).await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["status"], "cancelled", "{v}");
    for run in v["runs"]["runs"].as_array().unwrap() {
        assert_eq!(run["status"], "cancelled", "{run}");
    }
    // Already ended: 409; its place given back.
    problem(app.delete(&study).await, 409).await;
    let sim = queued(
        &app,
        "/api/v1/simulations",
        json!({"ruleset": "tsoro-ludii", "games": 10}),
    )
    .await;
    assert_eq!(app.delete(&sim).await.status(), StatusCode::OK);

    // A comparison likewise: one entry, one cancel.
    let comparison = queued(
        &app,
        "/api/v1/comparisons",
        json!({"rulesets": ["tsoro-ludii", "tsoro-russ", "tsoro-matthews-basic"], "games": 10}),
    )
    .await;
    let v: Value = app.delete(&comparison).await.json().await.unwrap();
    assert_eq!(v["status"], "cancelled", "{v}");
    assert_eq!(v["runs"].as_array().unwrap().len(), 3);

    // Purged: gone with its runs; another kind's id is not a study.
    let r = app.delete(&format!("{study}?purge=true")).await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["deleted"], true);
    assert_eq!(v["status_before"], "cancelled");
    problem(app.get(&study).await, 404).await;
    problem(app.delete(&study).await, 404).await;
    let id = comparison.rsplit('/').next().unwrap();
    problem(app.delete(&format!("/api/v1/readings/{id}")).await, 404).await;
    let gone: i64 = sqlx::query_scalar("SELECT count(*) FROM simulation_jobs WHERE comparison_id IS NOT NULL AND comparison_id NOT IN (SELECT id FROM comparisons)")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(gone, 0);
}

/// The file names a data package gives its resources.
fn package_paths(package: &Value) -> Vec<String> {
    package["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect()
}

async fn saved_as(app: &TestApp, url: &str) -> String {
    let r = app.get(url).await;
    assert_eq!(r.status(), StatusCode::OK, "{url}");
    let d = r.headers()["content-disposition"].to_str().unwrap();
    d.strip_prefix("attachment; filename=\"")
        .and_then(|d| d.strip_suffix('"'))
        .unwrap_or_else(|| panic!("{url}: {d}"))
        .to_string()
}

#[tokio::test]
async fn every_export_downloads_under_its_data_package_s_name() {
    let app = spawn_app_with_jobs(settings(1)).await;
    let tournament = queued(
        &app,
        "/api/v1/ladders",
        json!({"ruleset": "tsoro-ludii", "from": 2, "to": 4, "pairs": 2}),
    )
    .await;
    let comparison = queued(
        &app,
        "/api/v1/comparisons",
        json!({"rulesets": ["tsoro-ludii", "tsoro-russ"], "games": 10}),
    )
    .await;
    assert_eq!(wait_ended(&app, &tournament).await["status"], "done");
    assert_eq!(wait_ended(&app, &comparison).await["status"], "done");

    let package: Value = app
        .get(&format!("{tournament}/datapackage.json"))
        .await
        .json()
        .await
        .unwrap();
    let paths = package_paths(&package);
    assert_eq!(paths, ["games.csv", "ratings.csv", "ladder.csv"]);
    for p in &paths {
        assert_eq!(&saved_as(&app, &format!("{tournament}/{p}")).await, p);
    }
    assert_eq!(
        saved_as(&app, &format!("{tournament}/datapackage.json")).await,
        "datapackage.json"
    );
    assert_eq!(
        saved_as(&app, &format!("{comparison}/table.csv")).await,
        "table.csv"
    );
    let v: Value = app.get(&comparison).await.json().await.unwrap();
    let run = v["runs"][0]["url"].as_str().unwrap();
    assert_eq!(
        saved_as(&app, &format!("{run}/games.json")).await,
        "games.json"
    );
}

/// Issue 49 item 8: "Start one" on a ruleset's readings page (the form prefilled with every
/// parameter that has readings) is admitted within the default quotas, as one job.
#[tokio::test]
async fn the_readings_page_s_default_study_fits_the_default_quota() {
    let app = spawn_app_with_jobs(JobSettings {
        workers: 0,
        ..JobSettings::default()
    })
    .await;
    let html = app
        .get("/rulesets/tsoro-matthews-basic/readings")
        .await
        .text()
        .await
        .unwrap();
    let start = html.find(r#"id="no-study""#).expect("no study yet");
    let href = &html[start..];
    let href = &href[href.find("href=\"").unwrap() + 6..];
    let href = href[..href.find('"').unwrap()].replace("&amp;", "&");
    let query = href.split_once('?').unwrap().1;
    let (mut params, mut body) = (vec![], json!({}));
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap();
        let v = v.replace("%2C", ",").replace("%3A", ":");
        match k {
            "param" => params.push(Value::from(v)),
            "games" => body["games"] = v.parse::<u64>().unwrap().into(),
            _ => body[k] = Value::from(v),
        }
    }
    assert!(params.len() > 1, "{href}");
    body["params"] = params.into();
    let r = app.post("/api/v1/readings", &body).await;
    let status = r.status();
    let v: Value = r.json().await.unwrap();
    assert_eq!(status, StatusCode::ACCEPTED, "{body}: {v}");
    assert!(
        v["runs"]["runs"].as_array().unwrap().len() as i64 > JobSettings::default().max_owner_jobs,
        "more runs than the quota's jobs, admitted as one: {v}"
    );
}
