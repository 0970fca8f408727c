//! The tokens' table (`api_tokens`): adding one (its hash only), listing, revoking, and the
//! active ones a request is checked against.

use super::{ActiveToken, Identity, Role};
use chrono::{DateTime, Utc};
use sqlx::{PgPool, Row};
use thiserror::Error;

/// Why a token could not be added or revoked.
#[derive(Debug, Error)]
pub enum TokenError {
    /// A name the store does not take.
    #[error(
        "the name {0:?} is not one a token may have: 1 to 64 letters, digits, '.', '_' or '-', \
         beginning with a letter or digit"
    )]
    BadName(String),
    /// The name is taken (revoked tokens keep theirs, so a job's owner names one holder).
    #[error("a token named {0:?} exists already (revoked tokens keep their names): choose another")]
    Taken(String),
    /// No token of that name.
    #[error("no token named {0:?}")]
    Unknown(String),
    /// The database failed.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A token as listed (never its secret, which is not stored).
#[derive(Clone, Debug)]
pub struct TokenInfo {
    /// Its name.
    pub name: String,
    /// Its role.
    pub role: Role,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
}

/// Stores a new token of this name and role; returns its secret, which is not kept.
pub async fn add(pool: &PgPool, name: &str, role: Role) -> Result<String, TokenError> {
    if !super::valid_name(name) {
        return Err(TokenError::BadName(name.to_string()));
    }
    let secret = super::new_secret();
    let inserted = sqlx::query(
        "INSERT INTO api_tokens (name, role, hash) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(role.as_str())
    .bind(super::hash(&secret).as_slice())
    .execute(pool)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(TokenError::Taken(name.to_string()));
    }
    Ok(secret)
}

/// Every token, revoked ones too, by name.
pub async fn list(pool: &PgPool) -> Result<Vec<TokenInfo>, TokenError> {
    let rows =
        sqlx::query("SELECT name, role, created_at, revoked_at FROM api_tokens ORDER BY name")
            .fetch_all(pool)
            .await?;
    rows.iter()
        .map(|r| {
            let role: String = r.try_get("role")?;
            Ok(TokenInfo {
                name: r.try_get("name")?,
                role: role.parse().map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                created_at: r.try_get("created_at")?,
                revoked_at: r.try_get("revoked_at")?,
            })
        })
        .collect()
}

/// Revokes a token: requests bearing it are refused from now on. Revoking a revoked token
/// changes nothing.
pub async fn revoke(pool: &PgPool, name: &str) -> Result<(), TokenError> {
    let found = sqlx::query(
        "UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE name = $1",
    )
    .bind(name)
    .execute(pool)
    .await?;
    if found.rows_affected() == 0 {
        return Err(TokenError::Unknown(name.to_string()));
    }
    Ok(())
}

/// The tokens not revoked (a handful: each request that needs one compares with them all).
pub async fn active(pool: &PgPool) -> Result<Vec<ActiveToken>, sqlx::Error> {
    let rows = sqlx::query("SELECT name, role, hash FROM api_tokens WHERE revoked_at IS NULL")
        .fetch_all(pool)
        .await?;
    rows.iter()
        .map(|r| {
            let role: String = r.try_get("role")?;
            let hash: Vec<u8> = r.try_get("hash")?;
            Ok(ActiveToken {
                identity: Identity {
                    name: r.try_get("name")?,
                    role: role.parse().map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                },
                hash: hash
                    .try_into()
                    .map_err(|_| sqlx::Error::Decode("a token hash of 32 bytes".into()))?,
            })
        })
        .collect()
}

/// Whether any token is active (then writes need one).
pub async fn any_active(pool: &PgPool) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM api_tokens WHERE revoked_at IS NULL)")
        .fetch_one(pool)
        .await
}
