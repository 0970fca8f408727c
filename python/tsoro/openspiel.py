"""The tsoro rulesets as an OpenSpiel Python game: ``import tsoro.openspiel`` registers
``python_tsoro``::

    import pyspiel, tsoro.openspiel
    game = pyspiel.load_game("python_tsoro", {"ruleset": "tsoro-ludii", "holes": 8})

Its parameters are ``ruleset`` and every parameter of any ruleset that is a game (not
``nhodo-matthews``). OpenSpiel fills every parameter it is not given with the default of its
specification, and defaults differ between rulesets, so the specification's defaults stand for
"the ruleset's own default": -1 for a whole number, "" for a choice, and for a true/false
parameter the default every ruleset having it shares. A parameter given that the ruleset does
not have, or a value out of its range, raises ``ValueError`` naming it and what is allowed.

States follow the engine's reference rules (``tsoro.State``); actions are its integer ids, the
observation tensor its ``observation_tensor()``.
"""

import numpy as np
import pyspiel

import tsoro

SHORT_NAME = "python_tsoro"
DEFAULT_RULESET = "tsoro-ludii"

_TYPE_DEFAULT = {"int": -1, "choice": ""}


def _specification():
    """The parameter specification: ``ruleset`` and each game parameter of any ruleset."""
    spec = {"ruleset": DEFAULT_RULESET}
    bools = {}
    for r in tsoro.rulesets():
        if r["kind"] == "nhodo":
            continue
        for p in r["params"]:
            if p["type"] == "bool":
                bools.setdefault(p["name"], set()).add(p["default"])
            else:
                spec[p["name"]] = _TYPE_DEFAULT[p["type"]]
    for name, defaults in bools.items():
        if len(defaults) != 1:
            raise RuntimeError(f"parameter {name} has different defaults: {defaults}")
        spec[name] = defaults.pop()
    return spec


_PARAMS = _specification()


def _given(params):
    """The ruleset and the parameters meant for it: those not at their stand-in default."""
    params = dict(params or {})
    ruleset = params.pop("ruleset", DEFAULT_RULESET)
    own = {}
    for r in tsoro.rulesets():
        if r["id"] == ruleset:
            own = {p["name"]: p for p in r["params"]}
    given = {}
    for name, value in params.items():
        default = _PARAMS.get(name)
        if name in own and own[name]["type"] == "bool":
            if value != own[name]["default"]:
                given[name] = value
        elif value != default:
            given[name] = value
    return ruleset, given


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="tsoro rulesets (tsoro engine, reference rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


class TsoroGame(pyspiel.Game):
    """A tsoro ruleset with its parameters, as an OpenSpiel game."""

    def __init__(self, params=None):
        ruleset, given = _given(params)
        self.tsoro = tsoro.load_game(ruleset, **given)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.tsoro.num_distinct_actions(),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # OpenSpiel requires a figure; the rulesets bound a game by turns or moves, not
            # by actions, so this is no bound any algorithm here relies on.
            max_game_length=1_000_000,
        )
        super().__init__(_GAME_TYPE, info, dict(params or {}))

    def new_initial_state(self):
        return TsoroState(self, self.tsoro.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TsoroObserver(self.tsoro, perfect_recall)


class TsoroState(pyspiel.State):
    """A position: the engine's state, driven through OpenSpiel's API."""

    def __init__(self, game, inner):
        super().__init__(game)
        self.inner = inner

    def current_player(self):
        p = self.inner.current_player()
        return pyspiel.PlayerId.TERMINAL if p < 0 else p

    def _legal_actions(self, player):
        return self.inner.legal_actions()

    def _apply_action(self, action):
        self.inner.apply_action(action)

    def _action_to_string(self, player, action):
        return self.inner.action_to_string(action)

    def is_terminal(self):
        return self.inner.is_terminal()

    def returns(self):
        return self.inner.returns()

    def __str__(self):
        return str(self.inner)


class TsoroObserver:
    """OpenSpiel's observer: ``tensor`` is ``State.observation_tensor()`` flattened, ``dict``
    its one view, ``observation``, of ``Game.observation_tensor_shape()``."""

    def __init__(self, game, perfect_recall=False):
        self.perfect_recall = perfect_recall
        shape = tuple(game.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        self.tensor[:] = state.inner.observation_tensor().ravel()

    def string_from(self, state, player):
        # With perfect recall (the information state) the whole game so far, as `tsoro
        # replay` reads it; else the position as JSON. The games have perfect information.
        if self.perfect_recall:
            return state.inner.record()
        return state.inner.state_json()


pyspiel.register_game(_GAME_TYPE, TsoroGame)
