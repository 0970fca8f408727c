//! What the modules of this binary share beyond `tsoro_tests` (the app and its database).

use serde_json::Value;

/// Checks that `resp` is a problem (RFC 7807) with this status: its media type, and a body
/// with the same `status`, a `type` that is one of the service's problem pages, a `title` and a
/// `detail`. Returns the body.
pub async fn problem(resp: reqwest::Response, status: u16) -> Value {
    let url = resp.url().to_string();
    assert_eq!(resp.status().as_u16(), status, "{url}");
    assert_eq!(
        resp.headers()["content-type"].to_str().unwrap(),
        "application/problem+json",
        "{url}"
    );
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["status"], status, "{url}: {body}");
    assert!(
        body["type"].as_str().unwrap().starts_with("/problems/"),
        "{url}: {body}"
    );
    assert!(body["title"].is_string(), "{url}: {body}");
    assert!(body["detail"].is_string(), "{url}: {body}");
    body
}
