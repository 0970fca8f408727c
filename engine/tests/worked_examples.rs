//! The rules against the worked examples of the sources.

use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::sowing::{Action, BoardView, Event, RelayChoice, SowingGame, SowingState};
use tsoro_engine::{ActionList, AnyGame, EndReason, Game, Hole, Player, Row};

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

fn sow(s: &str) -> Action {
    Action::Sow(h(s))
}

fn legal(g: &SowingGame, s: &SowingState) -> Vec<Action> {
    let mut l = ActionList::new();
    g.legal_actions(s, &mut l);
    l.to_vec()
}

fn board(i: [u8; 8], ii: [u8; 8], iii: [u8; 8], iv: [u8; 8]) -> BoardView {
    BoardView {
        i: i.to_vec(),
        ii: ii.to_vec(),
        iii: iii.to_vec(),
        iv: iv.to_vec(),
    }
}

/// Matthews (b): "if A is playing and his final stone drops into Row ii, hole 3, and B has
/// stones in Row iii, hole 3, and Row iv, hole 3, B will lose all those stones."
#[test]
fn matthews_capture_takes_front_and_back() {
    let g = game("tsoro-matthews-basic", &[]);
    // A sows the two stones of ii,5: ii,4 then ii,3 (empty).
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 1],
        [0, 0, 2, 0, 0, 0, 0, 1],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    assert_eq!(legal(&g, &s), vec![sow("ii,5")]);
    let (rep, ev) = g.apply_traced(&mut s, sow("ii,5"));
    assert_eq!(rep.captured, 3);
    assert_eq!(s.count(h("iii,3")), 0);
    assert_eq!(s.count(h("iv,3")), 0);
    assert_eq!(s.captured(Player::A), 3);
    assert!(ev.contains(&Event::Capture {
        at: h("ii,3"),
        taken: vec![(h("iii,3"), 1), (h("iv,3"), 2)]
    }));
    assert_eq!(s.to_move(), Some(Player::B));
}

/// Matthews (b): "He cannot lose his stones from iv, 3, however, if iii, 3 is not occupied."
#[test]
fn matthews_capture_needs_the_front_hole() {
    let g = game("tsoro-matthews-basic", &[]);
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 2, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 2, 0, 0, 0, 0, 1],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    let rep = g.apply(&mut s, sow("ii,5")).unwrap();
    assert_eq!(rep.captured, 0);
    assert_eq!(s.count(h("iv,3")), 2);
    assert_eq!(s.count(h("ii,3")), 1);
}

/// The strict reading of (b) ("both holes ... are occupied") as a parameter.
#[test]
fn strict_reading_requires_both_holes() {
    let g = game(
        "tsoro-matthews-basic",
        &[("back_capture", "require_both".into())],
    );
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 2, 0, 0, 0],
        [0, 0, 3, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 1],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    assert_eq!(g.apply(&mut s, sow("ii,5")).unwrap().captured, 0);
    assert_eq!(s.count(h("iii,3")), 3);
}

/// Relay: a last stone in an occupied hole lifts it and sowing goes on (Matthews (a)); Ludii's
/// worked example: from i,1 the laps end at i,3, i,6 and ii,8.
#[test]
fn relay_sowing_follows_ludii_worked_example() {
    let g = game("tsoro-ludii", &[]);
    let mut s = g.initial_state();
    let (rep, ev) = g.apply_traced(&mut s, sow("i,1"));
    assert_eq!(rep.laps, 3);
    assert_eq!(rep.moves, 3, "each lap is one Ludii move");
    let lasts: Vec<Hole> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Lap { last, .. } => Some(*last),
            _ => None,
        })
        .collect();
    assert_eq!(lasts, vec![h("i,3"), h("i,6"), h("ii,8")]);
    assert_eq!(s.to_move(), Some(Player::B));
    // The mirror turn for B: from iv,8 (B's own leftmost) ending at iii,1.
    let (_, ev) = g.apply_traced(&mut s, sow("iv,8"));
    assert!(matches!(ev.last(), Some(Event::Lap { last, .. }) if *last == h("iii,1")));
}

