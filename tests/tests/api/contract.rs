//! The OpenAPI document against the running service: every operation's example, as Swagger
//! UI's "Try it out" sends it, is accepted (a simulation and a comparison run to the end), every
//! documented read answers (and HEAD, and 405 with `Allow` for a method it does not take), and
//! the shared error answers are documented; and every 64-bit integer in every JSON body is a
//! string, as JavaScript would round it as a number.

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_api::settings::JobSettings;
use tsoro_tests::spawn_app_with_jobs;

/// A path with its parameters replaced by their documented examples (`None` if one has none).
fn example_path(path: &str, op: &Value) -> Option<String> {
    let mut out = path.to_string();
    for p in op["parameters"].as_array().into_iter().flatten() {
        if p["in"] == "path" {
            let ex = p["example"].as_str()?;
            out = out.replace(&format!("{{{}}}", p["name"].as_str()?), ex);
        }
    }
    (!out.contains('{')).then_some(out)
}

/// The example of a request body, from its schema.
fn body_example(spec: &Value, op: &Value) -> Option<Value> {
    let schema = &op["requestBody"]["content"]["application/json"]["schema"];
    let name = schema["$ref"].as_str()?.rsplit('/').next()?;
    let ex = spec["components"]["schemas"][name]["example"].clone();
    (!ex.is_null()).then_some(ex)
}

#[tokio::test]
async fn every_example_in_the_document_works_against_the_service() {
    let app = spawn_app_with_jobs(JobSettings {
        workers: 1,
        threads: 2,
        poll: Duration::from_millis(50),
        ..JobSettings::default()
    })
    .await;
    let http = reqwest::Client::new();
    let spec: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .unwrap();
    let text = spec.to_string();
    assert!(
        !text.contains("alphabeta-mobility"),
        "no agent the parser rejects"
    );
    let mut posted = 0;
    let mut read = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            for status in ["400", "405"] {
                assert!(responses.contains_key(status), "{method} {path}: {status}");
            }
            if method == "post" {
                assert!(responses.contains_key("413"), "{method} {path}: 413");
                assert!(responses.contains_key("415"), "{method} {path}: 415");
                let url = example_path(path, op)
                    .unwrap_or_else(|| panic!("{path}: every path parameter has an example"));
                let body = body_example(&spec, op)
                    .unwrap_or_else(|| panic!("{path}: the request body has an example"));
                let r = app.post(&url, &body).await;
                let status = r.status();
                let v: Value = r.json().await.unwrap();
                assert!(
                    status.is_success(),
                    "{path} with its example {body}: {status} {v}"
                );
                assert!(
                    responses.contains_key(status.as_str()),
                    "{path}: {status} documented"
                );
                if let Some(url) = v["url"].as_str() {
                    // A job or a comparison: it runs to the end.
                    let done: Value = app
                        .get(&format!("{url}?wait=60"))
                        .await
                        .json()
                        .await
                        .unwrap();
                    assert_eq!(done["status"], "done", "{path}: {done}");
                    if let Some(seed) = done["seed"].as_str() {
                        assert_eq!(seed, body["seed"], "seeds are strings");
                    }
                }
                posted += 1;
            } else if method == "get"
                && let Some(url) = example_path(path, op)
                && !path.starts_with("/api/v1/simulations")
                && !path.starts_with("/api/v1/comparisons")
            {
                let r = app.get(&url).await;
                assert_eq!(r.status(), StatusCode::OK, "GET {url}");
                // HEAD answers as GET does, without the body.
                let h = http
                    .head(format!("{}{url}", app.address))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(h.status(), StatusCode::OK, "HEAD {url}");
                assert!(h.bytes().await.unwrap().is_empty(), "HEAD {url}: no body");
                // A method the path does not take: 405 problem+json naming those it takes.
                let r = http
                    .put(format!("{}{url}", app.address))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED, "PUT {url}");
                assert_eq!(r.headers()["allow"], "GET, HEAD", "PUT {url}");
                assert_eq!(r.headers()["content-type"], "application/problem+json");
                read += 1;
            }
        }
    }
    assert!(
        posted >= 5,
        "simulation, comparison, replay, legal, agent move: {posted}"
    );
    assert!(read >= 10, "the archive's reads: {read}");
    // Cross-origin: any page may read, and a preflight for a read is answered; writes are
    // not open to other origins (the access module tries them).
    let r = http
        .get(format!("{}/api/v1/games", app.address))
        .header("Origin", "https://notebook.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
    let r = http
        .request(
            reqwest::Method::OPTIONS,
            format!("{}/api/v1/games", app.address),
        )
        .header("Origin", "https://notebook.example")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "accept")
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "preflight: {}", r.status());
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
    assert!(
        r.headers()["access-control-allow-methods"]
            .to_str()
            .unwrap()
            .contains("GET")
    );
    // A seed too large for a JavaScript number survives as a string.
    let r = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "games": 2, "seed": "18446744073709551615"}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["seed"], "18446744073709551615");
}

