//! Which names a request may address the service by (its `Host` header), against DNS
//! rebinding: a page of another site whose name is made to resolve to 127.0.0.1 is, to the
//! browser, of the same origin as the service, so neither CORS nor the check of cross-site
//! writes ([`super::access::same_origin_writes`]) stops it; only the name it asks for,
//! `Host: evil.example`, gives it away. A service listening on loopback (where anonymous
//! writes are taken) therefore answers only requests for a loopback name (`localhost`,
//! `127.0.0.1`, `[::1]`, with any port) and the names given with `--allowed-host` (a reverse
//! proxy's public name, say); others get 421 problem+json. Beyond loopback the check applies
//! once names are given.
//!
//! Only the `Host` header is read, never `X-Forwarded-Host`: a rebinding page may send any
//! header a browser lets scripts set, but not `Host`.

use crate::http::problem::Problem;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::HOST;
use actix_web::middleware::Next;
use actix_web::{Error, ResponseError, web};
use std::net::IpAddr;

/// The names the service answers to.
#[derive(Clone, Debug)]
pub struct AllowedHosts {
    /// Whether the `Host` header is checked at all.
    check: bool,
    /// Names given with `--allowed-host`, in lower case, without ports.
    names: Vec<String>,
}

impl AllowedHosts {
    /// Checked when the service listens on loopback only, or when `names` are given.
    pub fn new(loopback: bool, names: &[String]) -> AllowedHosts {
        let names: Vec<String> = names
            .iter()
            .map(|n| host_name(n.trim()).to_ascii_lowercase())
            .filter(|n| !n.is_empty())
            .collect();
        AllowedHosts {
            check: loopback || !names.is_empty(),
            names,
        }
    }

    /// Whether a request whose `Host` header is `host` is answered.
    pub fn admits(&self, host: &str) -> bool {
        if !self.check {
            return true;
        }
        let name = host_name(host).to_ascii_lowercase();
        let name = name.strip_suffix('.').unwrap_or(&name);
        is_loopback_name(name) || self.names.iter().any(|n| n == name)
    }
}

/// A `Host` header's name without its port (`[::1]:8080` -> `[::1]`, `localhost:80` ->
/// `localhost`).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// `localhost` (and its subdomains, which browsers resolve to loopback themselves), or a
/// loopback address (`127.0.0.0/8`, `[::1]`).
fn is_loopback_name(name: &str) -> bool {
    if name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    let ip = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    ip.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The middleware: 421 problem+json for a request naming a host the service does not answer
/// to. A request without `Host` (HTTP/1.0, from a program) passes: browsers always send one.
pub async fn allowed_hosts(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let refused = match (
        req.app_data::<web::Data<AllowedHosts>>(),
        req.headers().get(HOST),
    ) {
        (Some(allowed), Some(host)) => match host.to_str() {
            Ok(h) if allowed.admits(h) => None,
            Ok(h) => Some(h.to_string()),
            Err(_) => Some("(not text)".to_string()),
        },
        _ => None,
    };
    if let Some(host) = refused {
        let quoted = serde_json::to_string(&host).unwrap_or_default();
        let p = Problem::of(
            &crate::http::problem::MISDIRECTED,
            format!(
                "this service does not answer to the name {quoted}: address it as localhost, \
                 127.0.0.1 or [::1], or start it with --allowed-host NAME for a name of its own"
            ),
        )
        .with_error("host", "a loopback name or one given with --allowed-host")
        .at(req.path());
        return Ok(req.into_response(p.error_response()));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_and_given_ones_are_answered() {
        let local = AllowedHosts::new(true, &[]);
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost",
            "LocalHost:80",
            "localhost.:8080",
            "app.localhost:3000",
            "[::1]:8080",
            "[::1]",
            "127.1.2.3:9",
        ] {
            assert!(local.admits(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1:8080",
            "[::2]:8080",
            "[::1",
            "",
        ] {
            assert!(!local.admits(bad), "{bad}");
        }
        let named = AllowedHosts::new(true, &["Tsoro.Example.org".into()]);
        assert!(named.admits("tsoro.example.org:443"));
        assert!(named.admits("localhost:8080"));
        assert!(!named.admits("evil.example"));
        // Beyond loopback, only when names are given.
        assert!(AllowedHosts::new(false, &[]).admits("evil.example"));
        let public = AllowedHosts::new(false, &["tsoro.example.org:8080".into()]);
        assert!(public.admits("tsoro.example.org"));
        assert!(!public.admits("evil.example"));
    }
}
