//! Tournaments: every pairing of agents plays seat-swapped pairs of games, and the results are
//! rated on the Elo scale ([`ratings`]) with a first-move term.
//!
//! Pair `k` of pairing `p` draws everything from its own seed ([`pair_seed`]): its opening (`K`
//! uniformly random plies, the same for both games of the pair) and each game's agents'
//! random numbers. Game 0 of a pair has the pairing's first agent in the seat that moves first
//! at the start, game 1 the second agent. A game's record therefore depends only on the spec,
//! whatever the thread count; games are played in parallel by the [`crate::runner`] and kept
//! in order.
//! An agent against itself (a self-play pairing) measures the first-player advantage at that
//! strength.

pub mod ladder;
pub mod ratings;
pub mod report;

use crate::agents::{Agent, AgentSpec};
use crate::anygame::AnyGame;
use crate::game::Game;
use crate::outcome::EndReason;
use crate::player::Player;
use crate::rng::Rng;
use crate::runner::{RunError, RunOptions, Runner};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use thiserror::Error;

/// Most agents in one tournament.
pub const MAX_AGENTS: usize = 32;
/// Most seat-swapped pairs of games per pairing.
pub const MAX_PAIRS: u64 = 100_000;
/// Most random opening plies.
pub const MAX_OPENING_PLIES: u32 = 64;

/// What to play.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSpec {
    /// The agents, by index.
    pub agents: Vec<AgentSpec>,
    /// The pairings played, as agent indices (`[i, i]` is self-play).
    pub pairings: Vec<[usize; 2]>,
    /// Seat-swapped pairs of games per pairing.
    pub pairs: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// Uniformly random plies played before the agents take over (the same for both games
    /// of a pair).
    pub opening_plies: u32,
}

impl TournamentSpec {
    /// A round robin: every agent against every other and against itself.
    pub fn round_robin(agents: Vec<AgentSpec>, pairs: u64, seed: u64, opening_plies: u32) -> Self {
        let n = agents.len();
        let pairings = (0..n).flat_map(|i| (i..n).map(move |j| [i, j])).collect();
        TournamentSpec {
            agents,
            pairings,
            pairs,
            seed,
            opening_plies,
        }
    }

    /// Games in the tournament.
    pub fn games(&self) -> u64 {
        self.pairings.len() as u64 * self.pairs * 2
    }

    /// Checks the sizes, and that the pairings link every agent to every other (through
    /// games between different agents), so that all can be rated on one scale.
    pub fn check(&self) -> Result<(), TournamentError> {
        let n = self.agents.len();
        if n == 0 || n > MAX_AGENTS {
            return Err(TournamentError::Agents(n));
        }
        if self.pairs == 0 || self.pairs > MAX_PAIRS {
            return Err(TournamentError::Pairs(self.pairs));
        }
        if self.opening_plies > MAX_OPENING_PLIES {
            return Err(TournamentError::OpeningPlies(self.opening_plies));
        }
        if self.pairings.is_empty() {
            return Err(TournamentError::Unlinked(self.agents[0].to_string()));
        }
        for &[a, b] in &self.pairings {
            if a >= n || b >= n {
                return Err(TournamentError::Pairing(a.max(b)));
            }
        }
        // Union-find over the games between different agents.
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut i: usize) -> usize {
            while root[i] != i {
                root[i] = root[root[i]];
                i = root[i];
            }
            i
        }
        for &[a, b] in &self.pairings {
            let (ra, rb) = (find(&mut root, a), find(&mut root, b));
            root[ra] = rb;
        }
        let r0 = find(&mut root, 0);
        for i in 0..n {
            if find(&mut root, i) != r0 {
                return Err(TournamentError::Unlinked(self.agents[i].to_string()));
            }
        }
        Ok(())
    }
}

/// How to run it (the results do not depend on it): the runner's options.
pub type TournamentOptions = RunOptions;

/// Why a tournament cannot run or stopped.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum TournamentError {
    /// Too few or too many agents.
    #[error("agents: {0} given; a tournament has 1 to {MAX_AGENTS}")]
    Agents(usize),
    /// Too few or too many pairs.
    #[error("pairs: {0} given; allowed 1 to {MAX_PAIRS}")]
    Pairs(u64),
    /// Too long an opening.
    #[error("opening plies: {0} given; allowed 0 to {MAX_OPENING_PLIES}")]
    OpeningPlies(u32),
    /// A pairing names an agent that is not there.
    #[error("pairings: no agent {0}")]
    Pairing(usize),
    /// An agent plays no one it could be rated against.
    #[error("agents: {0} is not linked to the others by any pairing")]
    Unlinked(String),
    /// The cancel flag was set.
    #[error("cancelled after {done} games")]
    Cancelled {
        /// Games finished.
        done: u64,
    },
    /// The thread pool could not be built.
    #[error("thread pool: {0}")]
    Threads(String),
    /// Too many games for one run.
    #[error(
        "games {start}..{end}: a run has 1 to {} games",
        crate::runner::MAX_GAMES
    )]
    Games {
        /// First game.
        start: u64,
        /// One past the last.
        end: u64,
    },
}

