"""Random games played step by step through a state API (`legal_actions` + `apply_action` in
a Python loop), in actions per second: tsoro's states against OpenSpiel's own C++ `mancala` and
`oware` through pyspiel, in the same run; then `clone()` and `observation_tensor()` on 4x8.

    target/python-venv/bin/python python/benchmarks/state_api.py [SECONDS_EACH]
"""

import random
import sys
import time

import pyspiel

import tsoro


def rate(new_state, seconds):
    """Actions a second over whole random games, for at least `seconds`."""
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = new_state()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


def per_call(f, n=200_000):
    start = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - start) / n * 1e6


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    games = {
        "tsoro tsoro-ludii 4x8": tsoro.load_game("tsoro-ludii", holes=8).new_initial_state,
        "pyspiel mancala": pyspiel.load_game("mancala").new_initial_state,
        "pyspiel oware": pyspiel.load_game("oware").new_initial_state,
    }
    for name, new_state in games.items():
        print(f"{name:24} {rate(new_state, seconds):12,.0f} actions/s")
    s = tsoro.load_game("tsoro-ludii", holes=8).new_initial_state()
    rng = random.Random(2)
    for _ in range(20):
        s.apply_action(rng.choice(s.legal_actions()))
    print(f"clone() after 20 actions        {per_call(s.clone):.2f} us")
    print(f"observation_tensor()            {per_call(s.observation_tensor):.2f} us")


if __name__ == "__main__":
    main()
