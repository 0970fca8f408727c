//! Rules of the line games (tsoro yemutwelve, Dig Dig, tsoro yemutatu): lines on every board,
//! taking, flying at three, loss at two, Dig Dig's cancelling, board B's moves; exact
//! solutions of tsoro yemutatu; and properties of random play on every line-game ruleset.

use proptest::prelude::*;
use std::collections::BTreeSet;
use tsoro_engine::catalogue::{self, Kind, Params};
use tsoro_engine::morris::solve::{SlipCount, Solution, Value};
use tsoro_engine::morris::{MorrisAction, MorrisEvent, MorrisGame, MorrisState, Square};
use tsoro_engine::rng::Rng;
use tsoro_engine::{ActionList, AnyGame, EndReason, Game, Player};

fn game(id: &str, params: &[(&str, serde_json::Value)]) -> MorrisGame {
    let p: Params = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    match catalogue::get(id).unwrap().build(&p).unwrap() {
        AnyGame::Morris(g) => g,
        other => panic!("{id} is not a line game: {other:?}"),
    }
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn mask(g: &MorrisGame, points: &[&str]) -> u32 {
    points
        .iter()
        .map(|p| 1u32 << g.board().index_of(sq(p)).expect("a point of the board"))
        .fold(0, |a, b| a | b)
}

fn legal(g: &MorrisGame, s: &MorrisState) -> Vec<MorrisAction> {
    let mut l = ActionList::new();
    g.legal_actions(s, &mut l);
    l.to_vec()
}

fn place(p: &str) -> MorrisAction {
    MorrisAction::Place(sq(p))
}

fn mv(p: &str, q: &str) -> MorrisAction {
    MorrisAction::Move(sq(p), sq(q))
}

#[test]
fn every_line_of_every_board_takes_or_wins() {
    for (id, effect_win) in [
        ("tsoro-yemutwelve-matthews", false),
        ("tsoro-yemutatu-matthews-a", true),
        ("tsoro-yemutatu-matthews-b", true),
    ] {
        let g = game(id, &[]);
        let b = g.board().clone();
        let lines = b.lines.clone();
        for line in lines {
            let pts: Vec<usize> = (0..b.len()).filter(|i| line & (1 << i) != 0).collect();
            // A has two of the line's points; B one stone elsewhere (not on the line).
            let other = (0..b.len()).find(|i| line & (1 << i) == 0).unwrap();
            let a = (1 << pts[0]) | (1 << pts[1]);
            let hand = if effect_win { [1, 2] } else { [10, 11] };
            let mut s = g.setup([a, 1 << other], hand, Player::A);
            let third = MorrisAction::Place(b.square(pts[2]));
            let (rep, ev) = g.apply_traced(&mut s, third);
            assert_eq!(
                rep.captures,
                1,
                "{id}: line {:?}",
                b.squares(line).collect::<Vec<_>>()
            );
            assert!(ev.iter().any(|e| matches!(e, MorrisEvent::Line { .. })));
            if effect_win {
                let o = s.outcome().unwrap();
                assert_eq!((o.winner, o.reason), (Some(Player::A), EndReason::Line));
            } else {
                // The maker takes: the only opponent stone is the choice.
                assert_eq!(s.to_move(), Some(Player::A));
                assert_eq!(legal(&g, &s), vec![MorrisAction::Take(b.square(other))]);
            }
        }
        // Two stones that are not a line make nothing.
        let g = game(id, &[]);
        let mut s = g.initial_state();
        let (rep, _) = g.apply_traced(&mut s, MorrisAction::Place(g.board().square(0)));
        assert_eq!(rep.captures, 0);
        assert_eq!(s.to_move(), Some(Player::B));
    }
}

#[test]
fn yemutwelve_board_lines_are_the_documented_twenty() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    let names: BTreeSet<Vec<String>> = g
        .board()
        .lines
        .iter()
        .map(|&l| g.board().squares(l).map(|s| s.to_string()).collect())
        .collect();
    for line in [
        ["a1", "d1", "g1"],
        ["a1", "b2", "c3"],
        ["d1", "d2", "d3"],
        ["c3", "c4", "c5"],
        ["g7", "f6", "e5"],
    ] {
        let mut v: Vec<String> = line.iter().map(|s| s.to_string()).collect();
        v.sort_by_key(|s| g.board().index_of(sq(s)));
        assert!(names.contains(&v), "{line:?}");
    }
    // No line through the middle of the board: d3-d4-d5 is not a line (d4 is no point).
    assert_eq!(g.board().index_of(sq("d4")), None);
    assert_eq!(names.len(), 20);
}

#[test]
fn taking_removes_one_stone_per_line_and_passes_the_turn() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    let a = mask(&g, &["a1", "d1", "b2"]);
    let b = mask(&g, &["d2", "f2"]);
    // Hands: A 9, B 10: A places g1 (line a1-d1-g1) and c3 (a1-b2-c3) at once? One point
    // closing two lines: a1 is in both a1-d1-g1 and a1-b2-c3.
    let a2 = mask(&g, &["d1", "g1", "b2", "c3"]);
    let mut s = g.setup([a2, b], [8, 10], Player::A);
    let rep = g.apply_unchecked(&mut s, place("a1"));
    assert_eq!(rep.captures, 2, "a1 closes two lines");
    assert_eq!(
        s.takes_owed(),
        2,
        "Matthews: one take each time a line is completed"
    );
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("d2")));
    assert_eq!(s.to_move(), Some(Player::A), "a second take is owed");
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("f2")));
    assert_eq!(s.stones(Player::B), 0);
    assert_eq!(s.to_move(), Some(Player::B));
    // Ludii's reading: one take per move.
    let l = game("tsoro-yemutwelve-ludii", &[]);
    let mut s = l.setup([a2, b], [8, 10], Player::A);
    l.apply_unchecked(&mut s, place("a1"));
    assert_eq!(s.takes_owed(), 1);
    // Making a line with no opponent stone on the board takes nothing.
    let mut s = g.setup([mask(&g, &["a1", "d1"]), 0], [10, 12], Player::A);
    g.apply_unchecked(&mut s, place("g1"));
    assert_eq!(s.to_move(), Some(Player::B));
    let _ = a;
}

