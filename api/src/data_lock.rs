//! One service per data directory: whatever runs the embedded PostgreSQL of a data directory
//! (`tsoro serve`, `tsoro migrate`, `tsoro token` when no service runs) holds an exclusive
//! lock (`flock`) on `DATA_DIR/tsoro.lock` for as long as it does, and writes in the file who
//! it is. A second one fails at once, naming the first, before it looks at the cluster: it
//! never stops or restarts a PostgreSQL another process supervises. The kernel drops the lock
//! when its process dies, however it dies.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The lock file's name in the data directory.
pub const LOCK_FILE: &str = "tsoro.lock";

/// Why the data directory could not be locked.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another process holds it.
    #[error(
        "the data directory {dir} is in use by {holder}: stop that one first, or give this one \
         a data directory of its own (--data-dir or TSORO_DATA_DIR)"
    )]
    Held {
        /// The data directory.
        dir: String,
        /// Who holds it, as its lock file says.
        holder: String,
    },
    /// The lock file cannot be opened or locked.
    #[error("locking {path}: {source}")]
    Io {
        /// The lock file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The held lock of a data directory (released when dropped, or when the process ends).
#[derive(Debug)]
pub struct DataDirLock {
    file: File,
    path: PathBuf,
}

impl DataDirLock {
    /// Locks `dir` (created if missing) for this process, described as `holder` (such as
    /// "tsoro serve"), or says who holds it.
    pub fn acquire(dir: &Path, holder: &str) -> Result<DataDirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source: std::io::Error| LockError::Io {
            path: path.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    dir: dir.display().to_string(),
                    holder: holder_of(&path),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        let lock = DataDirLock {
            file,
            path: path.clone(),
        };
        lock.describe(holder).map_err(io)?;
        Ok(lock)
    }

    /// Rewrites who holds the lock: this process's id and `holder` (a service adds its
    /// address once it is bound).
    pub fn describe(&self, holder: &str) -> std::io::Result<()> {
        let mut f = &self.file;
        f.set_len(0)?;
        f.rewind()?;
        writeln!(
            f,
            "{holder} (pid {}, since {})",
            std::process::id(),
            chrono::Utc::now().format("%Y-%m-%d %H:%M:%S UTC")
        )?;
        f.flush()
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Who holds the lock at `path`, as its file says.
fn holder_of(path: &Path) -> String {
    let mut text = String::new();
    let _ = File::open(path).and_then(|mut f| f.read_to_string(&mut text));
    match text.lines().next().map(str::trim) {
        Some(line) if !line.is_empty() => line.chars().take(300).collect(),
        _ => format!(
            "another process (it has not yet written {})",
            path.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_names_the_first_and_a_dropped_one_frees_the_directory() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let first = DataDirLock::acquire(dir.path(), "tsoro serve").expect("the first lock");
        first
            .describe("tsoro serve on http://127.0.0.1:9")
            .expect("described");
        // flock locks belong to open files: a second open in this process conflicts too.
        let err = DataDirLock::acquire(dir.path(), "tsoro migrate").expect_err("held");
        let text = err.to_string();
        assert!(text.contains("tsoro serve on http://127.0.0.1:9"), "{text}");
        assert!(
            text.contains(&format!("pid {}", std::process::id())),
            "{text}"
        );
        drop(first);
        let again = DataDirLock::acquire(dir.path(), "tsoro migrate").expect("free again");
        assert_eq!(again.path(), dir.path().join(LOCK_FILE));
    }
}
