//! Bad configurations and parameters get errors that name the field and what is allowed.

use serde_json::json;
use tsoro_engine::catalogue::{self, Kind, ParamError, Params};
use tsoro_engine::sowing::SowingConfig;

fn compile(v: serde_json::Value) -> Result<(), String> {
    let c: SowingConfig = serde_json::from_value(v).map_err(|e| e.to_string())?;
    c.compile().map(|_| ()).map_err(|e| e.to_string())
}

#[test]
fn config_errors_name_the_field() {
    let cases = [
        (
            json!({"holes": 5, "layout": {"back": 2}}),
            "holes: 5 holes per row: allowed 6 to 21",
        ),
        (
            json!({"layout": {"back": 2, "set": {"i,99": 3}}}),
            "layout.set.\"i,99\"",
        ),
        (
            json!({"layout": {"back": 2, "set": {"iii,1": 3}}}),
            "this layout is A's",
        ),
        (
            json!({"layout": {"back": 200}}),
            "layout: 3200 stones in all: at most 255",
        ),
        (json!({"layout": {}}), "layout: A starts with no stones"),
        (
            json!({"layout": {"back": 2}, "heads": {"holes": ["ii,1"]}}),
            "heads.holes[0]",
        ),
        (
            json!({"layout": {"back": 2}, "heads": {"immune_to_takes": true}}),
            "heads.immune_to_takes",
        ),
        (
            json!({"layout": {"back": 2}, "takes": {"then": 40}}),
            "takes.then",
        ),
        (
            json!({"layout": {"back": 2}, "takes": {"then": 1}, "capture": {"resow": "continue"}}),
            "capture.resow",
        ),
        (
            json!({"layout": {"back": 2}, "opening": {"kind": "forced", "a": "ii,3"}}),
            "opening.a",
        ),
        (
            json!({"layout": {"back": 2}, "end": {"turn_limit": 0}}),
            "end.turn_limit",
        ),
    ];
    for (cfg, expect) in cases {
        let err = compile(cfg.clone()).unwrap_err();
        assert!(
            err.contains(expect),
            "{cfg}: {err:?} should contain {expect:?}"
        );
    }
    // Unknown fields are refused, naming them.
    let err = compile(json!({"layout": {"back": 2}, "sowing": {"relya": true}})).unwrap_err();
    assert!(err.contains("relya"), "{err}");
}

