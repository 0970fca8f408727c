//! Ludii 1.3.13's readings of tsoro and njombwa against the worked positions of the peer
//! notes' section 6 (how Ludii really plays).

use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::describe::Describe;
use tsoro_engine::rng::Rng;
use tsoro_engine::sowing::{Action, BoardView, SowingGame, SowingState};
use tsoro_engine::{ActionList, AnyGame, EndReason, Game, Hole, Player};

fn game(id: &str, params: &[(&str, serde_json::Value)]) -> SowingGame {
    let p: Params = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    match catalogue::get(id).unwrap().build(&p).unwrap() {
        AnyGame::Sowing(g) => g,
        other => panic!("{id} is not a sowing game: {other:?}"),
    }
}

fn h(s: &str) -> Hole {
    s.parse().unwrap()
}

fn legal(g: &SowingGame, s: &SowingState) -> Vec<Action> {
    let mut l = ActionList::new();
    g.legal_actions(s, &mut l);
    l.to_vec()
}

fn row(v: &[u8]) -> Vec<u8> {
    v.to_vec()
}

/// Section 6, item 2: the game is cut after the first lap of turn 2,500 (here the turn limit
/// is 1 and 3), even when that lap ends in an occupied hole and a relay would follow.
#[test]
fn the_turn_limit_cuts_the_last_turn_after_its_first_lap() {
    let g = game("tsoro-ludii", &[("turn_limit", 1.into())]);
    let mut s = g.initial_state();
    // i,1's two stones fall into i,2 and i,3: i,3 now holds three, and a relay would follow.
    let rep = g.apply(&mut s, Action::Sow(h("i,1"))).unwrap();
    assert_eq!((rep.laps, rep.moves), (1, 1));
    let o = s.outcome().expect("cut");
    assert_eq!(
        (o.winner, o.reason, o.turns),
        (None, EndReason::TurnLimit, 1)
    );
    assert_eq!(s.board().i, row(&[0, 3, 3, 2, 2, 2, 2, 2]));
    assert_eq!(s.moves(), 1);

    // Turns 1 and 2 are played out; turn 3 is cut after its first lap.
    let g = game("tsoro-ludii", &[("turn_limit", 3.into())]);
    let whole = game("tsoro-matthews-basic", &[("turn_limit", 3.into())]);
    let mut s = g.initial_state();
    let mut w = whole.initial_state();
    for a in [Action::Sow(h("i,1")), Action::Sow(h("iv,8"))] {
        g.apply(&mut s, a).unwrap();
        whole.apply(&mut w, a).unwrap();
        assert_eq!(s.board(), w.board());
    }
    assert!(s.outcome().is_none());
    let a = Action::Sow(h("i,2"));
    let rep = g.apply(&mut s, a).unwrap();
    assert_eq!(rep.laps, 1);
    assert_eq!(
        s.outcome().map(|o| (o.reason, o.turns)),
        Some((EndReason::TurnLimit, 3))
    );
    // Played as whole turns, the same turn relays on.
    let rep = whole.apply(&mut w, a).unwrap();
    assert!(rep.laps > 1);
    assert_ne!(s.board(), w.board());
}

/// The board of A's side in A's sowing order.
fn side(s: &SowingState, p: Player) -> Vec<u32> {
    (0..16)
        .map(|k| s.count(Hole::from_track(p, k, 8)) as u32)
        .collect()
}

