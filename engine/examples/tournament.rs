//! A tournament as `tsoro tournament` plays it (the same round robin, so the same games for the
//! same seed), without building the service: for strength-per-CPU-second comparisons.
//! `cargo run --release -p tsoro-engine --example tournament -- RULESET AGENTS PAIRS SEED
//! OPENING_PLIES [THREADS] [NAME=VALUE ...] [--cross]`, e.g.
//! `tsoro-ludii alphabeta:n3000:mixed,alphabeta:8:mobility 100 1 2 1 holes=8 --cross`.
//! `--cross` plays only the pairings between different agents (the self-play pairings are
//! skipped; the others keep their seeds), so the agents' CPU per decision is that of those
//! games. Prints each pairing's score of its first agent by seat with 95% Wilson intervals,
//! and each agent's CPU milliseconds per decision over the games played.

use tsoro_engine::agents::AgentBounds;
use tsoro_engine::catalogue;
use tsoro_engine::tournament::report::{SeatScore, report};
use tsoro_engine::tournament::{TournamentOptions, TournamentSpec, play_range_any};

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let cross = all.iter().any(|a| a == "--cross");
    let params: Vec<&str> = all
        .iter()
        .filter(|a| a.contains('='))
        .map(String::as_str)
        .collect();
    let pos: Vec<&String> = all
        .iter()
        .filter(|a| !a.contains('=') && !a.starts_with("--"))
        .collect();
    let arg = |i: usize, default: &str| pos.get(i).map_or(default.to_string(), |s| s.to_string());
    let id = arg(0, "tsoro-ludii");
    let agents: Vec<_> = arg(1, "alphabeta:n3000:mixed,alphabeta:8:mobility")
        .split(',')
        .map(|t| AgentBounds::ALL.parse(t).expect("an agent"))
        .collect();
    let pairs: u64 = arg(2, "100").parse().expect("pairs");
    let seed: u64 = arg(3, "1").parse().expect("seed");
    let plies: u32 = arg(4, "2").parse().expect("opening plies");
    let threads: usize = arg(5, "1").parse().expect("threads");
    let def = catalogue::get(&id).expect("a ruleset");
    let p = def.parse_params(params).expect("parameters");
    let game = def.build(&p).expect("the ruleset builds");
    let spec = TournamentSpec::round_robin(agents, pairs, seed, plies);
    let opts = TournamentOptions {
        threads,
        ..TournamentOptions::default()
    };
    let mut games = Vec::new();
    let mut time = vec![(0u64, 0f64); spec.agents.len()];
    for (i, &[a, b]) in spec.pairings.iter().enumerate() {
        if cross && a == b {
            continue;
        }
        let per = 2 * spec.pairs;
        let run = play_range_any(&game, &spec, i as u64 * per..(i as u64 + 1) * per, &opts)
            .expect("the tournament runs");
        for (t, r) in time.iter_mut().zip(&run.time) {
            t.0 += r.decisions;
            t.1 += r.seconds;
        }
        games.extend(run.games);
    }
    // The report reads every pairing's pairs; skipped pairings count as no games.
    let played: Vec<usize> = games.iter().map(|g| g.pairing).collect();
    let r = report(&spec, &games, 1);
    let cell = |s: &SeatScore| format!("{:.3} [{:.3}, {:.3}]", s.score, s.ci.low, s.ci.high);
    println!(
        "{:<48} {:>21} {:>21} {:>21} {:>7}",
        "pairing (score of the first named)", "moving first", "moving second", "overall", "turns"
    );
    for p in r.pairings.iter().filter(|p| played.contains(&p.pairing)) {
        println!(
            "{:<48} {:>21} {:>21} {:>21} {:>7.1}",
            format!("{} vs {}", p.agents[0], p.agents[1]),
            cell(&p.first_agent_first),
            cell(&p.first_agent_second),
            cell(&p.first_agent),
            p.turns.mean
        );
    }
    for (a, (n, secs)) in spec.agents.iter().zip(&time) {
        let ms = if *n == 0 {
            0.0
        } else {
            1000.0 * secs / *n as f64
        };
        println!(
            "{:<32} {:>9} decisions {:>9.4} CPU ms/decision",
            a.to_string(),
            n,
            ms
        );
    }
}
