//! A full disk (issue 34, item 10), as PostgreSQL reports it: SQLSTATE 53100 (`disk_full`,
//! "could not extend file ... No space left on device"). A trigger raises that error on the
//! test's own database, so the real service meets the real error from the real server; a
//! full filesystem itself cannot be made here without privileges a test should not need.

use crate::helpers::problem;
use serde_json::json;
use tsoro_tests::spawn_app;

#[tokio::test]
async fn a_full_disk_is_a_503_saying_so_and_writes_work_again_once_there_is_room() {
    let app = spawn_app().await;
    sqlx::raw_sql(
        "CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
         RAISE EXCEPTION 'could not extend file \"base/16384/16500\": No space left on device' \
         USING ERRCODE = '53100'; END $$; \
         CREATE TRIGGER test_disk_full BEFORE INSERT ON simulation_jobs \
         FOR EACH ROW EXECUTE FUNCTION test_disk_full();",
    )
    .execute(&app.pool)
    .await
    .unwrap();
    let job = json!({"ruleset": "tsoro-ludii", "games": 2});
    let r = app.post("/api/v1/simulations", &job).await;
    assert!(r.headers().contains_key("retry-after"));
    let p = problem(r, 503).await;
    assert_eq!(p["type"], "/problems/disk-full", "{p}");
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("disk is full"), "{p}");
    assert!(!detail.contains("os error 2"), "{p}");
    // Reading goes on.
    assert_eq!(app.get("/api/v1/rulesets").await.status().as_u16(), 200);

    // Space freed: the next write works, with nothing to restart.
    sqlx::raw_sql("DROP TRIGGER test_disk_full ON simulation_jobs")
        .execute(&app.pool)
        .await
        .unwrap();
    let r = app.post("/api/v1/simulations", &job).await;
    assert_eq!(r.status().as_u16(), 202);
}