/// Section 6, item 2: a game stopped at 10,000 moves ends on exactly Ludii's board after its
/// 10,000th move. Random games reach endless relays; a naive lap-by-lap loop, counting moves
/// from the position before the sow, gives the board after the last move, which the engine
/// (computing it from the cycle) must show.
#[test]
fn an_endless_relay_ends_on_the_board_of_the_move_limit() {
    let g = game("tsoro-ludii", &[]);
    let mut confirmed = 0;
    for seed in 0..20_000u64 {
        let mut rng = Rng::from_seed(seed);
        let mut s = g.initial_state();
        while let Some(a) = g.random_action(&s, &mut rng) {
            let before = s.clone();
            let rep = g.apply_unchecked(&mut s, a);
            let Some(o) = s.outcome() else { continue };
            if rep.endless {
                assert_eq!((o.winner, o.reason), (None, EndReason::MoveLimit));
                assert_eq!(s.moves(), 10_000);
                let Action::Sow(start) = a else {
                    panic!("an endless relay starts with a sow, got {a}")
                };
                let p = before.to_move().unwrap();
                let mut naive = side(&before, p);
                let mut pos = start.track(8);
                let mut moves = before.moves();
                while moves < 10_000 {
                    let c = std::mem::take(&mut naive[pos]);
                    for _ in 0..c {
                        pos = (pos + 1) % 16;
                        naive[pos] += 1;
                    }
                    moves += 1;
                    assert!(naive[pos] > 1, "seed {seed}: the relay ended after all");
                }
                assert_eq!(side(&s, p), naive, "seed {seed}");
                assert_eq!(side(&s, p.other()), side(&before, p.other()));
                assert_eq!(rep.moves, 10_000 - before.moves());
                confirmed += 1;
            }
        }
        if confirmed >= 3 {
            break;
        }
    }
    assert!(confirmed >= 1, "no endless relay found");
}

fn board(i: [u8; 8], ii: [u8; 8], iii: [u8; 8], iv: [u8; 8]) -> BoardView {
    BoardView {
        i: i.to_vec(),
        ii: ii.to_vec(),
        iii: iii.to_vec(),
        iv: iv.to_vec(),
    }
}

fn take(s: &str) -> Action {
    Action::Take(h(s))
}

/// Section 6, item 4: Misoro Tsoro (Additional Capture)'s count of captures owed is one
/// variable for both players. A captures while B's only stones are in his misoro (immune to
/// the extra captures): A makes a forced pass and the count stays, so B, on his turn, must
/// make the captures owed from A's holes and cannot sow; when neither can take, each makes a
/// forced pass and the game is drawn (section 6, item 1).
#[test]
fn misoro_additional_captures_owed_pass_to_the_opponent() {
    let g = game(
        "tsoro-ludii-misoro-additional-capture",
        &[("start", "fixed-misoro".into())],
    );
    // A's misoro: i,1 and i,8; B's: iv,8 and iv,1 (their half-turn images).
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 2],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    // ii,5 sows ii,4 and ii,3 (empty): iii,3 is captured; B keeps only his two misoro.
    let rep = g.apply(&mut s, Action::Sow(h("ii,5"))).unwrap();
    assert_eq!(rep.captured, 1);
    assert_eq!(s.to_move(), Some(Player::A), "three captures are owed");
    assert_eq!(legal(&g, &s), vec![Action::Pass], "no hole can be taken");
    g.apply(&mut s, Action::Pass).unwrap();
    // B's turn: the three captures owed, from A's holes other than his misoro; no sowing.
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(legal(&g, &s), vec![take("ii,4"), take("ii,3")]);
    g.apply(&mut s, take("ii,4")).unwrap();
    assert_eq!(legal(&g, &s), vec![take("ii,3")]);
    g.apply(&mut s, take("ii,3")).unwrap();
    assert_eq!(s.captured(Player::B), 2);
    // One capture still owed and only A's misoro left: B's forced pass ends his turn.
    assert_eq!(legal(&g, &s), vec![Action::Pass]);
    g.apply(&mut s, Action::Pass).unwrap();
    // A owes it now, and B has only misoro: a turn of one forced pass; then B's the same.
    assert_eq!(s.to_move(), Some(Player::A));
    assert_eq!(legal(&g, &s), vec![Action::Pass]);
    g.apply(&mut s, Action::Pass).unwrap();
    assert!(s.outcome().is_none());
    assert_eq!(legal(&g, &s), vec![Action::Pass]);
    g.apply(&mut s, Action::Pass).unwrap();
    let o = s.outcome().expect("the all-pass draw");
    assert_eq!((o.winner, o.reason), (None, EndReason::NoMoves));
    assert_eq!(s.stones(Player::A) + s.stones(Player::B), 5);

    // With one more hole of A's to take, B makes all three captures owed and his turn ends;
    // A then sows as usual.
    let b = board(
        [1, 0, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 2],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    g.apply(&mut s, Action::Sow(h("ii,5"))).unwrap();
    g.apply(&mut s, Action::Pass).unwrap();
    for a in [take("i,4"), take("ii,3"), take("ii,4")] {
        assert_eq!(s.to_move(), Some(Player::B));
        g.apply(&mut s, a).unwrap();
    }
    assert_eq!(s.to_move(), Some(Player::A));
    assert_eq!(legal(&g, &s), vec![Action::Sow(h("i,1"))]);

    // Unshared (as Matthews' takes belong to the capture), the takes lapse with A's turn.
    let mut c = g.rules().config().clone();
    c.takes.shared = false;
    let m = SowingGame::new(c.compile().unwrap());
    let mut t = m.setup(&b, Player::A).unwrap();
    m.apply(&mut t, Action::Sow(h("ii,5"))).unwrap();
    assert_eq!(t.to_move(), Some(Player::B));
}

