//! Random playouts of one ruleset in a loop, for profilers (`valgrind --tool=callgrind`,
//! `perf record`): `cargo run --release -p tsoro-engine --example playouts -- RULESET [GAMES] [key=value ...]`.

use tsoro_engine::AnyGame;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::rng::Rng;

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "tsoro-ludii".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(100_000);
    let params: Params = args
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((k.to_string(), v.parse::<i64>().ok()?.into()))
        })
        .collect();
    let entry = match catalogue::get(&id) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let g = match entry.build(&params) {
        Ok(AnyGame::Sowing(g)) => g,
        _ => {
            eprintln!("{id}: not a sowing ruleset, or bad parameters");
            std::process::exit(2);
        }
    };
    // Five rounds of the same games: the best rate is the least disturbed by the machine.
    let mut best = 0f64;
    let mut moves = 0u64;
    for _ in 0..5 {
        let mut rng = Rng::from_seed(1);
        moves = 0;
        let t = std::time::Instant::now();
        for _ in 0..games {
            let mut s = g.initial_state();
            moves += g.random_playout(&mut s, &mut rng) as u64;
        }
        best = best.max(games as f64 / t.elapsed().as_secs_f64());
    }
    println!(
        "{id}: {games} playouts x 5 rounds, best {best:.0} playouts/s, {:.1} moves/playout",
        moves as f64 / games as f64
    );
    // Games of the same ruleset, 1,024 at a time through `random_playouts` (32 at once in SIMD
    // lanes), each drawing from its own generator as simulations do.
    let mut best = 0f64;
    for _ in 0..5 {
        moves = 0;
        let t = std::time::Instant::now();
        let mut k = 0u64;
        while k < games {
            let b = (games - k).min(1024);
            let mut batch: Vec<_> = (k..k + b)
                .map(|j| (g.initial_state(), Rng::for_game(1, j)))
                .collect();
            moves += g
                .random_playouts(&mut batch)
                .iter()
                .map(|&m| m as u64)
                .sum::<u64>();
            k += b;
        }
        best = best.max(games as f64 / t.elapsed().as_secs_f64());
    }
    println!(
        "{id}: in lanes, best {best:.0} playouts/s, {:.1} moves/playout",
        moves as f64 / games as f64
    );
}
