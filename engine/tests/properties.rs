//! Property tests of random play on every shipped ruleset and parameter extreme: stones are
//! conserved, a live game always has a legal action, play is deterministic per seed, and the
//! two players' positions mirror under a half turn of the board.

use proptest::prelude::*;
use tsoro_engine::catalogue;
use tsoro_engine::rng::Rng;
use tsoro_engine::sowing::{SowingGame, SowingState};
use tsoro_engine::{ActionList, AnyGame, Player};

fn games() -> Vec<(String, SowingGame)> {
    let mut out = vec![];
    for def in catalogue::all() {
        for p in def.param_samples() {
            match def.build(&p) {
                Ok(AnyGame::Sowing(g)) => out.push((format!("{} {:?}", def.id, p), g)),
                // Line games and nhodo have their own property tests.
                Ok(AnyGame::Morris(_)) | Err(catalogue::ParamError::NotAGame { .. }) => {}
                Err(e) => panic!("{} {:?}: {e}", def.id, p),
            }
        }
    }
    out
}

fn check_invariants(label: &str, g: &SowingGame, s: &SowingState) {
    let total = g.rules().total_stones();
    let board: u32 = Player::BOTH.iter().map(|&p| s.stones(p)).sum();
    let b = s.board();
    let counted: u32 = [&b.i, &b.ii, &b.iii, &b.iv]
        .iter()
        .flat_map(|r| r.iter())
        .map(|&v| v as u32)
        .sum();
    assert_eq!(board, counted, "{label}: side totals match the holes");
    assert_eq!(
        board + s.captured(Player::A) + s.captured(Player::B) + s.discarded(),
        total,
        "{label}: stones conserved"
    );
    let mut l = ActionList::new();
    g.legal_actions(s, &mut l);
    assert_eq!(
        s.outcome().is_some(),
        l.is_empty(),
        "{label}: live iff a legal action"
    );
}

/// Plays one random game, checking invariants and the mirror at every step; returns the
/// actions.
fn play(
    label: &str,
    g: &SowingGame,
    seed: u64,
    mirror: bool,
) -> (Vec<String>, Option<tsoro_engine::Outcome>) {
    let mut rng = Rng::from_seed(seed);
    let mut s = g.initial_state();
    let mut trail = vec![];
    let mut l = ActionList::new();
    for _ in 0..3000 {
        check_invariants(label, g, &s);
        g.legal_actions(&s, &mut l);
        if l.is_empty() {
            break;
        }
        let a = l[rng.below(l.len())];
        if mirror {
            let n = g.rules().holes();
            let m = s.mirrored();
            let mut ml = ActionList::new();
            g.legal_actions(&m, &mut ml);
            let mut rotated: Vec<_> = l.iter().map(|a| a.rotate(n)).collect();
            let mut mlv = ml.to_vec();
            rotated.sort_by_key(|a| a.to_string());
            mlv.sort_by_key(|a| a.to_string());
            assert_eq!(rotated, mlv, "{label}: legal actions mirror");
            let mut m2 = m.clone();
            let r1 = g.apply_unchecked(&mut s.clone(), a);
            let r2 = g.apply_unchecked(&mut m2, a.rotate(n));
            assert_eq!(r1, r2, "{label}: reports mirror");
            let mut s2 = s.clone();
            g.apply_unchecked(&mut s2, a);
            assert_eq!(s2.mirrored(), m2, "{label}: states mirror after {a}");
        }
        trail.push(a.to_string());
        g.apply_unchecked(&mut s, a);
    }
    (trail, s.outcome())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_invariants_and_mirrors(seed in any::<u64>()) {
        for (label, g) in games() {
            play(&label, &g, seed, true);
        }
    }

    #[test]
    fn play_is_deterministic_per_seed(seed in any::<u64>()) {
        for (label, g) in games().into_iter().step_by(3) {
            let a = play(&label, &g, seed, false);
            let b = play(&label, &g, seed, false);
            prop_assert_eq!(a, b);
        }
    }
}

/// Games end: with the default limits every random game finishes with a result.
#[test]
fn random_games_finish() {
    // (Samples with the largest turn limit may outlast the test's 3,000-step cap.)
    for (label, g) in games()
        .into_iter()
        .filter(|(l, _)| !l.contains("turn_limit"))
    {
        for seed in 0..3 {
            let (_, o) = play(&label, &g, seed, false);
            assert!(o.is_some(), "{label} seed {seed} did not finish");
        }
    }
}

