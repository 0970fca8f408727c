//! The contract, checked by tools made by others: schemathesis runs every check of its
//! examples, coverage and fuzzing phases against the running service from its OpenAPI
//! document, and a Python client generated from the document (openapi-python-client) reads a
//! ruleset and runs a small simulation.
//!
//! The tools come from `scripts/contract-venv` at the versions `scripts/requirements/` pins
//! (called by `.ci/run`, which sets
//! `TSORO_CONTRACT_TOOLS` to their directory). Outside CI, without them, the test says so and
//! passes; in CI (`CI` or `TSORO_CONTRACT_TOOLS` set) a missing tool fails it.
//!
//! What schemathesis may not flag is configured in `tests/contract/schemathesis.toml`, each
//! with its reason: the statuses with which the service refuses schema-valid requests whose
//! validity depends on data no schema states (a ruleset's parameters, an action's legality,
//! an opaque cursor).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::process::Command;
use tsoro_api::settings::JobSettings;
use tsoro_tests::{TestApp, spawn_app_with_jobs};

/// Test cases per operation in the fuzzing phase (about 2,000 requests in all with the
/// examples and coverage phases; some 20 s on 2 cores).
const MAX_EXAMPLES: &str = "50";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The directory of `schemathesis` and `openapi-python-client`, or `None` (with the reason
/// printed) when they are not installed and this is not CI.
fn tools() -> Option<PathBuf> {
    let given = std::env::var_os("TSORO_CONTRACT_TOOLS").map(PathBuf::from);
    let in_ci = given.is_some() || std::env::var_os("CI").is_some();
    let dir = given.unwrap_or_else(|| workspace().join("target/contract-venv/bin"));
    let present = ["schemathesis", "openapi-python-client", "python"]
        .iter()
        .all(|t| dir.join(t).is_file());
    if present {
        return Some(dir);
    }
    assert!(
        !in_ci,
        "the contract tools are not in {} (scripts/contract-venv installs them)",
        dir.display()
    );
    eprintln!(
        "SKIPPED: schemathesis and openapi-python-client are not installed in {}; \
         run scripts/contract-venv to install them",
        dir.display()
    );
    None
}

/// The app with cheap limits: the jobs schemathesis gets accepted are small, and a few.
async fn app() -> TestApp {
    spawn_app_with_jobs(JobSettings {
        workers: 1,
        threads: 1,
        max_games: 2_000,
        max_active_jobs: 6,
        max_job_cost: 5.0,
        poll: Duration::from_millis(50),
        ..JobSettings::default()
    })
    .await
}

/// Posts `body` to `path` and waits for the job or comparison to end; returns its id.
async fn finished(app: &TestApp, path: &str, body: Value) -> String {
    let r = app.post(path, &body).await;
    assert!(r.status().is_success(), "{path}: {}", r.status());
    let v: Value = r.json().await.expect("JSON");
    let url = v["url"].as_str().expect("its url").to_string();
    let done: Value = app
        .get(&format!("{url}?wait=60"))
        .await
        .json()
        .await
        .expect("JSON");
    assert_eq!(done["status"], "done", "{path}: {done}");
    v["id"].as_str().expect("its id").to_string()
}

async fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().await.expect("start the tool");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_no_failure_with_every_check() {
    let Some(tools) = tools() else { return };
    let app = app().await;
    let job = finished(
        &app,
        "/api/v1/simulations",
        json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "games": 6, "seed": "3"}),
    )
    .await;
    let comparison = finished(
        &app,
        "/api/v1/comparisons",
        json!({"rulesets": ["tsoro-ludii", "tsoro-ludii-additional-capture"], "games": 4}),
    )
    .await;
    let study = finished(
        &app,
        "/api/v1/readings",
        json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture"],
               "agents": "random,random", "games": 4, "seed": "3"}),
    )
    .await;
    let nhodo = finished(
        &app,
        "/api/v1/nhodo",
        json!({"ruleset": "nhodo-matthews", "games": 20, "seed": "3"}),
    )
    .await;
    let tournament = finished(
        &app,
        "/api/v1/tournaments",
        json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "pairs": 1, "seed": "3"}),
    )
    .await;
    // A ladder's own export needs a ladder (any other id is a 404).
    let ladder = finished(
        &app,
        "/api/v1/ladders",
        json!({"ruleset": "tsoro-ludii", "from": 1, "to": 2, "pairs": 1, "seed": "3"}),
    )
    .await;
    let config = workspace().join("tests/contract/schemathesis.toml");
    let (ok, out) = run(Command::new(tools.join("schemathesis"))
        .arg("--config-file")
        .arg(&config)
        .arg("--no-color")
        .arg("run")
        .arg(format!("{}/api-docs/openapi.json", app.address))
        .args(["--checks", "all"])
        .args(["--phases", "examples,coverage,fuzzing"])
        .args(["--max-examples", MAX_EXAMPLES])
        .args(["--seed", "1"])
        // Two workers, with the Hypothesis that scripts/requirements/contract.in pins (below
        // 6.137, whose source-parsing cache fails under two workers on CPython 3.11.7).
        .args(["--workers", "2"])
        .args(["--request-timeout", "30"])
        .env("TSORO_JOB_ID", &job)
        .env("TSORO_COMPARISON_ID", &comparison)
        .env("TSORO_READINGS_ID", &study)
        .env("TSORO_NHODO_ID", &nhodo)
        .env("TSORO_TOURNAMENT_ID", &tournament)
        .env("TSORO_LADDER_ID", &ladder)
        .current_dir(std::env::temp_dir()))
    .await;
    assert!(ok, "schemathesis found failures:\n{out}");
    let count = |label: &str| {
        out.lines()
            .find_map(|l| l.trim().strip_prefix(label))
            .map(|v| v.trim().rsplit('/').next().unwrap_or("").to_string())
    };
    let selected = count("Selected:").expect("the summary's Selected line");
    assert_eq!(
        count("Tested:").as_deref(),
        Some(selected.as_str()),
        "every operation tested:\n{out}"
    );
    assert!(
        !out.contains("Missing test data"),
        "every read reached a real record:\n{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_python_client_reads_the_archive_and_runs_a_simulation() {
    let Some(tools) = tools() else { return };
    let app = app().await;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (ok, out) = run(Command::new(tools.join("openapi-python-client"))
        .arg("generate")
        .arg("--path")
        .arg(workspace().join("openapi/openapi.json"))
        .arg("--output-path")
        .arg(dir.path().join("tsoro_client"))
        .args(["--meta", "none"])
        .arg("--config")
        .arg(workspace().join("tests/contract/openapi-python-client.yaml")))
    .await;
    assert!(ok, "openapi-python-client failed:\n{out}");
    assert!(
        !out.contains("WARNING"),
        "the generator understood every operation:\n{out}"
    );
    let (ok, out) = run(Command::new(tools.join("python"))
        .arg(workspace().join("tests/contract/client_check.py"))
        .arg(dir.path())
        .arg(&app.address))
    .await;
    assert!(ok, "the generated client failed:\n{out}");
    let seen: Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(seen["status"], "done", "{seen}");
    assert_eq!(seen["seed"], "7", "{seen}");
    assert_eq!(seen["games"], 6, "{seen}");
}
