//! Who may do what.
//!
//! Clients identify themselves with API tokens (`Authorization: Bearer`), made by `tsoro token
//! add NAME --role ROLE` and kept in the service's database as SHA-256 hashes only ([`store`]).
//! Roles are ordered: a `reader` only identifies itself (it may read what anyone may), a
//! `runner` may also start jobs and stop or delete its own, an `admin` may list, stop and
//! delete anyone's.
//!
//! Without any token the service is in *anonymous* mode: anyone may do anything, which the
//! service allows only where it is safe ([`Policy::anonymous_writes`]: bound on a loopback
//! address, or asked to with `--allow-anonymous-writes`). Once a token exists, writes need
//! one. Reading the archive, and a job by its (unguessable) id, never needs a token, so
//! results can be shared by link.
//!
//! This module decides; the HTTP layer ([`crate::http::access`]) reads the request and answers.

pub mod store;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use thiserror::Error;

/// What a token's holder may do; each role may do what the roles below it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Identifies its holder; reads what anyone may.
    Reader,
    /// Starts jobs, and stops or deletes its own.
    Runner,
    /// Lists, stops and deletes anyone's jobs.
    Admin,
}

impl Role {
    /// Every role, lowest first.
    pub const ALL: [Role; 3] = [Role::Reader, Role::Runner, Role::Admin];

    /// Its name, as stored and as `--role` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Reader => "reader",
            Role::Runner => "runner",
            Role::Admin => "admin",
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A role name that is not one.
#[derive(Debug, Error)]
#[error("no role {0:?}: reader, runner or admin")]
pub struct UnknownRole(pub String);

impl std::str::FromStr for Role {
    type Err = UnknownRole;
    fn from_str(s: &str) -> Result<Role, UnknownRole> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownRole(s.to_string()))
    }
}

/// What every token begins with (so that a leaked one is recognisable by secret scanners).
pub const TOKEN_PREFIX: &str = "tsoro_";

/// A new token's secret: [`TOKEN_PREFIX`] and 244 random bits from the operating system's
/// generator (the random parts of two v4 UUIDs), as hex.
pub fn new_secret() -> String {
    format!(
        "{TOKEN_PREFIX}{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// What is stored of a token: the SHA-256 of its secret.
pub fn hash(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// Whether a token's name is one the store takes: 1 to 64 letters, digits, `.`, `_` and `-`,
/// beginning with a letter or digit (it is shown in lists and logs, so nothing else).
pub fn valid_name(name: &str) -> bool {
    let b = name.as_bytes();
    (1..=64).contains(&b.len())
        && b[0].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
}

/// The holder of a valid token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The token's name (a job's owner).
    pub name: String,
    /// Its role.
    pub role: Role,
}

/// A token the store holds and has not revoked.
#[derive(Clone)]
pub struct ActiveToken {
    /// Its holder.
    pub identity: Identity,
    /// The SHA-256 of its secret.
    pub hash: [u8; 32],
}

/// The holder of `secret` among the active tokens, if any. Every hash is compared, each in
/// constant time, so the answer's timing says nothing about how near a guess came.
pub fn identify(secret: &str, tokens: &[ActiveToken]) -> Option<Identity> {
    let h = hash(secret);
    let mut found = None;
    for t in tokens {
        if bool::from(t.hash.ct_eq(&h)) {
            found = Some(t.identity.clone());
        }
    }
    found
}

/// Who is asking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// No token. `tokens_on`: whether the service has any active token (then writes need
    /// one).
    Anonymous {
        /// Whether any token is active.
        tokens_on: bool,
    },
    /// The holder of a valid token.
    Known(Identity),
}

/// How the service was started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Whether anonymous clients may write while no token is active: true when the service
    /// listens on a loopback address only, or was started with `--allow-anonymous-writes`.
    pub anonymous_writes: bool,
}

