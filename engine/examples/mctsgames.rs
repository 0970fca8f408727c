//! MCTS iterations per CPU-second along games (not only at the opening): seat-swapped games of
//! `mcts:N` against itself from random two-ply openings on tsoro-ludii 4x8; each searched
//! decision's thread CPU time (decisions with one legal action are not searched).
//! `cargo run --release -p tsoro-engine --example mctsgames -- N GAMES`.
use tsoro_engine::AnyGame;
use tsoro_engine::agents::{Agent, MctsAgent};
use tsoro_engine::catalogue;
use tsoro_engine::clock::thread_cpu;
use tsoro_engine::game::{ActionList, Game};
use tsoro_engine::rng::Rng;
fn main() {
    let mut a = std::env::args().skip(1);
    let n: u32 = a.next().map_or(100_000, |x| x.parse().unwrap());
    let games: u64 = a.next().map_or(4, |x| x.parse().unwrap());
    let def = catalogue::get("tsoro-ludii").unwrap();
    let AnyGame::Sowing(g) = def.build(&def.parse_params(["holes=8"]).unwrap()).unwrap() else {
        panic!()
    };
    let mut agent = MctsAgent::new(n, std::f64::consts::SQRT_2);
    let (mut searched, mut forced, mut secs) = (0u64, 0u64, 0f64);
    let mut by_phase = [(0u64, 0f64); 3];
    for k in 0..games {
        let mut rng = Rng::for_game(1, k / 2);
        let mut s = g.initial_state();
        for _ in 0..2 {
            let x = g.random_action(&s, &mut rng).unwrap();
            g.apply_unchecked(&mut s, x);
        }
        let mut rng = Rng::for_game(1, 1000 + k);
        let mut ply = 0;
        while g.to_move(&s).is_some() {
            let mut legal = ActionList::new();
            g.legal_actions(&s, &mut legal);
            let t = thread_cpu();
            let x = agent.choose(&g, &s, &mut rng);
            let dt = (thread_cpu() - t).as_secs_f64();
            if legal.len() > 1 {
                searched += 1;
                secs += dt;
                let p = &mut by_phase[(ply / 20).min(2)];
                p.0 += 1;
                p.1 += dt;
            } else {
                forced += 1;
            }
            g.apply_unchecked(&mut s, x);
            ply += 1;
        }
    }
    println!(
        "mcts:{n}: {games} games, {searched} searched decisions ({forced} forced), {:.3} CPU ms each, {:.0} iterations per CPU-second",
        1000.0 * secs / searched as f64,
        n as f64 * searched as f64 / secs
    );
    for (i, (d, s)) in by_phase.iter().enumerate() {
        println!(
            "decisions {}..: {d}, {:.0} iterations/s",
            i * 20,
            n as f64 * *d as f64 / s
        );
    }
}
