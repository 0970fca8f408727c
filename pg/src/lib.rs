//! An embedded PostgreSQL server started from the system's server binaries.
//!
//! The cluster lives in a data directory that is kept between runs; it listens only on a Unix
//! socket inside that directory (mode 0700), and asks for passwords ([`access`]). The server is
//! a supervised child of the process ([`supervisor`]): restarted when it exits unexpectedly,
//! stopped with the process. When the process runs as root, the server runs as the
//! unprivileged `postgres` system user, which owns the data directory (PostgreSQL refuses to
//! run as root).

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use supervisor::{Launch, Supervisor};
use thiserror::Error;

pub mod access;
pub mod clusters;
pub mod supervisor;

pub use supervisor::{ServerState, ServerWatch};

/// The service's role on the embedded server (not a superuser; see [`access`]).
pub const DB_USER: &str = "tsoro";
/// The database the service uses.
pub const DB_NAME: &str = "tsoro";

/// Why the embedded server could not be used.
#[derive(Debug, Error)]
pub enum PgError {
    /// No server binaries were found.
    #[error(
        "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found in {searched}. \
         Install the server package (Debian/Ubuntu: `apt-get install postgresql`), set \
         TSORO_PG_BIN_DIR to the directory holding them, or set DATABASE_URL to use an existing \
         server instead"
    )]
    NotFound {
        /// Where we looked.
        searched: String,
    },
    /// A PostgreSQL program failed.
    #[error("{program} failed: {detail}")]
    Command {
        /// The program.
        program: String,
        /// Its output.
        detail: String,
    },
    /// The data directory cannot be used.
    #[error("data directory {path}: {detail}")]
    DataDir {
        /// The path.
        path: String,
        /// What is wrong.
        detail: String,
    },
}

/// Where the server binaries are.
#[derive(Clone, Debug)]
pub struct PgBinaries {
    dir: PathBuf,
}

impl PgBinaries {
    /// Finds the binaries: in `TSORO_PG_BIN_DIR` when set (and only there), else on `PATH`,
    /// else in the newest `/usr/lib/postgresql/*/bin`.
    pub fn find() -> Result<PgBinaries, PgError> {
        let has_all = |d: &Path| {
            ["initdb", "pg_ctl", "postgres"]
                .iter()
                .all(|b| d.join(b).is_file())
        };
        if let Some(dir) = std::env::var_os("TSORO_PG_BIN_DIR") {
            let dir = PathBuf::from(dir);
            return if has_all(&dir) {
                Ok(PgBinaries { dir })
            } else {
                Err(PgError::NotFound {
                    searched: format!("TSORO_PG_BIN_DIR={}", dir.display()),
                })
            };
        }
        let mut searched = vec!["PATH".to_string()];
        if let Some(path) = std::env::var_os("PATH") {
            for d in std::env::split_paths(&path) {
                if has_all(&d) {
                    return Ok(PgBinaries { dir: d });
                }
            }
        }
        searched.push("/usr/lib/postgresql/*/bin".into());
        let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let v: u32 = e.file_name().to_str()?.parse().ok()?;
                let bin = e.path().join("bin");
                has_all(&bin).then_some((v, bin))
            })
            .collect();
        versions.sort();
        match versions.pop() {
            Some((_, dir)) => Ok(PgBinaries { dir }),
            None => Err(PgError::NotFound {
                searched: searched.join(", "),
            }),
        }
    }

    fn path(&self, program: &str) -> PathBuf {
        self.dir.join(program)
    }

    /// `psql`: beside the server binaries, else on `PATH` (Debian links the server binaries
    /// elsewhere but keeps the client's wrapper in /usr/bin).
    fn psql(&self) -> PathBuf {
        let beside = self.dir.join("psql");
        if beside.is_file() {
            beside
        } else {
            PathBuf::from("psql")
        }
    }
}

/// A client program of PostgreSQL (`pg_dump`, `pg_restore`): beside the server binaries
/// [`PgBinaries::find`] finds (the same major version as the embedded server), else on `PATH`.
pub fn client_program(name: &str) -> PathBuf {
    match PgBinaries::find() {
        Ok(b) if b.path(name).is_file() => b.path(name),
        _ => PathBuf::from(name),
    }
}

/// The unprivileged user the server runs as when we are root.
#[derive(Clone, Copy, Debug)]
struct RunAs {
    uid: u32,
    gid: u32,
}

fn run_as() -> Result<Option<RunAs>, PgError> {
    if !nix::unistd::Uid::effective().is_root() {
        return Ok(None);
    }
    let user = nix::unistd::User::from_name("postgres")
        .ok()
        .flatten()
        .ok_or_else(|| PgError::DataDir {
            path: String::new(),
            detail: "running as root, PostgreSQL needs an unprivileged user to run as, and there \
                     is no `postgres` user (installing the postgresql package creates it)"
                .into(),
        })?;
    Ok(Some(RunAs {
        uid: user.uid.as_raw(),
        gid: user.gid.as_raw(),
    }))
}

