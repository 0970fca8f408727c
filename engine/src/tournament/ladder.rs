//! A ladder: one family of agents at rising strength (MCTS with doubling iterations, or
//! alpha-beta one turn deeper at each level), each level playing itself (its first-player
//! advantage) and the level above (the skill trace).

use super::TournamentSpec;
use super::report::{Mean, SeatScore, TournamentReport};
use crate::agents::{AgentSpec, Eval};
use crate::columns::{Column, header};
use crate::stats::interval::{Interval, wilson};
use serde::Serialize;
use std::fmt::Write as _;
use thiserror::Error;

/// The family a ladder climbs when none is named.
pub const DEFAULT_FAMILY: &str = "mcts";

/// The families that have a ladder.
pub const FAMILIES: [&str; 2] = ["mcts", "alphabeta"];

/// Largest MCTS iterations a ladder may reach (the agent syntax's limit).
pub const MAX_MCTS: u32 = crate::agents::MAX_ITERATIONS;
/// Largest alpha-beta depth (the agent syntax's limit).
pub const MAX_DEPTH: u32 = crate::agents::MAX_DEPTH;

/// A ladder's range that the agents' syntax does not allow.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum LadderError {
    /// Not a family that has a ladder.
    #[error("family: {0:?} has no ladder; known: mcts (iterations doubling), alphabeta (depth +1)")]
    Family(String),
    /// A bad lower end.
    #[error("from: {0}")]
    From(String),
    /// A bad upper end.
    #[error("to: {0}")]
    To(String),
}

/// The levels of a ladder of `family` from `from` to `to` (both included): MCTS iterations
/// `from, 2·from, 4·from, ... to` (so `to` must be `from` times a power of two), or alpha-beta
/// depths `from..=to`.
pub fn levels(family: &str, from: u32, to: u32) -> Result<Vec<AgentSpec>, LadderError> {
    match family {
        "mcts" => {
            if !(1..=MAX_MCTS).contains(&from) {
                return Err(LadderError::From(format!(
                    "{from} iterations; allowed 1 to {MAX_MCTS}"
                )));
            }
            if !(1..=MAX_MCTS).contains(&to) {
                return Err(LadderError::To(format!(
                    "{to} iterations; allowed 1 to {MAX_MCTS}"
                )));
            }
            if to <= from || !to.is_multiple_of(from) || !(to / from).is_power_of_two() {
                return Err(LadderError::To(format!(
                    "{to} is not {from} (from) times 2, 4, 8, ...: a ladder doubles"
                )));
            }
            let mut out = vec![];
            let mut n = from;
            while n <= to {
                out.push(AgentSpec::Mcts {
                    iterations: n,
                    c: std::f64::consts::SQRT_2,
                });
                n *= 2;
            }
            Ok(out)
        }
        "alphabeta" => {
            if !(1..=MAX_DEPTH).contains(&from) {
                return Err(LadderError::From(format!(
                    "depth {from}; allowed 1 to {MAX_DEPTH}"
                )));
            }
            if to <= from || to > MAX_DEPTH {
                return Err(LadderError::To(format!(
                    "depth {to}; allowed {} to {MAX_DEPTH}",
                    from + 1
                )));
            }
            Ok((from..=to)
                .map(|depth| AgentSpec::AlphaBeta {
                    depth,
                    eval: Eval::Material,
                })
                .collect())
        }
        other => Err(LadderError::Family(other.to_string())),
    }
}

/// The tournament of a ladder: each level against itself and against the next.
pub fn spec(levels: Vec<AgentSpec>, pairs: u64, seed: u64, opening_plies: u32) -> TournamentSpec {
    let n = levels.len();
    let mut pairings = vec![];
    for i in 0..n {
        pairings.push([i, i]);
        if i + 1 < n {
            pairings.push([i + 1, i]);
        }
    }
    TournamentSpec {
        agents: levels,
        pairings,
        pairs,
        seed,
        opening_plies,
    }
}

/// One rung.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rung {
    /// The agent.
    pub agent: String,
    /// The first player's results in its self-play.
    pub first_player: SeatScore,
    /// Share of its self-play drawn.
    pub draws: f64,
    /// Its 95% interval.
    pub draws_ci: Interval,
    /// Share decided (1 − draws).
    pub decisive: f64,
    /// Its 95% interval.
    pub decisive_ci: Interval,
    /// Turns per game of its self-play.
    pub turns: Mean,
    /// Its score against the level below (the skill trace; none for the lowest level).
    pub skill: Option<SeatScore>,
    /// Its rating in the ladder's fit.
    pub elo: f64,
    /// The rating's 95% interval.
    pub elo_ci: Interval,
}

/// A ladder's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderReport {
    /// The rungs, weakest first.
    pub rungs: Vec<Rung>,
    /// The first rung from which no doubling scores detectably more than its level below
    /// (every skill interval from there up holds 50%): the skill trace has flattened, and
    /// the first-player figures there are near the game's value at this family's play.
    pub flat_from: Option<String>,
    /// The first-move advantage over the whole ladder, in Elo points.
    pub first_move_elo: super::ratings::Estimate,
    /// What the skill trace says, in a sentence: whether it flattens, and from where.
    pub verdict: String,
}

/// The sentence saying whether a skill trace flattens (`flat_from`: the rung from which it
/// does).
fn verdict(flat_from: Option<&str>) -> String {
    match flat_from {
        Some(agent) => format!(
            "The skill trace flattens from {agent}: no doubling from there scores detectably \
             more than the level below (95% intervals hold 0.5); the first-player figures there \
             are near the game's value at this family's play."
        ),
        None => "The skill trace has not flattened: the top doubling still scores detectably \
                 more than the level below."
            .to_string(),
    }
}

