//! The greedy agent scores every action exactly as a search of every further decision of the
//! turn would: the former implementation is kept here as the oracle, and the two must agree on
//! every legal action of positions reached by seeded play in every shipped ruleset (small
//! move and turn limits included), and on hand-made positions.

use serde_json::{Value, json};
use tsoro_engine::agents::GreedyAgent;
use tsoro_engine::catalogue::{self, Kind, Model, Params};
use tsoro_engine::morris::{MorrisGame, MorrisState};
use tsoro_engine::rng::Rng;
use tsoro_engine::sowing::{Action, BoardView, SowingGame};
use tsoro_engine::{ActionList, AnyGame, Game, Hole, Player};

/// The greedy agent's scores as the engine computed them before `Game::dominant_take`: every
/// legal action of every further decision of the turn, up to six, applied to copies.
mod oracle {
    use tsoro_engine::{ActionList, Game, Player};

    const WIN: i32 = 1 << 20;

    pub fn scores<G: Game>(g: &G, s: &G::State) -> Vec<(G::Action, i32)> {
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        let me = g.to_move(s).expect("a live game");
        legal
            .iter()
            .map(|&a| {
                (
                    a,
                    gain_within_turn(g, s, me, a, g.material(s, me.other()), 6),
                )
            })
            .collect()
    }

    fn gain_within_turn<G: Game>(
        g: &G,
        s: &G::State,
        me: Player,
        a: G::Action,
        before: i32,
        depth: u32,
    ) -> i32 {
        let mut t = s.clone();
        g.apply_unchecked(&mut t, a);
        if let Some(o) = g.outcome(&t) {
            match o.winner {
                Some(w) if w == me => return WIN,
                Some(_) => return -WIN,
                None => {}
            }
        }
        let now = before - g.material(&t, me.other());
        if depth == 0 || g.to_move(&t) != Some(me) {
            return now;
        }
        let mut legal = ActionList::new();
        g.legal_actions(&t, &mut legal);
        legal
            .iter()
            .map(|&b| gain_within_turn(g, &t, me, b, before, depth - 1))
            .max()
            .unwrap_or(now)
    }
}

/// What the checked positions covered.
#[derive(Debug, Default)]
struct Seen {
    /// Positions checked.
    positions: u64,
    /// Positions where the mover chooses a take (an additional take, or a take after a line).
    in_chain: u64,
    /// Chain positions within three moves of the move limit.
    chain_near_limit: u64,
    /// Positions where the mover chooses at a head: stop or relay on.
    at_head: u64,
    /// Positions where some action scores a win.
    wins: u64,
    /// Positions where some sow captures and leaves the mover takes to choose.
    chains_started: u64,
}

/// Asserts the agent's scores equal the oracle's at `s`.
fn same_scores<G: Game>(g: &G, s: &G::State, what: &str) -> Vec<(G::Action, i32)> {
    let fast = GreedyAgent::scores(g, s);
    let slow = oracle::scores(g, s);
    assert_eq!(fast, slow, "{what}: scores differ at {s:?}");
    fast
}

/// Plays seeded games (each seat random or greedy, by seed), checking the scores at every
/// decision; `classify` counts what the position covers.
fn check_games<G: Game>(
    g: &G,
    games: u64,
    seed: u64,
    what: &str,
    seen: &mut Seen,
    classify: &dyn Fn(&G, &G::State, &mut Seen),
) {
    let mut legal = ActionList::new();
    for k in 0..games {
        let mut rng = Rng::for_game(seed, k);
        let greedy_seat = [k % 3 == 1, k % 3 == 2];
        let mut s = g.initial_state();
        // Long games (turn limits of 100,000) are checked in their first decisions.
        for _ in 0..5_000 {
            let Some(p) = g.to_move(&s) else { break };
            let scores = same_scores(g, &s, what);
            seen.positions += 1;
            seen.wins += scores.iter().any(|&(_, v)| v == GreedyAgent::WIN) as u64;
            classify(g, &s, seen);
            let a = if greedy_seat[p.index()] {
                let best = scores.iter().map(|&(_, v)| v).max().unwrap_or(0);
                let ties: Vec<_> = scores.iter().filter(|&&(_, v)| v == best).collect();
                ties[rng.below(ties.len())].0
            } else {
                g.legal_actions(&s, &mut legal);
                legal[rng.below(legal.len())]
            };
            g.apply_unchecked(&mut s, a);
        }
    }
}