/// Matthews (d) and (e): the singles stage.
#[test]
fn singles_stage() {
    let g = game("tsoro-matthews-basic", &[]);
    // A has a double: only it may start a move.
    let b = board(
        [1, 1, 0, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 2, 0],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 1],
    );
    let s = g.setup(&b, Player::A).unwrap();
    assert_eq!(legal(&g, &s), vec![sow("ii,7")]);
    // Only singles: each may move, but only into an empty next hole.
    let b = board(
        [1, 1, 0, 1, 0, 0, 0, 1],
        [1, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 1],
    );
    let s = g.setup(&b, Player::A).unwrap();
    let mut l = legal(&g, &s);
    l.sort_by_key(|a| a.to_string());
    // i,1 -> i,2 is occupied; i,8 -> ii,8 is occupied; ii,1 -> i,1 is occupied.
    assert_eq!(l, vec![sow("i,2"), sow("i,4"), sow("ii,8")]);
}

/// A single moved into an empty front hole captures (Sanderson for njombwa; our reading of
/// Matthews (b)); Ludii's njombwa forbids it.
#[test]
fn single_capture_is_a_parameter() {
    let b = board(
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 1, 1],
        [0, 0, 0, 0, 0, 0, 2, 0],
    );
    for (id, takes) in [("njombwa-sanderson-two-counters", 3), ("njombwa-ludii", 0)] {
        let g = game(id, &[]);
        let mut s = g.setup(&b, Player::A).unwrap();
        assert_eq!(legal(&g, &s), vec![sow("ii,8")]);
        assert_eq!(
            g.apply(&mut s, sow("ii,8")).unwrap().captured,
            takes,
            "{id}"
        );
    }
}

/// Variant 2: one head with three stones; Variant 1: stop or relay in an occupied head.
#[test]
fn variant_2_head_and_relay_choice() {
    let g = game("tsoro-matthews-v2", &[]);
    let s = g.initial_state();
    assert_eq!(s.count(h("i,1")), 3);
    assert_eq!(s.count(h("iv,8")), 3, "B's head is the half-turn image");
    assert_eq!(s.heads(Player::A), vec![h("i,1")]);
    assert_eq!(s.heads(Player::B), vec![h("iv,8")]);
    assert_eq!(s.stones(Player::A), 17);

    // A lap ending in the occupied head offers the choice.
    let b = board(
        [2, 0, 0, 0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 1],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    // ii,1 is a single but i,1 holds two: only i,1 may start. Build a lap into the head:
    let b2 = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 1],
    );
    let _ = g.apply(&mut s, sow("i,1")).unwrap();
    let mut s = g.setup(&b2, Player::A).unwrap();
    // ii,1 (2 stones) sows i,1 (head, occupied) and i,2? No: ii,1 -> i,1, i,2; last in empty i,2.
    g.apply(&mut s, sow("ii,1")).unwrap();
    assert_eq!(s.to_move(), Some(Player::B));
    let b3 = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 2, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 1],
    );
    // ii,2 -> ii,1, i,1: the last stone falls in the occupied head.
    let mut s = g.setup(&b3, Player::A).unwrap();
    g.apply(&mut s, sow("ii,2")).unwrap();
    assert_eq!(
        legal(&g, &s),
        vec![
            Action::Relay(RelayChoice::Stop),
            Action::Relay(RelayChoice::Continue)
        ]
    );
    let mut stop = s.clone();
    g.apply(&mut stop, Action::Relay(RelayChoice::Stop))
        .unwrap();
    assert_eq!(stop.count(h("i,1")), 2, "the stock-pile stays in the head");
    assert_eq!(stop.to_move(), Some(Player::B));
    let mut go = s.clone();
    g.apply(&mut go, Action::Relay(RelayChoice::Continue))
        .unwrap();
    assert_eq!(go.count(h("i,1")), 0);
    assert_eq!(go.count(h("i,2")), 1);
    assert_eq!(go.count(h("i,3")), 1);
}

