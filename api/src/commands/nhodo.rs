//! `tsoro simulate` on nhodo, a stochastic model with no decisions: who wins and how long
//! games last as skills and numbers of stones vary.

use super::run_args::{SimulateArgs, progress_bar};
use crate::runs::nhodo::{GAME_COLUMNS, names, rows_writer, summary_csv, write_row};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Arc;
use tsoro_engine::catalogue::{Model, RulesetDef};
use tsoro_engine::nhodo::{NhodoModel, NhodoStats, simulate};
use tsoro_engine::sim::SimOptions;

fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Runs `tsoro simulate` for a nhodo ruleset.
pub fn run(def: &'static RulesetDef, args: &SimulateArgs) -> ExitCode {
    let run = &args.run;
    if run.agents != "random,random" {
        return usage(format!(
            "{} has no decisions, so --agents does not apply; vary --param skill=.. instead",
            def.id
        ));
    }
    let mut params = match def.parse_params(run.params.iter().map(String::as_str)) {
        Ok(p) => p,
        Err(e) => return usage(e),
    };
    if let Some(t) = run.turn_limit {
        params.insert("turn_limit".into(), t.into());
    }
    let model: NhodoModel = match def.build_model(&params) {
        Ok(Model::Nhodo(m)) => m,
        Ok(Model::Game(_)) => return usage(format!("{} is not a nhodo model", def.id)),
        Err(e) => return usage(e),
    };
    if run.games == 0 || run.games > tsoro_engine::sim::MAX_GAMES {
        return usage(format!(
            "--games {}: allowed 1 to {}",
            run.games,
            tsoro_engine::sim::MAX_GAMES
        ));
    }
    let mut writer = match &args.csv {
        Some(path) => match std::fs::File::create(path).map(rows_writer) {
            Ok(mut w) => match w.write_record(names(GAME_COLUMNS)) {
                Ok(()) => Some(w),
                Err(e) => return usage(format!("--csv {}: {e}", path.display())),
            },
            Err(e) => return usage(format!("--csv {}: {e}", path.display())),
        },
        None => None,
    };
    let mut opts = SimOptions {
        threads: run.threads.unwrap_or(0),
        ..SimOptions::default()
    };
    let pb = progress_bar(run.games, &def.id);
    if let Some(pb) = &pb {
        let pb = pb.clone();
        opts.progress = Some(Arc::new(move |done, _| pb.set_position(done)));
    }
    let mut write_err = None;
    let summary = simulate(&model, 0..run.games, run.seed, &opts, &mut |r| {
        if let (Some(w), None) = (writer.as_mut(), &write_err)
            && let Err(e) = write_row(w, r)
        {
            write_err = Some(e.to_string());
        }
    });
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let stats = match summary {
        Ok(s) => s.stats(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(e) =
        write_err.or_else(|| writer.and_then(|mut w| w.flush().err().map(|e| e.to_string())))
    {
        eprintln!("error: writing CSV: {e}");
        return ExitCode::from(1);
    }
    if let Some(path) = &args.summary
        && let Err(e) = write_summary(path, &stats)
    {
        eprintln!("error: {}: {e}", path.display());
        return ExitCode::from(1);
    }
    let effective = def.effective_params(&params);
    if run.json {
        let doc = serde_json::json!({
            "ruleset": def.id,
            "params": effective,
            "seed": run.seed.to_string(),
            "games": run.games,
            "stats": stats,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        print!("{}", table(def, &effective, run.seed, &stats));
    }
    ExitCode::SUCCESS
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn table(
    def: &RulesetDef,
    params: &tsoro_engine::catalogue::Params,
    seed: u64,
    s: &NhodoStats,
) -> String {
    let mut out = String::new();
    let p: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(out, "{:<22} {}", "ruleset", def.id);
    let _ = writeln!(out, "{:<22} {}", "params", p.join(" "));
    let _ = writeln!(out, "{:<22} {} ({seed})", "games (seed)", s.games);
    for (i, w) in s.wins.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:<22} {} [{}, {}]",
            format!("seat {} wins", i + 1),
            pct(w.rate),
            pct(w.ci.low),
            pct(w.ci.high)
        );
    }
    let _ = writeln!(out, "{:<22} {}", "draws (turn limit)", pct(s.draws.rate));
    for (name, d) in [("turns", &s.turns), ("clean throws", &s.throws)] {
        let _ = writeln!(
            out,
            "{:<22} mean {:.1} sd {:.1} median {} p10 {} p90 {} min {} max {}",
            name, d.mean, d.sd, d.median, d.p10, d.p90, d.min, d.max
        );
    }
    out
}

/// Tidy summary: one metric per row (the format of a nhodo job's `summary.csv`).
fn write_summary(path: &std::path::Path, s: &NhodoStats) -> Result<(), String> {
    let bytes = summary_csv(s).map_err(|e| e.to_string())?;
    std::fs::write(path, bytes).map_err(|e| e.to_string())
}