#[test]
fn a_line_can_be_broken_and_made_again() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    let a = mask(&g, &["a1", "d1", "g1", "a4", "b6"]);
    let b = mask(&g, &["c3", "e3", "c5", "e5", "f4"]);
    let mut s = g.setup([a, b], [0, 0], Player::A);
    g.apply_unchecked(&mut s, mv("g1", "g4"));
    assert_eq!(s.to_move(), Some(Player::B), "leaving a line takes nothing");
    g.apply_unchecked(&mut s, mv("e5", "d5"));
    let rep = g.apply_unchecked(&mut s, mv("g4", "g1"));
    assert_eq!(rep.captures, 1, "the same line again takes again");
    assert_eq!(s.takes_owed(), 1);
}

fn moves_of(l: &[MorrisAction]) -> BTreeSet<String> {
    l.iter()
        .filter(|a| matches!(a, MorrisAction::Move(..)))
        .map(|a| a.to_string())
        .collect()
}

/// Matthews, stage 1: "When a line has been formed a player may move away one of its
/// component stones on his next go in order subsequently to complete the same line again by
/// moving it back." With stones still in hand.
#[test]
fn stage_one_a_stone_leaves_a_line_just_formed_and_comes_back_to_take_again() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    let a = mask(&g, &["a1", "d1"]);
    let b = mask(&g, &["c3", "e5"]);
    let mut s = g.setup([a, b], [10, 10], Player::A);
    // No line formed yet: placing only.
    assert!(moves_of(&legal(&g, &s)).is_empty());
    g.apply_unchecked(&mut s, place("g1"));
    assert_eq!(s.takes_owed(), 1, "a1-d1-g1 takes");
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("c3")));
    // B, who formed no line, only places.
    assert!(moves_of(&legal(&g, &s)).is_empty());
    g.apply_unchecked(&mut s, place("b6"));
    // A's next go: any stone of the line may step to an empty neighbour (the corners also
    // along their diagonals), besides placing.
    let moves = moves_of(&legal(&g, &s));
    let expected: BTreeSet<String> = [
        "move a1-a4",
        "move a1-b2",
        "move d1-d2",
        "move g1-f2",
        "move g1-g4",
    ]
    .iter()
    .map(|m| m.to_string())
    .collect();
    assert_eq!(moves, expected);
    assert!(legal(&g, &s).contains(&place("f2")));
    g.apply_unchecked(&mut s, mv("g1", "g4"));
    assert_eq!(
        s.to_move(),
        Some(Player::B),
        "leaving the line takes nothing"
    );
    assert_eq!(s.hand(Player::A), 9, "a move spends no stone from the hand");
    assert!(s.away(Player::A).is_some());
    g.apply_unchecked(&mut s, place("f6"));
    // Only the way back is a move now.
    assert_eq!(
        moves_of(&legal(&g, &s)),
        BTreeSet::from(["move g4-g1".to_string()])
    );
    let rep = g.apply_unchecked(&mut s, mv("g4", "g1"));
    assert_eq!(rep.captures, 1, "the same line again takes again");
    assert_eq!(s.takes_owed(), 1);
    assert_eq!(s.away(Player::A), None);
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("e5")));
    assert_eq!(
        g.count(&s, Player::B),
        12 - 2,
        "a take for the line and one for the line remade"
    );
}

#[test]
fn stage_one_the_move_away_is_only_on_the_next_go() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    let a = mask(&g, &["a1", "d1"]);
    let b = mask(&g, &["c3", "e5"]);
    let mut s = g.setup([a, b], [10, 10], Player::A);
    g.apply_unchecked(&mut s, place("g1"));
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("c3")));
    g.apply_unchecked(&mut s, place("b6"));
    // A places instead of moving away: the chance has passed.
    g.apply_unchecked(&mut s, place("f2"));
    g.apply_unchecked(&mut s, place("f6"));
    assert!(moves_of(&legal(&g, &s)).is_empty());
    // The way back is blocked when the point left is taken by the opponent meanwhile.
    let mut s = g.setup([a, b], [10, 10], Player::A);
    g.apply_unchecked(&mut s, place("g1"));
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("c3")));
    g.apply_unchecked(&mut s, place("b6"));
    g.apply_unchecked(&mut s, mv("g1", "g4"));
    g.apply_unchecked(&mut s, place("g1"));
    assert!(moves_of(&legal(&g, &s)).is_empty());
}

#[test]
fn stage_one_readings_no_take_on_return_and_placement_only() {
    let g = game(
        "tsoro-yemutwelve-matthews",
        &[("return_takes", serde_json::json!(false))],
    );
    let a = mask(&g, &["a1", "d1"]);
    let b = mask(&g, &["c3", "e5"]);
    let mut s = g.setup([a, b], [10, 10], Player::A);
    g.apply_unchecked(&mut s, place("g1"));
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("c3")));
    g.apply_unchecked(&mut s, place("b6"));
    g.apply_unchecked(&mut s, mv("g1", "g4"));
    g.apply_unchecked(&mut s, place("f6"));
    let rep = g.apply_unchecked(&mut s, mv("g4", "g1"));
    assert_eq!(rep.captures, 1, "the line is made again");
    assert_eq!(s.takes_owed(), 0, "but takes nothing");
    assert_eq!(s.to_move(), Some(Player::B));
    for (id, params) in [
        (
            "tsoro-yemutwelve-matthews",
            vec![("leave_line", serde_json::json!("off"))],
        ),
        ("tsoro-yemutwelve-ludii", vec![]),
    ] {
        let g = game(id, &params);
        let mut s = g.setup([a, b], [10, 10], Player::A);
        g.apply_unchecked(&mut s, place("g1"));
        g.apply_unchecked(&mut s, MorrisAction::Take(sq("c3")));
        g.apply_unchecked(&mut s, place("b6"));
        assert!(moves_of(&legal(&g, &s)).is_empty(), "{id}");
    }
}