fn classify_sowing(g: &SowingGame, s: &<SowingGame as Game>::State, seen: &mut Seen) {
    let mut legal = ActionList::new();
    g.legal_actions(s, &mut legal);
    match legal[0] {
        Action::Take(_) => {
            seen.in_chain += 1;
            let limit = g.rules().config().end.move_limit;
            seen.chain_near_limit += (s.moves() + 3 >= limit) as u64;
        }
        Action::Relay(_) => seen.at_head += 1,
        Action::Sow(_) => {
            // A sow that captures and leaves the mover to take more.
            let me = g.to_move(s).expect("a live game");
            let mut next = ActionList::new();
            for &a in &legal {
                let mut t = s.clone();
                g.apply_unchecked(&mut t, a);
                g.legal_actions(&t, &mut next);
                if g.to_move(&t) == Some(me) && matches!(next.first(), Some(Action::Take(_))) {
                    seen.chains_started += 1;
                    break;
                }
            }
        }
        _ => {}
    }
}

fn classify_morris(_: &MorrisGame, s: &MorrisState, seen: &mut Seen) {
    seen.in_chain += (s.takes_owed() > 0) as u64;
}

/// A ruleset's configuration with some fields replaced (JSON pointers), built.
fn build_with(def: &catalogue::RulesetDef, params: &Params, set: &[(&str, Value)]) -> AnyGame {
    let mut config = def.resolve(params).expect("valid parameters");
    for (pointer, v) in set {
        *config
            .pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{}: no {pointer}", def.id)) = v.clone();
    }
    match catalogue::build_config(def.kind, config) {
        Ok(Model::Game(g)) => g,
        other => panic!("{}: {other:?}", def.id),
    }
}

/// Every shipped ruleset with decisions, at its defaults, at each sampled parameter value, and
/// (sowing games) with small move limits that cut relays and chains of takes.
#[test]
fn scores_equal_the_full_search_in_every_ruleset() {
    let mut checked = 0;
    for def in catalogue::all() {
        if def.kind == Kind::Nhodo {
            // A stochastic model without decisions: no agent plays it.
            assert!(def.build(&Params::new()).is_err(), "{}", def.id);
            continue;
        }
        let mut seen = Seen::default();
        let mut variants: Vec<(String, AnyGame, u64)> = Vec::new();
        // A ruleset fixed on a wide board (Ludii's Baia, 4x13) is checked on 4x8: the
        // oracle's search of every order of five takes would take minutes.
        let fixed_wide = def.kind == Kind::Sowing
            && !def.params.iter().any(|p| p.name == "holes")
            && def.config["holes"].as_u64().is_some_and(|h| h > 10);
        let narrow: &[(&str, Value)] = if fixed_wide {
            &[("/holes", json!(8))]
        } else {
            &[]
        };
        for params in def.param_samples() {
            // Only sizes up to 10 holes a row: the oracle's search of every order of takes
            // grows as the opponent's holes to the sixth power.
            if params
                .get("holes")
                .and_then(Value::as_u64)
                .is_some_and(|h| h > 10)
            {
                continue;
            }
            let name = format!("{} {params:?}", def.id);
            variants.push((name, build_with(def, &params, narrow), 4));
        }
        let limits: &[(&str, &[u32])] = match def.kind {
            Kind::Sowing => &[
                ("/end/move_limit", &[7, 12, 20, 33, 50, 80, 130]),
                ("/end/turn_limit", &[2, 5, 9, 17, 30]),
            ],
            _ => &[("/end/turn_limit", &[2, 5, 9, 17, 30, 60])],
        };
        {
            // The smallest board the ruleset allows.
            let holes: Params = def
                .params
                .iter()
                .filter(|p| p.name == "holes")
                .filter_map(|p| match p.kind {
                    catalogue::ParamKind::Int { min, .. } => Some((p.name.clone(), json!(min))),
                    _ => None,
                })
                .collect();
            for (pointer, values) in limits {
                for limit in values.iter() {
                    let name = format!("{} {pointer}={limit}", def.id);
                    let mut set = narrow.to_vec();
                    set.push((pointer, json!(limit)));
                    let g = build_with(def, &holes, &set);
                    variants.push((name, g, 12));
                }
            }
        }
        for (i, (name, g, games)) in variants.iter().enumerate() {
            match g {
                AnyGame::Sowing(g) => {
                    check_games(g, *games, 100 + i as u64, name, &mut seen, &classify_sowing)
                }
                AnyGame::Morris(g) => {
                    check_games(g, *games, 100 + i as u64, name, &mut seen, &classify_morris)
                }
            }
        }
        eprintln!("{}: {seen:?}", def.id);
        assert!(seen.positions > 100, "{}: {seen:?}", def.id);
        if def.kind == Kind::Sowing {
            let c = &def.config;
            let takes = c["takes"]["then"].as_u64() > Some(0)
                || c["takes"]["schedule"]
                    .as_array()
                    .is_some_and(|s| s.iter().any(|t| t.as_u64() > Some(0)));
            if takes {
                assert!(seen.in_chain > 50, "{}: {seen:?}", def.id);
                assert!(seen.chains_started > 20, "{}: {seen:?}", def.id);
                assert!(seen.chain_near_limit > 0, "{}: {seen:?}", def.id);
            }
            let heads = c["heads"]["holes"]
                .as_array()
                .is_some_and(|h| !h.is_empty())
                || c["heads"]["nominate"].as_u64() > Some(0);
            if heads && c["heads"]["on_landing"] == "choose" {
                assert!(seen.at_head > 0, "{}: {seen:?}", def.id);
            }
        }
        checked += 1;
    }
    assert_eq!(checked, catalogue::all().len() - 1);
}

