//! The answers for a path no route has (404) and a method a path does not take (405), as
//! problems.

use crate::problem::Problem;
use actix_web::{HttpRequest, HttpResponse, ResponseError, Route, web};

/// 405 for a known path with a method it does not take, naming those it takes in `Allow`.
pub fn method_not_allowed(req: &HttpRequest, allow: &str) -> HttpResponse {
    let mut r = Problem::method_not_allowed(format!(
        "{} does not take {}; it takes {allow}",
        req.path(),
        req.method()
    ))
    .at(req.path())
    .error_response();
    if let Ok(v) = actix_web::http::header::HeaderValue::from_str(allow) {
        r.headers_mut().insert(actix_web::http::header::ALLOW, v);
    }
    r
}

/// The default service of a resource that takes only the methods in `allow`
/// (`"GET, HEAD"`): 405 problem+json with `Allow`.
pub fn only(allow: &'static str) -> Route {
    web::to(move |req: HttpRequest| async move { method_not_allowed(&req, allow) })
}

/// 404 for any other path.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    Problem::not_found(format!("no resource at {}", req.path()))
        .at(req.path())
        .error_response()
}