#[test]
fn stones_in_lines_are_protected_only_in_ludii_s_reading() {
    for (id, expect_all) in [
        ("tsoro-yemutwelve-matthews", true),
        ("tsoro-yemutwelve-ludii", false),
    ] {
        let g = game(id, &[]);
        let a = mask(&g, &["a1", "d1"]);
        let b = mask(&g, &["b2", "d2", "f2", "g4"]); // b2-d2-f2 is a line
        let mut s = g.setup([a, b], [6, 6], Player::A);
        g.apply_unchecked(&mut s, place("g1"));
        let takes: BTreeSet<String> = legal(&g, &s).iter().map(|a| a.to_string()).collect();
        if expect_all {
            assert_eq!(takes.len(), 4, "{id}: {takes:?}");
        } else {
            assert_eq!(takes, BTreeSet::from(["take g4".to_string()]), "{id}");
        }
    }
}

#[test]
fn three_stones_fly_and_two_lose() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    let a = mask(&g, &["a1", "d1", "a7"]);
    let b = mask(&g, &["c3", "e3", "c5", "e5"]);
    let s = g.setup([a, b], [0, 0], Player::A);
    // A (three stones) flies: every stone to every empty point.
    assert_eq!(legal(&g, &s).len(), 3 * (24 - 7));
    // B (four stones) steps.
    let s = g.setup([a, b], [0, 0], Player::B);
    assert!(legal(&g, &s).len() < 4 * 4);
    // A flying line takes (Matthews' reading), and the take leaving B with two wins.
    let b3 = mask(&g, &["c3", "e3", "c5"]);
    let mut s = g.setup([a, b3], [0, 0], Player::A);
    g.apply_unchecked(&mut s, mv("a7", "g1"));
    assert_eq!(s.takes_owed(), 1);
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("c5")));
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Player::A), EndReason::TooFewPieces)
    );
    // Ludii's reading: a flying line takes nothing.
    let l = game("tsoro-yemutwelve-ludii", &[]);
    let mut s = l.setup([a, b3], [0, 0], Player::A);
    l.apply_unchecked(&mut s, mv("a7", "g1"));
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(s.stones(Player::B).count_ones(), 3);
    // Dig Dig (Matthews): no free moving at three.
    let d = game("dig-dig-matthews", &[]);
    let s = d.setup([a, b], [0, 0], Player::A);
    assert!(legal(&d, &s).len() <= 3 * 4);
    assert!(!legal(&d, &s).contains(&mv("a1", "g7")));
}

#[test]
fn stones_in_hand_count_against_the_loss_at_two() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    // B has one stone on the board and one in hand: two in all, so B has already lost when
    // the turn ends; with two in hand and one on the board B plays on.
    let mut s = g.setup([mask(&g, &["a1"]), mask(&g, &["g7"])], [5, 2], Player::A);
    g.apply_unchecked(&mut s, place("d1"));
    assert_eq!(s.outcome(), None);
    let mut s = g.setup(
        [mask(&g, &["a1", "d1"]), mask(&g, &["g7", "d7"])],
        [5, 1],
        Player::A,
    );
    g.apply_unchecked(&mut s, place("g1"));
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("g7")));
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Player::A), EndReason::TooFewPieces)
    );
}

#[test]
fn a_full_board_after_placement_is_a_draw_by_default() {
    let g = game("tsoro-yemutwelve-matthews", &[]);
    let mut s = g.initial_state();
    // Fill the board without a line: find such a placement order by search with the engine.
    let order = full_board_without_lines(&g);
    for (k, p) in order.iter().enumerate() {
        assert_eq!(s.outcome(), None, "after {k} placements");
        g.apply_unchecked(&mut s, MorrisAction::Place(*p));
    }
    let o = s.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, EndReason::NoMoves));
    // With full_board = no_moves, the first mover of stage 2 has no move and loses.
    let g2 = game(
        "tsoro-yemutwelve-matthews",
        &[("full_board", "no_moves".into())],
    );
    let mut s = g2.initial_state();
    for p in &order {
        g2.apply_unchecked(&mut s, MorrisAction::Place(*p));
    }
    let o = s.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Player::B), EndReason::NoMoves));
}

/// Ludii's all-pass draw (peer notes, section 6, item 1): in Ludii's Tsoro Yemutwelve, 24
/// placements without a line fill the board; each player then makes one forced pass (a
/// decision with one legal option) and the game is drawn after 26 moves.
#[test]
fn ludii_yemutwelve_full_board_ends_in_two_forced_passes_and_a_draw() {
    let g = game("tsoro-yemutwelve-ludii", &[]);
    let order = full_board_without_lines(&g);
    let mut s = g.initial_state();
    for p in &order {
        g.apply_unchecked(&mut s, MorrisAction::Place(*p));
    }
    assert_eq!(s.outcome(), None, "the full board is not the end yet");
    assert_eq!(s.turns(), 24);
    assert_eq!(s.to_move(), Some(Player::A));
    assert_eq!(legal(&g, &s), vec![MorrisAction::Pass]);
    let (_, ev) = g.apply_traced(&mut s, MorrisAction::Pass);
    assert_eq!(ev, vec![MorrisEvent::Pass { player: Player::A }]);
    assert_eq!(s.outcome(), None, "one pass is not the end");
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(legal(&g, &s), vec![MorrisAction::Pass]);
    g.apply_unchecked(&mut s, MorrisAction::Pass);
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason, o.turns),
        (None, EndReason::NoMoves, 26)
    );
    assert!(legal(&g, &s).is_empty());
    // Dig Dig as Ludii plays it has the same rule.
    assert_eq!(
        game("dig-dig-ludii", &[]).rules().config.end.no_moves,
        g.rules().config.end.no_moves
    );
}

