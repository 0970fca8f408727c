//! Who a request comes from, for the shares each client gets (the quotas of anonymous jobs,
//! the export slots): the peer's address, or, when the peer is a proxy the operator trusts
//! (`--trusted-proxy`), the client its `X-Forwarded-For` names.
//!
//! `X-Forwarded-For` is anyone's to write, so it is read only from a trusted proxy, and then
//! as nginx's `real_ip_recursive` reads it: from the right (the hop nearest the service),
//! skipping the trusted proxies; the first address that is not one is the client. An IPv6
//! client is its /64 network (one host is given a whole /64, so each of its addresses would
//! otherwise be a client of its own).

// Refusals are `Problem`s by value, as every handler's errors are.
#![allow(clippy::result_large_err)]

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use std::future::{Ready, ready};
use std::net::{IpAddr, Ipv6Addr};
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};

/// The proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`).
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(pub Vec<IpAddr>);

/// A request's client, as its shares are counted: an IPv4 address, an IPv6 /64 network
/// (`2001:db8:0:1::/64`), or `unknown` (a request with no peer address).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client(pub String);

/// The client of a request from `peer` whose `X-Forwarded-For` headers (in order) are
/// `forwarded`, believing only the `trusted` proxies.
pub fn client_ip<'a>(
    peer: IpAddr,
    forwarded: impl IntoIterator<Item = &'a str>,
    trusted: &[IpAddr],
) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|t| canonical(*t) == canonical(*ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let hops: Vec<&str> = forwarded
        .into_iter()
        .flat_map(|h| h.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        if !is_trusted(&client) {
            break;
        }
        // A hop that is not an address ends the chain: the last proxy's word is all we have.
        match hop.parse::<IpAddr>() {
            Ok(ip) => client = ip,
            Err(_) => break,
        }
    }
    client
}

/// An IPv4 address mapped into IPv6 as the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    ip.to_canonical()
}

/// How a client's address is counted: IPv4 whole, IPv6 by its /64 network (loopback whole).
pub fn client_key(ip: IpAddr) -> String {
    match canonical(ip) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) if v6.is_loopback() => v6.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            let net = Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0);
            format!("{net}/64")
        }
    }
}

impl Client {
    /// The client of a request.
    pub fn of(req: &HttpRequest) -> Client {
        let Some(peer) = req.peer_addr().map(|a| a.ip()) else {
            return Client("unknown".into());
        };
        let trusted = req
            .app_data::<web::Data<TrustedProxies>>()
            .map(|t| t.0.as_slice())
            .unwrap_or(&[]);
        let forwarded = req
            .headers()
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok());
        Client(client_key(client_ip(peer, forwarded, trusted)))
    }
}

/// The middleware naming each request's client to the CPU slots ([`crate::compute::as_client`]),
/// for their share per client.
pub async fn cpu_client(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let client = Client::of(req.request()).0;
    let res = crate::compute::as_client(client, next.call(req)).await?;
    Ok(res.map_into_boxed_body())
}

/// The socket of a connection (its descriptor's number), kept by [`remember_socket`] so that
/// an export whose client stalls can close its connection ([`crate::jobs::export`]).
#[derive(Clone, Copy, Debug)]
pub struct ConnSocket(pub RawFd);

/// The server's `on_connect`: keeps each TCP connection's socket in its data.
pub fn remember_socket(conn: &dyn std::any::Any, data: &mut actix_web::dev::Extensions) {
    if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
        data.insert(ConnSocket(tcp.as_raw_fd()));
    }
}

/// A handle of its own on the socket of the connection serving `req` (a duplicate of its
/// descriptor), to close that connection later whatever the server does meanwhile.
pub fn socket_of(req: &HttpRequest) -> Option<std::net::TcpStream> {
    let fd = req.conn_data::<ConnSocket>()?.0;
    // SAFETY: the descriptor is the socket of the connection serving this request, which
    // the server keeps open while the request is handled, as it is now; it is only
    // duplicated here, and the duplicate is ours.
    let fd = unsafe { BorrowedFd::borrow_raw(fd) };
    fd.try_clone_to_owned().ok().map(std::net::TcpStream::from)
}

impl FromRequest for Client {
    type Error = actix_web::Error;
    type Future = Ready<Result<Client, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(Client::of(req)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let proxy = [ip("10.0.0.1")];
        // Not from a proxy: the header is the client's own word, ignored.
        assert_eq!(
            client_ip(ip("198.51.100.9"), ["203.0.113.7"], &proxy),
            ip("198.51.100.9")
        );
        assert_eq!(
            client_ip(ip("10.0.0.1"), ["203.0.113.7"], &[]),
            ip("10.0.0.1")
        );
        // From the proxy: the rightmost hop it did not add itself.
        assert_eq!(
            client_ip(ip("10.0.0.1"), ["1.2.3.4, 203.0.113.7"], &proxy),
            ip("203.0.113.7")
        );
        // A chain of trusted proxies is walked back; what a client wrote before is not.
        let two = [ip("10.0.0.1"), ip("10.0.0.2")];
        assert_eq!(
            client_ip(ip("10.0.0.1"), ["6.6.6.6", "203.0.113.7, 10.0.0.2"], &two),
            ip("203.0.113.7")
        );
        // Garbage ends the walk at the last hop believed.
        assert_eq!(
            client_ip(ip("10.0.0.1"), ["203.0.113.7, nonsense"], &proxy),
            ip("10.0.0.1")
        );
        assert_eq!(client_ip(ip("10.0.0.1"), [], &proxy), ip("10.0.0.1"));
        // An IPv4 proxy seen as IPv6-mapped is the same proxy.
        assert_eq!(
            client_ip(ip("::ffff:10.0.0.1"), ["203.0.113.7"], &proxy),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_network() {
        assert_eq!(client_key(ip("203.0.113.7")), "203.0.113.7");
        assert_eq!(client_key(ip("::ffff:203.0.113.7")), "203.0.113.7");
        assert_eq!(client_key(ip("2001:db8:1:2:3:4:5:6")), "2001:db8:1:2::/64");
        assert_eq!(
            client_key(ip("2001:db8:1:2:ffff::1")),
            client_key(ip("2001:db8:1:2::9"))
        );
        assert_eq!(client_key(ip("::1")), "::1");
    }
}