#[tokio::test]
async fn every_error_is_a_problem_whose_type_is_a_page_describing_it() {
    let app = tsoro_tests::spawn_app().await;
    let http = reqwest::Client::new();
    let problem = |r: &reqwest::Response| {
        r.headers()
            .get("content-type")
            .is_some_and(|v| v == "application/problem+json")
    };
    // Every kind has its page, linked from the list.
    let list = app.get("/problems").await.text().await.unwrap();
    for kind in tsoro_api::http::problem::KINDS {
        let r = app.get(&kind.uri()).await;
        assert_eq!(r.status(), StatusCode::OK, "{}", kind.uri());
        let page = r.text().await.unwrap();
        assert!(page.contains(kind.title), "{}", kind.uri());
        assert!(list.contains(&format!("href=\"{}\"", kind.uri())));
    }
    assert_eq!(app.get("/problems/no-such").await.status(), 404);
    // Answers that were bare or not problems: 404 under Swagger UI's /docs/, an address or
    // headers too long.
    let mut seen = vec![];
    let r = app.get("/docs/no-such-file.js").await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert!(problem(&r), "/docs/ 404");
    seen.push(r.json::<Value>().await.unwrap());
    let long = "a".repeat(tsoro_api::http::guard::MAX_URI + 1);
    let r = app.get(&format!("/api/v1/games/{long}")).await;
    assert_eq!(r.status(), StatusCode::URI_TOO_LONG);
    assert!(problem(&r), "414");
    seen.push(r.json::<Value>().await.unwrap());
    let r = http
        .get(format!("{}/api/v1/games", app.address))
        .header(
            "X-Padding",
            "b".repeat(tsoro_api::http::guard::MAX_HEADER_BYTES),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    assert!(problem(&r), "431");
    seen.push(r.json::<Value>().await.unwrap());
    // And the usual ones: each `type` resolves to its page.
    for (method, path) in [
        ("GET", "/api/v1/games/no-such"),
        ("PUT", "/api/v1/games"),
        ("GET", "/api/v1/evidence?limit=0"),
        ("POST", "/api/v1/simulations"),
    ] {
        let r = http
            .request(method.parse().unwrap(), format!("{}{path}", app.address))
            .header("content-type", "application/json")
            .body(r#"{"ruleset": "no-such", "games": 1}"#)
            .send()
            .await
            .unwrap();
        assert!(problem(&r), "{method} {path}");
        seen.push(r.json::<Value>().await.unwrap());
    }
    for p in seen {
        let kind = p["type"].as_str().unwrap();
        let r = app.get(kind).await;
        assert_eq!(r.status(), StatusCode::OK, "{p}");
        let page = r.text().await.unwrap();
        assert!(page.contains(p["title"].as_str().unwrap()), "{p}");
    }
    // The document's shared problem responses describe the same kinds, and the headers the
    // service sends are declared where it sends them.
    let spec: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .unwrap();
    let responses = &spec["components"]["responses"];
    assert!(responses["MethodNotAllowed"]["headers"]["Allow"].is_object());
    assert!(responses["TooManyRequests"]["headers"]["Retry-After"].is_object());
    assert!(responses["Unavailable"]["headers"]["Retry-After"].is_object());
    assert!(
        responses["UriTooLong"]["description"]
            .as_str()
            .unwrap()
            .contains("/problems/uri-too-long")
    );
    let post = &spec["paths"]["/api/v1/simulations"]["post"]["responses"];
    assert!(post["202"]["headers"]["Location"].is_object());
    let get = &spec["paths"]["/api/v1/evidence"]["get"]["responses"];
    for h in ["ETag", "Cache-Control", "Link"] {
        assert!(get["200"]["headers"][h].is_object(), "{h}");
    }
    assert!(get["304"].is_object());
}
/// Every integer in `v` is one JavaScript's `JSON.parse` reads exactly (at most 2^53 - 1 in
/// magnitude), and every `seed` is a string; `at` names where `v` came from.
fn assert_exact_in_javascript(v: &Value, at: &str) {
    const MAX_SAFE: u64 = (1 << 53) - 1;
    match v {
        Value::Number(n) => {
            let exact = match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => u <= MAX_SAFE,
                (None, Some(i)) => i.unsigned_abs() <= MAX_SAFE,
                (None, None) => true, // a float: a float in JavaScript too
            };
            assert!(exact, "{at}: {n} is rounded by JavaScript");
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                assert_exact_in_javascript(item, &format!("{at}[{i}]"));
            }
        }
        Value::Object(fields) => {
            for (k, item) in fields {
                if k == "seed" {
                    assert!(item.is_string(), "{at}.seed is not a string: {item}");
                }
                assert_exact_in_javascript(item, &format!("{at}.{k}"));
            }
        }
        _ => {}
    }
}

