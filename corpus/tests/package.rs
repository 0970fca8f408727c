//! The archive as a Frictionless data package: every table matches its description, integers
//! stay integers, keys are unique and references resolve; and `frictionless validate` accepts
//! it (with the tool `scripts/frictionless-venv` installs, which `.ci/run` calls).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use tsoro_corpus::{Corpus, package};

fn write_package(dir: &Path) {
    let c = Corpus::load().unwrap();
    let written = package::write_dir(&c, dir).unwrap();
    assert!(written.iter().any(|p| p.ends_with("citations.bib")));
}

type Rows = Vec<BTreeMap<String, String>>;

fn read_csv(path: &Path) -> (Vec<String>, Rows) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect()
        })
        .collect();
    (header, rows)
}

#[test]
fn every_table_matches_its_description() {
    let d = tempfile::tempdir().unwrap();
    write_package(d.path());
    let desc: Value =
        serde_json::from_slice(&std::fs::read(d.path().join("datapackage.json")).unwrap()).unwrap();
    assert_eq!(desc["licenses"][0]["name"], package::LICENSE.0);
    let c = Corpus::load().unwrap();
    assert_eq!(desc["sources"].as_array().unwrap().len(), c.sources.len());
    let mut tables: BTreeMap<String, Rows> = BTreeMap::new();
    let resources = desc["resources"].as_array().unwrap();
    for r in resources {
        let (header, rows) = read_csv(&d.path().join(r["path"].as_str().unwrap()));
        let fields = r["schema"]["fields"].as_array().unwrap();
        let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
        assert_eq!(header, names, "{}", r["name"]);
        for f in fields {
            assert!(f["description"].as_str().unwrap().len() > 5, "{f}");
            let name = f["name"].as_str().unwrap();
            for row in &rows {
                let v = &row[name];
                match f["type"].as_str().unwrap() {
                    "integer" if !v.is_empty() => {
                        assert!(v.parse::<i64>().is_ok(), "{}.{name}: {v:?}", r["name"])
                    }
                    "date" if !v.is_empty() => assert_eq!(v.len(), 10, "{v}"),
                    "object" => assert!(serde_json::from_str::<Value>(v).unwrap().is_object()),
                    _ => {}
                }
            }
        }
        let key: Vec<&str> = r["schema"]["primaryKey"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|k| k.as_str().unwrap())
            .collect();
        if !key.is_empty() {
            let ids: BTreeSet<Vec<&String>> = rows
                .iter()
                .map(|row| key.iter().map(|k| &row[*k]).collect())
                .collect();
            assert_eq!(ids.len(), rows.len(), "{}: primary key repeats", r["name"]);
        }
        tables.insert(r["name"].as_str().unwrap().to_string(), rows);
    }
    for r in resources {
        for fk in r["schema"]["foreignKeys"].as_array().into_iter().flatten() {
            let (col, other, its) = (
                fk["fields"].as_str().unwrap(),
                fk["reference"]["resource"].as_str().unwrap(),
                fk["reference"]["fields"].as_str().unwrap(),
            );
            let known: BTreeSet<&String> = tables[other].iter().map(|row| &row[its]).collect();
            for row in &tables[r["name"].as_str().unwrap()] {
                assert!(
                    known.contains(&row[col]),
                    "{}.{col} = {}",
                    r["name"],
                    row[col]
                );
            }
        }
    }
    // What the tables hold.
    assert_eq!(tables["evidence"].len(), c.evidence.len());
    let year = tables["sources"]
        .iter()
        .find(|r| r["id"] == "matthews-1964")
        .unwrap();
    assert_eq!(year["year"], "1964", "integers stay integers");
    assert_eq!(year["pages"], "64-66");
    let fields: usize = c
        .rulesets
        .values()
        .map(|r| r.rules.len() + r.built_in.len())
        .sum();
    assert_eq!(tables["rule_citations"].len(), fields);
    // Every choice of every parameter is a row, with its kind.
    let choices: usize = tsoro_engine::catalogue::all()
        .iter()
        .flat_map(|d| &d.params)
        .map(|p| tsoro_corpus::param_choices(p).len())
        .sum();
    assert_eq!(tables["ruleset_parameters"].len(), choices);
    let strict = tables["ruleset_parameters"]
        .iter()
        .find(|r| {
            r["ruleset"] == "tsoro-matthews-basic"
                && r["parameter"] == "back_capture"
                && r["choice"] == "require_both"
        })
        .unwrap();
    assert_eq!(strict["kind"], "evidence");
    assert!(strict["quote"].contains("both holes vertically opposite him are occupied"));
    let baia = tables["ruleset_parameters"]
        .iter()
        .find(|r| r["ruleset"] == "tsoro-ludii-baia" && r["parameter"] == "holes")
        .unwrap();
    assert_eq!(
        (baia["default"].as_str(), baia["range"].as_str()),
        ("13", "13..=19")
    );
    // Witnesses and their variants.
    let b = tables["evidence"]
        .iter()
        .find(|r| r["id"] == "matthews-1964-tsoro-b")
        .unwrap();
    assert_eq!(b["witness"], "matthews-1964-online");
    assert!(
        tables["textual_variants"]
            .iter()
            .any(|r| r["evidence"] == "matthews-1964-tsoro-b"
                && r["witness"] == "ludii-portal"
                && r["reading"] == "B will lose all these stones")
    );
    assert!(
        tables["transcription_readings"]
            .iter()
            .any(|r| r["text"] == "in oppositioli")
    );
    let heads = tables["rule_citations"]
        .iter()
        .find(|r| r["ruleset"] == "njombwa-sanderson-gambit" && r["field"] == "heads.holes")
        .unwrap();
    assert_eq!(heads["kind"], "not_applicable");
    assert_eq!(heads["inherited_from"], "njombwa-sanderson-two-counters");
    let web = tables["evidence"]
        .iter()
        .find(|r| r["id"] == "ludii-dlp-1882-rules")
        .unwrap();
    assert_eq!(web["pages"], "", "no page locator for a database record");
    assert!(web["xref"].contains("DLP.Evidence.1882"));
    // List values never contain the separator themselves.
    for r in c.rulesets.values() {
        assert!(r.sources.iter().all(|s| !s.contains(';')));
    }
    for e in c.evidence.values() {
        assert!(e.xref.iter().chain(&e.rulesets).all(|s| !s.contains(';')));
    }
    for g in c.games.values() {
        assert!(g.names.iter().chain(&g.materials).all(|s| !s.contains(';')));
    }
}

/// The `frictionless` executable: `$TSORO_FRICTIONLESS`, or the one `scripts/frictionless-venv`
/// installs under `target/`.
fn frictionless() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("TSORO_FRICTIONLESS") {
        return Some(PathBuf::from(p));
    }
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/frictionless-venv/bin/frictionless");
    p.exists().then_some(p)
}

#[test]
fn frictionless_validates_the_package() {
    let Some(tool) = frictionless() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "frictionless not installed: CI runs scripts/frictionless-venv (.ci/run does)"
        );
        eprintln!(
            "frictionless not installed: run scripts/frictionless-venv (as .ci/run does) and set \
             TSORO_FRICTIONLESS to the path it prints"
        );
        return;
    };
    let d = tempfile::tempdir().unwrap();
    write_package(d.path());
    let out = std::process::Command::new(&tool)
        .args(["validate", "--json", "datapackage.json"])
        .current_dir(d.path())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", tool.display()));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(report["valid"], true, "{report:#}");
    assert!(out.status.success());
}
