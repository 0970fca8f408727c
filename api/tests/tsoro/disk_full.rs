//! A full disk met by a `tsoro worker` process (issue 34, item 10): it cannot store a chunk,
//! the job's page and JSON say it is paused for a full disk, the worker's log says so and it
//! waits longer each time instead of playing chunk after chunk it cannot store; once space is
//! freed the job resumes by itself and ends with every game. The full disk is PostgreSQL's own
//! error (SQLSTATE 53100, as `tests/tests/api/disk_full.rs` raises it from a trigger): a full
//! filesystem cannot be made here without privileges a test should not need.

use crate::helpers::*;
use serde_json::{Value, json};
use std::io::BufRead;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GAMES: u64 = 200;

async fn get(client: &reqwest::Client, port: u16, path: &str) -> reqwest::Response {
    client
        .get(format!("http://127.0.0.1:{port}{path}"))
        .send()
        .await
        .unwrap()
}

async fn attempts(pool: &sqlx::PgPool) -> i64 {
    sqlx::query_scalar("SELECT last_value FROM test_disk_full_attempts")
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_worker_meeting_a_full_disk_pauses_the_job_backs_off_and_resumes_once_freed() {
    let dir = data_dir("tsoro-diskfull-");
    let client = reqwest::Client::new();
    // No worker in the service: the process below plays everything.
    let mut service = serve_with(&dir, &["--workers", "0"]);
    wait_ready(&mut service).await;
    let pool = sqlx::PgPool::connect(&db_url(&dir)).await.unwrap();
    // Storing a chunk's records fails as on a full disk; each attempt is counted by a
    // sequence (not rolled back with the failed transaction).
    sqlx::raw_sql(
        "CREATE SEQUENCE test_disk_full_attempts; \
         CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
         PERFORM nextval('test_disk_full_attempts'); \
         RAISE EXCEPTION 'could not extend file \"base/16384/16500\": No space left on device' \
         USING ERRCODE = '53100'; END $$; \
         CREATE TRIGGER test_disk_full BEFORE UPDATE ON simulation_chunks FOR EACH ROW \
         WHEN (NEW.records IS NOT NULL AND OLD.records IS NULL) \
         EXECUTE FUNCTION test_disk_full();",
    )
    .execute(&pool)
    .await
    .unwrap();
    let created = client
        .post(format!(
            "http://127.0.0.1:{}/api/v1/simulations",
            service.port
        ))
        .json(&json!({"ruleset": "tsoro-ludii", "games": GAMES, "seed": 5}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 202);
    let url = created.headers()["location"].to_str().unwrap().to_string();
    let id = url.rsplit('/').next().unwrap().to_string();

    // A worker process with chunks of 2 games: a hundred chunks it could play one after
    // another in a moment.
    let mut child = tsoro()
        .args(["worker", "--database-url", &db_url(&dir), "--workers", "1"])
        .args([
            "--chunk-games",
            "2",
            "--lease-secs",
            "2",
            "--worker-threads",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let stderr = child.stderr.take().unwrap();
    let lines = log.clone();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            lines.lock().unwrap().push(line);
        }
    });
    let _worker = Reaped(child);

    // The job says it is paused for a full disk, in its JSON and on its page.
    let start = Instant::now();
    let paused = loop {
        let j: Value = get(&client, service.port, &url).await.json().await.unwrap();
        if j["paused"].is_object() {
            break j;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "never paused: {j}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        paused["paused"]["reason"]
            .as_str()
            .unwrap()
            .contains("disk full"),
        "{paused}"
    );
    assert_ne!(paused["status"], "failed", "{paused}");
    let page = get(&client, service.port, &format!("/simulations/{id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("id=\"paused\""), "{page}");
    assert!(page.contains("disk full"));

    // The worker waits, longer each time: over the next 4 s it tries to store a few chunks
    // (its first waits are 1 s, 2 s, then 4 s), not the hundred it could play.
    let before = attempts(&pool).await;
    tokio::time::sleep(Duration::from_secs(4)).await;
    let tried = attempts(&pool).await - before;
    assert!(tried <= 8, "{tried} chunks played and refused in 4 s");
    {
        let log = log.lock().unwrap();
        assert!(
            log.iter()
                .any(|l| l.contains("disk full") && l.contains("waits before claiming again")),
            "{log:?}"
        );
    }

    // Space freed: the job resumes by itself and ends with every game, no longer paused.
    sqlx::raw_sql("DROP TRIGGER test_disk_full ON simulation_chunks")
        .execute(&pool)
        .await
        .unwrap();
    let start = Instant::now();
    let done = loop {
        let j: Value = get(&client, service.port, &format!("{url}?wait=20"))
            .await
            .json()
            .await
            .unwrap();
        if j["status"] == "done" {
            break j;
        }
        assert_ne!(j["status"], "failed", "{j}");
        assert!(start.elapsed() < Duration::from_secs(120), "not done: {j}");
    };
    assert_eq!(done["progress"]["games_done"], GAMES, "{done}");
    assert!(done["paused"].is_null(), "{done}");
    let csv = get(&client, service.port, &format!("{url}/games.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count() as u64, GAMES + 1);
    pool.close().await;
    terminate(&mut service);
}