/// Variant 7: "This will enable each player to take four stones from his opponent immediately
/// and then ... stones from five more holes as an additional take following the first take."
/// With Diagram B reconstructed (each player's two left-hand holes of the back and front rows
/// empty but for a single in the second front hole) and Matthews' ii,6 / iii,3 read as our
/// ii,3 / iii,6 (his holes numbered from the other end), both first moves take four.
#[test]
fn variant_7_first_moves_take_four_then_five_three_two() {
    let g = game("tsoro-matthews-v7", &[]);
    let mut s = g.initial_state();
    assert_eq!(s.board().ii, vec![0, 1, 2, 2, 2, 2, 2, 2]);
    assert_eq!(s.board().i, vec![0, 2, 2, 2, 2, 2, 2, 2]);
    assert_eq!(s.board().iii, vec![2, 2, 2, 2, 2, 2, 1, 0]);
    assert_eq!(legal(&g, &s), vec![sow("ii,3")]);
    let rep = g.apply(&mut s, sow("ii,3")).unwrap();
    assert_eq!(rep.captured, 4, "A's first move takes four stones at once");
    // Five additional takes follow; B's opening hole iii,6 is not among them.
    let takes = legal(&g, &s);
    assert!(takes.iter().all(|a| matches!(a, Action::Take(_))));
    assert!(!takes.contains(&Action::Take(h("iii,6"))));
    for i in 0..5 {
        assert_eq!(s.to_move(), Some(Player::A), "take {i}");
        let a = *legal(&g, &s)
            .iter()
            .find(|a| !matches!(a, Action::Take(x) if x.row == Row::Iii && x.num >= 5))
            .unwrap();
        g.apply(&mut s, a).unwrap();
    }
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(legal(&g, &s), vec![sow("iii,6")]);
    let rep = g.apply(&mut s, sow("iii,6")).unwrap();
    assert_eq!(rep.captured, 4, "B's first move takes four stones too");
    // A's occupied holes: i,2..i,7 and ii,1, ii,2, ii,4..ii,7 (B took ii,8 and i,8).
    assert_eq!(
        legal(&g, &s).len(),
        12,
        "five takes due, from A's 12 occupied holes"
    );
}

/// Variant 7 read in the literal numbering (A opens at our ii,6, B at iii,3), over every
/// point-symmetric layout with two stones in each back-row hole and 0 to 3 in each front-row
/// hole (the lost Diagram B; additional takes left out, as they come after the first take).
/// What the engine finds: no such layout lets both first moves take four by a plain two-stone
/// sowing (A's sowing drops a stone into the hole whose mirror B's reply would need), but some
/// let both take four after relays. So the literal numbering is not impossible; the reversed
/// numbering stays the best-supported reading for the reasons the archive records (the tactics
/// note's blocking stone in iii,8, Variant 1's swoop, Ludii's layout for Tracey's game, and
/// Sanderson's "third way" start, where the same front-row pattern takes four at once).
#[test]
fn variant_7_literal_numbering_takes_four_each_only_after_relays() {
    let g = game("tsoro-matthews-basic", &[]);
    let (mut direct, mut relayed, mut one_relay) = (0, 0, 0);
    let mut first_relayed = None;
    for code in 0..4u32.pow(8) {
        let mut ii = [0u8; 8];
        for (k, v) in ii.iter_mut().enumerate() {
            *v = ((code >> (2 * k)) & 3) as u8;
        }
        if ii[5] < 2 {
            continue; // A must be able to open at ii,6
        }
        // B's side is A's turned half round: iii,k holds what ii,9-k does.
        let mut iii = ii;
        iii.reverse();
        let b = board([2; 8], ii, iii, [2; 8]);
        let Ok(mut s) = g.setup(&b, Player::A) else {
            continue;
        };
        if !legal(&g, &s).contains(&sow("ii,6")) {
            continue;
        }
        let ra = g.apply(&mut s, sow("ii,6")).unwrap();
        if ra.captured != 4 || s.to_move() != Some(Player::B) {
            continue;
        }
        if !legal(&g, &s).contains(&sow("iii,3")) {
            continue;
        }
        let rb = g.apply(&mut s, sow("iii,3")).unwrap();
        if rb.captured != 4 {
            continue;
        }
        if ra.laps == 1 && rb.laps == 1 {
            direct += 1;
        } else {
            relayed += 1;
            if ra.laps == 2 && rb.laps == 2 {
                one_relay += 1;
                first_relayed.get_or_insert((ii, ra.laps, rb.laps));
            }
        }
    }
    assert_eq!(
        direct, 0,
        "no plain two-stone opening takes four on both sides"
    );
    assert!(relayed > 0, "but openings with relays do");
    assert!(one_relay > 0, "some with a single relay on each side");
    let (ii, la, lb) = first_relayed.unwrap();
    eprintln!(
        "e.g. front row {ii:?}: A in {la} laps, B in {lb} ({relayed} layouts in all, \
         {one_relay} with one relay each)"
    );
}

