import os
import random

import numpy as np
import pytest

import wargame

SPECS = ["stars_and_bars", "blue_and_gray(scenario=chattanooga)", "civil_war_miniatures"]


def scaled(n):
    """n * WG_GAMES_PERCENT / 100, at least 1 (as wg::ScaledGameCount)."""
    return max(1, n * int(os.environ.get("WG_GAMES_PERCENT", "100")) // 100)


@pytest.fixture(scope="session", params=SPECS)
def game(request):
    return wargame.load_game(request.param)


def random_game(state, rng, max_steps=100000, check=None):
    """Plays uniformly random legal actions to the end; returns the ids played."""
    played = []
    while not state.is_terminal() and len(played) < max_steps:
        if check:
            check(state)
        if state.is_chance_node():
            values, probs = zip(*state.chance_outcomes())
            a = int(rng.choice(values))
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
        played.append(a)
    return played


def mask_matches(state):
    mask = state.legal_actions_mask()
    assert mask.dtype == np.uint8
    assert mask.shape == (state.get_game().num_distinct_actions(),)
    assert list(np.flatnonzero(mask != 0)) == state.legal_actions()
