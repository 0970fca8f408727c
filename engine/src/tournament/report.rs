//! What a tournament says: ratings with intervals, the first-move advantage, and per pairing
//! the score by seat, draws and length with intervals; and its games and ratings as CSV.

use super::ratings::{self, Estimate, PairingPairs};
use super::{TournamentGame, TournamentSpec, Won};
use crate::columns::{Column, header};
use crate::rng::mix64;
use crate::stats::dist::t_quantile;
use crate::stats::interval::{Interval, score, wilson};
use serde::Serialize;
use std::fmt::Write as _;

/// An agent's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentRating {
    /// The agent.
    pub agent: String,
    /// Its Elo rating (the agents' mean is 0) and 95% interval.
    pub elo: f64,
    /// 95% bootstrap interval of the rating.
    pub ci: Interval,
    /// Games against other agents.
    pub games: u64,
    /// Its mean score in them (draws as half wins).
    pub score: f64,
}

/// One agent's results in one seat of a pairing, or over both seats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatScore {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Mean score (draws as half wins).
    pub score: f64,
    /// Its 95% interval: Wilson's in one seat (one game a pair, the pairs independent);
    /// over both seats, the percentile interval of a bootstrap over pairs ([`PairMean`]: the
    /// two games of a pair share an opening, so they are not independent).
    pub ci: Interval,
}

impl SeatScore {
    fn new() -> SeatScore {
        SeatScore {
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score: 0.0,
            ci: wilson(0, 0),
        }
    }

    fn add(&mut self, score: f64) {
        self.games += 1;
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    fn finish(&mut self) {
        let s = score(self.wins, self.draws, self.games);
        (self.score, self.ci) = (s.value, s.ci);
    }

    fn merged(&self, o: &SeatScore) -> SeatScore {
        let mut s = SeatScore {
            games: self.games + o.games,
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
            ..SeatScore::new()
        };
        s.finish();
        s
    }
}

/// A mean with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// Its 95% interval (in a tournament's report, the percentile interval of a bootstrap
    /// over pairs, inside the range of the values).
    pub ci: Interval,
}

/// A mean over the seat-swapped pairs of a pairing, each pair's value the mean of its two
/// games (which share an opening), with percentile intervals of a seeded bootstrap over the
/// pairs: inside the range of the values, whatever the sample.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairMean {
    /// Pairs.
    pub pairs: u64,
    /// The mean.
    pub mean: f64,
    /// Its 95% interval.
    pub ci: Interval,
    /// Its 90% interval (the two one-sided tests of an equivalence at 5%).
    pub ci90: Interval,
    /// The bootstrap's standard error.
    pub se: f64,
}

/// Percentile intervals of a bootstrap over pairs: for each of `values`' series (one value
/// a pair, every series the same length), its mean with 95% and 90% intervals, resampling the
/// same pairs for every series in each of `replicates` replicates drawn from `seed`.
pub fn pair_bootstrap<const K: usize>(
    values: &[[f64; K]],
    replicates: u32,
    seed: u64,
) -> [PairMean; K] {
    let n = values.len();
    let mean_of = |k: usize| {
        if n == 0 {
            0.0
        } else {
            values.iter().map(|v| v[k]).sum::<f64>() / n as f64
        }
    };
    let means: [f64; K] = std::array::from_fn(mean_of);
    let mut reps: [Vec<f64>; K] = std::array::from_fn(|_| Vec::with_capacity(replicates as usize));
    if n > 0 {
        let mut rng = crate::rng::Rng::from_seed(seed);
        for _ in 0..replicates {
            let mut sums = [0.0; K];
            for _ in 0..n {
                for (s, x) in sums.iter_mut().zip(&values[rng.below(n)]) {
                    *s += x;
                }
            }
            for (r, s) in reps.iter_mut().zip(sums) {
                r.push(s / n as f64);
            }
        }
    }
    std::array::from_fn(|k| {
        let r = &mut reps[k];
        r.sort_by(f64::total_cmp);
        let m = means[k];
        let at = |q: f64| {
            if r.is_empty() {
                m
            } else {
                r[((q * (r.len() - 1) as f64).round() as usize).min(r.len() - 1)]
            }
        };
        let se = if r.len() < 2 {
            0.0
        } else {
            let rm = r.iter().sum::<f64>() / r.len() as f64;
            (r.iter().map(|x| (x - rm).powi(2)).sum::<f64>() / (r.len() - 1) as f64).sqrt()
        };
        PairMean {
            pairs: n as u64,
            mean: m,
            ci: Interval {
                low: at(0.025),
                high: at(0.975),
            },
            ci90: Interval {
                low: at(0.05),
                high: at(0.95),
            },
            se,
        }
    })
}

