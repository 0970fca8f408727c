//! Shares per owner and per client (issue 34, items 5 and 8): quotas of jobs, of outstanding
//! work and of stored bytes per owner (a token's holder; without a token, the client's
//! address, read from `X-Forwarded-For` only behind a trusted proxy), retention of anonymous
//! jobs by default, and the export slots: a share per client and a stall timeout, tried with
//! real clients that stop reading.

use crate::helpers::problem;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tsoro_api::access::{Role, store as tokens};
use tsoro_api::settings::{AppSettings, JobSettings};
use tsoro_tests::TestApp;

/// The job settings of these tests: `workers` worker loops, quick to notice work.
fn settings(workers: usize) -> JobSettings {
    JobSettings {
        workers,
        lease: Duration::from_secs(2),
        poll: Duration::from_millis(50),
        threads: 1,
        ..JobSettings::default()
    }
}

/// The app over a fresh database with these job settings, behind a "proxy" at 127.0.0.1 (the
/// tests' own address) when `proxied`: the clients are then the addresses the tests forward.
async fn app(jobs: JobSettings, proxied: bool) -> TestApp {
    let url = tsoro_tests::fresh_database().await;
    let pool = tsoro_api::database::connect(&url).await.unwrap();
    let settings = AppSettings {
        bind: String::new(),
        body_limit: tsoro_api::settings::DEFAULT_BODY_LIMIT,
        jobs,
        db_down_threshold: tsoro_api::settings::DEFAULT_DOWN_THRESHOLD,
        embedded: None,
        allow_anonymous_writes: false,
        requests: Default::default(),
        trusted_proxies: if proxied {
            vec!["127.0.0.1".parse().unwrap()]
        } else {
            vec![]
        },
        allowed_hosts: vec![],
    };
    tsoro_tests::spawn_app_from(pool, settings).await
}

const A: &str = "203.0.113.1";
const B: &str = "203.0.113.2";

/// POSTs `body` to `path` as the client `from` (forwarded), with a token if given.
async fn post_as(
    app: &TestApp,
    path: &str,
    from: &str,
    token: Option<&str>,
    body: &Value,
) -> reqwest::Response {
    let mut r = app
        .client
        .post(format!("{}{path}", app.address))
        .header("x-forwarded-for", from)
        .json(body);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    r.send().await.unwrap()
}

/// A cheap simulation.
fn small() -> Value {
    json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 10})
}

/// Checks a 429 of the quotas: `Retry-After` (also in the body), the limit named, and the
/// figures. Returns the problem.
async fn over_quota(r: reqwest::Response, limit: &str) -> Value {
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1);
    let p = problem(r, 429).await;
    assert_eq!(p["type"], "/problems/over-quota", "{p}");
    assert_eq!(p["retry_after"], retry);
    assert_eq!(p["limit"], limit, "{p}");
    assert_eq!(p["errors"][0]["field"], limit, "{p}");
    for k in [
        "outstanding_jobs",
        "outstanding_cost",
        "requested_jobs",
        "requested_cost",
        "max_owner_jobs",
        "max_owner_cost",
    ] {
        assert!(p[k].is_number(), "{k}: {p}");
    }
    p
}

/// The URL of an accepted job.
async fn accepted(r: reqwest::Response) -> String {
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let v: Value = r.json().await.unwrap();
    v["url"].as_str().unwrap().to_string()
}

/// Item 5: with the defaults, one client can no longer fill `--max-jobs` alone: its ninth job
/// is refused (429, the figures, `Retry-After`), and a forged `X-Forwarded-For` does not
/// make it another client when no proxy is trusted.
#[tokio::test]
async fn one_client_cannot_fill_the_service_by_default() {
    let app = app(settings(0), false).await;
    let n = tsoro_api::settings::DEFAULT_MAX_OWNER_JOBS;
    assert!(n < tsoro_api::settings::DEFAULT_MAX_JOBS);
    for _ in 0..n {
        assert_eq!(
            app.post("/api/v1/simulations", &small()).await.status(),
            StatusCode::ACCEPTED
        );
    }
    let p = over_quota(
        app.post("/api/v1/simulations", &small()).await,
        "max_owner_jobs",
    )
    .await;
    assert_eq!(p["outstanding_jobs"], n);
    assert_eq!(p["max_owner_jobs"], n);
    assert!(
        p["detail"].as_str().unwrap().contains("client 127.0.0.1"),
        "{p}"
    );
    // The header is the client's own word here.
    let forged = post_as(&app, "/api/v1/simulations", B, None, &small()).await;
    over_quota(forged, "max_owner_jobs").await;
}

