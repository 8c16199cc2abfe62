#!/usr/bin/env python3
"""A club game in headless Chromium, from the lobby to the end screen (examples/wargame/web/index.html).

usage: club_web_test.py WARGAME_BINARY OUTPUT_FOLDER
  `wargame serve --club` on a temporary SQLite file. The club key's page (the lobby) shows why a
  creation is refused (fair dice against the computer), then creates a
  Stars and Bars game, Union human (the creator's link) against Confederate remote (a link to
  send), and lists it with whose turn it is. Each seat's invitation link opens the game in its
  own tab: only the side to move says "Your turn" in its title; a stack spreads; a unit that
  may not be chosen says why, with its rule. The Confederate plays a move in its page, and the
  Union, opening its link again, is offered the replay of what was played since its last visit.
  The game is then played to its end through the two links (the HTTP API, each decision its
  first option, ending a phase when it may), and the Union page shows the end screen (winner,
  victory points, losses), whose link opens the replay: step, jump to a turn, play.
  Screenshots: club-lobby.png, club-game.png, club-replay.png, club-end.png in OUTPUT_FOLDER
  (docs/images holds those of the README). Exits 77 (skipped) when Chromium is not installed.
Every wait is for a condition (never for a time); the whole case takes about 20 to 40 s.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webdrive  # noqa: E402

WARGAME = None
MAX_ACTIONS = 3000  # a Stars and Bars game played so takes a few hundred


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Club:
    """`wargame serve --club FILE --port 0`: its base address and its key."""

    def __init__(self, path):
        self.proc = subprocess.Popen([WARGAME, "serve", "--club", path, "--port", "0", "--ai-delay", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.base = self.key = None
        deadline = time.time() + webdrive.TIMEOUT
        while time.time() < deadline and not self.key:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("wargame serve --club ended: " + self.proc.stderr.read())
            m = re.match(r"serving on (http://[0-9.]+:\d+)/", line)
            if m:
                self.base = m.group(1)
            m = re.match(r"club key.*: ([0-9a-f]+)$", line.strip())
            if m:
                self.key = m.group(1)
        check(self.base and self.key, "the club printed its address and key")

    def http(self, path, body=None):
        req = urllib.request.Request(self.base + path, data=body.encode() if body is not None else None,
                                     method="POST" if body is not None else "GET")
        try:
            with urllib.request.urlopen(req, timeout=webdrive.TIMEOUT) as r:
                return r.status, json.loads(r.read().decode())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read().decode() or "{}")

    def state(self, token):
        status, j = self.http("/api/state?token=" + token)
        check(status == 200, f"the state ({status} {j})")
        return j

    def act(self, token, text):
        status, j = self.http("/api?token=" + token, json.dumps({"t": "act", "action": text}))
        check(status == 200 and j.get("t") == "ok", f"{text}: {j}")

    def close(self):
        webdrive.stop(self.proc)
        self.proc.stdout.close()
        self.proc.stderr.close()


def shot(page, path):
    """A screenshot of the tab, brought to the front first (a background tab is not painted)."""
    page.call("Page.bringToFront")
    page.screenshot(path)


def leave(page):
    """Closes the tab's page (about:blank: it stops receiving the game) and its DevTools connection."""
    page.call("Page.navigate", url="about:blank")
    page.close()


MOVES_PER_PHASE = 3
_moves = {}


def first_choice(st):
    """The option this test takes: in a movement phase, up to MOVES_PER_PHASE moves (each the longest
    listed, the first of equals), then ending the phase; elsewhere ending the phase when the rules allow
    it, else the first option listed."""
    key = (st["turn"], st["phase"], st["decision"]["side"])
    moves = [a for a in st["legal"] if a["type"] == "move"]
    if st["decision"]["kind"] == "movement" and moves and _moves.get(key, 0) < MOVES_PER_PHASE:
        _moves[key] = _moves.get(key, 0) + 1
        return max(moves, key=lambda a: a.get("cost", 0))["text"]
    for a in st["legal"]:
        if a["text"] == "end":
            return "end"
    return st["legal"][0]["text"]