/// Every JSON body the document describes, read for a job, a comparison, a tournament and a
/// readings study whose
/// seed is the largest there is (so that the games' own seeds use all 64 bits): its 64-bit
/// integers are strings, as JavaScript would round them as numbers.
#[tokio::test]
async fn every_64_bit_integer_in_a_json_body_is_a_string() {
    let app = spawn_app_with_jobs(JobSettings {
        workers: 1,
        threads: 2,
        poll: Duration::from_millis(50),
        ..JobSettings::default()
    })
    .await;
    let seed = u64::MAX.to_string();
    let mut ids = Vec::new();
    for (path, body) in [
        (
            "/api/v1/simulations",
            json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "games": 40, "seed": seed}),
        ),
        (
            "/api/v1/comparisons",
            json!({"rulesets": ["tsoro-ludii", "tsoro-ludii-misoro"], "games": 40, "seed": seed}),
        ),
        (
            "/api/v1/tournaments",
            json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "pairs": 2, "seed": seed}),
        ),
        (
            "/api/v1/readings",
            json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture"],
                   "agents": "random,random", "games": 20, "seed": seed}),
        ),
        (
            "/api/v1/nhodo",
            json!({"ruleset": "nhodo-matthews", "games": 40, "seed": seed}),
        ),
    ] {
        let r = app.post(path, &body).await;
        assert_eq!(r.status(), StatusCode::ACCEPTED, "{path}");
        let v: Value = r.json().await.unwrap();
        assert_exact_in_javascript(&v, &format!("POST {path}"));
        let url = v["url"].as_str().unwrap();
        let done: Value = app
            .get(&format!("{url}?wait=60"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(done["status"], "done", "{done}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (job, comparison, tournament, study, nhodo) = (&ids[0], &ids[1], &ids[2], &ids[3], &ids[4]);
    let spec: Value = app
        .get("/api-docs/openapi.json")
        .await
        .json()
        .await
        .unwrap();
    let (mut read, mut tournament_reads) = (0, 0);
    for (path, item) in spec["paths"].as_object().unwrap() {
        let Some(op) = item.get("get") else { continue };
        let content = op["responses"]["200"]["content"].as_object();
        let Some(media) = content.and_then(|c| c.keys().find(|t| t.ends_with("json"))) else {
            continue;
        };
        let mut url = path.clone();
        for p in op["parameters"].as_array().into_iter().flatten() {
            if p["in"] != "path" {
                continue;
            }
            let name = p["name"].as_str().unwrap();
            let value = match name {
                "id" if path.starts_with("/api/v1/simulations") => job.clone(),
                "id" if path.starts_with("/api/v1/comparisons") => comparison.clone(),
                "id" if path.starts_with("/api/v1/tournaments") => tournament.clone(),
                "id" if path.starts_with("/api/v1/readings") => study.clone(),
                "id" if path.starts_with("/api/v1/nhodo") => nhodo.clone(),
                "game" => "7".to_string(),
                _ => p["example"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{path}: an example of {name}"))
                    .to_string(),
            };
            url = url.replace(&format!("{{{name}}}"), &value);
        }
        let r = reqwest::Client::new()
            .get(format!("{}{url}", app.address))
            .header("accept", media)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "GET {url} as {media}");
        let v: Value = r.json().await.unwrap();
        assert_exact_in_javascript(&v, &format!("GET {url}"));
        read += 1;
        tournament_reads += usize::from(path.starts_with("/api/v1/tournaments"));
    }
    assert!(read >= 17, "every JSON read: {read}");
    assert_eq!(
        tournament_reads, 2,
        "a tournament's view and its data package"
    );
    // games.json's seeds are the games' own, as games.csv writes them.
    let games: Value = app
        .get(&format!("/api/v1/simulations/{job}/games.json"))
        .await
        .json()
        .await
        .unwrap();
    let csv = app
        .get(&format!("/api/v1/simulations/{job}/games.csv"))
        .await
        .text()
        .await
        .unwrap();
    let seeds: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    let json_seeds: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["seed"].as_str().unwrap())
        .collect();
    assert_eq!(json_seeds, seeds);
    assert_eq!(json_seeds.len(), 40);
    assert!(
        json_seeds
            .iter()
            .any(|s| s.parse::<u64>().unwrap() > 1 << 53),
        "the test reaches seeds JavaScript would round"
    );
}
