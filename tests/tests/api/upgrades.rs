//! Upgrades: a database of the previous release is migrated and served; one holding a form of
//! job this version no longer reads is refused by a migration that names it (0014); a job
//! made by another engine version is left to workers of that version (0015).

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_tests::spawn_app_with_jobs;

/// Runs migration 0014 again on the app's database: its error, if it refuses it. On a
/// connection of its own, closed after: a failed run keeps the migrator's advisory lock for as
/// long as its connection lives.
async fn migrate_0014_again(pool: &sqlx::PgPool) -> Option<String> {
    use sqlx::Connection;
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 14")
        .execute(pool)
        .await
        .unwrap();
    let mut conn = sqlx::PgConnection::connect_with(&pool.connect_options())
        .await
        .unwrap();
    let refused = tsoro_api::database::MIGRATOR.run(&mut conn).await.err();
    conn.close().await.unwrap();
    refused.map(|e| e.to_string())
}

#[tokio::test]
async fn a_database_holding_a_retired_form_of_job_is_refused_by_name() {
    let app = spawn_app_with_jobs(crate::jobs::settings(1, 20)).await;
    let body = json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "games": 40, "seed": 3});
    let url = crate::jobs::submit(&app, body).await;
    let done = crate::jobs::wait_done(&app, &url).await;
    assert_eq!(done["status"], "done", "{done}");
    // The database as this version writes it passes.
    assert_eq!(migrate_0014_again(&app.pool).await, None);

    let retired = [
        (
            "UPDATE simulation_chunks SET records = convert_to('0,1,random,greedy\n', 'UTF8') \
             WHERE idx = 0",
            "chunks whose records are CSV lines or packed in format 1",
        ),
        (
            "UPDATE simulation_chunks SET records = overlay(records PLACING '\\x5453524201' FROM 1) \
             WHERE idx = 0",
            "chunks whose records are CSV lines or packed in format 1",
        ),
        (
            "UPDATE simulation_chunks SET summary = NULL WHERE idx = 1",
            "chunks stored without their aggregates",
        ),
        (
            "INSERT INTO simulation_chunks (job_id, idx, first_game, end_game, status, attempts) \
             SELECT job_id, 7, 140, 160, 'pending', 0 FROM simulation_chunks WHERE idx = 0",
            "chunks cut when their job was queued",
        ),
        (
            "UPDATE simulation_jobs SET summary = jsonb_set(summary, '{ludii_branching_sum}', '2.5')",
            "aggregates whose sums are inexact",
        ),
    ];
    for (make_old, named) in retired {
        let mut tx = app.pool.begin().await.unwrap();
        sqlx::query("CREATE TABLE chunks_before AS SELECT * FROM simulation_chunks")
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::query("CREATE TABLE jobs_before AS SELECT id, summary FROM simulation_jobs")
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::raw_sql(make_old).execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
        let refused = migrate_0014_again(&app.pool).await;
        let refused = refused.unwrap_or_else(|| panic!("not refused: {make_old}"));
        assert!(
            refused.contains("no longer reads") && refused.contains(named),
            "{make_old}: {refused}"
        );
        // Back as it was; migration 0014 then passes again.
        sqlx::raw_sql(
            "DELETE FROM simulation_chunks; \
             INSERT INTO simulation_chunks SELECT * FROM chunks_before; \
             UPDATE simulation_jobs j SET summary = b.summary FROM jobs_before b WHERE b.id = j.id; \
             DROP TABLE chunks_before; DROP TABLE jobs_before;",
        )
        .execute(&app.pool)
        .await
        .unwrap();
    }
    assert_eq!(migrate_0014_again(&app.pool).await, None);
}

/// The database of a service of the previous release (main at 4bedfe0, migrations 1 to 13):
/// `pg_dump --inserts` of its data directory's database, the archive's rows left out (the
/// service imports them), with a finished simulation, a finished tournament and a simulation
/// still queued; and the exports that service gave for the finished two.
const PREVIOUS: &str = include_str!("../../fixtures/upgrade-4bedfe0/database.sql");
const PREVIOUS_SIMULATION_CSV: &str =
    include_str!("../../fixtures/upgrade-4bedfe0/simulation-games.csv");
const PREVIOUS_TOURNAMENT_CSV: &str =
    include_str!("../../fixtures/upgrade-4bedfe0/tournament-games.csv");
const PREVIOUS_RATINGS_CSV: &str =
    include_str!("../../fixtures/upgrade-4bedfe0/tournament-ratings.csv");

