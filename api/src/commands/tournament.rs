//! `tsoro tournament` and `tsoro ladder`: agents rated against each other on one ruleset, and
//! one family of agents at rising strength (its first-player advantage as a curve of
//! strength). Both play on the engine's tournaments ([`tsoro_engine::tournament`]).

use super::run_args::progress_bar;
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tsoro_engine::AnyGame;
use tsoro_engine::agents::{AgentBounds, AgentSpec};
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::tournament::report::{TournamentReport, games_csv, ratings_csv, report};
use tsoro_engine::tournament::{
    TournamentError, TournamentOptions, TournamentRun, TournamentSpec, ladder, play_any,
    ratings::DEFAULT_BOOTSTRAP,
};

/// What both commands share: the ruleset, the pairs, the seed and how to run.
#[derive(Debug, Args, Clone)]
pub struct PlayArgs {
    /// The ruleset id (see `tsoro rulesets`).
    #[arg(long)]
    pub ruleset: String,
    /// A ruleset parameter, `name=value` (repeatable), e.g. `--param holes=8`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Seat-swapped pairs of games per pairing (each pair: one game with each agent first,
    /// from the same opening).
    #[arg(long, default_value_t = 50)]
    pub pairs: u64,
    /// The tournament's seed: pair k of pairing p depends only on (seed, p, k).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Uniformly random plies played before the agents take over (the same for both games
    /// of a pair).
    #[arg(long, default_value_t = 0)]
    pub opening_plies: u32,
    /// Bootstrap replicates behind the ratings' 95% intervals.
    #[arg(long, default_value_t = DEFAULT_BOOTSTRAP)]
    pub bootstrap: u32,
    /// Worker threads (default: one per core). The games and ratings do not depend on it
    /// (the time per decision does: it is measured).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Write `games.csv` and `ratings.csv` (and for a ladder `ladder.csv`) into this directory
    /// (created if need be).
    #[arg(long, value_name = "DIR")]
    pub csv: Option<PathBuf>,
}

/// Arguments of `tsoro tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// The agents, comma-separated (at least one). Every pair of them plays, and each plays
    /// itself.
    #[arg(long, help = agents_help())]
    pub agents: String,
    #[command(flatten)]
    pub play: PlayArgs,
}

/// Arguments of `tsoro ladder`.
#[derive(Debug, Args)]
pub struct LadderArgs {
    /// The family: mcts (iterations doubling from --from to --to) or alphabeta (depth from
    /// --from to --to).
    #[arg(long, default_value = ladder::DEFAULT_FAMILY)]
    pub family: String,
    /// The lowest level (iterations or depth).
    #[arg(long)]
    pub from: u32,
    /// The highest level: for mcts, --from times a power of two.
    #[arg(long)]
    pub to: u32,
    #[command(flatten)]
    pub play: PlayArgs,
}

/// Bad input: a one-line message naming the argument, exit status 2.
fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// The game the arguments name, with its parameters.
fn game(a: &PlayArgs) -> Result<(AnyGame, Params), String> {
    let def = catalogue::get(&a.ruleset).map_err(|e| format!("--ruleset: {e}"))?;
    let params = def
        .parse_params(a.params.iter().map(String::as_str))
        .map_err(|e| format!("--param: {e}"))?;
    let g = def
        .build(&params)
        .map_err(|e| format!("--ruleset {}: {e}", a.ruleset))?;
    Ok((g, params))
}

/// What `--agents` says it takes: what [`parse_agents`] takes.
fn agents_help() -> String {
    format!(
        "The agents, comma-separated (at least one), each of: {}. Every pair of them plays, \
         and each plays itself",
        AgentBounds::ALL.describe()
    )
}

/// The agents of `--agents`.
fn parse_agents(text: &str) -> Result<Vec<AgentSpec>, String> {
    text.split(',')
        .map(|t| {
            AgentBounds::ALL
                .parse(t)
                .map_err(|e| format!("--agents: {e}"))
        })
        .collect()
}