/// One random game played action by action and by the fused playout: the final positions and
/// the moves each counted.
fn stepped_and_fused(g: &SowingGame, seed: u64) -> ((SowingState, u32), (SowingState, u32)) {
    let mut r1 = Rng::from_seed(seed);
    let mut r2 = Rng::from_seed(seed);
    let mut a = g.initial_state();
    let mut b = a.clone();
    let mut moves = 0;
    while let Some(x) = g.random_action(&a, &mut r1) {
        moves += g.apply_unchecked(&mut a, x).moves;
    }
    let fused = g.random_playout(&mut b, &mut r2);
    ((a, moves), (b, fused))
}

/// The fused random playout plays exactly the game of the action-by-action loop.
#[test]
fn fused_playout_equals_step_by_step() {
    for (label, g) in games() {
        for seed in 0..12 {
            let (stepped, fused) = stepped_and_fused(&g, seed);
            assert_eq!(stepped, fused, "{label} seed {seed}");
        }
    }
}

/// A configuration from drawn rule choices (`None` when the engine rejects the combination).
#[allow(clippy::too_many_arguments)]
fn drawn_config(
    holes: u8,
    back: u8,
    front: u8,
    skip: bool,
    relay: bool,
    capture: usize,
    resow: usize,
    singles: (bool, bool, bool),
    heads: usize,
    takes: (u8, u8),
    limits: (u32, u32),
) -> Option<SowingGame> {
    let (restricted, into_empty, single_capture) = singles;
    let heads_json = match heads {
        0 => serde_json::json!({"holes": [], "nominate": 0}),
        1 => serde_json::json!({"holes": ["i,N-1", "i,N"], "on_landing": "choose"}),
        2 => serde_json::json!({"holes": ["i,1"], "on_landing": "stop", "immune_to_takes": true}),
        _ => serde_json::json!({"holes": ["i,N"], "on_landing": "relay"}),
    };
    let back_capture = ["with_front", "require_both", "never"][capture];
    let resow_kind = ["off", "continue", "end_turn"][resow];
    let c = serde_json::json!({
        "holes": holes,
        "layout": {"back": back, "front": front},
        "sowing": {"relay": relay, "lap_origin": if skip { "skip" } else { "sow" },
                   "endless": if limits.0.is_multiple_of(2) { "draw" } else { "move_limit" }},
        "capture": {"back": back_capture, "resow": resow_kind},
        "singles": {"restricted": restricted, "into_empty": into_empty, "capture": single_capture},
        "heads": heads_json,
        "takes": {"schedule": if takes.0 == 0 { vec![] } else { vec![takes.0] }, "then": takes.1},
        "end": {"turn_limit": limits.0, "move_limit": limits.1},
    });
    let c: tsoro_engine::sowing::SowingConfig = serde_json::from_value(c).ok()?;
    Some(SowingGame::new(c.compile().ok()?))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    /// The fused playout plays the action-by-action game under any combination of rules, board
    /// sizes and stone counts, including whole rounds of sowing (on boards of 6 to 8 holes a
    /// row the loop keeps each side in a vector register, on larger ones in padded words).
    #[test]
    fn fused_playout_equals_step_by_step_for_any_rules(
        holes in 6u8..=21, back in 0u8..=5, front in 0u8..=3, rules in drawn_rules(),
        seed in any::<u64>(),
    ) {
        fused_agrees(holes, back, front, rules, seed)?;
    }

    /// The same on boards of 6 to 8 holes a row, with up to 10 stones a hole.
    #[test]
    fn fused_playout_equals_step_by_step_on_short_tracks(
        holes in prop_oneof![6u8..=8, 9u8..=21], back in 0u8..=10, front in 0u8..=4, rules in drawn_rules(),
        seed in any::<u64>(),
    ) {
        fused_agrees(holes, back, front, rules, seed)?;
    }
}

/// Rule choices drawn for [`drawn_config`]: lap origin skipped, relay, capture kind, resow kind,
/// singles, heads, takes and limits.
type RuleChoices = (
    bool,
    bool,
    usize,
    usize,
    (bool, bool, bool),
    usize,
    (u8, u8),
    (u32, u32),
);

