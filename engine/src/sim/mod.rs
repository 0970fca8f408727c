//! Seeded, parallel, reproducible simulation of many games between two agents.
//!
//! Game `k` draws all its randomness from [`Rng::for_game`]`(seed, k)`, so its record is the
//! same whatever the number of threads and whichever slice of games a process runs. Records
//! are produced in game order, played in parallel by the [`crate::runner`] (random games in
//! chunks on the kernel, other games one by one); only running aggregates are kept unless the
//! caller keeps the records its sink receives.

use crate::agents::{Agent, AgentSpec};
use crate::anygame::AnyGame;
use crate::game::Game;
use crate::outcome::Outcome;
use crate::player::Player;
use crate::playout::{Feed, Playout, Tally};
use crate::rng::Rng;
use crate::runner::{RunError, RunOptions, Runner};
use crate::stats::{Counted, Fold, GameRecord, Summary, Winner};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub use crate::runner::MAX_GAMES;

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
    /// Uniformly random plies played before the agents take over ([`open`]): with seats
    /// swapped, games `2j` and `2j + 1` share theirs, as a tournament's pair does. A forced
    /// move (the only legal one) is played but is no opening choice: it does not count.
    pub opening_plies: u32,
}

/// Most random opening plies of a simulation (as a tournament's).
pub const MAX_OPENING_PLIES: u32 = crate::tournament::MAX_OPENING_PLIES;

/// How to run it.
#[derive(Clone, Default)]
pub struct SimOptions {
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// Set to stop: games not started are skipped and searches end early (the games in play
    /// are discarded); the run ends with [`SimError::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called as chunks of games end with (games done, games in the run).
    pub progress: Option<Arc<dyn Fn(u64, u64) + Send + Sync>>,
    /// Play every game action by action through the reference, even where a fast path would
    /// give the same records (to check that it does).
    pub reference: bool,
    /// Only the summary is wanted: the sink is never called (and random games on the fast
    /// path make no records, only fold their figures into the summary).
    pub summary_only: bool,
}

impl SimOptions {
    /// The runner's part of the options.
    pub fn run(&self) -> RunOptions {
        RunOptions {
            threads: self.threads,
            cancel: self.cancel.clone(),
            progress: self.progress.clone(),
        }
    }
}

/// Why a simulation stopped early or could not start: the runner's reasons.
pub type SimError = RunError;

/// Plays one game `k` of a run, action by action, each agent choosing in turn.
pub fn play_game<G: Game + 'static>(
    g: &G,
    spec: &SimSpec,
    names: &[Arc<str>; 2],
    k: u64,
) -> GameRecord {
    let p = play_traced(g, spec, k, &mut |_| {});
    record(g, spec, names, first_seat(g), &p)
}

/// The actions of game `k` of a run, as [`play_game`] plays them (to replay or show it).
pub fn game_actions<G: Game + 'static>(g: &G, spec: &SimSpec, k: u64) -> Vec<G::Action> {
    let mut actions = vec![];
    play_traced(g, spec, k, &mut |a| actions.push(a));
    actions
}

/// [`game_actions`] on a game chosen at run time, as JSON actions.
pub fn game_actions_any(game: &AnyGame, spec: &SimSpec, k: u64) -> Vec<serde_json::Value> {
    crate::with_game!(game, g => game_actions(g, spec, k)
        .into_iter()
        .map(|a| serde_json::to_value(a).unwrap_or_default())
        .collect())
}

/// Game `k` of a run played to its end by its agents, each action handed to `trace`.
fn play_traced<G: Game + 'static>(
    g: &G,
    spec: &SimSpec,
    k: u64,
    trace: &mut dyn FnMut(G::Action),
) -> Playout<G::State> {
    let a_index = seat_a(spec, k);
    let mut agents: [Box<dyn Agent<G>>; 2] = [
        spec.agents[a_index].build(),
        spec.agents[1 - a_index].build(),
    ];
    let mut p = start(g, spec, k);
    open(g, spec, &mut p, trace);
    while let Some(mover) = g.to_move(&p.state) {
        if crate::agents::stop::requested() {
            break; // a stopped run discards this game
        }
        let options = g.legal_count(&p.state);
        let a = agents[mover.index()].choose(g, &p.state, &mut p.rng);
        let rep = g.apply_unchecked(&mut p.state, a);
        p.tally.record(mover, options, &rep);
        trace(a);
    }
    p
}

