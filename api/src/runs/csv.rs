//! The CSV formats of a run, written alike by the command line and the service: `games.csv`
//! (one record per game, its columns [`GameRecord::COLUMNS`] beside the record), the tidy
//! summary (one metric per row) and the comparison table, each with its columns described once
//! (the data packages and the documentation read them here).
//!
//! [`GameRecord::COLUMNS`]: tsoro_engine::stats::GameRecord::COLUMNS

pub use tsoro_engine::columns::{Column, header};
use tsoro_engine::stats::Stats;
use tsoro_engine::stats::number::csv_float;
use tsoro_engine::stats::paired::{Paired, PairedMean, PairedProportion};

/// A run's data package's `sources`: the sources of ruleset `ruleset` (title and the
/// archive's URL), none when the archive does not hold it.
pub fn package_sources(ruleset: &str) -> Vec<serde_json::Value> {
    tsoro_corpus::Corpus::load()
        .ok()
        .and_then(|c| {
            let rec = c.rulesets.get(ruleset)?;
            Some(
                rec.sources
                    .iter()
                    .filter_map(|s| c.sources.get(s))
                    .map(|s| serde_json::json!({"title": s.title, "path": format!("/api/v1/sources/{}", s.id)}))
                    .collect(),
            )
        })
        .unwrap_or_default()
}

/// The columns of the tidy summary (`summary.csv`, `tsoro simulate --summary`).
pub const SUMMARY_FIELDS: &[Column] = &[
    Column::new("ruleset", "string", "the ruleset id"),
    Column::new("params", "object", "every parameter in force, as JSON"),
    Column::new("agents", "string", "the two agents, comma-separated"),
    Column::new(
        "seed",
        "integer",
        "the run's seed (an unsigned 64-bit number)",
    ),
    Column::new("games", "integer", "games played"),
    Column::new(
        "metric",
        "string",
        "the statistic (win rates are proportions of games; lengths in turns or Ludii moves)",
    ),
    Column::new("value", "number", "its value"),
    Column::new(
        "ci_low",
        "number",
        "lower end of its 95% interval (Wilson for proportions), when it has one",
    ),
    Column::new("ci_high", "number", "upper end of its 95% interval"),
];

/// The columns of the comparison table (`table.csv`, `tsoro compare --csv`): one row per run,
/// the differences from the first run (empty in its own row).
pub const COMPARE_FIELDS: &[Column] = &[
    Column::new("ruleset", "string", "the ruleset id"),
    Column::new("params", "object", "every parameter in force, as JSON"),
    Column::new("agents", "string", "the two agents, comma-separated"),
    Column::new("seed", "integer", "the seed shared by the runs"),
    Column::new("games", "integer", "games played"),
    Column::new(
        "first_mover_win_rate",
        "number",
        "proportion of games won by the player who moved first",
    ),
    Column::new(
        "first_mover_ci_low",
        "number",
        "lower end of its 95% Wilson interval",
    ),
    Column::new(
        "first_mover_ci_high",
        "number",
        "upper end of its 95% Wilson interval",
    ),
    Column::new("draw_rate", "number", "proportion of games drawn"),
    Column::new("turns_mean", "number", "mean game length, in turns"),
    Column::new(
        "turns_sd",
        "number",
        "standard deviation of the game length, in turns",
    ),
    Column::new(
        "moves_mean",
        "number",
        "mean game length, in moves as Ludii counts them",
    ),
    Column::new(
        "diff_first_mover",
        "number",
        "first-mover win rate minus the first run's, as a proportion, paired game by game",
    ),
    Column::new(
        "diff_first_mover_ci_low",
        "number",
        "lower end of its 95% interval (Newcombe's paired score interval)",
    ),
    Column::new(
        "diff_first_mover_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    Column::new(
        "diff_first_mover_p",
        "number",
        "two-sided p-value (McNemar's exact test of the discordant games)",
    ),
    Column::new(
        "diff_turns_mean",
        "number",
        "mean turns minus the first run's, in turns, paired game by game",
    ),
    Column::new(
        "diff_turns_mean_ci_low",
        "number",
        "lower end of its 95% interval (paired t)",
    ),
    Column::new(
        "diff_turns_mean_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    Column::new(
        "diff_turns_mean_p",
        "number",
        "two-sided p-value (paired t test)",
    ),
    Column::new(
        "identical_games",
        "integer",
        "games that are the same game as the first run's game of the same seed (every column equal)",
    ),
    Column::new(
        "diff_draws",
        "number",
        "draw rate minus the first run's, as a proportion, paired game by game",
    ),
    Column::new(
        "diff_draws_ci_low",
        "number",
        "lower end of its 95% interval (Newcombe's paired score interval)",
    ),
    Column::new(
        "diff_draws_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    Column::new(
        "diff_draws_p",
        "number",
        "two-sided p-value (McNemar's exact test of the discordant games)",
    ),
    Column::new(
        "diff_first_agent_wins",
        "number",
        "the first agent's win rate minus the first run's, as a proportion, paired game by game",
    ),
    Column::new(
        "diff_first_agent_wins_ci_low",
        "number",
        "lower end of its 95% interval (Newcombe's paired score interval)",
    ),
    Column::new(
        "diff_first_agent_wins_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    Column::new(
        "diff_first_agent_wins_p",
        "number",
        "two-sided p-value (McNemar's exact test of the discordant games)",
    ),
    Column::new(
        "diff_captures",
        "number",
        "mean capture events per game (both sides) minus the first run's, paired game by game",
    ),
    Column::new(
        "diff_captures_ci_low",
        "number",
        "lower end of its 95% interval (paired t)",
    ),
    Column::new(
        "diff_captures_ci_high",
        "number",
        "upper end of its 95% interval",
    ),
    Column::new(
        "diff_captures_p",
        "number",
        "two-sided p-value (paired t test)",
    ),
];

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
    w.write_record(SUMMARY_FIELDS.iter().map(|c| c.name))?;
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
    w.write_record(COMPARE_FIELDS.iter().map(|c| c.name))?;
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
            x.map(|x| [x.diff, x.ci.low, x.ci.high, x.p_value].map(csv_float))
                .unwrap_or_default()
        };
        let mean = |x: Option<&PairedMean>| {
            x.map(|x| [x.diff, x.ci.low, x.ci.high, x.p_value].map(csv_float))
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
