//! A ladder: one family of agents at rising strength (MCTS with doubling iterations, or
//! alpha-beta one turn deeper at each level), each level playing itself (its first-player
//! advantage) and the level above (the skill trace).

use super::TournamentSpec;
use super::report::{Mean, PairMean, SeatScore, TournamentReport};
use crate::agents::{AgentSpec, Eval};
use crate::columns::{Column, header};
use crate::stats::dist::normal_quantile;
use crate::stats::interval::{Interval, z95};
use crate::stats::number::no_minus_zero;
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

/// The equivalence margin of a doubling: the trace is called flat only where every doubling's
/// gain is shown to be under this many Elo points either way.
pub const MARGIN_ELO: f64 = 30.0;

/// Fewest pairs a doubling needs before an equivalence is claimed from its bootstrap interval
/// (with fewer, a sample whose pairs happen to agree gives a spuriously narrow interval).
pub const MIN_EQUIVALENCE_PAIRS: u64 = 30;

/// The Elo difference of a mean score `s` (`400 log₁₀(s / (1 − s))`), infinite at 0 and 1.
pub fn elo_of(s: f64) -> f64 {
    400.0 * (s / (1.0 - s)).log10()
}

/// The mean score of an Elo difference `e`.
pub fn score_of(e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-e / 400.0))
}

/// What one doubling (a level against the level below, over pairs) shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Doubling {
    /// Pairs played.
    pub pairs: u64,
    /// The gain in Elo points (from the mean score over pairs).
    pub elo: f64,
    /// Its 95% interval (the score's bootstrap interval over pairs, on the Elo scale).
    pub elo_ci: Interval,
    /// Its 90% interval: the two one-sided tests at 5% of the equivalence.
    pub elo_ci90: Interval,
    /// The 95% interval lies above one half: the doubling gains detectably.
    pub gains: bool,
    /// The 90% interval lies inside ±[`MARGIN_ELO`] (and at least [`MIN_EQUIVALENCE_PAIRS`]
    /// pairs): the gain is shown to be under the margin.
    pub equivalent: bool,
    /// The gain that would go unseen: a test at 5% two-sided detects a true gain of this
    /// many Elo points with 80% power at this sample size ((1.96 + 0.84) standard errors of
    /// the score over pairs).
    pub unseen_below_elo: f64,
}