/// Tsoro (Reentered Captures), section 1.3 of the peer notes: the captured stones are sown
/// on from the hole after the capturing hole, in the same move, and the turn ends (no relay
/// or capture by that sowing, even when it ends in an occupied hole).
#[test]
fn reentered_captures_are_sown_from_the_next_hole() {
    let g = game("tsoro-ludii-reentered-captures", &[]);
    assert_eq!(g.rules().total_stones(), 32);
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0],
        [0, 0, 2, 0, 0, 0, 0, 1],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    // ii,5 sows ii,4 and ii,3 (empty): iii,3 and iv,3 (three stones) are captured and sown
    // on from ii,2: ii,2, ii,1 and i,1, which held a stone (no relay follows).
    let rep = g.apply(&mut s, Action::Sow(h("ii,5"))).unwrap();
    assert_eq!((rep.captured, rep.moves), (3, 1));
    assert_eq!(s.board().ii, row(&[1, 1, 1, 1, 0, 0, 0, 0]));
    assert_eq!(s.board().i, row(&[2, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(s.stones(Player::A), 6);
    assert_eq!(
        s.captured(Player::A),
        0,
        "the captured stones are back on the board"
    );
    assert_eq!(s.to_move(), Some(Player::B));

    // When the capture takes the opponent's last stones, the board still shows them re-sown.
    let b = board(
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0],
        [0, 0, 2, 0, 0, 0, 0, 0],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    g.apply(&mut s, Action::Sow(h("ii,5"))).unwrap();
    let o = s.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Player::A), EndReason::NoStones));
    assert_eq!(s.stones(Player::A), 5);
    assert_eq!(s.board().i, row(&[1, 0, 0, 0, 0, 0, 0, 0]));
}

