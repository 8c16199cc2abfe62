"""libwargame for Python: hex-and-counter and tabletop wargames by their printed rules.

The API follows OpenSpiel's (docs/python.md)::

    import wargame
    game = wargame.load_game("stars_and_bars(optional=12.1)")
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

``wargame.env.WargameEnv`` is a PettingZoo-AEC-style environment and
``wargame.simulate`` plays many games on threads, returning numpy arrays.
"""
import os as _os

from ._wargame import (  # noqa: F401
    AiPlayer,
    CHANCE_PLAYER,
    INVALID_ACTION,
    TERMINAL_PLAYER,
    Event,
    Game,
    State,
    add_ruleset_search_path,
    find_ruleset_folder,
    load_game,
    registered_games,
    ruleset_search_path,
)

# Installed as <prefix>/lib/pythonX.Y/<site>/wargame: the rulesets' data is in
# <prefix>/share/wargame/rulesets.
_installed = _os.path.normpath(
    _os.path.join(_os.path.dirname(__file__), "..", "..", "..", "..", "share", "wargame", "rulesets"))
if _os.path.isdir(_installed):
    add_ruleset_search_path(_installed)


def simulate(game, games, seed=1, threads=0, players=("random", "random"), max_actions=50000):
    """Plays ``games`` games on ``threads`` threads (0: all cores) without the GIL.

    ``game`` is a Game or a spec string; game i uses seed + i. Players are
    "random" or "ai". Returns a dict of numpy arrays, one row per game:
    winner (int8, -1 draw/unfinished), finished (bool), actions (int32),
    turns (int32), vp (int32, games x 2), state_hash (uint64).
    """
    if isinstance(game, str):
        game = load_game(game)
    return game.simulate(games, seed=seed, threads=threads, players=list(players), max_actions=max_actions)


from . import env  # noqa: E402,F401