/// Item 5: per owner, at most N jobs queued or running, tournaments and comparisons counted:
/// each client behind the proxy has its own share, each token its own whatever its address,
/// and a job that ends gives its place back.
#[tokio::test]
async fn each_owner_has_its_own_share_of_jobs() {
    let mut s = settings(0);
    s.max_owner_jobs = 2;
    let app = app(s, true).await;
    let first = accepted(post_as(&app, "/api/v1/simulations", A, None, &small()).await).await;
    let tournament = json!({"ruleset": "tsoro-ludii", "agents": ["random", "greedy"], "pairs": 2});
    accepted(post_as(&app, "/api/v1/tournaments", A, None, &tournament).await).await;
    // A's two places are taken: a simulation, a tournament and a comparison are refused.
    for (path, body) in [
        ("/api/v1/simulations", small()),
        ("/api/v1/tournaments", tournament.clone()),
        (
            "/api/v1/comparisons",
            json!({"rulesets": ["tsoro-ludii", "tsoro-russ"], "games": 10}),
        ),
    ] {
        let p = over_quota(post_as(&app, path, A, None, &body).await, "max_owner_jobs").await;
        assert_eq!(p["outstanding_jobs"], 2, "{path}: {p}");
        assert!(p["detail"].as_str().unwrap().contains(A), "{p}");
    }
    // B, another client behind the same proxy, has its own.
    let compare = json!({"rulesets": ["tsoro-ludii", "tsoro-russ"], "games": 10});
    let r = post_as(&app, "/api/v1/comparisons", B, None, &compare).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    // A request of more jobs than an owner may ever have is refused as it is (422).
    let three =
        json!({"rulesets": ["tsoro-ludii", "tsoro-russ", "tsoro-matthews-basic"], "games": 10});
    let p = problem(
        post_as(&app, "/api/v1/comparisons", A, None, &three).await,
        422,
    )
    .await;
    assert_eq!(p["limit"], "max_owner_jobs", "{p}");
    // A cancelled job gives A its place back.
    assert_eq!(app.delete(&first).await.status(), StatusCode::OK);
    accepted(post_as(&app, "/api/v1/simulations", A, None, &small()).await).await;

    // With tokens, the owner is the token, wherever it comes from.
    let ann = tokens::add(&app.pool, "ann", Role::Runner).await.unwrap();
    let bob = tokens::add(&app.pool, "bob", Role::Runner).await.unwrap();
    for _ in 0..2 {
        accepted(post_as(&app, "/api/v1/simulations", A, Some(&ann), &small()).await).await;
    }
    let p = over_quota(
        post_as(&app, "/api/v1/simulations", B, Some(&ann), &small()).await,
        "max_owner_jobs",
    )
    .await;
    assert!(
        p["detail"].as_str().unwrap().contains("token \"ann\""),
        "{p}"
    );
    accepted(post_as(&app, "/api/v1/simulations", A, Some(&bob), &small()).await).await;
}

/// The estimated costs (core-seconds) of the stored jobs of the client `client`.
async fn stored_costs(app: &TestApp, client: &str) -> Vec<f64> {
    sqlx::query_scalar(
        "SELECT estimated_cost FROM simulation_jobs WHERE client = $1 ORDER BY created_at",
    )
    .bind(client)
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

/// Item 5: per owner, at most M core-seconds of estimated work outstanding, each job priced
/// by the cost model (tournaments too): past it, 429 with what is outstanding, what was asked
/// and the limit.
#[tokio::test]
async fn each_owner_has_a_bound_on_its_outstanding_work() {
    let mut s = settings(0);
    // A million random games of tsoro 4x8 are priced at some 0.9 core-seconds: one fits,
    // two do not.
    s.max_owner_cost = 1.5;
    let app = app(s, true).await;
    let million = json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 1_000_000});
    let first = accepted(post_as(&app, "/api/v1/simulations", A, None, &million).await).await;
    let tournament = json!({"ruleset": "tsoro-ludii", "agents": ["random", "greedy"], "pairs": 2});
    accepted(post_as(&app, "/api/v1/tournaments", A, None, &tournament).await).await;
    let costs = stored_costs(&app, A).await;
    assert_eq!(costs.len(), 2);
    assert!(costs.iter().all(|c| *c > 0.0), "{costs:?}");
    assert!(
        costs[0] + costs[1] < 1.5 && 2.0 * costs[0] > 1.5,
        "{costs:?}"
    );

    let p = over_quota(
        post_as(&app, "/api/v1/simulations", A, None, &million).await,
        "max_owner_cost",
    )
    .await;
    // Outstanding: the simulation's and the tournament's, none of it played yet.
    let outstanding = p["outstanding_cost"].as_f64().unwrap();
    assert!(
        (outstanding - (costs[0] + costs[1])).abs() < 1e-9,
        "{p} {costs:?}"
    );
    assert!((p["requested_cost"].as_f64().unwrap() - costs[0]).abs() < 1e-9);
    assert_eq!(p["max_owner_cost"], 1.5);
    // B has its own bound.
    accepted(post_as(&app, "/api/v1/simulations", B, None, &million).await).await;
    // More than an owner may ever have outstanding is refused as it is (422).
    let two = json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 2_000_000});
    let p = problem(
        post_as(&app, "/api/v1/simulations", A, None, &two).await,
        422,
    )
    .await;
    assert_eq!(p["limit"], "max_owner_cost", "{p}");
    // Cancelled, the first job's work is no longer outstanding.
    assert_eq!(app.delete(&first).await.status(), StatusCode::OK);
    accepted(post_as(&app, "/api/v1/simulations", A, None, &million).await).await;
}

