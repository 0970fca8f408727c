//! Access control over HTTP: the [`Access`] extractor (who is asking, from `Authorization:
//! Bearer`, and what [`crate::access`] lets them do, as 401 or 403 problems) and the
//! [`same_origin_writes`] middleware (a web page of another site cannot make a browser write
//! here).

// Refusals are `Problem`s by value, as every handler's errors are (see `crate::jobs`).
#![allow(clippy::result_large_err)]

use crate::access::{self, Caller, Denied, Policy, Scope};
use crate::http::problem::Problem;
use crate::http::state::AppState;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{Error, FromRequest, HttpRequest, ResponseError, web};
use futures_util::future::LocalBoxFuture;

/// Who is asking, and the service's policy: the decisions of [`crate::access::Policy`] as
/// problems naming the request's path.
pub struct Access {
    /// The caller (an anonymous one, or a token's holder).
    pub caller: Caller,
    policy: Policy,
    path: String,
}

impl Access {
    fn refuse(&self, d: Denied) -> Problem {
        match d {
            Denied::Unauthenticated(m) => Problem::of(&crate::http::problem::UNAUTHORIZED, m),
            Denied::Forbidden(m) => Problem::of(&crate::http::problem::FORBIDDEN, m),
        }
        .at(self.path.as_str())
    }

    /// May the caller start a job? Yes: its owner (None: anonymous).
    pub fn may_create(&self) -> Result<Option<String>, Problem> {
        self.policy
            .may_create(&self.caller)
            .map_err(|d| self.refuse(d))
    }

    /// May the caller stop or delete a job of this owner?
    pub fn may_manage(&self, owner: Option<&str>) -> Result<(), Problem> {
        self.policy
            .may_manage(&self.caller, owner)
            .map_err(|d| self.refuse(d))
    }

    /// Which jobs the caller's list shows.
    pub fn list_scope(&self) -> Result<Scope, Problem> {
        self.policy
            .list_scope(&self.caller)
            .map_err(|d| self.refuse(d))
    }
}

/// The policy the application was built with (closed, when none was registered).
fn policy_of(req: &HttpRequest) -> Policy {
    req.app_data::<web::Data<Policy>>()
        .map(|p| *p.get_ref())
        .unwrap_or(Policy {
            anonymous_writes: false,
        })
}

/// The token of an `Authorization` header: `Bearer TOKEN` (the scheme in any case).
fn bearer(value: &header::HeaderValue) -> Option<&str> {
    let v = value.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The caller of a request, checked against the active tokens: 401 for a header that is not
/// a bearer token, or a token the service does not know.
async fn caller_of(
    pool: &sqlx::PgPool,
    authorization: Option<header::HeaderValue>,
) -> Result<Caller, Problem> {
    let tokens = access::store::active(pool).await?;
    let Some(value) = authorization else {
        return Ok(Caller::Anonymous {
            tokens_on: !tokens.is_empty(),
        });
    };
    let unauthorized = |m: &str| Problem::of(&crate::http::problem::UNAUTHORIZED, m);
    // The token itself is never logged nor echoed back.
    let secret = bearer(&value).ok_or_else(|| {
        unauthorized("the Authorization header is not `Bearer TOKEN`: send the token that way")
    })?;
    access::identify(secret, &tokens)
        .map(Caller::Known)
        .ok_or_else(|| {
            unauthorized("the bearer token is not one this service knows, or it has been revoked")
        })
}

impl FromRequest for Access {
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let authorization = req.headers().get(header::AUTHORIZATION).cloned();
        let policy = policy_of(req);
        let path = req.path().to_string();
        Box::pin(async move {
            let state = state.ok_or_else(|| Problem::internal("no application state"))?;
            let caller = caller_of(&state.pool, authorization)
                .await
                .map_err(|p| p.at(path.as_str()))?;
            Ok(Access {
                caller,
                policy,
                path,
            })
        })
    }
}

/// Refuses to serve anonymous writes to other machines by accident: a service asked to listen
/// beyond loopback, with no active token and without `--allow-anonymous-writes`, does not
/// start, and says how to make it.
pub async fn check_exposure(
    settings: &crate::settings::AppSettings,
    pool: &sqlx::PgPool,
) -> anyhow::Result<()> {
    use std::net::ToSocketAddrs;
    if settings.allow_anonymous_writes {
        return Ok(());
    }
    let addrs: Vec<_> = settings
        .bind
        .to_socket_addrs()
        .map(Iterator::collect)
        .unwrap_or_default();
    // An address that does not resolve fails to bind, with its own message, later.
    if addrs.iter().all(|a| access::is_loopback(a.ip())) {
        return Ok(());
    }
    if access::store::any_active(pool).await? {
        return Ok(());
    }
    anyhow::bail!(
        "refusing to listen on {} without an API token: anyone who can reach it could start \
         and delete jobs. Make a token first (`tsoro token add NAME --role admin`, against the \
         same data directory or DATABASE_URL), or start it with --allow-anonymous-writes \
         (TSORO_ALLOW_ANONYMOUS_WRITES=true) to allow anonymous writes on purpose",
        settings.bind
    )
}

