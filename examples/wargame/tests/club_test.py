#!/usr/bin/env python3
"""`wargame serve --club` over HTTP on 127.0.0.1, its SQLite file in a temporary folder.

usage: club_test.py WARGAME_BINARY CASE [sqlite|postgresql]
  The store is a temporary SQLite file, or (postgresql) a throwaway PostgreSQL server that the
  test starts with Debian's initdb and pg_ctl in a temporary folder (as the current user; as root,
  as the `postgres` or `nobody` user through runuser; skipped, exit 77, without PostgreSQL 15).
  crash   two games at once, each played from its two seat links by its own thread; the
          server is killed with SIGKILL mid-game, restarted on the same file, and both
          games hold every acknowledged action (action count and state hash as the
          games list said after each acknowledgement) and go on from the same links.
  links   one game's seat link never acts for the other seat, the spectator never acts,
          no link reaches another game; the club key creates and lists but plays no game;
          a revoked link is refused; bad input (unknown link, bad creation, huge body,
          unknown path) gets a clear error and changes nothing.
Each case takes a few seconds; standard library only.
"""

import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

TIMEOUT = 10
WARGAME = None


def check(cond, what):
    if not cond:
        raise AssertionError(what)


PG_BIN = "/usr/lib/postgresql/15/bin"
SKIP = 77


