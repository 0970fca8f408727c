//! The answers for a path no route has (404) and a method a path does not take (405), as
//! problems.

use crate::problem::Problem;
use actix_web::{HttpRequest, HttpResponse, ResponseError};

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
