//! The tsoro service: an actix-web REST API over PostgreSQL, and the `tsoro` command line.
//!
//! Layers, top down:
//! - [`startup`] starts the process (database, server, workers) from [`settings`];
//! - [`http`] is the only code that knows actix-web: the route table, extractors, problems,
//!   the OpenAPI document; [`pages`] renders the HTML pages;
//! - the domain: [`runs`] (validating and planning a run, its cost), [`jobs`] (durable
//!   simulation jobs: store, workers, records, exports) and [`archive`] (the corpus imported
//!   and read), over the PostgreSQL [`database`] (connecting, migrating, the `/health` probe);
//! - [`commands`] is the command line's own (`tsoro simulate`, `tsoro search`...).

pub mod access;
pub mod archive;
pub mod cli;
pub mod commands;
pub mod compute;
pub mod data_lock;
pub mod database;
pub mod http;
pub mod jobs;
pub mod pages;
pub mod play;
pub mod runs;
pub mod settings;
pub mod startup;
pub mod telemetry;

#[cfg(test)]
mod layers {
    use std::path::{Path, PathBuf};

    /// The domain's modules: what they hold knows nothing of HTTP.
    const DOMAIN: &[&str] = &[
        "runs",
        "jobs",
        "access",
        "archive",
        "play.rs",
        "compute.rs",
        "data_lock.rs",
        "settings.rs",
        "database",
    ];

    fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
        if path.is_dir() {
            for entry in std::fs::read_dir(path).expect("a source directory") {
                rust_files(&entry.expect("a directory entry").path(), out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.to_path_buf());
        }
    }

    #[test]
    fn the_domain_imports_no_actix() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        for m in DOMAIN {
            let path = src.join(m);
            assert!(path.exists(), "{} is gone: update DOMAIN", path.display());
            rust_files(&path, &mut files);
        }
        assert!(files.len() > DOMAIN.len(), "{files:?}");
        let mut offenders = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).expect("a readable source file");
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                if ["actix_", "crate::http", "crate::pages"]
                    .iter()
                    .any(|w| code.contains(w))
                {
                    offenders.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "the domain imports the HTTP layer:\n{}",
            offenders.join("\n")
        );
    }
}
