//! The answers for a path no route has (404) and a method a path does not take (405), as
//! problems, and a middleware giving any other bodiless error (Swagger UI's 404 under
//! `/docs/`) its problem.

use crate::http::problem::{KINDS, Problem};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::CONTENT_TYPE;
use actix_web::middleware::Next;
use actix_web::{Error, HttpRequest, HttpResponse, ResponseError, Route, web};

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
pub fn only(allow: impl Into<String>) -> Route {
    let allow: String = allow.into();
    web::to(move |req: HttpRequest| {
        let allow = allow.clone();
        async move { method_not_allowed(&req, &allow) }
    })
}

/// 404 for any other path.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    Problem::not_found(format!("no resource at {}", req.path()))
        .at(req.path())
        .error_response()
}

/// The middleware: an error answer (4xx, 5xx) without a body of its own becomes the problem of
/// its status (the first kind of [`KINDS`] with it), keeping its other headers (`Allow`,
/// `Retry-After`).
pub async fn problem_bodies(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let res = next.call(req).await?.map_into_boxed_body();
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error())
        || res.headers().contains_key(CONTENT_TYPE)
    {
        return Ok(res);
    }
    let Some(kind) = KINDS.iter().find(|k| k.status == status.as_u16()) else {
        return Ok(res);
    };
    let (req, old) = res.into_parts();
    let what = if status.as_u16() == 404 {
        format!("no resource at {}", req.path())
    } else {
        format!("{} {}", req.method(), req.path())
    };
    let mut new = Problem::of(kind, what).at(req.path()).error_response();
    for (name, value) in old.headers() {
        if !new.headers().contains_key(name) {
            new.headers_mut().insert(name.clone(), value.clone());
        }
    }
    Ok(ServiceResponse::new(req, new))
}
