//! The `tsoro` command line.

use crate::commands::{
    replay::ReplayArgs,
    simulate::{CompareArgs, SimulateArgs},
};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// tsoro: an archive and simulator of the stone games of Zimbabwe and Malawi.
#[derive(Debug, Parser)]
#[command(name = "tsoro", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (with an embedded PostgreSQL unless DATABASE_URL is set).
    Serve(ServeArgs),
    /// Apply the database migrations and exit.
    Migrate(DbArgs),
    /// Replay a recorded game (JSON on stdin or --file): every state and the result.
    Replay(ReplayArgs),
    /// Simulate games of a ruleset between two agents and print statistics.
    Simulate(SimulateArgs),
    /// Simulate several rulesets on the same seeds and print them side by side.
    Compare(CompareArgs),
    /// List the compiled-in rulesets and their parameters.
    Rulesets {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Where the database is.
#[derive(Debug, Args, Clone)]
pub struct DbArgs {
    /// PostgreSQL URL of an existing server; without it an embedded server is started from
    /// the system's PostgreSQL binaries, with its data under the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Directory of the embedded server's data (kept between runs).
    #[arg(long, env = "TSORO_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
}

/// Arguments of `tsoro serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "TSORO_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Largest request body, in bytes.
    #[arg(long, env = "TSORO_BODY_LIMIT", default_value_t = crate::app::DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
    #[command(flatten)]
    pub db: DbArgs,
}