impl From<RunError> for TournamentError {
    fn from(e: RunError) -> Self {
        match e {
            RunError::Cancelled { done } => TournamentError::Cancelled { done },
            RunError::Threads(e) => TournamentError::Threads(e),
            RunError::Games { start, end } => TournamentError::Games { start, end },
            RunError::OpeningPlies(n) => TournamentError::OpeningPlies(n),
        }
    }
}

/// The result of a game, by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Won {
    /// The player who moved first at the start won.
    First,
    /// The other won.
    Second,
    /// Nobody.
    Draw,
}

impl Won {
    /// The first player's score: 1, ½ or 0.
    pub fn first_score(self) -> f64 {
        match self {
            Won::First => 1.0,
            Won::Second => 0.0,
            Won::Draw => 0.5,
        }
    }
}

/// One game of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentGame {
    /// Index of its pairing.
    pub pairing: usize,
    /// Its pair within the pairing.
    pub pair: u64,
    /// 0: the pairing's first agent moved first; 1: its second.
    pub game: u8,
    /// The pair's seed ([`pair_seed`]).
    pub seed: u64,
    /// The agent who moved first at the start (index).
    pub first: usize,
    /// The other agent (index).
    pub second: usize,
    /// Who won.
    pub result: Won,
    /// Why the game ended.
    pub reason: EndReason,
    /// Random opening plies played (fewer than asked only if the game ended in them).
    pub opening_plies: u32,
    /// Turns played (the opening's too).
    pub turns: u32,
    /// Moves as Ludii counts them.
    pub moves: u32,
    /// Decisions the agents made (after the opening).
    pub decisions: u32,
}

/// The CPU time an agent spent choosing (the CPU time of its `choose` calls on the thread that
/// played, [`crate::clock::thread_cpu`]): measured, so it varies from run to run, unlike the
/// games. Alpha-beta's analysis spreads over the pool; its `choose`, which games use, runs on
/// one thread, as MCTS does.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentTime {
    /// The agent.
    pub agent: String,
    /// Decisions made.
    pub decisions: u64,
    /// Seconds spent making them.
    pub seconds: f64,
    /// Milliseconds per decision.
    pub ms_per_decision: f64,
}

/// A tournament played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentRun {
    /// The games, by pairing, pair and game.
    pub games: Vec<TournamentGame>,
    /// Each agent's time per decision (not reproducible: a measurement).
    pub time: Vec<AgentTime>,
    /// The same within each pairing's games, its first named agent's then its second's: what
    /// each side spent against the other (an agent's overall figure mixes in its other games).
    pub pairing_time: Vec<[AgentTime; 2]>,
}

/// The seed of pair `k` of pairing `p` of a tournament seeded `seed`.
pub fn pair_seed(seed: u64, p: usize, k: u64) -> u64 {
    Rng::game_seed(Rng::game_seed(seed, p as u64), k)
}

/// A game played, with each agent's (decisions, seconds), the first player's first; `None`
/// if the run was asked to stop.
type Played = Option<(TournamentGame, [(u64, f64); 2])>;

/// Plays game `which` of pair `k` of pairing `p`; `None` if the run was asked to stop. Also
/// returns each agent's (decisions, seconds), the first player's first.
fn play_one<G: Game + 'static>(
    g: &G,
    spec: &TournamentSpec,
    p: usize,
    k: u64,
    which: u8,
) -> Played {
    let [a, b] = spec.pairings[p];
    let (first, second) = if which == 0 { (a, b) } else { (b, a) };
    let seed = pair_seed(spec.seed, p, k);
    let mut s = g.initial_state();
    let first_seat = g.to_move(&s).unwrap_or(Player::A);
    let mut opening = Rng::for_game(seed, 0);
    let mut plies = 0;
    while plies < spec.opening_plies {
        let Some(x) = g.random_action(&s, &mut opening) else {
            break;
        };
        g.apply_unchecked(&mut s, x);
        plies += 1;
    }
    let mut rng = Rng::for_game(seed, 1 + which as u64);
    let mut by_seat: [Option<Box<dyn Agent<G>>>; 2] = [None, None];
    by_seat[first_seat.index()] = Some(spec.agents[first].build());
    by_seat[first_seat.other().index()] = Some(spec.agents[second].build());
    let mut clock = [(0u64, 0f64); 2];
    let mut decisions = 0;
    while let Some(mover) = g.to_move(&s) {
        if crate::agents::stop::requested() {
            return None;
        }
        let agent = by_seat[mover.index()].as_mut()?;
        let t = crate::clock::thread_cpu();
        let x = agent.choose(g, &s, &mut rng);
        let c = &mut clock[usize::from(mover != first_seat)];
        c.0 += 1;
        c.1 += (crate::clock::thread_cpu() - t).as_secs_f64();
        g.apply_unchecked(&mut s, x);
        decisions += 1;
    }
    let o = g.outcome(&s)?;
    let result = match o.winner {
        Some(w) if w == first_seat => Won::First,
        Some(_) => Won::Second,
        None => Won::Draw,
    };
    Some((
        TournamentGame {
            pairing: p,
            pair: k,
            game: which,
            seed,
            first,
            second,
            result,
            reason: o.reason,
            opening_plies: plies,
            turns: o.turns,
            moves: g.moves(&s),
            decisions,
        },
        clock,
    ))
}