/// The all-pass draw needs both players' last turns to be passes: a pass, a move by the
/// other player and a second pass do not end the game.
#[test]
fn ludii_all_pass_draw_needs_passes_from_both_players() {
    let g = game("tsoro-yemutwelve-ludii", &[]);
    // A's four corner stones are hemmed in by B; B's d5 can move.
    let a = mask(&g, &["a1", "g1", "a7", "g7"]);
    let b = mask(&g, &["d1", "a4", "b2", "g4", "f2", "d7", "b6", "f6", "d5"]);
    let mut s = g.setup([a, b], [0, 0], Player::A);
    assert_eq!(legal(&g, &s), vec![MorrisAction::Pass]);
    g.apply_unchecked(&mut s, MorrisAction::Pass);
    assert!(legal(&g, &s).contains(&mv("d5", "e5")));
    g.apply_unchecked(&mut s, mv("d5", "e5"));
    assert_eq!(legal(&g, &s), vec![MorrisAction::Pass]);
    g.apply_unchecked(&mut s, MorrisAction::Pass);
    assert_eq!(s.outcome(), None, "B's last turn was a move");
    assert_eq!(s.to_move(), Some(Player::B));
    // B frees d1 (making the line b2-d2-f2 and taking g7) and A moves into it.
    g.apply_unchecked(&mut s, mv("d1", "d2"));
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("g7")));
    assert_eq!(s.to_move(), Some(Player::A));
    assert!(legal(&g, &s).contains(&mv("a1", "d1")));
}

/// An order of 24 placements (A, B, A, ...) that makes no line, found by depth-first search.
fn full_board_without_lines(g: &MorrisGame) -> Vec<Square> {
    fn go(g: &MorrisGame, s: &MorrisState, out: &mut Vec<Square>) -> bool {
        if out.len() == 24 {
            return true;
        }
        for a in legal(g, s) {
            let mut t = s.clone();
            let rep = g.apply_unchecked(&mut t, a);
            if rep.captures > 0 {
                continue;
            }
            let MorrisAction::Place(p) = a else { continue };
            out.push(p);
            if go(g, &t, out) {
                return true;
            }
            out.pop();
        }
        false
    }
    let mut out = Vec::new();
    assert!(go(g, &g.initial_state(), &mut out));
    out
}

#[test]
fn dig_dig_cancels_during_placement_and_removes_the_pairs_at_its_end() {
    let g = game("dig-dig-matthews", &[]);
    let mut s = g.initial_state();
    g.apply_unchecked(&mut s, place("a1")); // A
    assert!(
        legal(&g, &s).contains(&place("a1")),
        "B may place on A's stone"
    );
    let (_, ev) = g.apply_traced(&mut s, place("a1")); // B cancels it
    assert!(matches!(ev[0], MorrisEvent::Cancel { .. }));
    assert_eq!(s.stones(Player::A), 0);
    assert_eq!(s.cancelled(), mask(&g, &["a1"]));
    assert!(
        !legal(&g, &s).contains(&place("a1")),
        "a cancelled point is taken"
    );
    // A cancelled stone makes no line: A's d1, g1 with the dead a1 are no line.
    g.apply_unchecked(&mut s, place("d1"));
    g.apply_unchecked(&mut s, place("b4"));
    let rep = g.apply_unchecked(&mut s, place("g1"));
    assert_eq!(rep.captures, 0);
    // Play the placement out at random; at its end no cancelled pair is left.
    let mut rng = Rng::from_seed(5);
    let mut removed = false;
    while g.placing(&s, Player::A) || g.placing(&s, Player::B) {
        let Some(a) = g.random_action(&s, &mut rng) else {
            break;
        };
        let (_, ev) = g.apply_traced(&mut s, a);
        removed |= ev
            .iter()
            .any(|e| matches!(e, MorrisEvent::RemoveCancelled { .. }));
    }
    if s.outcome().is_none() {
        assert!(removed);
        assert_eq!(s.cancelled(), 0);
    }
    // Ludii's Dig Dig: an unlimited supply until the board is full.
    let l = game("dig-dig-ludii", &[]);
    let mut s = l.initial_state();
    let mut rng = Rng::from_seed(8);
    let mut placements = 0;
    while l.placing(&s, Player::A) && s.outcome().is_none() {
        let a = l.random_action(&s, &mut rng).unwrap();
        placements += matches!(a, MorrisAction::Place(_)) as u32;
        l.apply_unchecked(&mut s, a);
    }
    assert!(placements >= 24, "{placements}");
    assert_eq!(s.cancelled(), 0);
}

/// Ludii's Dig Dig (peer notes, section 6, item 9): a placement that cancels an enemy stone
/// still completes a line through that point with two of the placer's uncancelled stones, and
/// the line's take follows. Matthews' reading (a cancelled point is in no line) does not.
#[test]
fn ludii_dig_dig_a_cancelling_placement_makes_a_line_and_takes() {
    let g = game("dig-dig-ludii", &[]);
    // A: d1, g1; B: a1 (a single stone), d7, g7. A places on a1.
    let a = mask(&g, &["d1", "g1"]);
    let b = mask(&g, &["a1", "d7", "g7"]);
    let mut s = g.setup([a, b], [0, 0], Player::A);
    assert!(legal(&g, &s).contains(&place("a1")));
    let (rep, ev) = g.apply_traced(&mut s, place("a1"));
    assert_eq!(
        ev,
        vec![
            MorrisEvent::Cancel {
                player: Player::A,
                point: sq("a1")
            },
            MorrisEvent::Line {
                player: Player::A,
                points: vec![sq("a1"), sq("d1"), sq("g1")]
            },
        ]
    );
    assert_eq!(rep.captures, 1);
    assert_eq!(s.cancelled(), mask(&g, &["a1"]));
    assert_eq!(
        s.stones(Player::A),
        a,
        "the cancelling stone is not A's single"
    );
    assert_eq!(s.to_move(), Some(Player::A));
    assert_eq!(s.takes_owed(), 1);
    let takes: BTreeSet<String> = legal(&g, &s).iter().map(|m| m.to_string()).collect();
    assert_eq!(
        takes,
        BTreeSet::from(["take d7", "take g7"].map(String::from))
    );
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("g7")));
    assert_eq!(s.stones(Player::B), mask(&g, &["d7"]));
    assert_eq!(s.to_move(), Some(Player::B));
    // Matthews' reading: the same placement cancels and the turn passes.
    let m = game("dig-dig-matthews", &[]);
    let mut s = m.setup([a, b], [5, 5], Player::A);
    let rep = m.apply_unchecked(&mut s, place("a1"));
    assert_eq!(rep.captures, 0);
    assert_eq!(s.to_move(), Some(Player::B));
    // In Ludii's reading too a cancelled point is in nobody's line: B's g1 and d1 (where B
    // cancelled A's stone) with a cancelling placement on a1 make no line.
    let mut s = g.initial_state();
    for p in ["d1", "d1", "a1", "g1", "b4"] {
        g.apply_unchecked(&mut s, place(p));
    }
    assert_eq!(s.to_move(), Some(Player::B));
    let rep = g.apply_unchecked(&mut s, place("a1"));
    assert_eq!(rep.captures, 0);
    assert_eq!(s.cancelled(), mask(&g, &["d1", "a1"]));
    assert_eq!(s.to_move(), Some(Player::A));
}

