//! `tsoro simulate` and `tsoro compare`: seeded simulations from the command line, no database.

use crate::jobs::export::games_header;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Params, RulesetDef};
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
use tsoro_engine::stats::csv_line;
use tsoro_engine::stats::{Comparison, GameRecord, Stats, compare};

/// Options shared by `simulate` and `compare`.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// A ruleset parameter, `name=value` (repeatable), e.g. `--param holes=12`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// The two agents, comma-separated: random, greedy, alphabeta:D, mcts:N.
    #[arg(long, default_value = "random,random")]
    pub agents: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The run's seed: game k depends only on (seed, k).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core). The numbers do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Turns after which a game is a draw (overrides the ruleset's).
    #[arg(long)]
    pub turn_limit: Option<u32>,
    /// Keep each agent in its seat instead of swapping every other game.
    #[arg(long)]
    pub fixed_seats: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Play every game action by action through the reference rules instead of the fast
    /// kernel (random agents play on the kernel where it models the rules): the records are
    /// the same, byte for byte; this checks it.
    #[arg(long)]
    pub reference: bool,
}

/// Arguments of `tsoro simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The ruleset id (see `tsoro rulesets`).
    #[arg(long)]
    pub ruleset: String,
    #[command(flatten)]
    pub run: RunArgs,
    /// Write every game's record here as CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the summary statistics here as CSV (one metric per row).
    #[arg(long)]
    pub summary: Option<PathBuf>,
}

/// Arguments of `tsoro compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Rulesets to compare on the same seeds, comma-separated.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub rulesets: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Write the comparison table here as CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

/// Bad input: a one-line message, exit status 2.
fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// A checked run: ruleset, parameters and simulation spec.
struct Prepared {
    def: &'static RulesetDef,
    params: Params,
    game: tsoro_engine::AnyGame,
    spec: SimSpec,
    opts: SimOptions,
}

