//! Nhodo runs as jobs (`/api/v1/nhodo`): a run played in chunks by several workers exports
//! exactly what `tsoro simulate` writes for the same ruleset, parameters, games and seed; the
//! 202 carries the estimate and the queue position; bad input names its field.

use super::jobs::{settings, wait_done};
use clap::Parser;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tsoro_tests::spawn_app_with_jobs;

/// What the `tsoro` CLI writes (`--csv`, `--summary`) for these arguments, run in this
/// process through the same entry point as the binary.
fn cli_files(args: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let (games, summary) = (dir.path().join("games.csv"), dir.path().join("summary.csv"));
    let mut argv = vec!["tsoro", "simulate"];
    argv.extend_from_slice(args);
    let (g, s) = (games.to_str().unwrap(), summary.to_str().unwrap());
    argv.extend_from_slice(&["--csv", g, "--summary", s]);
    let cli = tsoro_api::cli::Cli::try_parse_from(argv).unwrap();
    let tsoro_api::cli::Command::Simulate(a) = cli.command else {
        panic!("not a simulate command")
    };
    let code = tsoro_api::commands::simulate::run_simulate(&a);
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    (
        std::fs::read(games).unwrap(),
        std::fs::read(summary).unwrap(),
    )
}

/// Played in chunks of 150 games by two workers of two threads, a nhodo run's games.csv and
/// summary.csv are byte for byte the CLI's on one thread; its statistics are the engine's,
/// with intervals; its page shows them.
#[tokio::test]
async fn a_nhodo_run_over_http_exports_what_the_cli_writes() {
    let app = spawn_app_with_jobs(settings(2, 150)).await;
    let body = json!({"ruleset": "nhodo-matthews", "params": {"players": 3, "skill": 80},
                      "games": 1000, "seed": "12345"});
    let r = app.post("/api/v1/nhodo", &body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let location = r.headers()["location"].to_str().unwrap().to_string();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["url"], location.as_str());
    assert!(v["queue_position"].as_i64().is_some(), "{v}");
    assert!(v["estimate"]["core_seconds"].as_f64().unwrap() > 0.0, "{v}");
    let v = wait_done(&app, &location).await;
    assert_eq!(v["status"], "done", "{v}");
    assert_eq!(v["progress"]["games_done"], 1000);
    let wins = v["stats"]["wins"].as_array().unwrap();
    assert_eq!(wins.len(), 3, "one rate per seat: {v}");
    for w in wins {
        let (lo, rate, hi) = (
            w["ci"]["low"].as_f64().unwrap(),
            w["rate"].as_f64().unwrap(),
            w["ci"]["high"].as_f64().unwrap(),
        );
        assert!(lo <= rate && rate <= hi && lo < hi, "an interval: {w}");
    }
    let games = app
        .get(&format!("{location}/games.csv"))
        .await
        .bytes()
        .await
        .unwrap();
    let summary = app
        .get(&format!("{location}/summary.csv"))
        .await
        .bytes()
        .await
        .unwrap();
    let (cli_games, cli_summary) = cli_files(&[
        "--ruleset",
        "nhodo-matthews",
        "--games",
        "1000",
        "--seed",
        "12345",
        "--param",
        "players=3",
        "--param",
        "skill=80",
        "--threads",
        "1",
    ]);
    assert_eq!(cli_games.len(), games.len());
    assert!(cli_games == games, "games.csv differs from the CLI's");
    assert_eq!(
        String::from_utf8(cli_summary).unwrap(),
        String::from_utf8(summary.to_vec()).unwrap()
    );
    // The command the run shows is the one that wrote those files.
    let command = v["command"].as_str().unwrap();
    assert!(
        command.contains("--ruleset nhodo-matthews --games 1000 --seed 12345"),
        "{command}"
    );
    // The package describes both files under the names they are saved as.
    let pkg: Value = app
        .get(&format!("{location}/datapackage.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(pkg["resources"][0]["path"], "games.csv");
    assert_eq!(pkg["resources"][1]["path"], "summary.csv");
    let fields: Vec<&str> = pkg["resources"][0]["schema"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    let header =
        String::from_utf8(games[..games.iter().position(|&b| b == b'\n').unwrap()].to_vec())
            .unwrap();
    assert_eq!(fields.join(","), header);
    // The page shows the results with their intervals.
    let id = v["id"].as_str().unwrap();
    let html = app.get(&format!("/nhodo/{id}")).await.text().await.unwrap();
    assert!(html.contains("Seat 1 (the first to throw) won"), "{html}");
    assert!(html.contains("95% interval"));
    // A nhodo run is not a simulation, nor a simulation a nhodo run.
    assert_eq!(
        app.get(&format!("/api/v1/simulations/{id}")).await.status(),
        StatusCode::NOT_FOUND
    );
}

/// A bad nhodo request names its field; a ruleset with players is sent to the simulations.
#[tokio::test]
async fn a_bad_nhodo_request_names_its_field() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    for (body, field) in [
        (
            json!({"ruleset": "nhodo-matthews", "games": 10, "params": {"players": 9}}),
            "params.players",
        ),
        (json!({"ruleset": "tsoro-ludii", "games": 10}), "ruleset"),
        (json!({"ruleset": "nhodo-matthews", "games": 0}), "games"),
    ] {
        let r = app.post("/api/v1/nhodo", &body).await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let p: Value = r.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], field, "{p}");
    }
}
