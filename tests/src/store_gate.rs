//! A gate on the storing of played chunks, so a test can see chunks in play however fast they
//! play. Shared by the service's e2e tests and the `tsoro` binary's process tests (which
//! include this file by path: they are another crate's tests).

use sqlx::Connection;

/// Holds back the storing of played chunks while it is shut: a trigger makes marking a chunk
/// done wait on an advisory lock (75020001, the tests' own) that the gate's connection holds.
/// A worker then keeps the chunks it claims (one storing, one played and waiting to store)
/// until [`StoreGate::open`], so a test can see chunks in play however fast they play.
pub struct StoreGate {
    held: sqlx::PgConnection,
}

impl StoreGate {
    /// Shuts the gate on the database at `db` (a role that owns `simulation_chunks`).
    pub async fn shut(db: &str) -> StoreGate {
        let mut held = sqlx::PgConnection::connect(db).await.unwrap();
        sqlx::raw_sql(
            "CREATE OR REPLACE FUNCTION test_store_gate() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN PERFORM pg_advisory_xact_lock_shared(75020001); RETURN NEW; END $$; \
             CREATE OR REPLACE TRIGGER test_store_gate BEFORE UPDATE ON simulation_chunks \
             FOR EACH ROW WHEN (NEW.status = 'done') EXECUTE FUNCTION test_store_gate(); \
             SELECT pg_advisory_lock(75020001);",
        )
        .execute(&mut held)
        .await
        .unwrap();
        StoreGate { held }
    }

    /// The gate's connection, for the test's queries meanwhile.
    pub fn conn(&mut self) -> &mut sqlx::PgConnection {
        &mut self.held
    }

    /// Checks that no chunk was stored while it was shut, and lets the storing go on.
    pub async fn open(mut self) {
        let stored: i64 =
            sqlx::query_scalar("SELECT count(*) FROM simulation_chunks WHERE status = 'done'")
                .fetch_one(&mut self.held)
                .await
                .unwrap();
        assert_eq!(stored, 0, "no chunk is stored while the gate is shut");
        sqlx::raw_sql(
            "SELECT pg_advisory_unlock(75020001); \
             DROP TRIGGER test_store_gate ON simulation_chunks; DROP FUNCTION test_store_gate();",
        )
        .execute(&mut self.held)
        .await
        .unwrap();
    }
}
