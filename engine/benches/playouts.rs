//! Random-vs-random playouts per second on one thread, for the rulesets Ludii's figures exist
//! for and for our Matthews and Sanderson readings. Moves per second are printed beside each
//! figure (moves counted as Ludii counts them: each relay lap and each take is one).
//!
//! The first group plays them one at a time through the reference, action by action; the
//! second, 4,096 a call through `random_playouts`, the kernel (64 at once in SIMD lanes, where
//! its gate admits the rules), on the same one thread.
//!
//! The third plays them on a pool of one thread and of two, for the scaling with threads.
//!
//! Run: `cargo bench -p tsoro-engine --bench playouts`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::playout::{Feed, Playout};
use tsoro_engine::rng::Rng;
use tsoro_engine::sowing::{SowingGame, SowingState};
use tsoro_engine::{AnyGame, Game};

const CASES: &[(&str, &[(&str, i64)])] = &[
    ("tsoro-ludii", &[("holes", 8)]),
    ("tsoro-ludii", &[("holes", 21)]),
    ("tsoro-ludii-additional-capture", &[("additional_takes", 3)]),
    ("tsoro-ludii-misoro", &[]),
    ("njombwa-ludii", &[]),
    ("tsoro-matthews-basic", &[]),
    ("tsoro-matthews-v1-v5-v6", &[]),
    ("tsoro-matthews-v7", &[]),
    ("tsoro-russ", &[]),
    ("njombwa-sanderson-gambit", &[]),
];

/// One random playout through the reference, action by action; returns the Ludii moves played.
fn playout<G: Game>(g: &G, rng: &mut Rng) -> u64 {
    let mut s = g.initial_state();
    random_playout(g, &mut s, rng) as u64
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

/// Games `k..end` of a run, made as they are asked for and dropped when done (as a simulation
/// feeds the kernel); counts the moves played.
struct Stream<'a> {
    g: &'a SowingGame,
    k: u64,
    end: u64,
    moves: u64,
}

impl Feed<SowingState> for Stream<'_> {
    fn next(&mut self) -> Option<Playout<SowingState>> {
        (self.k < self.end).then(|| {
            self.k += 1;
            Playout::new(self.g.initial_state(), Rng::for_game(1, self.k), self.k)
        })
    }
    fn done(&mut self, p: Playout<SowingState>) {
        self.moves += p.tally.moves as u64;
    }
}

/// Plays games `k..k + n` on the kernel (where its gate admits the rules); returns the moves.
fn kernel(g: &SowingGame, k: u64, n: u64) -> u64 {
    let mut feed = Stream {
        g,
        k,
        end: k + n,
        moves: 0,
    };
    g.random_playouts(&mut feed);
    feed.moves
}

fn label(id: &str, params: &[(&str, i64)]) -> String {
    let p: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if p.is_empty() {
        id.to_string()
    } else {
        format!("{id} {}", p.join(" "))
    }
}

/// The sowing game of a case.
fn game(id: &str, params: &[(&str, i64)]) -> SowingGame {
    let p: Params = params
        .iter()
        .map(|(k, v)| (k.to_string(), (*v).into()))
        .collect();
    match catalogue::get(id).unwrap().build(&p) {
        Ok(AnyGame::Sowing(g)) => g,
        _ => panic!("{id} is not a sowing game"),
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for (id, params) in CASES {
        let g = game(id, params);
        // Moves per playout, for the moves/s figure.
        let mut rng = Rng::from_seed(99);
        let n = 2000;
        let t = Instant::now();
        let moves: u64 = (0..n).map(|_| playout(&g, &mut rng)).sum();
        let e = t.elapsed().as_secs_f64();
        eprintln!(
            "{:<40} {:>10.0} playouts/s {:>12.0} moves/s ({:.1} moves/playout)",
            label(id, params),
            n as f64 / e,
            moves as f64 / e,
            moves as f64 / n as f64
        );
        group.throughput(Throughput::Elements(1));
        let mut rng = Rng::from_seed(1);
        group.bench_function(BenchmarkId::from_parameter(label(id, params)), |b| {
            b.iter(|| black_box(playout(&g, &mut rng)))
        });
    }
    group.finish();

    // The same playouts, 4,096 games a call through `random_playouts`, which plays up to 32
    // games at once in SIMD lanes where the kernel's gate admits the rules (one thread).
    let mut group = c.benchmark_group("kernel_4096");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.sample_size(20);
    for (id, params) in CASES {
        let g = game(id, params);
        group.throughput(Throughput::Elements(BATCH));
        let mut k = 0u64;
        group.bench_function(BenchmarkId::from_parameter(label(id, params)), |b| {
            b.iter(|| {
                k += BATCH;
                black_box(kernel(&g, k - BATCH, BATCH))
            })
        });
    }
    group.finish();

    // Threads: the same kernel, 16,384 games a round shared by a pool of 1 and of 2 threads
    // (chunks of 4,096 games each), for the scaling.
    let mut group = c.benchmark_group("kernel_threads");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.sample_size(20);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (id, params) in &CASES[..5] {
        let g = game(id, params);
        for threads in [1, 2].into_iter().filter(|&t| t <= cores) {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            group.throughput(Throughput::Elements(ROUND));
            let mut k = 0u64;
            let name = format!("{} threads={threads}", label(id, params));
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(|| {
                    k += ROUND;
                    let from = k - ROUND;
                    pool.install(|| {
                        (0..ROUND / BATCH)
                            .into_par_iter()
                            .map(|c| kernel(&g, from + c * BATCH, BATCH))
                            .sum::<u64>()
                    })
                })
            });
        }
    }
    group.finish();
}

/// Games a round of the threads group plays.
const ROUND: u64 = 4 * BATCH;

/// Games a `random_playouts` call plays.
const BATCH: u64 = 4096;

criterion_group!(benches, bench);
criterion_main!(benches);