/// Whether anonymous clients may write now (anonymous mode: no active token, and anonymous
/// writes allowed). Then the home page lists the latest jobs, as the API lists them to
/// anyone, and the simulation form needs no token. Otherwise a job's id is known only to
/// those it was shared with.
pub async fn anonymous_writes_open(req: &HttpRequest, pool: &sqlx::PgPool) -> bool {
    let caller = match access::store::any_active(pool).await {
        Ok(tokens_on) => Caller::Anonymous { tokens_on },
        Err(_) => return false,
    };
    policy_of(req).may_create(&caller).is_ok()
}

/// Why a request is a cross-origin write, if it is one. As Go's `net/http`
/// `CrossOriginProtection` decides: safe methods pass; a browser's `Sec-Fetch-Site` must say
/// `same-origin` (or `none`: typed by the user); without it, an `Origin` must name the host
/// asked; requests with neither come from clients that are not browsers, and pass.
pub fn cross_origin_write(req: &ServiceRequest) -> Option<String> {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    let headers = req.headers();
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().unwrap_or("");
        return (!matches!(site, "same-origin" | "none"))
            .then(|| format!("Sec-Fetch-Site: {site}"));
    }
    let origin = headers.get(header::ORIGIN)?.to_str().unwrap_or("null");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()));
    let origin_host = origin.split_once("://").map(|(_, rest)| rest);
    match (origin_host, host) {
        (Some(o), Some(h)) if o.eq_ignore_ascii_case(&h) => None,
        _ => Some(format!("Origin: {origin}")),
    }
}

/// The middleware: 403 problem+json for a write (POST, DELETE...) a browser sends from a page
/// of another site. CORS lets such pages read the API, never write: with anonymous writes on
/// (a service on this machine) a page the user happens to open could otherwise start or
/// delete jobs with a "simple" request that needs no preflight.
pub async fn same_origin_writes(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    if let Some(why) = cross_origin_write(&req) {
        let p = Problem::of(
            &crate::http::problem::FORBIDDEN,
            format!(
                "a write from a page of another site ({why}) is refused: call the API from the \
                 service's own pages, or from a program"
            ),
        )
        .at(req.path());
        return Ok(req.into_response(p.error_response()));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// The OpenAPI document's `bearer` security scheme (the operations that take a token name it
/// in their `security`).
pub struct BearerScheme;

impl utoipa::Modify for BearerScheme {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "An API token made by `tsoro token add NAME --role reader|runner|admin`. Needed \
                 to start, list, stop or delete jobs once the service has any token; reading the \
                 archive, and a job by its id, never needs one.",
            ))
            .build();
        doc.components
            .get_or_insert_with(Default::default)
            .add_security_scheme("bearer", SecurityScheme::Http(scheme));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn verdict(method: Method, headers: &[(&str, &str)]) -> Option<String> {
        let mut r = TestRequest::default()
            .method(method)
            .insert_header(("host", "tsoro.example:8080"));
        for (k, v) in headers {
            r = r.insert_header((*k, *v));
        }
        cross_origin_write(&r.to_srv_request())
    }

    #[test]
    fn writes_from_other_sites_are_told_apart() {
        // Reads pass whatever their origin.
        assert_eq!(
            verdict(Method::GET, &[("sec-fetch-site", "cross-site")]),
            None
        );
        // Programs send neither header.
        assert_eq!(verdict(Method::POST, &[]), None);
        assert_eq!(
            verdict(Method::POST, &[("sec-fetch-site", "same-origin")]),
            None
        );
        assert_eq!(verdict(Method::DELETE, &[("sec-fetch-site", "none")]), None);
        assert!(verdict(Method::POST, &[("sec-fetch-site", "cross-site")]).is_some());
        assert!(verdict(Method::DELETE, &[("sec-fetch-site", "same-site")]).is_some());
        // Older browsers: the Origin against the host.
        assert_eq!(
            verdict(Method::POST, &[("origin", "http://tsoro.example:8080")]),
            None
        );
        assert!(verdict(Method::POST, &[("origin", "http://evil.example")]).is_some());
        assert!(verdict(Method::POST, &[("origin", "http://tsoro.example:8081")]).is_some());
        assert!(verdict(Method::POST, &[("origin", "null")]).is_some());
    }

    #[test]
    fn bearer_tokens_are_read() {
        let v = |s: &str| header::HeaderValue::from_str(s).unwrap();
        assert_eq!(bearer(&v("Bearer abc")), Some("abc"));
        assert_eq!(bearer(&v("bearer abc")), Some("abc"));
        assert_eq!(bearer(&v("Basic abc")), None);
        assert_eq!(bearer(&v("Bearer ")), None);
        assert_eq!(bearer(&v("Bearer")), None);
    }
}
