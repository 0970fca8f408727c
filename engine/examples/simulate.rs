//! A simulation of random agents as `tsoro simulate --agents random,random` runs it (seed 0,
//! seats swapped, a sink that drops the records unless a CSV is asked for), for profilers and
//! before/after comparisons without building the service:
//! `cargo run --release -p tsoro-engine --example simulate -- RULESET GAMES [THREADS] [CSV]`.
//! Prints the run's statistics as JSON (the `stats` of `tsoro simulate --json`).

use std::io::Write;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
use tsoro_engine::stats::csv_line;

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "tsoro-yemutatu-ludii".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(100_000);
    let threads: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
    let csv = args.next();
    let game = match catalogue::get(&id).and_then(|e| e.build(&Params::new())) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{id}: {e}");
            std::process::exit(2);
        }
    };
    let spec = SimSpec {
        agents: [AgentSpec::Random; 2],
        games: 0..games,
        seed: 0,
        swap_seats: true,
        opening_plies: 0,
    };
    let opts = SimOptions {
        threads,
        summary_only: csv.is_none(),
        ..SimOptions::default()
    };
    let mut out = csv.map(|path| {
        std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path).expect("CSV"))
    });
    let mut line = Vec::with_capacity(256);
    let summary = simulate_any(&game, &spec, &opts, &mut |r| {
        if let Some(w) = out.as_mut() {
            line.clear();
            csv_line::write_line(r, &mut line);
            w.write_all(&line).expect("CSV");
        }
    })
    .expect("simulation");
    if let Some(mut w) = out {
        w.flush().expect("CSV");
    }
    println!(
        "{}",
        serde_json::to_string_pretty(&summary.stats()).expect("JSON")
    );
}
