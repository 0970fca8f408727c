"""tsoro: the stone games of Zimbabwe and Malawi, played by the tsoro engine's reference rules.

The game API follows OpenSpiel's terms::

    import tsoro
    game = tsoro.load_game("tsoro-ludii", holes=8)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()          # [1.0, -1.0]: A won
    state.to_json()          # the same JSON as `tsoro replay`

Actions are integer ids, the same for every state of one ruleset and its parameters
(`Game.num_distinct_actions()`); `action_to_string` and `string_to_action` convert them
to and from the project's notation (`sow i,6`, `take iv,5`, `place d5`, `move d5-d6`).

Sowing games (N holes a row, H = 4N): a hole's index is r*N + h - 1 for row r (i, ii, iii,
iv = 0..3) and hole h (1..N, from A's left); `sow` = index, `take` = H + index, `nominate` =
2H + index, `stop` = 3H, `continue` = 3H + 1, `pass` = 3H + 2, `move a b` = 3H + 3 +
index(a)*H + index(b).

Line games (P points in the board's order, as `Game.observation_channels()` planes index
them): `place` = point, `take` = P + point, `pass` = 2P, `move p-q` = 2P + 1 + p*P + q.

`State.observation_tensor()` is a float32 numpy array of `Game.observation_tensor_shape()`:
(10, 4, N) for sowing games (rows i..iv by holes 1..N) and (11, P) for line games, channel by
channel as `Game.observation_channels()` lists them.
"""

from tsoro._tsoro import ENGINE_VERSION, Game, State, load_game, rulesets

__all__ = ["ENGINE_VERSION", "Game", "State", "load_game", "rulesets"]