fn play_forced(g: &SowingGame, s: &mut SowingState) -> Vec<(Player, Action, u32)> {
    let mut out = vec![];
    loop {
        let l = legal(g, s);
        if l.len() != 1 {
            return out;
        }
        let p = s.to_move().unwrap();
        let rep = g.apply(s, l[0]).unwrap();
        out.push((p, l[0], rep.captured));
    }
}

/// Njombwa's gambit on larger boards, where Sanderson gives no numbers: 29/2/1 by default, or
/// his pattern kept (every man of a side at two a hole but three in the end hole).
#[test]
fn sanderson_gambit_on_larger_boards() {
    let g = game(
        "njombwa-sanderson-gambit",
        &[("holes", serde_json::json!(9))],
    );
    let s = g.initial_state();
    assert_eq!(s.board().i[..3], [29, 2, 1]);
    assert_eq!(s.board().i.iter().sum::<u8>(), 32);
    for (holes, reserve) in [(9u8, 33u8), (10, 37)] {
        let g = game(
            "njombwa-sanderson-gambit",
            &[
                ("holes", serde_json::json!(holes)),
                ("reserve", serde_json::json!(reserve)),
            ],
        );
        let s = g.initial_state();
        let b = s.board();
        assert_eq!(b.i[..3], [reserve, 2, 1]);
        let side: u32 = b.i.iter().chain(&b.ii).map(|&x| x as u32).sum();
        assert_eq!(side, 2 * 2 * holes as u32, "two men a hole");
        assert_eq!(b.iv[holes as usize - 1], reserve, "B's side mirrors A's");
    }
}

/// Sanderson's gambit: the pairs march until A's tenth move takes B's single and B's reply
/// takes A's two; then A spreads his 29 "arriving at the sixth hole from the right in the
/// front row", relays on, and B does the same.
#[test]
fn sanderson_gambit_reaches_the_described_position() {
    let g = game("njombwa-sanderson-gambit", &[]);
    let mut s = g.initial_state();
    assert_eq!(s.board().i, vec![29, 2, 1, 0, 0, 0, 0, 0]);
    assert_eq!(s.board().iv, vec![0, 0, 0, 0, 0, 1, 2, 29]);
    // The first move: "spreads the two men in the second hole ... arriving at the fourth".
    let first = legal(&g, &s);
    assert_eq!(first, vec![sow("i,2")]);
    let forced = play_forced(&g, &mut s);
    // Moves 1..=20 march the pairs; A's 10th (index 18) takes one, B's 10th takes two.
    let captures: Vec<(usize, Player, u32)> = forced
        .iter()
        .enumerate()
        .filter(|(_, (_, _, c))| *c > 0)
        .map(|(i, (p, _, c))| (i, *p, *c))
        .collect();
    assert_eq!(captures, vec![(18, Player::A, 1), (19, Player::B, 2)]);
    // Then the spreads of the 29s, A first, then B.
    assert_eq!(forced[20].0, Player::A);
    assert_eq!(forced[20].1, sow("i,1"));
    assert_eq!(forced[21].1, sow("iv,8"));
    assert_eq!(
        forced.len(),
        22,
        "the gambit is complete; free play follows"
    );
    assert!(legal(&g, &s).len() > 1);

    // The first lap of A's spread ends at the sixth hole from the right of his front row.
    let mut s = g.initial_state();
    for _ in 0..20 {
        let l = legal(&g, &s);
        g.apply(&mut s, l[0]).unwrap();
    }
    let (_, ev) = g.apply_traced(&mut s, sow("i,1"));
    match &ev[0] {
        Event::Lap { from, stones, last } => {
            assert_eq!((*from, *stones), (h("i,1"), 29));
            assert_eq!(*last, h("ii,3"), "sixth from the right of row ii on 4x8");
        }
        e => panic!("expected a lap, got {e:?}"),
    }
    assert!(
        matches!(ev[1], Event::Lap { from, .. } if from == h("ii,3")),
        "and relays on"
    );
}

