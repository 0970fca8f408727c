//! Simulation jobs across real processes: a `tsoro worker` killed (SIGKILL) in the middle of a
//! chunk, whose chunk is claimed again when its lease runs out; the service stopped (SIGTERM)
//! in the middle of the job and started again, resuming it; and the finished job's records
//! exactly those of `tsoro simulate --csv` with the same inputs.

use crate::helpers::*;
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Flags that make chunks small and leases short, so the test sees both happen.
const JOB_FLAGS: [&str; 6] = [
    "--chunk-games",
    "8", // 8 games a chunk
    "--lease-secs",
    "2",
    "--worker-threads",
    "1",
];
const GAMES: u64 = 48;
/// A searching agent slow enough that the job is still running when the service is stopped
/// (whether the killed worker holds a chunk does not depend on it: see the store gate).
const AGENTS: &str = "mcts:15000,random";

async fn job(client: &reqwest::Client, port: u16, url: &str) -> Value {
    client
        .get(format!("http://127.0.0.1:{port}{url}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Chunks of the job as (index, status, lease owner, attempts).
async fn chunks(pool: &sqlx::PgPool) -> Vec<(i32, String, Option<String>, i32)> {
    sqlx::query_as("SELECT idx, status, lease_owner, attempts FROM simulation_chunks ORDER BY idx")
        .fetch_all(pool)
        .await
        .unwrap()
}

fn csv_rows(text: &str) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().clone();
    (header, r.records().map(|x| x.unwrap()).collect())
}

#[tokio::test]
async fn a_killed_worker_and_a_restarted_service_still_give_the_records_of_tsoro_simulate() {
    let dir = data_dir("tsoro-jobs-");
    let client = reqwest::Client::new();

    // The service plays with one worker loop; a `tsoro worker` process joins it.
    let mut service = serve_with(&dir, &[&JOB_FLAGS[..], &["--workers", "1"]].concat());
    wait_ready(&mut service).await;
    // Chunks played are not stored until the worker is dead, so that it dies holding one
    // however fast its games play.
    let gate = StoreGate::shut(&db_url(&dir)).await;
    let created = client
        .post(format!(
            "http://127.0.0.1:{}/api/v1/simulations",
            service.port
        ))
        .json(&json!({"ruleset": "tsoro-matthews-basic", "agents": AGENTS, "games": GAMES, "seed": 11}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 202);
    let url = job(&client, service.port, "/api/v1/simulations")
        .await
        .pointer("/items/0/url")
        .and_then(Value::as_str)
        .map(str::to_string)
        .expect("the job is listed");

    let pool = sqlx::PgPool::connect(&db_url(&dir)).await.unwrap();
    let worker = Reaped(
        tsoro()
            .args(["worker", "--database-url", &db_url(&dir), "--workers", "1"])
            .args(JOB_FLAGS)
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );

    // Kill the worker while it holds a chunk it has not finished.
    let start = Instant::now();
    let killed = loop {
        let held = chunks(&pool)
            .await
            .into_iter()
            .find(|(_, status, owner, _)| {
                status == "running" && owner.as_deref().is_some_and(|o| o.starts_with("worker@"))
            });
        if let Some(c) = held {
            tokio::time::sleep(Duration::from_millis(300)).await;
            drop(worker); // SIGKILL: no chance to release the chunk
            break c.0;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the worker claimed no chunk"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let after_kill = chunks(&pool).await;
    let dead = &after_kill[killed as usize];
    assert_eq!(dead.1, "running", "the dead worker's chunk is still leased");
    assert!(dead.2.as_deref().unwrap().starts_with("worker@"));
    gate.open().await;

    // Stop the service in the middle of the job.
    let start = Instant::now();
    loop {
        let j = job(&client, service.port, &url).await;
        let done = j["progress"]["games_done"].as_u64().unwrap();
        if done >= 8 {
            assert!(done < GAMES, "the job ended before the restart: {j}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no progress: {j}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    pool.close().await;
    terminate(&mut service);

    // Started again, the service resumes the job and finishes it.
    let mut service = serve_with(&dir, &[&JOB_FLAGS[..], &["--workers", "1"]].concat());
    wait_ready(&mut service).await;
    let start = Instant::now();
    let finished = loop {
        let j = job(&client, service.port, &format!("{url}?wait=30")).await;
        if j["status"] == "done" {
            break j;
        }
        assert_eq!(j["status"], "running", "{j}");
        assert!(start.elapsed() < Duration::from_secs(240), "not done: {j}");
    };
    assert_eq!(finished["progress"]["games_done"], json!(GAMES));
    let pool = sqlx::PgPool::connect(&db_url(&dir)).await.unwrap();
    let after = chunks(&pool).await;
    assert!(after.iter().all(|c| c.1 == "done"), "{after:?}");
    assert!(
        after[killed as usize].3 >= 2,
        "the killed worker's chunk was claimed again: {after:?}"
    );
    assert!(
        !after[killed as usize]
            .2
            .as_deref()
            .is_some_and(|o| o.starts_with("worker@")),
        "another worker finished it: {after:?}"
    );
    pool.close().await;

    let games_csv = client
        .get(format!("http://127.0.0.1:{}{url}/games.csv", service.port))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    terminate(&mut service);

    // The same inputs through `tsoro simulate`, on two threads.
    let file = dir.join("simulate.csv");
    let games = GAMES.to_string();
    let local_csv = simulate_csv(
        &[
            "--ruleset",
            "tsoro-matthews-basic",
            "--agents",
            AGENTS,
            "--games",
            &games,
            "--seed",
            "11",
            "--threads",
            "2",
        ],
        &file,
    );
    let (h1, served) = csv_rows(&games_csv);
    let (h2, local) = csv_rows(&local_csv);
    assert_eq!(h1, h2, "the same columns");
    assert_eq!(served.len(), GAMES as usize);
    assert_eq!(served, local, "the same records, game by game");
    assert!(games_csv == local_csv, "and byte for byte the same file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The service and its PostgreSQL killed together (SIGKILL) in the middle of a job: started
/// again, the service resumes the job, and its records are byte for byte those of `tsoro
/// simulate --csv` with the same inputs. A trigger holds back the storing of every chunk after
/// the first two, so the kill comes with two chunks stored and one played but not stored,
/// however fast the games play.
#[tokio::test]
async fn a_service_killed_mid_job_resumes_with_the_records_of_tsoro_simulate() {
    use sqlx::Connection;
    let dir = data_dir("tsoro-sigkill-");
    let client = reqwest::Client::new();
    let flags = [&JOB_FLAGS[..], &["--workers", "1"]].concat();
    let mut service = serve_with(&dir, &flags);
    wait_ready(&mut service).await;

    let mut gate = sqlx::PgConnection::connect(&db_url(&dir)).await.unwrap();
    sqlx::raw_sql(
        "CREATE FUNCTION test_kill_gate() RETURNS trigger LANGUAGE plpgsql AS \
         $$ BEGIN PERFORM pg_advisory_xact_lock_shared(75020002); RETURN NEW; END $$; \
         CREATE TRIGGER test_kill_gate BEFORE UPDATE ON simulation_chunks \
         FOR EACH ROW WHEN (NEW.status = 'done' AND NEW.idx >= 2) \
         EXECUTE FUNCTION test_kill_gate(); \
         SELECT pg_advisory_lock(75020002);",
    )
    .execute(&mut gate)
    .await
    .unwrap();

    let created = client
        .post(format!(
            "http://127.0.0.1:{}/api/v1/simulations",
            service.port
        ))
        .json(
            &json!({"ruleset": "tsoro-matthews-basic", "agents": "greedy,random",
            "games": GAMES, "seed": 5}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 202);
    let url = created.json::<Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();

    // Wait for chunks 0 and 1 stored, and chunk 2 played and waiting to store.
    let start = Instant::now();
    loop {
        let rows: Vec<(i32, String)> =
            sqlx::query_as("SELECT idx, status FROM simulation_chunks ORDER BY idx")
                .fetch_all(&mut gate)
                .await
                .unwrap();
        let waiting: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' \
             AND objid = 75020002 AND NOT granted)",
        )
        .fetch_one(&mut gate)
        .await
        .unwrap();
        let stored = rows.iter().filter(|r| r.1 == "done").count();
        if stored == 2 && waiting {
            assert!(rows.iter().all(|r| r.0 < 2 || r.1 != "done"), "{rows:?}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "chunks: {rows:?}, waiting: {waiting}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // SIGKILL the service and its PostgreSQL together: nothing gets to clean up.
    let postmasters = postgres_processes(&dir);
    assert!(!postmasters.is_empty());
    service.child.kill().unwrap();
    let _ = service.child.wait();
    for pid in postmasters {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    drop(gate);
    let start = Instant::now();
    while !postgres_processes(&dir).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "PostgreSQL lingers"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Started again, it resumes the job (the trigger stays, but nothing holds its lock).
    let mut service = serve_with(&dir, &flags);
    wait_ready(&mut service).await;
    let start = Instant::now();
    let finished = loop {
        let j = job(&client, service.port, &format!("{url}?wait=30")).await;
        if j["status"] == "done" {
            break j;
        }
        assert!(
            matches!(j["status"].as_str(), Some("running" | "queued")),
            "{j}"
        );
        assert!(start.elapsed() < Duration::from_secs(240), "not done: {j}");
    };
    assert_eq!(finished["progress"]["games_done"], json!(GAMES));
    let games_csv = client
        .get(format!("http://127.0.0.1:{}{url}/games.csv", service.port))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    terminate(&mut service);

    let games = GAMES.to_string();
    let local_csv = simulate_csv(
        &[
            "--ruleset",
            "tsoro-matthews-basic",
            "--agents",
            "greedy,random",
            "--games",
            &games,
            "--seed",
            "5",
        ],
        &dir.join("simulate.csv"),
    );
    assert_eq!(csv_rows(&games_csv).1.len(), GAMES as usize);
    assert!(
        games_csv == local_csv,
        "the resumed job's records are byte for byte those of tsoro simulate"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