class Postgres:
    """A throwaway PostgreSQL server in `folder` (a Unix socket there, no TCP port) until stop()."""

    def __init__(self, folder):
        if not os.path.exists(os.path.join(PG_BIN, "initdb")):
            print(f"skipped: no PostgreSQL in {PG_BIN} (apt-get install postgresql)")
            sys.exit(SKIP)
        # PostgreSQL refuses to run as root: as root (CI, make test), its server runs as Debian's
        # `postgres` user (or `nobody`) through runuser, in a folder handed to that user.
        self.as_user = []
        if os.geteuid() == 0:
            user = next((u for u in ("postgres", "nobody") if _user_exists(u)), None)
            if user is None or not shutil.which("runuser"):
                print("skipped: running as root with no `postgres` or `nobody` user and runuser to run PostgreSQL")
                sys.exit(SKIP)
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
            self.as_user = ["runuser", "-u", user, "--"]
        self.data, self.folder = os.path.join(folder, "pgdata"), folder
        subprocess.run(self.as_user + [os.path.join(PG_BIN, "initdb"), "-D", self.data, "-A", "trust", "-U",
                                       "wargame", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
        subprocess.run(self.as_user + [os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-w", "-l",
                                       os.path.join(folder, "pg.log"), "-o",
                                       f"-k {folder} -c listen_addresses='' -p 5432", "start"],
                       check=True, stdout=subprocess.DEVNULL, cwd=folder)
        self.uri = f"postgresql:///postgres?host={folder}&port=5432&user=wargame"

    def stop(self):
        subprocess.run(self.as_user + [os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.folder)


def _user_exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


class Store:
    """Where the club keeps its games: `where` for --club."""

    def __init__(self, kind, folder):
        self.pg = Postgres(folder) if kind == "postgresql" else None
        self.where = self.pg.uri if self.pg else os.path.join(folder, "club.sqlite")

    def __enter__(self):
        return self.where

    def __exit__(self, *exc):
        if self.pg:
            self.pg.stop()


STORE = "sqlite"


class Club:
    """`wargame serve --club DB --port 0` until kill()/stop()."""

    def __init__(self, db):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([WARGAME, "serve", "--club", db, "--port", "0", "--ai-delay", "0",
                                      "--ai-budget", "50"], stdout=subprocess.PIPE, stderr=self.err, text=True)
        self.base = self.key = None
        deadline = time.time() + TIMEOUT
        while time.time() < deadline and not self.key:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("wargame serve --club ended: " + self.log())
            m = re.match(r"serving on (http://[0-9.]+:\d+)/", line)
            if m:
                self.base = m.group(1)
            m = re.match(r"club key .*: ([0-9a-f]{32})$", line.strip())
            if m:
                self.key = m.group(1)
        check(self.base and self.key, "the club printed its address and key")

    def log(self):
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def http(self, path, body=None, method=None):
        """(status, parsed JSON or text); never raises on an HTTP error status."""
        data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
        req = urllib.request.Request(self.base + path, data=data, method=method)
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def status_of_head(self, head):
        """The status of the answer to a request's head alone (a body it declares is never
        sent: the server answers at once, and a client still sending would race its close)."""
        host, port = self.base.split("//")[1].split(":")
        with socket.create_connection((host, int(port.rstrip("/"))), timeout=TIMEOUT) as s:
            s.sendall(head)
            answer = b""
            while b"\r\n" not in answer:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        return int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1 ") else 0

    def create(self, spec):
        status, j = self.http("/club/games?token=" + self.key, spec)
        check(status == 200 and j["t"] == "created", f"created: {status} {j}")
        return j

    def games(self):
        status, j = self.http("/club/games?token=" + self.key)
        check(status == 200, f"the games list: {status} {j}")
        return {g["id"]: g for g in j["games"]}

    def state(self, token):
        status, j = self.http("/api/state?token=" + token)
        check(status == 200, f"state: {status} {j}")
        return j

    def act(self, token, action):
        return self.http("/api?token=" + token, {"t": "act", "action": action})

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc.stdout.close()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()


TWO_REMOTE = {"game": "stars_and_bars", "players": ["remote", "remote"], "dice": "seeded", "seed": 11}


def next_action(club, seats, step):
    """(token, action) for the side to move: a move, or every third step the first other action."""
    for token in seats:
        legal = club.state(token)["legal"]
        if legal:
            moves = [a for a in legal if a["type"] == "move"]
            others = [a for a in legal if a["type"] != "move"]
            pick = moves if moves and (step % 3 != 2 or not others) else (others or moves)
            return token, pick[0]["text"]
    return None, None


class Player(threading.Thread):
    """Plays one game from its two seat links until stopped; counts what was acknowledged."""

    def __init__(self, club, game):
        super().__init__(daemon=True)
        self.club, self.id = club, game["id"]
        self.seats = [s["token"] for s in game["seats"]]
        self.acked = 0
        self.hashes = {}  # action count -> state hash, from the games list after an acknowledgement
        self.by_seat = set()
        self.stop = threading.Event()
        self.error = None

    def run(self):
        step = 0
        try:
            while not self.stop.is_set():
                token, action = next_action(self.club, self.seats, step)
                if token is None:
                    return
                status, answer = self.club.act(token, action)
                if status == 200 and answer.get("t") == "ok":
                    self.acked += 1
                    self.by_seat.add(token)
                    g = self.club.games()[self.id]
                    self.hashes[g["actions"]] = g["hash"]
                step += 1
        except Exception as e:  # the server was killed: the connection fails
            self.error = e


def case_crash():
    with tempfile.TemporaryDirectory() as tmp, Store(STORE, tmp) as db:
        club = Club(db)
        t0 = time.time()
        games = [club.create(TWO_REMOTE), club.create(dict(TWO_REMOTE, seed=12))]
        ai_game = club.create({"game": "stars_and_bars", "players": ["ai", "remote"]})  # the computer moves first
        players = [Player(club, g) for g in games]
        for p in players:
            p.start()
        # Mid-game: once each game has a few acknowledged actions, from both of its seats.
        deadline = time.time() + 8
        while time.time() < deadline and not all(p.acked >= 6 and len(p.by_seat) == 2 for p in players):
            time.sleep(0.02)
        check(all(p.acked >= 6 and len(p.by_seat) == 2 for p in players),
              f"both games were played from both seats: {[(p.acked, len(p.by_seat), p.error) for p in players]}")
        club.kill()  # SIGKILL while both threads are sending
        killed_at = time.time()
        for p in players:
            p.stop.set()
            p.join(TIMEOUT)
        acked = [p.acked for p in players]
        print(f"killed after {killed_at - t0:.2f} s with {acked} acknowledged actions")

        club = Club(db)
        try:
            listed = club.games()
            check(len(listed) == 3, f"the three games are back: {len(listed)}")
            for p in players:
                g = listed[p.id]
                # Every acknowledged action is there; at most the one in flight more (committed, not answered).
                check(p.acked <= g["actions"] <= p.acked + 1,
                      f"game {p.id[:8]}: {g['actions']} actions after the restart, {p.acked} acknowledged")
                if g["actions"] in p.hashes:
                    check(g["hash"] == p.hashes[g["actions"]], f"game {p.id[:8]}: the same position (state hash)")
                # It goes on, from the same links.
                for step in range(3):
                    token, action = next_action(club, p.seats, step)
                    status, answer = club.act(token, action)
                    check(status == 200 and answer["t"] == "ok", f"the game goes on: {answer}")
                check(club.games()[p.id]["actions"] == g["actions"] + 3, "three more actions")
            check(listed[ai_game["id"]]["actions"] >= 1, "the computer's actions were kept too")
            print(f"restarted ({STORE}): {[listed[p.id]['actions'] for p in players]} actions kept; "
                  f"whole case {time.time() - t0:.2f} s")
        finally:
            club.stop()
    print("ok: crash")


def case_links():
    with tempfile.TemporaryDirectory() as tmp, Store(STORE, tmp) as db:
        club = Club(db)
        try:
            a, b = club.create(TWO_REMOTE), club.create(TWO_REMOTE)
            a_union, a_confed = (s["token"] for s in a["seats"])
            b_union = b["seats"][0]["token"]
            spect, creator = a["spectator"]["token"], a["creator"]["token"]
            listed = club.games()
            check(listed[a["id"]]["to_move"] == "Union", "the games list says whose turn it is")
            _, move = next_action(club, [a_union], 0)
            before = {g: listed[g]["actions"] for g in listed}
            # Not the other seat's, nor the spectator's, the creator's, the club key's, or a made-up link.
            for token in (a_confed, spect, creator):
                status, answer = club.act(token, move)
                check(status == 200 and answer["t"] == "refused", f"refused: {answer}")
            for token in (club.key, "0" * 32, a_union[:-1], ""):
                status, answer = club.act(token, move)
                check(status == 403, f"403 for a token that is no game's seat: {status} {answer}")
            status, _ = club.http("/api/state?token=" + club.key)
            check(status == 403, "the club key reads no game")
            status, answer = club.http("/api?token=" + spect, {"t": "export"})
            check(answer["t"] == "refused", "the spectator cannot export (the seed)")
            check("seed" not in club.state(spect), "the spectator's state has no seed")
            check(club.games() == listed or all(club.games()[g]["actions"] == before[g] for g in before),
                  "nothing changed")
            # The seat's link acts in its own game only.
            status, answer = club.act(a_union, move)
            check(answer["t"] == "ok", f"the Union acts: {answer}")
            after = club.games()
            check(after[a["id"]]["actions"] == 1 and after[b["id"]]["actions"] == 0, "in its own game only")
            # Only the creator's link revokes, and only its game's links.
            for token in (a_union, spect, club.key):
                status, _ = club.http("/club/revoke?token=" + token, {"link": a_confed})
                check(status == 403, f"only the creator revokes: {status}")
            status, answer = club.http("/club/revoke?token=" + creator, {"link": b_union})
            check(status == 404, f"another game's link: {status} {answer}")
            status, answer = club.http("/club/revoke?token=" + creator, {"link": a_confed, "replace": True})
            check(status == 200 and answer["t"] == "revoked", f"revoked: {answer}")
            status, _ = club.http("/api/state?token=" + a_confed)
            check(status == 403, "the revoked link is refused")
            check(club.state(answer["link"]["token"])["you"] == ["confederate"], "the new link plays the seat")
            # The creator may replace its own link: the answer (the new link) still arrives.
            status, answer = club.http("/club/revoke?token=" + creator, {"link": creator, "replace": True})
            check(status == 200 and answer["link"]["role"] == "creator", f"the creator's own link replaced: {answer}")
            status, _ = club.http("/club/revoke?token=" + creator, {"link": spect})
            check(status == 403, "the old creator link is refused")
            # Bad input: a clear error, nothing changes.
            count = len(club.games())
            for spec in ({"game": "/etc"}, {"game": "stars_and_bars", "players": ["remote"]}, "[1, 2"):
                status, answer = club.http("/club/games?token=" + club.key,
                                           spec if isinstance(spec, dict) else spec.encode())
                check(status == 400 and answer["t"] == "error" and answer["message"], f"refused: {answer}")
            status = club.status_of_head(
                f"POST /club/games?token={club.key} HTTP/1.1\r\nHost: x\r\nContent-Length: {2 << 20}\r\n\r\n".encode())
            check(status == 413, f"a body over 1 MB: {status}")
            status, _ = club.http("/club/games", TWO_REMOTE)
            check(status == 403, "no key, no game")
            status, _ = club.http("/club/nowhere?token=" + club.key)
            check(status == 404, "unknown path")
            check(len(club.games()) == count, "no game was made")
            check(club.proc.poll() is None, "the server runs on")
        finally:
            club.stop()
    print("ok: links")


def main():
    global WARGAME, STORE
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] not in ("sqlite", "postgresql")):
        print(__doc__)
        return 2
    WARGAME = sys.argv[1]
    STORE = sys.argv[3] if len(sys.argv) == 4 else "sqlite"
    {"crash": case_crash, "links": case_links}[sys.argv[2]]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