#[test]
fn board_b_moves_go_to_the_one_empty_point() {
    let g = game("tsoro-yemutatu-matthews-b", &[]);
    // A: a1, e1, c2; B: b2, d2, c1; c3 is empty. No line for anyone.
    let a = mask(&g, &["a1", "e1", "c2"]);
    let b = mask(&g, &["b2", "d2", "c1"]);
    let s = g.setup([a, b], [0, 0], Player::A);
    let moves: BTreeSet<String> = legal(&g, &s).iter().map(|m| m.to_string()).collect();
    assert_eq!(
        moves,
        BTreeSet::from(["move a1-c3", "move c2-c3", "move e1-c3"].map(String::from))
    );
    // Moving c2 up opens c2 to B, who then has b2-c2-d2: the wrong move.
    let mut t = s.clone();
    g.apply_unchecked(&mut t, mv("c2", "c3"));
    let mut u = t.clone();
    g.apply_unchecked(&mut u, mv("c1", "c2"));
    assert_eq!(u.outcome().unwrap().winner, Some(Player::B));
}

#[test]
fn yemutatu_board_a_without_diagonals() {
    let g = game(
        "tsoro-yemutatu-matthews-a",
        &[("diagonals", serde_json::json!("without"))],
    );
    assert_eq!(g.board().len(), 9);
    assert_eq!(g.board().lines.len(), 6);
    // A diagonal is no line here: A's third stone on c3 does not win.
    let a = mask(&g, &["a1", "b2"]);
    let b = mask(&g, &["a2", "b1"]);
    let mut s = g.setup([a, b], [1, 1], Player::A);
    g.apply_unchecked(&mut s, place("c3"));
    assert_eq!(s.outcome(), None);
    let with = game("tsoro-yemutatu-matthews-a", &[]);
    let mut s = with.setup([a, b], [1, 1], Player::A);
    with.apply_unchecked(&mut s, place("c3"));
    assert_eq!(s.outcome().unwrap().winner, Some(Player::A));
}

#[test]
fn yemutatu_solved_exactly() {
    // Board A (3x3 with diagonals): a draw with best play, whatever the first placement.
    let a = game("tsoro-yemutatu-matthews-a", &[]);
    let sol = Solution::solve(a.rules(), 1_000_000).unwrap();
    // 5,390 distinct positions: 4,974 where play goes on and 416 finished ones; the search
    // reaches 148 of the finished ones twice (a last placement and a move leave the same
    // stones with different bookkeeping).
    assert_eq!((sol.open(), sol.finished()), (4974, 416));
    assert_eq!(sol.open() + sol.finished(), 5390);
    assert_eq!(sol.positions(), 5390 + 148);
    assert_eq!(sol.start_value(), Value::Draw);
    assert_eq!(sol.best_actions(&a.initial_state()).len(), 9);
    // Board B (seven-point triangle): a draw with best play, and Matthews' remark holds in
    // every movement position where the mover cannot make a line at once: a right move and a
    // wrong one are both there.
    let b = game("tsoro-yemutatu-matthews-b", &[]);
    let sol = Solution::solve(b.rules(), 1_000_000).unwrap();
    assert_eq!(sol.start_value(), Value::Draw);
    // 815 distinct positions (749 open, 66 finished); 18 finished ones reached twice.
    assert_eq!((sol.open(), sol.finished()), (749, 66));
    assert_eq!(sol.positions(), 815 + 18);
    assert_eq!(
        sol.best_actions(&b.initial_state()).len(),
        7,
        "every first placement draws"
    );
    // What the engine finds of Matthews' remark, over the 204 reachable movement positions:
    // in 108 the mover can make a line at once (the opponent slipped); of the other 96, 84
    // offer a right and a wrong move, 12 only safe moves, and none only losing ones.
    let slips = sol.slips();
    assert_eq!(
        slips,
        SlipCount {
            positions: 204,
            right_and_wrong: 84,
            only_wrong: 0,
            only_right: 12,
            line_now: 108,
        }
    );
}

fn line_games() -> Vec<(String, MorrisGame)> {
    let mut out = vec![];
    for def in catalogue::all().iter().filter(|d| d.kind == Kind::Morris) {
        for p in def.param_samples() {
            match def.build(&p) {
                Ok(AnyGame::Morris(g)) => out.push((format!("{} {:?}", def.id, p), g)),
                other => panic!("{} {p:?}: {other:?}", def.id),
            }
        }
    }
    out
}

