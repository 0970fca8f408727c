//! HTTP routes.

pub mod health;

use actix_web::{HttpResponse, web};
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

pub use crate::fallback::not_found;