/// Musoro Tsoro: one musoro a player, A's i,8 and B's iv,1, each starting with three stones;
/// a lap ending in the occupied musoro may stop there or relay on.
#[test]
fn musoro_starts_with_three_and_offers_the_stop() {
    let g = game("tsoro-ludii-musoro", &[]);
    let s0 = g.initial_state();
    assert_eq!(s0.board().i, row(&[2, 2, 2, 2, 2, 2, 2, 3]));
    assert_eq!(s0.board().iv, row(&[3, 2, 2, 2, 2, 2, 2, 2]));
    assert_eq!((s0.stones(Player::A), s0.stones(Player::B)), (17, 17));
    assert_eq!(s0.heads(Player::A), vec![h("i,8")]);
    assert_eq!(s0.heads(Player::B), vec![h("iv,1")]);
    let mut s = s0.clone();
    // i,6 sows i,7 and i,8: the musoro now holds four.
    g.apply(&mut s, Action::Sow(h("i,6"))).unwrap();
    assert_eq!(
        legal(&g, &s),
        vec![
            Action::Relay(tsoro_engine::sowing::RelayChoice::Stop),
            Action::Relay(tsoro_engine::sowing::RelayChoice::Continue)
        ]
    );
    g.apply(
        &mut s,
        Action::Relay(tsoro_engine::sowing::RelayChoice::Stop),
    )
    .unwrap();
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(s.moves(), 2, "the lap and the stop are two Ludii moves");
    assert_eq!(s.board().i, row(&[2, 2, 2, 2, 2, 0, 3, 4]));
    // B's mirror image.
    let mut c = g.rules().config().clone();
    c.first_player = Player::B;
    let gb = SowingGame::new(c.compile().unwrap());
    let mut t = gb.initial_state();
    gb.apply(&mut t, Action::Sow(h("iv,3"))).unwrap();
    assert_eq!(legal(&gb, &t).len(), 2);
    assert_eq!(t.board().iv, row(&[4, 3, 0, 2, 2, 2, 2, 2]));
}

/// Section 6, item 7: Njombwa (One Counter)'s opening is three turns of one forced move for
/// each player, alternating: the relay from the back row's right-hand end (8 laps on 4x8)
/// until it stops in the hole before it, the pair moved into the end hole, and the pair of the
/// second-to-right front-row hole removed.
#[test]
fn njombwa_one_counter_opening_is_three_forced_turns_each() {
    let g = game("njombwa-ludii-one-counter", &[]);
    let mut s = g.initial_state();
    assert_eq!(s.board().i, row(&[1; 8]));
    assert_eq!((s.stones(Player::A), s.stones(Player::B)), (16, 16));
    let move_ = |a: &str, b: &str| Action::Move([h(a), h(b)]);
    let steps = [
        (Player::A, Action::Sow(h("i,8")), 8),
        (Player::B, Action::Sow(h("iv,1")), 8),
        (Player::A, move_("i,7", "i,8"), 1),
        (Player::B, move_("iv,2", "iv,1"), 1),
        (Player::A, Action::Take(h("ii,7")), 1),
        (Player::B, Action::Take(h("iii,2")), 1),
    ];
    for (k, (p, a, moves)) in steps.into_iter().enumerate() {
        assert_eq!(s.to_move(), Some(p), "step {k}");
        assert_eq!(legal(&g, &s), vec![a], "step {k}: one forced action");
        let rep = g.apply(&mut s, a).unwrap();
        assert_eq!(rep.moves, moves, "step {k}");
        if k == 0 {
            // 7 -> 15, 15 -> 14,13, 13 -> 12,11, ... in Ludii's sites: the relay stops in i,7.
            assert_eq!(rep.laps, 8);
            assert_eq!(s.board().i, row(&[0, 2, 0, 2, 0, 2, 2, 0]));
            assert_eq!(s.board().ii, row(&[2, 0, 2, 0, 2, 0, 2, 0]));
        }
    }
    assert_eq!(s.board().i, row(&[0, 2, 0, 2, 0, 2, 0, 2]));
    assert_eq!(s.board().ii, row(&[2, 0, 2, 0, 2, 0, 0, 0]));
    // B's side is the half-turn image of A's.
    assert_eq!(s.board().iv, row(&[2, 0, 2, 0, 2, 0, 2, 0]));
    assert_eq!(s.board().iii, row(&[0, 0, 0, 2, 0, 2, 0, 2]));
    // One counter a hole is 2N = 16 stones a side; the opening removes two of each side's.
    assert_eq!((s.stones(Player::A), s.stones(Player::B)), (14, 14));
    assert_eq!(s.discarded(), 4);
    assert_eq!(s.turns(), 6);
    assert_eq!(s.moves(), 20);
    // Then the main phase: any hole of two or more.
    assert_eq!(s.to_move(), Some(Player::A));
    assert_eq!(legal(&g, &s).len(), 7);
}