/// An embedded server: its data directory, how to reach it, and its supervisor while it runs.
#[derive(Debug)]
pub struct EmbeddedPg {
    bins: PgBinaries,
    dir: PathBuf,
    run_as: Option<RunAs>,
    supervisor: Option<Supervisor>,
}

/// The note left in a data directory whose cluster is kept elsewhere.
const WHERE_NOTE: &str = "WHERE-IS-THE-CLUSTER.txt";

impl EmbeddedPg {
    /// Prepares (without starting) a server whose cluster lives in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Result<EmbeddedPg, PgError> {
        let bins = PgBinaries::find()?;
        let dir = dir.into();
        std::fs::create_dir_all(&dir).map_err(|e| PgError::DataDir {
            path: dir.display().to_string(),
            detail: e.to_string(),
        })?;
        let dir = dir.canonicalize().map_err(|e| PgError::DataDir {
            path: dir.display().to_string(),
            detail: e.to_string(),
        })?;
        if dir.as_os_str().len() > 80 {
            return Err(PgError::DataDir {
                path: dir.display().to_string(),
                detail: "too long for a Unix socket path (80 bytes at most): set TSORO_DATA_DIR \
                         to a shorter path"
                    .into(),
            });
        }
        let run_as = run_as()?;
        let mut dir = dir;
        if let Some(u) = run_as {
            // The server user must reach the directory through every ancestor. When it cannot
            // (a checkout under /root, mode 700), the cluster is kept in a persistent place of
            // its own, one per data directory, and the choice is logged.
            if let Some(blocked) = unreachable_ancestor(&dir) {
                let fallback = fallback_dir(&dir);
                tracing::warn!(
                    requested = %dir.display(),
                    blocked_by = %blocked.display(),
                    using = %fallback.display(),
                    "the postgres user cannot reach the data directory: keeping the cluster elsewhere"
                );
                std::fs::create_dir_all(&fallback).map_err(|e| PgError::DataDir {
                    path: fallback.display().to_string(),
                    detail: e.to_string(),
                })?;
                tie_to_identity(&dir, &fallback)?;
                // For `tsoro clusters prune`, once the data directory is gone.
                if let Err(e) = clusters::record_data_dir(&fallback, &dir) {
                    tracing::warn!(error = %e, cluster = %fallback.display(), "recording the data directory of a kept cluster");
                }
                let _ = std::fs::write(
                    dir.join(WHERE_NOTE),
                    format!(
                        "The postgres user cannot reach this directory, so the embedded PostgreSQL \
                         cluster of this data directory lives in {}\n",
                        fallback.display()
                    ),
                );
                dir = fallback;
                if let Some(b) = unreachable_ancestor(&dir) {
                    return Err(PgError::DataDir {
                        path: dir.display().to_string(),
                        detail: format!(
                            "the server runs as the `postgres` user, who cannot reach it through {}; \
                             set TSORO_DATA_DIR to a directory it can reach, or set DATABASE_URL",
                            b.display()
                        ),
                    });
                }
            }
            chown_tree(&dir, u)?;
        }
        // The cluster, its socket and its password files are for the server's user alone.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).map_err(|e| {
            PgError::DataDir {
                path: dir.display().to_string(),
                detail: e.to_string(),
            }
        })?;
        Ok(EmbeddedPg {
            bins,
            dir,
            run_as,
            supervisor: None,
        })
    }

    /// The cluster's directory (also the socket directory).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn owner(&self) -> Option<(u32, u32)> {
        self.run_as.map(|u| (u.uid, u.gid))
    }

    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(self.bins.path(program));
        if let Some(u) = self.run_as {
            c.uid(u.uid).gid(u.gid);
        }
        c.stdin(Stdio::null());
        c
    }

    fn run(&self, program: &str, args: &[&OsStr]) -> Result<String, PgError> {
        let out = self
            .command(program)
            .args(args)
            .output()
            .map_err(|e| PgError::Command {
                program: program.into(),
                detail: e.to_string(),
            })?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if out.status.success() {
            Ok(text)
        } else {
            Err(PgError::Command {
                program: program.into(),
                detail: text.trim().to_string(),
            })
        }
    }

    /// `pg_ctl`, run as the server's user: for an operator's (or a test's) own commands on
    /// the cluster, such as stopping the server from outside.
    pub fn pg_ctl(&self) -> Command {
        self.command("pg_ctl")
    }

    /// Whether a server is running on this cluster (ours or another process's).
    pub fn is_running(&self) -> bool {
        self.run(
            "pg_ctl",
            &["status".as_ref(), "-D".as_ref(), self.dir.as_os_str()],
        )
        .is_ok()
    }

    /// Initialises the cluster if needed, starts the server as a supervised child (stopping a
    /// stray server of a previous run first; a stale pid file after a crash is recovered by
    /// PostgreSQL itself), and makes its access what [`access`] describes.
    pub fn start(&mut self) -> Result<(), PgError> {
        if self.supervisor.is_some() {
            return Ok(());
        }
        if !self.dir.join("PG_VERSION").exists() {
            tracing::info!(dir = %self.dir.display(), "initialising a new PostgreSQL cluster");
            // Trusted until `access::secure` has set the passwords, moments later; meanwhile
            // the socket is in a directory only the server's user can enter.
            self.run(
                "initdb",
                &[
                    "-D".as_ref(),
                    self.dir.as_os_str(),
                    "-U".as_ref(),
                    access::ADMIN_USER.as_ref(),
                    "--auth=trust".as_ref(),
                    "-E".as_ref(),
                    "UTF8".as_ref(),
                    "--no-instructions".as_ref(),
                ],
            )?;
        }
        if self.is_running() {
            tracing::warn!("a server from an earlier run is still up: stopping it first");
            let _ = self.run(
                "pg_ctl",
                &[
                    "stop".as_ref(),
                    "-w".as_ref(),
                    "-m".as_ref(),
                    "fast".as_ref(),
                    "-D".as_ref(),
                    self.dir.as_os_str(),
                ],
            );
        }
        let bins = self.bins.clone();
        let run_as = self.run_as;
        let dir = self.dir.clone();
        let launch = Launch {
            command: Box::new(move || {
                let mut c = Command::new(bins.path("postgres"));
                if let Some(u) = run_as {
                    c.uid(u.uid).gid(u.gid);
                }
                c.arg("-D").arg(&dir);
                for (k, v) in [
                    ("listen_addresses", String::new()),
                    ("unix_socket_directories", dir.display().to_string()),
                    ("unix_socket_permissions", "0700".into()),
                    ("password_encryption", "scram-sha-256".into()),
                    ("max_connections", "200".into()),
                    ("fsync", "on".into()),
                ] {
                    c.arg("-c").arg(format!("{k}={v}"));
                }
                c
            }),
            dir: self.dir.clone(),
            log: self.dir.join("server.log"),
            owner: self.owner(),
        };
        let mut supervisor = Supervisor::start(launch)?;
        let secured = access::secure(&access::Cluster {
            psql: self.bins.psql(),
            dir: &self.dir,
            owner: self.owner(),
            service_user: DB_USER,
            database: DB_NAME,
        });
        if let Err(e) = secured {
            supervisor.stop();
            return Err(e);
        }
        self.supervisor = Some(supervisor);
        tracing::info!(dir = %self.dir.display(), "embedded PostgreSQL started");
        Ok(())
    }

    /// A handle on the supervised server's state (while started).
    pub fn watch(&self) -> Option<ServerWatch> {
        self.supervisor.as_ref().map(Supervisor::watch)
    }

    /// Stops the server cleanly (a fast shutdown) and its supervision.
    pub fn stop(&mut self) -> Result<(), PgError> {
        if let Some(mut s) = self.supervisor.take() {
            s.stop();
        }
        Ok(())
    }

    /// A connection URL for a database of this server, as the service's role (over the Unix
    /// socket, with its password).
    pub fn url(&self, database: &str) -> String {
        let password = access::read_password(&self.dir.join(access::SERVICE_PASSWORD_FILE))
            .ok()
            .flatten();
        socket_url(&self.dir, DB_USER, password.as_deref(), database)
    }

    /// A connection URL for a database of this server as its superuser (for set-up such as a
    /// test harness's databases; the service never uses it).
    pub fn admin_url(&self, database: &str) -> String {
        let password = access::read_password(&self.dir.join(access::ADMIN_PASSWORD_FILE))
            .ok()
            .flatten();
        socket_url(&self.dir, access::ADMIN_USER, password.as_deref(), database)
    }

    /// The command line, as a shell would run it as the server user, that stops this server:
    /// for a watchdog that must outlive the process.
    pub fn stop_command(&self) -> String {
        let pg_ctl = self.bins.path("pg_ctl");
        let base = format!(
            "{} stop -m immediate -D '{}'",
            pg_ctl.display(),
            self.dir.display()
        );
        match self.run_as {
            Some(_) => format!("runuser -u postgres -- {base}"),
            None => base,
        }
    }
}

