//! Golden files: complete random games of every shipped ruleset (actions, every state and the
//! result), checked in under `tests/golden/` and compared. After a deliberate rules change,
//! regenerate them with `TSORO_BLESS=1 cargo test -p tsoro-engine --test golden` and review
//! the diff.

use serde_json::{Value, json};
use std::path::PathBuf;
use tsoro_engine::catalogue::{self, Model, Params};
use tsoro_engine::replay::{ReplayRequest, replay};
use tsoro_engine::rng::Rng;
use tsoro_engine::{AnyGame, Game};

fn random_game(g: &AnyGame, seed: u64) -> Vec<Value> {
    tsoro_engine::with_game!(g, g => {
        let mut rng = Rng::from_seed(seed);
        let mut s = g.initial_state();
        let mut actions = vec![];
        while let Some(a) = g.random_action(&s, &mut rng) {
            actions.push(serde_json::to_value(a).unwrap());
            g.apply_unchecked(&mut s, a);
        }
        actions
    })
}

/// One JSON document per line for the states, so diffs stay readable.
fn render(doc: &Value) -> String {
    let mut out = String::from("{\n");
    let obj = doc.as_object().unwrap();
    let keys: Vec<&String> = obj.keys().collect();
    for (i, k) in keys.iter().enumerate() {
        let v = &obj[*k];
        out.push_str(&format!("  {}: ", serde_json::to_string(k).unwrap()));
        match v.as_array() {
            Some(items) if *k == "states" || *k == "actions" || *k == "events" => {
                out.push_str("[\n");
                for (j, it) in items.iter().enumerate() {
                    out.push_str("    ");
                    out.push_str(&serde_json::to_string(it).unwrap());
                    out.push_str(if j + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str("  ]");
            }
            _ => out.push_str(&serde_json::to_string(v).unwrap()),
        }
        out.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
    }
    out.push_str("}\n");
    out
}

/// Compares `text` with the golden file (or writes it when blessing).
fn check(path: &std::path::Path, text: &str, bless: bool, failures: &mut Vec<String>) {
    if bless {
        std::fs::write(path, text).unwrap();
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(old) if old == text => {}
        Ok(_) => failures.push(format!("{} differs", path.display())),
        Err(e) => failures.push(format!("{}: {e}", path.display())),
    }
}

/// Golden games beyond the defaults: (ruleset, parameter, value), one game each (seed 1).
static EXTRA: std::sync::LazyLock<Vec<(&str, &str, Value)>> = std::sync::LazyLock::new(|| {
    vec![
        ("tsoro-ludii-baia", "holes", json!(16)),
        ("tsoro-ludii-baia", "holes", json!(19)),
        ("dig-dig-matthews", "cancelled", json!("opponent")),
    ]
});

/// One random game (`seed`) of `g`, replayed through the public replay function and compared
/// with its golden file (`ID-SEED.json`, or `ID-NAME=VALUE-SEED.json` off the defaults).
fn golden_game(
    dir: &std::path::Path,
    id: &str,
    g: &AnyGame,
    params: &Params,
    seed: u64,
    bless: bool,
    failures: &mut Vec<String>,
) {
    let actions = random_game(g, seed);
    let req = ReplayRequest {
        ruleset: id.to_string(),
        params: params.clone(),
        actions: actions.clone(),
    };
    let out = replay(&req).unwrap();
    let doc = json!({
        "ruleset": id,
        "params": params,
        "seed": seed,
        "actions": actions,
        "result": out.result,
        "states": out.states,
    });
    let text = render(&doc);
    let tag: String = params
        .iter()
        .map(|(k, v)| format!("-{k}={}", v.as_str().map_or(v.to_string(), str::to_string)))
        .collect();
    let path = dir.join(format!("{id}{tag}-{seed}.json"));
    check(&path, &text, bless, failures);
    // The file replays to itself through the public replay function.
    let parsed: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        parsed["states"].as_array().unwrap().len(),
        actions.len() + 1
    );
}

#[test]
fn golden_games() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    // Only `1`: a stray `TSORO_BLESS=0` must not rewrite the files the test checks.
    let bless = std::env::var("TSORO_BLESS").is_ok_and(|v| v == "1");
    let mut failures = vec![];
    for def in catalogue::all() {
        let g = match def.build_model(&Params::new()).unwrap() {
            Model::Game(g) => g,
            Model::Nhodo(m) => {
                // A stochastic model: the records of its first games.
                let records: Vec<Value> = (0..6)
                    .map(|k| serde_json::to_value(m.play(1, k)).unwrap())
                    .collect();
                let doc = json!({"ruleset": def.id, "params": {}, "seed": 1, "events": records});
                let path = dir.join(format!("{}-1.json", def.id));
                check(&path, &render(&doc), bless, &mut failures);
                continue;
            }
        };
        for seed in [1u64, 2] {
            golden_game(
                &dir,
                &def.id,
                &g,
                &Params::new(),
                seed,
                bless,
                &mut failures,
            );
        }
    }
    // Parameters that change the board or a rule's reading beyond the defaults.
    for (id, name, value) in EXTRA.iter() {
        let def = catalogue::get(id).unwrap();
        let params = Params::from([(name.to_string(), value.clone())]);
        let g = def.build(&params).unwrap();
        golden_game(&dir, id, &g, &params, 1, bless, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "golden files differ (TSORO_BLESS=1 regenerates them after a deliberate change):\n{}",
        failures.join("\n")
    );
}

/// An illegal action in a replay names its index and the legal actions there.
#[test]
fn replay_rejects_illegal_actions() {
    let req: ReplayRequest = serde_json::from_value(json!({
        "ruleset": "tsoro-ludii", "params": {"holes": 8},
        "actions": [{"sow": "i,1"}, {"sow": "i,1"}]
    }))
    .unwrap();
    let err = replay(&req).unwrap_err();
    let j = err.to_json();
    assert_eq!(j["index"], 1);
    assert_eq!(j["error"], "illegal_action");
    assert!(
        j["legal"]
            .as_array()
            .unwrap()
            .contains(&json!({"sow": "iv,8"}))
    );
    let bad: ReplayRequest = serde_json::from_value(json!({
        "ruleset": "tsoro-ludii", "actions": [{"dance": "i,1"}]
    }))
    .unwrap();
    assert_eq!(replay(&bad).unwrap_err().to_json()["index"], 0);
    let unknown: ReplayRequest =
        serde_json::from_value(json!({"ruleset": "nope", "actions": []})).unwrap();
    assert!(
        replay(&unknown)
            .unwrap_err()
            .to_string()
            .contains("tsoro-ludii")
    );
    let range: ReplayRequest = serde_json::from_value(json!({
        "ruleset": "tsoro-ludii", "params": {"holes": 40}, "actions": []
    }))
    .unwrap();
    assert!(replay(&range).unwrap_err().to_string().contains("6..=21"));
}

/// Replay's states follow the documented shape.
#[test]
fn replay_shape() {
    let req: ReplayRequest = serde_json::from_value(json!({
        "ruleset": "tsoro-ludii", "params": {"holes": 8}, "actions": [{"sow": "i,6"}]
    }))
    .unwrap();
    let out = serde_json::to_value(replay(&req).unwrap()).unwrap();
    let s0 = &out["states"][0];
    assert_eq!(s0["board"]["i"], json!([2, 2, 2, 2, 2, 2, 2, 2]));
    assert_eq!(s0["board"]["ii"], json!([0, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(s0["to_move"], "A");
    assert_eq!(s0["captured"], json!({"A": 0, "B": 0}));
    assert_eq!(s0["legal"].as_array().unwrap().len(), 8);
    let s1 = &out["states"][1];
    assert_eq!(s1["to_move"], "B");
    assert_eq!(
        out["result"],
        json!({"winner": null, "reason": null, "turns": 1, "finished": false})
    );
}