/// Stones are conserved: on the board, in hand, taken, cancelled and removed add up to the
/// stones dealt (limited supply), and the legal actions are never empty in a live game.
fn check_game(label: &str, g: &MorrisGame, seed: u64) -> Vec<MorrisAction> {
    let mut rng = Rng::from_seed(seed);
    let mut s = g.initial_state();
    let dealt = 2 * g.rules().config.stones as u32;
    // Men under a cancelled point: a pair, or only the opponent's (the placer's is on the board).
    let per_point = match g.rules().config.placement.cancelled {
        tsoro_engine::morris::config::Cancelled::Pair => 2,
        tsoro_engine::morris::config::Cancelled::Opponent => 1,
    };
    let (mut taken, mut removed) = (0u32, 0u32);
    let mut played = vec![];
    loop {
        let l = legal(g, &s);
        assert_eq!(
            s.outcome().is_none(),
            !l.is_empty(),
            "{label}: live iff a legal action"
        );
        let Some(a) = g.random_action(&s, &mut rng) else {
            break;
        };
        assert!(l.contains(&a), "{label}: {a} is legal");
        let (rep, ev) = g.apply_traced(&mut s, a);
        taken += rep.captured;
        for e in &ev {
            if let MorrisEvent::RemoveCancelled { points } = e {
                removed += per_point * points.len() as u32;
            }
        }
        played.push(a);
        if dealt > 0 {
            let on_board = s.stones(Player::A).count_ones() + s.stones(Player::B).count_ones();
            let hands = s.hand(Player::A) as u32 + s.hand(Player::B) as u32;
            let cancelled = per_point * s.cancelled().count_ones();
            assert_eq!(
                on_board + hands + cancelled + taken + removed,
                dealt,
                "{label}: conserved"
            );
        }
        assert_eq!(s.stones(Player::A) & s.stones(Player::B), 0, "{label}");
        if per_point == 2 {
            // A cancelled pair leaves no man of either player on its point.
            assert_eq!(
                (s.stones(Player::A) | s.stones(Player::B)) & s.cancelled(),
                0,
                "{label}"
            );
        }
    }
    assert!(s.outcome().is_some());
    played
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_play_keeps_the_invariants_and_is_deterministic(seed in any::<u64>()) {
        for (label, g) in line_games() {
            let a = check_game(&label, &g, seed);
            let b = check_game(&label, &g, seed);
            prop_assert_eq!(a, b);
        }
    }

    /// Swapping the colours of a position swaps the legal actions of the player to move.
    #[test]
    fn colours_mirror(seed in any::<u64>(), steps in 0usize..60) {
        for (label, g) in line_games() {
            if g.rules().config.stones == 0 {
                continue; // an unlimited supply has no hands to swap
            }
            let mut rng = Rng::from_seed(seed);
            let mut s = g.initial_state();
            for _ in 0..steps {
                if s.takes_owed() > 0 || s.cancelled() != 0 {
                    break;
                }
                match g.random_action(&s, &mut rng) {
                    Some(a) => { g.apply_unchecked(&mut s, a); }
                    None => break,
                }
            }
            let Some(p) = s.to_move() else { continue };
            if s.takes_owed() > 0 || s.cancelled() != 0 {
                continue;
            }
            let here = g.setup(
                [s.stones(Player::A), s.stones(Player::B)],
                [s.hand(Player::A), s.hand(Player::B)],
                p,
            );
            let swapped = g.setup(
                [s.stones(Player::B), s.stones(Player::A)],
                [s.hand(Player::B), s.hand(Player::A)],
                p.other(),
            );
            prop_assert_eq!(legal(&g, &here), legal(&g, &swapped), "{}", label);
        }
    }
}

/// A cancelling placement's line needs cancelling: the configuration error names the field.
#[test]
fn cancel_line_without_cancelling_is_rejected() {
    let mut v = catalogue::get("dig-dig-ludii").unwrap().config.clone();
    v["placement"]["cancel"] = false.into();
    let c: tsoro_engine::morris::MorrisConfig = serde_json::from_value(v).unwrap();
    let e = c.compile().unwrap_err().to_string();
    assert!(e.starts_with("placement.cancel_line:"), "{e}");
}

/// Ludii's two tsoro yemutatu files (peer notes, section 6, item 10): the boards, with Ludii's
/// site numbers in our point order; a placement line wins at once; a move goes to any empty
/// point; best play on both sides runs to Ludii's turn limit, a draw after 2,500 turns.
#[test]
fn ludii_yemutatu_on_both_boards() {
    let names = |g: &MorrisGame| -> Vec<String> {
        g.board().points.iter().map(|p| p.to_string()).collect()
    };
    let square = game("tsoro-yemutatu-ludii", &[]);
    let triangle = game("tsoro-yemutatu-ludii-triangle", &[]);
    // Ludii's sites 0.. are these points, row by row from the bottom left.
    assert_eq!(
        names(&square),
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    );
    assert_eq!(names(&triangle), ["a1", "c1", "e1", "b2", "c2", "d2", "c3"]);
    for (g, lines, edges) in [(&square, 8, 16), (&triangle, 5, 10)] {
        assert_eq!(g.board().lines.len(), lines);
        let degree: u32 = g.board().adjacent.iter().map(|m| m.count_ones()).sum();
        assert_eq!(degree, 2 * edges);
        assert_eq!(g.rules().config.end.turn_limit, 2500);
    }
    // A's third placement on the diagonal wins at once.
    let mut s = square.initial_state();
    for p in ["a1", "a2", "b2", "b1"] {
        square.apply_unchecked(&mut s, place(p));
    }
    let (_, ev) = square.apply_traced(&mut s, place("c3"));
    assert!(matches!(ev[1], MorrisEvent::Line { .. }));
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason, o.turns),
        (Some(Player::A), EndReason::Line, 5)
    );
    // In the movement stage a stone goes to any empty point: 3 stones x 3 empty points.
    let a = mask(&square, &["a1", "c1", "b3"]);
    let b = mask(&square, &["b1", "a3", "c3"]);
    let s = square.setup([a, b], [0, 0], Player::A);
    assert_eq!(legal(&square, &s).len(), 9);
    assert!(legal(&square, &s).contains(&mv("a1", "c2")));
    let mut t = s.clone();
    square.apply_unchecked(&mut t, mv("b3", "b2"));
    assert_eq!(t.outcome(), None);
    square.apply_unchecked(&mut t, mv("a3", "a2"));
    assert_eq!(t.outcome(), None);
    // A's move from a1 to the freed a3 makes the diagonal c1-b2-a3 and wins.
    assert!(legal(&square, &t).contains(&mv("a1", "a3")));
    square.apply_unchecked(&mut t, mv("a1", "a3"));
    let o = t.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason, o.turns),
        (Some(Player::A), EndReason::Line, 3)
    );
    // On the triangle a stone goes to the one empty point.
    let a = mask(&triangle, &["a1", "e1", "c2"]);
    let b = mask(&triangle, &["b2", "d2", "c1"]);
    let s = triangle.setup([a, b], [0, 0], Player::A);
    assert_eq!(legal(&triangle, &s).len(), 3);
    // Both games are the Matthews games under Ludii's limits: the same values, and best play
    // on both sides runs to the turn limit.
    for (g, m) in [
        (&square, "tsoro-yemutatu-matthews-a"),
        (&triangle, "tsoro-yemutatu-matthews-b"),
    ] {
        let sol = Solution::solve(g.rules(), 1_000_000).unwrap();
        let msol = Solution::solve(game(m, &[]).rules(), 1_000_000).unwrap();
        assert_eq!(sol.start_value(), Value::Draw);
        assert_eq!(
            (sol.open(), sol.finished()),
            (msol.open(), msol.finished()),
            "{m}"
        );
        let mut s = g.initial_state();
        while s.outcome().is_none() {
            let a = sol.best_actions(&s)[0];
            g.apply_unchecked(&mut s, a);
        }
        let o = s.outcome().unwrap();
        assert_eq!(
            (o.winner, o.reason, o.turns),
            (None, EndReason::TurnLimit, 2500)
        );
    }
}