/// Plays the tournament on game `g`.
pub fn play<G: Game + 'static>(
    g: &G,
    spec: &TournamentSpec,
    opts: &TournamentOptions,
) -> Result<TournamentRun, TournamentError> {
    play_range(g, spec, 0..spec.games(), opts)
}

/// Where game `t` of a tournament is: its pairing, its pair and which game of the pair.
/// Games are numbered pairing by pairing, pair by pair, game 0 then game 1.
pub fn game_at(spec: &TournamentSpec, t: u64) -> (usize, u64, u8) {
    let per_pairing = 2 * spec.pairs.max(1);
    (
        (t / per_pairing) as usize,
        (t / 2) % spec.pairs.max(1),
        (t % 2) as u8,
    )
}

/// Plays games `range` of the tournament (numbered as [`game_at`] says; the progress callback
/// counts within the range). Each game depends only on the spec and its number, so the
/// ranges of a tournament cut any way give together the games of [`play`], and the agents'
/// times add up over them.
pub fn play_range<G: Game + 'static>(
    g: &G,
    spec: &TournamentSpec,
    range: Range<u64>,
    opts: &TournamentOptions,
) -> Result<TournamentRun, TournamentError> {
    spec.check()?;
    let range = range.start.min(spec.games())..range.end.min(spec.games());
    let runner = Runner::new(opts)?;
    let mut played: Vec<Played> = Vec::with_capacity((range.end - range.start) as usize);
    // One game a chunk: games between searching agents are long and of uneven length (and
    // the progress callback counts them one by one).
    runner.run(
        range,
        1,
        |ts| {
            let (p, k, which) = game_at(spec, ts.start);
            play_one(g, spec, p, k, which)
        },
        |_, r| played.push(r),
    )?;
    if played.iter().any(Option::is_none) {
        let done = played.iter().filter(|x| x.is_some()).count() as u64;
        return Err(TournamentError::Cancelled { done });
    }
    let mut time: Vec<AgentTime> = spec
        .agents
        .iter()
        .map(|a| AgentTime {
            agent: a.to_string(),
            ..AgentTime::default()
        })
        .collect();
    let mut pairing_time: Vec<[AgentTime; 2]> = spec
        .pairings
        .iter()
        .map(|pair| {
            pair.map(|a| AgentTime {
                agent: spec.agents[a].to_string(),
                ..AgentTime::default()
            })
        })
        .collect();
    let games = played
        .into_iter()
        .flatten()
        .map(|(game, clock)| {
            // Game 0 of a pair has the pairing's first named agent moving first.
            let sides = if game.game == 0 { [0, 1] } else { [1, 0] };
            for ((agent, side), (n, secs)) in
                [game.first, game.second].into_iter().zip(sides).zip(clock)
            {
                for t in [&mut time[agent], &mut pairing_time[game.pairing][side]] {
                    t.decisions += n;
                    t.seconds += secs;
                }
            }
            game
        })
        .collect();
    for t in time.iter_mut().chain(pairing_time.iter_mut().flatten()) {
        t.ms_per_decision = if t.decisions == 0 {
            0.0
        } else {
            1000.0 * t.seconds / t.decisions as f64
        };
    }
    Ok(TournamentRun {
        games,
        time,
        pairing_time,
    })
}

/// [`play`] on a game chosen at run time.
pub fn play_any(
    game: &AnyGame,
    spec: &TournamentSpec,
    opts: &TournamentOptions,
) -> Result<TournamentRun, TournamentError> {
    crate::with_game!(game, g => play(g, spec, opts))
}

/// [`play_range`] on a game chosen at run time.
pub fn play_range_any(
    game: &AnyGame,
    spec: &TournamentSpec,
    range: Range<u64>,
    opts: &TournamentOptions,
) -> Result<TournamentRun, TournamentError> {
    crate::with_game!(game, g => play_range(g, spec, range.clone(), opts))
}