/// Plays game `p.tag`'s random opening ([`SimSpec::opening_plies`]) on `p`, each action
/// counted in its tally and handed to `trace`. Its random numbers come from their own stream
/// (the game's, which its agents draw from, is untouched: a run without openings plays as
/// before), shared by the two games of a seat-swapped pair.
fn open<G: Game>(
    g: &G,
    spec: &SimSpec,
    p: &mut Playout<G::State>,
    trace: &mut dyn FnMut(G::Action),
) {
    if spec.opening_plies == 0 {
        return;
    }
    let line = if spec.swap_seats { p.tag / 2 } else { p.tag };
    let mut rng = Rng::for_game(crate::rng::mix64(spec.seed ^ OPENING_STREAM), line);
    let mut plies = 0;
    while plies < spec.opening_plies {
        let Some(mover) = g.to_move(&p.state) else {
            break;
        };
        let options = g.legal_count(&p.state);
        let Some(a) = g.random_action(&p.state, &mut rng) else {
            break;
        };
        let rep = g.apply_unchecked(&mut p.state, a);
        p.tally.record(mover, options, &rep);
        trace(a);
        plies += u32::from(options > 1);
    }
}

/// Salt of the openings' random stream.
const OPENING_STREAM: u64 = 0x0BE2_1265_5EED_0001;

/// Which of the run's agents sits in seat A in game `k`.
fn seat_a(spec: &SimSpec, k: u64) -> usize {
    if spec.swap_seats { (k % 2) as usize } else { 0 }
}

/// Game `k` of a run at its start, with its own generator.
fn start<G: Game>(g: &G, spec: &SimSpec, k: u64) -> Playout<G::State> {
    Playout::new(g.initial_state(), Rng::for_game(spec.seed, k), k)
}

/// The seat that moves first in every game of `g`.
fn first_seat<G: Game>(g: &G) -> Player {
    g.to_move(&g.initial_state()).unwrap_or(Player::A)
}

/// What the summary counts of a finished game `p.tag` of a run whose games start with seat
/// `first`.
#[inline]
fn counted<G: Game>(g: &G, spec: &SimSpec, first: Player, p: &Playout<G::State>) -> Counted {
    let (s, t) = (&p.state, &p.tally);
    let o: Outcome = g.outcome(s).unwrap_or(Outcome {
        winner: None,
        reason: crate::outcome::EndReason::TurnLimit,
        turns: g.turns(s),
    });
    Counted {
        agent_a_index: seat_a(spec, p.tag) as u8,
        first,
        winner: match o.winner {
            Some(Player::A) => Winner::A,
            Some(Player::B) => Winner::B,
            None => Winner::Draw,
        },
        reason: o.reason,
        turns: o.turns,
        actions: t.actions,
        moves: t.moves,
        captures: t.captures,
        stones_captured: t.stones_captured,
        longest_relay: t.longest_relay,
        legal_sum: t.legal_sum,
        multi_decisions: t.multi_decisions,
    }
}

/// The record of a finished game `p.tag` of a run whose games start with seat `first`.
fn record<G: Game>(
    g: &G,
    spec: &SimSpec,
    names: &[Arc<str>; 2],
    first: Player,
    p: &Playout<G::State>,
) -> GameRecord {
    record_of(g, spec, names, &counted(g, spec, first, p), p)
}

/// The record of a finished game `p`, whose counted figures are `c`.
fn record_of<G: Game>(
    g: &G,
    spec: &SimSpec,
    names: &[Arc<str>; 2],
    c: &Counted,
    p: &Playout<G::State>,
) -> GameRecord {
    let (s, k) = (&p.state, p.tag);
    let a_index = c.agent_a_index as usize;
    GameRecord {
        game: k,
        seed: Rng::game_seed(spec.seed, k),
        agent_a: names[a_index].clone(),
        agent_b: names[1 - a_index].clone(),
        agent_a_index: c.agent_a_index,
        first: c.first,
        winner: c.winner,
        reason: c.reason,
        turns: c.turns,
        actions: c.actions,
        moves: c.moves,
        captures_a: c.captures[0],
        captures_b: c.captures[1],
        stones_captured_a: c.stones_captured[0],
        stones_captured_b: c.stones_captured[1],
        stones_left_a: g.material(s, Player::A).max(0) as u32,
        stones_left_b: g.material(s, Player::B).max(0) as u32,
        longest_relay: c.longest_relay,
        mean_branching: crate::stats::mean_branching(c.legal_sum, c.actions),
        legal_sum: c.legal_sum,
        multi_decisions: c.multi_decisions,
    }
}

