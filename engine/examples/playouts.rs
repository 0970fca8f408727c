//! Random playouts of one ruleset in a loop, for profilers (`valgrind --tool=callgrind`,
//! `perf record`): `cargo run --release -p tsoro-engine --example playouts -- RULESET [GAMES] [key=value ...]`.

use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::playout::{Feed, Playout, play_out_reference};
use tsoro_engine::rng::Rng;
use tsoro_engine::{AnyGame, Game};

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
    match entry.build(&params) {
        Ok(AnyGame::Sowing(g)) => run(&id, &g, games),
        Ok(AnyGame::Morris(g)) => run(&id, &g, games),
        _ => {
            eprintln!("{id}: not a sowing or line-game ruleset, or bad parameters");
            std::process::exit(2);
        }
    }
}

fn run<G: Game>(id: &str, g: &G, games: u64) {
    // Five rounds of the same games: the best rate is the least disturbed by the machine.
    let reference = games.min(20_000);
    let mut best = 0f64;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        for k in 0..reference {
            let mut p = Playout::new(g.initial_state(), Rng::for_game(1, k), k);
            play_out_reference(g, &mut p);
        }
        best = best.max(reference as f64 / t.elapsed().as_secs_f64());
    }
    println!("{id}: reference, action by action: best of 5 rounds {best:.0} playouts/s");
    // The kernel, as a simulation feeds it: games made as they are asked for.
    struct Stream<'a, G: Game>(&'a G, std::ops::Range<u64>, u64);
    impl<G: Game> Feed<G::State> for Stream<'_, G> {
        fn next(&mut self) -> Option<Playout<G::State>> {
            let k = self.1.next()?;
            Some(Playout::new(self.0.initial_state(), Rng::for_game(1, k), k))
        }
        fn done(&mut self, p: Playout<G::State>) {
            self.2 += p.tally.moves as u64;
        }
    }
    let mut best = 0f64;
    let mut moves = 0;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        let mut feed = Stream(g, 0..games, 0);
        g.random_playouts(&mut feed);
        best = best.max(games as f64 / t.elapsed().as_secs_f64());
        moves = feed.2;
    }
    println!(
        "{id}: kernel{}: best of 5 rounds {best:.0} playouts/s, {:.1} moves/playout",
        if g.has_kernel() {
            ""
        } else {
            " (gate refuses: reference)"
        },
        moves as f64 / games as f64
    );
}
