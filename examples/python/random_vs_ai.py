"""A random player against libwargame's computer player, through the Python API.

    PYTHONPATH=build/python python3 examples/python/random_vs_ai.py [GAME] [--seed N]

Prints the events of the last turn, the victory points and the result.
"""
import argparse
import random

import wargame


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="civil_war_miniatures")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai-side", type=int, default=0, help="the side the AI plays (0 or 1)")
    parser.add_argument("--budget", type=int, default=0, help="the AI's work per decision (0: default)")
    args = parser.parse_args()

    game = wargame.load_game(args.game)
    state = game.new_initial_state(args.seed)
    ai = wargame.AiPlayer(game, seed=args.seed, budget=args.budget)
    rng = random.Random(args.seed)
    while not state.is_terminal():
        if state.current_player() == args.ai_side:
            action = ai.choose(state)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    last_turn = [e for e in state.events() if e.type == "turn_start"][-1].a
    print(f"{game.title}: ai plays {game.sides[args.ai_side]}, random the other side")
    seen_turn = False
    for e in state.events():
        seen_turn = seen_turn or (e.type == "turn_start" and e.a == last_turn)
        if seen_turn:
            print("  " + e.description)
    vp = state.vp
    winner = "draw" if state.winner < 0 else f"{game.sides[state.winner]} wins"
    print(f"victory points: {game.sides[0]} {vp[0]}, {game.sides[1]} {vp[1]}")
    print(f"result: {winner} after {state.move_number()} actions; returns {state.returns()}")


if __name__ == "__main__":
    main()