/// Waits (up to a minute) for the job at `url` to end; returns its view.
async fn ended(app: &TestApp, url: &str) -> Value {
    for _ in 0..6 {
        let v: Value = app
            .get(&format!("{url}?wait=10"))
            .await
            .json()
            .await
            .unwrap();
        if v["status"] != "queued" && v["status"] != "running" {
            return v;
        }
    }
    panic!("{url} did not end");
}

/// Item 5: disk per owner: once an owner's jobs store `--max-owner-bytes`, its new jobs are
/// refused (507, naming the bytes stored and the bound) until it deletes some.
#[tokio::test]
async fn an_owner_that_stores_its_share_of_disk_starts_no_more_jobs() {
    let mut s = settings(1);
    s.max_owner_bytes = 1000;
    let app = app(s, true).await;
    let body = json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 2000});
    let url = accepted(post_as(&app, "/api/v1/simulations", A, None, &body).await).await;
    let done = ended(&app, &url).await;
    assert_eq!(done["status"], "done");
    let stored = done["stored_bytes"].as_i64().unwrap();
    assert!(stored >= 1000, "{done}");

    let r = post_as(&app, "/api/v1/simulations", A, None, &small()).await;
    let p = problem(r, 507).await;
    assert_eq!(p["type"], "/problems/storage-quota", "{p}");
    assert_eq!(p["limit"], "max_owner_bytes");
    assert_eq!(p["stored_bytes"], stored, "{p}");
    assert_eq!(p["max_owner_bytes"], 1000);
    assert!(p["detail"].as_str().unwrap().contains("purge=true"), "{p}");
    // Others are not held to A's disk.
    accepted(post_as(&app, "/api/v1/simulations", B, None, &small()).await).await;
    // Deleted, A's records no longer count.
    let purged = app.delete(&format!("{url}?purge=true")).await;
    assert_eq!(purged.status(), StatusCode::OK);
    accepted(post_as(&app, "/api/v1/simulations", A, None, &small()).await).await;
}

