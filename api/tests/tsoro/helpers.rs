//! What the tests of the binary share: running `tsoro serve` on a private data directory,
//! waiting for it, stopping it, and reaching its embedded PostgreSQL.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn tsoro() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tsoro"));
    c.env_remove("DATABASE_URL")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Runs `tsoro simulate ARGS --csv FILE`, checks it succeeded, and returns the file's text.
pub fn simulate_csv(args: &[&str], file: &Path) -> String {
    let out = tsoro()
        .arg("simulate")
        .args(args)
        .arg("--csv")
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(file).unwrap()
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn data_dir(prefix: &str) -> PathBuf {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in("/tmp")
        .unwrap()
        .keep()
}

pub struct Served {
    /// The `tsoro serve` process.
    pub child: Child,
    /// Its HTTP port.
    pub port: u16,
}

/// A test that fails leaves no service running: SIGKILL (its PostgreSQL follows it).
impl Drop for Served {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn serve(dir: &Path) -> Served {
    serve_with(dir, &[])
}

/// `tsoro serve` on a free port with these extra arguments.
pub fn serve_with(dir: &Path, extra: &[&str]) -> Served {
    let port = free_port();
    let child = tsoro()
        .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
        .args(extra)
        .env("TSORO_DATA_DIR", dir)
        .spawn()
        .unwrap();
    Served { child, port }
}

pub async fn wait_ready(s: &mut Served) {
    let client = reqwest::Client::new();
    let start = Instant::now();
    loop {
        if let Ok(r) = client
            .get(format!("http://127.0.0.1:{}/ready", s.port))
            .send()
            .await
            && r.status().as_u16() == 200
        {
            return;
        }
        if let Ok(Some(status)) = s.child.try_wait() {
            let out = s.child.wait_with_output_ref();
            panic!("tsoro serve exited with {status}: {out}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "not ready within 90 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub trait OutputRef {
    fn wait_with_output_ref(&mut self) -> String;
}

impl OutputRef for Child {
    fn wait_with_output_ref(&mut self) -> String {
        use std::io::Read;
        let mut s = String::new();
        if let Some(e) = self.stderr.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    }
}

pub fn terminate(s: &mut Served) {
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(s.child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            assert!(status.success(), "tsoro serve exited with {status}");
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "did not stop within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Postmaster processes whose command line names this data directory.
pub fn postgres_processes(dir: &Path) -> Vec<u32> {
    let needle = dir.canonicalize().unwrap_or(dir.to_path_buf());
    let needle = needle.to_string_lossy().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| {
                    let c = String::from_utf8_lossy(&c).replace('\0', " ");
                    c.contains("postgres") && c.contains(&needle)
                })
                .unwrap_or(false)
        })
        .collect()
}

/// The service's URL for the embedded server of a data directory (its role and password).
pub fn db_url(dir: &Path) -> String {
    tsoro_pg::service_url_of(&dir.join("postgres")).unwrap()
}

/// The same URL without the password.
pub fn db_url_without_password(dir: &Path) -> String {
    let pg = dir.canonicalize().unwrap().join("postgres");
    format!("postgres://tsoro@localhost/tsoro?host={}", pg.display())
}

/// A child process killed (SIGKILL) and reaped when dropped, whatever ends the test.
pub struct Reaped(pub Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[path = "../../../tests/src/store_gate.rs"]
mod store_gate;
pub use store_gate::StoreGate;
