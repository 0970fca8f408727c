//! SIGTERM stops `tsoro serve` within 10 s whatever it is doing (issue 20, item 2): a worker
//! in the middle of a long search and a client in a long poll do not hold it, and its
//! PostgreSQL is shut down cleanly (a shutdown checkpoint, no process left).

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test]
async fn sigterm_stops_a_searching_service_within_ten_seconds() {
    let dir = data_dir("tsoro-term-");
    let mut s = serve_with(&dir, &["--worker-threads", "1"]);
    wait_ready(&mut s).await;
    let base = format!("http://127.0.0.1:{}", s.port);
    let client = reqwest::Client::new();
    let r = client
        .post(format!("{base}/api/v1/simulations"))
        .json(&json!({"ruleset": "tsoro-russ", "agents": "mcts:1000000,mcts:1000000", "games": 4}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 202);
    let url = format!("{base}{}", r.headers()["location"].to_str().unwrap());
    let start = Instant::now();
    loop {
        let v: Value = client.get(&url).send().await.unwrap().json().await.unwrap();
        if v["status"] == "running" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "never ran: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A client waiting on the job as the signal comes.
    let waiter = tokio::spawn({
        let (client, url) = (client.clone(), url.clone());
        async move { client.get(format!("{url}?wait=60")).send().await }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;

    let signalled = Instant::now();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(s.child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(10),
            "still running 10 s after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "exited with {status}");
    assert!(
        postgres_processes(&dir).is_empty(),
        "no PostgreSQL left after SIGTERM"
    );
    let log = std::fs::read_to_string(dir.join("postgres/server.log")).unwrap_or_default();
    assert!(
        log.contains("database system is shut down"),
        "PostgreSQL was shut down cleanly: {log}"
    );
    let _ = waiter.await;
    let _ = std::fs::remove_dir_all(&dir);
}
