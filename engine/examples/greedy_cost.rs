//! The cost of the greedy agent: random-vs-greedy games of one ruleset on one thread, as
//! `tsoro simulate --agents random,greedy` plays them (seats swapped every other game):
//! `cargo run --release -p tsoro-engine --example greedy_cost -- [RULESET] [GAMES] [SEED]`
//! (defaults `tsoro-matthews-v7`, 1000, 7). Prints milliseconds per game and a digest of the
//! game records, which must not change when the agent is made faster.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::sim::{self, SimSpec};

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "tsoro-matthews-v7".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(7);
    let game = match catalogue::get(&id).and_then(|e| e.build(&Params::new())) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let spec = SimSpec {
        agents: [AgentSpec::Random, AgentSpec::Greedy],
        games: 0..games,
        seed,
        swap_seats: true,
        opening_plies: 0,
    };
    let names: [Arc<str>; 2] = spec.agents.map(|a| Arc::from(a.to_string()));
    let mut digest = DefaultHasher::new();
    let t = std::time::Instant::now();
    for k in spec.games.clone() {
        let r = tsoro_engine::with_game!(&game, g => sim::play_game(g, &spec, &names, k));
        // The record as the CSV export writes it (every column).
        serde_json::to_string(&r)
            .expect("a record serializes")
            .hash(&mut digest);
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / games as f64;
    println!(
        "{id}: {games} random-vs-greedy games (seed {seed}), {ms:.3} ms/game, records digest {:016x}",
        digest.finish()
    );
}