fn drawn_rules() -> impl Strategy<Value = RuleChoices> {
    (
        any::<bool>(),
        any::<bool>(),
        0usize..3,
        0usize..3,
        (any::<bool>(), any::<bool>(), any::<bool>()),
        0usize..4,
        (0u8..3, 0u8..2),
        (50u32..400, 100u32..3000),
    )
}

/// The fused and the action-by-action game agree on a drawn configuration.
fn fused_agrees(
    holes: u8,
    back: u8,
    front: u8,
    (skip, relay, capture, resow, singles, heads, takes, limits): RuleChoices,
    seed: u64,
) -> Result<(), TestCaseError> {
    let Some(g) = drawn_config(
        holes, back, front, skip, relay, capture, resow, singles, heads, takes, limits,
    ) else {
        return Ok(());
    };
    let (stepped, fused) = stepped_and_fused(&g, seed);
    prop_assert_eq!(stepped, fused);
    Ok(())
}

/// Games played in lanes (`random_playouts`) against the same games played one by one: the same
/// final positions, moves and generators.
fn lanes_agree(g: &SowingGame, seeds: std::ops::Range<u64>) -> Result<(), String> {
    let mut batch: Vec<(SowingState, Rng)> = seeds
        .clone()
        .map(|k| (g.initial_state(), Rng::for_game(7, k)))
        .collect();
    let moves = g.random_playouts(&mut batch);
    for (i, k) in seeds.enumerate() {
        let mut s = g.initial_state();
        let mut r = Rng::for_game(7, k);
        let m = g.random_playout(&mut s, &mut r);
        if (&s, m, &r) != (&batch[i].0, moves[i], &batch[i].1) {
            return Err(format!(
                "game {k}: alone {s:?} ({m} moves)\nin lanes {:?} ({} moves)",
                batch[i].0, moves[i]
            ));
        }
    }
    Ok(())
}

/// Every shipped ruleset: 80 games in lanes (more than there are lanes, so lanes are refilled)
/// end exactly as they do one by one.
#[test]
fn lane_playouts_equal_one_by_one() {
    for (label, g) in games() {
        if let Err(e) = lanes_agree(&g, 0..80) {
            panic!("{label}: {e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// The same under any combination of the rules the lanes play, on boards of 6 to 8 holes
    /// a row (the lanes' fixed-length loops for 8) and of 9 to 21 (for 21, and of any length):
    /// back and front stones (whole rounds of sowing), the three capture kinds, singles
    /// that capture or not, no heads, fixed heads or nominated ones (with the choice to stop or
    /// relay), additional takes, both endless-relay rules and tight limits.
    #[test]
    fn lane_playouts_equal_one_by_one_for_any_rules(
        holes in prop_oneof![6u8..=8, 9u8..=21], back in 0u8..=10, front in 0u8..=4, capture in 0usize..3,
        single_capture in any::<bool>(), heads in 0usize..3, then in 0u8..4,
        endless_draw in any::<bool>(), limits in (20u32..400, 50u32..3000), seed in 0u64..1000,
    ) {
        let heads_json = match heads {
            0 => serde_json::json!({"holes": [], "nominate": 0}),
            1 => serde_json::json!({"holes": ["i,N-1", "i,N"], "on_landing": "choose"}),
            _ => serde_json::json!({"holes": [], "nominate": 2, "on_landing": "choose"}),
        };
        let back_capture = ["with_front", "require_both", "never"][capture];
        let c = serde_json::json!({
            "holes": holes,
            "layout": {"back": back, "front": front},
            "sowing": {"relay": true, "lap_origin": "sow",
                       "endless": if endless_draw { "draw" } else { "move_limit" }},
            "capture": {"back": back_capture, "resow": "off"},
            "singles": {"restricted": true, "into_empty": true, "capture": single_capture},
            "heads": heads_json,
            "takes": {"schedule": [], "then": then},
            "end": {"turn_limit": limits.0, "move_limit": limits.1},
        });
        let Ok(c) = serde_json::from_value::<tsoro_engine::sowing::SowingConfig>(c) else {
            return Ok(());
        };
        let Ok(rules) = c.compile() else { return Ok(()) };
        let g = SowingGame::new(rules);
        if let Err(e) = lanes_agree(&g, seed..seed + 40) {
            prop_assert!(false, "{}", e);
        }
    }
}
