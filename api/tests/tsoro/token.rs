//! `tsoro token` end to end, and the safe default of `tsoro serve`: tokens made, listed and
//! revoked against a data directory (its embedded PostgreSQL started as `tsoro migrate` starts
//! it, or joined while a service runs on it); a service asked to listen beyond loopback
//! without any token refuses to start, naming the flag that allows it.

use crate::helpers::*;
use std::path::Path;
use std::process::Output;

fn token(dir: &Path, args: &[&str]) -> Output {
    tsoro()
        .arg("token")
        .args(args)
        .env("TSORO_DATA_DIR", dir)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn tokens_are_added_once_listed_without_secrets_and_revoked() {
    let dir = data_dir("tsoro-token-");
    let out = token(&dir, &["add", "ann", "--role", "runner"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let secret = text(&out.stdout).trim().to_string();
    assert!(
        secret.starts_with("tsoro_") && secret.len() == 70,
        "{secret}"
    );
    assert_eq!(
        text(&out.stdout).lines().count(),
        1,
        "the token alone on stdout"
    );
    let out = token(&dir, &["add", "root", "--role", "admin"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let root = text(&out.stdout).trim().to_string();
    assert_ne!(secret, root);

    let out = token(&dir, &["add", "ann", "--role", "admin"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("exists already"),
        "{}",
        text(&out.stderr)
    );
    let out = token(&dir, &["add", "eve", "--role", "root"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("reader, runner or admin"),
        "{}",
        text(&out.stderr)
    );
    let out = token(&dir, &["add", "a b", "--role", "reader"]);
    assert!(!out.status.success());

    let out = token(&dir, &["list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    assert!(
        !listed.contains(&secret) && !listed.contains(&root),
        "no secret listed"
    );
    let v: serde_json::Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(v[0]["name"], "ann");
    assert_eq!(v[0]["role"], "runner");
    assert!(v[0]["revoked_at"].is_null());
    assert_eq!(v[1]["name"], "root");
    assert_eq!(v[1]["role"], "admin");

    let out = token(&dir, &["revoke", "ann"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = token(&dir, &["revoke", "nobody"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no token named"),
        "{}",
        text(&out.stderr)
    );
    let out = token(&dir, &["list"]);
    let table = text(&out.stdout);
    let ann_line = table.lines().find(|l| l.starts_with("ann ")).unwrap();
    assert!(
        ann_line.contains("UTC") && !ann_line.trim_end().ends_with('-'),
        "{table}"
    );
    let root_line = table.lines().find(|l| l.starts_with("root ")).unwrap();
    assert!(root_line.trim_end().ends_with('-'), "{table}");
    // A reader gone before anything is printed (`tsoro token list | head -0`): the command
    // ends quietly, and the server it started is stopped all the same.
    let mut child = tsoro()
        .args(["token", "list"])
        .env("TSORO_DATA_DIR", &dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
    use std::os::unix::process::ExitStatusExt;
    assert!(
        out.status.success() || out.status.signal() == Some(13),
        "{:?}: {err}",
        out.status
    );
    assert!(
        postgres_processes(&dir).is_empty(),
        "the server it started is stopped"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tsoro serve --bind 0.0.0.0:PORT`.
fn serve_everywhere(dir: &Path, extra: &[&str]) -> Served {
    let port = free_port();
    let child = tsoro()
        .args(["serve", "--bind", &format!("0.0.0.0:{port}")])
        .args(extra)
        .env("TSORO_DATA_DIR", dir)
        .spawn()
        .unwrap();
    Served { child, port }
}

#[tokio::test]
async fn a_service_beyond_loopback_needs_a_token_or_the_flag() {
    let dir = data_dir("tsoro-exposed-");
    let mut s = serve_everywhere(&dir, &[]);
    let status = s.child.wait().unwrap();
    assert!(!status.success());
    let err = s.child.wait_with_output_ref();
    assert!(err.contains("--allow-anonymous-writes"), "{err}");
    assert!(err.contains("tsoro token add"), "{err}");
    assert!(postgres_processes(&dir).is_empty());

    // The flag starts it on purpose.
    let mut s = serve_everywhere(&dir, &["--allow-anonymous-writes"]);
    wait_ready(&mut s).await;
    terminate(&mut s);

    // With a token it starts; a token added while it runs joins its database, leaving it up.
    let out = token(&dir, &["add", "root", "--role", "admin"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut s = serve_everywhere(&dir, &[]);
    wait_ready(&mut s).await;
    let out = token(&dir, &["add", "ann", "--role", "runner"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ann = text(&out.stdout).trim().to_string();
    let client = reqwest::Client::new();
    let url = format!("http://127.0.0.1:{}/api/v1/simulations", s.port);
    let job = serde_json::json!({"ruleset": "tsoro-ludii", "games": 2});
    let r = client.post(&url).json(&job).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let r = client
        .post(&url)
        .bearer_auth(&ann)
        .json(&job)
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status().as_u16(),
        202,
        "the service kept running: {:?}",
        r.text().await
    );
    terminate(&mut s);
    assert!(postgres_processes(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