/// A tournament's error as the argument it concerns.
fn named(e: &TournamentError) -> String {
    match e {
        TournamentError::Agents(_) | TournamentError::Unlinked(_) | TournamentError::Pairing(_) => {
            format!("--{e}")
        }
        TournamentError::Pairs(_) => format!("--{e}"),
        TournamentError::OpeningPlies(_) => format!("--opening-plies: {e}"),
        other => other.to_string(),
    }
}

/// Plays `spec`, with a progress bar on a terminal.
fn run_spec(
    g: &AnyGame,
    spec: &TournamentSpec,
    a: &PlayArgs,
) -> Result<(TournamentRun, TournamentReport), ExitCode> {
    super::run_args::check_threads(a.threads).map_err(usage)?;
    if let Err(e) = spec.check() {
        return Err(usage(named(&e)));
    }
    let mut opts = TournamentOptions {
        threads: a.threads.unwrap_or(0),
        ..TournamentOptions::default()
    };
    let pb = progress_bar(spec.games(), &a.ruleset);
    if let Some(pb) = &pb {
        let pb = pb.clone();
        opts.progress = Some(Arc::new(move |done, _| pb.set_position(done)));
    }
    let run = match play_any(g, spec, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}", named(&e));
            return Err(ExitCode::from(1));
        }
    };
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let rep = report(spec, &run.games, a.bootstrap.clamp(1, 100_000));
    Ok((run, rep))
}

/// Writes the CSV files, if asked: the games, the ratings and `extra` (name, text).
fn write_csv(
    dir: Option<&Path>,
    spec: &TournamentSpec,
    run: &TournamentRun,
    r: &TournamentReport,
    extra: &[(&str, String)],
) -> Result<(), String> {
    let Some(dir) = dir else { return Ok(()) };
    std::fs::create_dir_all(dir).map_err(|e| format!("--csv {}: {e}", dir.display()))?;
    let files = [
        ("games.csv", games_csv(spec, &run.games)),
        ("ratings.csv", ratings_csv(r)),
    ];
    for (name, text) in files.iter().chain(extra) {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("--csv {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The ratings and pairings as plain text.
fn tables(r: &TournamentReport, run: &TournamentRun) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<24} {:>7} {:>17} {:>7} {:>6} {:>12}",
        "agent", "Elo", "95% interval", "games", "score", "ms/decision"
    );
    for (a, t) in r.ratings.iter().zip(&run.time) {
        let _ = writeln!(
            out,
            "{:<24} {:>7.0} {:>17} {:>7} {:>6.3} {:>12.3}",
            a.agent,
            nz(a.elo),
            format!("[{:.0}, {:.0}]", nz(a.ci.low), nz(a.ci.high)),
            a.games,
            a.score,
            t.ms_per_decision
        );
    }
    let f = &r.first_move_elo;
    let _ = writeln!(
        out,
        "first move: {:+.0} Elo [{:.0}, {:.0}]\n",
        nz(f.value),
        nz(f.ci.low),
        nz(f.ci.high)
    );
    let _ = writeln!(
        out,
        "{:<36} {:>21} {:>21} {:>21} {:>6} {:>7} {:>13}",
        "pairing (score of the first named)",
        "moving first",
        "moving second",
        "first player",
        "draws",
        "turns",
        "ms/decision"
    );
    let cell = |s: &tsoro_engine::tournament::report::SeatScore| {
        format!("{:.3} [{:.3}, {:.3}]", s.score, s.ci.low, s.ci.high)
    };
    // Each side's CPU per decision in this pairing's games (first named / second named).
    for (p, t) in r.pairings.iter().zip(&run.pairing_time) {
        let _ = writeln!(
            out,
            "{:<36} {:>21} {:>21} {:>21} {:>6.3} {:>7.1} {:>13}",
            format!("{} vs {}", p.agents[0], p.agents[1]),
            cell(&p.first_agent_first),
            cell(&p.first_agent_second),
            cell(&p.first_player),
            p.draws.value,
            p.turns.mean,
            format!("{:.3}/{:.3}", t[0].ms_per_decision, t[1].ms_per_decision)
        );
    }
    out
}

