//! The embedded server as a supervised child: `postgres` runs as a direct child of the service
//! (never daemonised), is restarted with backoff when it exits unexpectedly, dies with the
//! service (Linux's parent-death signal) and is stopped with a fast shutdown on request.

use super::PgError;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// First wait before a restart; doubled after each failure up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// Longest wait between restarts.
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// A server that stayed up this long resets the backoff.
const STABLE: Duration = Duration::from_secs(60);
/// How long a start may take before it counts as failed (crash recovery of a large cluster
/// takes a while).
const START_TIMEOUT: Duration = Duration::from_secs(300);
/// Failed attempts of the very first start before giving up (later, it retries forever).
const FIRST_START_ATTEMPTS: u32 = 5;
/// How long a fast shutdown may take before an immediate one (then SIGKILL).
const STOP_TIMEOUT: Duration = Duration::from_secs(30);

/// How to start the server: the command line, built by the caller.
pub struct Launch {
    /// Builds a fresh `postgres` command (program, arguments, user).
    pub command: Box<dyn Fn() -> Command + Send>,
    /// The cluster directory (for `postmaster.pid`).
    pub dir: PathBuf,
    /// The server's log file (standard output and error appended; mode 0600).
    pub log: PathBuf,
    /// The owner to give the log file (the server's user, when we run as root).
    pub owner: Option<(u32, u32)>,
}

/// What is known of the server, for `/health` and the logs.
#[derive(Clone, Debug, Default)]
pub struct ServerState {
    /// It accepts connections.
    pub running: bool,
    /// Since when it has not been running (after it was first up).
    pub down_since: Option<Instant>,
    /// Restarts after unexpected exits.
    pub restarts: u64,
    /// How it last exited, if it did.
    pub last_exit: Option<String>,
}

#[derive(Default)]
struct Inner {
    stopping: bool,
    finished: bool,
    pid: Option<i32>,
    state: ServerState,
}

#[derive(Default)]
struct Shared {
    inner: Mutex<Inner>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A handle on the supervisor's view of the server (cheap to clone).
#[derive(Clone)]
pub struct ServerWatch(Arc<Shared>);

impl ServerWatch {
    /// The server's state now.
    pub fn state(&self) -> ServerState {
        self.0.lock().state.clone()
    }
}

impl std::fmt::Debug for ServerWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.state().fmt(f)
    }
}

/// The supervising thread and what it shares.
pub struct Supervisor {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Supervisor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Supervisor")
            .field("state", &self.shared.lock().state)
            .finish()
    }
}

impl Supervisor {
    /// Starts the server and returns once it accepts connections (or the first start failed
    /// [`FIRST_START_ATTEMPTS`] times). The thread that spawns the server lives as long as the
    /// supervision: the parent-death signal fires when that thread ends.
    pub fn start(launch: Launch) -> Result<Supervisor, PgError> {
        let shared = Arc::new(Shared::default());
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("postgres-supervisor".into())
            .spawn({
                let shared = shared.clone();
                move || supervise(launch, &shared, tx)
            })
            .map_err(|e| PgError::Command {
                program: "postgres".into(),
                detail: format!("starting its supervisor thread: {e}"),
            })?;
        let mut sup = Supervisor {
            shared,
            thread: Some(thread),
        };
        match rx.recv() {
            Ok(Ok(())) => Ok(sup),
            Ok(Err(e)) => {
                sup.join();
                Err(e)
            }
            Err(_) => {
                sup.join();
                Err(PgError::Command {
                    program: "postgres".into(),
                    detail: "its supervisor ended before the server started".into(),
                })
            }
        }
    }

    /// A handle on the server's state.
    pub fn watch(&self) -> ServerWatch {
        ServerWatch(self.shared.clone())
    }

    /// Stops supervising and shuts the server down: a fast shutdown (SIGINT), then an
    /// immediate one (SIGQUIT) and SIGKILL if it does not end in time.
    pub fn stop(&mut self) {
        let pid = {
            let mut g = self.shared.lock();
            g.stopping = true;
            g.pid
        };
        self.shared.changed.notify_all();
        if let Some(pid) = pid {
            for (signal, wait) in [
                (Signal::SIGINT, STOP_TIMEOUT),
                (Signal::SIGQUIT, Duration::from_secs(5)),
                (Signal::SIGKILL, Duration::from_secs(5)),
            ] {
                let _ = kill(Pid::from_raw(pid), signal);
                if self.wait_finished(wait) {
                    break;
                }
                tracing::warn!(?signal, "PostgreSQL did not stop in time");
            }
        }
        self.join();
    }

    fn wait_finished(&self, timeout: Duration) -> bool {
        let g = self.shared.lock();
        let (g, _) = self
            .shared
            .changed
            .wait_timeout_while(g, timeout, |i| !i.finished)
            .unwrap_or_else(|p| p.into_inner());
        g.finished
    }

    fn join(&mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop();
        }
    }
}

