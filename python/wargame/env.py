"""A multi-agent environment following PettingZoo's AEC conventions.

PettingZoo is not needed: the class has the same attributes and methods
(``possible_agents``, ``agents``, ``agent_selection``, ``rewards``,
``terminations``, ``truncations``, ``infos``, ``reset``, ``step``,
``observe``, ``last``, ``agent_iter``, ``action_space``,
``observation_space``), and every observation is a dict with the
``observation`` tensor and the ``action_mask`` over the game's action ids.
With PettingZoo installed, ``pettingzoo.test.api_test(WargameEnv(...))``
applies; without it, tests/test_env.py checks the same conventions.

Dice are rolled inside the engine (no chance agent). Rewards are given at the
end: +1 to the winner, -1 to the loser, 0 on a draw.
"""
import numpy as np

from . import _wargame


class Discrete:
    """Like gymnasium.spaces.Discrete: integers 0..n-1."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.int64
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def sample(self, mask=None):
        if mask is None:
            return int(self._rng.integers(self.n))
        ids = np.flatnonzero(np.asarray(mask) != 0)  # (faster than on the uint8 array)
        return int(self._rng.choice(ids)) if len(ids) else 0

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= x < self.n

    def __repr__(self):
        return f"Discrete({self.n})"


class Box:
    """Like gymnasium.spaces.Box: a float32 array of a fixed shape."""

    def __init__(self, low, high, shape, dtype=np.float32):
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), dtype

    def contains(self, x):
        return isinstance(x, np.ndarray) and x.shape == self.shape

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape}, {np.dtype(self.dtype).name})"


class Dict(dict):
    """Like gymnasium.spaces.Dict."""

    def contains(self, x):
        return isinstance(x, dict) and all(k in x and s.contains(x[k]) for k, s in self.items())


class WargameEnv:
    """AEC environment for one game spec: agents are the game's sides."""

    metadata = {"name": "wargame_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, spec="stars_and_bars", render_mode=None, max_actions=None):
        self.game = spec if isinstance(spec, _wargame.Game) else _wargame.load_game(spec)
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.possible_agents = list(self.game.sides)
        n = self.game.num_distinct_actions()
        shape = self.game.observation_tensor_shape()
        self._action_spaces = {a: Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: Dict(observation=Box(-np.inf, np.inf, shape), action_mask=Box(0, 1, (n,), np.uint8))
            for a in self.possible_agents
        }
        self.state = None
        self.agents = []

    def action_space(self, agent):
        return self._action_spaces[agent]

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def reset(self, seed=None, options=None):
        self.state = self.game.new_initial_state(0 if seed is None else int(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.num_moves = 0
        self._select()

    def _select(self):
        p = self.state.current_player()
        if p >= 0:
            self.agent_selection = self.possible_agents[p]

    def observe(self, agent):
        p = self.possible_agents.index(agent)
        mask = self.state.legal_actions_mask()
        if self.state.current_player() != p:
            mask[:] = 0
        return {"observation": self.state.observation_tensor(p), "action_mask": mask}

    def last(self, observe=True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # PettingZoo: a done agent steps with None and is removed.
            if action is not None:
                raise ValueError("the agent is done: step(None)")
            self._remove(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self.num_moves += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_terminal():
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = returns[self.possible_agents.index(a)]
                self.terminations[a] = True
        elif self.max_actions is not None and self.num_moves >= self.max_actions:
            for a in self.agents:
                self.truncations[a] = True
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        if not self.state.is_terminal():
            self._select()

    def _remove(self, agent):
        self.agents.remove(agent)
        del self.rewards[agent], self._cumulative_rewards[agent]
        del self.terminations[agent], self.truncations[agent], self.infos[agent]
        if self.agents:
            self.agent_selection = self.agents[0]

    def agent_iter(self, max_iter=2**63):
        """Yields the agent to act until every agent is done (PettingZoo's AECIterable)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self):
        return str(self.state)

    def close(self):
        pass
