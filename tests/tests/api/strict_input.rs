//! What the service refuses in a request body and how it answers (issue 34, item 15): numbers
//! that only round to whole ones, keys given twice, no Rust debug text in the answers, an
//! oversized input never echoed back, and the HTML pages' security headers.

use serde_json::Value;
use tsoro_tests::spawn_app;

/// POSTs a raw body as JSON; returns the status and the body.
async fn post_raw(app: &tsoro_tests::TestApp, path: &str, body: String) -> (u16, String) {
    let r = app
        .client
        .post(format!("{}{path}", app.address))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request");
    (r.status().as_u16(), r.text().await.expect("a body"))
}

#[tokio::test]
async fn numbers_that_only_round_to_whole_ones_and_keys_given_twice_are_refused() {
    let app = spawn_app().await;
    let (status, body) = post_raw(
        &app,
        "/api/v1/simulations",
        r#"{"ruleset": "tsoro-ludii", "games": 16.9999999999999999}"#.into(),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let p: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(p["errors"][0]["field"], "games", "{p}");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("16.9999999999999999"),
        "{p}"
    );
    // A whole number past 2^53 written with an exponent is well formed but read as another
    // number: 422 naming the field (a contract-test client may send it; it is not a bad request).
    let (status, body) = post_raw(
        &app,
        "/api/v1/simulations",
        r#"{"ruleset": "tsoro-ludii", "games": 2, "seed": 2.543010679266487e16}"#.into(),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    let p: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(p["errors"][0]["field"], "seed", "{p}");
    // Whole numbers written as floats still count (JSON Schema's integers include them).
    let (status, body) = post_raw(
        &app,
        "/api/v1/simulations",
        r#"{"ruleset": "tsoro-ludii", "games": 2.0, "seed": 1e1}"#.into(),
    )
    .await;
    assert_eq!(status, 202, "{body}");
    let job: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (job["games"].as_u64(), job["seed"].as_str()),
        (Some(2), Some("10"))
    );

    // A key given twice: 400 naming it (before, the last one won).
    for (raw, field) in [
        (
            r#"{"ruleset": "tsoro-ludii", "games": 2, "games": 3}"#,
            "games",
        ),
        (
            r#"{"ruleset": "tsoro-ludii", "games": 2, "params": {"holes": 8, "holes": 9}}"#,
            "params.holes",
        ),
        (
            r#"{"ruleset": "tsoro-ludii", "g\u0061mes": 2, "games": 3}"#,
            "games",
        ),
    ] {
        let (status, body) = post_raw(&app, "/api/v1/simulations", raw.into()).await;
        assert_eq!(status, 400, "{raw}: {body}");
        let p: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(p["errors"][0]["field"], field, "{p}");
        assert!(p["detail"].as_str().unwrap().contains("twice"), "{p}");
    }
    let listed: Value = app.get("/api/v1/simulations").await.json().await.unwrap();
    assert_eq!(
        listed["items"].as_array().unwrap().len(),
        1,
        "only the good job was made: {listed}"
    );
}

