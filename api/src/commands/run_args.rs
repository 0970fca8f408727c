//! The options of `tsoro simulate` and `tsoro compare`, and their progress bar (shared by the
//! four-row games and nhodo).

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Checks a `--threads` value (one per core when absent): the error every command prints.
pub fn check_threads(threads: Option<usize>) -> Result<(), &'static str> {
    match threads {
        Some(0) => Err("--threads: allowed 1 to 1024"),
        Some(t) if t > 1024 => Err("--threads: allowed 1 to 1024"),
        _ => Ok(()),
    }
}

/// Options shared by `simulate` and `compare`.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// A ruleset parameter, `name=value` (repeatable), e.g. `--param holes=12`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// The two agents, comma-separated.
    #[arg(long, default_value = "random,random", help = format!(
        "The two agents, comma-separated (one: both seats), each of: {}",
        tsoro_engine::agents::AgentBounds::REPRODUCIBLE.describe()
    ))]
    pub agents: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The run's seed: game k depends only on (seed, k).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core). The numbers do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Turns after which a game is a draw (overrides the ruleset's).
    #[arg(long)]
    pub turn_limit: Option<u32>,
    /// Keep each agent in its seat instead of swapping every other game.
    #[arg(long)]
    pub fixed_seats: bool,
    /// Uniformly random plies played before the agents take over (a forced move does not
    /// count), from a stream of their own: the two games of a seat-swapped pair share theirs,
    /// and game k of every run of a comparison starts from the same random numbers.
    #[arg(long, default_value_t = 0)]
    pub opening_plies: u32,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Play every game action by action through the reference rules instead of the fast
    /// kernel (random agents play on the kernel where it models the rules): the records are
    /// the same, byte for byte; this checks it.
    #[arg(long)]
    pub reference: bool,
}

/// Arguments of `tsoro simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The ruleset id (see `tsoro rulesets`).
    #[arg(long)]
    pub ruleset: String,
    #[command(flatten)]
    pub run: RunArgs,
    /// Write every game's record here as CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the summary statistics here as CSV (one metric per row).
    #[arg(long)]
    pub summary: Option<PathBuf>,
}

/// Arguments of `tsoro compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Rulesets to compare on the same seeds, comma-separated.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub rulesets: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Write the comparison table here as CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

/// A progress bar on standard error when it is a terminal.
pub fn progress_bar(total: u64, label: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(total);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message(label.to_string());
    Some(pb)
}
