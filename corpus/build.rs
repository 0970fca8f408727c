//! Compiles every record under sources/, games/, evidence/ and rulesets/ into the crate, so the
//! binary needs no files at run time.

use std::path::Path;

fn main() {
    // Read when the script runs, not when it was compiled (`env!`): a build script compiled
    // in one checkout may be reused by another sharing the target directory.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest);
    let mut entries = vec![];
    for dir in ["sources", "games", "evidence", "rulesets"] {
        let d = root.join(dir);
        println!("cargo:rerun-if-changed={}", d.display());
        let read = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("the corpus directory {} cannot be read: {e}", d.display()));
        let mut files: Vec<_> = read
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        files.sort();
        for f in files {
            println!("cargo:rerun-if-changed={}", f.display());
            let rel = format!("{dir}/{}", f.file_name().unwrap().to_string_lossy());
            entries.push(format!(
                "    ({rel:?}, include_str!({:?})),",
                f.display().to_string()
            ));
        }
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("files.rs");
    std::fs::write(
        out,
        format!("/// Every record file: (path under corpus/, text).\npub const FILES: &[(&str, &str)] = &[\n{}\n];\n", entries.join("\n")),
    )
    .unwrap();
}