/// Why a request is refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Denied {
    /// No (valid) token, where one is needed: 401.
    #[error("{0}")]
    Unauthenticated(String),
    /// A token whose role or ownership does not allow it: 403.
    #[error("{0}")]
    Forbidden(String),
}

/// Which jobs a caller's list shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Everyone's.
    All,
    /// Those this token's holder created.
    Owner(String),
}

impl Scope {
    /// The owner to filter by (None: everyone's).
    pub fn owner(&self) -> Option<&str> {
        match self {
            Scope::All => None,
            Scope::Owner(o) => Some(o),
        }
    }
}

const NEED_TOKEN: &str = "this service has API tokens: send one as `Authorization: Bearer TOKEN` \
                          (an operator makes one with `tsoro token add NAME --role runner`)";
const CLOSED: &str = "this service takes no anonymous writes (it listens beyond this machine and \
                      has no API token): an operator makes one with `tsoro token add NAME --role \
                      runner`, or restarts it with --allow-anonymous-writes";

impl Policy {
    /// Whether an anonymous caller may write now.
    fn open(&self, tokens_on: bool) -> bool {
        !tokens_on && self.anonymous_writes
    }

    fn anonymous_refusal(tokens_on: bool) -> Denied {
        Denied::Unauthenticated(if tokens_on { NEED_TOKEN } else { CLOSED }.to_string())
    }

    /// May the caller start a job? Yes: the job's owner (None for an anonymous one).
    pub fn may_create(&self, caller: &Caller) -> Result<Option<String>, Denied> {
        match caller {
            Caller::Anonymous { tokens_on } if self.open(*tokens_on) => Ok(None),
            Caller::Anonymous { tokens_on } => Err(Self::anonymous_refusal(*tokens_on)),
            Caller::Known(id) if id.role >= Role::Runner => Ok(Some(id.name.clone())),
            Caller::Known(id) => Err(Denied::Forbidden(format!(
                "the token {:?} is a {}: starting jobs needs a runner or admin token",
                id.name, id.role
            ))),
        }
    }

    /// May the caller stop or delete a job of `owner` (None: created anonymously)?
    pub fn may_manage(&self, caller: &Caller, owner: Option<&str>) -> Result<(), Denied> {
        match caller {
            Caller::Anonymous { tokens_on } if self.open(*tokens_on) => Ok(()),
            Caller::Anonymous { tokens_on } => Err(Self::anonymous_refusal(*tokens_on)),
            Caller::Known(id) if id.role == Role::Admin => Ok(()),
            Caller::Known(id) if id.role >= Role::Runner && owner == Some(id.name.as_str()) => {
                Ok(())
            }
            Caller::Known(id) => Err(Denied::Forbidden(format!(
                "the job is not the token {:?}'s: stopping or deleting another's job needs an \
                 admin token",
                id.name
            ))),
        }
    }

    /// Which jobs the caller's list shows: everyone's for an admin (and for anyone in
    /// anonymous mode), a token holder's own otherwise.
    pub fn list_scope(&self, caller: &Caller) -> Result<Scope, Denied> {
        match caller {
            Caller::Anonymous { tokens_on } if self.open(*tokens_on) => Ok(Scope::All),
            Caller::Anonymous { tokens_on } => Err(Self::anonymous_refusal(*tokens_on)),
            Caller::Known(id) if id.role == Role::Admin => Ok(Scope::All),
            Caller::Known(id) => Ok(Scope::Owner(id.name.clone())),
        }
    }
}

