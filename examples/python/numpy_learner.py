"""A tiny policy trained on the observation tensor with numpy only.

    PYTHONPATH=build/python python3 examples/python/numpy_learner.py [--games N]

A linear softmax policy over the action ids, scored from the observation
tensor: logits = W[legal] @ features, trained by REINFORCE (the return of the
game as the reward of every decision) against a random opponent on the
tabletop ruleset. It shows the loop (observe, mask, sample, apply, update)
works; it is not a strong player. Prints the win rate of the first and the
last block of games.
"""
import argparse

import numpy as np

import wargame


def play(game, w, rng, seed, learn_side=0):
    state = game.new_initial_state(seed)
    steps = []  # (features, legal ids, chosen index)
    while not state.is_terminal():
        legal = np.array(state.legal_actions())
        if state.current_player() == learn_side:
            x = state.observation_tensor(learn_side).ravel()
            logits = w[legal] @ x
            p = np.exp(logits - logits.max())
            p /= p.sum()
            i = rng.choice(len(legal), p=p)
            steps.append((x, legal, i, p))
            state.apply_action(int(legal[i]))
        else:
            state.apply_action(int(rng.choice(legal)))
    return state.returns()[learn_side], steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="civil_war_miniatures")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = wargame.load_game(args.game)
    rng = np.random.default_rng(args.seed)
    w = np.zeros((game.num_distinct_actions(), game.observation_tensor_size()), dtype=np.float32)
    results = []
    for g in range(args.games):
        reward, steps = play(game, w, rng, seed=args.seed + g)
        results.append(reward)
        baseline = np.mean(results[-50:])
        for x, legal, i, p in steps:
            # d log p(i) / d W[legal[j]] = (1[j == i] - p[j]) x
            grad = -p
            grad[i] += 1.0
            w[legal] += args.lr * (reward - baseline) * np.outer(grad, x)
    block = max(1, args.games // 4)
    first, last = np.mean(np.array(results[:block]) > 0), np.mean(np.array(results[-block:]) > 0)
    print(f"{game.title}: {args.games} games, learner wins {first:.0%} of the first {block}, "
          f"{last:.0%} of the last {block}")
    print(f"weights: {np.count_nonzero(np.abs(w).sum(axis=1))} actions updated, |W| = {np.abs(w).sum():.3f}")


if __name__ == "__main__":
    main()