/// Schedules of up to 2N takes (the largest allowed): the six-decision depth cuts the chain.
#[test]
fn long_schedules_are_cut_at_six_decisions() {
    let def = catalogue::get("tsoro-matthews-v7").unwrap();
    let params = Params::from([("holes".to_string(), json!(6))]);
    let mut seen = Seen::default();
    for (i, schedule) in [json!([12]), json!([12, 7]), json!([0, 12])]
        .iter()
        .enumerate()
    {
        let AnyGame::Sowing(g) = build_with(
            def,
            &params,
            &[
                ("/takes/schedule", schedule.clone()),
                ("/takes/then", json!(12)),
            ],
        ) else {
            panic!("a sowing game")
        };
        check_games(
            &g,
            6,
            40 + i as u64,
            &format!("schedule {schedule}"),
            &mut seen,
            &classify_sowing,
        );
    }
    eprintln!("long schedules: {seen:?}");
    assert!(seen.in_chain > 20 && seen.wins > 0, "{seen:?}");
}

fn sowing(id: &str) -> SowingGame {
    let Ok(AnyGame::Sowing(g)) = catalogue::get(id).unwrap().build(&Params::new()) else {
        panic!("{id} is a sowing game")
    };
    g
}

fn hole(h: &str) -> Hole {
    h.parse().unwrap()
}

/// The score of `a` at `s`, checked against the oracle.
fn score_of(g: &SowingGame, s: &<SowingGame as Game>::State, a: Action) -> i32 {
    let scores = same_scores(g, s, "hand-made");
    scores
        .iter()
        .find(|&&(b, _)| b == a)
        .unwrap_or_else(|| panic!("{a} is not legal: {scores:?}"))
        .1
}

/// ii,8's two stones end in empty ii,6: it takes iii,6 and iv,6 (4 + 4), then three takes.
fn capture_board(iii: [u8; 8], iv: [u8; 8]) -> BoardView {
    let mut iii = iii.to_vec();
    let mut iv = iv.to_vec();
    iii[5] = 4;
    iv[5] = 4;
    BoardView {
        i: vec![1, 0, 0, 0, 0, 0, 0, 0],
        ii: vec![0, 0, 0, 0, 0, 0, 0, 2],
        iii,
        iv,
    }
}

#[test]
fn a_chain_that_takes_the_last_stones_wins() {
    let g = sowing("tsoro-matthews-v5");
    let sow = Action::Sow(hole("ii,8"));
    // After the capture B has iii,2 and iv,8: three takes empty both, a win.
    let b = capture_board([0, 3, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 5]);
    let s = g.setup(&b, Player::A).unwrap();
    assert_eq!(score_of(&g, &s, sow), GreedyAgent::WIN);
    // Four holes left: the three fullest are taken (5 + 3 + 2), no win.
    let b = capture_board([1, 3, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 5]);
    let s = g.setup(&b, Player::A).unwrap();
    assert_eq!(score_of(&g, &s, sow), 8 + 5 + 3 + 2);
    // Inside the chain: each take scores what it and the best of the takes left take.
    let mut t = s.clone();
    g.apply_unchecked(&mut t, sow);
    assert_eq!(score_of(&g, &t, Action::Take(hole("iii,1"))), 1 + 5 + 3);
    assert_eq!(score_of(&g, &t, Action::Take(hole("iv,8"))), 5 + 3 + 2);
}