def main():
    global WARGAME
    WARGAME, out = sys.argv[1], sys.argv[2]
    chromium = webdrive.find_chromium()
    if not chromium:
        print("SKIP: chromium is not installed (Debian: apt-get install chromium; `make test` installs it)")
        sys.exit(webdrive.SKIP)
    os.makedirs(out, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="wargame_clubweb_")
    club = Club(os.path.join(folder, "club.sqlite"))
    browser = webdrive.Browser(chromium)
    try:
        # The lobby: the club key's page creates a game and lists it.
        lobby = browser.page(f"{club.base}/?token={club.key}")
        lobby.wait("wg.lobby && document.getElementById('lgame').options.length > 0", "the lobby's form")
        # A creation the club refuses says why in the form (fair dice need two links, not the computer).
        lobby.js("document.getElementById('lplayer1').value = 'ai';"
                 "document.querySelector('input[name=ldice][value=fair]').checked = true; true")
        lobby.click("#lcreate")
        refused = lobby.wait("document.getElementById('lerror').textContent", "the refusal in the form")
        check("fair dice" in refused and not lobby.js("wg.created || null"), "a refused creation: " + refused)
        lobby.js("document.querySelector('input[name=ldice][value=seeded]').checked = true; true")
        lobby.js("document.getElementById('lgame').value = 'stars_and_bars';"
                 "document.getElementById('lgame').onchange();"
                 "document.querySelector('#loptional input[value=\"12.1\"]').checked = true;"
                 "document.getElementById('lseed').value = '7'; true")
        lobby.click("#lcreate")
        created = lobby.wait("wg.created && document.querySelector('#lgames tr.new') && wg.created", "the game created")
        check(len(created["seats"]) == 2, "one link per seat (human and remote)")
        row = lobby.wait("document.querySelector('#lgames tr.new') && "
                         "document.querySelector('#lgames tr.new').textContent", "the new game listed")
        check("Union" in row and "movement" in row, "the games list says whose turn it is: " + row)
        shot(lobby, os.path.join(out, "club-lobby.png"))
        leave(lobby)
        union_token, confed_token = created["seats"][0]["token"], created["seats"][1]["token"]
        check(created["seats"][0]["sides"] == ["union"] and created["seats"][1]["sides"] == ["confederate"],
              "the seats' sides")

        # The invitation links, each in its tab.
        union = browser.page(club.base + created["seats"][0]["url"])
        confed = browser.page(club.base + created["seats"][1]["url"])
        for p in (union, confed):
            p.wait("wg.state && wg.state.decision", "a seat's page shows the game")
        check(union.wait("document.title.startsWith('Your turn')", "Your turn in the Union's tab"), "your turn")
        check(not confed.js("document.title.startsWith('Your turn')"), "not the Confederate's turn")
        # The Union's set-up and first movement, to a position with a stack that may not move.
        for _ in range(60):
            st = club.state(union_token)
            if st["decision"]["side"] == "union" and st["decision"]["kind"] == "movement":
                break
            token = union_token if st["decision"]["side"] == "union" else confed_token
            club.act(token, first_choice(club.state(token)))
        # A stack spreads: the first hex holding two or more of the Union's units.
        n = club.state(union_token)["actions"]
        union.wait(f"wg.state.actions === {n}", "the Union page is up to date")
        hex_ = union.js("(() => { const c = {}; for (const u of wg.state.units) if (u.hex && u.side === 'union')"
                        " c[u.hex] = (c[u.hex] || 0) + 1; return Object.keys(c).find(h => c[h] > 1); })()")
        check(hex_, "a Union stack")
        union.js(f"wg.showSpread({json.dumps(hex_)}); true")
        check(union.wait("!document.getElementById('spread').hidden && "
                         "document.querySelectorAll('#spread .counter').length") >= 2, "the stack spread")
        # A unit that may not be chosen says why (here one not yet released, 5.6).
        st = club.state(union_token)
        named = {x for a in st["legal"] for x in a["units"]}
        stuck = [u["id"] for u in st["units"] if u["side"] == "union" and u["hex"] and u["id"] not in named]
        check(stuck, "a Union unit that may not move")
        where = {u["id"]: u["hex"] for u in st["units"]}
        stacked = [x for x in stuck if sum(1 for h in where.values() if h == where[x]) > 1]
        stuck = (stacked or stuck)[-1]  # one in a stack, for the screenshot
        union.js(f"wg.clickUnit({json.dumps(stuck)}); true")
        why = union.wait("document.getElementById('refusal').className === 'on' && "
                         "document.getElementById('refusal').textContent", "why the unit may not be chosen")
        check("may not be chosen" in why and "rule 5." in why, "the reason with its rule: " + why)
        union.js(f"wg.showSpread({json.dumps(where[stuck])}); true")
        shot(union, os.path.join(out, "club-game.png"))

        # The Union ends its turn (its page sees it all); the Confederate plays, and the Union page
        # (opened again) offers the replay of what was played since.
        for _ in range(200):
            st = club.state(union_token)
            if st["phasing_side"] != "union":
                break
            club.act(union_token, first_choice(st))
        n = club.state(confed_token)["actions"]
        union.wait(f"wg.state.actions === {n}", "the Union page saw its whole turn")
        leave(union)
        check(confed.wait("document.title.startsWith('Your turn')", "Your turn in the Confederate's tab"), "its turn")
        for _ in range(3):
            st = club.state(confed_token)
            token = union_token if st["decision"]["side"] == "union" else confed_token
            club.act(token, first_choice(club.state(token)))
        union = browser.page(club.base + created["seats"][0]["url"])
        union.wait("wg.state && !!document.getElementById('catchup')", "the catch-up offer")
        union.click("#catchupgo")
        r = union.wait("wg.replay && wg.replay.n", "the replay from the last visit")
        check(r == n, f"the replay starts at the last visit ({r}, {n})")
        union.click("#rnext")
        union.wait(f"wg.replay.n === {n + 1}", "one step on")
        union.click("#rexit")
        union.wait("!wg.replay", "back to the game")
        leave(union)
        leave(confed)

        # The rest of the game through the two links.
        global MOVES_PER_PHASE
        MOVES_PER_PHASE = 1  # a shorter game (the test's time)
        token = union_token
        for _ in range(MAX_ACTIONS):
            st = club.state(token)
            if st["result"]:
                break
            if not st["legal"]:  # the other seat decides
                token = confed_token if token == union_token else union_token
                continue
            club.act(token, first_choice(st))
        st = club.state(union_token)
        check(st["result"], "the game ended")
        status, games = club.http("/club/games?token=" + club.key)
        check(games["games"][0]["over"], "the games list says it is over")

        # The end screen, and its link to the replay.
        union = browser.page(club.base + created["seats"][0]["url"])
        end = union.wait("!document.getElementById('endscreen').hidden && "
                         "document.getElementById('endscreen').textContent", "the end screen")
        check("Game over" in end and "victory points" in end and "units eliminated" in end, "the end screen: " + end)
        check(union.js("document.title.startsWith('Game over')"), "the tab says the game is over")
        check(union.js("document.getElementById('turn').textContent.startsWith('Game over')"),
              "the header says game over, not the last phase")
        shot(union, os.path.join(out, "club-end.png"))
        union.click("#replaylink")
        union.wait("wg.replay && wg.replay.n === 0", "the replay from the start")
        turns = union.js("wg.replay.turn_starts.length")
        check(turns >= 10, f"jump to any turn ({turns})")
        at = union.js("wg.replay.turn_starts.find(t => t.turn === 5).at")
        union.js(f"document.getElementById('rturn').value = '{at}'; document.getElementById('rturn').onchange(); true")
        union.wait(f"wg.replay.n === {at} && wg.replay.turn === 5", "turn 5")
        union.click("#rnext")
        union.wait(f"wg.replay.n === {at + 1}", "a step")
        union.click("#rplay")
        union.wait(f"wg.replay.n >= {at + 3}", "playing")
        union.click("#rplay")
        union.wait("!wg.replayPlaying", "paused")
        # On to the first attack, with the slider (its index from the save the human seat exports).
        status, save = club.http("/api?token=" + union_token, json.dumps({"t": "export"}))
        actions = save["save"].split("actions:\n", 1)[1].splitlines()
        first = next(i for i, a in enumerate(actions) if a.strip().startswith("- {attack"))
        union.js(f"document.getElementById('rslider').value = '{first + 1}'; document.getElementById('rslider').onchange(); true")
        union.wait(f"wg.replay.n === {first + 1} && wg.replay.action.startsWith('{{attack') && !wg.replayPlaying",
                   "the first attack")
        stack = union.js("(() => { const c = {}; for (const u of wg.replay.units) if (u.hex) c[u.hex] = (c[u.hex] || 0) + 1;"
                         " return Object.keys(c).find(h => c[h] > 1); })()")
        if stack:
            union.js(f"wg.showSpread({json.dumps(stack)}); true")
        shot(union, os.path.join(out, "club-replay.png"))
        leave(union)
    finally:
        browser.close()
        club.close()
    print("ok: a club game from the lobby to the end screen and its replay")


if __name__ == "__main__":
    main()
