use clap::Parser;
use std::process::ExitCode;
use tsoro_api::cli::{Cli, Command};
use tsoro_api::commands;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Every command but the long-running ones (the service, its workers and the migration
    // that runs PostgreSQL) ends quietly when its reader goes away.
    if !matches!(
        cli.command,
        Command::Serve(_) | Command::Worker(_) | Command::Migrate(_)
    ) {
        quiet_on_closed_pipe();
    }
    tsoro_api::telemetry::init();
    match cli.command {
        Command::Replay(args) => commands::replay::run(&args),
        Command::Simulate(args) => commands::simulate::run_simulate(&args),
        Command::Compare(args) => commands::simulate::run_compare(&args),
        Command::Readings(args) => commands::readings::run(&args),
        Command::Search(args) => commands::search::run(&args),
        Command::Tournament(args) => commands::tournament::run_tournament(&args),
        Command::Ladder(args) => commands::tournament::run_ladder(&args),
        Command::Rulesets { json } => commands::rulesets::run(json),
        Command::Export { archive } => commands::export::run(&archive),
        Command::Clusters(args) => commands::clusters::run(&args),
        Command::Openapi { out } => {
            let text = tsoro_api::http::openapi::json();
            let written = if out.as_os_str() == "-" {
                std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes())
            } else {
                std::fs::write(&out, text)
            };
            match written {
                Ok(()) => std::process::ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: writing {}: {e}", out.display());
                    std::process::ExitCode::from(1)
                }
            }
        }
        Command::Serve(args) => block_on(tsoro_api::startup::serve(args)),
        Command::Migrate(args) => block_on(tsoro_api::startup::migrate(args)),
        Command::Worker(args) => block_on(tsoro_api::startup::worker(args)),
        Command::Token(args) => block_on(commands::token::run(args)),
        Command::Backup { file, db } => block_on(commands::backup::backup(file, db)),
        Command::Restore { file, db } => block_on(commands::backup::restore(file, db)),
    }
}

fn block_on(f: impl std::future::Future<Output = anyhow::Result<()>>) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: starting the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match actix_web::rt::System::with_tokio_rt(|| rt).block_on(f) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// A command whose reader goes away (`tsoro rulesets | head`) ends at once and quietly, as
/// Unix tools do: the default action of SIGPIPE, which Rust's runtime sets to ignore (so that
/// every `println!` would panic instead). Not for the service, its workers and `migrate`,
/// which handle a closed socket or pipe as an error and must not die of one; child processes
/// get the default action from the standard library whatever is set here.
fn quiet_on_closed_pipe() {
    use nix::sys::signal::{SigHandler, Signal, signal};
    // SAFETY: restoring the default action before any thread starts; no handler runs.
    let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
}
