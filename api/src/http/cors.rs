//! Cross-origin access: the API is public data, so a page from any origin (a browser notebook,
//! a teaching page) may read it: `Access-Control-Allow-Origin: *` on every answer, and
//! preflight requests for reads answered. Writes are not open to other origins: a preflight
//! for POST or DELETE gets no allowing headers, and the writes that need no preflight are
//! refused by [`crate::http::access::same_origin_writes`].

use actix_cors::Cors;
use actix_web::http::{Method, header};

/// Seconds a browser may keep a preflight's answer.
const PREFLIGHT_MAX_AGE: usize = 3600;

/// The policy: any origin, no credentials, the reading methods and the headers they use.
pub fn policy() -> Cors {
    Cors::default()
        .allow_any_origin()
        .send_wildcard()
        .allowed_methods([Method::GET, Method::HEAD])
        .allowed_headers([header::ACCEPT, header::IF_NONE_MATCH])
        .expose_headers([
            header::LOCATION,
            header::ETAG,
            header::LINK,
            header::RETRY_AFTER,
        ])
        .max_age(PREFLIGHT_MAX_AGE)
}