#[tokio::test]
async fn answers_hold_no_rust_debug_text_and_never_echo_a_large_input() {
    let app = spawn_app().await;
    for raw in [
        r#"{"ruleset": "tsoro-ludii", "games": 2, "seed": 5.5}"#,
        r#"{"ruleset": "tsoro-ludii", "games": 2, "seed": "abc"}"#,
        r#"{"ruleset": "tsoro-ludii", "games": 2, "seed": -1}"#,
        // Serde's text for an untagged enum named the Rust type (issue 46, item 8).
        r#"{"ruleset": "tsoro-ludii", "games": 2, "seed": {"a": 1}}"#,
        r#"{"ruleset": "tsoro-ludii", "games": 2, "agents": [1, 2]}"#,
        r#"{"ruleset": "tsoro-ludii", "games": 2, "agents": {"a": "random"}}"#,
    ] {
        let (status, body) = post_raw(&app, "/api/v1/simulations", raw.into()).await;
        assert_eq!(status, 400, "{raw}: {body}");
        for debug in [
            "Number(", "Text(", "Some(", "None", "Err(", "untagged", "enum ",
        ] {
            assert!(!body.contains(debug), "{raw}: {body}");
        }
    }

    let big = "x".repeat(200_000);
    let cases = [
        format!(r#"{{"ruleset": "{big}", "games": 2}}"#),
        format!(r#"{{"ruleset": "tsoro-ludii", "games": 2, "agents": "{big}"}}"#),
        format!(r#"{{"ruleset": "tsoro-ludii", "games": 2, "{big}": 1}}"#),
        format!(r#"{{"ruleset": "tsoro-ludii", "games": 2, "params": {{"{big}": 1}}}}"#),
        format!(r#"{{"ruleset": "tsoro-ludii", "games": 2, "seed": "{big}"}}"#),
        format!(r#"{{"ruleset": "tsoro-ludii", "games": 2, "swap_seats": "{big}"}}"#),
    ];
    for raw in cases {
        for path in ["/api/v1/simulations", "/api/v1/comparisons"] {
            let (status, body) = post_raw(&app, path, raw.clone()).await;
            assert!((400..500).contains(&status), "{path}: {status}");
            assert!(
                body.len() < 8_192,
                "{path}: {} bytes of answer to a 200 KB input",
                body.len()
            );
            assert!(!body.contains(&"x".repeat(100)), "{path}: {body}");
            if body.contains("xxxx") {
                assert!(body.contains("(200000 characters)"), "{path}: {body}");
            }
        }
    }
}

#[tokio::test]
async fn html_pages_forbid_framing_and_foreign_scripts() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/rulesets/tsoro-ludii/play",
        "/simulations/new",
        "/docs/",
    ] {
        let r = app.get(path).await;
        assert_eq!(r.status().as_u16(), 200, "{path}");
        let h = r.headers();
        assert!(
            h["content-type"].to_str().unwrap().starts_with("text/html"),
            "{path}"
        );
        let csp = h
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no Content-Security-Policy"))
            .to_str()
            .unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-eval"), "{path}: {csp}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
    }
    // The API's JSON has no need of them.
    let r = app.get("/api/v1/rulesets").await;
    assert!(r.headers().get("content-security-policy").is_none());
}

/// A body of `levels` objects nested under keys of `key_len` characters, holding an array of
/// `strings` short strings: the shape that took 119 CPU-seconds a MiB when the path of every
/// string was built (issue 46, item 1).
fn nested_body(levels: usize, key_len: usize, strings: usize) -> String {
    let key = "k".repeat(key_len);
    let mut t = String::new();
    for _ in 0..levels {
        t.push_str(&format!(r#"{{"{key}":"#));
    }
    t.push('[');
    t.push_str(&vec![r#""s""#; strings].join(","));
    t.push(']');
    t.push_str(&"}".repeat(levels));
    t
}

#[tokio::test]
async fn deeply_nested_bodies_are_refused_at_once_and_health_answers_meanwhile() {
    let app = spawn_app().await;
    // Nearly 1 MiB: 60 levels of 1,000-character keys over 230,000 strings (within the
    // nesting limit, so the whole text is checked), and 100 levels (past it).
    let within = nested_body(60, 1_000, 230_000);
    let past = nested_body(100, 1_000, 220_000);
    assert!(within.len() < 1 << 20 && past.len() < 1 << 20);
    let started = std::time::Instant::now();
    let posts: Vec<_> = [within.clone(), within, past.clone(), past]
        .into_iter()
        .map(|body| {
            let client = app.client.clone();
            let url = format!("{}/api/v1/simulations", app.address);
            tokio::spawn(async move {
                let r = client
                    .post(url)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                    .expect("request");
                (r.status().as_u16(), r.text().await.expect("a body"))
            })
        })
        .collect();
    // The liveness probe is answered while they are read.
    for _ in 0..5 {
        let r = app.get("/health").await;
        assert_eq!(r.status().as_u16(), 200);
    }
    let mut deep = 0;
    for post in posts {
        let (status, body) = post.await.unwrap();
        assert_eq!(status, 400, "{}", &body[..body.len().min(500)]);
        let p: Value = serde_json::from_str(&body).unwrap();
        let detail = p["detail"].as_str().unwrap();
        if detail.contains("deeper than 64 levels") {
            deep += 1;
        }
        assert!(body.len() < 8_192, "{} bytes of answer", body.len());
    }
    assert_eq!(deep, 2, "the bodies past the nesting limit say so");
    // Before, one such body took 119 CPU-seconds; a generous bound that would catch it.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}
