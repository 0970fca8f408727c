//! Cross-origin access: the API is public data, so a page from any origin (a browser notebook,
//! a teaching page) may read it and call it: `Access-Control-Allow-Origin: *` on every answer,
//! and preflight requests answered.

use actix_cors::Cors;
use actix_web::http::{Method, header};

/// Seconds a browser may keep a preflight's answer.
const PREFLIGHT_MAX_AGE: usize = 3600;

/// The policy: any origin, no credentials, the API's methods and the headers it reads.
pub fn policy() -> Cors {
    Cors::default()
        .allow_any_origin()
        .send_wildcard()
        .allowed_methods([Method::GET, Method::HEAD, Method::POST, Method::DELETE])
        .allowed_headers([header::CONTENT_TYPE, header::ACCEPT, header::IF_NONE_MATCH])
        .expose_headers([
            header::LOCATION,
            header::ETAG,
            header::LINK,
            header::RETRY_AFTER,
        ])
        .max_age(PREFLIGHT_MAX_AGE)
}
