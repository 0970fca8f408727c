"""The game API: loading, parameters and their errors, actions and their notation, states."""

import copy
import json
import pickle

import numpy as np
import pytest

import tsoro


def test_rulesets_list_every_game_and_its_parameters():
    rs = {r["id"]: r for r in tsoro.rulesets()}
    assert "tsoro-ludii" in rs and "tsoro-yemutwelve-ludii" in rs
    holes = {p["name"]: p for p in rs["tsoro-ludii"]["params"]}["holes"]
    assert holes["type"] == "int" and holes["default"] == 8 and holes["allowed"] == "6..=21"


@pytest.mark.parametrize(
    "ruleset, params, words",
    [
        ("no-such-ruleset", {}, ["unknown ruleset", "tsoro-ludii"]),
        ("tsoro-ludii", {"holes": 40}, ["holes", "6..=21"]),
        ("tsoro-ludii", {"holes": "many"}, ["holes", "6..=21"]),
        ("tsoro-ludii", {"holes": 2.5}, ["holes", "6..=21"]),
        ("tsoro-ludii", {"colour": "red"}, ["colour", "holes"]),
        ("tsoro-ludii-misoro", {"start": "nope"}, ["start", "fixed-misoro|misoro-choice"]),
        ("tsoro-ludii-additional-capture", {"takes_optional": 3}, ["takes_optional", "true|false"]),
        ("nhodo-matthews", {}, ["stochastic model"]),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(ruleset, params, words):
    with pytest.raises(ValueError) as e:
        tsoro.load_game(ruleset, **params)
    for w in words:
        assert w in str(e.value)


def test_parameters_as_the_command_line_reads_them():
    assert tsoro.load_game("tsoro-ludii", holes="10").params()["holes"] == 10
    g = tsoro.load_game("tsoro-ludii-additional-capture", takes_optional="true")
    assert g.params()["takes_optional"] is True


def test_actions_round_trip_through_the_notation():
    for r in tsoro.rulesets():
        if r["kind"] == "nhodo":
            continue
        g = tsoro.load_game(r["id"])
        s = g.new_initial_state()
        for a in s.legal_actions():
            text = s.action_to_string(a)
            assert g.string_to_action(text) == a
            assert g.string_to_action("  " + text.upper() + " ") == a
            assert g.string_to_action(g.action_to_json(a)) == a
            assert 0 <= a < g.num_distinct_actions()


def test_the_documented_encoding():
    g = tsoro.load_game("tsoro-ludii", holes=8)
    h = 32
    assert g.action_to_string(0) == "sow i,1"
    assert g.action_to_string(8 + 2) == "sow ii,3"
    assert g.action_to_string(h + 3 * 8 + 4) == "take iv,5"
    assert g.action_to_string(2 * h) == "nominate i,1"
    assert g.action_to_string(3 * h) == "stop"
    assert g.action_to_string(3 * h + 1) == "continue"
    assert g.action_to_string(3 * h + 2) == "pass"
    assert g.action_to_string(3 * h + 3 + 6 * h + 7) == "move i,7 i,8"
    assert g.num_distinct_actions() == h * h + 3 * h + 3
    m = tsoro.load_game("tsoro-yemutwelve-ludii")
    assert m.num_distinct_actions() == 24 * 24 + 2 * 24 + 1
    assert m.action_to_string(0) == "place a1"
    assert m.action_to_string(24) == "take a1"
    assert m.action_to_string(48) == "pass"
    assert m.action_to_string(49 + 1) == "move a1-d1"


@pytest.mark.parametrize("bad", ["sow", "sow x,1", "sow i,99", "{\"sow\":\"i,99\"}", "{}", "dance"])
def test_bad_action_text_raises_value_error(bad):
    with pytest.raises(ValueError):
        tsoro.load_game("tsoro-ludii").string_to_action(bad)


def test_illegal_and_out_of_range_actions_raise_value_error():
    g = tsoro.load_game("tsoro-ludii")
    s = g.new_initial_state()
    legal = s.legal_actions()
    illegal = next(a for a in range(g.num_distinct_actions()) if a not in legal)
    with pytest.raises(ValueError, match="illegal here; legal: "):
        s.apply_action(illegal)
    for bad in (-1, g.num_distinct_actions(), 2**40):
        with pytest.raises(ValueError, match="out of range"):
            s.apply_action(bad)
    assert s.history() == []


def test_a_random_game_plays_to_its_end():
    rng = np.random.default_rng(1)
    g = tsoro.load_game("tsoro-ludii", holes=8)
    s = g.new_initial_state()
    assert s.current_player() == 0
    while not s.is_terminal():
        assert s.current_player() in (0, 1)
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert s.current_player() == -4
    assert s.legal_actions() == []
    assert sorted(s.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="game is over"):
        s.apply_action(0)


def test_clone_copy_and_pickle_are_independent():
    g = tsoro.load_game("tsoro-ludii")
    s = g.new_initial_state()
    s.apply_action(s.legal_actions()[0])
    for c in (s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert c.history() == s.history() and c.to_json() == s.to_json()
        c.apply_action(c.legal_actions()[0])
        assert len(c.history()) == len(s.history()) + 1
    g2 = pickle.loads(pickle.dumps(tsoro.load_game("tsoro-ludii", holes=10)))
    assert g2.params()["holes"] == 10


def test_observation_tensors_have_the_documented_shape():
    g = tsoro.load_game("tsoro-ludii", holes=8)
    s = g.new_initial_state()
    o = s.observation_tensor()
    assert o.dtype == np.float32 and o.shape == (10, 4, 8) == tuple(g.observation_tensor_shape())
    assert len(g.observation_channels()) == 10
    board = json.loads(s.state_json())["board"]
    assert o[0].tolist() == [board["i"], board["ii"], board["iii"], board["iv"]]
    assert (o[3] == 1).all() and (o[4] == 0).all()  # A to move
    assert np.array_equal(s.observation_tensor(0), s.observation_tensor(1))
    with pytest.raises(ValueError):
        s.observation_tensor(2)
    m = tsoro.load_game("tsoro-yemutwelve-ludii").new_initial_state()
    om = m.observation_tensor()
    assert om.shape == (11, 24) and (om[5] == 12).all() and (om[10] == 1).all()


def test_a_relay_marks_the_head_it_stands_in():
    # Relays stop at occupied heads: play until one is offered, then check the plane marks one
    # of the mover's heads.
    rng = np.random.default_rng(3)
    g = tsoro.load_game("tsoro-matthews-v1")
    seen = 0
    for _ in range(20):
        s = g.new_initial_state()
        while not s.is_terminal():
            o = s.observation_tensor()
            if o[7].any():
                assert s.action_to_string(s.legal_actions()[0]) in ("stop", "continue")
                assert o[2].sum() == 1 and (o[1] * o[2]).sum() == 1
                seen += 1
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert seen > 0


def test_the_board_is_drawn_as_the_notation_reads_it():
    s = tsoro.load_game("tsoro-ludii", holes=8).new_initial_state()
    lines = str(s).splitlines()
    assert lines[0].split() == [str(i) for i in range(1, 9)]
    assert [l.split()[0] for l in lines[1:6]] == ["iv", "iii", "-" * 32, "ii", "i"]
    assert lines[-1] == "A to move"
    m = str(tsoro.load_game("tsoro-yemutatu-matthews-a").new_initial_state())
    assert "a3--b3--c3" in m
