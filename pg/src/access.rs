//! Who may connect to the embedded server, and as what.
//!
//! The cluster's superuser is `postgres`; the service connects as its own role, `tsoro`, which
//! is not a superuser and cannot create databases or roles, but owns the `tsoro` database and
//! everything in it (so it runs the migrations). Both have random passwords kept in files of
//! mode 0600 in the cluster directory, and `pg_hba.conf` asks for them (SCRAM) on the Unix
//! socket, the only way in. A cluster made before this (superuser `tsoro`, every local
//! connection trusted) is converted on its next start.

use super::PgError;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The cluster's superuser.
pub const ADMIN_USER: &str = "postgres";
/// The file (in the cluster directory) holding the superuser's password.
pub const ADMIN_PASSWORD_FILE: &str = "tsoro-admin.password";
/// The file (in the cluster directory) holding the service role's password.
pub const SERVICE_PASSWORD_FILE: &str = "tsoro-service.password";
/// The first line of the `pg_hba.conf` we write (how we know it is ours).
const HBA_MARK: &str = "# tsoro: password (SCRAM) on the Unix socket only";

/// Reads the password in `file`, creating it (random, mode 0600, owned by `owner`) if missing.
pub fn password(file: &Path, owner: Option<(u32, u32)>) -> Result<String, PgError> {
    let err = |e: std::io::Error| PgError::DataDir {
        path: file.display().to_string(),
        detail: e.to_string(),
    };
    match std::fs::read_to_string(file) {
        Ok(text) if !text.trim().is_empty() => return Ok(text.trim().to_string()),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(err(e)),
    }
    // 244 random bits (two v4 UUIDs' random parts), as hex: nothing to quote anywhere.
    let secret = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    write_private(file, &secret, owner).map_err(err)?;
    Ok(secret)
}

