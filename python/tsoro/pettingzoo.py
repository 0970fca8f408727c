"""The tsoro rulesets as PettingZoo AEC environments::

    from tsoro.pettingzoo import env
    e = env(ruleset="tsoro-ludii", holes=8, render_mode="ansi")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            mask = obs["action_mask"]
            action = e.action_space(agent).sample(mask)
        e.step(action)

Agents are ``A`` and ``B``. The agent to act is the player to move, who may act several times
in a row (a relay's stop or continue, additional takes). An observation is a dict:
``observation``, ``State.observation_tensor()`` (the same for both agents: the games have perfect
information), and ``action_mask``, 1 at the legal action ids of the agent to act (all 0 for the
other). Rewards come at the end: +1 the winner, -1 the loser, 0 both in a draw. Games end by
their own rules (their turn limits included), so nothing is truncated.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import tsoro

AGENTS = ["A", "B"]


def env(ruleset="tsoro-ludii", render_mode=None, **params):
    """The environment wrapped in PettingZoo's order and bounds checks."""
    e = raw_env(ruleset=ruleset, render_mode=render_mode, **params)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """One tsoro ruleset with its parameters, as an AEC environment."""

    metadata = {"render_modes": ["ansi"], "name": "tsoro_v0", "is_parallelizable": False}

    def __init__(self, ruleset="tsoro-ludii", render_mode=None, **params):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: the modes are None and 'ansi'")
        self.game = tsoro.load_game(ruleset, **params)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        n = self.game.num_distinct_actions()
        shape = tuple(self.game.observation_tensor_shape())
        # Every channel holds 0/1 flags or counts (stones on a hole, captured or in hand,
        # takes owed), none above the start's largest entry times its number of entries.
        start = self.game.new_initial_state()
        high = float(max(start.observation_tensor().max() * np.prod(shape), 1.0))
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=high, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(n)
        self.observation_spaces = {a: self._obs_space for a in AGENTS}
        self.action_spaces = {a: self._act_space for a in AGENTS}
        self.state_ = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._act_space.seed(seed)
        self.state_ = self.game.new_initial_state()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.state_.current_player()]

    def observe(self, agent):
        mask = np.zeros(self._act_space.n, dtype=np.int8)
        if self.state_ is not None and agent == self.agent_selection and not self.terminations[agent]:
            mask[self.state_.legal_actions()] = 1
        return {"observation": self.state_.observation_tensor(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply_action(int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state_.is_terminal():
            for a, r in zip(AGENTS, self.state_.returns()):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = AGENTS[self.state_.current_player()]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        return str(self.state_)

    def close(self):
        pass