/// Njombwa (Two Counters): two in every hole but the first two of each front row from the
/// player's left (none and one); no opening.
#[test]
fn njombwa_two_counters_start() {
    let g = game("njombwa-ludii-two-counters", &[]);
    let s = g.initial_state();
    assert_eq!(s.board().ii, row(&[0, 1, 2, 2, 2, 2, 2, 2]));
    assert_eq!(s.board().iii, row(&[2, 2, 2, 2, 2, 2, 1, 0]));
    assert_eq!((s.stones(Player::A), s.stones(Player::B)), (29, 29));
    assert_eq!(legal(&g, &s).len(), 14);
}

fn board13(set: &[(&str, u8)]) -> BoardView {
    let mut b = BoardView {
        i: vec![0; 13],
        ii: vec![0; 13],
        iii: vec![0; 13],
        iv: vec![0; 13],
    };
    for &(name, v) in set {
        let hole = h(name);
        let r = match name.split(',').next().unwrap() {
            "i" => &mut b.i,
            "ii" => &mut b.ii,
            "iii" => &mut b.iii,
            _ => &mut b.iv,
        };
        r[hole.num as usize - 1] = v;
    }
    b
}

/// Section 6, item 6, and section 1.7: Tsoro (Baia)'s first turn. A must sow ii,3; its last
/// stone falls into ii,1 and takes iii,1 and iv,1 (four stones) into A's hand; then come five
/// free captures, each a whole hole of B's but his first hole (iii,11), into the hand; then B
/// must sow iii,11, the mirror image.
#[test]
fn baia_first_turn_and_its_five_free_captures() {
    let g = game("tsoro-ludii-baia", &[]);
    let mut s = g.initial_state();
    let b = s.board();
    assert_eq!(b.i, row(&[0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]));
    assert_eq!(b.ii, row(&[0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]));
    assert_eq!(b.iii, row(&[2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0]));
    assert_eq!((s.stones(Player::A), s.stones(Player::B)), (47, 47));
    assert_eq!(legal(&g, &s), vec![Action::Sow(h("ii,3"))]);
    let rep = g.apply(&mut s, Action::Sow(h("ii,3"))).unwrap();
    assert_eq!((rep.laps, rep.captured), (1, 4));
    assert_eq!(s.board().ii[..3], [1, 2, 0]);
    assert_eq!((s.count(h("iii,1")), s.count(h("iv,1"))), (0, 0));
    let j = g.state_json(&s);
    assert_eq!(j["hands"], serde_json::json!({"A": 4, "B": 0}));
    // Five free captures: B's occupied holes but iii,11.
    for k in 0..5 {
        assert_eq!(s.to_move(), Some(Player::A), "free capture {k}");
        let l = legal(&g, &s);
        assert_eq!(l.len(), 21 - k);
        assert!(
            l.iter()
                .all(|a| matches!(a, Action::Take(t) if t.owner() == Player::B))
        );
        assert!(!l.contains(&Action::Take(h("iii,11"))));
        g.apply(&mut s, l[0]).unwrap();
    }
    assert_eq!(s.captured(Player::A), 4 + 5 * 2);
    assert_eq!(g.state_json(&s)["hands"]["A"], 14);
    assert_eq!(s.moves(), 6);
    assert_eq!(
        s.stones(Player::A) + s.stones(Player::B) + s.captured(Player::A),
        94
    );
    // B's first turn: iii,11 sows iii,12 and iii,13, taking ii,13 and i,13.
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(legal(&g, &s), vec![Action::Sow(h("iii,11"))]);
    let rep = g.apply(&mut s, Action::Sow(h("iii,11"))).unwrap();
    assert_eq!(rep.captured, 4);
    assert_eq!((s.count(h("ii,13")), s.count(h("i,13"))), (0, 0));
    // A's occupied holes: i,2..i,12 and ii,1, ii,2, ii,4..ii,12 (his first hole is empty).
    assert_eq!(legal(&g, &s).len(), 22);
}