#[test]
fn parameter_errors_list_what_is_valid() {
    let def = catalogue::get("tsoro-matthews-basic").unwrap();
    let e = def.parse_params(["holes=40"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "parameter holes = 40 is out of range; allowed: 6..=21"
    );
    let e = def.parse_params(["colour=red"]).unwrap_err();
    assert!(matches!(e, ParamError::UnknownParam { .. }));
    assert!(e.to_string().contains("holes"), "{e}");
    let e = def.parse_params(["layout=spiral"]).unwrap_err();
    assert!(e.to_string().contains("back-rows|every-hole"), "{e}");
    let e = catalogue::get("tsoro").unwrap_err();
    assert!(e.to_string().contains("tsoro-matthews-basic"));
    let p: Params = [("holes".to_string(), json!(12))].into();
    assert!(def.build(&p).is_ok());
}

/// Every shipped ruleset builds at every parameter extreme and every choice (the corpus checks
/// the same with its citations).
#[test]
fn every_parameter_sample_builds() {
    for def in catalogue::all() {
        for p in def.param_samples() {
            def.build_model(&p)
                .unwrap_or_else(|e| panic!("{} {p:?}: {e}", def.id));
        }
    }
}

/// `RULE_FIELDS` (the fields the corpus cites a source for) names every field of the
/// configuration, and nothing else: a field added to the configuration must be cited, and
/// said in words for readers.
#[test]
fn rule_fields_are_the_configurations_fields() {
    let c: tsoro_engine::sowing::SowingConfig =
        serde_json::from_value(serde_json::json!({"layout": {"back": 2, "front": 2}}))
            .expect("a minimal configuration");
    let v = serde_json::to_value(&c).expect("serializes");
    let fields: Vec<&str> = tsoro_engine::sowing::RULE_FIELDS
        .iter()
        .map(|f| f.name)
        .collect();
    let mut seen = vec![];
    for (k, sub) in v.as_object().expect("an object") {
        if fields.contains(&k.as_str()) {
            seen.push(k.clone());
            continue;
        }
        let sub = sub
            .as_object()
            .unwrap_or_else(|| panic!("field {k} is not in RULE_FIELDS"));
        for s in sub.keys() {
            let path = format!("{k}.{s}");
            assert!(
                fields.contains(&path.as_str()),
                "{path} is not in RULE_FIELDS"
            );
            seen.push(path);
        }
    }
    let mut listed: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    listed.sort();
    seen.sort();
    assert_eq!(listed, seen, "RULE_FIELDS and the configuration's fields");
    // Every kind's fields are said in words: a sentence, not the name again.
    for kind in [Kind::Sowing, Kind::Morris, Kind::Nhodo] {
        for f in tsoro_engine::catalogue::rule_fields(kind) {
            assert!(
                f.about.len() > f.name.len() && f.about.ends_with('.'),
                "{kind:?} {}: {:?}",
                f.name,
                f.about
            );
        }
    }
}

/// The ruleset files keep the configuration and nothing else (issue 31, item 12): the words —
/// what was read, reconstructed or assumed, each choice's reason, quotations — are the
/// archive's (`corpus/rulesets/`). A file has only the configuration's fields, and a
/// parameter's description is a one-sentence label of what it sets: no quotation, no source
/// named, no reasoning.
#[test]
fn ruleset_files_carry_no_prose() {
    const TOP: &[&str] = &["id", "kind", "game", "title", "config", "params"];
    const PARAM: &[&str] = &[
        "name",
        "type",
        "description",
        "default",
        "min",
        "max",
        "set",
        "choices",
    ];
    const SOURCES: &[&str] = &[
        "Matthews",
        "Ludii",
        "Sanderson",
        "Russ",
        "Mancala",
        "Tracey",
        "Newell",
        "Murray",
    ];
    const REASONS: &[&str] = &[
        "reading",
        " read ",
        "silent",
        "assumed",
        "reconstruct",
        "not in ",
        "the source",
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("engine/rulesets") {
        let path = entry.expect("a directory entry").path();
        let text = std::fs::read_to_string(&path).expect("readable");
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let name = path.display();
        for k in v.as_object().expect("an object").keys() {
            assert!(
                TOP.contains(&k.as_str()),
                "{name}: field {k:?} is not configuration"
            );
        }
        for p in v["params"].as_array().expect("params") {
            for k in p.as_object().expect("a parameter").keys() {
                assert!(PARAM.contains(&k.as_str()), "{name}: parameter field {k:?}");
            }
            let d = p["description"].as_str().expect("a description");
            let at = format!("{name}: {}: {d:?}", p["name"]);
            assert!(d.len() <= 250, "{at}: a label, not an essay");
            assert!(
                d.ends_with('.') && !d[..d.len() - 1].contains(". "),
                "{at}: one sentence"
            );
            assert!(!d.contains('"'), "{at}: quotes");
            assert!(
                !d.contains(" '") && !d.contains("('") && !d.starts_with('\''),
                "{at}: quotes"
            );
            for w in SOURCES {
                assert!(!d.contains(w), "{at}: names a source ({w})");
            }
            for w in REASONS {
                assert!(
                    !d.to_lowercase().contains(w),
                    "{at}: gives a reason ({w:?})"
                );
            }
        }
        files += 1;
    }
    assert_eq!(
        files,
        catalogue::all().len(),
        "one file per shipped ruleset"
    );
}

/// The catalogue is found from its files (by `build.rs`), not a list kept by hand: its ids
/// are the names of `engine/rulesets/*.json`, every one of them, in file-name order.
#[test]
fn the_catalogue_is_its_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("engine/rulesets")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let stems: Vec<String> = files
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(stems.len() >= 30, "{stems:?}");
    assert_eq!(catalogue::ids(), stems);
}
