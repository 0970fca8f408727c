//! Who may do what, against the real service and database: anonymous writes only on a
//! loopback service without tokens; once a token exists, jobs need a runner's, belong to
//! their creator, and only an admin lists, stops or deletes anyone's; a job stays readable by
//! its link; no page of another site can make a browser write; the HTML form works in both
//! modes.

use crate::helpers;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tsoro_api::access::{Role, store};
use tsoro_api::settings::AppSettings;
use tsoro_api::startup::Application;
use tsoro_tests::{TestApp, fresh_database, spawn_app};

const SIM: &str = "/api/v1/simulations";

fn small_job() -> Value {
    json!({"ruleset": "tsoro-ludii", "agents": "random,random", "games": 4, "seed": 1})
}

/// A request with an optional bearer token.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> reqwest::Response {
    let mut r = app.client.request(method, format!("{}{path}", app.address));
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if let Some(b) = body {
        r = r.json(b);
    }
    r.send().await.expect("request")
}

/// Asserts a problem+json answer of this status and `type` (a 401 naming its scheme);
/// returns its body.
async fn problem(r: reqwest::Response, status: StatusCode, slug: &str) -> Value {
    if status == StatusCode::UNAUTHORIZED {
        assert_eq!(r.headers()["www-authenticate"], "Bearer realm=\"tsoro\"");
    }
    let v = helpers::problem(r, status.as_u16()).await;
    assert_eq!(v["type"], format!("/problems/{slug}"), "{v}");
    v
}

