"""Every call of the OpenSpiel-style API on every ruleset."""
import random

import numpy as np
import pytest

import wargame
from conftest import SPECS, mask_matches, random_game, scaled


def test_registered_games_include_the_three_rulesets():
    for name in ["stars_and_bars", "blue_and_gray", "civil_war_miniatures"]:
        assert name in wargame.registered_games()


def test_load_game_rejects_a_bad_spec():
    with pytest.raises(ValueError, match="unknown ruleset"):
        wargame.load_game("no_such_game")
    with pytest.raises(ValueError):
        wargame.load_game("stars_and_bars(scenario=nope)")


def test_game_description(game):
    assert game.num_players() == 2
    assert len(game.sides) == 2
    assert len(game.units) > 0
    n = game.num_distinct_actions()
    assert n > 0
    start, size = game.action_segment("end")
    assert (start, size) == (0, 1)
    # The segments tile [0, n) in ActionType order.
    total = 0
    for t in ["end", "move", "enter", "mode", "attack", "bombard", "loss", "stand", "retreat", "advance",
              "choose", "detach", "recombine", "destroy", "convert", "reduce_odds", "custom", "concede"]:
        start, size = game.action_segment(t)
        assert start == total
        total += size
    assert total == n
    assert game.decode_action(0) == ("end", 0, 0, 0)
    assert game.decode_action(n - 1)[0] == "concede"
    with pytest.raises(ValueError):
        game.decode_action(n)
    assert str(game) == game.spec
    assert game.title


def test_initial_state(game):
    state = game.new_initial_state(seed=3)
    assert not state.is_terminal()
    assert not state.is_chance_node()
    assert state.current_player() in (0, 1)
    legal = state.legal_actions()
    assert legal and legal == sorted(set(legal))
    assert all(0 <= a < game.num_distinct_actions() for a in legal)
    mask_matches(state)
    assert state.legal_actions(state.current_player()) == legal
    assert state.legal_actions(1 - state.current_player()) == []
    assert state.returns() == [0.0, 0.0]
    assert state.move_number() == 0 and state.history() == []
    assert state.events()[0].type == "game_start"
    assert state.turn >= 1
    assert state.describe_decision()
    assert state.get_game().spec == game.spec


def test_action_text_round_trip(game):
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for a in legal[:60]:
            text = state.action_to_string(a)
            assert state.string_to_action(text) == a, text
            assert state.action_to_string(state.current_player(), a) == text
        state.apply_action(rng.choice(legal))
    with pytest.raises(ValueError):
        state.string_to_action("{move: [nobody], path: [9999]}")


def test_illegal_action_is_refused_and_changes_nothing(game):
    state = game.new_initial_state(seed=2)
    before = state.serialize()
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)
    with pytest.raises(ValueError):
        state.apply_action(-1)
    assert state.serialize() == before
    assert set(state.legal_actions()) == legal


def test_full_game_with_masks_events_and_returns(game):
    rng = random.Random(11)
    state = game.new_initial_state(seed=11)
    steps = [0]

    def check(s):
        steps[0] += 1
        if steps[0] % 7 == 0:  # a full mask is game.num_distinct_actions() bytes
            mask_matches(s)
        assert s.current_player() in (0, 1)

    played = random_game(state, rng, check=check)
    assert state.is_terminal()
    assert state.current_player() == wargame.TERMINAL_PLAYER
    assert state.legal_actions() == []
    assert not state.legal_actions_mask().any()
    r = state.returns()
    assert sum(r) == 0 and set(r) <= {-1.0, 0.0, 1.0}
    assert r == ([1.0, -1.0] if state.winner == 0 else [-1.0, 1.0] if state.winner == 1 else [0.0, 0.0])
    assert state.history() == played and state.move_number() == len(played)
    events = state.events()
    assert events[-1].type == "game_end"
    for e in events:
        assert isinstance(e, wargame.Event)
        if e.type == "die_roll":
            assert 1 <= e.b <= e.a
    assert [e.description for e in state.events(since=len(events) - 1)] == [events[-1].description]
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_clone_is_independent_and_plays_identically(game):
    rng = random.Random(4)
    state = game.new_initial_state(seed=4)
    random_game(state, rng, max_steps=60)
    clone = state.clone()
    assert clone.serialize() == state.serialize()
    assert clone.legal_actions() == state.legal_actions()
    a = clone.legal_actions()[0]
    clone.apply_action(a)
    assert clone.move_number() == state.move_number() + 1
    state.apply_action(a)
    assert clone.serialize() == state.serialize()


