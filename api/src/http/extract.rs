//! The extractors and their configuration: bodies, query strings and paths that do not read
//! answer problem+json naming what was wrong.
//!
//! JSON request bodies must be objects: serde reads a struct from a JSON array too (its fields
//! by position), which the API's documents do not allow, so `[{}, []]` would pass for a
//! request. [`JsonObject`] reads the body as [`web::Json`] does (size limit, media type and
//! their problem+json errors from [`json_config`]), refuses anything but an object with 400,
//! and what [`super::strict_json`] finds in its text (a key given twice, a number rounded to a
//! whole one it is not, nesting too deep), then reads the object into the request's type.

use super::problem::Problem;
use actix_web::{FromRequest, HttpRequest, dev::Payload, error, web};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

/// A JSON body that is an object, read into `T`.
#[derive(Debug)]
pub struct JsonObject<T>(pub T);

impl<T> JsonObject<T> {
    /// The request it holds.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for JsonObject<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonObject<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = web::Json::<Box<serde_json::value::RawValue>>::from_request(req, payload);
        let path = req.path().to_string();
        Box::pin(async move {
            let web::Json(raw) = body.await?;
            // The checks and the parse take time linear in the body (some milliseconds a
            // MiB): on a blocking thread, not the worker's, so that other requests (`/health`
            // among them) are answered meanwhile.
            let read = web::block(move || -> Result<serde_json::Value, Problem> {
                super::strict_json::check(raw.get()).map_err(strict_problem)?;
                serde_json::from_str(raw.get()).map_err(|e| unfit_body(&e))
            })
            .await
            .map_err(|e| Problem::internal(e).at(path.as_str()))?;
            let v = read.map_err(|p| p.at(path.as_str()))?;
            let kind = match &v {
                serde_json::Value::Object(_) => None,
                serde_json::Value::Array(_) => Some("an array"),
                serde_json::Value::String(_) => Some("a string"),
                serde_json::Value::Number(_) => Some("a number"),
                serde_json::Value::Bool(_) => Some("a boolean"),
                serde_json::Value::Null => Some("null"),
            };
            if let Some(kind) = kind {
                return Err(Problem::bad_request(format!(
                    "the JSON body is {kind}: it must be an object"
                ))
                .with_error("body", "a JSON object")
                .at(path.as_str())
                .into());
            }
            serde_json::from_value(v)
                .map(JsonObject)
                .map_err(|e| unfit_body(&e).at(path.as_str()).into())
        })
    }
}

/// JSON bodies: size limit and problem+json errors naming what was wrong.
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(move |err, req| {
            let p = match &err {
                error::JsonPayloadError::OverflowKnownLength { length, limit } => {
                    Problem::too_large(format!("the body has {length} bytes: at most {limit}"))
                }
                error::JsonPayloadError::Overflow { limit } => {
                    Problem::too_large(format!("the body is larger than {limit} bytes"))
                }
                error::JsonPayloadError::ContentType => super::guard::unsupported_media(
                    req.headers()
                        .get(actix_web::http::header::CONTENT_TYPE)
                        .and_then(|v| v.to_str().ok()),
                ),
                error::JsonPayloadError::Deserialize(e) => unfit_body(e),
                other => Problem::bad_request(format!("the JSON body could not be read: {other}")),
            };
            p.at(req.path()).into()
        })
}

/// 400: a JSON body that does not read as the request's type.
pub fn unfit_body(e: &serde_json::Error) -> Problem {
    Problem::bad_request(format!("the JSON body does not fit: {e}"))
        .with_error("body", e.to_string())
}

/// 400: a key given twice, a number that is not the whole number it would be read as, or
/// nesting too deep;
/// 422: a whole number that double precision cannot read exactly.
fn strict_problem(unfit: super::strict_json::Unfit) -> Problem {
    use super::strict_json::Unfit;
    match unfit {
        Unfit::DuplicateKey { at, key } => {
            let quoted = serde_json::to_string(&key).unwrap_or_default();
            let field = if at.is_empty() {
                key.clone()
            } else {
                format!("{at}.{key}")
            };
            let within = if at.is_empty() {
                "the body".to_string()
            } else {
                format!("`{at}`")
            };
            Problem::bad_request(format!(
                "the key {quoted} is given twice in {within}: give each key once"
            ))
            .with_error(field, "given twice")
        }
        Unfit::InexactWhole {
            at,
            literal,
            read_as,
        } => Problem::bad_request(format!(
            "{at} = {literal} is not a whole number, but a double-precision number rounds it to {read_as}: write the whole number meant"
        ))
        .with_error(at, format!("{literal}: not a whole number")),
        Unfit::ImpreciseWhole {
            at,
            literal,
            read_as,
        } => Problem::unprocessable(format!(
            "{at} = {literal} is a whole number past 2^53 written with a fraction or an exponent, which a double-precision number reads as {read_as}: write it in digits"
        ))
        .with_error(at, format!("{literal}: not exactly readable")),
        Unfit::TooDeep { at } => {
            let max = super::strict_json::MAX_DEPTH;
            let field = if at.is_empty() { "body".to_string() } else { at };
            Problem::bad_request(format!(
                "the JSON body nests objects and arrays deeper than {max} levels (at `{field}`): \
                 no request needs more"
            ))
            .with_error(field, format!("nested deeper than {max} levels"))
        }
    }
}

/// Query strings: problem+json errors.
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, req| {
        let text = match &err {
            error::QueryPayloadError::Deserialize(e) => plain(&e.to_string()),
            other => plain(&other.to_string()),
        };
        Problem::bad_request(format!("bad query string: {text}"))
            .with_error("query", text)
            .at(req.path())
            .into()
    })
}

/// Path parameters: problem+json errors.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, req| {
        let text = match &err {
            error::PathError::Deserialize(e) => plain(&e.to_string()),
            other => plain(&other.to_string()),
        };
        Problem::bad_request(format!("bad path: {text}"))
            .with_error("path", text)
            .at(req.path())
            .into()
    })
}

/// A deserializer's message without the Rust type names it holds (`can not parse "x" to a
/// u64`: a whole number, to the client).
fn plain(text: &str) -> String {
    let mut out = text.to_string();
    for t in [
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
    ] {
        out = out.replace(&format!("to a {t}"), "as a whole number");
    }
    for t in ["f32", "f64"] {
        out = out.replace(&format!("to a {t}"), "as a number");
    }
    out
}
