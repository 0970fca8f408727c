//! `tsoro simulate` and `tsoro compare`: seeded simulations from the command line, no database.

use super::run_args::{CompareArgs, RunArgs, SimulateArgs, progress_bar};
use crate::runs::csv::{RunLabel, compare_csv, header, summary_csv};
use crate::runs::plan::{self, Agents, ComparisonRequest, RunError, RunPlan, RunRequest};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::sim::{MAX_GAMES, SimOptions, simulate_any};
use tsoro_engine::stats::csv_line;
use tsoro_engine::stats::distinct::{DistinctGames, replay_warning};
use tsoro_engine::stats::interval::wilson_score;
use tsoro_engine::stats::paired::{Paired, PairedGame, PairedSummary, p_text};
use tsoro_engine::stats::{GameRecord, Stats};

/// Bad input: a one-line message, exit status 2.
fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// `--param name=value` pairs, each read with the type of the first of the rulesets that has
/// the parameter (a comparison applies each to the rulesets that have it).
fn cli_params(ids: &[String], pairs: &[String]) -> Result<Params, RunError> {
    let defs = ids
        .iter()
        .map(|id| catalogue::get(id))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Params::new();
    for pair in pairs {
        let name = pair
            .split_once('=')
            .map_or(pair.as_str(), |(n, _)| n)
            .trim();
        let def = defs
            .iter()
            .find(|d| d.params.iter().any(|p| p.name == name))
            .or(defs.first());
        if let Some(def) = def {
            out.extend(def.parse_params([pair.as_str()])?);
        }
    }
    Ok(out)
}

/// The run the options ask for, checked.
fn plan_simulation(id: &str, run: &RunArgs) -> Result<RunPlan, RunError> {
    let req = RunRequest {
        ruleset: id.to_string(),
        params: cli_params(&[id.to_string()], &run.params)?,
        agents: Agents::Text(run.agents.clone()),
        games: run.games,
        seed: run.seed,
        turn_limit: run.turn_limit,
        swap_seats: !run.fixed_seats,
        reference: run.reference,
    };
    let mut p = plan::plan(&req, MAX_GAMES)?;
    p.opening_plies = checked_openings(run.opening_plies)?;
    Ok(p)
}

/// `--opening-plies`, checked.
fn checked_openings(n: u32) -> Result<u32, RunError> {
    if n > tsoro_engine::sim::MAX_OPENING_PLIES {
        return Err(RunError::new(
            "opening_plies",
            format!(
                "{n} given; allowed 0 to {}",
                tsoro_engine::sim::MAX_OPENING_PLIES
            ),
            format!("0..={}", tsoro_engine::sim::MAX_OPENING_PLIES),
        ));
    }
    Ok(n)
}

/// What a run's games are, in words: how many distinct games it holds (or that random play
/// was not checked), and the warning for a pairing whose games would follow few lines.
fn games_note(p: &RunPlan, distinct: &DistinctGames) -> Vec<String> {
    let mut out = vec![];
    if distinct.games() > 0 {
        out.push(format!("{}: {}", p.def.id, distinct.sentence()));
    } else {
        out.push(format!(
            "{}: random play, games not checked for repeats",
            p.def.id
        ));
    }
    out.extend(replay_warning(&p.agents, p.opening_plies));
    out
}

/// How the run is played (the numbers do not depend on it), checked.
fn sim_options(run: &RunArgs) -> Result<SimOptions, String> {
    super::run_args::check_threads(run.threads)?;
    Ok(SimOptions {
        threads: run.threads.unwrap_or(0),
        reference: run.reference,
        ..SimOptions::default()
    })
}