def test_serialize_round_trip_continues_identically(game):
    rng = random.Random(8)
    state = game.new_initial_state(seed=8)
    random_game(state, rng, max_steps=80)
    text = state.serialize()
    copy = game.deserialize_state(text)
    assert copy.serialize() == text
    assert copy.legal_actions() == state.legal_actions()
    assert copy.history() == []  # ids are not saved; the actions are
    rest = random_game(state, random.Random(9))
    for a in rest:
        copy.apply_action(a)
    assert copy.is_terminal() and copy.returns() == state.returns()
    assert copy.serialize() == state.serialize()
    assert np.array_equal(copy.observation_tensor(0), state.observation_tensor(0))
    with pytest.raises(ValueError):
        game.deserialize_state("game: nope\nseed: 1\n")
    other = next(s for s in SPECS if s != game.spec)
    with pytest.raises(ValueError, match="not"):
        wargame.load_game(other).deserialize_state(text)


def test_explicit_chance_nodes(game):
    rng = random.Random(21)
    state = game.new_initial_state(seed=21, explicit_chance=True)
    seen = 0
    steps = 0
    supplied = []  # the outcomes chosen for the pending action, in order
    n = 0  # events before the pending action
    while not state.is_terminal() and steps < 3000 and seen < 5:
        steps += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert state.current_player() == wargame.CHANCE_PLAYER
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert state.legal_actions() == [v for v, _ in outcomes]
            assert not state.legal_actions_mask().any()
            v = rng.choice(outcomes)[0]
            assert all(0 <= o < game.max_chance_outcomes() for o, _ in outcomes)
            # A chance node survives a serialize round trip, with the dice the
            # pending action was given before it, and continues identically.
            copy = game.deserialize_state(state.serialize())
            assert copy.is_chance_node() and copy.chance_outcomes() == outcomes
            state.apply_action(v)
            copy.apply_action(v)
            assert copy.serialize() == state.serialize()
            supplied.append(v)
            if not state.is_chance_node():
                # The action rolled exactly the outcomes chosen, in order (an action
                # may need several dice: a chance node per die).
                rolls = [e.b for e in state.events(since=n) if e.type == "die_roll"]
                assert rolls == supplied
                supplied = []
            seen += 1
        else:
            n = len(state.events())
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen > 0, "no die was rolled"


def test_tabletop_chance_nodes_name_the_die_the_action_needs_next():
    """A farm card may roll several dice of different sizes in one action (the
    livestock's D6s, a dinner's D20): each chance node offers the faces of the die
    rolled next, and a serialized node keeps the dice given before it."""
    game = wargame.load_game("civil_war_miniatures")
    rng = random.Random(21)
    state = game.new_initial_state(seed=21, explicit_chance=True)
    nodes = given = 0
    for _ in range(3000):  # under a second: not scaled, so the sanitizer build reaches a node with given dice
        if state.is_terminal():
            break
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        nodes += 1
        text = state.serialize()
        v = rng.choice(state.chance_outcomes())[0]
        if "given:" in text:
            given += 1
            copy = game.deserialize_state(text)
            copy.apply_action(v)
            state.apply_action(v)
            assert copy.serialize() == state.serialize()
        else:
            state.apply_action(v)
    assert nodes > 0 and given > 0