impl Doubling {
    /// From the level's score against the level below, over pairs.
    pub fn of(s: &PairMean) -> Doubling {
        let on_elo = |i: Interval| Interval {
            low: elo_of(i.low),
            high: elo_of(i.high),
        };
        let elo_ci90 = on_elo(s.ci90);
        Doubling {
            pairs: s.pairs,
            elo: elo_of(s.mean),
            elo_ci: on_elo(s.ci),
            elo_ci90,
            gains: s.ci.low > 0.5,
            equivalent: s.pairs >= MIN_EQUIVALENCE_PAIRS
                && -MARGIN_ELO < elo_ci90.low
                && elo_ci90.high < MARGIN_ELO,
            unseen_below_elo: elo_of((0.5 + (z95() + normal_quantile(0.8)) * s.se).min(1.0)),
        }
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
    /// Its score against the level below (the skill trace; none for the lowest level), its
    /// interval from a bootstrap over pairs.
    pub skill: Option<SeatScore>,
    /// That doubling's gain in Elo and what it shows (none for the lowest level).
    pub doubling: Option<Doubling>,
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
    /// The first rung from which every doubling is shown to gain less than [`MARGIN_ELO`]
    /// (an equivalence test: its 90% interval inside the margin): the skill trace has
    /// flattened, and the first-player figures there are near the game's value at this
    /// family's play. None when that is not shown, whether or not a gain was detected.
    pub flat_from: Option<String>,
    /// The first-move advantage over the whole ladder, in Elo points.
    pub first_move_elo: super::ratings::Estimate,
    /// What the skill trace says, in a sentence: whether it flattens, and from where.
    pub verdict: String,
}

/// The sentence saying what the skill trace shows: flat from a rung (every doubling from there
/// inside the equivalence margin), still gaining (the top doubling gains detectably), or
/// neither, with the gain that would go unseen at this sample size.
fn verdict(rungs: &[Rung], flat_from: Option<usize>) -> String {
    if let Some(i) = flat_from {
        return format!(
            "The skill trace flattens from {}: every doubling from there gains less than \
             {MARGIN_ELO:.0} Elo (an equivalence test: each 90% interval, from a bootstrap over \
             pairs, lies inside ±{MARGIN_ELO:.0} Elo); the first-player figures there are near \
             the game's value at this family's play.",
            rungs[i].agent
        );
    }
    let Some((top, d)) = rungs
        .iter()
        .rev()
        .find_map(|r| r.doubling.as_ref().map(|d| (r, d)))
    else {
        return "A ladder of one level has no skill trace.".to_string();
    };
    let gain = format!(
        "{} over the level below: {:+.0} Elo [{:.0}, {:.0}] with {} pairs",
        top.agent,
        no_minus_zero(d.elo, 0),
        no_minus_zero(d.elo_ci.low, 0),
        no_minus_zero(d.elo_ci.high, 0),
        d.pairs
    );
    if d.gains {
        format!(
            "The skill trace has not flattened: the top doubling still gains detectably ({gain})."
        )
    } else {
        format!(
            "Flatness is not shown: no gain detected at the top doubling ({gain}), but a gain \
             under ~{:.0} Elo a doubling would go unseen at this sample size (80% power), and \
             the trace is called flat only when every later doubling's 90% interval lies \
             inside ±{MARGIN_ELO:.0} Elo{}.",
            d.unseen_below_elo,
            if d.pairs < MIN_EQUIVALENCE_PAIRS {
                format!(" with at least {MIN_EQUIVALENCE_PAIRS} pairs")
            } else {
                String::new()
            }
        )
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
                draws_ci: pr.draws.ci,
                decisive: (games_n - draws) as f64 / games_n.max(1) as f64,
                decisive_ci: Interval {
                    low: 1.0 - pr.draws.ci.high,
                    high: 1.0 - pr.draws.ci.low,
                },
                turns: pr.turns,
                skill: None,
                doubling: None,
                elo: t.ratings[i].elo,
                elo_ci: t.ratings[i].ci,
            }
        })
        .collect();
    for (p, &[a, b]) in spec.pairings.iter().enumerate() {
        if a == b + 1 {
            rungs[a].skill = Some(t.pairings[p].first_agent.clone());
            rungs[a].doubling = Some(Doubling::of(&t.pairings[p].first_agent_pairs));
        }
    }
    // The lowest rung from which every doubling is shown to be inside the margin.
    let mut flat = None;
    for i in (1..n).rev() {
        match &rungs[i].doubling {
            Some(d) if d.equivalent => flat = Some(i),
            _ => break,
        }
    }
    let flat_from = flat.map(|i| rungs[i].agent.clone());
    LadderReport {
        verdict: verdict(&rungs, flat),
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
    Column::new(
        "first_player_low",
        "number",
        "95% interval (bootstrap over pairs), low end",
    ),
    Column::new(
        "first_player_high",
        "number",
        "95% interval (bootstrap over pairs), high end",
    ),
    Column::new("draws", "number", "Share of its self-play drawn"),
    Column::new(
        "draws_low",
        "number",
        "95% interval (bootstrap over pairs), low end",
    ),
    Column::new(
        "draws_high",
        "number",
        "95% interval (bootstrap over pairs), high end",
    ),
    Column::new("decisive", "number", "Share of its self-play decided"),
    Column::new(
        "decisive_low",
        "number",
        "95% interval (bootstrap over pairs), low end",
    ),
    Column::new(
        "decisive_high",
        "number",
        "95% interval (bootstrap over pairs), high end",
    ),
    Column::new("turns", "number", "Mean turns per game of its self-play"),
    Column::new(
        "turns_low",
        "number",
        "95% interval (bootstrap over pairs), low end",
    ),
    Column::new(
        "turns_high",
        "number",
        "95% interval (bootstrap over pairs), high end",
    ),
    Column::new(
        "skill",
        "number",
        "Its mean score against the level below, over both seats (the skill trace; empty for \
         the lowest level)",
    ),
    Column::new(
        "skill_low",
        "number",
        "95% interval (bootstrap over pairs), low end",
    ),
    Column::new(
        "skill_high",
        "number",
        "95% interval (bootstrap over pairs), high end",
    ),
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
        "Whether the skill trace has flattened at this level: from here up, every doubling is \
         shown to gain less than 30 Elo (its 90% interval inside ±30 Elo)",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::EndReason;
    use crate::rng::Rng;
    use crate::tournament::report::report as tournament_report;
    use crate::tournament::{TournamentGame, Won};

    /// The games of a three-level MCTS ladder of `pairs` pairs in which each level scores
    /// `gain` against the level below (each game independent) and self-play is even; the
    /// turns of a game are `turns(game)`.
    fn ladder(
        pairs: u64,
        gain: f64,
        seed: u64,
        turns: impl Fn(u64) -> u32,
    ) -> (TournamentSpec, LadderReport) {
        let spec = spec(levels("mcts", 16, 64).unwrap(), pairs, seed, 0);
        let mut rng = Rng::from_seed(seed);
        let mut games = vec![];
        for (p, &[a, b]) in spec.pairings.iter().enumerate() {
            for k in 0..pairs {
                for which in 0..2u8 {
                    let p_first_agent = if a == b { 0.5 } else { gain };
                    let first_agent_wins = rng.unit() < p_first_agent;
                    let result = match (which, first_agent_wins) {
                        (0, true) | (1, false) => Won::First,
                        _ => Won::Second,
                    };
                    let (first, second) = if which == 0 { (a, b) } else { (b, a) };
                    let t = turns(games.len() as u64);
                    games.push(TournamentGame {
                        pairing: p,
                        pair: k,
                        game: which,
                        seed: k,
                        first,
                        second,
                        result,
                        reason: EndReason::NoStones,
                        opening_plies: 0,
                        turns: t,
                        moves: t,
                        decisions: t,
                    });
                }
            }
        }
        let t = tournament_report(&spec, &games, 1000);
        let l = report(&spec, &t);
        (spec, l)
    }

    /// A trace that still gains about 108 Elo a doubling is never called flat: with 20 pairs
    /// the gain often goes undetected, and the verdict then says what would go unseen; with
    /// 200 pairs it is detected.
    #[test]
    fn a_trace_that_gains_is_not_called_flat() {
        let gain = score_of(108.0);
        let mut undetected = 0;
        for seed in 0..20 {
            let (_, l) = ladder(20, gain, seed, |_| 40);
            assert_eq!(l.flat_from, None, "seed {seed}: {}", l.verdict);
            assert!(!l.verdict.contains("flattens"), "{}", l.verdict);
            let d = l.rungs[2].doubling.as_ref().unwrap();
            assert!(!d.equivalent);
            if !d.gains {
                undetected += 1;
                assert!(
                    l.verdict.contains("would go unseen") && l.verdict.contains("with 20 pairs"),
                    "{}",
                    l.verdict
                );
                // The unseen gain is large at 20 pairs: over 100 Elo.
                assert!(d.unseen_below_elo > 100.0, "{d:?}");
            }
        }
        assert!(undetected > 0, "20 pairs should miss the gain sometimes");
        let (_, l) = ladder(200, gain, 3, |_| 40);
        assert_eq!(l.flat_from, None);
        assert!(l.verdict.contains("has not flattened"), "{}", l.verdict);
    }

    /// A trace that gains nothing is called flat only with enough pairs to show the gain is
    /// under the margin.
    #[test]
    fn a_flat_trace_is_flat_with_enough_pairs() {
        let (_, l) = ladder(20, 0.5, 7, |_| 40);
        assert_eq!(l.flat_from, None, "{}", l.verdict);
        assert!(l.verdict.contains("Flatness is not shown"), "{}", l.verdict);
        let (_, l) = ladder(1500, 0.5, 7, |_| 40);
        assert_eq!(l.flat_from.as_deref(), Some("mcts:32"), "{}", l.verdict);
        assert!(l.verdict.contains("flattens from mcts:32"), "{}", l.verdict);
        let csv = ladder_csv(&l);
        let flat: Vec<&str> = csv
            .lines()
            .skip(1)
            .map(|r| r.rsplit(',').next().unwrap())
            .collect();
        assert_eq!(flat, ["false", "true", "true"]);
    }

    /// No interval with an impossible end: a skewed length (mostly 17 turns, a few of 3,000)
    /// over 20 pairs keeps its interval inside the values' range, and the score's inside
    /// [0, 1].
    #[test]
    fn intervals_stay_inside_the_possible() {
        let (_, l) = ladder(20, 0.9, 1, |i| if i % 37 == 0 { 3000 } else { 17 });
        for r in &l.rungs {
            assert!(r.turns.ci.low >= 17.0 && r.turns.ci.high <= 3000.0, "{r:?}");
            assert!(r.turns.ci.low <= r.turns.mean && r.turns.mean <= r.turns.ci.high);
            let s = &r.first_player;
            assert!(0.0 <= s.ci.low && s.ci.high <= 1.0);
            assert!(0.0 <= r.draws_ci.low && r.decisive_ci.high <= 1.0);
        }
    }

    #[test]
    fn elo_and_score_invert() {
        for e in [-300.0, -30.0, 0.0, 30.0, 108.0] {
            assert!((elo_of(score_of(e)) - e).abs() < 1e-9);
        }
        assert_eq!(format!("{:.0}", no_minus_zero(-0.4, 0)), "0");
        assert_eq!(format!("{:.1}", no_minus_zero(-0.04, 1)), "0.0");
        assert_eq!(format!("{:.0}", no_minus_zero(-0.6, 0)), "-1");
    }
}
