//! `tsoro export --archive DIR`: the archive as a data package and bibliography, offline.

use std::path::Path;
use std::process::ExitCode;
use tsoro_corpus::{Corpus, package};

/// Writes the data package and the bibliography under `dir`, listing the files written.
pub fn run(dir: &Path) -> ExitCode {
    let corpus = match Corpus::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: the compiled-in archive is invalid:\n{e}");
            return ExitCode::FAILURE;
        }
    };
    match package::write_dir(&corpus, dir) {
        Ok(written) => {
            for p in written {
                println!("{}", p.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing the archive to {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}
