//! `GET /health` (the process is alive) and `GET /ready` (the database answers).

use crate::problem::Problem;
use crate::state::AppState;
use actix_web::{HttpResponse, web};
use std::time::Duration;

/// Registers the health routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/health")
            .route(web::get().to(health))
            .route(web::head().to(health))
            .default_service(crate::fallback::only("GET, HEAD")),
    )
    .service(
        web::resource("/ready")
            .route(web::get().to(ready))
            .route(web::head().to(ready))
            .default_service(crate::fallback::only("GET, HEAD")),
    );
}

/// The process is alive.
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({"status": "ok"}))
}

/// The database answers a query within two seconds: 200, else 503 problem+json.
pub async fn ready(state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
    let q = sqlx::query_scalar::<_, i32>("SELECT 1").fetch_one(&state.pool);
    match tokio::time::timeout(Duration::from_secs(3), q).await {
        Ok(Ok(_)) => {
            Ok(HttpResponse::Ok().json(serde_json::json!({"status": "ready", "database": "ok"})))
        }
        Ok(Err(e)) => {
            Err(Problem::unavailable(format!("the database does not answer: {e}")).at("/ready"))
        }
        Err(_) => Err(Problem::unavailable("the database did not answer within 3 s").at("/ready")),
    }
}
