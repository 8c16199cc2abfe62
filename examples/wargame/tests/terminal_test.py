#!/usr/bin/env python3
"""The human player of `wargame play` in a pseudo-terminal (examples/wargame/human.cc).

usage: terminal_test.py WARGAME_BINARY
Plays Stars and Bars from a position the computer reached (turn 1, Union combat) and a
bombardment found later, typing as a player would: help, a unit filter, odds, key, map, a
wrong number and an illegal action (the refusal stays on screen), an attack, the forced
loss applied without asking, stand or retreat in words, undo; and the result of a
bombardment printed after its die; an attack that is the only option shows its odds before its die.
"""

import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time

WARGAME = None
# Stars and Bars with the program making the players' choices of 3.0 and 5.8 (the game these
# tests were written on, before those were the players' by default: the same positions).
SB = "stars_and_bars(auto=setup+capture)"
TIMEOUT = 60.0
PROMPT = "an action, or help: "


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Terminal:
    def __init__(self, args):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([WARGAME, *args], stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.out = ""

    def read_until(self, text):
        """Everything printed up to and including the next `text`."""
        deadline = time.time() + TIMEOUT
        while text not in self.out:
            if time.time() > deadline:
                raise AssertionError(f"timed out waiting for {text!r}; last output:\n{self.out[-2000:]}")
            r, _, _ = select.select([self.master], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(self.master, 65536).decode(errors="replace")
                except OSError:  # the program ended
                    chunk = ""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"the program ended before {text!r}:\n{self.out[-2000:]}")
                self.out += chunk.replace("\r\n", "\n")
        i = self.out.index(text) + len(text)
        got, self.out = self.out[:i], self.out[i:]
        return got

    def type(self, line):
        os.write(self.master, (line + "\n").encode())
        return self.read_until(PROMPT)

    def close(self):
        os.write(self.master, b"quit\n")
        try:
            self.proc.wait(TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


def ai_save(until):
    fd, path = tempfile.mkstemp(suffix=".yaml", prefix="wargame_term_")
    os.close(fd)
    subprocess.run([WARGAME, "play", SB, "--players", "ai,ai", "--seed", "1", "--until", until,
                    "--save", path, "--quiet", "--ai-budget", "200"], check=True, stdout=subprocess.DEVNULL)
    return path


def combat_session():
    # Turn 3's Union combat phase of the seed-1 AI game: Laiboldt may attack 3010 alone.
    save = ai_save("3:combat")
    t = Terminal(["play", "--load", save, "--players", "human,human"])
    try:
        first = t.read_until(PROMPT)
        check("declare an attack" in first and "attack 3010 with" in first, "the combat options in words:\n" + first)
        out = t.type("help")
        check(all(w in out for w in ("undo", "map", "odds", "key")), "help lists the commands")
        editing = re.search(r"completion with (\w+)", subprocess.run([WARGAME, "play", "--help"], capture_output=True,
                                                                     text=True).stdout).group(1)
        # With line editing, Tab completes a unit id ("laib" -> "laiboldt"); without, the whole id is typed.
        out = t.type("laib\t" if editing != "none" else "laiboldt")
        options = re.findall(r"^\s+\d+\) (.*)$", out, re.M)
        check(options and all("Laiboldt" in o for o in options), f"the filter lists only Laiboldt's options {options}")
        out = t.type("odds laiboldt 3010")
        check(re.search(r"column: \d+-\d+", out) and "outcomes:" in out, "odds before deciding:\n" + out)
        out = t.type("key")
        check("attack-defense-movement-bombard" in out, "the key of the unit values")
        out = t.type("map")
        check("confederate" in out and "union" in out, "the map shows both sides")
        out = t.type("99")
        check(out.rstrip().endswith(PROMPT.rstrip()) and "refused: no option 99" in out, "a wrong number refused")
        out = t.type("{attack: [hawkins], target: [3010]}")
        check("refused:" in out, "an illegal attack is refused with its reason:\n" + out)
        reason = re.search(r"refused: (.*)", out).group(1)
        out = t.type("map 3010")
        out = t.type("all")
        check("refused: " + reason in out, "the refusal stays on screen until an action is accepted")
        m = re.search(r"(\d+)\) attack 3010 with Laiboldt \(35th Bde\) \((\d+) against (\d+), odds (\S+)\)\n", out)
        check(m, "each attack option with its odds:\n" + out)
        number = m.group(1)
        out = t.type(number)
        check("Die roll" in out, "the attack is resolved")
        if "the only option" in out:
            check("takes 1 disruption" in out, "the forced loss applied without asking")
            out += t.type("map 3010")
            check(re.search(r"laiboldt \(union [0-9-]+, disruption 1\)", out), "the map shows the marker:\n" + out)
        check("refused:" not in out.split("Die roll")[1], "the refusal is gone once an action was accepted")
        if "1) stand" in out:
            check("2) retreat" in out, "stand or retreat in words:\n" + out)
            out = t.type("2")
        while "movement: move units" not in out:  # advance or not, then the next phase
            out = t.type("1")
        check(re.search(r"\d+ options \(type \w+\)", out), "many options: a summary per unit")
        unit = re.search(r"\d+ options \(type (\w+)\)", out).group(1)
        out = t.type(unit)
        number = re.search(r"(\d+)\) move ", out).group(1)
        out = t.type(number)
        check("moves" in out, "the move is made")
        out = t.type("undo")
        check("undone: {move: [" + unit + "]" in out, "undo takes back the move:\n" + out)
        out = t.type("undo")
        check("nothing to undo" in out, "nothing before the phase is undone")
        t.close()
    finally:
        os.unlink(save)


def bombardment_session():
    for turn in range(2, 10):
        save = ai_save(f"{turn}:offensive_bombardment")
        t = Terminal(["play", "--load", save, "--players", "human,human"])
        try:
            out = t.read_until(PROMPT)
            m = re.search(r"(\d+)\) bombard (\d+) with", out)
            if not m:
                t.close()
                continue
            out = t.type(m.group(1))
            check(re.search(r"Die roll \(d6, bombardment\): \d\n\s+bombardment result: \S", out),
                  "the bombardment's result after its die:\n" + out)
            t.close()
            return
        finally:
            os.unlink(save)
    raise AssertionError("no bombardment was possible in turns 2-9")


def load_continues():
    """`play --load SAVE` continues the game: the new save extends the old one and replays."""
    d = tempfile.mkdtemp(prefix="wargame_load_")
    a, b = os.path.join(d, "a.yaml"), os.path.join(d, "b.yaml")
    subprocess.run([WARGAME, "play", SB, "--players", "random,random", "--until", "2", "--save", a,
                    "-q"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([WARGAME, "play", "--load", a, "--players", "random,random", "--until", "3", "--save", b, "-q"],
                   check=True, stdout=subprocess.DEVNULL)
    old, new = (open(p).read() for p in (a, b))
    old_actions = old[old.index("actions:"):old.index("hash:")].rstrip("\n")
    check(old_actions in new and len(new) > len(old), "the continued save extends the loaded one")
    r = subprocess.run([WARGAME, "replay", b], capture_output=True, text=True)
    check(r.returncode == 0, "the continued save replays: " + r.stderr)
    r = subprocess.run([WARGAME, "play", "--load", os.path.join(d, "missing.yaml")], capture_output=True, text=True)
    check(r.returncode == 1 and "cannot read" in r.stderr, "a missing save is an error")
    for p in (a, b):
        os.unlink(p)
    os.rmdir(d)


def forced_attack_odds():
    """An attack that is the only option (7.1 obligations) prints its odds and results before its die.
    Option 1 at every prompt of seed 1 reaches one in turn 1 (standard input is not a terminal here)."""
    r = subprocess.run([WARGAME, "play", SB, "--players", "human,human", "--seed", "1", "--max-actions", "80"],
                       input="1\n" * 400, capture_output=True, text=True, timeout=TIMEOUT)
    m = re.search(r"the only option, attack [^\n]*\n(.*?)Die roll", r.stdout, re.S)
    check(m, "a forced attack was reached:\n" + r.stdout[-2000:])
    check(re.search(r"column: \d+-\d+", m.group(1)) and "outcomes:" in m.group(1) and "%" in m.group(1),
          "its odds and results before its die:\n" + m.group(0))


def main():
    global WARGAME
    WARGAME = sys.argv[1]
    forced_attack_odds()
    load_continues()
    combat_session()
    bombardment_session()
    print("ok: terminal")


if __name__ == "__main__":
    main()