/// Ludii's cap (peer notes, section 6, item 2): the game is cut after the first move of the
/// limit's last turn, so a line made then is not followed by its take; the other readings
/// play the last turn out.
#[test]
fn ludii_turn_limit_cuts_the_last_turn_after_its_first_move() {
    for (id, cut) in [
        ("tsoro-yemutwelve-ludii", true),
        ("dig-dig-ludii", true),
        ("tsoro-yemutwelve-matthews", false),
    ] {
        let g = game(id, &[("turn_limit", 1.into())]);
        let a = mask(&g, &["a1", "d1"]);
        let b = mask(&g, &["d7", "g7", "b4"]);
        let mut s = g.setup([a, b], [5, 5], Player::A);
        let rep = g.apply_unchecked(&mut s, place("g1"));
        assert_eq!(rep.captures, 1, "{id}: the line is made");
        if cut {
            let o = s.outcome().unwrap();
            assert_eq!(
                (o.winner, o.reason, o.turns),
                (None, EndReason::TurnLimit, 1)
            );
            assert_eq!(s.takes_owed(), 0, "{id}");
            assert_eq!(s.stones(Player::B), b, "{id}: nothing taken");
        } else {
            assert_eq!(s.outcome(), None, "{id}");
            g.apply_unchecked(&mut s, MorrisAction::Take(sq("d7")));
            let o = s.outcome().unwrap();
            assert_eq!((o.reason, o.turns), (EndReason::TurnLimit, 1), "{id}");
            assert_eq!(s.stones(Player::B).count_ones(), 2, "{id}");
        }
    }
    // Before the last turn a line takes as usual.
    let g = game("tsoro-yemutwelve-ludii", &[("turn_limit", 2.into())]);
    let a = mask(&g, &["a1", "d1"]);
    let mut s = g.setup([a, mask(&g, &["d7", "g7", "b4"])], [5, 5], Player::A);
    g.apply_unchecked(&mut s, place("g1"));
    assert_eq!(s.outcome(), None);
    assert_eq!(s.takes_owed(), 1);
}

/// In Ludii's readings a line always earns its removal decision; with no enemy stone to take
/// the maker makes a forced pass (a decision with one option) and the turn ends. Matthews'
/// reading simply ends the turn.
#[test]
fn ludii_a_line_with_nothing_to_take_is_followed_by_a_forced_pass() {
    // Tsoro yemutwelve: B has no stone on the board, five in hand.
    let a = |g: &MorrisGame| mask(g, &["a1", "d1"]);
    let l = game("tsoro-yemutwelve-ludii", &[]);
    let mut s = l.setup([a(&l), 0], [5, 5], Player::A);
    let rep = l.apply_unchecked(&mut s, place("g1"));
    assert_eq!(rep.captures, 1);
    assert_eq!(s.to_move(), Some(Player::A));
    assert_eq!(legal(&l, &s), vec![MorrisAction::Pass]);
    l.apply_unchecked(&mut s, MorrisAction::Pass);
    assert_eq!(s.outcome(), None);
    assert_eq!(s.to_move(), Some(Player::B));
    assert_eq!(s.turns(), 1);
    let m = game("tsoro-yemutwelve-matthews", &[]);
    let mut s = m.setup([a(&m), 0], [5, 5], Player::A);
    m.apply_unchecked(&mut s, place("g1"));
    assert_eq!(s.to_move(), Some(Player::B));
    // Dig Dig: A's cancelling placement on B's only stone makes a line with nothing to take.
    let d = game("dig-dig-ludii", &[]);
    let mut s = d.setup([a(&d), mask(&d, &["g1"])], [0, 0], Player::A);
    let (_, ev) = d.apply_traced(&mut s, place("g1"));
    assert!(matches!(ev[1], MorrisEvent::Line { .. }));
    assert_eq!(legal(&d, &s), vec![MorrisAction::Pass]);
    d.apply_unchecked(&mut s, MorrisAction::Pass);
    assert_eq!(s.to_move(), Some(Player::B));
    // B places; that pass was no turn of a single pass, so nothing is drawn.
    assert!(legal(&d, &s).contains(&place("b4")));
}