/// Reads an existing password file (for a client such as `tsoro worker --data-dir`).
pub fn read_password(file: &Path) -> Result<Option<String>, PgError> {
    match std::fs::read_to_string(file) {
        Ok(text) => Ok(Some(text.trim().to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(PgError::DataDir {
            path: file.display().to_string(),
            detail: e.to_string(),
        }),
    }
}

/// Writes a file of mode 0600 (through a temporary file and a rename), owned by `owner`.
fn write_private(file: &Path, text: &str, owner: Option<(u32, u32)>) -> std::io::Result<()> {
    let tmp = file.with_extension("tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))?;
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::chown(&tmp, Some(uid), Some(gid))?;
    }
    std::fs::rename(&tmp, file)
}

/// Whether the cluster's `pg_hba.conf` is ours (passwords required).
pub fn hba_is_ours(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("pg_hba.conf"))
        .map(|t| t.starts_with(HBA_MARK))
        .unwrap_or(false)
}

/// Writes our `pg_hba.conf`: SCRAM passwords on the Unix socket, nothing else.
pub fn write_hba(dir: &Path, owner: Option<(u32, u32)>) -> Result<(), PgError> {
    let path = dir.join("pg_hba.conf");
    let text = format!(
        "{HBA_MARK} (written by tsoro; the passwords are in {ADMIN_PASSWORD_FILE} and \
         {SERVICE_PASSWORD_FILE}).\n\
         # TYPE  DATABASE  USER  METHOD\n\
         local   all       all   scram-sha-256\n"
    );
    write_private(&path, &text, owner).map_err(|e| PgError::DataDir {
        path: path.display().to_string(),
        detail: e.to_string(),
    })
}

/// Runs SQL with `psql` over the cluster's socket as `user` on `database`.
pub fn psql(
    psql: &Path,
    socket_dir: &Path,
    user: &str,
    password: Option<&str>,
    database: &str,
    sql: &str,
) -> Result<String, PgError> {
    let mut cmd = Command::new(psql);
    cmd.args(["-X", "-q", "-w", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h"])
        .arg(socket_dir)
        .args(["-U", user, "-d", database])
        .env("PGCONNECT_TIMEOUT", "10")
        .env_remove("PGPASSWORD")
        .env_remove("PGSERVICE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(p) = password {
        cmd.env("PGPASSWORD", p);
    }
    let err = |detail: String| PgError::Command {
        program: "psql".into(),
        detail,
    };
    let mut child = cmd.spawn().map_err(|e| err(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(sql.as_bytes())
            .map_err(|e| err(e.to_string()))?;
    }
    let out = child.wait_with_output().map_err(|e| err(e.to_string()))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(err(format!(
            "as {user} on {database}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

/// What [`secure`] needs to know of the cluster.
pub struct Cluster<'a> {
    /// `psql`.
    pub psql: PathBuf,
    /// The cluster (and socket) directory.
    pub dir: &'a Path,
    /// The owner of the server's files (when we run as root).
    pub owner: Option<(u32, u32)>,
    /// The service's role and database.
    pub service_user: &'a str,
    /// The service's database.
    pub database: &'a str,
}

/// Makes the running server's access what the module describes: passwords, the service's
/// role and database (owning what a cluster of before made as the superuser), then
/// `pg_hba.conf`. Idempotent: run at every start.
pub fn secure(c: &Cluster<'_>) -> Result<(), PgError> {
    let admin_pw = password(&c.dir.join(ADMIN_PASSWORD_FILE), c.owner)?;
    let service_pw = password(&c.dir.join(SERVICE_PASSWORD_FILE), c.owner)?;
    let ours = hba_is_ours(c.dir);
    let run =
        |user: &str, db: &str, sql: &str| psql(&c.psql, c.dir, user, Some(&admin_pw), db, sql);
    if !ours {
        // Every local connection is still trusted. A cluster made before roles were separated
        // has `tsoro` as its bootstrap superuser: rename it `postgres` (from another, passing
        // superuser, since a session cannot rename its own role).
        if run(ADMIN_USER, "postgres", "SELECT 1").is_err() {
            let old = c.service_user;
            tracing::warn!(
                superuser = old,
                "converting a cluster whose service role is its superuser"
            );
            run(
                old,
                "postgres",
                "DROP ROLE IF EXISTS tsoro_convert; CREATE ROLE tsoro_convert SUPERUSER LOGIN;",
            )?;
            run(
                "tsoro_convert",
                "postgres",
                &format!("ALTER ROLE \"{old}\" RENAME TO {ADMIN_USER};"),
            )?;
            run(ADMIN_USER, "postgres", "DROP ROLE tsoro_convert;")?;
        }
    }
    let user = c.service_user;
    let db = c.database;
    run(
        ADMIN_USER,
        "postgres",
        &format!(
            "ALTER ROLE {ADMIN_USER} PASSWORD '{admin_pw}';\n\
             SELECT 'CREATE ROLE \"{user}\"' WHERE NOT EXISTS \
               (SELECT 1 FROM pg_roles WHERE rolname = '{user}') \\gexec\n\
             ALTER ROLE \"{user}\" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION \
               NOBYPASSRLS PASSWORD '{service_pw}';\n\
             SELECT 'CREATE DATABASE \"{db}\" OWNER \"{user}\"' WHERE NOT EXISTS \
               (SELECT 1 FROM pg_database WHERE datname = '{db}') \\gexec\n\
             ALTER DATABASE \"{db}\" OWNER TO \"{user}\";\n"
        ),
    )?;
    // What the superuser made in the service's database (a converted cluster's tables,
    // sequences, views, functions and types) becomes the service's.
    run(
        ADMIN_USER,
        db,
        &format!(
            "DO $$ DECLARE r record; BEGIN\n\
               FOR r IN SELECT c.oid::regclass AS name FROM pg_class c \
                 WHERE c.relnamespace = 'public'::regnamespace \
                   AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') \
                   AND c.relowner <> '\"{user}\"'::regrole \
                   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass \
                     AND d.objid = c.oid AND d.deptype IN ('a', 'i') AND c.relkind = 'S') LOOP\n\
                 EXECUTE format('ALTER TABLE %s OWNER TO \"{user}\"', r.name);\n\
               END LOOP;\n\
               FOR r IN SELECT p.oid::regprocedure AS name FROM pg_proc p \
                 WHERE p.pronamespace = 'public'::regnamespace \
                   AND p.proowner <> '\"{user}\"'::regrole LOOP\n\
                 EXECUTE format('ALTER ROUTINE %s OWNER TO \"{user}\"', r.name);\n\
               END LOOP;\n\
               FOR r IN SELECT t.oid::regtype AS name FROM pg_type t \
                 WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r') \
                   AND t.typowner <> '\"{user}\"'::regrole LOOP\n\
                 EXECUTE format('ALTER TYPE %s OWNER TO \"{user}\"', r.name);\n\
               END LOOP;\n\
             END $$;\n"
        ),
    )?;
    if !ours {
        write_hba(c.dir, c.owner)?;
        run(ADMIN_USER, "postgres", "SELECT pg_reload_conf();")?;
        // The server reloads in a moment: wait until a connection without the password fails.
        let start = std::time::Instant::now();
        while psql(&c.psql, c.dir, ADMIN_USER, None, "postgres", "SELECT 1").is_ok() {
            if start.elapsed() > std::time::Duration::from_secs(10) {
                return Err(PgError::Command {
                    program: "postgres".into(),
                    detail: "pg_hba.conf was not reloaded within 10 s".into(),
                });
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        tracing::info!("the embedded PostgreSQL now asks for passwords");
    }
    Ok(())
}
