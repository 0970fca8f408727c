//! The line games' bitboard kernel held to the reference (`morris/game.rs`): move by move
//! (position, generator state and tally after every decision) and game by game through
//! `random_playouts`, on every shipped line-game ruleset with its parameters, and on whole
//! configurations drawn from `Arbitrary`; and simulations give the same records on the kernel
//! and through the reference.

use proptest::prelude::*;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Kind, Params};
use tsoro_engine::morris::{MorrisConfig, MorrisGame, MorrisState};
use tsoro_engine::playout::{Playout, SliceFeed, play_out_reference, reference_step};
use tsoro_engine::rng::Rng;
use tsoro_engine::sim::{SimOptions, SimSpec, simulate};
use tsoro_engine::{AnyGame, Game};

/// The shipped line-game rulesets, each with its defaults and with each of its parameters'
/// other values.
fn rulesets() -> Vec<(String, MorrisGame)> {
    let mut out = vec![];
    for def in catalogue::all().iter().filter(|d| d.kind == Kind::Morris) {
        let mut variants: Vec<Vec<String>> = vec![vec![]];
        for p in &def.params {
            let v = serde_json::to_value(p).unwrap();
            if let Some(choices) = v.get("choices").and_then(|c| c.as_object()) {
                for c in choices.keys() {
                    variants.push(vec![format!("{}={c}", p.name)]);
                }
            } else if v.get("default").is_some_and(|d| d.is_boolean()) {
                let d = v["default"].as_bool().unwrap();
                variants.push(vec![format!("{}={}", p.name, !d)]);
            } else if p.name == "repetition" {
                variants.push(vec!["repetition=3".into()]);
            } else if p.name == "turn_limit" {
                variants.push(vec!["turn_limit=9".into()]);
            }
        }
        for pairs in variants {
            let params: Params = def.parse_params(pairs.iter().map(String::as_str)).unwrap();
            let AnyGame::Morris(g) = def.build(&params).unwrap() else {
                panic!("{} is a line game", def.id)
            };
            out.push((format!("{} {pairs:?}", def.id), g));
        }
    }
    assert!(
        out.len() >= 20,
        "every ruleset and parameter: {}",
        out.len()
    );
    out
}

/// Game `k` from `start`, played move by move on the kernel and through the reference: the
/// same position, generator and tally after every decision. Returns the decisions made.
fn move_by_move(g: &MorrisGame, start: &MorrisState, seed: u64, k: u64) -> Result<u32, String> {
    let mut reference = Playout::new(start.clone(), Rng::for_game(seed, k), k);
    let mut kernel = reference.clone();
    let mut n = 0;
    loop {
        let more = reference_step(g, &mut reference);
        let kernel_more = g.kernel_step(&mut kernel).ok_or("the gate refused")?;
        if reference != kernel || more != kernel_more {
            return Err(format!(
                "game {k}, decision {n}:\nreference {reference:?}\nkernel    {kernel:?}"
            ));
        }
        if !more {
            return Ok(n);
        }
        n += 1;
    }
}

/// Games `seeds` through `random_playouts` (on the kernel, many a call, as simulations play
/// them) end exactly as the reference plays them alone.
fn batch_agrees(g: &MorrisGame, seeds: std::ops::Range<u64>) -> Result<(), String> {
    let fresh = |k: u64| Playout::new(g.initial_state(), Rng::for_game(7, k), k);
    let mut batch: Vec<Playout<MorrisState>> = seeds.clone().map(fresh).collect();
    g.random_playouts(&mut SliceFeed::new(&mut batch));
    for (i, k) in seeds.enumerate() {
        let mut alone = fresh(k);
        play_out_reference(g, &mut alone);
        alone.tag = i as u64;
        if alone != batch[i] {
            return Err(format!(
                "game {k}: reference {alone:?}\nkernel {:?}",
                batch[i]
            ));
        }
    }
    Ok(())
}