def test_observation_tensor(game):
    shape = tuple(game.observation_tensor_shape())
    names = game.observation_tensor_layout()
    assert int(np.prod(shape)) == game.observation_tensor_size()
    state = game.new_initial_state(seed=6)
    random_game(state, random.Random(6), max_steps=50)
    for player in (0, 1):
        obs = state.observation_tensor(player)
        assert obs.dtype == np.float32 and obs.shape == shape
        assert np.isfinite(obs).all()
    obs0, obs1 = state.observation_tensor(0), state.observation_tensor(1)
    assert np.array_equal(state.observation_tensor(), state.observation_tensor(state.current_player()))
    if game.is_tabletop():
        per_unit = names.index("turn")
        feats = obs0[: len(game.units) * per_unit].reshape(len(game.units), per_unit)
        own = feats[:, names.index("own")]
        # Own and other swap between the two players' views.
        feats1 = obs1[: len(game.units) * per_unit].reshape(len(game.units), per_unit)
        assert np.array_equal(own + feats1[:, names.index("own")], np.ones(len(game.units)))
        units = state.units()
        in_play = [1.0 if u["in_play"] else 0.0 for u in units]
        assert list(feats[:, names.index("in_play")]) == in_play and sum(in_play) > 0
        for i, u in enumerate(units):
            assert feats[i, names.index("own")] == (1.0 if u["side"] == 0 else 0.0)
            if u["in_play"]:
                x, y = (float(v) for v in u["position"].replace(" in", "").split(","))
                assert feats[i, names.index("x")] == pytest.approx(x / 100, abs=1e-6)
                assert feats[i, names.index("y")] == pytest.approx(y / 100, abs=1e-6)
    else:
        assert shape[0] == len(names)
        plane = {n: i for i, n in enumerate(names)}
        assert np.array_equal(obs0[plane["own_units"]], obs1[plane["other_units"]])
        assert np.array_equal(obs0[plane["own_zoc"]], obs1[plane["other_zoc"]])
        terrain = [i for n, i in plane.items() if n.startswith("terrain_")]
        assert set(np.unique(obs0[terrain])) <= {0.0, 1.0}
        # Units on the map, recounted from the event-free state: every unit is
        # in one hex, so the two unit planes sum to the units on the map.
        # The unit planes recomputed from the units' hexes, independently of the encoder.
        rows, cols = shape[1], shape[2]
        expect = np.zeros((2, rows, cols), dtype=np.float32)
        for u in state.units():
            if u["hex"] is not None:
                h = game.hex_index(u["hex"])
                expect[0 if u["side"] == 0 else 1, h // cols, h % cols] += 1
        assert np.array_equal(obs0[plane["own_units"]], expect[0])
        assert np.array_equal(obs0[plane["other_units"]], expect[1])
        assert np.array_equal(obs1[plane["own_units"]], expect[1])
        # Markers: the planes' totals are the units' marker counts.
        for m in {k for u in state.units() for k in u["markers"]}:
            total = sum(u["markers"].get(m, 0) for u in state.units() if u["hex"] is not None)
            assert obs0[plane["own_" + m]].sum() + obs0[plane["other_" + m]].sum() == total
        me = state.current_player()
        mine, theirs = (obs0, obs1) if me == 0 else (obs1, obs0)
        assert (mine[plane["own_decides"]] == 1).all() and (theirs[plane["own_decides"]] == 0).all()
        assert (obs0[plane["turn"]] == obs0[plane["turn"]].flat[0]).all() and obs0[plane["turn"]].flat[0] > 0
    with pytest.raises(ValueError):
        state.observation_tensor(2)


def test_simulate_returns_arrays_and_is_deterministic():
    n = scaled(6)
    r = wargame.simulate("civil_war_miniatures", n, seed=3, threads=2)
    assert r["winner"].shape == (n,) and r["vp"].shape == (n, 2)
    assert r["finished"].dtype == bool and r["finished"].all()
    assert (r["actions"] > 0).all()
    again = wargame.simulate(wargame.load_game("civil_war_miniatures"), n, seed=3, threads=1)
    for k in r:
        assert np.array_equal(r[k], again[k]), k
    with pytest.raises(ValueError):
        wargame.simulate("civil_war_miniatures", 1, players=("random", "nobody"))


def test_ai_player_chooses_a_legal_action(game):
    state = game.new_initial_state(seed=1)
    ai = wargame.AiPlayer(game, seed=1, budget=200)
    for _ in range(3):
        a = ai.choose(state)
        assert a in state.legal_actions()
        state.apply_action(a)
    terminal = game.new_initial_state(seed=1)
    random_game(terminal, random.Random(1))
    with pytest.raises(ValueError):
        ai.choose(terminal)


def test_text_actions_and_descriptions(game):
    state = game.new_initial_state(seed=1)
    a = state.legal_actions()[-1]
    kind, f0, f1, f2 = game.decode_action(a)
    assert game.describe_action(a).startswith(kind)
    copy = state.clone()
    state.apply_action_text(state.action_to_string(a))
    copy.apply_action(a)
    assert state.serialize() == copy.serialize()
    assert state.rewards() == [0.0, 0.0]
    with pytest.raises(ValueError):
        state.apply_action_text("{nonsense: 1}")
    before = state.serialize()
    with pytest.raises(ValueError):
        state.apply_action_text("stand")  # not a decision the state asks for
    assert state.serialize() == before


def test_ruleset_search_path(tmp_path):
    folder = wargame.find_ruleset_folder("stars_and_bars")
    assert folder.endswith("stars_and_bars")
    wargame.add_ruleset_search_path(str(tmp_path))
    assert wargame.ruleset_search_path()[0] == str(tmp_path)
    assert wargame.find_ruleset_folder("stars_and_bars") == folder  # nothing there


def test_simulate_with_the_ai_player():
    r = wargame.simulate("civil_war_miniatures", 2, seed=5, threads=2, players=("ai", "random"))
    assert r["finished"].all() and (r["actions"] > 0).all()
    assert set(r["winner"]) <= {-1, 0, 1}


def test_a_chance_step_is_one_node_for_its_dice(tmp_path):
    """The CRT roll is a chance step (wargame/steps.h): with a 2d6 table the chance
    node comes from the step, the sum 2..12 with its probabilities, not a node per die."""
    import pathlib
    import re
    import shutil

    src = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "rulesets" / "skirmish"
    dst = tmp_path / "skirmish_2d6"
    shutil.copytree(src, dst)
    text = (dst / "ruleset.yaml").read_text()
    rows = "".join("    - [AR, AR, AR, DR, DR, DR, DR, DR, DE, DE]\n" for _ in range(11))
    text, n = re.subn(r"  die: d6\n  rows: \[1, 6\]\n  results:\n(    - \[.*\]\n){6}",
                      "  die: 2d6\n  rows: [2, 12]\n  results:\n" + rows, text)
    assert n == 1
    (dst / "ruleset.yaml").write_text(text)
    game = wargame.load_game(f"{dst}(scenario={dst / 'scenarios' / 'duel.yaml'})")
    state = game.new_initial_state(seed=1, explicit_chance=True)
    n = len(state.events())
    state.apply_action_text("{attack: [b1], target: [0503]}")
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [v for v, _ in outcomes] == list(range(2, 13))
    for v, p in outcomes:
        assert abs(p - (6 - abs(v - 7)) / 36) < 1e-12
    assert state.legal_actions() == list(range(2, 13))
    state.apply_action(9)
    assert not state.is_chance_node()
    rolls = [e.b for e in state.events(since=n) if e.type == "die_roll"]
    assert len(rolls) == 2 and sum(rolls) == 9
    assert game.max_chance_outcomes() == 13  # sums 2..12, indexed by outcome


def test_max_chance_outcomes_covers_every_die():
    """One more than the largest outcome: a d6 in the hex games, the D20 of the
    miniatures' morale tests (7.2) and dinner roll (10.3)."""
    assert wargame.load_game("stars_and_bars").max_chance_outcomes() == 7
    assert wargame.load_game("blue_and_gray").max_chance_outcomes() == 7
    assert wargame.load_game("civil_war_miniatures").max_chance_outcomes() == 21


def test_tabletop_units_give_their_position_typed():
    """On a tabletop, state.units() gives each base's centre in inches and its facing in
    degrees from the tabletop engine's query (issue 38: not parsed from display text);
    the ruleset's words say the same place. A hex game has none."""
    game = wargame.load_game("civil_war_miniatures")
    state = game.new_initial_state(seed=3)
    placed = 0
    for u in state.units():
        if not u["in_play"]:
            assert u["xy"] is None
            continue
        placed += 1
        x, y = u["xy"]
        assert u["position"] == "%.2f, %.2f in" % (x, y)
        assert -360.0 <= u["facing"] <= 360.0
    assert placed > 0
    hexes = wargame.load_game("stars_and_bars").new_initial_state(seed=1)
    assert all(u["xy"] is None and u["facing"] is None for u in hexes.units())