impl Drop for EmbeddedPg {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// A URL over the Unix socket in `dir`.
fn socket_url(dir: &Path, user: &str, password: Option<&str>, database: &str) -> String {
    let creds = match password {
        Some(p) => format!("{user}:{p}"),
        None => user.to_string(),
    };
    format!(
        "postgres://{creds}@localhost/{database}?host={}",
        dir.display()
    )
}

/// The service's URL for the embedded server of a data directory that another process (a
/// running `tsoro serve`) has started: for `tsoro worker --data-dir` on the same machine.
/// `cluster` is the data directory's `postgres/` (or the place its note names).
pub fn service_url_of(cluster: &Path) -> Result<String, PgError> {
    let requested = cluster.canonicalize().map_err(|e| PgError::DataDir {
        path: cluster.display().to_string(),
        detail: format!("{e} (has `tsoro serve` run on this data directory?)"),
    })?;
    let dir = if requested.join(WHERE_NOTE).exists() {
        fallback_dir(&requested)
    } else {
        requested
    };
    let file = dir.join(access::SERVICE_PASSWORD_FILE);
    match access::read_password(&file)? {
        Some(p) => Ok(socket_url(&dir, DB_USER, Some(&p), DB_NAME)),
        None => Err(PgError::DataDir {
            path: file.display().to_string(),
            detail: "no password file: start `tsoro serve` on this data directory first (and \
                     run this as its user or root)"
                .into(),
        }),
    }
}

// The file, in a data directory (and as `<cluster>.id` beside the cluster kept for it
// elsewhere), holding the data directory's identity (a random id made when the cluster was
// first placed).
use clusters::IDENTITY_FILE;

/// Ties a cluster kept elsewhere to the data directory it was made for: both hold the same id.
/// A new directory made at the path of an old one (whose cluster is still there) has no id,
/// or another: it is refused rather than silently given the old one's cluster. A cluster of
/// before the ids (none in it) is adopted by the directory that has its note.
fn tie_to_identity(dir: &Path, cluster: &Path) -> Result<(), PgError> {
    // The cluster's copy is beside it (`initdb` wants an empty directory).
    let cluster_id = cluster.with_extension("id");
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    };
    let write = |p: &Path, id: &str| {
        std::fs::write(p, format!("{id}\n")).map_err(|e| PgError::DataDir {
            path: p.display().to_string(),
            detail: e.to_string(),
        })
    };
    let ours = read(&dir.join(IDENTITY_FILE));
    let theirs = read(&cluster_id);
    let cluster_made = cluster.join("PG_VERSION").exists();
    match (ours, theirs) {
        (Some(a), Some(b)) if a == b => Ok(()),
        (None, None) if !cluster_made || dir.join(WHERE_NOTE).exists() => {
            let id = uuid::Uuid::new_v4().simple().to_string();
            write(&cluster_id, &id)?;
            write(&dir.join(IDENTITY_FILE), &id)
        }
        (Some(a), None) if !cluster_made => write(&cluster_id, &a),
        _ => Err(PgError::DataDir {
            path: dir.display().to_string(),
            detail: format!(
                "the cluster kept for this path, {}, belongs to another data directory that \
                 was here before (their identities, {IDENTITY_FILE} and {}, differ): it is not \
                 attached to this one. Move that cluster away (or delete it) to start afresh, \
                 or restore the old data directory",
                cluster.display(),
                cluster_id.display()
            ),
        }),
    }
}