/// A database made by the previous release is migrated (its applied migrations' checksums
/// still match, the new ones pass over its jobs) and served: its finished jobs read back with
/// the very exports that release gave, and its queued job is played to the engine's records.
#[tokio::test]
async fn a_database_of_the_previous_release_is_upgraded_and_serves_its_jobs() {
    use sqlx::Connection;
    let url = tsoro_tests::fresh_database().await;
    // An empty database, then the previous release's (on a connection of its own: the dump
    // empties its search_path).
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::raw_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::raw_sql(PREVIOUS).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
    let pool = tsoro_api::database::connect(&url).await.unwrap();
    tsoro_api::database::migrate(&pool)
        .await
        .expect("the previous release's database migrates");
    let app = tsoro_tests::spawn_app_with_settings(pool, crate::jobs::settings(1, 50)).await;

    let simulation = "/api/v1/simulations/e865e0e8-70aa-4e1a-8794-1cbf42dc82ca";
    let v: Value = app.get(simulation).await.json().await.unwrap();
    assert_eq!(v["status"], "done", "{v}");
    assert_eq!(v["seed"], "18446744073709551615");
    assert_eq!(
        v["engine_version"],
        Value::Null,
        "made before jobs recorded it"
    );
    let csv = app.get(&format!("{simulation}/games.csv")).await;
    assert_eq!(csv.text().await.unwrap(), PREVIOUS_SIMULATION_CSV);
    let tournament = "/api/v1/tournaments/afd825e9-9197-4444-aead-20dd4329f075";
    let v: Value = app.get(tournament).await.json().await.unwrap();
    assert_eq!(v["status"], "done", "{v}");
    for (export, previous) in [
        ("games.csv", PREVIOUS_TOURNAMENT_CSV),
        ("ratings.csv", PREVIOUS_RATINGS_CSV),
    ] {
        let r = app.get(&format!("{tournament}/{export}")).await;
        assert_eq!(r.status(), StatusCode::OK, "{export}");
        assert_eq!(r.text().await.unwrap(), previous, "{export}");
    }

    // The job queued under the previous release (it recorded no engine version) is played.
    let queued = "/api/v1/simulations/21483d0e-fb5a-4502-8e15-83a98e4def97";
    let v = crate::jobs::wait_done(&app, queued).await;
    assert_eq!(v["status"], "done", "{v}");
    let csv = app
        .get(&format!("{queued}/games.csv"))
        .await
        .text()
        .await
        .unwrap();
    let (records, stats) = crate::jobs::engine_run("tsoro-ludii", ["greedy", "random"], 120, 9);
    assert_eq!(crate::jobs::parse_games(&csv).1, records);
    assert_eq!(v["stats"], stats);
}

/// A job records the engine version that made it; a worker of another version leaves it
/// alone (its claims pass it by), and the job's view and page say why.
#[tokio::test]
async fn workers_leave_alone_a_job_of_another_engine_version() {
    use tsoro_api::jobs::store;
    let app = spawn_app_with_jobs(crate::jobs::settings(0, 50)).await;
    let url = crate::jobs::submit(
        &app,
        json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "games": 100, "seed": 4}),
    )
    .await;
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert_eq!(v["engine_version"], tsoro_engine::VERSION);
    assert_eq!(v["held"], Value::Null);
    let id = v["id"].as_str().unwrap().to_string();

    // As a job made by a build of another engine: this build's workers pass it by.
    sqlx::query("UPDATE simulation_jobs SET engine_version = 'another' WHERE id = $1::uuid")
        .bind(&id)
        .execute(&app.pool)
        .await
        .unwrap();
    let lease = Duration::from_secs(30);
    assert!(
        store::claim(&app.pool, "w", lease).await.unwrap().is_none(),
        "a worker of another engine version claimed the job"
    );
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert_eq!(v["status"], "queued");
    let held = v["held"].as_str().expect("the view says why it waits");
    assert!(
        held.contains("engine version another") && held.contains(tsoro_engine::VERSION),
        "{held}"
    );
    let page = app
        .get(&format!("/simulations/{id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("id=\"held\"") && page.contains("engine version another"),
        "the page says why it waits"
    );

    // Its own version's workers play it.
    sqlx::query("UPDATE simulation_jobs SET engine_version = $2 WHERE id = $1::uuid")
        .bind(&id)
        .bind(tsoro_engine::VERSION)
        .execute(&app.pool)
        .await
        .unwrap();
    let claim = store::claim(&app.pool, "w", lease).await.unwrap();
    assert_eq!(claim.map(|c| c.job.id.to_string()), Some(id));
}
