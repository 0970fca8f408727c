//! `tsoro readings`: what each reading of the sources changes in play (a readings study,
//! [`crate::runs::readings`]), played here without a database.

use crate::runs::plan::Agents;
use crate::runs::readings::{self, PairingResult, ReadingsRequest};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tsoro_engine::sim::{MAX_GAMES, SimOptions};
use tsoro_engine::stats::paired::p_text;
use tsoro_engine::stats::study::{confound_note, limit_note, test_sentence};

/// Arguments of `tsoro readings`.
#[derive(Debug, Args)]
pub struct ReadingsArgs {
    /// The ruleset id (see `tsoro rulesets`).
    #[arg(long)]
    pub ruleset: String,
    /// A parameter whose choices are readings of the sources (repeatable): each choice is
    /// played against the default, the other parameters at their defaults.
    #[arg(long = "param", value_name = "NAME", required = true)]
    pub params: Vec<String>,
    /// The pairing played beside random play, e.g. `greedy,greedy` or `mcts:100`.
    #[arg(long, default_value = "random,random")]
    pub agents: String,
    /// Games per reading and pairing.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The seed shared by every run: game k of every reading starts from the same seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Uniformly random plies played before the agents take over (a forced move does not
    /// count): the two games of a seat-swapped pair share theirs, and game k of every
    /// reading starts from the same random numbers.
    #[arg(long, default_value_t = 0)]
    pub opening_plies: u32,
    /// Worker threads (default: one per core). The numbers do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write `readings.csv` here.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

/// Runs `tsoro readings`.
pub fn run(args: &ReadingsArgs) -> ExitCode {
    if let Err(e) = super::run_args::check_threads(args.threads) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let req = ReadingsRequest {
        ruleset: args.ruleset.clone(),
        params: args.params.clone(),
        agents: Agents::Text(args.agents.clone()),
        games: args.games,
        seed: args.seed,
    };
    let mut plan = match readings::plan_study(&req, MAX_GAMES) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {}: {e}", cli_field(&e.field));
            return ExitCode::from(2);
        }
    };
    if args.opening_plies > tsoro_engine::sim::MAX_OPENING_PLIES {
        eprintln!(
            "error: --opening-plies: {} given; allowed 0 to {}",
            args.opening_plies,
            tsoro_engine::sim::MAX_OPENING_PLIES
        );
        return ExitCode::from(2);
    }
    for run in &mut plan.runs {
        run.opening_plies = args.opening_plies;
    }
    let opts = SimOptions {
        threads: args.threads.unwrap_or(0),
        ..SimOptions::default()
    };
    let (results, distinct) = match readings::play_counting(&plan, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(path) = &args.csv {
        let written = std::fs::File::create(path)
            .map_err(csv::Error::from)
            .and_then(|f| readings::readings_csv(f, &results));
        if let Err(e) = written {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    // How many distinct games each pairing's runs hold, and the warning for a pairing that
    // would follow few lines.
    let n = plan.readings.len().max(1);
    let mut notes = vec![];
    for (i, agents) in plan.pairings.iter().enumerate() {
        let runs = distinct.get(i * n..(i + 1) * n).unwrap_or_default();
        let (d, g): (u64, u64) = runs
            .iter()
            .fold((0, 0), |(d, g), x| (d + x.distinct(), g + x.games()));
        let fewest = runs.iter().map(|x| x.distinct()).min().unwrap_or(0);
        let mut line = format!(
            "{},{}: {d} distinct games of {g} over its {} readings (told apart by their \
             records; fewest in one reading: {fewest} of {})",
            agents[0],
            agents[1],
            runs.len(),
            args.games
        );
        if 2 * fewest < args.games {
            line += "; warning: a reading's run replays the same games: its figures describe a \
                     few lines of play, not the game; use random openings (--opening-plies)";
        }
        notes.push(line);
        notes.extend(tsoro_engine::stats::distinct::replay_warning(
            agents,
            args.opening_plies,
        ));
    }
    if args.json {
        let doc = serde_json::json!({
            "ruleset": args.ruleset,
            "seed": args.seed.to_string(),
            "games": args.games,
            "opening_plies": args.opening_plies,
            "notes": notes,
            "pairings": results,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        print!("{}", table(&results));
        for n in &notes {
            println!("{n}");
        }
    }
    ExitCode::SUCCESS
}

/// A request's field as the command line names it (`params[1]` is the second `--param`).
fn cli_field(field: &str) -> String {
    match field.split_once('[') {
        Some(("params", rest)) => format!("--param #{}", rest.trim_end_matches(']')),
        _ => format!("--{}", field.replace('_', "-")),
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// One block per pairing, one line per reading.
pub fn table(results: &[PairingResult]) -> String {
    let mut out = String::new();
    for p in results {
        out += &format!("{} vs {}\n", p.agents[0], p.agents[1]);
        let default = p.readings.first().map(|d| d.metrics);
        for r in &p.readings {
            let m = &r.metrics;
            let name = match &r.reading.parameter {
                Some(param) => format!("{param}={}", r.reading.reading),
                None => "default".into(),
            };
            out += &format!(
                "  {name:<28} first player {} [{}, {}]  draws {} [{}, {}]  length {:.1} [{:.1}, {:.1}] (lower median {} [{}, {}])  captures {:.2} [{:.2}, {:.2}]  branching {:.2}  endless {}  limit {}",
                pct(m.first_player_score.value),
                pct(m.first_player_score.ci.low),
                pct(m.first_player_score.ci.high),
                pct(m.draws.rate),
                pct(m.draws.ci.low),
                pct(m.draws.ci.high),
                m.mean_length.value,
                m.mean_length.ci.low,
                m.mean_length.ci.high,
                m.median_length.value,
                m.median_length.low,
                m.median_length.high,
                m.captures.value,
                m.captures.ci.low,
                m.captures.ci.high,
                m.branching.value,
                pct(m.endless_sowings.rate),
                pct(m.limit_ends.rate),
            );
            if let (true, Some(d)) = (r.reading.parameter.is_some(), &default) {
                // Each tested figure beside its verdict, then what they say together.
                for t in &r.tests {
                    out += &format!(
                        "\n  {:<28} {} (p {})",
                        "",
                        test_sentence(t, &r.metrics, d),
                        p_text(t.p_value)
                    );
                }
                for note in confound_note(&r.tests)
                    .into_iter()
                    .chain(limit_note(&r.metrics, d))
                {
                    out += &format!("\n  {:<28} {note}", "");
                }
            }
            if !r.reading.attestation.kind.is_empty() {
                out += &format!(
                    "\n  {:<28} {} {}",
                    "",
                    r.reading.attestation.kind,
                    r.reading.attestation.evidence.join(" ")
                );
            }
            out.push('\n');
        }
    }
    out
}
