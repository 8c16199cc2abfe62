"""The outcome of one attack by Monte Carlo, checked against `wargame odds`.

    PYTHONPATH=build/python python3 examples/python/monte_carlo_attack.py [--trials N] [--wargame PATH]

A Blue & Gray (Chattanooga) position: two Union divisions (1814, 1913) attack
Smith's Confederates in 1914. The attack is played N times from the same
position with different dice seeds, the combat result of each is read from
the event log, and the frequencies are compared with the exact distribution
that `wargame odds` prints: each must lie within 4 standard errors.
Exit code 0 if they agree, 1 if not.
"""
import argparse
import collections
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import wargame

ATTACK = "{attack: [u_1_2_xv, u_2_2_xv], target: ['1914']}"
POSITION = """extends: {scenario}
only_placed: true
start: {{turn: 1, side: union, phase: combat}}
place: [{{unit: u_1_2_xv, hex: '1814'}}, {{unit: u_2_2_xv, hex: '1913'}}, {{unit: c_smith, hex: '1914'}}]
"""


def find_wargame(given):
    for candidate in [given, os.environ.get("WARGAME_BIN"), shutil.which("wargame"),
                      os.path.join(os.path.dirname(__file__), "..", "..", "build", "examples", "wargame", "wargame")]:
        if candidate and os.path.exists(candidate):
            return candidate
    sys.exit("the wargame program was not found: pass --wargame PATH")


def exact_odds(wargame_bin, scenario):
    out = subprocess.run([wargame_bin, "odds", "blue_and_gray", "--scenario", scenario,
                          "--attack", "u_1_2_xv,u_2_2_xv", "--defend", "c_smith"],
                         check=True, capture_output=True, text=True).stdout
    print(out.rstrip())
    return {m.group(1): float(m.group(2)) / 100 for m in re.finditer(r"^\s+(\S+)\s+([0-9.]+)%", out, re.M)}


def monte_carlo(scenario, trials):
    game = wargame.load_game(f"blue_and_gray(scenario={scenario})")
    counts = collections.Counter()
    for seed in range(trials):
        state = game.new_initial_state(seed)
        n = len(state.events())
        state.apply_action(state.string_to_action(ATTACK))
        counts[next(e.text for e in state.events(since=n) if e.type == "combat_result")] += 1
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3000)
    parser.add_argument("--wargame", default=None, help="path of the wargame program")
    args = parser.parse_args()
    chattanooga = os.path.join(wargame.find_ruleset_folder("blue_and_gray"), "scenarios", "chattanooga",
                               "scenario.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = os.path.join(tmp, "attack.yaml")
        with open(scenario, "w") as f:
            f.write(POSITION.format(scenario=chattanooga))
        exact = exact_odds(find_wargame(args.wargame), scenario)
        counts = monte_carlo(scenario, args.trials)
    ok = set(counts) <= set(exact)
    print(f"Monte Carlo, {args.trials} attacks:")
    for result, p in sorted(exact.items(), key=lambda kv: -kv[1]):
        q = counts[result] / args.trials
        se = math.sqrt(p * (1 - p) / args.trials) or 1e-9
        agree = abs(q - p) <= 4 * se
        ok = ok and agree
        print(f"  {result:4} {q:7.2%}  (exact {p:.2%}, {abs(q - p) / se:.1f} standard errors)")
    print("agrees with wargame odds" if ok else "DOES NOT agree with wargame odds")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
