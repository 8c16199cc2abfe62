"""Issue 36 from Python: counts are bounded before anything is allocated, and the
objects of two games never meet (a State, an AiPlayer, a copy)."""
import copy
import pickle
import random

import numpy as np
import pytest

import wargame
from conftest import random_game

SPEC = "stars_and_bars"
OTHER = "blue_and_gray(scenario=chattanooga)"


@pytest.fixture(scope="module")
def two_games():
    return wargame.load_game(SPEC), wargame.load_game(OTHER)


@pytest.mark.parametrize("games", [2**31 - 1, 10_000_001, 2**63, 2**200, -1])
def test_simulate_bounds_games_before_allocating(two_games, games):
    with pytest.raises(ValueError, match="games must be 0 to 10000000"):
        wargame.simulate(two_games[0], games)


@pytest.mark.parametrize("key,value,message", [
    ("threads", 1025, "threads must be 0 to 1024"),
    ("threads", -1, "threads must be 0 to 1024"),
    ("threads", 2**70, "threads must be 0 to 1024"),
    ("max_actions", -5, "max_actions must be 0 to 1000000000"),
    ("max_actions", 2**64, "max_actions must be 0 to 1000000000"),
])
def test_simulate_bounds_threads_and_max_actions(two_games, key, value, message):
    with pytest.raises(ValueError, match=message):
        two_games[0].simulate(1, **{key: value})


def test_simulate_takes_numpy_integers_and_refuses_other_types(two_games):
    r = wargame.simulate(two_games[0], np.int64(2), threads=np.int32(1), max_actions=np.int64(30))
    assert len(r["winner"]) == 2 and r["vp"].shape == (2, 2)
    with pytest.raises(TypeError):
        wargame.simulate(two_games[0], 2.5)
    with pytest.raises(TypeError):
        wargame.simulate(two_games[0], True)
    assert len(wargame.simulate(two_games[0], 0)["winner"]) == 0


def test_ai_player_refuses_a_state_of_another_game(two_games):
    a, b = two_games
    ai_a, ai_b = wargame.AiPlayer(a, seed=1, budget=50), wargame.AiPlayer(b, seed=1, budget=50)
    sa, sb = a.new_initial_state(seed=1), b.new_initial_state(seed=1)
    with pytest.raises(ValueError, match="belongs to another game"):
        ai_a.choose(sb)  # a segfault before
    with pytest.raises(ValueError, match="belongs to another game"):
        ai_b.choose(sa)  # an id of the wrong game before
    # The same spec loaded twice is two games: their objects do not mix either.
    again = wargame.load_game(SPEC)
    with pytest.raises(ValueError, match="belongs to another game"):
        wargame.AiPlayer(again, seed=1, budget=50).choose(sa)
    assert ai_a.choose(sa) in sa.legal_actions()
    with pytest.raises(ValueError, match="budget"):
        wargame.AiPlayer(a, seed=1, budget=-1)


def test_deserialized_state_plays_on_the_game_that_read_it(two_games):
    a, b = two_games
    s = a.new_initial_state(seed=3)
    random_game(s, random.Random(3), max_steps=30)
    text = s.serialize()
    with pytest.raises(ValueError, match="not of"):
        b.deserialize_state(text)
    again = wargame.load_game(SPEC)
    t = again.deserialize_state(text)  # same spec, the other Game object: its state
    assert t.get_game() is again
    assert wargame.AiPlayer(again, seed=2, budget=50).choose(t) in t.legal_actions()
    with pytest.raises(ValueError, match="belongs to another game"):
        wargame.AiPlayer(a, seed=2, budget=50).choose(t)


def test_copies_keep_their_game_and_pickling_is_refused(two_games):
    a, _ = two_games
    s = a.new_initial_state(seed=4)
    random_game(s, random.Random(4), max_steps=20)
    for c in (copy.copy(s), copy.deepcopy(s), s.clone()):
        assert c.get_game() is a
        assert c.serialize() == s.serialize()
        assert wargame.AiPlayer(a, seed=1, budget=50).choose(c) in c.legal_actions()
    d = copy.deepcopy(s)
    d.apply_action(d.legal_actions()[0])
    assert d.serialize() != s.serialize()  # independent
    for obj in (s, a, wargame.AiPlayer(a)):
        with pytest.raises(TypeError):
            pickle.dumps(obj)


def test_queued_dice_of_a_chance_node_round_trip(two_games):
    """At an explicit chance node the dice given to the pending action are queued
    (`queued:` in the save) and given again by the serialized dice: not twice."""
    game = wargame.load_game("civil_war_miniatures")
    rng = random.Random(21)
    state = game.new_initial_state(seed=21, explicit_chance=True)
    given = 0
    for _ in range(3000):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        text = state.serialize()
        v = rng.choice(state.chance_outcomes())[0]
        if "given:" in text:
            assert "\nqueued: [" in text
            given += 1
            c = game.deserialize_state(text)
            assert c.serialize() == text
            c.apply_action(v)
            state.apply_action(v)
            assert c.serialize() == state.serialize()
        else:
            state.apply_action(v)
    assert given > 0