/// Runs `tsoro tournament`.
pub fn run_tournament(args: &TournamentArgs) -> ExitCode {
    let a = &args.play;
    let (g, params) = match game(a) {
        Ok(x) => x,
        Err(e) => return usage(e),
    };
    let agents = match parse_agents(&args.agents) {
        Ok(x) => x,
        Err(e) => return usage(e),
    };
    let spec = TournamentSpec::round_robin(agents, a.pairs, a.seed, a.opening_plies);
    let (run, r) = match run_spec(&g, &spec, a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if let Err(e) = write_csv(a.csv.as_deref(), &spec, &run, &r, &[]) {
        return usage(e);
    }
    if a.json {
        let doc = serde_json::json!({
            "ruleset": a.ruleset, "params": params, "agents": args.agents,
            "pairs": a.pairs, "seed": a.seed.to_string(), "opening_plies": a.opening_plies,
            "games": run.games.len(),
            "report": r, "time": run.time, "pairing_time": run.pairing_time,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        print!("{}", tables(&r, &run));
    }
    ExitCode::SUCCESS
}

/// Runs `tsoro ladder`.
pub fn run_ladder(args: &LadderArgs) -> ExitCode {
    let a = &args.play;
    let (g, params) = match game(a) {
        Ok(x) => x,
        Err(e) => return usage(e),
    };
    let levels = match ladder::levels(&args.family, args.from, args.to) {
        Ok(x) => x,
        Err(e) => return usage(format!("--{e}")),
    };
    let spec = ladder::spec(levels, a.pairs, a.seed, a.opening_plies);
    let (run, r) = match run_spec(&g, &spec, a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let l = ladder::report(&spec, &r);
    let extra = [("ladder.csv", ladder::ladder_csv(&l))];
    if let Err(e) = write_csv(a.csv.as_deref(), &spec, &run, &r, &extra) {
        return usage(e);
    }
    if a.json {
        let doc = serde_json::json!({
            "ruleset": a.ruleset, "params": params, "family": args.family,
            "from": args.from, "to": args.to,
            "pairs": a.pairs, "seed": a.seed.to_string(), "opening_plies": a.opening_plies,
            "ladder": l, "report": r, "time": run.time,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<14} {:>21} {:>21} {:>21} {:>19} {:>21} {:>7}",
        "level", "first player", "draws", "decisive", "turns", "vs level below", "Elo"
    );
    let iv = |x: f64, lo: f64, hi: f64| format!("{x:.3} [{lo:.3}, {hi:.3}]");
    for rung in &l.rungs {
        let _ = writeln!(
            out,
            "{:<14} {:>21} {:>21} {:>21} {:>19} {:>21} {:>7.0}",
            rung.agent,
            iv(
                rung.first_player.score,
                rung.first_player.ci.low,
                rung.first_player.ci.high
            ),
            iv(rung.draws, rung.draws_ci.low, rung.draws_ci.high),
            iv(rung.decisive, rung.decisive_ci.low, rung.decisive_ci.high),
            format!(
                "{:.1} [{:.1}, {:.1}]",
                rung.turns.mean, rung.turns.ci.low, rung.turns.ci.high
            ),
            rung.skill
                .as_ref()
                .map_or("-".to_string(), |s| iv(s.score, s.ci.low, s.ci.high)),
            nz(rung.elo)
        );
    }
    let f = &l.first_move_elo;
    let _ = writeln!(
        out,
        "first move over the ladder: {:+.0} Elo [{:.0}, {:.0}]",
        nz(f.value),
        nz(f.ci.low),
        nz(f.ci.high)
    );
    let _ = writeln!(out, "{}", l.verdict);
    print!("{out}");
    ExitCode::SUCCESS
}

/// An Elo figure printed with no decimals, never as `-0`.
fn nz(x: f64) -> f64 {
    tsoro_engine::stats::number::no_minus_zero(x, 0)
}
