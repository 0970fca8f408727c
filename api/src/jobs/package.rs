//! What every job's `datapackage.json` says alike (a simulation's, a nhodo run's, a
//! tournament's): a Frictionless Tabular Data Package named for the job, dated when it ended,
//! with what defines the run under `tsoro`, and the resources of a run that exports its
//! games and a summary.

use super::export::{GAMES_FILE, SUMMARY_FILE};
use super::store::JobRow;
use serde_json::{Value, json};
use tsoro_corpus::frictionless::{Column, Resource};

/// The data package of `job`'s exports: named `tsoro-{kind}-{id}`, with its `title` and
/// `description`, made when the job ended (or was queued), and under `tsoro` what defines
/// the run (the job, its ruleset's version and configuration, parameters, games, seed and
/// the engine) with `defines`' further entries; describing `resources`.
pub fn package(
    job: &JobRow,
    kind: &str,
    title: String,
    description: String,
    defines: Value,
    resources: Vec<Value>,
) -> Value {
    let mut tsoro = json!({
        "job": job.id,
        "ruleset": job.ruleset,
        "ruleset_version": job.ruleset_hash,
        "config": job.config,
        "params": job.params,
        "games": job.games,
        "seed": job.seed.to_string(),
        "engine": format!("tsoro-engine {}", env!("CARGO_PKG_VERSION")),
    });
    if let (Some(t), Value::Object(more)) = (tsoro.as_object_mut(), defines) {
        t.extend(more);
    }
    json!({
        "profile": "tabular-data-package",
        "name": format!("tsoro-{kind}-{}", job.id),
        "title": title,
        "description": description,
        "created": job.finished_at.unwrap_or(job.created_at).to_rfc3339(),
        "version": env!("CARGO_PKG_VERSION"),
        "tsoro": tsoro,
        "resources": resources,
    })
}

/// The resources of a run that exports every game (`games.csv`, a row a game keyed by
/// `game`, in `game_columns`) and its statistics (`summary.csv`, in `summary_columns`).
pub fn games_and_summary(game_columns: &[Column], summary_columns: &[Column]) -> Vec<Value> {
    vec![
        Resource {
            name: "games",
            path: GAMES_FILE,
            description: None,
            columns: game_columns,
            primary_key: &["game"],
            foreign_keys: &[],
        }
        .descriptor(),
        Resource {
            name: "summary",
            path: SUMMARY_FILE,
            description: None,
            columns: summary_columns,
            primary_key: &[],
            foreign_keys: &[],
        }
        .descriptor(),
    ]
}
