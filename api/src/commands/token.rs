//! `tsoro token add|list|revoke`: the API tokens of a service, in its database (the embedded
//! server of its data directory, joined while the service runs, or `DATABASE_URL`).

use crate::access::store::{self, TokenInfo};
use crate::cli::{TokenAction, TokenArgs};
use crate::startup::Database;

/// Runs `tsoro token`. What it prints is printed once the database is closed, so that a
/// reader going away (`tsoro token list | head`, which ends the process by SIGPIPE) never
/// leaves an embedded server running.
pub async fn run(args: TokenArgs) -> anyhow::Result<()> {
    let db = Database::open_or_join(&args.db, "tsoro token").await?;
    let result = async {
        let pool = crate::startup::open_pool(&db.url).await?;
        let done = act(&pool, args.action).await;
        pool.close().await;
        done
    }
    .await;
    db.close().await;
    print!("{}", result?);
    Ok(())
}

/// Does what was asked; gives what to print on standard output.
async fn act(pool: &sqlx::PgPool, action: TokenAction) -> anyhow::Result<String> {
    use std::fmt::Write as _;
    let mut out = String::new();
    match action {
        TokenAction::Add { name, role } => {
            let secret = store::add(pool, &name, role).await?;
            // The only time the token is shown: standard output alone, for a pipe or a file.
            writeln!(out, "{secret}")?;
            eprintln!(
                "token {name:?} ({role}) added; it is shown this once: keep it (send it as \
                 `Authorization: Bearer TOKEN`)"
            );
        }
        TokenAction::List { json } => {
            let tokens = store::list(pool).await?;
            if json {
                let rows: Vec<_> = tokens.iter().map(as_json).collect();
                writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            } else {
                writeln!(
                    out,
                    "{:<24} {:<7} {:<25} revoked",
                    "name", "role", "created"
                )?;
                for t in &tokens {
                    writeln!(
                        out,
                        "{:<24} {:<7} {:<25} {}",
                        t.name,
                        t.role,
                        t.created_at.format("%Y-%m-%d %H:%M:%S UTC"),
                        t.revoked_at
                            .map(|r| r.format("%Y-%m-%d %H:%M:%S UTC").to_string())
                            .unwrap_or_else(|| "-".into())
                    )?;
                }
            }
        }
        TokenAction::Revoke { name } => {
            store::revoke(pool, &name).await?;
            eprintln!("token {name:?} revoked");
        }
    }
    Ok(out)
}

fn as_json(t: &TokenInfo) -> serde_json::Value {
    serde_json::json!({
        "name": t.name,
        "role": t.role.as_str(),
        "created_at": t.created_at,
        "revoked_at": t.revoked_at,
    })
}