/// The records of games `ks` of a run between two random agents, played many at a time by
/// [`Game::random_playouts`] (the game's fast kernel, when it has one for these rules), each
/// with `map` applied, in game order, and their aggregates, folded on the thread that played
/// them (the summaries of a run's parts merge exactly into the run's). Without `keep`, no
/// record is made: the games are only folded into the aggregates.
fn random_records<G: Game, T>(
    g: &G,
    spec: &SimSpec,
    names: &[Arc<str>; 2],
    ks: Range<u64>,
    map: &(dyn Fn(&GameRecord) -> T + Sync),
    keep: bool,
) -> Part<T> {
    struct Games<'a, G: Game, T> {
        g: &'a G,
        spec: &'a SimSpec,
        names: &'a [Arc<str>; 2],
        map: &'a (dyn Fn(&GameRecord) -> T + Sync),
        ks: Range<u64>,
        first: u64,
        first_seat: Player,
        fold: Fold,
        keep: bool,
        out: Vec<Option<(GameRecord, T)>>,
    }
    impl<G: Game, T> Feed<G::State> for Games<'_, G, T> {
        fn next(&mut self) -> Option<Playout<G::State>> {
            let k = self.ks.next()?;
            Some(start(self.g, self.spec, k))
        }
        fn replays(&self) -> bool {
            true
        }
        fn ahead(&self) -> bool {
            true
        }
        fn again(&mut self, tag: u64) -> Option<Playout<G::State>> {
            Some(start(self.g, self.spec, tag))
        }
        fn done(&mut self, p: Playout<G::State>) {
            self.count(&p);
        }
        fn next_into(&mut self, slot: &mut Playout<G::State>) -> bool {
            let Some(k) = self.ks.next() else {
                return false;
            };
            // Field by field: a whole game moved in would be read, soon after, by loads that
            // wait for the stores (its nominations and its load into a lane read it at once).
            slot.state = self.g.initial_state();
            slot.rng = Rng::for_game(self.spec.seed, k);
            slot.tally = Tally::default();
            slot.tag = k;
            true
        }
        fn done_in(&mut self, p: &mut Playout<G::State>) {
            self.count(p);
        }
    }
    impl<G: Game, T> Games<'_, G, T> {
        /// Folds a finished game into the aggregates, and records it if asked.
        #[inline]
        fn count(&mut self, p: &Playout<G::State>) {
            let c = counted(self.g, self.spec, self.first_seat, p);
            self.fold.add(&c);
            if self.keep {
                let i = (p.tag - self.first) as usize;
                let r = record_of(self.g, self.spec, self.names, &c, p);
                let t = (self.map)(&r);
                self.out[i] = Some((r, t));
            }
        }
    }
    let first = ks.start;
    let games = ks.end - ks.start;
    // The chunk's own copies of the names: the records share them with no other thread while
    // they are made (one reference count per chunk, not one bounced between threads).
    let names: [Arc<str>; 2] = [Arc::from(&*names[0]), Arc::from(&*names[1])];
    let mut feed = Games {
        g,
        spec,
        names: &names,
        map,
        out: if keep {
            std::iter::repeat_with(|| None)
                .take(games as usize)
                .collect()
        } else {
            vec![]
        },
        ks,
        first,
        first_seat: first_seat(g),
        fold: Fold::new(spec.agents.map(|a| a.to_string())),
        keep,
    };
    g.random_playouts(&mut feed);
    Part {
        records: feed.out,
        summary: feed.fold.finish(),
    }
}

/// Games played by one task, in game order (every game played: `None` only while they are;
/// none kept when only the summary is wanted), with their aggregates.
struct Part<T> {
    records: Vec<Option<(GameRecord, T)>>,
    summary: Summary,
}

/// Games a worker plays at once on the fast path (enough to keep the lanes full).
const FAST_CHUNK: u64 = 4096;

/// Runs a simulation, handing every record to `sink` in game order (none with
/// [`SimOptions::summary_only`]); returns the aggregates.
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
    crate::runner::check_games(&spec.games)?;
    if spec.opening_plies > MAX_OPENING_PLIES {
        return Err(SimError::OpeningPlies(spec.opening_plies));
    }
    let names: [Arc<str>; 2] = spec.agents.map(|a| Arc::from(a.to_string()));
    let mut summary = Summary::new(spec.agents.map(|a| a.to_string()));
    let run = opts.run();
    let runner = Runner::new(&run)?;
    // Random agents on both seats play on the fast path (unless the reference is asked for):
    // the same records, game for game.
    // (With openings, the slow path plays them: the same games on any thread count.)
    if !opts.reference && spec.agents == [AgentSpec::Random; 2] && spec.opening_plies == 0 {
        // Each chunk is played on the kernel (enough games to keep its lanes full, and at
        // least four chunks a thread so the threads finish together) and folds its own
        // summary: the summaries merge exactly, the same on any thread count.
        let total = spec.games.end - spec.games.start;
        let chunk = total.div_ceil(4 * runner.threads()).clamp(512, FAST_CHUNK);
        runner.run(
            spec.games.clone(),
            chunk,
            |ks| random_records(g, spec, &names, ks, map, !opts.summary_only),
            |_, part| {
                summary.merge(&part.summary);
                for (r, t) in part.records.into_iter().flatten() {
                    sink(&r, t);
                }
            },
        )?;
        return Ok(summary);
    }
    // Agents that search see the cancel flag inside their searches.
    runner.run_games(
        spec.games.clone(),
        |k| {
            let r = play_game(g, spec, &names, k);
            let t = map(&r);
            (r, t)
        },
        |_, (r, t)| {
            summary.add(&r);
            if !opts.summary_only {
                sink(&r, t);
            }
        },
    )?;
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
