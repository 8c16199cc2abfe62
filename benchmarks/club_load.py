#!/usr/bin/env python3
"""Load on one club server: many games, many concurrent connections, no lost action (issue 40).

usage: club_load.py WARGAME_BINARY [--games 100] [--actions 12] [--ai-delay 0]

Starts `wargame serve --club` on a temporary SQLite file, creates GAMES Stars and Bars games
(remote against remote, seeded dice) and opens two WebSockets per game, one per seat link
(2 x GAMES concurrent connections, each its own thread). Every connection plays its seat: when
the state it is sent offers it options, it sends the first (ending the phase when it may) and
waits for the answer; it counts the actions acknowledged ("ok"). When every game has reached
ACTIONS acknowledged actions, the server is killed with SIGKILL and started again on the same
file, and every game's action count there must equal the actions its two seats had
acknowledged: none lost, none doubled. Prints one row: the games, the connections, the actions
acknowledged, their rate, the latency of an action (median, 95th percentile) from the send to its
"ok", and the check. This is a benchmark, not a test: its numbers depend on the machine
(benchmarks/README.md records a run).
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "wargame", "tests"))
import webdrive  # noqa: E402


def start(wargame, path, ai_delay):
    proc = subprocess.Popen([wargame, "serve", "--club", path, "--port", "0", "--ai-delay", str(ai_delay)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = key = None
    while not key:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("wargame serve --club ended")
        m = re.match(r"serving on (http://[0-9.]+:\d+)/", line)
        base = m.group(1) if m else base
        m = re.match(r"club key.*: ([0-9a-f]+)$", line.strip())
        key = m.group(1) if m else key
    return proc, base, key


def http(url, body=None):
    req = urllib.request.Request(url, data=body.encode() if body is not None else None,
                                 method="POST" if body is not None else "GET")
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read().decode())


class Seat(threading.Thread):
    """One seat link's WebSocket, playing its side until its game has `target` actions."""

    def __init__(self, base, game, token, target, barrier):
        super().__init__(daemon=True)
        self.url = base.replace("http://", "ws://") + "/ws?token=" + token
        self.game, self.target, self.barrier = game, target, barrier
        self.acked, self.latencies, self.error = 0, [], None

    def run(self):
        try:
            ws = webdrive.WebSocket(self.url, timeout=300)
            self.barrier.wait()  # every connection open before any action
            sent_at = None
            while True:
                m = json.loads(ws.recv())
                if m["t"] == "ok":
                    self.acked += 1
                    self.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                elif m["t"] in ("refused", "error"):
                    raise RuntimeError(f"game {self.game}: {m}")
                elif m["t"] == "state":
                    if m["actions"] >= self.target or m["result"]:
                        break
                    if sent_at is None and m["legal"]:
                        texts = [a["text"] for a in m["legal"]]
                        sent_at = time.perf_counter()
                        ws.send(json.dumps({"t": "act", "action": "end" if "end" in texts else texts[0]}))
            ws.close()
        except Exception as e:  # noqa: BLE001 - reported in the row
            self.error = repr(e)
            try:
                self.barrier.abort()
            except threading.BrokenBarrierError:
                pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wargame")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--actions", type=int, default=12, help="actions per game")
    ap.add_argument("--ai-delay", type=int, default=0)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="wargame_clubload_")
    path = os.path.join(folder, "club.sqlite")
    proc, base, key = start(args.wargame, path, args.ai_delay)
    seats = []
    try:
        games = []
        for i in range(args.games):
            j = http(f"{base}/club/games?token={key}",
                     json.dumps({"game": "stars_and_bars", "players": ["remote", "remote"], "seed": i + 1}))
            games.append(j)
        barrier = threading.Barrier(2 * args.games + 1)
        for g in games:
            for seat in g["seats"]:
                seats.append(Seat(base, g["id"], seat["token"], args.actions, barrier))
        for s in seats:
            s.start()
        barrier.wait(timeout=300)
        t0 = time.perf_counter()
        for s in seats:
            s.join()
        wall = time.perf_counter() - t0
        errors = [s.error for s in seats if s.error]
        acked = {}
        for s in seats:
            acked[s.game] = acked.get(s.game, 0) + s.acked
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc, base, key = start(args.wargame, path, args.ai_delay)
        stored = {g["id"]: g["actions"] for g in http(f"{base}/club/games?token={key}")["games"]}
        lost = sum(1 for gid, n in acked.items() if stored.get(gid) != n)
        lat = sorted(x for s in seats for x in s.latencies)
        total = sum(acked.values())
        med = lat[len(lat) // 2] * 1000 if lat else 0
        p95 = lat[int(len(lat) * 0.95)] * 1000 if lat else 0
        print("| games | connections | actions acknowledged | wall | actions/s | latency median / p95 | "
              "after SIGKILL and restart |")
        print("|---|---|---|---|---|---|---|")
        print(f"| {args.games} | {2 * args.games} | {total} | {wall:.1f} s | {total / wall:.1f} | "
              f"{med:.0f} ms / {p95:.0f} ms | {'every game holds its acknowledged actions' if not lost else f'{lost} games differ'} |")
        if errors:
            print("errors:", errors[:5])
        sys.exit(1 if lost or errors else 0)
    finally:
        webdrive.stop(proc)


if __name__ == "__main__":
    main()