fn execute(
    p: &RunPlan,
    opts: &SimOptions,
    sink: &mut dyn FnMut(&GameRecord),
) -> Result<Stats, String> {
    let mut opts = opts.clone();
    let pb = progress_bar(p.games, &p.def.id);
    if let Some(pb) = &pb {
        let pb = pb.clone();
        opts.progress = Some(Arc::new(move |done, _| pb.set_position(done)));
    }
    let summary = simulate_any(&p.game, &p.sim_spec(), &opts, sink).map_err(|e| e.to_string())?;
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
    let (p, opts) = match plan_simulation(&args.ruleset, &args.run)
        .map_err(|e| e.to_string())
        .and_then(|p| Ok((p, sim_options(&args.run)?)))
    {
        Ok(x) => x,
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
        .and_then(|w| writeln!(w, "{}", header(GameRecord::COLUMNS)).err())
        .map(|e| e.to_string());
    let mut line = Vec::with_capacity(256);
    // Without a CSV nothing reads the records of random play on the fast kernel: it then
    // makes none (and its games are not checked for repeats); other games are counted.
    let random_fast = p.agents == [tsoro_engine::agents::AgentSpec::Random; 2]
        && p.opening_plies == 0
        && !p.reference;
    let opts = SimOptions {
        summary_only: writer.is_none() && random_fast,
        ..opts
    };
    let mut distinct = DistinctGames::default();
    let stats = execute(&p, &opts, &mut |r| {
        distinct.add(r);
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
    let notes = games_note(&p, &distinct);
    if args.run.json {
        let doc = serde_json::json!({
            "ruleset": p.def.id,
            "params": p.params,
            "agents": p.agent_names(),
            "seed": p.seed.to_string(),
            "games": p.games,
            "opening_plies": p.opening_plies,
            "distinct_games": (distinct.games() > 0).then(|| distinct.distinct()),
            "notes": notes,
            "stats": stats,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        print!("{}", table(&[(&p, &stats)], &[]));
        for n in &notes {
            println!("{n}");
        }
    }
    ExitCode::SUCCESS
}

/// Runs `tsoro compare`.
pub fn run_compare(args: &CompareArgs) -> ExitCode {
    let opts = match sim_options(&args.run) {
        Ok(o) => o,
        Err(e) => return usage(e),
    };
    let req = match cli_params(&args.rulesets, &args.run.params) {
        Ok(params) => ComparisonRequest {
            rulesets: args.rulesets.clone(),
            params,
            agents: Agents::Text(args.run.agents.clone()),
            games: args.run.games,
            seed: args.run.seed,
            turn_limit: args.run.turn_limit,
            swap_seats: !args.run.fixed_seats,
            reference: args.run.reference,
            variants: vec![],
        },
        Err(e) => return usage(e),
    };
    let openings = match checked_openings(args.run.opening_plies) {
        Ok(n) => n,
        Err(e) => return usage(e),
    };
    let mut prepared = match plan::plan_comparison(&req, MAX_GAMES) {
        Ok(p) => p,
        Err(e) => return usage(e),
    };
    for p in &mut prepared {
        p.opening_plies = openings;
    }
    let mut notes = vec![];
    // Game k of each run against game k of the first (the runs share their seeds).
    let mut reference: Vec<Option<PairedGame>> = vec![];
    let mut stats = vec![];
    let mut diffs: Vec<Paired> = vec![];
    for (i, p) in prepared.iter().enumerate() {
        let mut pairs = PairedSummary::default();
        let mut distinct = DistinctGames::default();
        let result = execute(p, &opts, &mut |r| {
            distinct.add(r);
            let g = PairedGame::of(r);
            let k = r.game as usize;
            if i == 0 {
                if reference.len() <= k {
                    reference.resize(k + 1, None);
                }
                reference[k] = Some(g);
            } else if let Some(Some(x)) = reference.get(k) {
                pairs.add(&g, x);
            }
        });
        match result {
            Ok(s) => stats.push(s),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
        notes.extend(games_note(p, &distinct));
        if i > 0 {
            diffs.push(pairs.stats());
        }
    }
    if let Some(path) = &args.csv
        && let Err(e) = write_compare_csv(path, &prepared, &stats, &diffs)
    {
        eprintln!("error: {}: {e}", path.display());
        return ExitCode::from(1);
    }
    if args.run.json {
        let doc = serde_json::json!({
            "seed": args.run.seed.to_string(),
            "games": args.run.games,
            "opening_plies": openings,
            "notes": notes,
            "runs": prepared.iter().zip(&stats).map(|(p, s)| serde_json::json!({
                "ruleset": p.def.id, "params": p.params,
                "agents": p.agent_names(), "stats": s,
            })).collect::<Vec<_>>(),
            "differences_from_first": prepared[1..].iter().zip(&diffs).map(|(p, d)| {
                crate::jobs::paired::PairedDifference {
                    ruleset: p.def.id.clone(),
                    reference: prepared[0].def.id.clone(),
                    paired: *d,
                }
            }).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        let rows: Vec<(&RunPlan, &Stats)> = prepared.iter().zip(&stats).collect();
        print!("{}", table(&rows, &diffs));
        for n in &notes {
            println!("{n}");
        }
    }
    ExitCode::SUCCESS
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A plain-text table, one column per run.
fn table(runs: &[(&RunPlan, &Stats)], diffs: &[Paired]) -> String {
    let mut rows: Vec<(String, Vec<String>)> = vec![];
    let mut row = |name: &str, f: &dyn Fn(&RunPlan, &Stats) -> String| {
        rows.push((
            name.to_string(),
            runs.iter().map(|(p, s)| f(p, s)).collect(),
        ));
    };
    row("ruleset", &|p, _| p.def.id.clone());
    row("agents", &|p, _| {
        format!("{} vs {}", p.agents[0], p.agents[1])
    });
    row("games (seed)", &|p, s| format!("{} ({})", s.games, p.seed));
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
    for i in 0..2 {
        row(&format!("agent {} score", i + 1), &|_, s| {
            // A win counts 1, a draw ½.
            let score = s.agents[i].wins as f64 + s.draws.count as f64 / 2.0;
            let ci = wilson_score(score, s.games);
            format!(
                "{} [{}, {}]",
                pct(score / s.games.max(1) as f64),
                pct(ci.low),
                pct(ci.high)
            )
        });
        row(&format!("agent {} wins as A / as B", i + 1), &|_, s| {
            let a = &s.agents[i];
            format!(
                "{} of {} / {} of {}",
                a.as_a.wins, a.as_a.games, a.as_b.wins, a.as_b.games
            )
        });
    }
    // The first mover's and the seats' rates describe the game only when one agent plays
    // both seats; otherwise they mostly measure which agent is stronger.
    let same = runs.iter().all(|(p, _)| p.agents[0] == p.agents[1]);
    if same {
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
    }
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
    row("turns lower median [p10, p90]", &|_, s| {
        format!("{} [{}, {}]", s.turns.median, s.turns.p10, s.turns.p90)
    });
    row("turns min..max", &|_, s| {
        format!("{}..{}", s.turns.min, s.turns.max)
    });
    row("moves mean (sd)", &|_, s| {
        format!("{:.1} ({:.1})", s.moves.mean, s.moves.sd)
    });
    row("moves lower median [p10, p90]", &|_, s| {
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
    if same {
        row("Ludii AdvantageP1", &|_, s| {
            format!("{:.4}", s.ludii.advantage_p1)
        });
        row("Ludii Balance", &|_, s| format!("{:.4}", s.ludii.balance));
    }
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
        let mut with_first = |name: &str, f: &dyn Fn(&Paired) -> String| {
            let mut cells = vec!["(reference)".to_string()];
            cells.extend(diffs.iter().map(f));
            rows.push((name.to_string(), cells));
        };
        let points = |d: &tsoro_engine::stats::paired::PairedProportion| {
            format!(
                "{:+.1} pts [{:+.1}, {:+.1}] p {}",
                100.0 * d.diff,
                100.0 * d.ci.low,
                100.0 * d.ci.high,
                p_text(d.p_value)
            )
        };
        let mean = |d: &tsoro_engine::stats::paired::PairedMean| {
            format!(
                "{:+.2} [{:+.2}, {:+.2}] p {}",
                d.diff,
                d.ci.low,
                d.ci.high,
                p_text(d.p_value)
            )
        };
        with_first("identical games (same seed)", &|c| {
            format!("{} of {}", c.identical, c.pairs)
        });
        if same {
            with_first("Δ first-mover win rate [95% CI] p (paired)", &|c| {
                points(&c.first_mover)
            });
        }
        with_first("Δ agent 1 win rate [95% CI] p (paired)", &|c| {
            points(&c.first_agent_wins)
        });
        with_first("Δ draw rate [95% CI] p (paired)", &|c| points(&c.draws));
        with_first("Δ mean turns [95% CI] p (paired t)", &|c| mean(&c.turns));
        with_first("Δ captures/game [95% CI] p (paired t)", &|c| {
            mean(&c.captures)
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
    if !same {
        out.push_str(MIXED_AGENTS_NOTE);
    }
    out
}

/// Said under a table whose seats held different agents.
const MIXED_AGENTS_NOTE: &str = "The first mover's win rate, the seats' and Ludii's \
AdvantageP1 and Balance are not shown: they describe the game only when one agent plays both \
seats; here they would mostly measure which agent is stronger (each agent's score and wins in \
each seat are above; --json has every figure).\n";

fn write_summary_csv(path: &PathBuf, p: &RunPlan, s: &Stats) -> Result<(), csv::Error> {
    summary_csv(std::fs::File::create(path)?, &p.label(), s)
}

fn write_compare_csv(
    path: &PathBuf,
    runs: &[RunPlan],
    stats: &[Stats],
    diffs: &[Paired],
) -> Result<(), csv::Error> {
    let labels: Vec<RunLabel> = runs.iter().map(RunPlan::label).collect();
    compare_csv(std::fs::File::create(path)?, &labels, stats, diffs)
}