/// Sanderson's one-counter start: the stylised first move ends with two stones removed.
#[test]
fn sanderson_one_counter_start_removes_two() {
    let g = game("njombwa-sanderson-one-counter", &[]);
    let mut s = g.initial_state();
    assert_eq!(legal(&g, &s), vec![sow("i,8")]);
    let (_, ev) = g.apply_traced(&mut s, sow("i,8"));
    assert_eq!(s.stones(Player::A), 14);
    assert_eq!(s.discarded(), 2);
    // The relay stopped at "the last hole but one in the back row", i,7, whose two stones went
    // to the end hole i,8; the two in "the second hole from the right of his front row" (ii,7)
    // were removed.
    assert!(ev.contains(&Event::Transfer {
        from: h("i,7"),
        to: h("i,8"),
        stones: 2
    }));
    assert!(ev.contains(&Event::Remove {
        hole: h("ii,7"),
        stones: 2
    }));
    assert_eq!(s.count(h("i,8")), 2);
    assert_eq!(s.count(h("i,7")), 0);
    assert_eq!(
        legal(&g, &s),
        vec![sow("iv,1")],
        "B's first move mirrors it"
    );
    g.apply(&mut s, sow("iv,1")).unwrap();
    assert_eq!(s.stones(Player::B), 14);
    assert_eq!(s.discarded(), 4);
}

/// Sanderson's two-counter start: "two men in each hole except the left-hand end hole of the
/// front row, which is empty, and the next hole in the front row, which has only one".
#[test]
fn sanderson_two_counter_layout() {
    let g = game("njombwa-sanderson-two-counters", &[]);
    let s = g.initial_state();
    assert_eq!(s.board().ii, vec![0, 1, 2, 2, 2, 2, 2, 2]);
    assert_eq!(s.board().iii, vec![2, 2, 2, 2, 2, 2, 1, 0]);
    assert_eq!(s.stones(Player::A), 29);
}

/// Ludii's njombwa: only the first mover spreads the 29 (nextPhase without a role).
#[test]
fn ludii_njombwa_opening_as_ludii_plays_it() {
    let g = game("njombwa-ludii", &[]);
    let mut s = g.initial_state();
    let forced = play_forced(&g, &mut s);
    let caps: Vec<(usize, Player, u32)> = forced
        .iter()
        .enumerate()
        .filter(|(_, (_, _, c))| *c > 0)
        .map(|(i, (p, _, c))| (i, *p, *c))
        .collect();
    assert_eq!(caps, vec![(18, Player::A, 1), (19, Player::B, 2)]);
    assert_eq!(forced[20].1, sow("i,1"), "A spreads his 29 in Opening2");
    // Both players are now in the main phase. B's 29 is his only hole of more than one stone,
    // so his next move is forced by the ordinary rules (with captures allowed), not by Opening2.
    assert_eq!(forced[21].1, sow("iv,8"));
    assert_eq!(forced.len(), 22);
}