async fn job_count(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM simulation_jobs")
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

async fn create(app: &TestApp, token: Option<&str>) -> String {
    let r = send(app, Method::POST, SIM, token, Some(&small_job())).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let v: Value = r.json().await.unwrap();
    v["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn tokens_decide_who_starts_lists_stops_and_deletes_jobs() {
    let app = spawn_app().await;
    // Anonymous mode (a loopback service without tokens): anyone writes, and owns nothing.
    let early = create(&app, None).await;
    let owner: Option<String> =
        sqlx::query_scalar("SELECT owner FROM simulation_jobs WHERE id = $1::uuid")
            .bind(&early)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(owner, None);

    let admin = store::add(&app.pool, "root", Role::Admin).await.unwrap();
    let ann = store::add(&app.pool, "ann", Role::Runner).await.unwrap();
    let bob = store::add(&app.pool, "bob", Role::Runner).await.unwrap();
    let reader = store::add(&app.pool, "rea", Role::Reader).await.unwrap();
    assert!(matches!(
        store::add(&app.pool, "ann", Role::Admin).await,
        Err(store::TokenError::Taken(_))
    ));
    // Only hashes are stored.
    let stored: Vec<Vec<u8>> = sqlx::query_scalar("SELECT hash FROM api_tokens")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    for secret in [&admin, &ann, &bob, &reader] {
        assert!(!stored.iter().any(|h| h == secret.as_bytes()));
        assert!(stored.contains(&tsoro_api::access::hash(secret).to_vec()));
    }

    // Starting a job: a runner's token (or an admin's), nothing less.
    let before = job_count(&app).await;
    let r = send(&app, Method::POST, SIM, None, Some(&small_job())).await;
    let v = problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert!(v["detail"].as_str().unwrap().contains("Bearer"), "{v}");
    let bogus = format!("{}x", ann);
    let r = send(&app, Method::POST, SIM, Some(&bogus), Some(&small_job())).await;
    let text = r.text().await.unwrap();
    assert!(
        !text.contains(&bogus),
        "a token is never echoed back: {text}"
    );
    let r = send(&app, Method::POST, SIM, Some(&reader), Some(&small_job())).await;
    problem(r, StatusCode::FORBIDDEN, "forbidden").await;
    let comparison = json!({"rulesets": ["tsoro-ludii", "tsoro-matthews-basic"], "games": 2});
    let r = send(
        &app,
        Method::POST,
        "/api/v1/comparisons",
        None,
        Some(&comparison),
    )
    .await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert_eq!(
        job_count(&app).await,
        before,
        "no refused request made a job"
    );
    let r = send(
        &app,
        Method::POST,
        "/api/v1/comparisons",
        Some(&bob),
        Some(&comparison),
    )
    .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let annes = create(&app, Some(&ann)).await;
    let bobs = create(&app, Some(&bob)).await;
    let roots = create(&app, Some(&admin)).await;

    // Listing: an admin sees everyone's, a runner their own, no token nothing.
    let list = |token: Option<String>| {
        let app = &app;
        async move {
            let r = send(app, Method::GET, SIM, token.as_deref(), None).await;
            assert_eq!(r.status(), StatusCode::OK);
            let v: Value = r.json().await.unwrap();
            let mut ids: Vec<String> = v["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|j| j["id"].as_str().unwrap().to_string())
                .collect();
            ids.sort();
            ids
        }
    };
    assert_eq!(list(Some(ann.clone())).await, vec![annes.clone()]);
    assert_eq!(
        list(Some(bob.clone())).await.len(),
        3,
        "bob's job and comparison"
    );
    assert!(list(Some(reader.clone())).await.is_empty());
    assert_eq!(list(Some(admin.clone())).await.len(), 6);
    let r = send(&app, Method::GET, SIM, None, None).await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;

    // Stopping and deleting: one's own, or anyone's with an admin token.
    let job = |id: &str| format!("{SIM}/{id}");
    let purge = |id: &str| format!("{SIM}/{id}?purge=true");
    let r = send(&app, Method::DELETE, &job(&bobs), Some(&ann), None).await;
    problem(r, StatusCode::FORBIDDEN, "forbidden").await;
    let r = send(&app, Method::DELETE, &purge(&bobs), Some(&ann), None).await;
    problem(r, StatusCode::FORBIDDEN, "forbidden").await;
    let r = send(&app, Method::DELETE, &purge(&early), Some(&ann), None).await;
    problem(r, StatusCode::FORBIDDEN, "forbidden").await;
    let r = send(&app, Method::DELETE, &purge(&bobs), None, None).await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let r = send(&app, Method::DELETE, &purge(&annes), Some(&reader), None).await;
    problem(r, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(job_count(&app).await, 6, "nothing was deleted");
    let r = send(&app, Method::DELETE, &job(&annes), Some(&ann), None).await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["status"], "cancelled");
    let r = send(&app, Method::DELETE, &purge(&bobs), Some(&admin), None).await;
    assert_eq!(r.status(), StatusCode::OK);
    let r = send(&app, Method::DELETE, &purge(&early), Some(&admin), None).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(job_count(&app).await, 4);

    // A job and its exports stay readable by anyone with its link; so does the archive.
    for path in [job(&roots), format!("{}/datapackage.json", job(&roots))] {
        assert_eq!(app.get(&path).await.status(), StatusCode::OK, "{path}");
    }
    assert_eq!(
        app.get(&format!("/simulations/{roots}")).await.status(),
        StatusCode::OK
    );
    assert_eq!(app.get("/api/v1/games").await.status(), StatusCode::OK);
    assert_eq!(app.get("/api/v1/rulesets").await.status(), StatusCode::OK);
    // The home page no longer lists the jobs (their ids are their share links).
    let home = app.get("/").await.text().await.unwrap();
    assert!(!home.contains(&roots[..8]), "the home page lists a job");
    assert!(home.contains("not listed"));

    // A revoked token is refused at once.
    store::revoke(&app.pool, "ann").await.unwrap();
    let r = send(&app, Method::POST, SIM, Some(&ann), Some(&small_job())).await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let r = send(&app, Method::GET, SIM, Some(&ann), None).await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

#[tokio::test]
async fn pages_of_other_sites_cannot_make_a_browser_write() {
    let app = spawn_app().await;
    let id = create(&app, None).await;
    let before = job_count(&app).await;
    let url = format!("{}{SIM}", app.address);
    // "Simple" requests need no preflight: a form post or text/plain from another site.
    for (headers, body, ctype) in [
        (
            vec![
                ("Origin", "https://evil.example"),
                ("Sec-Fetch-Site", "cross-site"),
            ],
            small_job().to_string(),
            "text/plain",
        ),
        (
            vec![("Origin", "https://evil.example")],
            small_job().to_string(),
            "text/plain",
        ),
        (
            vec![("Sec-Fetch-Site", "same-site")],
            "ruleset=tsoro-ludii&games=4".to_string(),
            "application/x-www-form-urlencoded",
        ),
        (
            vec![("Origin", "null")],
            small_job().to_string(),
            "application/json",
        ),
    ] {
        let mut r = app
            .client
            .post(&url)
            .header("Content-Type", ctype)
            .body(body);
        for (k, v) in &headers {
            r = r.header(*k, *v);
        }
        let r = r.send().await.unwrap();
        problem(r, StatusCode::FORBIDDEN, "forbidden").await;
    }
    // Nor a cross-site DELETE, nor a replay.
    let r = app
        .client
        .delete(format!("{url}/{id}?purge=true"))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    problem(r, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(
        job_count(&app).await,
        before,
        "nothing was created or deleted"
    );
    // A form post without any Origin (not a browser) is still not JSON: nothing starts.
    let r = app
        .client
        .post(&url)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("ruleset=tsoro-ludii&games=4")
        .send()
        .await
        .unwrap();
    problem(
        r,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-media-type",
    )
    .await;
    assert_eq!(job_count(&app).await, before);

    // A preflight for a write gets nothing that allows it; one for a read does.
    for method in ["POST", "DELETE"] {
        let r = app
            .client
            .request(Method::OPTIONS, format!("{url}/{id}"))
            .header("Origin", "https://evil.example")
            .header("Access-Control-Request-Method", method)
            .header("Access-Control-Request-Headers", "content-type")
            .send()
            .await
            .unwrap();
        assert!(
            r.headers().get("access-control-allow-origin").is_none()
                && r.headers().get("access-control-allow-methods").is_none(),
            "{method}: {:?}",
            r.headers()
        );
    }
    let r = app
        .client
        .request(Method::OPTIONS, format!("{url}/{id}"))
        .header("Origin", "https://notebook.example")
        .header("Access-Control-Request-Method", "GET")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["access-control-allow-origin"], "*");

    // The service's own pages write as before: same-origin requests pass.
    let r = app
        .client
        .post(&url)
        .header("Origin", app.address.as_str())
        .header("Sec-Fetch-Site", "same-origin")
        .json(&small_job())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let r = app
        .client
        .post(&url)
        .header("Origin", app.address.as_str())
        .json(&small_job())
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status(),
        StatusCode::ACCEPTED,
        "an older browser's same-origin post"
    );
}

/// The app over a fresh database, listening on every interface (not loopback).
async fn exposed_app(allow_anonymous_writes: bool) -> (TestApp, AppSettings) {
    let url = fresh_database().await;
    let pool = tsoro_api::database::connect(&url).await.unwrap();
    let settings = AppSettings {
        bind: "0.0.0.0:0".into(),
        body_limit: tsoro_api::settings::DEFAULT_BODY_LIMIT,
        jobs: tsoro_api::settings::JobSettings {
            workers: 0,
            ..Default::default()
        },
        db_down_threshold: tsoro_api::settings::DEFAULT_DOWN_THRESHOLD,
        embedded: None,
        allow_anonymous_writes,
        requests: Default::default(),
        trusted_proxies: vec![],
        allowed_hosts: vec![],
    };
    let app = Application::build(&settings, pool.clone()).unwrap();
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    (
        TestApp {
            address,
            pool,
            client: reqwest::Client::new(),
        },
        settings,
    )
}

#[tokio::test]
async fn a_service_other_machines_reach_takes_no_anonymous_writes_unless_told() {
    let (app, settings) = exposed_app(false).await;
    // `tsoro serve` refuses to start this way, naming the flag that allows it.
    let e = tsoro_api::http::access::check_exposure(&settings, &app.pool)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("--allow-anonymous-writes"), "{e}");
    assert!(e.contains("tsoro token add"), "{e}");
    // Served anyway (the check is `serve`'s), it takes no anonymous writes.
    let r = send(&app, Method::POST, SIM, None, Some(&small_job())).await;
    let v = problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .contains("--allow-anonymous-writes"),
        "{v}"
    );
    let r = send(&app, Method::GET, SIM, None, None).await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let page = app.get("/simulations/new").await.text().await.unwrap();
    assert!(page.contains("id=\"token\""), "the form asks for a token");
    assert_eq!(job_count(&app).await, 0);
    // With a token it starts, and that token's holder writes.
    let ann = store::add(&app.pool, "ann", Role::Runner).await.unwrap();
    tsoro_api::http::access::check_exposure(&settings, &app.pool)
        .await
        .unwrap();
    create(&app, Some(&ann)).await;

    // --allow-anonymous-writes: started on purpose, it takes them.
    let (open, settings) = exposed_app(true).await;
    tsoro_api::http::access::check_exposure(&settings, &open.pool)
        .await
        .unwrap();
    create(&open, None).await;
    let page = open.get("/simulations/new").await.text().await.unwrap();
    assert!(!page.contains("id=\"token\""));
}

#[tokio::test]
async fn the_loopback_service_without_tokens_is_open_and_lists_its_jobs() {
    let app = spawn_app().await;
    let id = create(&app, None).await;
    let r = send(&app, Method::GET, SIM, None, None).await;
    assert_eq!(r.status(), StatusCode::OK);
    let home = app.get("/").await.text().await.unwrap();
    assert!(
        home.contains(&id[..8]),
        "the home page lists the latest jobs"
    );
    let page = app.get("/simulations/new").await.text().await.unwrap();
    assert!(!page.contains("id=\"token\""), "no token asked for");
    // A token that is not known is refused even here, rather than ignored.
    let r = send(
        &app,
        Method::POST,
        SIM,
        Some("tsoro_nope"),
        Some(&small_job()),
    )
    .await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let r = send(&app, Method::DELETE, &format!("{SIM}/{id}"), None, None).await;
    assert_eq!(r.status(), StatusCode::OK);
    // All tokens revoked: back to the anonymous mode of a loopback service.
    store::add(&app.pool, "tmp", Role::Admin).await.unwrap();
    let r = send(&app, Method::POST, SIM, None, Some(&small_job())).await;
    problem(r, StatusCode::UNAUTHORIZED, "unauthorized").await;
    store::revoke(&app.pool, "tmp").await.unwrap();
    create(&app, None).await;
}

/// A request to `path` naming `host` in its `Host` header.
async fn with_host(app: &TestApp, method: Method, path: &str, host: &str) -> reqwest::Response {
    app.client
        .request(method, format!("{}{path}", app.address))
        .header("host", host)
        .send()
        .await
        .unwrap()
}

/// Issue 46, item 6: DNS rebinding. A page of another site whose name is made to resolve to
/// 127.0.0.1 is of the same origin to the browser, so it passed the check of cross-site writes
/// and purged jobs. On loopback only loopback names (and those given with `--allowed-host`)
/// are answered; any other `Host` gets 421 problem+json, reads and writes alike.
#[tokio::test]
async fn a_page_rebinding_its_name_to_loopback_gets_421() {
    let app = spawn_app().await;
    let r = send(&app, Method::POST, SIM, None, Some(&small_job())).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.headers()["location"].to_str().unwrap().to_string();
    let port = app.address.rsplit(':').next().unwrap().to_string();
    for (method, path) in [
        (Method::DELETE, format!("{url}?purge=true")),
        (Method::GET, SIM.to_string()),
        (Method::GET, url.clone()),
        (Method::POST, SIM.to_string()),
    ] {
        let r = with_host(&app, method.clone(), &path, &format!("evil.example:{port}")).await;
        let p = helpers::problem(r, 421).await;
        assert_eq!(
            p["type"], "/problems/misdirected-request",
            "{method} {path}: {p}"
        );
        assert_eq!(p["errors"][0]["field"], "host", "{p}");
    }
    // The job is still there, and the loopback names are answered.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "localhost".to_string(),
    ] {
        let r = with_host(&app, Method::GET, &url, &host).await;
        assert_eq!(r.status(), StatusCode::OK, "{host}");
    }

    // A name given with --allowed-host is answered too, and only it.
    let pool = tsoro_api::database::connect(&fresh_database().await)
        .await
        .unwrap();
    let named = tsoro_tests::spawn_app_from(
        pool,
        AppSettings {
            bind: String::new(),
            body_limit: tsoro_api::settings::DEFAULT_BODY_LIMIT,
            jobs: tsoro_api::settings::JobSettings {
                workers: 0,
                ..Default::default()
            },
            db_down_threshold: tsoro_api::settings::DEFAULT_DOWN_THRESHOLD,
            embedded: None,
            allow_anonymous_writes: false,
            requests: Default::default(),
            trusted_proxies: vec![],
            allowed_hosts: vec!["tsoro.example.org".into()],
        },
    )
    .await;
    let r = with_host(&named, Method::GET, SIM, "tsoro.example.org").await;
    assert_eq!(r.status(), StatusCode::OK);
    let r = with_host(&named, Method::GET, SIM, "evil.example").await;
    helpers::problem(r, 421).await;
}