#[test]
fn immune_heads_are_never_taken() {
    let g = sowing("tsoro-matthews-v6");
    let s0 = g.setup(&capture_board([0; 8], [0; 8]), Player::A).unwrap();
    let heads = s0.heads(Player::B);
    assert_eq!(heads.len(), 2);
    // B keeps 9 stones in each head, 2 in iii,1 and 1 in iii,3: three takes find only these
    // two holes.
    let mut b = capture_board([2, 0, 1, 0, 0, 0, 0, 0], [0; 8]);
    for h in &heads {
        assert_eq!(
            h.row,
            tsoro_engine::Row::Iv,
            "B's heads lie in his back row"
        );
        b.iv[h.num as usize - 1] = 9;
    }
    let s = g.setup(&b, Player::A).unwrap();
    assert_eq!(score_of(&g, &s, Action::Sow(hole("ii,8"))), 8 + 2 + 1);
    // Without immunity (Variant 5 and 1) the heads are the takes' first prey.
    let g = sowing("tsoro-matthews-v1-v5");
    let s = g.setup(&b, Player::A).unwrap();
    assert_eq!(score_of(&g, &s, Action::Sow(hole("ii,8"))), 8 + 9 + 9 + 2);
}

#[test]
fn the_move_limit_cuts_a_chain_at_what_it_took() {
    let def = catalogue::get("tsoro-matthews-v5").unwrap();
    let b = capture_board([1, 3, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 5]);
    // The sow is one lap (one move); each take one more.
    for (limit, expect) in [(1, 8), (2, 8 + 5), (3, 8 + 5 + 3), (4, 8 + 5 + 3 + 2)] {
        let AnyGame::Sowing(g) =
            build_with(def, &Params::new(), &[("/end/move_limit", json!(limit))])
        else {
            panic!("a sowing game")
        };
        let s = g.setup(&b, Player::A).unwrap();
        assert_eq!(
            score_of(&g, &s, Action::Sow(hole("ii,8"))),
            expect,
            "move limit {limit}"
        );
    }
}

/// Tsoro Variant 7 opens with a forced capture and five takes that may not empty B's opening
/// hole: the first decision of every game is checked with and without that protection.
#[test]
fn the_forced_opening_chain() {
    let def = catalogue::get("tsoro-matthews-v7").unwrap();
    for opening in ["forced", "forced-unprotected"] {
        let params = Params::from([("opening".to_string(), json!(opening))]);
        let AnyGame::Sowing(g) = def.build(&params).unwrap() else {
            panic!("a sowing game")
        };
        let mut s = g.initial_state();
        let scores = same_scores(&g, &s, opening);
        assert_eq!(scores.len(), 1, "one forced move");
        let first = scores[0].0;
        g.apply_unchecked(&mut s, first);
        // Inside the chain: every take, the protected hole excluded or not, as the oracle.
        let takes = same_scores(&g, &s, opening);
        assert!(takes.len() > 5, "{takes:?}");
        let protected = !takes.iter().any(|&(a, _)| a == Action::Take(hole("iii,6")));
        assert_eq!(protected, opening == "forced", "{takes:?}");
    }
}

/// Sixteen takes due (2N, the most allowed): the search stops after six decisions, so the sow
/// scores its capture and the six fullest holes of the eight left.
#[test]
fn six_decisions_cut_a_long_chain() {
    let def = catalogue::get("tsoro-matthews-v5").unwrap();
    let AnyGame::Sowing(g) = build_with(def, &Params::new(), &[("/takes/then", json!(16))]) else {
        panic!("a sowing game")
    };
    let b = capture_board([1, 2, 3, 0, 0, 0, 5, 6], [7, 0, 9, 10, 0, 0, 0, 0]);
    let s = g.setup(&b, Player::A).unwrap();
    assert_eq!(
        score_of(&g, &s, Action::Sow(hole("ii,8"))),
        8 + 10 + 9 + 7 + 6 + 5 + 3
    );
}
