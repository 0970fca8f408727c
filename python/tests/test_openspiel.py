"""OpenSpiel: the registered game passes OpenSpiel's own checks and its bots play it."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

import tsoro.openspiel  # noqa: F401  (registers python_tsoro)


@pytest.mark.parametrize(
    "params",
    [
        {"ruleset": "tsoro-ludii", "holes": 6},
        {"ruleset": "tsoro-matthews-v7"},
        {"ruleset": "njombwa-sanderson-gambit"},
        {"ruleset": "tsoro-ludii-baia"},
        {"ruleset": "tsoro-yemutatu-matthews-a"},
        {"ruleset": "dig-dig-ludii", "turn_limit": 200},
    ],
)
def test_random_sim_test_with_serialization(params):
    game = pyspiel.load_game("python_tsoro", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_parameters_reach_the_ruleset_and_bad_ones_raise():
    game = pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii", "holes": 10})
    assert game.tsoro.params()["holes"] == 10
    assert game.observation_tensor_shape() == [10, 4, 10]
    baia = pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii-baia"})
    assert baia.tsoro.params()["holes"] == 13  # its own default, not tsoro-ludii's
    with pytest.raises(ValueError, match="holes"):
        pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii", "holes": 99})
    # A parameter of another ruleset: ours says which this one has; one of none: OpenSpiel's.
    with pytest.raises(ValueError, match="unknown parameter .*holes"):
        pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii", "cancelled": "pair"})
    with pytest.raises(pyspiel.SpielError, match="players"):
        pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii", "players": 3})
    loaded = pyspiel.load_game(str(game))
    assert loaded.tsoro.params() == game.tsoro.params()


def test_observation_and_information_state():
    game = pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii"})
    s = game.new_initial_state()
    s.apply_action(s.legal_actions()[0])
    assert np.array_equal(
        np.asarray(s.observation_tensor(0)), s.inner.observation_tensor().ravel()
    )
    assert '"actions":[{"sow":' in s.information_state_string(0)


def test_mcts_bot_plays_through_evaluate_bots():
    game = pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii", "holes": 6, "turn_limit": 60})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2, max_simulations=20, evaluator=evaluator, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 7),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
