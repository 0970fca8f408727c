//! HTTP routes.

pub mod health;

use crate::problem::Problem;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use utoipa::OpenApi;

/// Registers every route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    health::configure(cfg);
    crate::jobs::routes::configure(cfg);
    crate::archive::routes::configure(cfg);
    crate::agent_move::configure(cfg);
    crate::web::configure(cfg);
    cfg.service(
        utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
            .url("/api-docs/openapi.json", crate::openapi::ApiDoc::openapi()),
    )
    .service(web::resource("/docs").route(web::get().to(|| async {
        HttpResponse::PermanentRedirect()
            .insert_header(("Location", "/docs/"))
            .finish()
    })));
}

/// 405 for a known path with a method it does not take.
pub async fn method_not_allowed(req: HttpRequest) -> HttpResponse {
    Problem::method_not_allowed(format!("{} does not take {}", req.path(), req.method()))
        .at(req.path())
        .error_response()
}

/// 404 for any other path.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    Problem::not_found(format!("no resource at {}", req.path()))
        .at(req.path())
        .error_response()
}