fn prepare(id: &str, run: &RunArgs) -> Result<Prepared, String> {
    let def = catalogue::get(id).map_err(|e| e.to_string())?;
    let mut params = def
        .parse_params(run.params.iter().map(String::as_str))
        .map_err(|e| e.to_string())?;
    if let Some(t) = run.turn_limit {
        let spec = def
            .params
            .iter()
            .find(|p| p.name == "turn_limit")
            .ok_or_else(|| format!("{id} has no turn limit parameter"))?;
        let v = serde_json::Value::from(t);
        spec.check(&v).map_err(|e| e.to_string())?;
        params.insert("turn_limit".into(), v);
    }
    let game = def.build(&params).map_err(|e| match e {
        catalogue::ParamError::NotAGame { .. } => {
            format!("{e}; `tsoro simulate --ruleset {id}` runs it")
        }
        e => e.to_string(),
    })?;
    let agents: Vec<AgentSpec> = run
        .agents
        .split(',')
        .map(|a| a.parse::<AgentSpec>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let agents: [AgentSpec; 2] = match agents.as_slice() {
        [a] => [*a, *a],
        [a, b] => [*a, *b],
        _ => {
            return Err(format!(
                "--agents takes one or two agents, got {}",
                run.agents
            ));
        }
    };
    if run.games == 0 || run.games > tsoro_engine::sim::MAX_GAMES {
        return Err(format!(
            "--games {}: allowed 1 to {}",
            run.games,
            tsoro_engine::sim::MAX_GAMES
        ));
    }
    if run.threads == Some(0) || run.threads.is_some_and(|t| t > 1024) {
        return Err("--threads: allowed 1 to 1024".into());
    }
    Ok(Prepared {
        def,
        params,
        game,
        spec: SimSpec {
            agents,
            games: 0..run.games,
            seed: run.seed,
            swap_seats: !run.fixed_seats,
        },
        opts: SimOptions {
            threads: run.threads.unwrap_or(0),
            reference: run.reference,
            ..SimOptions::default()
        },
    })
}

pub(crate) fn progress_bar(total: u64, label: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(total);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message(label.to_string());
    Some(pb)
}

fn execute(p: &Prepared, sink: &mut dyn FnMut(&GameRecord)) -> Result<Stats, String> {
    let mut opts = p.opts.clone();
    let pb = progress_bar(p.spec.games.end - p.spec.games.start, &p.def.id);
    if let Some(pb) = &pb {
        let pb = pb.clone();
        opts.progress = Some(Arc::new(move |done, _| pb.set_position(done)));
    }
    let summary = simulate_any(&p.game, &p.spec, &opts, sink).map_err(|e| e.to_string())?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    Ok(summary.stats())
}

/// Runs `tsoro simulate`.
pub fn run_simulate(args: &SimulateArgs) -> ExitCode {
    if let Ok(def) = catalogue::get(&args.ruleset)
        && def.kind == catalogue::Kind::Nhodo
    {
        return super::nhodo::run(def, args);
    }
    let p = match prepare(&args.ruleset, &args.run) {
        Ok(p) => p,
        Err(e) => return usage(e),
    };
    let mut writer = match &args.csv {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(std::io::BufWriter::with_capacity(1 << 20, f)),
            Err(e) => return usage(format!("--csv {}: {e}", path.display())),
        },
        None => None,
    };
    let mut write_err = writer
        .as_mut()
        .and_then(|w| writeln!(w, "{}", games_header()).err())
        .map(|e| e.to_string());
    let mut line = Vec::with_capacity(256);
    let stats = execute(&p, &mut |r| {
        if let (Some(w), None) = (writer.as_mut(), &write_err) {
            line.clear();
            csv_line::write_line(r, &mut line);
            if let Err(e) = w.write_all(&line) {
                write_err = Some(e.to_string());
            }
        }
    });
    let stats = match stats {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(e) = write_err {
        eprintln!("error: writing CSV: {e}");
        return ExitCode::from(1);
    }
    if let Some(mut w) = writer
        && let Err(e) = w.flush()
    {
        eprintln!("error: writing CSV: {e}");
        return ExitCode::from(1);
    }
    if let Some(path) = &args.summary
        && let Err(e) = write_summary_csv(path, &p, &stats)
    {
        eprintln!("error: {}: {e}", path.display());
        return ExitCode::from(1);
    }
    if args.run.json {
        let doc = serde_json::json!({
            "ruleset": p.def.id,
            "params": p.def.effective_params(&p.params),
            "agents": p.spec.agents.map(|a| a.to_string()),
            "seed": p.spec.seed,
            "games": p.spec.games.end,
            "stats": stats,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        print!("{}", table(&[(&p, &stats)], &[]));
    }
    ExitCode::SUCCESS
}

/// Runs `tsoro compare`.
pub fn run_compare(args: &CompareArgs) -> ExitCode {
    if args.rulesets.len() < 2 {
        return usage("--rulesets takes two or more ruleset ids, comma-separated");
    }
    let mut prepared = vec![];
    for id in &args.rulesets {
        match prepare(id, &args.run) {
            Ok(p) => prepared.push(p),
            Err(e) => return usage(e),
        }
    }
    let mut stats = vec![];
    for p in &prepared {
        match execute(p, &mut |_| {}) {
            Ok(s) => stats.push(s),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let diffs: Vec<Comparison> = stats[1..].iter().map(|s| compare(s, &stats[0])).collect();
    if let Some(path) = &args.csv
        && let Err(e) = write_compare_csv(path, &prepared, &stats, &diffs)
    {
        eprintln!("error: {}: {e}", path.display());
        return ExitCode::from(1);
    }
    if args.run.json {
        let doc = serde_json::json!({
            "seed": args.run.seed,
            "games": args.run.games,
            "runs": prepared.iter().zip(&stats).map(|(p, s)| serde_json::json!({
                "ruleset": p.def.id, "params": p.def.effective_params(&p.params),
                "agents": p.spec.agents.map(|a| a.to_string()), "stats": s,
            })).collect::<Vec<_>>(),
            "differences_from_first": diffs,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        let rows: Vec<(&Prepared, &Stats)> = prepared.iter().zip(&stats).collect();
        print!("{}", table(&rows, &diffs));
    }
    ExitCode::SUCCESS
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A plain-text table, one column per run.
fn table(runs: &[(&Prepared, &Stats)], diffs: &[Comparison]) -> String {
    let mut rows: Vec<(String, Vec<String>)> = vec![];
    let mut row = |name: &str, f: &dyn Fn(&Prepared, &Stats) -> String| {
        rows.push((
            name.to_string(),
            runs.iter().map(|(p, s)| f(p, s)).collect(),
        ));
    };
    row("ruleset", &|p, _| p.def.id.clone());
    row("agents", &|p, _| {
        format!("{} vs {}", p.spec.agents[0], p.spec.agents[1])
    });
    row("games (seed)", &|p, s| {
        format!("{} ({})", s.games, p.spec.seed)
    });
    for i in 0..2 {
        row(&format!("agent {} wins", i + 1), &|_, s| {
            let a = &s.agents[i];
            format!(
                "{} {} [{}, {}]",
                a.name,
                pct(a.win_rate),
                pct(a.ci.low),
                pct(a.ci.high)
            )
        });
    }
    row("first mover wins", &|_, s| {
        format!(
            "{} [{}, {}]",
            pct(s.first_mover.rate),
            pct(s.first_mover.ci.low),
            pct(s.first_mover.ci.high)
        )
    });
    row("seat A / seat B wins", &|_, s| {
        format!("{} / {}", pct(s.seat_a.rate), pct(s.seat_b.rate))
    });
    row("draws", &|_, s| {
        let reasons: Vec<String> = s
            .draw_reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        if reasons.is_empty() {
            pct(s.draws.rate)
        } else {
            format!("{} ({})", pct(s.draws.rate), reasons.join(", "))
        }
    });
    row("turns mean (sd)", &|_, s| {
        format!("{:.1} ({:.1})", s.turns.mean, s.turns.sd)
    });
    row("turns median [p10, p90]", &|_, s| {
        format!("{} [{}, {}]", s.turns.median, s.turns.p10, s.turns.p90)
    });
    row("turns min..max", &|_, s| {
        format!("{}..{}", s.turns.min, s.turns.max)
    });
    row("moves mean (sd)", &|_, s| {
        format!("{:.1} ({:.1})", s.moves.mean, s.moves.sd)
    });
    row("moves median [p10, p90]", &|_, s| {
        format!("{} [{}, {}]", s.moves.median, s.moves.p10, s.moves.p90)
    });
    row("captures/game A, B", &|_, s| {
        format!(
            "{:.2}, {:.2}",
            s.captures_per_game[0], s.captures_per_game[1]
        )
    });
    row("stones captured/game A, B", &|_, s| {
        format!(
            "{:.2}, {:.2}",
            s.stones_captured_per_game[0], s.stones_captured_per_game[1]
        )
    });
    row("branching (per decision)", &|_, s| {
        format!("{:.2}", s.branching)
    });
    row("longest relay (laps)", &|_, s| s.longest_relay.to_string());
    row("Ludii AdvantageP1", &|_, s| {
        format!("{:.4}", s.ludii.advantage_p1)
    });
    row("Ludii Balance", &|_, s| format!("{:.4}", s.ludii.balance));
    row("Ludii Completion", &|_, s| {
        format!("{:.4}", s.ludii.completion)
    });
    row("Ludii Drawishness", &|_, s| {
        format!("{:.4}", s.ludii.drawishness)
    });
    row("Ludii Timeouts", &|_, s| format!("{:.4}", s.ludii.timeouts));
    row("Ludii DurationTurns", &|_, s| {
        format!("{:.2}", s.ludii.duration_turns)
    });
    row("Ludii DurationMoves", &|_, s| {
        format!("{:.2}", s.ludii.duration_moves)
    });
    row("Ludii BranchingFactor", &|_, s| {
        format!("{:.4}", s.ludii.branching_factor)
    });
    row("Ludii DecisionMoves", &|_, s| {
        format!("{:.4}", s.ludii.decision_moves)
    });
    if !diffs.is_empty() {
        let mut with_first = |name: &str, f: &dyn Fn(&Comparison) -> String| {
            let mut cells = vec!["(reference)".to_string()];
            cells.extend(diffs.iter().map(f));
            rows.push((name.to_string(), cells));
        };
        let points = |d: &tsoro_engine::stats::interval::ProportionDiff| {
            format!(
                "{:+.1} pts [{:+.1}, {:+.1}] p={:.3}",
                100.0 * d.diff,
                100.0 * d.ci.low,
                100.0 * d.ci.high,
                d.p_value
            )
        };
        with_first("Δ first-mover win rate [95% CI] p", &|c| {
            points(&c.first_mover)
        });
        with_first("Δ draw rate [95% CI] p", &|c| points(&c.draws));
        with_first("Δ mean turns [95% CI] p (Welch)", &|c| {
            format!(
                "{:+.1} [{:+.1}, {:+.1}] p={:.3}",
                c.turns.diff, c.turns.ci.low, c.turns.ci.high, c.turns.p_value
            )
        });
    }
    let w0 = rows
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    let widths: Vec<usize> = (0..runs.len())
        .map(|i| {
            rows.iter()
                .map(|(_, c)| c[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (name, cells) in &rows {
        let _ = write!(out, "{name:<w0$}");
        for (c, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {c:<w$}");
        }
        out.push('\n');
    }
    out
}

/// The summary as tidy CSV: one metric per row, with its interval where it has one.
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

impl RunLabel {
    fn of(p: &Prepared) -> RunLabel {
        RunLabel {
            ruleset: p.def.id.clone(),
            params: serde_json::to_value(p.def.effective_params(&p.params)).unwrap_or_default(),
            agents: format!("{},{}", p.spec.agents[0], p.spec.agents[1]),
            seed: p.spec.seed,
        }
    }
}

fn write_summary_csv(path: &PathBuf, p: &Prepared, s: &Stats) -> Result<(), csv::Error> {
    let file = std::fs::File::create(path)?;
    summary_csv(file, &RunLabel::of(p), s)
}

/// The tidy summary CSV (one metric per row, with its interval) of a run.
pub fn summary_csv<W: std::io::Write>(
    out: W,
    label: &RunLabel,
    s: &Stats,
) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "ruleset", "params", "agents", "seed", "games", "metric", "value", "ci_low", "ci_high",
    ])?;
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

fn write_compare_csv(
    path: &PathBuf,
    runs: &[Prepared],
    stats: &[Stats],
    diffs: &[Comparison],
) -> Result<(), csv::Error> {
    let labels: Vec<RunLabel> = runs.iter().map(RunLabel::of).collect();
    compare_csv(std::fs::File::create(path)?, &labels, stats, diffs)
}

/// The comparison table as CSV: one row per run, differences from the first run.
pub fn compare_csv<W: std::io::Write>(
    out: W,
    runs: &[RunLabel],
    stats: &[Stats],
    diffs: &[Comparison],
) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "ruleset",
        "params",
        "agents",
        "seed",
        "games",
        "first_mover_win_rate",
        "first_mover_ci_low",
        "first_mover_ci_high",
        "draw_rate",
        "turns_mean",
        "turns_sd",
        "moves_mean",
        "diff_first_mover",
        "diff_first_mover_ci_low",
        "diff_first_mover_ci_high",
        "diff_first_mover_p",
        "diff_turns_mean",
        "diff_turns_ci_low",
        "diff_turns_ci_high",
        "diff_turns_p",
    ])?;
    for (i, (p, s)) in runs.iter().zip(stats).enumerate() {
        let d = if i == 0 { None } else { diffs.get(i - 1) };
        let f = |x: Option<f64>| x.map(|x| x.to_string()).unwrap_or_default();
        w.write_record([
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
            f(d.map(|d| d.first_mover.diff)),
            f(d.map(|d| d.first_mover.ci.low)),
            f(d.map(|d| d.first_mover.ci.high)),
            f(d.map(|d| d.first_mover.p_value)),
            f(d.map(|d| d.turns.diff)),
            f(d.map(|d| d.turns.ci.low)),
            f(d.map(|d| d.turns.ci.high)),
            f(d.map(|d| d.turns.p_value)),
        ])?;
    }
    w.flush()?;
    Ok(())
}
