"""The per-step cost of the Python layer: random games through Python against
the same games in C++ (wargame.simulate on one thread, which plays with
Session::LegalActions and a uniform random choice, as the loop below does).

    PYTHONPATH=build/python python3 examples/python/overhead.py [GAME] [--games N]
"""
import argparse
import random
import time

import wargame


def python_games(game, games):
    steps = 0
    start = time.perf_counter()
    for seed in range(1, games + 1):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="stars_and_bars")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    game = wargame.load_game(args.game)
    py_steps, py_time = python_games(game, args.games)
    start = time.perf_counter()
    r = wargame.simulate(game, args.games, seed=1, threads=1)
    cpp_time = time.perf_counter() - start
    cpp_steps = int(r["actions"].sum())
    py_us, cpp_us = py_time / py_steps * 1e6, cpp_time / cpp_steps * 1e6
    print(f"{game}: {args.games} random games")
    print(f"  Python loop: {py_steps} steps, {py_us:.1f} us per step")
    print(f"  C++ (simulate, 1 thread): {cpp_steps} steps, {cpp_us:.1f} us per step")
    print(f"  Python overhead: {py_us - cpp_us:.1f} us per step ({py_us / cpp_us:.2f}x)")


if __name__ == "__main__":
    main()
