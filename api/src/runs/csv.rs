//! The CSV formats of a run, written alike by the command line and the service: `games.csv`
//! (one record per game), the tidy summary (one metric per row) and the comparison table, each
//! with its columns described once (the data packages and the documentation read them here).

use serde_json::{Value, json};
use tsoro_engine::stats::Stats;
use tsoro_engine::stats::paired::{Paired, PairedMean, PairedProportion};

/// A column: name, Frictionless type, description (with units).
pub type Column = (&'static str, &'static str, &'static str);

/// The columns of `games.csv`: name, Frictionless type, description (with units).
pub const GAME_FIELDS: &[Column] = &[
    ("game", "integer", "index of the game in the run, from 0"),
    (
        "seed",
        "integer",
        "the game's own seed (an unsigned 64-bit number), derived from (run seed, game) only",
    ),
    (
        "agent_a",
        "string",
        "the agent in seat A (rows i and ii), e.g. random, alphabeta:4",
    ),
    ("agent_b", "string", "the agent in seat B"),
    (
        "agent_a_index",
        "integer",
        "which of the run's two agents (0 or 1) sat in seat A",
    ),
    ("first", "string", "the seat that moved first (A or B)"),
    ("winner", "string", "A, B or draw"),
    (
        "reason",
        "string",
        "why the game ended: no_stones, no_moves, turn_limit, move_limit, endless_sowing, line, too_few_pieces, repetition",
    ),
    (
        "turns",
        "integer",
        "turns played (one player's whole go is a turn)",
    ),
    ("actions", "integer", "decisions made"),
    (
        "moves",
        "integer",
        "moves as Ludii counts them (each relay lap and each take is one)",
    ),
    (
        "captures_a",
        "integer",
        "capture events by seat A (lines made, in line games)",
    ),
    ("captures_b", "integer", "capture events by seat B"),
    (
        "stones_captured_a",
        "integer",
        "stones taken by seat A (captures and takes), in stones",
    ),
    (
        "stones_captured_b",
        "integer",
        "stones taken by seat B, in stones",
    ),
    (
        "stones_left_a",
        "integer",
        "stones left to seat A at the end, in stones",
    ),
    (
        "stones_left_b",
        "integer",
        "stones left to seat B at the end, in stones",
    ),
    (
        "longest_relay",
        "integer",
        "the longest sowing of one action, in laps",
    ),
    (
        "mean_branching",
        "number",
        "mean number of legal actions over the game's decisions",
    ),
    (
        "legal_sum",
        "integer",
        "legal-action counts summed over the decisions",
    ),
    (
        "multi_decisions",
        "integer",
        "decisions with more than one legal action",
    ),
];

/// The columns of the tidy summary (`summary.csv`, `tsoro simulate --summary`).
pub const SUMMARY_FIELDS: &[Column] = &[
    ("ruleset", "string", "the ruleset id"),
    ("params", "object", "every parameter in force, as JSON"),
    ("agents", "string", "the two agents, comma-separated"),
    (
        "seed",
        "integer",
        "the run's seed (an unsigned 64-bit number)",
    ),
    ("games", "integer", "games played"),
    (
        "metric",
        "string",
        "the statistic (win rates are proportions of games; lengths in turns or Ludii moves)",
    ),
    ("value", "number", "its value"),
    (
        "ci_low",
        "number",
        "lower end of its 95% interval (Wilson for proportions), when it has one",
    ),
    ("ci_high", "number", "upper end of its 95% interval"),
];

/// The columns of the comparison table (`table.csv`, `tsoro compare --csv`): one row per run,
/// the differences from the first run (empty in its own row).
pub const COMPARE_FIELDS: &[Column] = &[
    ("ruleset", "string", "the ruleset id"),
    ("params", "object", "every parameter in force, as JSON"),
    ("agents", "string", "the two agents, comma-separated"),
    ("seed", "integer", "the seed shared by the runs"),
    ("games", "integer", "games played"),
    (
        "first_mover_win_rate",
        "number",
        "proportion of games won by the player who moved first",
    ),
    (
        "first_mover_ci_low",
        "number",
        "lower end of its 95% Wilson interval",
    ),
    (
        "first_mover_ci_high",
        "number",
        "upper end of its 95% Wilson interval",
    ),
    ("draw_rate", "number", "proportion of games drawn"),
    ("turns_mean", "number", "mean game length, in turns"),
    (
        "turns_sd",
        "number",
        "standard deviation of the game length, in turns",
    ),
    (
        "moves_mean",
        "number",
        "mean game length, in moves as Ludii counts them",
    ),
    (
        "diff_first_mover",
        "number",
        "first-mover win rate minus the first run's, as a proportion, paired game by game",
    ),
    (
        "diff_first_mover_ci_low",
        "number",
        "lower end of its 95% interval (Newcombe's paired score interval)",
    ),
    (
        "diff_first_mover_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    (
        "diff_first_mover_p",
        "number",
        "two-sided p-value (McNemar's exact test of the discordant games)",
    ),
    (
        "diff_turns_mean",
        "number",
        "mean turns minus the first run's, in turns, paired game by game",
    ),
    (
        "diff_turns_mean_ci_low",
        "number",
        "lower end of its 95% interval (paired t)",
    ),
    (
        "diff_turns_mean_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    (
        "diff_turns_mean_p",
        "number",
        "two-sided p-value (paired t test)",
    ),
    (
        "identical_games",
        "integer",
        "games that are the same game as the first run's game of the same seed (every column equal)",
    ),
    (
        "diff_draws",
        "number",
        "draw rate minus the first run's, as a proportion, paired game by game",
    ),
    (
        "diff_draws_ci_low",
        "number",
        "lower end of its 95% interval (Newcombe's paired score interval)",
    ),
    (
        "diff_draws_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    (
        "diff_draws_p",
        "number",
        "two-sided p-value (McNemar's exact test of the discordant games)",
    ),
    (
        "diff_first_agent_wins",
        "number",
        "the first agent's win rate minus the first run's, as a proportion, paired game by game",
    ),
    (
        "diff_first_agent_wins_ci_low",
        "number",
        "lower end of its 95% interval (Newcombe's paired score interval)",
    ),
    (
        "diff_first_agent_wins_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    (
        "diff_first_agent_wins_p",
        "number",
        "two-sided p-value (McNemar's exact test of the discordant games)",
    ),
    (
        "diff_captures",
        "number",
        "mean capture events per game (both sides) minus the first run's, paired game by game",
    ),
    (
        "diff_captures_ci_low",
        "number",
        "lower end of its 95% interval (paired t)",
    ),
    (
        "diff_captures_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    (
        "diff_captures_p",
        "number",
        "two-sided p-value (paired t test)",
    ),
];

/// A CSV header: the columns' names, comma-separated.
pub fn header(columns: &[Column]) -> String {
    columns
        .iter()
        .map(|(name, _, _)| *name)
        .collect::<Vec<_>>()
        .join(",")
}

/// The Frictionless field descriptors of these columns.
pub fn frictionless_fields(columns: &[Column]) -> Vec<Value> {
    columns
        .iter()
        .map(|(n, t, d)| json!({"name": n, "type": t, "description": d}))
        .collect()
}

/// What identifies a run in the CSV exports: ruleset, parameters in force, agents, seed.
#[derive(Clone, Debug)]
pub struct RunLabel {
    /// The ruleset id.
    pub ruleset: String,
    /// Every parameter in force, as JSON.
    pub params: serde_json::Value,
    /// The two agents, `a,b`.
    pub agents: String,
    /// The run's seed.
    pub seed: u64,
}

/// The tidy summary CSV (one metric per row, with its interval) of a run.
pub fn summary_csv<W: std::io::Write>(
    out: W,
    label: &RunLabel,
    s: &Stats,
) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(SUMMARY_FIELDS.iter().map(|(name, _, _)| *name))?;
    let params = label.params.to_string();
    let seed = label.seed.to_string();
    let games = s.games.to_string();
    for (metric, value, ci) in summary_rows(s) {
        let (lo, hi) = ci
            .map(|c| (c.low.to_string(), c.high.to_string()))
            .unwrap_or_default();
        w.write_record([
            label.ruleset.as_str(),
            &params,
            &label.agents,
            &seed,
            &games,
            &metric,
            &value.to_string(),
            &lo,
            &hi,
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// The metrics of a run as (name, value, interval).
pub fn summary_rows(
    s: &Stats,
) -> Vec<(String, f64, Option<tsoro_engine::stats::interval::Interval>)> {
    let mut v = vec![];
    for (i, a) in s.agents.iter().enumerate() {
        v.push((format!("agent{}_win_rate", i + 1), a.win_rate, Some(a.ci)));
        v.push((
            format!("agent{}_win_rate_as_a", i + 1),
            a.as_a.win_rate,
            None,
        ));
        v.push((
            format!("agent{}_win_rate_as_b", i + 1),
            a.as_b.win_rate,
            None,
        ));
    }
    v.push(("seat_a_win_rate".into(), s.seat_a.rate, Some(s.seat_a.ci)));
    v.push(("seat_b_win_rate".into(), s.seat_b.rate, Some(s.seat_b.ci)));
    v.push((
        "first_mover_win_rate".into(),
        s.first_mover.rate,
        Some(s.first_mover.ci),
    ));
    v.push(("draw_rate".into(), s.draws.rate, Some(s.draws.ci)));
    for (k, n) in &s.draw_reasons {
        v.push((format!("draws_{k}"), *n as f64, None));
    }
    for (name, d) in [("turns", &s.turns), ("moves", &s.moves)] {
        v.push((format!("{name}_mean"), d.mean, None));
        v.push((format!("{name}_sd"), d.sd, None));
        v.push((format!("{name}_median"), d.median as f64, None));
        v.push((format!("{name}_p10"), d.p10 as f64, None));
        v.push((format!("{name}_p90"), d.p90 as f64, None));
        v.push((format!("{name}_min"), d.min as f64, None));
        v.push((format!("{name}_max"), d.max as f64, None));
    }
    v.push(("captures_per_game_a".into(), s.captures_per_game[0], None));
    v.push(("captures_per_game_b".into(), s.captures_per_game[1], None));
    v.push((
        "stones_captured_per_game_a".into(),
        s.stones_captured_per_game[0],
        None,
    ));
    v.push((
        "stones_captured_per_game_b".into(),
        s.stones_captured_per_game[1],
        None,
    ));
    v.push(("branching_factor".into(), s.branching, None));
    v.push(("longest_relay".into(), s.longest_relay as f64, None));
    let l = &s.ludii;
    for (k, x) in [
        ("AdvantageP1", l.advantage_p1),
        ("Balance", l.balance),
        ("Completion", l.completion),
        ("Drawishness", l.drawishness),
        ("Timeouts", l.timeouts),
        ("DurationTurns", l.duration_turns),
        ("DurationMoves", l.duration_moves),
        ("BranchingFactor", l.branching_factor),
        ("DecisionMoves", l.decision_moves),
    ] {
        v.push((k.to_string(), x, None));
    }
    v
}

/// The comparison table as CSV: one row per run; each later run's differences from the
/// first, paired game by game ([`Paired`]).
pub fn compare_csv<W: std::io::Write>(
    out: W,
    runs: &[RunLabel],
    stats: &[Stats],
    diffs: &[Paired],
) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(COMPARE_FIELDS.iter().map(|(name, _, _)| *name))?;
    for (i, (p, s)) in runs.iter().zip(stats).enumerate() {
        let d = if i == 0 { None } else { diffs.get(i - 1) };
        let mut row = vec![
            p.ruleset.clone(),
            p.params.to_string(),
            p.agents.clone(),
            p.seed.to_string(),
            s.games.to_string(),
            s.first_mover.rate.to_string(),
            s.first_mover.ci.low.to_string(),
            s.first_mover.ci.high.to_string(),
            s.draws.rate.to_string(),
            s.turns.mean.to_string(),
            s.turns.sd.to_string(),
            s.moves.mean.to_string(),
        ];
        let prop = |x: Option<&PairedProportion>| {
            x.map(|x| [x.diff, x.ci.low, x.ci.high, x.p_value].map(|v| v.to_string()))
                .unwrap_or_default()
        };
        let mean = |x: Option<&PairedMean>| {
            x.map(|x| [x.diff, x.ci.low, x.ci.high, x.p_value].map(|v| v.to_string()))
                .unwrap_or_default()
        };
        row.extend(prop(d.map(|d| &d.first_mover)));
        row.extend(mean(d.map(|d| &d.turns)));
        row.push(d.map(|d| d.identical.to_string()).unwrap_or_default());
        row.extend(prop(d.map(|d| &d.draws)));
        row.extend(prop(d.map(|d| &d.first_agent_wins)));
        row.extend(mean(d.map(|d| &d.captures)));
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{GAME_FIELDS, header};
    use std::sync::Arc;
    use tsoro_engine::stats::{GameRecord, Winner};
    use tsoro_engine::{EndReason, Player};

    /// The header is the one serde writes for a record: the columns' names and order are the
    /// record's fields.
    #[test]
    fn the_header_is_the_records_fields() {
        let r = GameRecord {
            game: 0,
            seed: 0,
            agent_a: Arc::from("random"),
            agent_b: Arc::from("random"),
            agent_a_index: 0,
            first: Player::A,
            winner: Winner::Draw,
            reason: EndReason::NoMoves,
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
        let mut w = csv::Writer::from_writer(vec![]);
        w.serialize(&r).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next(), Some(header(GAME_FIELDS).as_str()));
    }
}
