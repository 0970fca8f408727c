//! `tsoro replay`: every state of a recorded game, from the compiled-in rulesets.

use clap::Args;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use tsoro_engine::replay::{ReplayRequest, replay};

/// Arguments of `tsoro replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Read the game from this file instead of standard input. The game is
    /// `{"ruleset":"tsoro-ludii","params":{"holes":8},"actions":[{"sow":"i,6"}, ...]}`.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Indent the output.
    #[arg(long)]
    pub pretty: bool,
}

/// Runs `tsoro replay`: writes `{"states":[...],"events":[...],"result":{...}}` to standard
/// output; a bad or illegal action exits with status 1 and a JSON error (its index and the
/// legal actions there) on standard output; unreadable input exits with status 2.
pub fn run(args: &ReplayArgs) -> ExitCode {
    let text = match &args.file {
        Some(p) => std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map(|_| s)
                .map_err(|e| format!("standard input: {e}"))
        }
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            println!("{}", serde_json::json!({"error": "input", "message": e}));
            return ExitCode::from(2);
        }
    };
    let req: ReplayRequest = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            println!(
                "{}",
                serde_json::json!({"error": "input", "message": format!("not a recorded game: {e} (expected {{\"ruleset\":...,\"params\":{{...}},\"actions\":[...]}})")})
            );
            return ExitCode::from(2);
        }
    };
    match replay(&req) {
        Ok(out) => {
            let s = if args.pretty {
                serde_json::to_string_pretty(&out)
            } else {
                serde_json::to_string(&out)
            };
            match s {
                Ok(s) => {
                    println!("{s}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    println!(
                        "{}",
                        serde_json::json!({"error": "output", "message": e.to_string()})
                    );
                    ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            println!("{}", e.to_json());
            ExitCode::from(1)
        }
    }
}
