use std::time::Instant;
use tsoro_engine::AnyGame;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::rng::Rng;
fn main() {
    let ids = std::env::var("IDS").unwrap_or_default();
    for id in [
        "tsoro-ludii",
        "tsoro-ludii-additional-capture",
        "tsoro-ludii-misoro",
        "njombwa-ludii",
        "tsoro-matthews-basic",
    ]
    .into_iter()
    .filter(|i| ids.is_empty() || ids.contains(i))
    {
        let AnyGame::Sowing(g) = catalogue::get(id).unwrap().build(&Params::new()).unwrap();
        let mut rng = Rng::from_seed(1);
        let t = Instant::now();
        let mut moves = 0u64;
        let n: u32 = std::env::var("N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(200_000);
        for _ in 0..n {
            let mut s = g.initial_state();
            loop {
                let Some(a) = g.random_action(&s, &mut rng) else {
                    break;
                };
                g.apply_unchecked(&mut s, a);
            }
            moves += s.moves() as u64;
        }
        let e = t.elapsed().as_secs_f64();
        println!(
            "{id}: {:.0} playouts/s, {:.0} moves/s, {:.1} moves/game",
            n as f64 / e,
            moves as f64 / e,
            moves as f64 / n as f64
        );
    }
}