/// Item 5: retention is on by default for anonymous jobs: an anonymous job that ended longer
/// ago than the default period is deleted by the workers, a token's job of the same age kept
/// (`--retention-days` keeps everything by default).
#[tokio::test]
async fn ended_anonymous_jobs_are_deleted_after_the_default_period() {
    let days = tsoro_api::settings::DEFAULT_ANONYMOUS_RETENTION_DAYS;
    assert!(days > 0.0);
    assert_eq!(
        JobSettings::default().anonymous_retention,
        tsoro_api::settings::retention(days)
    );
    assert_eq!(JobSettings::default().retention, None);
    let app = app(settings(1), false).await;
    let anonymous = accepted(app.post("/api/v1/simulations", &small()).await).await;
    assert_eq!(ended(&app, &anonymous).await["status"], "done");
    let ann = tokens::add(&app.pool, "ann", Role::Runner).await.unwrap();
    let r = app
        .client
        .post(format!("{}/api/v1/simulations", app.address))
        .bearer_auth(&ann)
        .json(&small())
        .send()
        .await
        .unwrap();
    let owned = accepted(r).await;
    assert_eq!(ended(&app, &owned).await["status"], "done");
    // Both ended a day past the period.
    sqlx::query("UPDATE simulation_jobs SET finished_at = now() - make_interval(days => $1)")
        .bind(days as i32 + 1)
        .execute(&app.pool)
        .await
        .unwrap();
    let since = std::time::Instant::now();
    while app.get(&anonymous).await.status() != StatusCode::NOT_FOUND {
        assert!(
            since.elapsed() < Duration::from_secs(60),
            "the anonymous job was never deleted"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(app.get(&owned).await.status(), StatusCode::OK);
}

/// A client that asks for an export and then reads nothing more: a connection with a small
/// receive buffer whose response head has been read.
struct Stalled {
    socket: tokio::net::TcpStream,
    /// What was read past the head.
    body: Vec<u8>,
}

/// Opens an export of `path` as the client `from` and stops reading after the head, which
/// must be 200.
async fn stall(app: &TestApp, path: &str, from: &str) -> Stalled {
    let addr: std::net::SocketAddr = app.address.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut socket = socket.connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nX-Forwarded-For: {from}\r\n\r\n");
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    let head_end = loop {
        let n = socket.read(&mut buf).await.unwrap();
        assert!(n > 0, "closed before the head");
        got.extend_from_slice(&buf[..n]);
        if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&got[..head_end]).to_string();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    Stalled {
        socket,
        body: got[head_end..].to_vec(),
    }
}

/// Item 8: exports have a share per client and a stall timeout. Two stalled downloads of one
/// client (TCP connections that stop reading) take its share: its third is refused (429,
/// `Retry-After`) while another client still gets a slot; once they have read nothing for
/// `--export-stall-secs` they are dropped: their slots freed, their connections closed.
#[tokio::test]
async fn stalled_exports_hold_only_their_clients_share_and_are_dropped() {
    let mut s = settings(1);
    s.max_exports = 3;
    s.max_client_exports = 2;
    s.export_stall = Duration::from_secs(1);
    let app = app(s, true).await;
    // Some 20 MB of CSV: far more than the sockets' buffers hold.
    let body = json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 200_000});
    let url = accepted(post_as(&app, "/api/v1/simulations", A, None, &body).await).await;
    assert_eq!(ended(&app, &url).await["status"], "done");
    let csv = format!("{url}/games.csv");
    // A tournament's games stream in the same slots.
    let t = json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "pairs": 2});
    let tournament = accepted(post_as(&app, "/api/v1/tournaments", A, None, &t).await).await;
    assert_eq!(ended(&app, &tournament).await["status"], "done");
    let tournament_csv = format!("{tournament}/games.csv");
    let get_tournament = |from: &'static str| {
        app.client
            .get(format!("{}{tournament_csv}", app.address))
            .header("x-forwarded-for", from)
            .send()
    };
    let r = get_tournament(B).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        r.headers()["content-disposition"],
        "attachment; filename=\"games.csv\""
    );
    let tournament_games = r.text().await.unwrap();
    // The header and the 3 pairings' 2 pairs of 2 games.
    assert_eq!(
        tournament_games.lines().count(),
        1 + 3 * 2 * 2,
        "{tournament_games}"
    );

    // B's whole export, to compare with.
    let get_as = |from: &'static str| {
        app.client
            .get(format!("{}{csv}", app.address))
            .header("x-forwarded-for", from)
            .send()
    };
    let whole = get_as(B).await.unwrap();
    assert_eq!(whole.status(), StatusCode::OK);
    let whole = whole.bytes().await.unwrap();
    assert!(whole.len() > 15_000_000, "{}", whole.len());

    let mut stalled = vec![stall(&app, &csv, A).await, stall(&app, &csv, A).await];
    // A's share is taken: 429 before any body.
    let r = get_as(A).await.unwrap();
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1);
    let p = problem(r, 429).await;
    assert_eq!(p["type"], "/problems/too-many-client-exports", "{p}");
    assert_eq!(p["errors"][0]["field"], "max_client_exports");
    // So is its tournament's games.csv: it streams in the same slots.
    let p = problem(get_tournament(A).await.unwrap(), 429).await;
    assert_eq!(p["type"], "/problems/too-many-client-exports", "{p}");
    // B still gets the third slot, whole.
    let r = get_as(B).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.bytes().await.unwrap(), whole);

    // The stalled exports are dropped: A gets a slot again (without the stall timeout, the
    // stalled connections, still open, would hold A's share for good).
    let since = std::time::Instant::now();
    loop {
        let r = get_as(A).await.unwrap();
        if r.status() == StatusCode::OK {
            assert_eq!(r.bytes().await.unwrap(), whole);
            let r = get_tournament(A).await.unwrap();
            assert_eq!(r.status(), StatusCode::OK);
            assert_eq!(r.text().await.unwrap(), tournament_games);
            break;
        }
        problem(r, 429).await;
        assert!(
            since.elapsed() < Duration::from_secs(60),
            "the stalled exports still hold A's share"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The stalled connections were closed by the service, though their clients read nothing
    // (reset: what they still had to send dropped): writing to them now fails. Without the
    // close, they would stay open for good, each holding its socket's buffers.
    for s in &mut stalled {
        let since = std::time::Instant::now();
        while s.socket.write_all(b"\r\n").await.is_ok() {
            assert!(
                since.elapsed() < Duration::from_secs(60),
                "the stalled export's connection is still open"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // What they got ends short of the whole body: dropped, not finished.
        let mut rest = Vec::new();
        let _ = s.socket.read_to_end(&mut rest).await;
        s.body.extend_from_slice(&rest);
        assert!(s.body.len() < whole.len(), "{}", s.body.len());
        assert!(!s.body.ends_with(b"0\r\n\r\n"), "the body ended whole");
    }
}
