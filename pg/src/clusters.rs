//! The clusters kept for data directories the server user cannot reach (under
//! [`CLUSTERS_ROOT`], one per data directory's path), and those left behind: once the data
//! directory a cluster was made for is gone (or another directory, with another identity, took
//! its path), nothing will use the cluster again, yet it keeps its disk space. [`orphans`] finds
//! them and [`remove`] deletes one; `tsoro clusters prune` does both.
//!
//! Beside each cluster `<hash>` are `<hash>.id` (the identity it shares with its data
//! directory) and `<hash>.path` (the data directory's path, written each time the cluster is
//! used). A cluster without `.path` (made before it was written, and not used since) cannot be
//! tied to a directory: it is listed, never removed.

use std::path::{Path, PathBuf};

/// Where clusters kept for unreachable data directories live.
pub const CLUSTERS_ROOT: &str = "/var/lib/tsoro/clusters";

/// The file in a data directory holding its identity (shared with its cluster's `.id`).
pub(crate) const IDENTITY_FILE: &str = "tsoro-data-dir-id";

/// A cluster under the root, and what became of its data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The cluster's directory.
    pub cluster: PathBuf,
    /// The data directory it was made for, if recorded.
    pub data_dir: Option<PathBuf>,
    /// Its state.
    pub state: KeptState,
}

/// What became of a kept cluster's data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeptState {
    /// The data directory is there, with the cluster's identity: in use.
    InUse,
    /// The data directory is gone: the cluster is left behind.
    DataDirGone,
    /// Another data directory (another identity, or none) took the path: left behind.
    DataDirReplaced,
    /// No data directory recorded: kept (it cannot be told apart from one in use).
    Unknown,
    /// A server is running on it (its `postmaster.pid` names a live process): kept.
    Running,
}

impl KeptState {
    /// Whether the cluster is left behind, to be removed.
    pub fn orphaned(&self) -> bool {
        matches!(self, KeptState::DataDirGone | KeptState::DataDirReplaced)
    }
}

impl std::fmt::Display for KeptState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KeptState::InUse => "in use",
            KeptState::DataDirGone => "its data directory is gone",
            KeptState::DataDirReplaced => "another data directory took its path",
            KeptState::Unknown => "no data directory recorded (kept)",
            KeptState::Running => "a server is running on it (kept)",
        })
    }
}

/// Records beside `cluster` the data directory it is kept for.
pub(crate) fn record_data_dir(cluster: &Path, data_dir: &Path) -> std::io::Result<()> {
    std::fs::write(
        cluster.with_extension("path"),
        format!("{}\n", data_dir.display()),
    )
}

fn read_trimmed(p: &Path) -> Option<String> {
    std::fs::read_to_string(p)
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// Whether a server runs on `cluster`: its `postmaster.pid`'s first line is a live process.
fn running(cluster: &Path) -> bool {
    read_trimmed(&cluster.join("postmaster.pid"))
        .and_then(|t| t.lines().next()?.trim().parse::<i32>().ok())
        .is_some_and(|pid| pid > 0 && Path::new(&format!("/proc/{pid}")).exists())
}

/// Every cluster under `root`, with its state (none if `root` does not exist).
pub fn kept(root: &Path) -> std::io::Result<Vec<Kept>> {
    let entries = match std::fs::read_dir(root) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry?;
        let cluster = entry.path();
        if !entry.file_type()?.is_dir() {
            continue;
        }
        let data_dir = read_trimmed(&cluster.with_extension("path")).map(PathBuf::from);
        let state = if running(&cluster) {
            KeptState::Running
        } else {
            match &data_dir {
                None => KeptState::Unknown,
                Some(d) if !d.is_dir() => KeptState::DataDirGone,
                Some(d) => {
                    let ours = read_trimmed(&d.join(IDENTITY_FILE));
                    let theirs = read_trimmed(&cluster.with_extension("id"));
                    if ours.is_some() && ours == theirs {
                        KeptState::InUse
                    } else {
                        KeptState::DataDirReplaced
                    }
                }
            }
        };
        out.push(Kept {
            cluster,
            data_dir,
            state,
        });
    }
    out.sort_by(|a, b| a.cluster.cmp(&b.cluster));
    Ok(out)
}

/// The clusters under `root` left behind by their data directories.
pub fn orphans(root: &Path) -> std::io::Result<Vec<Kept>> {
    Ok(kept(root)?
        .into_iter()
        .filter(|k| k.state.orphaned())
        .collect())
}

/// Deletes a cluster left behind, with its `.id` and `.path`.
pub fn remove(k: &Kept) -> std::io::Result<()> {
    std::fs::remove_dir_all(&k.cluster)?;
    for ext in ["id", "path"] {
        match std::fs::remove_file(k.cluster.with_extension(ext)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clusters_whose_data_directory_is_gone_or_replaced_are_orphans() {
        let root = tempfile::tempdir().unwrap();
        let dirs = tempfile::tempdir().unwrap();
        let make = |name: &str, id: Option<&str>, data: Option<&Path>| {
            let c = root.path().join(name);
            std::fs::create_dir_all(c.join("base")).unwrap();
            std::fs::write(c.join("PG_VERSION"), "17\n").unwrap();
            if let Some(id) = id {
                std::fs::write(c.with_extension("id"), format!("{id}\n")).unwrap();
            }
            if let Some(d) = data {
                record_data_dir(&c, d).unwrap();
            }
            c
        };
        let live = dirs.path().join("live");
        std::fs::create_dir_all(&live).unwrap();
        std::fs::write(live.join(IDENTITY_FILE), "aaa\n").unwrap();
        let replaced = dirs.path().join("replaced");
        std::fs::create_dir_all(&replaced).unwrap();
        std::fs::write(replaced.join(IDENTITY_FILE), "other\n").unwrap();
        let a = make("a", Some("aaa"), Some(&live));
        let b = make("b", Some("bbb"), Some(&dirs.path().join("gone")));
        let c = make("c", Some("ccc"), Some(&replaced));
        let d = make("d", Some("ddd"), None);
        let states: Vec<_> = kept(root.path())
            .unwrap()
            .into_iter()
            .map(|k| (k.cluster, k.state))
            .collect();
        assert_eq!(
            states,
            vec![
                (a.clone(), KeptState::InUse),
                (b.clone(), KeptState::DataDirGone),
                (c.clone(), KeptState::DataDirReplaced),
                (d.clone(), KeptState::Unknown),
            ]
        );
        for k in orphans(root.path()).unwrap() {
            remove(&k).unwrap();
        }
        assert!(a.exists() && d.exists());
        assert!(!b.exists() && !c.exists());
        assert!(!b.with_extension("id").exists() && !b.with_extension("path").exists());
        assert!(a.with_extension("path").exists());
        // No root: nothing kept.
        assert_eq!(kept(&root.path().join("none")).unwrap(), vec![]);
    }
}
