//! Jobs at scale (issue 20 items 1 and 4; issue 21's progress and status): chunks cut as
//! workers claim them, a claim that reads no history, progress that moves within seconds for
//! slow agents. (Exports that survive many slow readers, measured in the process's memory,
//! are `tests/export_memory.rs`.)

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tsoro_api::jobs::store;
use tsoro_api::settings::JobSettings;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
use tsoro_engine::stats::{GameRecord, csv_line};
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

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_ten_million_game_job_is_one_row_until_workers_cut_its_chunks() {
    let app = spawn_app_with_jobs(settings(0, 20_000)).await;
    let start = Instant::now();
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-russ", "agents": "random", "games": 10_000_000}),
    )
    .await;
    let posted = start.elapsed();
    assert_eq!(
        count(&app, "SELECT count(*) FROM simulation_chunks").await,
        0
    );
    assert!(posted < Duration::from_secs(2), "the POST took {posted:?}");

    // Each claim cuts the next chunk; a given-back chunk is taken again before a new one.
    let a = store::claim(&app.pool, "a", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    let b = store::claim(&app.pool, "b", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((a.idx, a.first_game, a.end_game), (0, 0, 20_000));
    assert_eq!((b.idx, b.first_game, b.end_game), (1, 20_000, 40_000));
    store::release(&app.pool, &a, "a").await.unwrap();
    let c = store::claim(&app.pool, "c", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((c.idx, c.first_game), (0, 0));
    assert_eq!(
        count(&app, "SELECT count(*) FROM simulation_chunks").await,
        2
    );
    assert_eq!(
        count(&app, "SELECT next_game FROM simulation_jobs").await,
        40_000
    );
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert_eq!(v["status"], "running");

    // Cancel drops what is not played; purge the rest.
    assert_eq!(app.delete(&url).await.status(), StatusCode::OK);
    assert!(
        store::claim(&app.pool, "d", Duration::from_secs(30))
            .await
            .unwrap()
            .is_none()
    );
    let r = app.delete(&format!("{url}?purge=true")).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        count(&app, "SELECT count(*) FROM simulation_chunks").await,
        0
    );

    // Many concurrent claims over a small job hand out every game exactly once.
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-russ", "agents": "random", "games": 200_000}),
    )
    .await;
    let mut set = tokio::task::JoinSet::new();
    for w in 0..16 {
        let pool = app.pool.clone();
        set.spawn(async move {
            let mut got = vec![];
            while let Some(c) = store::claim(&pool, &format!("w{w}"), Duration::from_secs(30))
                .await
                .unwrap()
            {
                got.push((c.first_game, c.end_game));
            }
            got
        });
    }
    let mut ranges: Vec<(u64, u64)> = set.join_all().await.into_iter().flatten().collect();
    ranges.sort();
    let expected: Vec<(u64, u64)> = (0..10u64).map(|i| (i * 20_000, (i + 1) * 20_000)).collect();
    assert_eq!(ranges, expected, "{url}");
}

#[tokio::test]
async fn a_lazily_cut_job_resumes_after_a_dead_worker_with_the_engine_s_records() {
    // A "worker" takes the second chunk and dies holding it; live workers finish the job.
    let app = spawn_app_with_jobs(settings(0, 300)).await;
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-ludii", "agents": "greedy,random", "games": 1000, "seed": 11}),
    )
    .await;
    let first = store::claim(&app.pool, "dead", Duration::from_secs(1))
        .await
        .unwrap()
        .unwrap();
    store::release(&app.pool, &first, "dead").await.unwrap();
    let _ = store::claim(&app.pool, "dead", Duration::from_secs(1))
        .await
        .unwrap()
        .unwrap();
    let dead = store::claim(&app.pool, "dead", Duration::from_secs(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((dead.idx, dead.first_game), (1, 300));
    let live = tsoro_tests::spawn_app_with_settings(app.pool.clone(), settings(2, 300)).await;
    let v = wait_done(&live, &url).await;
    assert_eq!(v["progress"]["games_done"], 1000);
    assert_eq!(v["progress"]["games_stored"], 1000);
    assert_eq!(
        count(&app, "SELECT count(*) FROM simulation_chunks").await,
        4
    );

    let g = catalogue::get("tsoro-ludii")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let spec = SimSpec {
        agents: ["greedy".parse().unwrap(), "random".parse().unwrap()],
        games: 0..1000,
        seed: 11,
        swap_seats: true,
        opening_plies: 0,
    };
    let mut expected = (tsoro_engine::columns::header(GameRecord::COLUMNS) + "\n").into_bytes();
    simulate_any(&g, &spec, &SimOptions::default(), &mut |r| {
        csv_line::write_line(r, &mut expected)
    })
    .unwrap();
    let got = app
        .get(&format!("{url}/games.csv"))
        .await
        .bytes()
        .await
        .unwrap();
    assert!(
        got[..] == expected[..],
        "games.csv differs from tsoro simulate --csv"
    );
}

/// Counts, over an `EXPLAIN (ANALYZE, FORMAT JSON)` plan, the rows the scans of `table` read
/// (returned and removed by a filter).
fn rows_read(plan: &Value, table: &str) -> f64 {
    let mut n = 0.0;
    let scan = plan["Node Type"].as_str().unwrap_or("").contains("Scan");
    if scan && plan["Relation Name"] == table {
        let loops = plan["Actual Loops"].as_f64().unwrap_or(1.0);
        n += (plan["Actual Rows"].as_f64().unwrap_or(0.0)
            + plan["Rows Removed by Filter"].as_f64().unwrap_or(0.0))
            * loops;
    }
    for sub in plan["Plans"].as_array().into_iter().flatten() {
        n += rows_read(sub, table);
    }
    n
}

async fn explain(app: &TestApp, sql: &str) -> Value {
    let mut tx = app.pool.begin().await.unwrap();
    let plan: Value = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "EXPLAIN (ANALYZE, FORMAT JSON) {sql}"
    )))
    .bind("explainer")
    .bind(30.0f64)
    .bind(tsoro_engine::VERSION)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.rollback().await.unwrap();
    plan[0]["Plan"].clone()
}

