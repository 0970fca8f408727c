//! JSON request bodies that must be objects: serde reads a struct from a JSON array too (its
//! fields by position), which the API's documents do not allow, so `[{}, []]` would pass for
//! a request. [`JsonObject`] reads the body as [`web::Json`] does (size limit, media type and
//! their problem+json errors from [`crate::app::json_config`]), refuses anything but an
//! object with 400, then reads the object into the request's type.

use crate::problem::Problem;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
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
        let body = web::Json::<serde_json::Value>::from_request(req, payload);
        let path = req.path().to_string();
        Box::pin(async move {
            let web::Json(v) = body.await?;
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
                .map_err(|e| crate::app::unfit_body(&e).at(path.as_str()).into())
        })
    }
}