/// Ludii's misoro: four nomination turns, A, B, A, B.
#[test]
fn ludii_misoro_nomination_phase() {
    let g = game("tsoro-ludii-misoro", &[]);
    let mut s = g.initial_state();
    for (p, hole) in [
        (Player::A, "i,1"),
        (Player::B, "iv,8"),
        (Player::A, "i,2"),
        (Player::B, "iv,7"),
    ] {
        assert_eq!(s.to_move(), Some(p));
        // Any back-row hole not yet a head.
        assert_eq!(legal(&g, &s).len(), 8 - s.heads(p).len());
        g.apply(&mut s, Action::Nominate(h(hole))).unwrap();
    }
    assert_eq!(s.heads(Player::A), vec![h("i,1"), h("i,2")]);
    assert!(legal(&g, &s).iter().all(|a| matches!(a, Action::Sow(_))));
}

/// Additional takes: the capturer chooses each hole; Variant 6 keeps heads out of reach.
#[test]
fn additional_takes_and_immune_heads() {
    let g = game("tsoro-matthews-v1-v5-v6", &[("additional_takes", 2.into())]);
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 1, 0, 0],
        [3, 4, 2, 0, 0, 0, 1, 0],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    // B's heads are iv,1 and iv,2 (the half-turn images of i,8 and i,7).
    assert_eq!(s.heads(Player::B), vec![h("iv,2"), h("iv,1")]);
    g.apply(&mut s, sow("ii,5")).unwrap();
    let mut l = legal(&g, &s);
    l.sort_by_key(|a| a.to_string());
    assert_eq!(l, vec![Action::Take(h("iii,6")), Action::Take(h("iv,7"))]);
    g.apply(&mut s, Action::Take(h("iv,7"))).unwrap();
    assert_eq!(s.to_move(), Some(Player::A), "a second take is due");
    g.apply(&mut s, Action::Take(h("iii,6"))).unwrap();
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(s.count(h("iv,1")), 3);
}

/// Variant 4: captured stones are dropped into the capturer's next holes and the sowing goes on.
#[test]
fn variant_4_resows_captures() {
    let g = game("tsoro-matthews-v4", &[]);
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 1],
        [0, 0, 2, 0, 0, 0, 0, 1],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    let before = s.stones(Player::A);
    g.apply(&mut s, sow("ii,5")).unwrap();
    assert_eq!(
        s.stones(Player::A),
        before + 3,
        "the stones stay on the board, now A's"
    );
    assert_eq!(s.captured(Player::A), 0);
    // Sown into ii,2, ii,1 and i,1 (which held one: the sowing goes on from there).
    assert_eq!(s.count(h("ii,2")), 1);
    assert_eq!(s.count(h("ii,1")), 1);
}

/// A player with no stones loses; a draw at the turn limit.
#[test]
fn ends() {
    let g = game("tsoro-matthews-basic", &[("turn_limit", 3.into())]);
    let mut s = g.initial_state();
    for _ in 0..3 {
        let l = legal(&g, &s);
        g.apply(&mut s, l[0]).unwrap();
    }
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason, o.turns),
        (None, EndReason::TurnLimit, 3)
    );

    let g = game("tsoro-matthews-basic", &[]);
    let b = board(
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 2, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0],
        [0, 0, 2, 0, 0, 0, 0, 0],
    );
    let mut s = g.setup(&b, Player::A).unwrap();
    g.apply(&mut s, sow("ii,5")).unwrap();
    let o = s.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Player::A), EndReason::NoStones));
    assert!(legal(&g, &s).is_empty());
}

/// A player who has stones but cannot move: pass (default) or lose (Mancala World's reading).
#[test]
fn no_moves_pass_or_loss() {
    let full = [1u8; 8];
    let b = board(full, full, [0, 0, 0, 0, 0, 0, 0, 2], [0; 8]);
    let g = game("tsoro-matthews-basic", &[]);
    let s = g.setup(&b, Player::A).unwrap();
    assert_eq!(legal(&g, &s), vec![Action::Pass]);
    let g = game("tsoro-matthews-basic", &[("no_moves", "loss".into())]);
    let s = g.setup(&b, Player::A).unwrap();
    let o = s.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Player::B), EndReason::NoMoves));
}

