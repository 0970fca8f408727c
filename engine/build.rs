//! Two things the engine knows of its own files, found at build time (the engine does no I/O
//! when it runs):
//! - its version (`tsoro_engine::VERSION`): a digest of its sources, its rulesets and its
//!   manifest, so that two builds carry the same version exactly when they are built from the
//!   same engine (and so play the same games for the same inputs);
//! - the catalogue's rulesets: every `rulesets/*.json`, in file-name order, compiled in
//!   (`$OUT_DIR/rulesets.rs`), as the corpus finds its records.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Every file under `dir`, recursively; a directory that cannot be read is an error (an empty
/// or partial listing would give a wrong version and catalogue without a word).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let read = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the engine directory {} cannot be read: {e}", dir.display()));
    for entry in read {
        let path = entry
            .unwrap_or_else(|e| panic!("an entry of {} cannot be read: {e}", dir.display()))
            .path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    // Read when the script runs, not when it was compiled (`env!`): a build script compiled
    // in one checkout may be reused by another sharing the target directory.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest);
    let mut all = vec![root.join("Cargo.toml")];
    for dir in ["src", "rulesets"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        files(&root.join(dir), &mut all);
    }
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );
    all.sort();
    let mut hash = Sha256::new();
    for f in &all {
        let rel = f
            .strip_prefix(root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(f)
            .unwrap_or_else(|e| panic!("the engine file {} cannot be read: {e}", f.display()));
        hash.update((rel.len() as u64).to_le_bytes());
        hash.update(rel.as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    let hex: String = hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    println!("cargo:rustc-env=TSORO_ENGINE_VERSION={hex}");
    catalogue_files(&root.join("rulesets"));
}

/// Writes `$OUT_DIR/rulesets.rs`: `FILES`, every `*.json` of `dir` as (id, text) by file name.
fn catalogue_files(dir: &Path) {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("engine/rulesets/ is readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    found.sort();
    let entries: Vec<String> = found
        .iter()
        .map(|p| {
            let id = p
                .file_stem()
                .expect("a file name")
                .to_string_lossy()
                .into_owned();
            format!("    ({id:?}, include_str!({:?})),", p.display().to_string())
        })
        .collect();
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("rulesets.rs");
    std::fs::write(
        out,
        format!(
            "/// The files of the catalogue: (id, JSON), by file name.\nconst FILES: &[(&str, &str)] = &[\n{}\n];\n",
            entries.join("\n")
        ),
    )
    .expect("OUT_DIR is writable");
}
