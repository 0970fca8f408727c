//! A headless Chromium for the web pages' tests, driven through WebDriver (Debian's
//! `chromium` and `chromium-driver`, installed by `scripts/install-test-deps`).
//!
//! Without them a test fails under CI (`CI` set) and is skipped with a notice otherwise.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A browser session and the driver process behind it (stopped on drop).
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    driver: Child,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|n| {
        std::env::split_paths(&path)
            .map(|d| d.join(n))
            .find(|p| p.is_file())
    })
}

/// Windows narrower than this are a phone's, emulated (a headless window is at least 500
/// pixels wide).
pub const PHONE_WIDTH: u32 = 500;

/// Starts chromedriver and a headless Chromium with a window of `width` x `height`; `None`
/// (after a notice) when they are not installed and `CI` is not set.
pub async fn start(width: u32, height: u32) -> Option<Browser> {
    let (driver, chromium) = match (
        find(&["chromedriver"]),
        find(&["chromium", "chromium-browser"]),
    ) {
        (Some(d), Some(c)) => (d, c),
        _ => {
            let msg = "headless Chromium is not installed (chromium and chromium-driver): \
                       run scripts/install-test-deps";
            if std::env::var_os("CI").is_some() {
                panic!("{msg}");
            }
            eprintln!("SKIPPED: {msg}");
            return None;
        }
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let mut caps = serde_json::Map::new();
    let mut options = json!({
        "binary": chromium,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-extensions",
                 format!("--window-size={width},{height}")],
    });
    if width < PHONE_WIDTH {
        // Headless windows are at least 500 pixels wide: a phone's width is emulated.
        options["mobileEmulation"] = json!({
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0, "touch": true}
        });
    }
    caps.insert("goog:chromeOptions".into(), options);
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(20);
    let client = loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => break c,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("no WebDriver session from chromedriver: {e}"),
        }
    };
    Some(Browser {
        client,
        driver: child,
    })
}

impl Browser {
    /// Opens a page and waits for it to load.
    pub async fn goto(&self, url: &str) {
        self.client.goto(url).await.expect("open the page");
    }

    /// Runs a script and returns its value.
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script {script:?}: {e}"))
    }

    /// Waits for an element to appear.
    pub async fn wait_for(&self, css: &str, secs: u64) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(Duration::from_secs(secs))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css} within {secs} s: {e}"))
    }

    /// Waits until a script returns true.
    pub async fn wait_until(&self, script: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            if self.js(script).await == Value::Bool(true) {
                return;
            }
            assert!(Instant::now() < deadline, "waited {secs} s for: {script}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Saves a screenshot of the window as `target/screenshots/{name}.png`.
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = screenshots_dir();
        std::fs::create_dir_all(&dir).expect("target/screenshots");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("write the screenshot");
    }

    /// Ends the session.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

/// Where screenshots go: `screenshots/` in the target directory (the test binary is
/// `target/debug/deps/NAME`).
pub fn screenshots_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let target = exe
        .ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("target"));
    target.join("screenshots")
}
