//! `tsoro search`: what an agent chooses in a position, and why.

use clap::Args;
use std::process::ExitCode;
use std::time::Instant;
use tsoro_engine::agents::search::analyse_after;
use tsoro_engine::agents::{AgentBounds, AgentSpec};
use tsoro_engine::catalogue;

/// Arguments of `tsoro search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The ruleset id (see `tsoro rulesets`).
    #[arg(long)]
    pub ruleset: String,
    /// A ruleset parameter, `name=value` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// The actions that reach the position, as a JSON list (default: the start), e.g.
    /// `'[{"sow":"i,6"}]'`.
    #[arg(long, default_value = "[]")]
    pub actions: String,
    /// The agent.
    #[arg(long, help = format!("The agent, one of: {}", AgentBounds::ALL.describe()))]
    pub agent: String,
    /// Seed of the agent's random choices (ties, rollouts): after N actions the agent draws
    /// from game N's generator of a run with this seed, as `agent-move` does for the same seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core): alpha-beta shares its root actions among them;
    /// MCTS searches on one (its rollouts stream through the kernel's lanes). The choice and
    /// the statistics do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tsoro search`: exit 2 with one line for bad input.
pub fn run(args: &SearchArgs) -> ExitCode {
    let usage = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    let def = match catalogue::get(&args.ruleset) {
        Ok(d) => d,
        Err(e) => return usage(e.to_string()),
    };
    let params = match def.parse_params(args.params.iter().map(String::as_str)) {
        Ok(p) => p,
        Err(e) => return usage(e.to_string()),
    };
    let actions: Vec<serde_json::Value> = match serde_json::from_str(&args.actions) {
        Ok(a) => a,
        Err(e) => return usage(format!("--actions: not a JSON list of actions: {e}")),
    };
    let agent: AgentSpec = match AgentBounds::ALL.parse(&args.agent) {
        Ok(a) => a,
        Err(e) => return usage(format!("--agent: {e}")),
    };
    if let Err(e) = super::run_args::check_threads(args.threads) {
        return usage(e.into());
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return usage(format!("--threads: {e}")),
    };
    let game = match def.build(&params) {
        Ok(g) => g,
        Err(e) => return usage(e.to_string()),
    };
    let t = Instant::now();
    let cpu = tsoro_engine::clock::process_cpu();
    let found = pool.install(|| analyse_after(&game, &actions, agent, args.seed));
    let wall_seconds = t.elapsed().as_secs_f64();
    let cpu_seconds = (tsoro_engine::clock::process_cpu() - cpu).as_secs_f64();
    let mut v = match found {
        Ok(found) => serde_json::to_value(&found).unwrap_or_default(),
        Err(e) => return usage(e.to_string()),
    };
    let iterations = v["iterations"].as_u64().unwrap_or(0);
    v["agent"] = agent.to_string().into();
    v["threads"] = pool.current_num_threads().into();
    // CPU time is what the search cost (every thread's, whatever else the machine ran); wall
    // time is named as such.
    v["cpu_seconds"] = cpu_seconds.into();
    v["wall_seconds"] = wall_seconds.into();
    v["iterations_per_cpu_second"] =
        ((iterations as f64 / cpu_seconds.max(1e-9)).round() as u64).into();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    print!("{}", table(&v));
    ExitCode::SUCCESS
}

/// The analysis as plain text: the choice, then one line per candidate.
fn table(v: &serde_json::Value) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} to move; {} plays {}",
        v["to_move"].as_str().unwrap_or("?"),
        v["agent"].as_str().unwrap_or("?"),
        v["action"]
    );
    let _ = writeln!(
        out,
        "{} iterations in {:.3} CPU-seconds ({} per CPU-second; {:.3} s wall time, {} threads)",
        v["iterations"],
        v["cpu_seconds"].as_f64().unwrap_or(0.0),
        v["iterations_per_cpu_second"],
        v["wall_seconds"].as_f64().unwrap_or(0.0),
        v["threads"]
    );
    let empty = vec![];
    let candidates = v["candidates"].as_array().unwrap_or(&empty);
    if candidates.is_empty() {
        let _ = writeln!(out, "(the only legal action: no search)");
    }
    for c in candidates {
        let mut line = format!("  {:<24}", c["action"].to_string());
        if let Some(n) = c.get("visits") {
            let _ = write!(line, " visits {n:>9}");
        }
        if let Some(x) = c.get("value").and_then(|x| x.as_f64()) {
            let _ = write!(line, "  value {x:.3}");
        }
        if let Some(x) = c.get("score") {
            let _ = write!(line, "  score {x}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