/// The supervising loop: start, wait for the exit, restart after a backoff unless stopping.
fn supervise(launch: Launch, shared: &Shared, first: std::sync::mpsc::Sender<Result<(), PgError>>) {
    let mut first = Some(first);
    let mut backoff = FIRST_BACKOFF;
    let mut failures = 0u32;
    loop {
        let started = {
            let mut g = shared.lock();
            if g.stopping {
                break;
            }
            let spawned = spawn(&launch);
            if let Ok(child) = &spawned {
                g.pid = Some(child.id() as i32);
            }
            spawned
        };
        let outcome = started.and_then(|mut child| match wait_ready(&launch, &mut child) {
            Ok(()) => Ok(child),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(e)
            }
        });
        let mut child = match outcome {
            Ok(child) => child,
            Err(e) => {
                {
                    let mut g = shared.lock();
                    g.pid = None;
                    g.state.last_exit = Some(e.to_string());
                }
                failures += 1;
                if first.is_some() && failures >= FIRST_START_ATTEMPTS {
                    if let Some(tx) = first.take() {
                        let _ = tx.send(Err(e));
                    }
                    break;
                }
                tracing::warn!(error = %e, attempt = failures, retry_in = ?backoff, "PostgreSQL did not start");
                if wait_or_stop(shared, backoff) {
                    break;
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        let up_at = Instant::now();
        {
            let mut g = shared.lock();
            if first.is_none() {
                g.state.restarts += 1;
            }
            g.state.running = true;
            g.state.down_since = None;
        }
        shared.changed.notify_all();
        if let Some(tx) = first.take() {
            let _ = tx.send(Ok(()));
        }
        tracing::info!(pid = child.id(), "PostgreSQL accepts connections");
        failures = 0;
        let status = child.wait();
        let exit = match &status {
            Ok(s) => s.to_string(),
            Err(e) => e.to_string(),
        };
        let stopping = {
            let mut g = shared.lock();
            g.pid = None;
            g.state.running = false;
            g.state.down_since = Some(Instant::now());
            g.state.last_exit = Some(exit.clone());
            g.stopping
        };
        if stopping {
            tracing::info!(%exit, "PostgreSQL stopped");
            break;
        }
        if up_at.elapsed() >= STABLE {
            backoff = FIRST_BACKOFF;
        }
        tracing::error!(%exit, restart_in = ?backoff, "PostgreSQL exited unexpectedly: restarting it");
        if wait_or_stop(shared, backoff) {
            break;
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
    shared.lock().finished = true;
    shared.changed.notify_all();
}

/// Sleeps for `wait` unless asked to stop first; true when stopping.
fn wait_or_stop(shared: &Shared, wait: Duration) -> bool {
    let g = shared.lock();
    let (g, _) = shared
        .changed
        .wait_timeout_while(g, wait, |i| !i.stopping)
        .unwrap_or_else(|p| p.into_inner());
    g.stopping
}

/// Spawns `postgres` in a process group of its own (a Ctrl-C at the terminal is for the
/// service, which stops it in order) with SIGINT, a fast shutdown, as its parent-death signal.
fn spawn(launch: &Launch) -> Result<Child, PgError> {
    let err = |detail: String| PgError::Command {
        program: "postgres".into(),
        detail,
    };
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&launch.log)
        .map_err(|e| err(format!("opening {}: {e}", launch.log.display())))?;
    // A log of an older run may have been made readable by all.
    let _ = log.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600));
    if let Some((uid, gid)) = launch.owner {
        let _ = std::os::unix::fs::fchown(&log, Some(uid), Some(gid));
    }
    let log2 = log
        .try_clone()
        .map_err(|e| err(format!("opening {}: {e}", launch.log.display())))?;
    let parent = nix::unistd::getpid();
    let mut cmd = (launch.command)();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(log2))
        .process_group(0);
    // SAFETY: the closure runs between fork and exec and only makes async-signal-safe system
    // calls (prctl, getppid).
    unsafe {
        cmd.pre_exec(move || {
            #[cfg(target_os = "linux")]
            {
                nix::sys::prctl::set_pdeathsig(Signal::SIGINT)?;
                // The parent may have died before the signal was armed.
                if nix::unistd::getppid() != parent {
                    return Err(std::io::Error::other("the service exited"));
                }
            }
            let _ = parent;
            Ok(())
        });
    }
    cmd.spawn().map_err(|e| err(e.to_string()))
}

/// Waits until the server writes `ready` in its `postmaster.pid` (as `pg_ctl -w` does), or
/// exits, or [`START_TIMEOUT`] passes.
fn wait_ready(launch: &Launch, child: &mut Child) -> Result<(), PgError> {
    let err = |detail: String| PgError::Command {
        program: "postgres".into(),
        detail,
    };
    let start = Instant::now();
    let pid = child.id().to_string();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| err(e.to_string()))? {
            return Err(err(format!(
                "exited with {status} while starting; see {}",
                launch.log.display()
            )));
        }
        if let Ok(text) = std::fs::read_to_string(launch.dir.join("postmaster.pid")) {
            let lines: Vec<&str> = text.lines().collect();
            if lines.first().map(|l| l.trim()) == Some(pid.as_str())
                && lines.get(7).map(|l| l.trim()) == Some("ready")
            {
                return Ok(());
            }
        }
        if start.elapsed() > START_TIMEOUT {
            return Err(err(format!(
                "not ready within {START_TIMEOUT:?}; see {}",
                launch.log.display()
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