#[tokio::test]
async fn claiming_reads_no_finished_job_s_chunks() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    // History: 4,000 finished jobs of 50 done chunks each (200,000 chunk rows).
    sqlx::raw_sql(
        "INSERT INTO simulation_jobs (id, ruleset, ruleset_hash, config, params, agents, games, \
           seed, swap_seats, chunk_games, status, games_done, next_game, created_at, finished_at) \
         SELECT gen_random_uuid(), 'tsoro-russ', 'h', '{}', '{}', ARRAY['random','random'], 5000, \
           7, true, 100, 'done', 5000, 5000, now() - interval '1 day', now() - interval '1 hour' \
         FROM generate_series(1, 4000); \
         INSERT INTO simulation_chunks (job_id, idx, first_game, end_game, status, records) \
         SELECT j.id, i, i * 100, (i + 1) * 100, 'done', '\\x0a'::bytea \
         FROM simulation_jobs j, generate_series(0, 49) AS i; \
         ANALYZE simulation_jobs; ANALYZE simulation_chunks;",
    )
    .execute(&app.pool)
    .await
    .unwrap();
    // Work: a job with an expired chunk, and one with games not yet handed out.
    let stale = submit(&app, json!({"ruleset": "tsoro-russ", "games": 300})).await;
    store::claim(&app.pool, "gone", Duration::from_millis(1))
        .await
        .unwrap()
        .unwrap();
    // And a ten-million-game job queued behind it (100,000 chunks of 100 had they been cut at
    // once).
    submit(
        &app,
        json!({"ruleset": "tsoro-russ", "agents": "random", "games": 10_000_000}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let plan = explain(&app, store::RECLAIM_SQL).await;
    let read = rows_read(&plan, "simulation_chunks");
    assert!(read <= 10.0, "the reclaim read {read} chunk rows: {plan:#}");
    let read = rows_read(&plan, "simulation_jobs");
    assert!(read <= 10.0, "the reclaim read {read} job rows: {plan:#}");
    let plan = explain(&app, store::CUT_SQL).await;
    let read = rows_read(&plan, "simulation_jobs");
    assert!(read <= 10.0, "cutting read {read} job rows: {plan:#}");
    // It counts the chunks in play (to serve the job served least), never the history.
    let read = rows_read(&plan, "simulation_chunks");
    assert!(read <= 10.0, "cutting read {read} chunk rows: {plan:#}");

    // And the claims themselves: the expired chunk first, then a chunk cut of the job with
    // none in play (the ten-million-game one: fair shares, issue 34), then the first's next.
    let c = store::claim(&app.pool, "w", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (c.idx, c.job.id.to_string()),
        (0, stale[stale.len() - 36..].to_string())
    );
    let c = store::claim(&app.pool, "w", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(c.idx, 0);
    assert_ne!(c.job.id.to_string(), stale[stale.len() - 36..]);
    let c = store::claim(&app.pool, "w", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (c.idx, c.job.id.to_string()),
        (1, stale[stale.len() - 36..].to_string())
    );
    // A job read (the worker's claim reads one) no longer adds up its chunks.
    assert!(!format!("{c:?}").contains("stored_bytes"));
}

#[tokio::test]
async fn progress_moves_within_seconds_for_slow_agents_with_an_eta() {
    // Chunks of 100 games (however long they take), each game of searching agents a good
    // fraction of a second: a chunk takes some seconds.
    let app = spawn_app_with_jobs(JobSettings {
        max_job_cost: f64::INFINITY,
        chunk_seconds: f64::INFINITY,
        ..settings(1, 100)
    })
    .await;
    let url = submit(
        &app,
        json!({"ruleset": "tsoro-matthews-basic", "agents": "mcts:1000", "games": 400}),
    )
    .await;
    let start = Instant::now();
    let v = loop {
        let v: Value = app.get(&url).await.json().await.unwrap();
        if v["progress"]["games_done"].as_i64().unwrap() > 0 {
            break v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no progress in 30 s: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let p = &v["progress"];
    assert_eq!(v["status"], "running");
    assert_eq!(
        p["games_stored"], 0,
        "counted before its chunk is stored: {v}"
    );
    assert!(p["games_per_second"].as_f64().unwrap() > 0.0, "{v}");
    assert!(p["eta_seconds"].as_f64().unwrap() > 0.0, "{v}");
    let eta = p["eta"].as_str().unwrap();
    assert!(eta > v["started_at"].as_str().unwrap(), "{v}");
    // The same from the list, and the status is one of the enum's.
    let list: Value = app
        .get("/api/v1/simulations?status=running")
        .await
        .json()
        .await
        .unwrap();
    assert!(list["items"][0]["progress"]["games_done"].as_i64().unwrap() > 0);
    let r = app.get("/api/v1/simulations?status=Running").await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert_eq!(app.delete(&url).await.status(), StatusCode::OK);
    // The worker lets go of its chunk (dropped with the cancelled job) within moments.
    let t = Instant::now();
    while count(&app, "SELECT count(*) FROM simulation_chunks").await > 0 {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the chunk is still played"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The OpenAPI document gives the status as an enum and the ETA as a time.
    let doc: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .unwrap();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["JobStatus"]["enum"],
        json!(["queued", "running", "done", "failed", "cancelled"])
    );
    assert_eq!(
        schemas["JobView"]["properties"]["status"]["$ref"],
        "#/components/schemas/JobStatus"
    );
    let eta = &schemas["Progress"]["properties"]["eta"];
    assert!(eta.to_string().contains("date-time"), "{eta}");
}

/// Issue 34, item 9: hundreds of long polls (`?wait=`) on one job, many more than the service
/// has database connections, all get their answer when the job ends, and the wake-up costs the
/// database a bounded number of reads, not one per waiter. Every query the service makes takes
/// a connection from its pool; the pool here counts each one it hands out (new or reused).
#[tokio::test]
async fn hundreds_of_long_polls_are_answered_from_one_read_when_their_job_ends() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    const WAITERS: usize = 300;
    const CONNECTIONS: u32 = 4;
    let url = tsoro_tests::fresh_database().await;
    let handed_out = Arc::new(AtomicUsize::new(0));
    let (new, reused) = (handed_out.clone(), handed_out.clone());
    let pool = tsoro_api::database::pool_options()
        .max_connections(CONNECTIONS)
        .after_connect(move |_, _| {
            new.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Ok(()) })
        })
        .before_acquire(move |_, _| {
            reused.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Ok(true) })
        })
        .connect_with(tsoro_api::database::options(&url).unwrap())
        .await
        .unwrap();
    // No worker: the job ends when the test says so.
    let app = tsoro_tests::spawn_app_with_settings(pool, settings(0, 10)).await;
    let job = submit(
        &app,
        json!({"ruleset": "tsoro-ludii", "games": 20, "seed": 1}),
    )
    .await;
    let id: sqlx::types::Uuid = job.rsplit('/').next().unwrap().parse().unwrap();

    let mut waiters = tokio::task::JoinSet::new();
    for _ in 0..WAITERS {
        let (client, target) = (app.client.clone(), format!("{}{job}?wait=60", app.address));
        waiters.spawn(async move {
            let r = client.get(target).send().await.expect("an answer");
            let status = r.status();
            (status, r.json::<Value>().await.unwrap_or_default())
        });
    }
    // Every one is waiting (the service counts the requests awaiting a job).
    let start = Instant::now();
    loop {
        let health: Value = app.get("/health").await.json().await.unwrap();
        if health["long_polls"] == WAITERS {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{health}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The job ends (cancelled through a connection of the test's own).
    let before = handed_out.load(Ordering::SeqCst);
    let other = tsoro_api::database::connect(&url).await.unwrap();
    assert!(store::cancel(&other, id).await.unwrap());
    let mut answered = 0;
    while let Some(done) = waiters.join_next().await {
        let (status, body) = done.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["status"], "cancelled", "{body}");
        answered += 1;
    }
    assert_eq!(answered, WAITERS);
    let reads = handed_out.load(Ordering::SeqCst) - before;
    // One shared read of the job is two queries (its row, its chunks' usage); a few more may
    // be reads the waiters share when nothing is heard for a while.
    assert!(
        reads <= 8,
        "{reads} queries to wake {WAITERS} waiters (one shared read is 2)"
    );
}
