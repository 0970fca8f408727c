"""PettingZoo: the AEC environment passes PettingZoo's API test and plays whole games."""

import pytest
from pettingzoo.test import api_test

from tsoro.pettingzoo import env


@pytest.mark.parametrize(
    "ruleset, params",
    [
        ("tsoro-ludii", {"holes": 6}),
        ("tsoro-matthews-v7", {}),
        ("tsoro-yemutwelve-ludii", {}),
    ],
)
def test_api_test_passes(ruleset, params):
    api_test(env(ruleset=ruleset, **params), num_cycles=300)


def test_a_game_with_masks_and_ansi_rendering():
    e = env(ruleset="tsoro-ludii", holes=8, render_mode="ansi")
    e.reset(seed=3)
    drawing = e.render()
    assert drawing.splitlines()[1].split()[0] == "iv" and "A to move" in drawing
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            mask = obs["action_mask"]
            assert mask.sum() >= 1
            action = int(e.action_space(agent).sample(mask))
            steps += 1
        e.step(action)
    assert steps > 10
    assert sorted(e.unwrapped.state_.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_bad_parameters_and_render_modes_raise_value_error():
    with pytest.raises(ValueError, match="holes"):
        env(ruleset="tsoro-ludii", holes=3)
    with pytest.raises(ValueError, match="render_mode"):
        env(ruleset="tsoro-ludii", render_mode="human")
