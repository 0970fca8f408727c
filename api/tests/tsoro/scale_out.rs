//! Scaling out is two commands (issue 20, item 9): `tsoro serve` on one shared PostgreSQL
//! (`DATABASE_URL`) and `tsoro worker` with the same URL wherever it runs; or, on the
//! service's machine, `tsoro worker --data-dir DIR` joining the embedded server of the
//! service's data directory. Either way two worker processes share one job, and its records
//! are exactly those of `tsoro simulate`.

use crate::helpers::*;
use serde_json::{Value, json};
use std::io::BufRead;
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Small chunks (4 games each, ten in the job), so both workers get some.
const JOB_FLAGS: [&str; 6] = [
    "--chunk-games",
    "4",
    "--lease-secs",
    "5",
    "--worker-threads",
    "1",
];
const AGENTS: &str = "mcts:300,random";
const GAMES: u64 = 40;
const SEED: u64 = 21;

/// Starts `tsoro worker` with these arguments and environment; waits until it has started
/// (its log says so) and returns it with its pid.
fn worker(args: &[&str], env: &[(&str, &str)]) -> (Reaped, u32) {
    let mut cmd = tsoro();
    cmd.arg("worker")
        .args(args)
        .args(JOB_FLAGS)
        .args(["--workers", "1"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.stdout(Stdio::null()).spawn().unwrap();
    let pid = child.id();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if line.contains("worker started") {
                let _ = tx.send(());
            }
        }
    });
    let child = Reaped(child);
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("tsoro worker {args:?} did not start"));
    (child, pid)
}

/// Waits, with the storing held back, until each worker process owns a chunk; then lets the
/// storing go on. The job plays in a fraction of the workers' 200 ms idle poll, so without the
/// gate the first worker to wake could play every chunk before the other looks; with it, a
/// worker keeps at most two chunks (one storing, one played and waiting to store) and the
/// job's other six wait for the second worker, however fast the machine.
async fn open_when_both_claimed(mut gate: StoreGate, workers: [u32; 2]) {
    let start = Instant::now();
    loop {
        let owners = lease_owners(gate.conn()).await;
        if workers.iter().all(|&pid| played_by(&owners, pid)) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "both workers did not claim a chunk of the job: {owners:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    gate.open().await;
}

/// Who claimed the chunks cut so far.
async fn lease_owners(db: &mut sqlx::PgConnection) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT DISTINCT lease_owner FROM simulation_chunks WHERE lease_owner IS NOT NULL",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

/// Whether the worker process `pid` is among these owners.
fn played_by(owners: &[String], pid: u32) -> bool {
    owners
        .iter()
        .any(|o| o.starts_with("worker@") && o.contains(&format!(":{pid}:")))
}

/// Posts the job to the service, waits for it, and checks it against `tsoro simulate` and
/// that both worker processes (and nothing else) played it.
async fn run_shared_job(s: &Served, db: &str, workers: [u32; 2], scratch: &Path) {
    let client = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{}", s.port);
    let gate = StoreGate::shut(db).await;
    let r = client
        .post(format!("{base}/api/v1/simulations"))
        .json(&json!({"ruleset": "tsoro-matthews-basic", "agents": AGENTS, "games": GAMES, "seed": SEED}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 202);
    let url = format!("{base}{}", r.headers()["location"].to_str().unwrap());
    open_when_both_claimed(gate, workers).await;
    let start = Instant::now();
    loop {
        let v: Value = client
            .get(format!("{url}?wait=20"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if v["status"] == "done" {
            break;
        }
        assert!(
            ["queued", "running"].contains(&v["status"].as_str().unwrap()),
            "{v}"
        );
        assert!(start.elapsed() < Duration::from_secs(180), "not done: {v}");
    }
    let games_csv = client
        .get(format!("{url}/games.csv"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();

    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(db)
        .await
        .unwrap();
    let owners = lease_owners(&mut conn).await;
    for pid in workers {
        assert!(
            played_by(&owners, pid),
            "worker {pid} played no chunk: {owners:?}"
        );
    }
    assert!(
        owners.iter().all(|o| o.starts_with("worker@")),
        "only the worker processes played (serve --workers 0): {owners:?}"
    );

    let file = scratch.join("simulate.csv");
    let games = GAMES.to_string();
    let seed = SEED.to_string();
    let local = simulate_csv(
        &[
            "--ruleset",
            "tsoro-matthews-basic",
            "--agents",
            AGENTS,
            "--games",
            &games,
            "--seed",
            &seed,
        ],
        &file,
    );
    assert_eq!(games_csv.lines().count(), GAMES as usize + 1);
    assert!(
        games_csv == local,
        "the job's games.csv is `tsoro simulate --csv`, byte for byte"
    );
}

/// One shared PostgreSQL (here a server of its own, as a managed one would be): the service
/// and two workers are given only its URL.
#[tokio::test]
async fn two_workers_join_a_service_through_its_shared_postgresql() {
    let scratch = data_dir("tsoro-shared-");
    let mut server = tsoro_pg::EmbeddedPg::new(scratch.join("pg")).unwrap();
    server.start().unwrap();
    // The URL's role owns its database and nothing else: not a superuser, no right to create
    // databases, not even to connect to `postgres` (as on a managed server).
    let url = server.url(tsoro_pg::DB_NAME);
    let admin = sqlx::PgPool::connect(&server.admin_url("postgres"))
        .await
        .unwrap();
    sqlx::query("REVOKE CONNECT ON DATABASE postgres FROM PUBLIC")
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;

    let port = free_port();
    let mut s = Served {
        child: tsoro()
            .args([
                "serve",
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--workers",
                "0",
            ])
            .args(JOB_FLAGS)
            .env("DATABASE_URL", &url)
            .env("TSORO_DATA_DIR", scratch.join("unused"))
            .spawn()
            .unwrap(),
        port,
    };
    wait_ready(&mut s).await;
    let (_a, pa) = worker(&[], &[("DATABASE_URL", &url)]);
    let (_b, pb) = worker(&["--database-url", &url], &[]);
    run_shared_job(&s, &url, [pa, pb], &scratch).await;
    assert!(
        !scratch.join("unused").exists(),
        "with DATABASE_URL, no embedded server"
    );
    terminate(&mut s);
    drop((_a, _b));
    server.stop().unwrap();
    let _ = std::fs::remove_dir_all(&scratch);
}

/// On the service's machine, a worker finds the embedded server of its data directory.
#[tokio::test]
async fn two_workers_join_a_local_service_through_its_data_directory() {
    let dir = data_dir("tsoro-local-");
    let mut s = serve_with(&dir, &[&JOB_FLAGS[..], &["--workers", "0"]].concat());
    wait_ready(&mut s).await;
    let d = dir.to_str().unwrap();
    let (_a, pa) = worker(&["--data-dir", d], &[]);
    let (_b, pb) = worker(&[], &[("TSORO_DATA_DIR", d)]);
    run_shared_job(&s, &db_url(&dir), [pa, pb], &dir).await;
    drop((_a, _b));
    terminate(&mut s);
    assert!(postgres_processes(&dir).is_empty());

    // Without a service on it, a data directory has no server to join: a clear error.
    let empty = data_dir("tsoro-noservice-");
    let out = tsoro()
        .args(["worker", "--data-dir", empty.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tsoro serve") && err.contains("DATABASE_URL"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&empty);
    let _ = std::fs::remove_dir_all(&dir);
}
