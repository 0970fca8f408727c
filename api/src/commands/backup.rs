//! `tsoro backup FILE` and `tsoro restore FILE`: the service's database to a file and back,
//! with PostgreSQL's own `pg_dump` and `pg_restore` (custom format) run as the service's role,
//! from the binaries beside the embedded server's (the same major version), else on `PATH`.
//!
//! The backup file is its owner's alone (0600), as the database's files are.
//!
//! A backup is consistent (one snapshot) and may be taken while the service runs and plays:
//! a job caught in the middle resumes where the backup left it once restored (its chunks in
//! play then are claimed again when their leases run out). A restore replaces what the
//! database holds, then applies the migrations newer than the backup.

use crate::cli::DbArgs;
use crate::startup::Database;
use anyhow::{Context, bail};
use std::path::PathBuf;
use std::process::Command;

/// Runs `tsoro backup FILE`.
pub async fn backup(file: PathBuf, args: DbArgs) -> anyhow::Result<()> {
    let db = Database::open_or_join(&args, "tsoro backup").await?;
    let result = async {
        // The schema is current before it is saved (a stopped data directory of an older
        // release is migrated first, as `tsoro serve` would).
        crate::startup::open_pool(&db.url).await?.close().await;
        let partial = file.with_extension("partial");
        owner_only(&partial)?;
        let mut cmd = pg_command("pg_dump", &db.url);
        cmd.args(["--format=custom", "--no-owner", "--no-privileges", "--file"])
            .arg(&partial);
        run(cmd).await?;
        std::fs::rename(&partial, &file)
            .with_context(|| format!("renaming {} to {}", partial.display(), file.display()))?;
        let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        eprintln!("backup written to {} ({size} bytes)", file.display());
        anyhow::Ok(())
    }
    .await;
    db.close().await;
    result
}

/// Runs `tsoro restore FILE`.
pub async fn restore(file: PathBuf, args: DbArgs) -> anyhow::Result<()> {
    if !file.is_file() {
        bail!("no backup at {}", file.display());
    }
    // Never under a running service: the data directory's lock is taken (or refused).
    let db = Database::open(&args, "tsoro restore").await?;
    let result = async {
        let mut cmd = pg_command("pg_restore", &db.url);
        cmd.args([
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
        ])
        .arg(&file);
        run(cmd).await?;
        let pool = crate::startup::open_pool(&db.url).await?;
        pool.close().await;
        eprintln!("restored {}", file.display());
        anyhow::Ok(())
    }
    .await;
    db.close().await;
    result
}

/// Makes `path` an empty file only its owner may read (0600, as the database's own files),
/// before `pg_dump` writes into it: a backup holds every token's hash and every job, and
/// would otherwise be made as the umask says (0644, readable by every user).
fn owner_only(path: &std::path::Path) -> anyhow::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    // A file left there before keeps its mode on opening: set it.
    f.set_permissions(std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("restricting {} to its owner", path.display()))?;
    Ok(())
}

/// A PostgreSQL client program reaching `url`'s database, its password (if any) in the
/// environment rather than on the command line, where `ps` shows it.
fn pg_command(program: &str, url: &str) -> Command {
    let (url, password) = split_password(url);
    let mut cmd = Command::new(tsoro_pg::client_program(program));
    cmd.arg("--dbname")
        .arg(url)
        .env_remove("PGPASSWORD")
        .env_remove("PGSERVICE")
        .stdin(std::process::Stdio::null());
    if let Some(p) = password {
        cmd.env("PGPASSWORD", p);
    }
    cmd
}

async fn run(mut cmd: Command) -> anyhow::Result<()> {
    let program = cmd.get_program().to_string_lossy().to_string();
    let out = tokio::task::spawn_blocking(move || cmd.output())
        .await?
        .with_context(|| format!("running {program} (install PostgreSQL's client programs)"))?;
    if !out.status.success() {
        bail!(
            "{program} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(())
}

/// The URL without its password, and the password (percent-decoded).
fn split_password(url: &str) -> (String, Option<String>) {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return (url.to_string(), None);
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return (url.to_string(), None);
    };
    let Some(colon) = rest[..at].find(':') else {
        return (url.to_string(), None);
    };
    let password = percent_decode(&rest[colon + 1..at]);
    let stripped = format!("{}{}{}", &url[..scheme_end], &rest[..colon], &rest[at..]);
    (stripped, Some(password))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::split_password;

    #[test]
    fn the_password_leaves_the_url() {
        assert_eq!(
            split_password("postgres://tsoro:s%40cret@localhost/tsoro?host=/d/pg"),
            (
                "postgres://tsoro@localhost/tsoro?host=/d/pg".to_string(),
                Some("s@cret".to_string())
            )
        );
        assert_eq!(
            split_password("postgres://u@h/db"),
            ("postgres://u@h/db".to_string(), None)
        );
    }
}
