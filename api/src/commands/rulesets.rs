//! `tsoro rulesets`: the compiled-in rulesets and their parameters.

use std::process::ExitCode;
use tsoro_engine::catalogue;

/// Lists the rulesets, each with its parameters (type, default, range).
pub fn run(json: bool) -> ExitCode {
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(catalogue::all()).unwrap_or_default()
        );
        return ExitCode::SUCCESS;
    }
    for def in catalogue::all() {
        println!("{}  ({})", def.id, def.title);
        for p in &def.params {
            println!(
                "    {} = {} ({}: {})",
                p.name,
                p.default,
                p.type_name(),
                p.range()
            );
        }
    }
    ExitCode::SUCCESS
}
