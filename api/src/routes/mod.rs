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
    cfg.service(web::resource("/").route(web::get().to(home)))
        .service(
            utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
                .url("/api-docs/openapi.json", crate::openapi::ApiDoc::openapi()),
        )
        .service(web::resource("/docs").route(web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header(("Location", "/docs/"))
                .finish()
        })));
}

/// `/`: what the service is, with links to its documentation and data.
async fn home() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(HOME)
}

const HOME: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tsoro</title></head>
<body>
<h1>tsoro</h1>
<p>A source-cited archive and a simulator of the stone games of Zimbabwe and Malawi.</p>
<ul>
<li><a href="/docs/">API documentation (Swagger UI)</a> and the <a href="/api-docs/openapi.json">OpenAPI description</a></li>
<li><a href="/api/v1/games">Games</a>, <a href="/api/v1/sources">sources</a>, <a href="/api/v1/evidence">evidence</a>, <a href="/api/v1/rulesets">rulesets</a></li>
<li><a href="/api/v1/simulations">Simulations</a></li>
</ul>
</body></html>
"#;

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