/// Whether an address is one only this machine can reach: a loopback address (127.0.0.0/8,
/// ::1, or an IPv4-mapped loopback).
pub fn is_loopback(addr: std::net::IpAddr) -> bool {
    match addr {
        std::net::IpAddr::V4(a) => a.is_loopback(),
        std::net::IpAddr::V6(a) => {
            a.is_loopback() || a.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(name: &str, role: Role) -> Caller {
        Caller::Known(Identity {
            name: name.into(),
            role,
        })
    }

    const LOOPBACK: Policy = Policy {
        anonymous_writes: true,
    };
    const EXPOSED: Policy = Policy {
        anonymous_writes: false,
    };

    #[test]
    fn anonymous_writes_only_without_tokens_and_where_allowed() {
        let anon = |tokens_on| Caller::Anonymous { tokens_on };
        assert_eq!(LOOPBACK.may_create(&anon(false)), Ok(None));
        assert!(matches!(
            LOOPBACK.may_create(&anon(true)),
            Err(Denied::Unauthenticated(_))
        ));
        assert!(matches!(
            EXPOSED.may_create(&anon(false)),
            Err(Denied::Unauthenticated(_))
        ));
        assert_eq!(LOOPBACK.may_manage(&anon(false), Some("ann")), Ok(()));
        assert!(LOOPBACK.may_manage(&anon(true), None).is_err());
        assert_eq!(LOOPBACK.list_scope(&anon(false)), Ok(Scope::All));
        assert!(LOOPBACK.list_scope(&anon(true)).is_err());
        assert!(EXPOSED.list_scope(&anon(false)).is_err());
    }

    #[test]
    fn roles_and_owners() {
        for p in [LOOPBACK, EXPOSED] {
            assert!(matches!(
                p.may_create(&known("r", Role::Reader)),
                Err(Denied::Forbidden(_))
            ));
            assert_eq!(
                p.may_create(&known("ann", Role::Runner)),
                Ok(Some("ann".into()))
            );
            assert_eq!(
                p.may_manage(&known("ann", Role::Runner), Some("ann")),
                Ok(())
            );
            assert!(matches!(
                p.may_manage(&known("ann", Role::Runner), Some("bob")),
                Err(Denied::Forbidden(_))
            ));
            assert!(p.may_manage(&known("ann", Role::Runner), None).is_err());
            assert!(
                p.may_manage(&known("ann", Role::Reader), Some("ann"))
                    .is_err()
            );
            assert_eq!(
                p.may_manage(&known("root", Role::Admin), Some("bob")),
                Ok(())
            );
            assert_eq!(p.may_manage(&known("root", Role::Admin), None), Ok(()));
            assert_eq!(
                p.list_scope(&known("ann", Role::Runner)),
                Ok(Scope::Owner("ann".into()))
            );
            assert_eq!(p.list_scope(&known("root", Role::Admin)), Ok(Scope::All));
        }
    }

    #[test]
    fn a_token_is_known_by_its_hash_only() {
        let secret = new_secret();
        assert!(secret.starts_with(TOKEN_PREFIX));
        assert_eq!(secret.len(), TOKEN_PREFIX.len() + 64);
        assert_ne!(secret, new_secret());
        let tokens = vec![ActiveToken {
            identity: Identity {
                name: "ann".into(),
                role: Role::Runner,
            },
            hash: hash(&secret),
        }];
        assert_eq!(identify(&secret, &tokens).unwrap().name, "ann");
        assert_eq!(identify(&new_secret(), &tokens), None);
        assert_eq!(identify("", &tokens), None);
    }

    #[test]
    fn names_and_roles_read_back() {
        assert!(valid_name("ann") && valid_name("lab-2.ci_bot"));
        assert!(!valid_name("") && !valid_name("-x") && !valid_name("a b"));
        assert!(!valid_name(&"a".repeat(65)));
        for r in Role::ALL {
            assert_eq!(r.as_str().parse::<Role>().unwrap(), r);
        }
        assert!("root".parse::<Role>().is_err());
        assert!(is_loopback("127.0.0.1".parse().unwrap()));
        assert!(is_loopback("::1".parse().unwrap()));
        assert!(is_loopback("::ffff:127.0.0.1".parse().unwrap()));
        assert!(!is_loopback("0.0.0.0".parse().unwrap()));
        assert!(!is_loopback("::".parse().unwrap()));
        assert!(!is_loopback("192.168.1.2".parse().unwrap()));
    }
}