#[test]
fn kernel_equals_reference_on_every_line_game_ruleset() {
    for (label, g) in rulesets() {
        assert!(
            g.has_kernel(),
            "{label}: the gate admits every shipped ruleset"
        );
        let mut decisions = 0;
        for k in 0..200 {
            decisions += move_by_move(&g, &g.initial_state(), 3, k)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
        }
        assert!(decisions > 200 * 5, "{label}: {decisions} decisions");
        batch_agrees(&g, 0..100).unwrap_or_else(|e| panic!("{label}: {e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// Any configuration: every field drawn (its `Arbitrary`, fitted within the constraints
    /// `compile()` checks), so a field added to the rules is drawn without editing this test.
    /// Where the kernel's gate refuses the rules, `random_playouts` must still give the
    /// reference's games (played by the reference).
    #[test]
    fn kernel_equals_reference_for_any_configuration(
        c in any::<MorrisConfig>(), seed in 0u64..1000,
    ) {
        if let Err(e) = agrees(c, seed) {
            prop_assert!(false, "{e}");
        }
    }
}

/// The property's check of one configuration: it compiles, and where the kernel's gate admits
/// it, games `seed..seed + 12` agree move by move; games `seed..seed + 24` give the reference's
/// games through `random_playouts` (on the reference where the gate refuses the rules).
fn agrees(c: MorrisConfig, seed: u64) -> Result<(), String> {
    let json = serde_json::to_string(&c).unwrap_or_default();
    let g = MorrisGame::new(
        c.compile()
            .map_err(|e| format!("drawn configurations compile: {json}: {e:?}"))?,
    );
    if g.has_kernel() {
        for k in seed..seed + 12 {
            move_by_move(&g, &g.initial_state(), 5, k).map_err(|e| format!("{json}\n{e}"))?;
        }
    }
    batch_agrees(&g, seed..seed + 24).map_err(|e| format!("{json}\n{e}"))
}

/// The cases the property failed on while the kernel was written, as it shrank them. Their
/// proptest seeds no longer draw them (the configuration has gained fields since, which changes
/// what a seed draws), so they are kept here, each with the field added since at its default.
const FOUND: [(&str, u64); 4] = [
    (
        r#"{"board": "twelve", "stones": 11, "first_player": "A", "placement": {"cancel": false, "cancel_line": false, "until": "hands_empty", "leave_line": "adjacent", "return_takes": false}, "movement": {"step": "adjacent", "flying_at": 0}, "lines": {"effect": "take", "per_move": "one", "flying_takes": false, "pass_if_no_take": false}, "take": {"protect_lines": false}, "end": {"lose_at": 0, "lose_next_only": false, "no_moves": "loss", "full_board": "draw", "repetition": 0, "turn_limit": 24, "limit_cuts_turn": false}}"#,
        0,
    ),
    (
        r#"{"board": "square", "stones": 11, "first_player": "A", "placement": {"cancel": true, "cancel_line": true, "until": "hands_empty", "leave_line": "off", "return_takes": false}, "movement": {"step": "adjacent", "flying_at": 0}, "lines": {"effect": "take", "per_move": "one", "flying_takes": false, "pass_if_no_take": false}, "take": {"protect_lines": false}, "end": {"lose_at": 0, "lose_next_only": false, "no_moves": "pass", "full_board": "draw", "repetition": 0, "turn_limit": 20, "limit_cuts_turn": false}}"#,
        0,
    ),
    (
        r#"{"board": "twelve", "stones": 0, "first_player": "A", "placement": {"cancel": false, "cancel_line": false, "until": "board_full", "leave_line": "off", "return_takes": false}, "movement": {"step": "adjacent", "flying_at": 0}, "lines": {"effect": "take", "per_move": "each", "flying_takes": false, "pass_if_no_take": false}, "take": {"protect_lines": false}, "end": {"lose_at": 0, "lose_next_only": false, "no_moves": "loss", "full_board": "draw", "repetition": 0, "turn_limit": 18, "limit_cuts_turn": false}}"#,
        65,
    ),
    (
        r#"{"board": "twelve", "stones": 0, "first_player": "A", "placement": {"cancel": true, "cancel_line": true, "until": "board_full", "leave_line": "off", "return_takes": false}, "movement": {"step": "adjacent", "flying_at": 0}, "lines": {"effect": "take", "per_move": "one", "flying_takes": false, "pass_if_no_take": false}, "take": {"protect_lines": false}, "end": {"lose_at": 0, "lose_next_only": true, "no_moves": "loss", "full_board": "draw", "repetition": 0, "turn_limit": 47, "limit_cuts_turn": false}}"#,
        0,
    ),
];

#[test]
fn the_cases_the_property_once_failed_on_agree() {
    for (json, seed) in FOUND {
        let c: MorrisConfig = serde_json::from_str(json).unwrap();
        agrees(c, seed).unwrap();
    }
    // The first case it found (moving anywhere with an unlimited supply: more moves than a
    // position holds) made the reference panic; `compile()` now refuses it.
    let c: MorrisConfig = serde_json::from_str(
        r#"{"board": "twelve", "stones": 0, "first_player": "A", "placement": {"cancel": true, "cancel_line": false, "until": "board_full", "leave_line": "off", "return_takes": false}, "movement": {"step": "anywhere", "flying_at": 0}, "lines": {"effect": "take", "per_move": "one", "flying_takes": false, "pass_if_no_take": false}, "take": {"protect_lines": false}, "end": {"lose_at": 0, "lose_next_only": false, "no_moves": "loss", "full_board": "draw", "repetition": 0, "turn_limit": 39, "limit_cuts_turn": false}}"#,
    )
    .unwrap();
    assert_eq!(c.compile().unwrap_err().field, "movement.step");
}

/// The drawn configurations the property plays: every one compiles (the generator draws
/// within `compile()`'s constraints), and the kernel's gate admits at least half of them (all
/// of them today: 2,000 of 2,000; the shares are printed).
#[test]
fn drawn_configurations_compile_and_reach_the_kernel() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = any::<MorrisConfig>();
    let (draws, mut compiled, mut admitted) = (2000, 0, 0);
    for _ in 0..draws {
        let c = strategy.new_tree(&mut runner).unwrap().current();
        if let Ok(r) = c.compile() {
            compiled += 1;
            admitted += MorrisGame::new(r).has_kernel() as u32;
        }
    }
    println!("{compiled} of {draws} drawn configurations compile, {admitted} play on the kernel");
    assert_eq!(compiled, draws, "every drawn configuration compiles");
    assert!(2 * admitted >= draws, "{admitted} of {draws} on the kernel");
}

/// A simulation of random agents on the kernel and the same simulation played action by
/// action through the reference (`SimOptions::reference`) give the same records and summary.
#[test]
fn simulations_on_the_kernel_equal_the_reference() {
    for (label, g) in rulesets() {
        let spec = SimSpec {
            agents: [AgentSpec::Random, AgentSpec::Random],
            games: 0..300,
            seed: 11,
            swap_seats: true,
            opening_plies: 0,
        };
        let mut runs = vec![];
        for reference in [false, true] {
            let opts = SimOptions {
                threads: 2,
                reference,
                ..SimOptions::default()
            };
            let mut recs = vec![];
            let s = simulate(&g, &spec, &opts, &mut |r| recs.push(r.clone())).unwrap();
            runs.push((recs, s));
        }
        assert_eq!(runs[0], runs[1], "{label}");
    }
}