impl Mean {
    /// The mean of `xs` with Student's t interval.
    pub fn of(xs: &[f64]) -> Mean {
        let n = xs.len() as f64;
        if xs.is_empty() {
            return Mean {
                mean: 0.0,
                ci: Interval {
                    low: 0.0,
                    high: 0.0,
                },
            };
        }
        let mean = xs.iter().sum::<f64>() / n;
        let var = if xs.len() > 1 {
            xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let half = t_quantile(0.975, (n - 1.0).max(1.0)) * (var / n).sqrt();
        Mean {
            mean,
            ci: Interval {
                low: mean - half,
                high: mean + half,
            },
        }
    }
}

/// One pairing's results, from its first agent's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingReport {
    /// Index of the pairing.
    pub pairing: usize,
    /// Its two agents (the same twice for self-play).
    pub agents: [String; 2],
    /// The first agent when it moved first (for self-play: the first player's results).
    pub first_agent_first: SeatScore,
    /// The first agent when it moved second.
    pub first_agent_second: SeatScore,
    /// The first agent over both seats (its interval over pairs: [`Self::first_agent_pairs`]).
    pub first_agent: SeatScore,
    /// The first agent's score over pairs, with its bootstrap intervals.
    pub first_agent_pairs: PairMean,
    /// The first player's results over the pairing's games (its interval over pairs:
    /// [`Self::first_player_pairs`]).
    pub first_player: SeatScore,
    /// The first player's score over pairs, with its bootstrap intervals.
    pub first_player_pairs: PairMean,
    /// Share of games drawn, with the 95% interval of a bootstrap over pairs.
    pub draws: Estimate,
    /// Turns per game, with the 95% interval of a bootstrap over pairs.
    pub turns: Mean,
    /// Distinct games among the pairing's, told apart by their records (who moved first, the
    /// result, why it ended, turns, moves and decisions): a lower bound. Few distinct games
    /// mean the pairing replays a few lines (deterministic agents without openings).
    pub distinct_games: u64,
}

/// A tournament's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentReport {
    /// How the ratings were fitted.
    pub method: &'static str,
    /// The agents' ratings.
    pub ratings: Vec<AgentRating>,
    /// The first mover's advantage in Elo points.
    pub first_move_elo: Estimate,
    /// Bootstrap replicates behind the intervals.
    pub bootstrap: u32,
    /// Every pairing.
    pub pairings: Vec<PairingReport>,
}

/// How the ratings are fitted, for reports.
pub const METHOD: &str = "Bradley-Terry with a first-move term, draws as half wins, fitted by \
maximum likelihood (Hunter's MM); 95% percentile intervals from a bootstrap over seat-swapped \
pairs within each pairing";

/// The report of a tournament's games (from [`super::play`]), with `bootstrap` replicates
/// What tells two games of a pairing apart in its count of distinct games: who moved first,
/// the result, why it ended, turns, moves and decisions.
type GameShape = (usize, u8, u8, u32, u32, u32);

