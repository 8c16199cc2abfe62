"""The scripts of examples/python run and say what they should."""
import os
import re
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.environ.get("WG_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                        "examples", "python")


def run(script, *args):
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_random_vs_ai():
    out = run("random_vs_ai.py", "civil_war_miniatures", "--seed", "2")
    assert re.search(r"result: .+ after \d+ actions; returns \[", out)


@pytest.mark.skipif(not os.environ.get("WARGAME_BIN"), reason="needs the wargame program (WARGAME_BIN)")
def test_monte_carlo_attack_agrees_with_wargame_odds():
    out = run("monte_carlo_attack.py", "--trials", "600", "--wargame", os.environ["WARGAME_BIN"])
    assert "column: 2-1" in out
    assert "agrees with wargame odds" in out


def test_numpy_learner():
    out = run("numpy_learner.py", "--games", "12")
    assert re.search(r"12 games, learner wins \d+% of the first 3, \d+% of the last 3", out)
    assert re.search(r"weights: [1-9]\d* actions updated", out)


def test_overhead():
    out = run("overhead.py", "civil_war_miniatures", "--games", "2")
    assert re.search(r"Python overhead: -?[0-9.]+ us per step", out)
