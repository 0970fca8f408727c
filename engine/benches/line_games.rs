//! Random-vs-random playouts per second on one thread for the line games (tsoro yemutwelve,
//! Dig Dig, tsoro yemutatu), on the reference (`ID`) and as `random_playouts` plays them, on
//! the bitboard kernel where its gate admits the rules (`ID/kernel`, batches of 256 games);
//! and nhodo games per second, beside the tsoro figures of `playouts`. Run:
//! `cargo bench -p tsoro-engine --bench line_games`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};
use tsoro_engine::catalogue::{self, Model, Params};
use tsoro_engine::playout::{Playout, SliceFeed};
use tsoro_engine::rng::Rng;
use tsoro_engine::{AnyGame, Game};

const IDS: &[&str] = &[
    "tsoro-yemutwelve-matthews",
    "tsoro-yemutwelve-ludii",
    "dig-dig-matthews",
    "dig-dig-ludii",
    "tsoro-yemutatu-matthews-a",
    "tsoro-yemutatu-matthews-b",
    "tsoro-yemutatu-ludii",
    "tsoro-yemutatu-ludii-triangle",
    "nhodo-matthews",
];

/// Games per batch of the kernel's benchmark.
const BATCH: u64 = 256;

/// A batch of fresh random games played out by `random_playouts` (the kernel where the gate
/// admits the rules); returns the Ludii moves played.
fn kernel_batch<G: Game>(g: &G, round: u64) -> u64 {
    let mut batch: Vec<Playout<G::State>> = (0..BATCH)
        .map(|k| Playout::new(g.initial_state(), Rng::for_game(round, k), k))
        .collect();
    g.random_playouts(&mut SliceFeed::new(&mut batch));
    batch.iter().map(|p| p.tally.moves as u64).sum()
}

/// Plays uniformly random actions to the end (as the reference does); returns the Ludii moves
/// played.
fn random_playout<G: Game>(g: &G, s: &mut G::State, rng: &mut Rng) -> u32 {
    let mut moves = 0;
    while let Some(a) = g.random_action(s, rng) {
        moves += g.apply_unchecked(s, a).moves;
    }
    moves
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("line_games");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for id in IDS {
        match catalogue::get(id)
            .unwrap()
            .build_model(&Params::new())
            .unwrap()
        {
            Model::Game(AnyGame::Morris(g)) => {
                let mut rng = Rng::from_seed(99);
                let n = 2000;
                let t = Instant::now();
                let moves: u64 = (0..n)
                    .map(|_| {
                        let mut s = g.initial_state();
                        random_playout(&g, &mut s, &mut rng) as u64
                    })
                    .sum();
                let e = t.elapsed().as_secs_f64();
                eprintln!(
                    "{id:<30} {:>10.0} playouts/s {:>12.0} moves/s ({:.1} moves/playout)",
                    n as f64 / e,
                    moves as f64 / e,
                    moves as f64 / n as f64
                );
                let t = Instant::now();
                let rounds = 8;
                let moves: u64 = (0..rounds).map(|r| kernel_batch(&g, r)).sum();
                let e = t.elapsed().as_secs_f64();
                let n = rounds * BATCH;
                eprintln!(
                    "{:<30} {:>10.0} playouts/s {:>12.0} moves/s ({:.1} moves/playout; kernel: {})",
                    format!("{id}/kernel"),
                    n as f64 / e,
                    moves as f64 / e,
                    moves as f64 / n as f64,
                    g.has_kernel()
                );
                let mut rng = Rng::from_seed(7);
                group.throughput(Throughput::Elements(1));
                group.bench_function(*id, |b| {
                    b.iter(|| {
                        let mut s = g.initial_state();
                        black_box(random_playout(&g, &mut s, &mut rng))
                    })
                });
                let mut round = 0;
                group.throughput(Throughput::Elements(BATCH));
                group.bench_function(format!("{id}/kernel"), |b| {
                    b.iter(|| {
                        round += 1;
                        black_box(kernel_batch(&g, round))
                    })
                });
            }
            Model::Nhodo(m) => {
                let n = 20_000u64;
                let t = Instant::now();
                let turns: u64 = (0..n).map(|k| m.play(1, k).turns as u64).sum();
                let e = t.elapsed().as_secs_f64();
                eprintln!(
                    "{id:<30} {:>10.0} games/s {:>12.0} turns/s ({:.1} turns/game)",
                    n as f64 / e,
                    turns as f64 / e,
                    turns as f64 / n as f64
                );
                let mut k = 0;
                group.throughput(Throughput::Elements(1));
                group.bench_function(*id, |b| {
                    b.iter(|| {
                        k += 1;
                        black_box(m.play(1, k))
                    })
                });
            }
            other => panic!("{id}: unexpected {other:?}"),
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