/// drawn from a seed derived from the tournament's.
pub fn report(spec: &TournamentSpec, games: &[TournamentGame], bootstrap: u32) -> TournamentReport {
    let n = spec.agents.len();
    let mut pairs: Vec<PairingPairs> = spec
        .pairings
        .iter()
        .map(|&agents| PairingPairs {
            agents,
            pairs: vec![[0.5, 0.5]; spec.pairs as usize],
        })
        .collect();
    let mut seats: Vec<[SeatScore; 2]> = vec![[SeatScore::new(), SeatScore::new()]; pairs.len()];
    let mut turns: Vec<Vec<[f64; 2]>> = vec![vec![[0.0; 2]; spec.pairs as usize]; pairs.len()];
    let mut distinct: Vec<std::collections::HashSet<GameShape>> =
        vec![Default::default(); pairs.len()];
    let mut vs_others = vec![(0u64, 0.0f64); n];
    for g in games {
        let s = g.result.first_score();
        pairs[g.pairing].pairs[g.pair as usize][g.game as usize] = s;
        // The pairing's first agent's score in this game.
        let own = if g.game == 0 { s } else { 1.0 - s };
        seats[g.pairing][g.game as usize].add(own);
        turns[g.pairing][g.pair as usize][g.game as usize] = g.turns as f64;
        distinct[g.pairing].insert((
            g.first,
            g.result as u8,
            g.reason as u8,
            g.turns,
            g.moves,
            g.decisions,
        ));
        if g.first != g.second {
            vs_others[g.first].0 += 1;
            vs_others[g.first].1 += s;
            vs_others[g.second].0 += 1;
            vs_others[g.second].1 += 1.0 - s;
        }
    }
    let rated = ratings::rate(n, &pairs, bootstrap, mix64(spec.seed ^ 0xB007_5742));
    let mut all_first = 0.0;
    let pairings = seats
        .iter_mut()
        .enumerate()
        .map(|(p, [first, second])| {
            first.finish();
            second.finish();
            // The first player: the first agent's first-seat games and the second agent's.
            let mut fp = SeatScore {
                games: first.games + second.games,
                wins: first.wins + second.losses,
                draws: first.draws + second.draws,
                losses: first.losses + second.wins,
                ..SeatScore::new()
            };
            fp.finish();
            all_first += fp.score * fp.games as f64;
            let mut both = first.merged(second);
            // Per pair: the first agent's score, the first player's, and the turns, each the
            // mean of the pair's two games.
            let per_pair: Vec<[f64; 4]> = pairs[p]
                .pairs
                .iter()
                .zip(&turns[p])
                .map(|(&[s0, s1], &[t0, t1])| {
                    let drawn = |s: f64| f64::from(u8::from(s == 0.5));
                    [
                        (s0 + 1.0 - s1) / 2.0,
                        (s0 + s1) / 2.0,
                        (t0 + t1) / 2.0,
                        (drawn(s0) + drawn(s1)) / 2.0,
                    ]
                })
                .collect();
            let [agent_pairs, player_pairs, turn_pairs, draw_pairs] = pair_bootstrap(
                &per_pair,
                bootstrap,
                mix64(spec.seed ^ 0x9A1E_5EED ^ (p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            );
            both.ci = agent_pairs.ci;
            fp.ci = player_pairs.ci;
            let [a, b] = spec.pairings[p];
            PairingReport {
                pairing: p,
                agents: [spec.agents[a].to_string(), spec.agents[b].to_string()],
                draws: Estimate {
                    value: both.draws as f64 / both.games.max(1) as f64,
                    ci: draw_pairs.ci,
                },
                first_agent_first: first.clone(),
                first_agent_second: second.clone(),
                first_agent: both,
                first_agent_pairs: agent_pairs,
                first_player: fp,
                first_player_pairs: player_pairs,
                turns: Mean {
                    mean: turn_pairs.mean,
                    ci: turn_pairs.ci,
                },
                distinct_games: distinct[p].len() as u64,
            }
        })
        .collect();
    TournamentReport {
        method: METHOD,
        ratings: spec
            .agents
            .iter()
            .zip(&rated.elo)
            .zip(&vs_others)
            .map(|((a, e), &(games, score))| AgentRating {
                agent: a.to_string(),
                elo: e.value,
                ci: e.ci,
                games,
                score: if games == 0 {
                    0.0
                } else {
                    score / games as f64
                },
            })
            .collect(),
        first_move_elo: rated.first_move,
        bootstrap: rated.bootstrap,
        pairings,
    }
}

/// The columns of a tournament's `games.csv` ([`games_csv`]).
pub const GAME_COLUMNS: &[Column] = &[
    Column::new("pairing", "integer", "The pairing's index").min(0),
    Column::new("pair", "integer", "The pair within the pairing").min(0),
    Column::new(
        "game",
        "integer",
        "0: the pairing's first agent moved first; 1: its second",
    )
    .min(0),
    Column::new(
        "seed",
        "string",
        "The pair's seed (an unsigned 64-bit integer)",
    )
    .pattern("[0-9]+"),
    Column::new("first", "string", "The agent that moved first"),
    Column::new("second", "string", "The other agent"),
    Column::new("result", "string", "Who won, by seat").one_of(&["first", "second", "draw"]),
    Column::new("reason", "string", "Why the game ended"),
    Column::new("opening_plies", "integer", "Random opening plies played").min(0),
    Column::new("turns", "integer", "Turns played (the opening's too)").min(0),
    Column::new("moves", "integer", "Moves as Ludii counts them").min(0),
    Column::new("decisions", "integer", "Decisions the agents made").min(0),
];

/// The columns of a tournament's `ratings.csv` ([`ratings_csv`]).
pub const RATING_COLUMNS: &[Column] = &[
    Column::new(
        "term",
        "string",
        "rating (an agent's) or first_move (the first mover's advantage)",
    )
    .one_of(&["rating", "first_move"]),
    Column::new(
        "agent",
        "string",
        "The agent (empty for the first-move term)",
    ),
    Column::new("elo", "number", "Elo points (the agents' mean is 0)"),
    Column::new("elo_low", "number", "95% bootstrap interval, low end"),
    Column::new("elo_high", "number", "95% bootstrap interval, high end"),
    Column::new("games", "integer", "Games against other agents"),
    Column::new("score", "number", "Mean score in them (draws as half wins)"),
];

/// The games as CSV, one line each, with a header ([`GAME_COLUMNS`]).
pub fn games_csv(spec: &TournamentSpec, games: &[TournamentGame]) -> String {
    let mut out = header(GAME_COLUMNS) + "\n";
    for g in games {
        write_game_row(&mut out, spec, g);
    }
    out
}

/// Appends one game's line of `games.csv` to `out` (a stream of them, after the header of
/// [`GAME_COLUMNS`], is [`games_csv`]).
pub fn write_game_row(out: &mut String, spec: &TournamentSpec, g: &TournamentGame) {
    let _ = writeln!(
        out,
        "{},{},{},{},{},{},{},{},{},{},{},{}",
        g.pairing,
        g.pair,
        g.game,
        g.seed,
        spec.agents[g.first],
        spec.agents[g.second],
        match g.result {
            Won::First => "first",
            Won::Second => "second",
            Won::Draw => "draw",
        },
        g.reason.as_str(),
        g.opening_plies,
        g.turns,
        g.moves,
        g.decisions
    );
}

/// The ratings as CSV: one line per agent, then one for the first-move term (`agent` empty,
/// `term` `first_move`), with a header ([`RATING_COLUMNS`]).
pub fn ratings_csv(r: &TournamentReport) -> String {
    let mut out = header(RATING_COLUMNS) + "\n";
    for a in &r.ratings {
        let _ = writeln!(
            out,
            "rating,{},{:.1},{:.1},{:.1},{},{:.4}",
            a.agent, a.elo, a.ci.low, a.ci.high, a.games, a.score
        );
    }
    let f = &r.first_move_elo;
    let _ = writeln!(
        out,
        "first_move,,{:.1},{:.1},{:.1},,",
        f.value, f.ci.low, f.ci.high
    );
    out
}
