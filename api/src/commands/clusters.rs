//! `tsoro clusters list` and `tsoro clusters prune`: the PostgreSQL clusters kept for data
//! directories the server user cannot reach ([`tsoro_pg::clusters`]), and removing those left
//! behind once their data directory is gone.

use crate::cli::{ClustersAction, ClustersArgs};
use std::process::ExitCode;
use tsoro_pg::clusters::{self, Kept};

fn line(k: &Kept) -> String {
    let dir = k
        .data_dir
        .as_ref()
        .map_or_else(|| "(unknown)".to_string(), |d| d.display().to_string());
    format!("{}\t{dir}\t{}", k.cluster.display(), k.state)
}

/// Runs `tsoro clusters`.
pub fn run(args: &ClustersArgs) -> ExitCode {
    let kept = match clusters::kept(&args.root) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: reading {}: {e}", args.root.display());
            return ExitCode::FAILURE;
        }
    };
    match args.action {
        ClustersAction::List => {
            for k in &kept {
                println!("{}", line(k));
            }
            ExitCode::SUCCESS
        }
        ClustersAction::Prune { dry_run } => {
            let mut failed = false;
            let orphans: Vec<&Kept> = kept.iter().filter(|k| k.state.orphaned()).collect();
            for k in &orphans {
                if dry_run {
                    println!("would remove {}", line(k));
                    continue;
                }
                match clusters::remove(k) {
                    Ok(()) => println!("removed {}", line(k)),
                    Err(e) => {
                        eprintln!("error: removing {}: {e}", k.cluster.display());
                        failed = true;
                    }
                }
            }
            eprintln!(
                "{} of {} kept clusters {}",
                orphans.len(),
                kept.len(),
                if dry_run {
                    "would be removed"
                } else {
                    "left behind by their data directories"
                }
            );
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}
