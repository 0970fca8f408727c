//! A ladder over HTTP is `tsoro ladder`: the same inputs posted to `POST /api/v1/ladders` of
//! a `tsoro serve` (its games cut into chunks) and given to `tsoro ladder --json --csv DIR`
//! give the same rungs, ratings and skill-trace verdict, and byte for byte the same
//! games.csv, ratings.csv and ladder.csv.

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn get(client: &reqwest::Client, port: u16, path: &str) -> reqwest::Response {
    client
        .get(format!("http://127.0.0.1:{port}{path}"))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_ladder_over_http_gives_the_numbers_and_files_of_tsoro_ladder() {
    let dir = data_dir("tsoro-ladder-");
    let client = reqwest::Client::new();
    let mut service = serve_with(
        &dir,
        &[
            "--workers",
            "1",
            "--chunk-games",
            "7",
            "--worker-threads",
            "1",
        ],
    );
    wait_ready(&mut service).await;
    let port = service.port;
    let created = client
        .post(format!("http://127.0.0.1:{port}/api/v1/ladders"))
        .json(
            &json!({"ruleset": "tsoro-ludii", "params": {"holes": 8}, "family": "mcts",
            "from": 2, "to": 8, "pairs": 3, "seed": "5", "opening_plies": 1}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 202);
    let url = created.json::<Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    let start = Instant::now();
    let done = loop {
        let j: Value = get(&client, port, &format!("{url}?wait=30"))
            .await
            .json()
            .await
            .unwrap();
        if j["status"] == "done" {
            break j;
        }
        assert!(
            ["queued", "running"].contains(&j["status"].as_str().unwrap()),
            "{j}"
        );
        assert!(start.elapsed() < Duration::from_secs(240), "not done: {j}");
    };
    let mut files = vec![];
    for name in ["games.csv", "ratings.csv", "ladder.csv"] {
        let r = get(&client, port, &format!("{url}/{name}")).await;
        assert_eq!(r.status().as_u16(), 200, "{name}");
        files.push((name, r.text().await.unwrap()));
    }
    terminate(&mut service);

    // The command the ladder names, with --json and --csv, on two threads.
    let command = done["command"].as_str().unwrap();
    assert_eq!(
        command,
        "tsoro ladder --ruleset tsoro-ludii --family mcts --from 2 --to 8 --pairs 3 --seed 5 \
         --opening-plies 1"
    );
    let csv_dir = dir.join("ladder");
    let out = tsoro()
        .args(command.split(' ').skip(1))
        .args(["--threads", "2", "--json", "--csv"])
        .arg(&csv_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let local: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(done["results"]["ladder"], local["ladder"]);
    assert_eq!(done["results"]["report"], local["report"]);
    let rungs = local["ladder"]["rungs"].as_array().unwrap();
    assert_eq!(rungs.len(), 3);
    assert!(
        local["ladder"]["verdict"]
            .as_str()
            .unwrap()
            .contains("flat")
    );
    for (name, served) in files {
        let text = std::fs::read_to_string(csv_dir.join(name)).unwrap();
        assert!(served == text, "{name} differs:\n{served}\n---\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
