//! `GET /health` (the process is alive, and its database has not been away too long) and
//! `GET /ready` (the database answers now).

use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::events::JobEvents;
use actix_web::{HttpResponse, web};
use std::time::Duration;

/// Registers the health routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/health")
            .route(web::get().to(health))
            .route(web::head().to(health))
            .default_service(crate::http::unmatched::only("GET, HEAD")),
    )
    .service(
        web::resource("/ready")
            .route(web::get().to(ready))
            .route(web::head().to(ready))
            .default_service(crate::http::unmatched::only("GET, HEAD")),
    );
}

/// The process is alive: 200 with the database's state (`up`, or `down` with how long; and the
/// embedded server's restarts when the service runs one), its pool of connections (`busy`
/// when every one is in use: the service is loaded, not broken, and the status is `busy`,
/// still 200) and the requests awaiting jobs (`long_polls`); or, once the database has not
/// answered for longer than the threshold (`--health-db-down-secs`), 503 problem+json
/// `/problems/database-down` with the same `database` member.
pub async fn health(
    state: web::Data<AppState>,
    events: web::Data<JobEvents>,
) -> Result<HttpResponse, Problem> {
    let s = state.db.status();
    let mut database = match s.down_for {
        None => serde_json::json!({"state": "up"}),
        Some(d) => serde_json::json!({
            "state": "down",
            "down_secs": (d.as_secs_f64() * 10.0).round() / 10.0,
            "threshold_secs": s.threshold.as_secs_f64(),
            "error": s.last_error,
        }),
    };
    let pool = &state.pool;
    let (size, idle) = (pool.size(), pool.num_idle() as u32);
    let max = pool.options().get_max_connections();
    let busy = size >= max && idle == 0;
    database["pool"] = serde_json::json!({
        "state": if busy { "busy" } else { "ok" },
        "connections": size,
        "in_use": size.saturating_sub(idle),
        "max": max,
    });
    if let Some(e) = &s.embedded {
        database["embedded"] = serde_json::json!({
            "running": e.running,
            "restarts": e.restarts,
            "last_exit": e.last_exit,
        });
    }
    if s.past_threshold() {
        let down = s.down_for.unwrap_or_default().as_secs();
        let mut p = Problem::of(
            &crate::http::problem::DATABASE_DOWN,
            format!(
                "the database has not answered for {down} s (more than the {} s allowed): {}",
                s.threshold.as_secs(),
                s.last_error.as_deref().unwrap_or("no answer")
            ),
        )
        .at("/health");
        p.extra.insert("database".into(), database);
        return Err(p);
    }
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "status": if busy { "busy" } else { "ok" },
        "database": database,
        "long_polls": events.waiting(),
    })))
}

/// The database answers a query within two seconds: 200, else 503 problem+json.
pub async fn ready(state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
    let q = sqlx::query_scalar::<_, i32>("SELECT 1").fetch_one(&state.pool);
    match tokio::time::timeout(Duration::from_secs(3), q).await {
        Ok(Ok(_)) => {
            Ok(HttpResponse::Ok().json(serde_json::json!({"status": "ready", "database": "ok"})))
        }
        // It answers, but every connection of the pool is in use: busy, not down.
        Ok(Err(e @ sqlx::Error::PoolTimedOut)) => Err(Problem::from(e).at("/ready")),
        Ok(Err(e)) => {
            Err(Problem::unavailable(format!("the database does not answer: {e}")).at("/ready"))
        }
        Err(_) => Err(Problem::unavailable("the database did not answer within 3 s").at("/ready")),
    }
}
