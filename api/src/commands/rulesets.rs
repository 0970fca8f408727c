//! `tsoro rulesets`: the compiled-in rulesets, their parameters and their citations.

use std::process::ExitCode;
use tsoro_corpus::Corpus;
use tsoro_engine::catalogue;

/// Lists the rulesets, each with its parameters (type, default, range) and, from the archive,
/// its sources and the citation of every rule (`--json`).
pub fn run(json: bool) -> ExitCode {
    let corpus = match Corpus::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: the compiled-in archive is invalid:\n{e}");
            return ExitCode::FAILURE;
        }
    };
    if json {
        let all: Vec<serde_json::Value> = catalogue::all()
            .iter()
            .map(|def| {
                let record = corpus.rulesets.get(&def.id);
                serde_json::json!({
                    "id": def.id,
                    "game": def.game,
                    "title": def.title,
                    "summary": record.map(|r| r.description.trim()),
                    "config": def.config,
                    "params": def.params,
                    "sources": record.map(|r| r.sources.clone()).unwrap_or_default(),
                    "citations": record.map(|r| serde_json::to_value(&r.rules).unwrap_or_default()),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    for def in catalogue::all() {
        println!("{}  ({})", def.id, def.title);
        if let Some(r) = corpus.rulesets.get(&def.id) {
            println!(
                "    sources: {}; {} rules cited",
                r.sources.join(", "),
                r.rules.len()
            );
        }
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
