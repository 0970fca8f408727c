"""Property test: random games played through the package are the games `tsoro replay`
plays from the same actions, state by state, byte for byte."""

import json
import subprocess
import zlib

import numpy as np
import pytest

import tsoro

GAMES = [r["id"] for r in tsoro.rulesets() if r["kind"] != "nhodo"]


def random_game(game, rng, max_actions=400):
    s = game.new_initial_state()
    while not s.is_terminal() and len(s.history()) < max_actions:
        s.apply_action(int(rng.choice(s.legal_actions())))
    return s


@pytest.mark.parametrize("ruleset", GAMES)
def test_random_games_match_tsoro_replay(ruleset, tsoro_bin):
    rng = np.random.default_rng(zlib.crc32(ruleset.encode()))
    params = {}
    spec = {p["name"]: p for r in tsoro.rulesets() if r["id"] == ruleset for p in r["params"]}
    if "holes" in spec:
        lo, hi = (int(x) for x in spec["holes"]["allowed"].split("..="))
        params["holes"] = int(rng.integers(lo, hi + 1))
    game = tsoro.load_game(ruleset, **params)
    for _ in range(3):
        s = random_game(game, rng)
        record = s.record()
        out = subprocess.run(
            [tsoro_bin, "replay"], input=record, capture_output=True, text=True, check=True
        ).stdout
        assert out.strip() == s.to_json()
        replayed = json.loads(out)
        assert replayed["result"]["finished"] == s.is_terminal()
        assert json.loads(s.state_json()) == replayed["states"][-1]
        winner = replayed["result"]["winner"]
        if s.is_terminal():
            expected = {"A": [1.0, -1.0], "B": [-1.0, 1.0], None: [0.0, 0.0]}[winner]
            assert s.returns() == expected
        legal = sorted(json.dumps(json.loads(game.action_to_json(a))) for a in s.legal_actions())
        assert legal == sorted(json.dumps(a) for a in replayed["states"][-1]["legal"])
