//! Simulation jobs over HTTP against the real database: the whole lifecycle, exports checked
//! against the engine's own run, cancellation, a dead worker's chunk claimed again, several
//! workers giving exactly the records of one, comparisons, replay, limits and bad input.

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_api::jobs::store;
use tsoro_api::settings::JobSettings;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
use tsoro_engine::stats::GameRecord;
use tsoro_tests::store_gate::StoreGate;
use tsoro_tests::{TestApp, fresh_database, spawn_app_with_jobs, spawn_app_with_settings};

pub(crate) fn settings(workers: usize, chunk: u64) -> JobSettings {
    JobSettings {
        workers,
        chunk_games: chunk,
        lease: Duration::from_secs(2),
        poll: Duration::from_millis(50),
        threads: 2,
        ..JobSettings::default()
    }
}

/// The engine's own run of the same inputs: records and statistics (as JSON).
pub(crate) fn engine_run(
    ruleset: &str,
    agents: [&str; 2],
    games: u64,
    seed: u64,
) -> (Vec<GameRecord>, Value) {
    let g = catalogue::get(ruleset)
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let spec = SimSpec {
        agents: [agents[0].parse().unwrap(), agents[1].parse().unwrap()],
        games: 0..games,
        seed,
        swap_seats: true,
        opening_plies: 0,
    };
    let mut records = vec![];
    let s = simulate_any(&g, &spec, &SimOptions::default(), &mut |r| {
        records.push(r.clone())
    })
    .unwrap();
    (records, serde_json::to_value(s.stats()).unwrap())
}

pub(crate) async fn wait_done(app: &TestApp, url: &str) -> Value {
    for _ in 0..12 {
        let r = app.get(&format!("{url}?wait=10")).await;
        assert_eq!(r.status(), StatusCode::OK);
        let v: Value = r.json().await.unwrap();
        if ["done", "failed", "cancelled"].contains(&v["status"].as_str().unwrap()) {
            return v;
        }
    }
    panic!("{url} did not finish");
}

pub(crate) fn parse_games(csv_text: &str) -> (csv::StringRecord, Vec<GameRecord>) {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header = r.headers().unwrap().clone();
    let rows = r.deserialize().map(|x| x.unwrap()).collect();
    (header, rows)
}

pub(crate) async fn submit(app: &TestApp, body: Value) -> String {
    let r = app.post("/api/v1/simulations", &body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let location = r.headers()["location"].to_str().unwrap().to_string();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["url"], location.as_str());
    assert_eq!(v["status"], "queued");
    location
}