/// Baia's main phase: a turn starts only from a hole whose previous hole is empty; a player
/// whose counter still stands at -1 (no capture in his first turn) earns two free captures,
/// not five; a player with no hole after an empty one makes a forced pass.
#[test]
fn baia_main_phase() {
    let g = game("tsoro-ludii-baia", &[]);
    let b = board13(&[
        ("ii,5", 2),
        ("ii,7", 1),
        ("iii,3", 1),
        ("iv,3", 2),
        ("iii,6", 1),
        ("iii,7", 1),
        ("iv,9", 1),
    ]);
    let mut s = g.setup(&b, Player::A).unwrap();
    // ii,7's previous hole (ii,8) is empty; ii,5's (ii,6) too: both may start, the single too.
    assert_eq!(
        legal(&g, &s),
        vec![Action::Sow(h("ii,7")), Action::Sow(h("ii,5"))]
    );
    let rep = g.apply(&mut s, Action::Sow(h("ii,5"))).unwrap();
    assert_eq!(rep.captured, 3);
    for _ in 0..2 {
        assert_eq!(s.to_move(), Some(Player::A));
        let l = legal(&g, &s);
        g.apply(&mut s, l[0]).unwrap();
    }
    assert_eq!(s.to_move(), Some(Player::B), "two free captures, not five");
    assert_eq!(s.stones(Player::B), 1);

    // Every hole of A's occupied: none follows an empty hole, so A must pass.
    let mut set: Vec<(String, u8)> = (1..=13).map(|k| (format!("i,{k}"), 1)).collect();
    set.extend((1..=13).map(|k| (format!("ii,{k}"), 1)));
    set.push(("iv,5".into(), 2));
    let set: Vec<(&str, u8)> = set.iter().map(|(a, v)| (a.as_str(), *v)).collect();
    let s = g.setup(&board13(&set), Player::A).unwrap();
    assert_eq!(legal(&g, &s), vec![Action::Pass]);
}

/// Every Ludii reading's random playouts run on the kernel (the whole-turn twin; games that
/// end in the last turn, or at a turn limit before it, played again by the reference).
#[test]
fn ludii_readings_on_the_kernel() {
    for (id, kernel) in [
        ("tsoro-ludii", true),
        ("tsoro-ludii-additional-capture", true),
        ("tsoro-ludii-misoro", true),
        ("tsoro-ludii-musoro", true),
        ("njombwa-ludii", true),
        ("njombwa-ludii-one-counter", true),
        ("njombwa-ludii-two-counters", true),
        // Captures sown back from the next hole, ending the turn: on the kernel.
        ("tsoro-ludii-reentered-captures", true),
        // A shared count of takes owed, heads immune to takes: on the kernel.
        ("tsoro-ludii-misoro-additional-capture", true),
        // Baia's rules (its first turn through the reference): on the kernel.
        ("tsoro-ludii-baia", true),
    ] {
        assert_eq!(game(id, &[]).has_kernel(), kernel, "{id}");
    }
}

/// The turn limit cuts a turn that begins with captures owed after its first capture.
#[test]
fn the_turn_limit_cuts_a_turn_of_captures_owed() {
    // The position of `misoro_additional_captures_owed_pass_to_the_opponent`, with A's
    // capture in turn 1 and B's captures owed in turn 2, the last.
    let g = game(
        "tsoro-ludii-misoro-additional-capture",
        &[("start", "fixed-misoro".into()), ("turn_limit", 2.into())],
    );
    let b = board(
        [1, 0, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 2],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    g.apply(&mut s, Action::Sow(h("ii,5"))).unwrap();
    g.apply(&mut s, Action::Pass).unwrap();
    assert_eq!(s.to_move(), Some(Player::B));
    g.apply(&mut s, take("i,4")).unwrap();
    let o = s.outcome().expect("cut after the turn's first move");
    assert_eq!((o.reason, o.turns), (EndReason::TurnLimit, 2));
    assert_eq!(s.captured(Player::B), 1);
}
