//! Seeded, parallel, reproducible simulation of many games between two agents.
//!
//! Game `k` draws all its randomness from [`Rng::for_game`]`(seed, k)`, so its record is the
//! same whatever the number of threads and whichever slice of games a process runs. Records
//! are produced in game order, in batches played in parallel with rayon; only running
//! aggregates are kept unless the caller keeps the records its sink receives.

use crate::agents::{Agent, AgentSpec};
use crate::anygame::AnyGame;
use crate::game::Game;
use crate::outcome::Outcome;
use crate::player::Player;
use crate::rng::Rng;
use crate::stats::{GameRecord, Summary, Winner};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// Largest number of games of one run.
pub const MAX_GAMES: u64 = 100_000_000;

/// What to simulate.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSpec {
    /// The two agents: agent 0 sits in seat A in even games (or always, if not swapping).
    pub agents: [AgentSpec; 2],
    /// The games to play: indices `games.start..games.end` of the run.
    pub games: Range<u64>,
    /// The run's seed.
    pub seed: u64,
    /// Agents swap seats every other game.
    pub swap_seats: bool,
}

/// How to run it.
#[derive(Clone, Default)]
pub struct SimOptions {
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// Set to stop after the current batch.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called after each batch with (games done, games in the run).
    pub progress: Option<Arc<dyn Fn(u64, u64) + Send + Sync>>,
}

/// Why a simulation stopped early or could not start.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum SimError {
    /// Too many games, or an empty range.
    #[error("games {start}..{end}: a run has 1 to {MAX_GAMES} games")]
    Games {
        /// First game.
        start: u64,
        /// One past the last.
        end: u64,
    },
    /// The cancel flag was set; the summary covers the games done.
    #[error("cancelled after {done} games")]
    Cancelled {
        /// Games finished.
        done: u64,
    },
    /// The thread pool could not be built.
    #[error("thread pool: {0}")]
    Threads(String),
}

/// Plays one game `k` of a run.
pub fn play_game<G: Game + 'static>(
    g: &G,
    spec: &SimSpec,
    names: &[Arc<str>; 2],
    k: u64,
) -> GameRecord {
    let seed = Rng::game_seed(spec.seed, k);
    let mut rng = Rng::from_seed(seed);
    let a_index = if spec.swap_seats { (k % 2) as usize } else { 0 };
    let mut agents: [Box<dyn Agent<G>>; 2] = [
        spec.agents[a_index].build(),
        spec.agents[1 - a_index].build(),
    ];
    let mut s = g.initial_state();
    let first = g.to_move(&s).unwrap_or(Player::A);
    let mut rec = GameRecord {
        game: k,
        seed,
        agent_a: names[a_index].clone(),
        agent_b: names[1 - a_index].clone(),
        agent_a_index: a_index as u8,
        first,
        winner: Winner::Draw,
        reason: crate::outcome::EndReason::TurnLimit,
        turns: 0,
        actions: 0,
        moves: 0,
        captures_a: 0,
        captures_b: 0,
        stones_captured_a: 0,
        stones_captured_b: 0,
        stones_left_a: 0,
        stones_left_b: 0,
        longest_relay: 0,
        mean_branching: 0.0,
        legal_sum: 0,
        multi_decisions: 0,
    };
    let mut legal = crate::game::ActionList::new();
    while let Some(p) = g.to_move(&s) {
        g.legal_actions(&s, &mut legal);
        let options = legal.len() as u64;
        rec.legal_sum += options;
        rec.multi_decisions += (options > 1) as u32;
        let a = agents[p.index()].choose(g, &s, &mut rng);
        let rep = g.apply_unchecked(&mut s, a);
        rec.actions += 1;
        rec.moves += rep.moves;
        rec.longest_relay = rec.longest_relay.max(rep.laps);
        match p {
            Player::A => {
                rec.captures_a += rep.captures;
                rec.stones_captured_a += rep.captured;
            }
            Player::B => {
                rec.captures_b += rep.captures;
                rec.stones_captured_b += rep.captured;
            }
        }
    }
    let o: Outcome = g.outcome(&s).unwrap_or(Outcome {
        winner: None,
        reason: crate::outcome::EndReason::TurnLimit,
        turns: g.turns(&s),
    });
    rec.winner = match o.winner {
        Some(Player::A) => Winner::A,
        Some(Player::B) => Winner::B,
        None => Winner::Draw,
    };
    rec.reason = o.reason;
    rec.turns = o.turns;
    rec.stones_left_a = g.material(&s, Player::A).max(0) as u32;
    rec.stones_left_b = g.material(&s, Player::B).max(0) as u32;
    rec.mean_branching = if rec.actions == 0 {
        0.0
    } else {
        rec.legal_sum as f64 / rec.actions as f64
    };
    rec
}

/// Runs a simulation, handing every record to `sink` in game order; returns the aggregates.
pub fn simulate<G: Game + 'static>(
    g: &G,
    spec: &SimSpec,
    opts: &SimOptions,
    sink: &mut dyn FnMut(&GameRecord),
) -> Result<Summary, SimError> {
    simulate_with(g, spec, opts, &|_| (), &mut |r, ()| sink(r))
}

/// [`simulate`], with `map` applied to every record on the thread that played it (in
/// parallel: encoding a record for storage, say) and its result handed to `sink` with the
/// record, in game order.
pub fn simulate_with<G: Game + 'static, T: Send>(
    g: &G,
    spec: &SimSpec,
    opts: &SimOptions,
    map: &(dyn Fn(&GameRecord) -> T + Sync),
    sink: &mut dyn FnMut(&GameRecord, T),
) -> Result<Summary, SimError> {
    let Range { start, end } = spec.games.clone();
    if start >= end || end - start > MAX_GAMES {
        return Err(SimError::Games { start, end });
    }
    let names: [Arc<str>; 2] = spec.agents.map(|a| Arc::from(a.to_string()));
    let mut summary = Summary::new(spec.agents.map(|a| a.to_string()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| SimError::Threads(e.to_string()))?;
    let threads = pool.current_num_threads() as u64;
    let batch = (256 * threads).max(256);
    let total = end - start;
    let mut next = start;
    while next < end {
        if opts
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(SimError::Cancelled { done: next - start });
        }
        let stop = (next + batch).min(end);
        let records: Vec<(GameRecord, T)> = pool.install(|| {
            (next..stop)
                .into_par_iter()
                .map(|k| {
                    let r = play_game(g, spec, &names, k);
                    let t = map(&r);
                    (r, t)
                })
                .collect()
        });
        for (r, t) in records {
            summary.add(&r);
            sink(&r, t);
        }
        next = stop;
        if let Some(p) = &opts.progress {
            p(next - start, total);
        }
    }
    Ok(summary)
}

/// [`simulate_with`] on a game chosen at run time.
pub fn simulate_any_with<T: Send>(
    game: &AnyGame,
    spec: &SimSpec,
    opts: &SimOptions,
    map: &(dyn Fn(&GameRecord) -> T + Sync),
    sink: &mut dyn FnMut(&GameRecord, T),
) -> Result<Summary, SimError> {
    crate::with_game!(game, g => simulate_with(g, spec, opts, map, sink))
}

/// [`simulate`] on a game chosen at run time.
pub fn simulate_any(
    game: &AnyGame,
    spec: &SimSpec,
    opts: &SimOptions,
    sink: &mut dyn FnMut(&GameRecord),
) -> Result<Summary, SimError> {
    crate::with_game!(game, g => simulate(g, spec, opts, sink))
}