#[tokio::test]
async fn a_job_runs_to_the_engine_s_own_numbers_and_exports_them() {
    let app = spawn_app_with_jobs(settings(1, 700)).await;
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-matthews-basic", "agents": "random,greedy", "games": 3000, "seed": 7}),
    )
    .await;
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    assert_eq!(v["progress"]["games_done"], 3000);
    assert_eq!(v["progress"]["fraction"], 1.0);
    assert_eq!(v["ruleset_version"].as_str().unwrap().len(), 64);
    let (records, stats) = engine_run("tsoro-matthews-basic", ["random", "greedy"], 3000, 7);
    assert_eq!(v["stats"], stats, "the job's statistics are the engine's");

    // games.csv: the header of `tsoro simulate --csv`, every record the engine's.
    let r = app.get(&format!("{url}/games.csv")).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let text = r.text().await.unwrap();
    let (header, rows) = parse_games(&text);
    let mut w = csv::Writer::from_writer(vec![]);
    w.serialize(&records[0]).unwrap();
    let engine_header = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert_eq!(
        header.iter().collect::<Vec<_>>().join(","),
        engine_header.lines().next().unwrap()
    );
    assert_eq!(rows, records);

    // The summary agrees with the records.
    let r = app.get(&format!("{url}/summary.csv")).await;
    let text = r.text().await.unwrap();
    let mut sr = csv::Reader::from_reader(text.as_bytes());
    let metrics: Vec<csv::StringRecord> = sr.records().map(|x| x.unwrap()).collect();
    let value = |m: &str| -> f64 {
        metrics.iter().find(|r| &r[5] == m).unwrap()[6]
            .parse()
            .unwrap()
    };
    let greedy_wins = rows.iter().filter(|r| r.winning_agent() == Some(1)).count() as f64;
    assert!((value("agent2_win_rate") - greedy_wins / 3000.0).abs() < 1e-12);
    let turns: f64 = rows.iter().map(|r| r.turns as f64).sum::<f64>() / 3000.0;
    assert!((value("turns_mean") - turns).abs() < 1e-9);

    // JSON twins.
    let games: Vec<GameRecord> = app
        .get(&format!("{url}/games.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(games, records);
    let s: Value = app
        .get(&format!("{url}/summary.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(s["stats"], stats);

    // The data package describes the CSV's columns and the run.
    let dp: Value = app
        .get(&format!("{url}/datapackage.json"))
        .await
        .json()
        .await
        .unwrap();
    let fields: Vec<&str> = dp["resources"][0]["schema"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(fields, header.iter().collect::<Vec<_>>());
    assert_eq!(dp["resources"][0]["path"], "games.csv");
    assert_eq!(dp["tsoro"]["seed"], "7");
    assert_eq!(dp["tsoro"]["agents"], json!(["random", "greedy"]));
    assert_eq!(dp["tsoro"]["ruleset_version"], v["ruleset_version"]);

    // Listed, filtered.
    let l: Value = app
        .get("/api/v1/simulations?status=done&ruleset=tsoro-matthews-basic")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(l["items"].as_array().unwrap().len(), 1);
    let l: Value = app
        .get("/api/v1/simulations?status=queued")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(l["items"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn two_workers_give_exactly_the_records_of_one() {
    let one = spawn_app_with_jobs(settings(1, 400)).await;
    // The second app's storing is held back until each of its two workers has claimed a
    // chunk: a worker then keeps at most two of the job's five, so the other must play some,
    // however fast the first plays.
    let url = fresh_database().await;
    let mut gate = StoreGate::shut(&url).await;
    let pool = tsoro_api::database::connect(&url).await.unwrap();
    let two = spawn_app_with_settings(pool, settings(2, 400)).await;
    let body = json!({"ruleset": "tsoro-yemutwelve-matthews", "agents": ["greedy", "random"], "games": 2000, "seed": 99});
    let u1 = submit(&one, body.clone()).await;
    let u2 = submit(&two, body).await;
    let start = std::time::Instant::now();
    loop {
        let owners: i64 = sqlx::query_scalar(
            "SELECT count(DISTINCT lease_owner) FROM simulation_chunks \
             WHERE lease_owner IS NOT NULL",
        )
        .fetch_one(gate.conn())
        .await
        .unwrap();
        if owners == 2 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "both workers did not claim a chunk: {owners} did"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    gate.open().await;
    assert_eq!(wait_done(&one, &u1).await["status"], "done");
    let v2 = wait_done(&two, &u2).await;
    assert_eq!(v2["status"], "done");
    let a = one
        .get(&format!("{u1}/games.csv"))
        .await
        .text()
        .await
        .unwrap();
    let b = two
        .get(&format!("{u2}/games.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(a, b);
    let (records, stats) = engine_run("tsoro-yemutwelve-matthews", ["greedy", "random"], 2000, 99);
    assert_eq!(parse_games(&a).1, records);
    assert_eq!(v2["stats"], stats);
    // Each of the second app's two workers claimed and stored chunks of the job, and
    // together they stored all five.
    let stored: Vec<(String, i64)> = sqlx::query_as(
        "SELECT lease_owner, count(*) FROM simulation_chunks WHERE status = 'done' \
         GROUP BY lease_owner ORDER BY lease_owner",
    )
    .fetch_all(&two.pool)
    .await
    .unwrap();
    assert_eq!(stored.len(), 2, "chunks stored by each worker: {stored:?}");
    assert!(stored.iter().all(|(_, n)| *n > 0), "{stored:?}");
    assert_eq!(stored.iter().map(|(_, n)| n).sum::<i64>(), 5, "{stored:?}");
}

#[tokio::test]
async fn a_dead_worker_s_chunk_is_claimed_again_when_its_lease_runs_out() {
    // No worker yet: a "worker" claims the first chunk and dies holding it.
    let app = spawn_app_with_jobs(settings(0, 250)).await;
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-ludii", "games": 1000, "seed": 3}),
    )
    .await;
    let dead = store::claim(&app.pool, "dead-worker", Duration::from_secs(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((dead.idx, dead.first_game, dead.end_game), (0, 0, 250));
    // A live worker joins through the same database.
    let live = tsoro_tests::spawn_app_with_settings(app.pool.clone(), settings(1, 250)).await;
    let v = wait_done(&live, &url).await;
    assert_eq!(v["status"], "done");
    let attempts: i32 = sqlx::query_scalar("SELECT attempts FROM simulation_chunks WHERE idx = 0")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(attempts, 2, "claimed by the dead worker, then again");
    // The dead worker's late result is refused: its lease is gone.
    assert!(
        !store::complete(
            &app.pool,
            "dead-worker",
            store::Played {
                claim: dead,
                lines: b"bogus\n".to_vec(),
                summary: Default::default(),
                games: 250,
            }
        )
        .await
        .unwrap()
    );
    let (records, _) = engine_run("tsoro-ludii", ["random", "random"], 1000, 3);
    let text = app
        .get(&format!("{url}/games.csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(parse_games(&text).1, records);
}

#[tokio::test]
async fn cancelling_stops_a_job() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    let url = submit(&app, json!({"ruleset": "tsoro-ludii", "games": 500})).await;
    let r = app.delete(&url).await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["status"], "cancelled");
    assert_eq!(app.delete(&url).await.status(), StatusCode::CONFLICT);
    // A worker finds nothing to do for it.
    assert!(
        store::claim(&app.pool, "w", Duration::from_secs(5))
            .await
            .unwrap()
            .is_none()
    );
    let r = app.get(&format!("{url}/games.csv")).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);

    // A running job: the worker abandons its chunk when the job is cancelled.
    let app = spawn_app_with_jobs(settings(1, 2)).await;
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-matthews-basic", "agents": "mcts:300,random", "games": 400}),
    )
    .await;
    // It is running (a worker holds a chunk) before it is cancelled.
    let start = std::time::Instant::now();
    loop {
        let v: Value = app.get(&url).await.json().await.unwrap();
        if v["status"] == "running" {
            break;
        }
        assert_eq!(v["status"], "queued", "{v}");
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the job never ran: {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let v: Value = app.delete(&url).await.json().await.unwrap();
    assert_eq!(v["status"], "cancelled");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert_eq!(v["status"], "cancelled");
    assert!(v["progress"]["games_done"].as_i64().unwrap() < 400);
}

#[tokio::test]
async fn comparisons_run_each_ruleset_on_the_same_seeds() {
    let app = spawn_app_with_jobs(settings(1, 1000)).await;
    let r = app
        .post(
            "/api/v1/comparisons",
            &json!({"rulesets": ["tsoro-ludii", "tsoro-ludii-additional-capture"], "params": {"holes": 8}, "games": 2000, "seed": 1}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.headers()["location"].to_str().unwrap().to_string();
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    // `?wait=` over 60 is refused on a comparison as on a simulation, naming `wait`.
    let first = runs[0]["id"].as_str().unwrap();
    for over in [
        format!("{url}?wait=61"),
        format!("/api/v1/simulations/{first}?wait=61"),
    ] {
        let r = app.get(&over).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{over}");
        let p: Value = r.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], "wait", "{over}: {p}");
    }
    let (_, a) = engine_run("tsoro-ludii", ["random", "random"], 2000, 1);
    assert_eq!(runs[0]["stats"], a);
    let d = &v["differences_from_first"][0];
    let diff = d["first_mover"]["diff"].as_f64().unwrap();
    let rate = |i: usize| runs[i]["stats"]["first_mover"]["rate"].as_f64().unwrap();
    assert!((diff - (rate(1) - rate(0))).abs() < 1e-12);
    assert!(d["first_mover"]["p_value"].as_f64().unwrap() <= 1.0);
    let text = app
        .get(&format!("{url}/table.csv"))
        .await
        .text()
        .await
        .unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[1][0], "tsoro-ludii-additional-capture");
    assert_eq!(rows[1][12].parse::<f64>().unwrap(), diff);
}

/// A comparison is analysed game by game: its paired figures are those computed here from
/// the engine's own records of each ruleset (game k against game k), runs that play the same
/// games differ by exactly nothing (tsoro-ludii plays tsoro-matthews-basic's games but for a
/// few endless sowings it stops at the move limit instead), and McNemar's exact p-value agrees with the
/// binomial tail computed another way (the incomplete beta function).
#[tokio::test]
async fn comparisons_are_paired_game_by_game() {
    let app = spawn_app_with_jobs(settings(1, 700)).await;
    let rulesets = [
        "tsoro-matthews-basic",
        "tsoro-ludii",
        "tsoro-ludii-additional-capture",
        "tsoro-matthews-basic",
    ];
    let r = app
        .post(
            "/api/v1/comparisons",
            &json!({"rulesets": rulesets, "games": 2000, "seed": 11}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.headers()["location"].to_str().unwrap().to_string();
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    let records: Vec<Vec<GameRecord>> = rulesets
        .iter()
        .map(|id| engine_run(id, ["random", "random"], 2000, 11).0)
        .collect();
    let diffs = v["differences_from_first"].as_array().unwrap();
    assert_eq!(diffs.len(), 3);
    for (i, d) in diffs.iter().enumerate() {
        let (x, y) = (&records[i + 1], &records[0]);
        assert_eq!(d["ruleset"], rulesets[i + 1]);
        assert_eq!(d["reference"], rulesets[0]);
        let same = |a: &GameRecord, b: &GameRecord| {
            let strip = |r: &GameRecord| {
                let mut r = r.clone();
                r.agent_a = "".into();
                r.agent_b = "".into();
                r
            };
            strip(a) == strip(b)
        };
        let identical = x.iter().zip(y).filter(|(a, b)| same(a, b)).count();
        assert_eq!(d["pairs"], 2000);
        assert_eq!(d["identical"], identical);
        let first_won = |r: &GameRecord| {
            matches!(
                (r.first, r.winner),
                (tsoro_engine::Player::A, tsoro_engine::stats::Winner::A)
                    | (tsoro_engine::Player::B, tsoro_engine::stats::Winner::B)
            )
        };
        let only_x = x
            .iter()
            .zip(y)
            .filter(|(a, b)| first_won(a) && !first_won(b))
            .count();
        let only_y = x
            .iter()
            .zip(y)
            .filter(|(a, b)| !first_won(a) && first_won(b))
            .count();
        let fm = &d["first_mover"];
        assert_eq!(
            (fm["only_first"].as_u64(), fm["only_second"].as_u64()),
            (Some(only_x as u64), Some(only_y as u64))
        );
        let diff = (only_x as f64 - only_y as f64) / 2000.0;
        assert!((fm["diff"].as_f64().unwrap() - diff).abs() < 1e-12);
        let (m, k) = ((only_x + only_y) as f64, only_x.min(only_y) as f64);
        let p = fm["p_value"].as_f64().unwrap();
        if m == 0.0 {
            assert_eq!(p, 1.0);
        } else {
            // P(X <= k) for X ~ Bin(m, 1/2) is I_{1/2}(m - k, k + 1).
            let tail = tsoro_engine::stats::dist::incomplete_beta(0.5, m - k, k + 1.0);
            let expected = (2.0 * tail).min(1.0);
            assert!(
                (p - expected).abs() <= 1e-9 * expected.max(1e-12),
                "{p} vs {expected}"
            );
        }
        let dt: Vec<f64> = x
            .iter()
            .zip(y)
            .map(|(a, b)| a.turns as f64 - b.turns as f64)
            .collect();
        let mean = dt.iter().sum::<f64>() / 2000.0;
        let sd = (dt.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / 1999.0).sqrt();
        let t = &d["turns"];
        assert!((t["diff"].as_f64().unwrap() - mean).abs() < 1e-9, "{t}");
        assert!((t["sd"].as_f64().unwrap() - sd).abs() < 1e-6, "{t}");
        assert_eq!(t["differing"], dt.iter().filter(|d| **d != 0.0).count());
        if identical == 2000 {
            // The same games: every difference is exactly zero, with no spread.
            for key in [
                "first_mover",
                "first_agent_wins",
                "draws",
                "turns",
                "captures",
            ] {
                assert_eq!(d[key]["diff"], 0.0, "{key}: {d}");
                assert_eq!(d[key]["p_value"], 1.0, "{key}: {d}");
            }
            assert_eq!(
                (t["ci"]["low"].as_f64(), t["ci"]["high"].as_f64()),
                (Some(0.0), Some(0.0))
            );
        } else {
            let half = t["ci"]["high"].as_f64().unwrap() - mean;
            // The paired t interval: t(0.975, 1999) = 1.96115 standard errors.
            assert!(
                (half - 1.96115 * sd / 2000f64.sqrt()).abs() < 1e-3 * half.abs().max(1e-9),
                "{t}"
            );
        }
    }
    // Nearly the same games, games that differ, and the very same games.
    assert!(
        diffs[0]["identical"].as_u64().unwrap() > 1900,
        "{}",
        diffs[0]
    );
    assert_eq!(diffs[0]["turns"]["differing"], 0, "{}", diffs[0]);
    assert!(
        diffs[1]["identical"].as_u64().unwrap() < 1900,
        "{}",
        diffs[1]
    );
    assert_eq!(diffs[2]["identical"], 2000, "{}", diffs[2]);
    let text = app
        .get(&format!("{url}/table.csv"))
        .await
        .text()
        .await
        .unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(&rows[3][col("identical_games")], "2000");
    assert_eq!(
        rows[2][col("diff_turns_mean")].parse::<f64>().unwrap(),
        diffs[1]["turns"]["diff"].as_f64().unwrap()
    );
}

#[tokio::test]
async fn bad_requests_get_problems_naming_the_field() {
    let mut s = settings(0, 100);
    s.max_games = 5000;
    s.max_active_jobs = 2;
    let app = spawn_app_with_jobs(s).await;
    let cases = [
        (json!({"ruleset": "nope", "games": 10}), "ruleset"),
        (
            json!({"ruleset": "tsoro-ludii", "params": {"holes": 99}, "games": 10}),
            "params.holes",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "params": {"colour": 1}, "games": 10}),
            "params.colour",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "agents": "random,wizard", "games": 10}),
            "agents",
        ),
        (json!({"ruleset": "tsoro-ludii", "games": 6000}), "games"),
        (json!({"ruleset": "tsoro-ludii", "games": 0}), "games"),
        (json!({"ruleset": "nhodo-matthews", "games": 10}), "ruleset"),
    ];
    for (body, field) in cases {
        let r = app.post("/api/v1/simulations", &body).await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(r.headers()["content-type"], "application/problem+json");
        let p: Value = r.json().await.unwrap();
        assert_eq!(p["errors"][0]["field"], field, "{p}");
    }
    let p: Value = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "agents": "wizard", "games": 1}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert!(
        p["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("alphabeta"),
        "lists the known agents"
    );
    let p: Value = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "params": {"holes": 99}, "games": 1}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert!(
        p["detail"].as_str().unwrap().contains("6..=21"),
        "names the range: {p}"
    );
    // Malformed JSON: 400.
    let r = app
        .client
        .post(format!("{}/api/v1/simulations", app.address))
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    // Unknown and malformed ids: 404; a bad wait: 400.
    assert_eq!(
        app.get("/api/v1/simulations/00000000-0000-0000-0000-000000000000")
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/api/v1/simulations/xyz").await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/api/v1/simulations?status=lost").await.status(),
        StatusCode::BAD_REQUEST
    );
    // Too many jobs at once: 429.
    for _ in 0..2 {
        submit(&app, json!({"ruleset": "tsoro-ludii", "games": 10})).await;
    }
    let r = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "games": 10}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    // An unfinished job has nothing to export yet.
    let l: Value = app.get("/api/v1/simulations").await.json().await.unwrap();
    let url = l["items"][0]["url"].as_str().unwrap().to_string();
    let r = app.get(&format!("{url}/summary.csv")).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
}

#[tokio::test]
async fn replay_and_legal_over_http() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    let r = app
        .post(
            "/api/v1/rulesets/tsoro-ludii/replay",
            &json!({"params": {"holes": 8}, "actions": [{"sow": "i,6"}, {"sow": "iv,8"}]}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["states"].as_array().unwrap().len(), 3);
    let r = app
        .post(
            "/api/v1/rulesets/tsoro-ludii/legal",
            &json!({"actions": [{"sow": "i,6"}]}),
        )
        .await;
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["after"], 1);
    assert!(
        v["legal"]
            .as_array()
            .unwrap()
            .contains(&json!({"sow": "iv,8"}))
    );
    // An illegal action: 422 naming its index and the legal actions.
    let r = app
        .post(
            "/api/v1/rulesets/tsoro-ludii/replay",
            &json!({"actions": [{"sow": "i,6"}, {"sow": "i,6"}]}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = r.json().await.unwrap();
    assert_eq!(p["index"], 1);
    assert_eq!(p["errors"][0]["field"], "actions[1]");
    assert!(
        p["legal"]
            .as_array()
            .unwrap()
            .contains(&json!({"sow": "iv,8"}))
    );
    // A line game, and bad input.
    let r = app
        .post(
            "/api/v1/rulesets/tsoro-yemutatu-matthews-a/legal",
            &json!({"actions": [{"place": "b2"}]}),
        )
        .await;
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["legal"].as_array().unwrap().len(), 8);
    let r = app
        .post("/api/v1/rulesets/nope/replay", &json!({"actions": []}))
        .await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let r = app
        .post(
            "/api/v1/rulesets/tsoro-ludii/replay",
            &json!({"params": {"holes": 3}, "actions": []}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let p: Value = r.json().await.unwrap();
    assert_eq!(p["errors"][0]["field"], "params.holes");
    let r = app
        .post(
            "/api/v1/rulesets/tsoro-ludii/replay",
            &json!({"actions": ["sow everything"]}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

/// Random agents play on the engine's kernel; `"reference": true` plays every game through
/// the reference rules, action by action. The two jobs export the same games.csv, byte for
/// byte, and the job says how it was played.
#[tokio::test]
async fn a_reference_job_exports_the_same_records_as_the_kernel() {
    let app = spawn_app_with_jobs(settings(1, 1500)).await;
    let mut texts = vec![];
    for reference in [false, true] {
        let url = submit(
            &app,
            json!({"ruleset": "tsoro-ludii", "games": 4000, "seed": 3, "reference": reference}),
        )
        .await;
        let v = wait_done(&app, &url).await;
        assert_eq!(v["status"], "done", "{v}");
        assert_eq!(v["reference"], reference);
        let r = app.get(&format!("{url}/games.csv")).await;
        assert_eq!(r.status(), StatusCode::OK);
        texts.push(r.text().await.unwrap());
    }
    assert!(
        texts[0].lines().count() == 4001,
        "a header and a record per game"
    );
    assert!(
        texts[0] == texts[1],
        "the kernel's and the reference's records differ"
    );
    let (records, _) = engine_run("tsoro-ludii", ["random", "random"], 4000, 3);
    let (_, rows) = parse_games(&texts[0]);
    assert_eq!(rows, records);
}

/// A game of a job, played again from the job's inputs and its seed: its actions replay to
/// exactly its record, and the page opens it on the play board.
#[tokio::test]
async fn a_job_s_game_is_replayed_from_its_seed() {
    let app = spawn_app_with_jobs(settings(1, 100)).await;
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-matthews-v1", "agents": "random,greedy", "games": 20, "seed": 4}),
    )
    .await;
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    let (_, rows) = parse_games(
        &app.get(&format!("{url}/games.csv"))
            .await
            .text()
            .await
            .unwrap(),
    );
    for k in [0u64, 7, 19] {
        let r = app.get(&format!("{url}/games/{k}")).await;
        assert_eq!(r.status(), StatusCode::OK);
        let g: Value = r.json().await.unwrap();
        let actions = g["actions"].as_array().unwrap();
        let rec = &rows[k as usize];
        assert_eq!(actions.len() as u32, rec.actions, "game {k}");
        let replayed: Value = app
            .post(
                "/api/v1/rulesets/tsoro-matthews-v1/replay",
                &json!({"actions": actions}),
            )
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(replayed["result"]["turns"], rec.turns, "game {k}");
        assert_eq!(replayed["result"]["finished"], true);
        // The page: the play board with the game's moves loaded.
        let id = url.rsplit('/').next().unwrap();
        let page = app.get(&format!("/simulations/{id}/game?game={k}")).await;
        assert_eq!(page.status(), StatusCode::OK);
        let html = page.text().await.unwrap();
        let first = serde_json::to_string(&actions[0]).unwrap();
        assert!(
            html.contains(&first.replace("</", "<\\/")),
            "game {k}: the moves are loaded"
        );
    }
    let r = app.get(&format!("{url}/games/20")).await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
}

/// The `frictionless` executable: `$TSORO_FRICTIONLESS`, or the one `scripts/frictionless-venv`
/// installs under `target/` (as the archive's package test finds it).
pub fn frictionless() -> Option<std::path::PathBuf> {
    if let Ok(p) = std::env::var("TSORO_FRICTIONLESS") {
        return Some(p.into());
    }
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/frictionless-venv/bin/frictionless");
    p.exists().then_some(p)
}

/// Each `<a href=".." download="..">` of a page: (url, file name).
pub fn download_links(html: &str) -> Vec<(String, String)> {
    html.split("<a ")
        .skip(1)
        .filter_map(|a| {
            let tag = &a[..a.find('>')?];
            let attr = |name: &str| {
                let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
                let len = tag[start..].find('"')?;
                Some(tag[start..start + len].to_string())
            };
            Some((attr("href")?, attr("download")?))
        })
        .collect()
}

/// A finished simulation's files, saved from its page's links under the names the browser
/// gives them (the `download` attribute, and the server's `Content-Disposition`), form the
/// data package their `datapackage.json` describes: `frictionless validate` passes on the
/// folder.
#[tokio::test]
async fn the_files_saved_from_a_simulation_s_page_form_a_valid_data_package() {
    let app = spawn_app_with_jobs(settings(1, 100)).await;
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "games": 150, "seed": 3}),
    )
    .await;
    let v = wait_done(&app, &url).await;
    assert_eq!(v["status"], "done", "{v}");
    let id = v["id"].as_str().unwrap();
    let html = app
        .get(&format!("/simulations/{id}"))
        .await
        .text()
        .await
        .unwrap();
    let links = download_links(&html);
    let names: Vec<&str> = links.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        names,
        ["games.csv", "summary.csv", "datapackage.json"],
        "{html}"
    );
    let dir = tempfile::tempdir().unwrap();
    for (href, name) in &links {
        let r = app.get(href).await;
        assert_eq!(r.status(), StatusCode::OK, "{href}");
        let disposition = r.headers()["content-disposition"].to_str().unwrap();
        assert_eq!(
            disposition,
            format!("attachment; filename=\"{name}\""),
            "{href}: saved under the page's name"
        );
        std::fs::write(dir.path().join(name), r.bytes().await.unwrap()).unwrap();
    }
    let dp: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("datapackage.json")).unwrap())
            .unwrap();
    for res in dp["resources"].as_array().unwrap() {
        let path = res["path"].as_str().unwrap();
        assert!(
            dir.path().join(path).exists(),
            "{path}: the package's file is among those saved"
        );
    }
    let Some(tool) = frictionless() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "frictionless not installed: CI runs scripts/frictionless-venv (.ci/run does)"
        );
        eprintln!("frictionless not installed: run scripts/frictionless-venv (as .ci/run does)");
        return;
    };
    let out = std::process::Command::new(&tool)
        .args(["validate", "--json", "datapackage.json"])
        .current_dir(dir.path())
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

/// The 202 of a new job carries its estimated cost and how many jobs were ahead of it, and its
/// page says what it should take before any game has ended.
#[tokio::test]
async fn a_new_job_says_its_cost_and_place_in_the_queue_and_its_page_an_eta() {
    // No workers: the jobs stay queued.
    let app = tsoro_tests::spawn_app().await;
    let body =
        json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "games": 500, "seed": 1});
    let mut ids = vec![];
    for expected in 0..2 {
        let r = app.post("/api/v1/simulations", &body).await;
        assert_eq!(r.status(), StatusCode::ACCEPTED);
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["queue_position"], expected, "{v}");
        let cost = v["estimate"]["core_seconds"].as_f64().unwrap();
        assert!(cost > 0.0 && cost.is_finite(), "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    // The same estimate on a later read: it is the job's.
    let again: Value = app
        .get(&format!("/api/v1/simulations/{}", ids[1]))
        .await
        .json()
        .await
        .unwrap();
    assert!(again["estimate"]["core_seconds"].as_f64().unwrap() > 0.0);
    assert!(again.get("queue_position").is_none());
    let html = app
        .get(&format!("/simulations/{}", ids[1]))
        .await
        .text()
        .await
        .unwrap();
    let estimate = html
        .split("<p id=\"estimate\">")
        .nth(1)
        .and_then(|s| s.split("</p>").next())
        .unwrap_or_else(|| panic!("no estimate on the page: {html}"));
    assert!(estimate.contains("of one core"), "{estimate}");
}

/// Every POST that queues jobs answers the same way: a comparison, a readings study and a
/// tournament carry their estimated cost (their jobs' together) and how many jobs were queued
/// or running before them, and their later reads keep the estimate.
#[tokio::test]
async fn every_queued_kind_says_its_cost_and_place_in_the_queue() {
    // No workers: the jobs stay queued, so each POST finds the earlier ones ahead of it.
    let app = tsoro_tests::spawn_app().await;
    let posts = [
        (
            "/api/v1/comparisons",
            json!({"rulesets": ["tsoro-ludii", "tsoro-ludii-additional-capture"],
                   "agents": "random,greedy", "games": 200, "seed": 1}),
            2,
        ),
        (
            "/api/v1/readings",
            json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture"],
                   "agents": "random,random", "games": 100, "seed": "3"}),
            0,
        ),
        (
            "/api/v1/tournaments",
            json!({"ruleset": "tsoro-ludii", "agents": ["random", "greedy"], "pairs": 10}),
            1,
        ),
    ];
    let mut ahead = 0;
    for (path, body, jobs) in posts {
        let r = app.post(path, &body).await;
        assert_eq!(r.status(), StatusCode::ACCEPTED, "{path}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["queue_position"], ahead, "{path}: {v}");
        let cost = v["estimate"]["core_seconds"].as_f64().unwrap();
        assert!(cost > 0.0 && cost.is_finite(), "{path}: {v}");
        let again: Value = app
            .get(v["url"].as_str().unwrap())
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(again["estimate"], v["estimate"], "{path}");
        assert!(again.get("queue_position").is_none(), "{path}");
        // A study's runs are as many as its readings and pairings: count them as stored.
        let n = match jobs {
            0 => again["runs"]["runs"].as_array().unwrap().len() as i64,
            n => n,
        };
        ahead += n;
    }
}
