//! Refuses, before any handler sees them, requests no handler could answer well:
//! - an address (path and query) over [`MAX_URI`] bytes (414), or headers over
//!   [`MAX_HEADER_BYTES`] in all (431), as problems (beyond actix-http's own bounds, 128 KiB
//!   of request head or 96 headers, its parser answers a bare 431 before any of this runs);
//! - a path or query string holding a NUL byte (`%00`): PostgreSQL cannot store or compare
//!   text with NUL in it, so an id or a search term with `%00` came back as a 500;
//! - a body in a JSON look-alike media type (`application/vnd.foo+json`, `text/json`), which
//!   actix's JSON extractor takes as JSON: every body here is `application/json`.

use crate::http::problem::Problem;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::CONTENT_TYPE;
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage, ResponseError, mime};

/// Longest address (path and query string) read, in bytes.
pub const MAX_URI: usize = 8 * 1024;
/// Most bytes of header names and values read.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// 414 or 431 when the request's address or headers are over the limits.
fn over_long(req: &ServiceRequest) -> Option<Problem> {
    let uri = req.uri().path().len() + req.query_string().len();
    if uri > MAX_URI {
        return Some(Problem::of(
            &crate::http::problem::URI_TOO_LONG,
            format!("the address has {uri} bytes: at most {MAX_URI}"),
        ));
    }
    let headers: usize = req
        .headers()
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len())
        .sum();
    (headers > MAX_HEADER_BYTES).then(|| {
        Problem::of(
            &crate::http::problem::HEADERS_TOO_LARGE,
            format!("the headers have {headers} bytes: at most {MAX_HEADER_BYTES}"),
        )
    })
}

/// 415 for a body that is not `application/json`, naming the media type sent.
pub fn unsupported_media(sent: Option<&str>) -> Problem {
    Problem::of(
        &crate::http::problem::UNSUPPORTED_MEDIA_TYPE,
        format!(
            "the body's media type is {}: send it as application/json",
            sent.unwrap_or("missing")
        ),
    )
    .with_error("content-type", "application/json")
}

/// Whether actix would read this media type as JSON although it is not `application/json`.
fn json_look_alike(mime: &mime::Mime) -> bool {
    let json = mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON);
    json && mime.essence_str() != "application/json"
}

/// Where a NUL byte sits in a request target: `path`, or the query parameter's name.
///
/// A NUL byte can only arrive percent-encoded (`%00`): the HTTP parser refuses raw control
/// bytes in the request line, and paths and queries are decoded once.
pub fn nul_in(path: &str, query: &str) -> Option<String> {
    if path.contains("%00") {
        return Some("path".into());
    }
    query
        .split('&')
        .find(|pair| pair.contains("%00"))
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if !name.contains("%00") => format!("query.{name}"),
            _ => "query".into(),
        })
}

/// The middleware: 414 or 431 for an over-long address or headers, 400 problem+json naming
/// the parameter holding a NUL byte, 415 for a JSON look-alike media type, else the next
/// service.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    if let Some(p) = over_long(&req) {
        // The path itself may be the long part: not echoed as `instance`.
        return Ok(req.into_response(p.error_response()));
    }
    if let Some(field) = nul_in(req.path(), req.query_string()) {
        let p = Problem::bad_request(format!(
            "the request's {field} holds a NUL byte (%00), which no id or text here may contain"
        ))
        .with_error(field, "no NUL bytes (%00)")
        .at(req.path());
        return Ok(req.into_response(p.error_response()));
    }
    if let Ok(Some(mime)) = req.mime_type()
        && json_look_alike(&mime)
    {
        let sent = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        let p = unsupported_media(sent).at(req.path());
        return Ok(req.into_response(p.error_response()));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::{json_look_alike, nul_in};

    #[test]
    fn finds_the_parameter_that_holds_a_nul() {
        assert_eq!(nul_in("/api/v1/games/a%00", ""), Some("path".into()));
        assert_eq!(nul_in("/x", "limit=3&q=a%00b"), Some("query.q".into()));
        assert_eq!(nul_in("/x", "a%00=1"), Some("query".into()));
        assert_eq!(
            nul_in("/x", "q=%2500"),
            None,
            "an encoded percent sign is not a NUL"
        );
        assert_eq!(nul_in("/x", "q=board"), None);
    }

    #[test]
    fn only_application_json_is_json() {
        let m = |s: &str| s.parse::<actix_web::mime::Mime>().unwrap();
        assert!(json_look_alike(&m("application/vnd.foo+json")));
        assert!(json_look_alike(&m("text/json")));
        assert!(!json_look_alike(&m("application/json; charset=utf-8")));
        assert!(!json_look_alike(&m("text/plain")));
    }
}
