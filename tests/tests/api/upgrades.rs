//! Upgrades: a database holding a form of job this version no longer reads is refused by a
//! migration that names it (migration 0014).

use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_api::settings::JobSettings;
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
    let refused = tsoro_api::db::MIGRATOR.run(&mut conn).await.err();
    conn.close().await.unwrap();
    refused.map(|e| e.to_string())
}

#[tokio::test]
async fn a_database_holding_a_retired_form_of_job_is_refused_by_name() {
    let app = spawn_app_with_jobs(JobSettings {
        workers: 1,
        chunk_games: 20,
        poll: Duration::from_millis(50),
        ..JobSettings::default()
    })
    .await;
    let r = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "games": 40, "seed": 3}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let url = r.json::<Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    let done: Value = app
        .get(&format!("{url}?wait=60"))
        .await
        .json()
        .await
        .unwrap();
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
