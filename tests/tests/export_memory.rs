//! Exports that survive many slow readers (issue 20, item 6): stalled exports are bounded in
//! number (the rest get a 503 before their body) and each holds a slice of its records, not a
//! chunk, as this process's resident memory shows. A binary of its own, as the only test in
//! its process: any other test's allocations would count as the exports'.

use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::time::{Duration, Instant};
use tsoro_api::jobs::export::SLICE_BYTES;
use tsoro_api::jobs::records::BYTES_PER_RECORD;
use tsoro_api::settings::JobSettings;
use tsoro_tests::{TestApp, spawn_app_with_jobs};

fn settings(workers: usize, chunk: u64) -> JobSettings {
    JobSettings {
        workers,
        chunk_games: chunk,
        lease: Duration::from_secs(5),
        poll: Duration::from_millis(50),
        threads: 2,
        ..JobSettings::default()
    }
}

async fn submit(app: &TestApp, body: Value) -> String {
    let r = app.post("/api/v1/simulations", &body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED, "{:?}", r.text().await);
    r.headers()["location"].to_str().unwrap().to_string()
}

async fn wait_done(app: &TestApp, url: &str) -> Value {
    for _ in 0..12 {
        let v: Value = app
            .get(&format!("{url}?wait=10"))
            .await
            .json()
            .await
            .unwrap();
        if v["status"] == "done" {
            return v;
        }
        assert_ne!(v["status"], "failed", "{v}");
    }
    panic!("{url} did not finish");
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb / 1024.0
}

#[tokio::test]
async fn many_slow_readers_get_whole_exports_or_a_503_before_the_body() {
    const MAX: usize = 24;
    const READERS: usize = 32;
    // Every reader is the same client: its share is more than all the slots here (the shares
    // per client are `quotas`' in the api binary).
    let app = spawn_app_with_jobs(JobSettings {
        max_exports: MAX,
        max_client_exports: READERS,
        ..settings(1, 20_000)
    })
    .await;
    // Two chunks; each reader's body (games.json, about 20 MB) is far more than the kernel's
    // socket buffers hold, so a stalled reader's export stays open on the server.
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-ludii", "games": 40_000, "seed": 5}),
    )
    .await;
    wait_done(&app, &url).await;
    // The files as one reader alone gets them (games.csv is checked against the
    // engine by the api binary's jobs and jobs_scale): their lengths and digests.
    let mut reference = vec![];
    for file in ["games.csv", "games.json"] {
        let body = app
            .get(&format!("{url}/{file}"))
            .await
            .bytes()
            .await
            .unwrap();
        assert!(body.len() > 2_000_000, "{file}: {} bytes", body.len());
        reference.push((body.len(), Sha256::digest(&body).to_vec()));
    }
    let before = rss_mb();

    // Every reader reads its first piece, then stalls until all have started.
    let go = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let (started, mut started_rx) = tokio::sync::mpsc::channel::<u16>(READERS);
    let client = reqwest::Client::new();
    let mut readers = tokio::task::JoinSet::new();
    for _ in 0..READERS {
        let (client, go, started) = (client.clone(), go.clone(), started.clone());
        let file = "games.json";
        let target = format!("{}{url}/{file}", app.address);
        readers.spawn(async move {
            let mut r = client.get(&target).send().await.unwrap();
            let status = r.status();
            started.send(status.as_u16()).await.unwrap();
            if status != StatusCode::OK {
                let retry = r.headers().get("retry-after").cloned();
                let kind = r.headers()["content-type"].to_str().unwrap().to_string();
                let body: Value = r.json().await.unwrap();
                return Err((status, retry, kind, body));
            }
            let mut hash = Sha256::new();
            let mut len = 0;
            let first = r.chunk().await.unwrap().unwrap();
            len += first.len();
            hash.update(&first);
            let _go = go.acquire().await.unwrap();
            while let Some(piece) = r.chunk().await.unwrap() {
                len += piece.len();
                hash.update(&piece);
                // A slow reader.
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            Ok((1, len, hash.finalize().to_vec()))
        });
    }
    let mut statuses = vec![];
    for _ in 0..READERS {
        statuses.push(started_rx.recv().await.unwrap());
    }
    let ok = statuses.iter().filter(|s| **s == 200).count();
    assert_eq!(ok, MAX, "{statuses:?}");
    // All the exports are open and stalled: unrelated reads still answer, promptly.
    for path in [url.as_str(), "/api/v1/rulesets", "/api/v1/simulations"] {
        let t = Instant::now();
        let r = app.get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{path}: {:?}",
            t.elapsed()
        );
    }
    // Each stalled export holds at most a slice of its records as rendered (`SLICE_BYTES` of
    // stored records: some 3,300 games, 1.2 MB of games.json) and the connection's write
    // buffer that actix copies it into (which keeps its size once grown), and its reader here
    // one read buffer (half a MB at most): some 70 MB for all in the worst case, 7-36 MB
    // measured, as the sockets hold part of it. Reading a whole chunk at a time, as before,
    // took about 200 MB here.
    let slice_games = (SLICE_BYTES as usize / BYTES_PER_RECORD) as f64;
    let slice_mb = slice_games * (reference[1].0 as f64 / 40_000.0) / (1024.0 * 1024.0);
    let bound = MAX as f64 * (2.0 * slice_mb + 0.5);
    let during = rss_mb();
    eprintln!(
        "resident memory: {before:.0} MB before the readers, {during:.0} MB with {MAX} stalled \
         (bound {bound:.0} MB)"
    );
    assert!(
        during - before < bound,
        "{MAX} stalled exports took {:.0} MB ({before:.0} -> {during:.0})",
        during - before
    );
    go.add_permits(READERS);
    let mut refused = 0;
    while let Some(outcome) = readers.join_next().await {
        match outcome.unwrap() {
            Ok((file, len, digest)) => {
                assert_eq!((len, &digest), (reference[file].0, &reference[file].1));
            }
            Err((status, retry, kind, body)) => {
                refused += 1;
                assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
                assert!(retry.is_some(), "a 503 without Retry-After");
                assert_eq!(kind, "application/problem+json");
                assert_eq!(body["status"], 503);
                assert_eq!(body["type"], "/problems/too-many-exports");
            }
        }
    }
    assert_eq!(refused, READERS - MAX);

    // Every place was given back when the bodies ended, and is when a client goes away
    // mid-body: MAX more open at once, then leave, and the next export is served.
    let mut held = vec![];
    for _ in 0..MAX {
        let mut r = client
            .get(format!("{}{url}/games.json", app.address))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        r.chunk().await.unwrap();
        held.push(r);
    }
    drop(held);
    let t = Instant::now();
    loop {
        let r = app.get(&format!("{url}/games.csv")).await;
        if r.status() == StatusCode::OK {
            let body = r.bytes().await.unwrap();
            assert_eq!(Sha256::digest(&body).to_vec(), reference[0].1);
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "places not given back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