/// The first ancestor of `dir` that others cannot search (mode without o+x), if any.
fn unreachable_ancestor(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().skip(1).find_map(|anc| {
        let mode = std::fs::metadata(anc)
            .map(|m| m.permissions().mode())
            .unwrap_or(0);
        (mode & 0o001 == 0).then(|| anc.to_path_buf())
    })
}

/// A persistent home for the cluster of a data directory the server user cannot reach:
/// `/var/lib/tsoro/clusters/<hash of the data directory's path>` ([`clusters::CLUSTERS_ROOT`]).
fn fallback_dir(requested: &Path) -> PathBuf {
    // FNV-1a: stable across runs and versions.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in requested.as_os_str().as_encoded_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    Path::new(clusters::CLUSTERS_ROOT).join(format!("{h:016x}"))
}

fn chown_tree(dir: &Path, u: RunAs) -> Result<(), PgError> {
    let err = |p: &Path, e: std::io::Error| PgError::DataDir {
        path: p.display().to_string(),
        detail: e.to_string(),
    };
    let meta = std::fs::symlink_metadata(dir).map_err(|e| err(dir, e))?;
    use std::os::unix::fs::MetadataExt;
    if meta.uid() == u.uid {
        return Ok(());
    }
    std::os::unix::fs::lchown(dir, Some(u.uid), Some(u.gid)).map_err(|e| err(dir, e))?;
    if meta.is_dir() {
        for entry in std::fs::read_dir(dir).map_err(|e| err(dir, e))? {
            let entry = entry.map_err(|e| err(dir, e))?;
            chown_tree(&entry.path(), u)?;
        }
    }
    Ok(())
}
