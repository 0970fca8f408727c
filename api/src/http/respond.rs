//! How the archive answers: JSON or CSV (by `?format=` or `Accept`), with an ETag (a hash of
//! the body; `If-None-Match` gets 304) and Cache-Control.

use crate::archive::detail::etag_of;
use crate::http::problem::Problem;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use serde::Serialize;

/// How long clients and proxies may keep an archive answer.
pub const CACHE_CONTROL: &str = "public, max-age=300";

/// A representation of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `application/json` (the default).
    Json,
    /// `text/csv`, RFC 4180.
    Csv,
}

/// The values of a list's `?format=`.
pub const FORMATS: [&str; 2] = ["json", "csv"];

/// The schema of a list's `?format=`: one of [`FORMATS`].
pub fn format_schema() -> utoipa::openapi::Object {
    enum_schema(&FORMATS)
}

/// A string schema allowing these values only.
pub fn enum_schema(values: &[&str]) -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(values.iter().copied()))
        .build()
}

/// The format asked for: `?format=json|csv` wins, else `Accept: text/csv`, else JSON.
pub fn format_of(req: &HttpRequest, format: Option<&str>) -> Result<Format, Problem> {
    match format {
        Some("json") => Ok(Format::Json),
        Some("csv") => Ok(Format::Csv),
        Some(other) => Err(Problem::bad_request(format!("unknown format {other:?}"))
            .with_error("format", format!("one of: {}", FORMATS.join(", ")))
            .at(req.path())),
        None => {
            let accept = req
                .headers()
                .get(header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            Ok(if accept.contains("text/csv") {
                Format::Csv
            } else {
                Format::Json
            })
        }
    }
}

/// A cacheable answer: the body with its ETag, or 304 when the client has it already.
pub fn cached(req: &HttpRequest, content_type: &str, body: Vec<u8>) -> HttpResponse {
    let etag = etag_of(&body);
    stored(req, content_type, body, etag)
}

/// A cacheable answer whose ETag was computed (and stored) with its body.
pub fn stored(
    req: &HttpRequest,
    content_type: &str,
    body: impl actix_web::body::MessageBody + 'static,
    etag: String,
) -> HttpResponse {
    let matches = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut r = if matches {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    r.insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, CACHE_CONTROL))
        .insert_header((header::VARY, "Accept"));
    if matches {
        r.finish()
    } else {
        r.content_type(content_type).body(body)
    }
}

/// A JSON answer.
pub fn json<T: Serialize>(req: &HttpRequest, value: &T) -> Result<HttpResponse, Problem> {
    let body = serde_json::to_vec(value).map_err(Problem::internal)?;
    Ok(cached(req, "application/json", body))
}

/// A CSV answer: a header row, then the rows, RFC 4180 (CRLF, quotes where needed).
pub fn csv(
    req: &HttpRequest,
    header: &[&str],
    rows: impl IntoIterator<Item = Vec<String>>,
) -> Result<HttpResponse, Problem> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(vec![]);
    w.write_record(header).map_err(Problem::internal)?;
    for row in rows {
        w.write_record(&row).map_err(Problem::internal)?;
    }
    let body = w.into_inner().map_err(|e| Problem::internal(e.error()))?;
    Ok(cached(req, "text/csv; charset=utf-8", body))
}
