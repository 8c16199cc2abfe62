"""The PettingZoo-AEC-style environment, checked against PettingZoo's API
conventions (pettingzoo.test.api_test is not installable here)."""
import numpy as np
import pytest

import wargame
from wargame.env import Box, Discrete, WargameEnv
from conftest import SPECS


@pytest.mark.parametrize("spec", SPECS)
def test_aec_loop_plays_a_full_game(spec):
    env = WargameEnv(spec)
    assert env.possible_agents == env.game.sides
    env.reset(seed=3)
    assert env.agents == env.possible_agents
    n = env.game.num_distinct_actions()
    for agent in env.agents:
        assert isinstance(env.action_space(agent), Discrete) and env.action_space(agent).n == n
        space = env.observation_space(agent)
        assert isinstance(space["observation"], Box)
        assert space["observation"].shape == tuple(env.game.observation_tensor_shape())
        assert space["action_mask"].shape == (n,)
    rng = np.random.default_rng(3)
    steps, final = 0, {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        assert env.observation_space(agent).contains(obs)
        assert isinstance(info, dict)
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.uint8 and mask.any()
        assert list(np.flatnonzero(mask != 0)) == env.state.legal_actions()
        # Only the agent to act has actions.
        other = next(a for a in env.possible_agents if a != agent)
        assert not env.observe(other)["action_mask"].any()
        action = env.action_space(agent).sample(mask)
        assert mask[action] == 1
        env.step(action)
        steps += 1
    assert env.agents == []
    assert env.state.is_terminal() and steps == env.state.move_number()
    returns = env.state.returns()
    assert [final[a] for a in env.possible_agents] == returns


def test_truncation_and_errors():
    env = WargameEnv("civil_war_miniatures", max_actions=5)
    env.reset(seed=1)
    for agent in env.agent_iter(max_iter=100):
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination
            with pytest.raises(ValueError):
                env.step(0)
            env.step(None)
        else:
            env.step(env.action_space(agent).sample(obs["action_mask"]))
    assert env.agents == [] and env.num_moves == 5
    env.reset(seed=2)
    with pytest.raises(ValueError):
        env.step(env.game.num_distinct_actions() - 1)  # concede is not listed
    assert "turn" in env.render()


def test_reset_is_reproducible():
    a, b = WargameEnv("civil_war_miniatures"), WargameEnv("civil_war_miniatures")
    for env in (a, b):
        env.reset(seed=7)
        for _ in range(20):
            if not env.agents or env.terminations[env.agent_selection]:
                break
            obs = env.observe(env.agent_selection)
            env.step(int(np.flatnonzero(obs["action_mask"] != 0)[0]))
    assert a.state.serialize() == b.state.serialize()
    assert np.array_equal(a.observe(a.possible_agents[0])["observation"],
                          b.observe(b.possible_agents[0])["observation"])


def test_pettingzoo_api_test_when_installed():
    api_test = pytest.importorskip("pettingzoo.test").api_test
    api_test(WargameEnv("civil_war_miniatures"), num_cycles=50)