/// Random 4x8 games reach relays that never end. The engine ends them as draws with the reason
/// `endless_sowing`; a naive, independent sowing loop confirms each one really goes on forever.
#[test]
fn endless_relays_are_detected_and_really_endless() {
    use tsoro_engine::rng::Rng;
    let g = game("tsoro-matthews-basic", &[]);
    let n = 8u8;
    let len = 16usize;
    let mut confirmed = 0;
    for seed in 0..20_000u64 {
        let mut rng = Rng::from_seed(seed);
        let mut s = g.initial_state();
        while let Some(a) = g.random_action(&s, &mut rng) {
            let before = s.clone();
            g.apply_unchecked(&mut s, a);
            let Some(o) = s.outcome() else { continue };
            if o.reason == EndReason::EndlessSowing {
                assert_eq!(o.winner, None);
                let Action::Sow(start) = a else {
                    panic!("an endless relay starts with a sow, got {a}")
                };
                let p = before.to_move().unwrap();
                let mut side = [0u32; 16];
                for (k, v) in side.iter_mut().enumerate() {
                    *v = before.count(Hole::from_track(p, k, n)) as u32;
                }
                let mut pos = start.track(n);
                for _ in 0..100_000 {
                    let c = std::mem::take(&mut side[pos]);
                    let mut q = pos;
                    for _ in 0..c {
                        q = (q + 1) % len;
                        side[q] += 1;
                    }
                    assert!(side[q] > 1, "seed {seed}: the relay ended after all");
                    pos = q;
                }
                confirmed += 1;
            }
        }
        if confirmed >= 3 {
            break;
        }
    }
    assert!(confirmed >= 1, "no endless relay found");
}

/// Optional takes (`takes_optional=true`, a reading of Matthews' "entitled to"): while takes
/// are due the taker may pass, which ends them and his turn; by default every take is made.
#[test]
fn optional_takes_may_be_declined_with_a_pass() {
    use tsoro_engine::{ActionList, AnyGame, Game};
    let build = |optional: bool| {
        let p: tsoro_engine::catalogue::Params = [("takes_optional".to_string(), optional.into())]
            .into_iter()
            .collect();
        match tsoro_engine::catalogue::get("tsoro-matthews-v5")
            .unwrap()
            .build(&p)
            .unwrap()
        {
            AnyGame::Sowing(g) => g,
            _ => unreachable!(),
        }
    };
    let (strict, optional) = (build(false), build(true));
    assert!(
        strict.has_kernel() && !optional.has_kernel(),
        "the kernel's gate refuses it"
    );
    // Random play until takes are due, the same actions in both readings.
    let mut rng = tsoro_engine::rng::Rng::from_seed(9);
    let mut s = strict.initial_state();
    let mut l = ActionList::new();
    loop {
        strict.legal_actions(&s, &mut l);
        assert!(
            !l.is_empty(),
            "a capture with takes comes before the game ends"
        );
        if matches!(l[0], tsoro_engine::sowing::Action::Take(_)) {
            break;
        }
        let a = l[rng.below(l.len())];
        strict.apply_unchecked(&mut s, a);
    }
    assert!(!l.contains(&tsoro_engine::sowing::Action::Pass));
    let mut lo = ActionList::new();
    optional.legal_actions(&s, &mut lo);
    assert_eq!(lo.len(), l.len() + 1);
    assert_eq!(lo.last(), Some(&tsoro_engine::sowing::Action::Pass));
    assert_eq!(optional.legal_count(&s), lo.len());
    let mover = s.to_move();
    let stones = s.stones(mover.unwrap().other());
    let mut t = s.clone();
    optional
        .apply(&mut t, tsoro_engine::sowing::Action::Pass)
        .unwrap();
    assert_eq!(
        t.to_move(),
        mover.map(|p| p.other()),
        "the pass ends the turn"
    );
    assert_eq!(t.stones(mover.unwrap().other()), stones, "no stones taken");
    assert_eq!(t.moves(), s.moves() + 1);
    assert!(
        strict
            .apply(&mut s.clone(), tsoro_engine::sowing::Action::Pass)
            .is_err()
    );
}