/// Ludii's Dig Dig looks for the full board after a move that ends a turn, never after a
/// forced pass: a last placement that makes a line with nothing to take is followed by a
/// pass, and placement goes on (onto the placer's single stones) until a move ends a turn on
/// a full board.
#[test]
fn ludii_dig_dig_full_board_after_a_passed_take_keeps_placing() {
    let g = game("dig-dig-ludii", &[]);
    let all = g.board().all();
    let g7 = mask(&g, &["g7"]);
    let mut s = g.setup([all & !g7, 0], [0, 0], Player::A);
    g.apply_unchecked(&mut s, place("g7"));
    assert_eq!(legal(&g, &s), vec![MorrisAction::Pass]);
    g.apply_unchecked(&mut s, MorrisAction::Pass);
    // The board is full, yet B still places: on any of A's 24 single stones.
    assert!(g.placing(&s, Player::B));
    let l = legal(&g, &s);
    assert_eq!(l.len(), 24);
    assert!(l.contains(&place("d1")));
    let (_, ev) = g.apply_traced(&mut s, place("d1"));
    // B's cancelling placement ends a turn on a full board: the pair goes, movement begins.
    assert!(
        ev.iter()
            .any(|e| matches!(e, MorrisEvent::RemoveCancelled { .. }))
    );
    assert!(!g.placing(&s, Player::A));
    assert_eq!(s.cancelled(), 0);
    assert_eq!(s.stones(Player::A), all & !mask(&g, &["d1"]));
    // B has no stone left, but Ludii's end rule looks at the next player only: A moves, and
    // only then has B lost.
    assert_eq!(s.outcome(), None);
    assert_eq!(s.to_move(), Some(Player::A));
    assert!(legal(&g, &s).contains(&mv("a1", "d1")));
    g.apply_unchecked(&mut s, mv("a1", "d1"));
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Player::A), EndReason::TooFewPieces)
    );
    // Matthews' reading (both players checked at the end of every turn) ends it at once.
    let mut v = catalogue::get("dig-dig-ludii").unwrap().config.clone();
    v["end"]["lose_next_only"] = false.into();
    let c: tsoro_engine::morris::MorrisConfig = serde_json::from_value(v).unwrap();
    let both = MorrisGame::new(c.compile().unwrap());
    let mut s = both.setup([all & !g7, 0], [0, 0], Player::A);
    for a in [place("g7"), MorrisAction::Pass, place("d1")] {
        both.apply_unchecked(&mut s, a);
    }
    assert_eq!(s.outcome().unwrap().winner, Some(Player::A));
}

/// Ludii's Dig Dig counts stones only in its movement phase: when the filling placement's
/// removal of the pairs leaves the other player without stones, he makes a forced pass, the
/// filler makes one step, and only then has he lost (same winner, two actions later).
/// Matthews' reading (both players checked at the end of every turn) ends it at once.
#[test]
fn ludii_dig_dig_a_player_emptied_by_the_filling_placement_passes_then_loses() {
    let play = |g: &MorrisGame| {
        let all = g.board().all();
        let mut s = g.setup([all & !mask(g, &["d1", "g7"]), 0], [0, 0], Player::B);
        // B cancels a1; A's g7 makes lines with nothing to take (a forced pass); B cancels
        // d2; A's d1 fills the board, each of its lines holding a pair (no line).
        for a in [
            place("a1"),
            place("g7"),
            MorrisAction::Pass,
            place("d2"),
            place("d1"),
        ] {
            assert!(legal(g, &s).contains(&a), "{a:?}");
            g.apply_unchecked(&mut s, a);
        }
        assert_eq!(s.cancelled(), 0);
        assert_eq!(s.stones(Player::B), 0);
        s
    };
    let g = game("dig-dig-ludii", &[]);
    let mut s = play(&g);
    assert_eq!(s.outcome(), None);
    assert_eq!(legal(&g, &s), vec![MorrisAction::Pass]);
    g.apply_unchecked(&mut s, MorrisAction::Pass);
    assert_eq!(s.outcome(), None);
    assert_eq!(s.to_move(), Some(Player::A));
    g.apply_unchecked(&mut s, mv("a4", "a1"));
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason, o.turns),
        (Some(Player::A), EndReason::TooFewPieces, 6)
    );
    let mut v = catalogue::get("dig-dig-ludii").unwrap().config.clone();
    v["end"]["lose_next_only"] = false.into();
    let c: tsoro_engine::morris::MorrisConfig = serde_json::from_value(v).unwrap();
    let both = MorrisGame::new(c.compile().unwrap());
    let o = play(&both).outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason, o.turns),
        (Some(Player::A), EndReason::TooFewPieces, 4)
    );
}

/// Dig Dig, Matthews' words read literally (`cancelled=opponent`): only the opponent's man is
/// cancelled; the man placed on top is an ordinary man of the placer's (it makes lines and
/// stays when the cancelled men are removed) and cannot itself be cancelled. The default
/// (`pair`, Ludii's reading) cancels both and the point makes no line.
#[test]
fn dig_dig_literal_cancelling_keeps_the_placers_man() {
    let g = game("dig-dig-matthews", &[("cancelled", "opponent".into())]);
    let mut s = g.setup(
        [mask(&g, &["a1", "d1"]), mask(&g, &["g1", "b2", "f2", "f4"])],
        [1, 1],
        Player::A,
    );
    g.apply_unchecked(&mut s, place("g1"));
    assert_eq!(s.stones(Player::A), mask(&g, &["a1", "d1", "g1"]));
    assert_eq!(s.cancelled(), mask(&g, &["g1"]));
    // The line a1-d1-g1 is made: A takes B's other man.
    assert_eq!(legal(&g, &s).len(), 3);
    assert!(legal(&g, &s).contains(&MorrisAction::Take(sq("b2"))));
    g.apply_unchecked(&mut s, MorrisAction::Take(sq("b2")));
    assert_eq!(s.stones(Player::B), mask(&g, &["f2", "f4"]));
    // B may not cancel the man standing on the cancelled one.
    assert!(!legal(&g, &s).contains(&place("g1")));
    g.apply_unchecked(&mut s, place("g7"));
    // Hands empty: placement ends, the cancelled man goes, A's man on top stays.
    assert_eq!(s.cancelled(), 0);
    assert!(s.stones(Player::A) & mask(&g, &["g1"]) != 0);
    assert_eq!(s.stones(Player::B), mask(&g, &["f2", "f4", "g7"]));
    assert_eq!(s.outcome(), None);

    let pair = game("dig-dig-matthews", &[]);
    let mut s = pair.setup(
        [
            mask(&pair, &["a1", "d1", "b4"]),
            mask(&pair, &["g1", "b2", "f2", "f4"]),
        ],
        [1, 1],
        Player::A,
    );
    pair.apply_unchecked(&mut s, place("g1"));
    assert_eq!(s.stones(Player::A), mask(&pair, &["a1", "d1", "b4"]));
    assert_eq!(s.to_move(), Some(Player::B), "no line, the turn ends");
}