/// The ladder's report from its tournament ([`spec`]) and that tournament's report.
pub fn report(spec: &TournamentSpec, t: &TournamentReport) -> LadderReport {
    let n = spec.agents.len();
    let mut rungs: Vec<Rung> = (0..n)
        .map(|i| {
            let p = spec
                .pairings
                .iter()
                .position(|&x| x == [i, i])
                .expect("a ladder plays every level against itself");
            let pr = &t.pairings[p];
            let draws = pr.first_player.draws;
            let games_n = pr.first_player.games;
            Rung {
                agent: spec.agents[i].to_string(),
                first_player: pr.first_player.clone(),
                draws: draws as f64 / games_n.max(1) as f64,
                draws_ci: wilson(draws, games_n),
                decisive: (games_n - draws) as f64 / games_n.max(1) as f64,
                decisive_ci: wilson(games_n - draws, games_n),
                turns: pr.turns,
                skill: None,
                elo: t.ratings[i].elo,
                elo_ci: t.ratings[i].ci,
            }
        })
        .collect();
    for (p, &[a, b]) in spec.pairings.iter().enumerate() {
        if a == b + 1 {
            rungs[a].skill = Some(t.pairings[p].first_agent.clone());
        }
    }
    // The lowest rung from which every skill interval holds one half.
    let mut flat = None;
    for i in (1..n).rev() {
        match &rungs[i].skill {
            Some(s) if s.ci.low <= 0.5 && 0.5 <= s.ci.high => flat = Some(i),
            _ => break,
        }
    }
    let flat_from = flat.map(|i| rungs[i].agent.clone());
    LadderReport {
        verdict: verdict(flat_from.as_deref()),
        flat_from,
        rungs,
        first_move_elo: t.first_move_elo,
    }
}

/// The columns of a ladder's `ladder.csv` ([`ladder_csv`]), weakest level first.
pub const LADDER_COLUMNS: &[Column] = &[
    Column::new("level", "integer", "The rung, 0 for the weakest").min(0),
    Column::new("agent", "string", "The agent at this level"),
    Column::new("games", "integer", "Games of its self-play").min(0),
    Column::new(
        "first_player",
        "number",
        "The first player's mean score in the level's self-play (draws as half wins)",
    ),
    Column::new("first_player_low", "number", "95% Wilson interval, low end"),
    Column::new(
        "first_player_high",
        "number",
        "95% Wilson interval, high end",
    ),
    Column::new("draws", "number", "Share of its self-play drawn"),
    Column::new("draws_low", "number", "95% Wilson interval, low end"),
    Column::new("draws_high", "number", "95% Wilson interval, high end"),
    Column::new("decisive", "number", "Share of its self-play decided"),
    Column::new("decisive_low", "number", "95% Wilson interval, low end"),
    Column::new("decisive_high", "number", "95% Wilson interval, high end"),
    Column::new("turns", "number", "Mean turns per game of its self-play"),
    Column::new("turns_low", "number", "95% t interval, low end"),
    Column::new("turns_high", "number", "95% t interval, high end"),
    Column::new(
        "skill",
        "number",
        "Its mean score against the level below, over both seats (the skill trace; empty for \
         the lowest level)",
    ),
    Column::new("skill_low", "number", "95% Wilson interval, low end"),
    Column::new("skill_high", "number", "95% Wilson interval, high end"),
    Column::new("skill_games", "integer", "Games against the level below").min(0),
    Column::new(
        "elo",
        "number",
        "Its Elo rating in the ladder's fit (the levels' mean is 0)",
    ),
    Column::new("elo_low", "number", "95% bootstrap interval, low end"),
    Column::new("elo_high", "number", "95% bootstrap interval, high end"),
    Column::new(
        "flat",
        "boolean",
        "Whether the skill trace has flattened at this level: from here up, no doubling scores \
         detectably more than the level below",
    ),
];

/// A ladder's rungs as CSV ([`LADDER_COLUMNS`]), one line each, weakest first: the first
/// player's score in the level's self-play, its draws, decisive share and length, each with
/// its 95% interval; its score against the level below (the skill trace; empty for the lowest
/// level) and its rating; `flat` is true from the rung where the trace flattens.
pub fn ladder_csv(l: &LadderReport) -> String {
    let mut out = header(LADDER_COLUMNS) + "\n";
    let flat_at = l
        .flat_from
        .as_ref()
        .and_then(|a| l.rungs.iter().position(|r| &r.agent == a));
    for (i, r) in l.rungs.iter().enumerate() {
        let fp = &r.first_player;
        let skill = r.skill.as_ref().map_or(",,,".to_string(), |s| {
            format!(
                "{:.4},{:.4},{:.4},{}",
                s.score, s.ci.low, s.ci.high, s.games
            )
        });
        let _ = writeln!(
            out,
            "{i},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.2},{:.2},{:.2},\
             {skill},{:.1},{:.1},{:.1},{}",
            r.agent,
            fp.games,
            fp.score,
            fp.ci.low,
            fp.ci.high,
            r.draws,
            r.draws_ci.low,
            r.draws_ci.high,
            r.decisive,
            r.decisive_ci.low,
            r.decisive_ci.high,
            r.turns.mean,
            r.turns.ci.low,
            r.turns.ci.high,
            r.elo,
            r.elo_ci.low,
            r.elo_ci.high,
            flat_at.is_some_and(|f| i >= f)
        );
    }
    out
}
