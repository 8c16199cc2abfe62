#!/usr/bin/env python3
"""Reads the Google Benchmark JSON of wg_bench (run with --benchmark_repetitions)
and prints the issue-7 summary table: metric, median, baseline, ratio, target, met.

usage: summarize.py bench.json [simulate.txt [baseline-folder]]
simulate.txt (optional, written by run_benchmarks.sh): lines "threads=N cpu=S wall=S games=G ...".
baseline-folder (optional): rev, runs/{base,cur}-K.json and ai.txt of the pinned-baseline turns.
Times are medians of the repetitions, CPU time (the machine is shared and noisy).
"""
import json
import os
import re
import statistics
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
RULESETS = ["skirmish", "stars_and_bars", "chattanooga"]
TABLETOP = "civil_war_miniatures"  # the farm: BM_RandomGame, BM_LoadRuleset, BM_Signature only


def load(path):
    with open(path) as f:
        data = json.load(f)
    med, skipped, labels = {}, {}, {}
    for b in data.get("benchmarks", []):
        name = re.sub(r"/(iterations|repeats):\d+", "", b.get("run_name", b["name"]))
        if b.get("error_occurred"):
            msg = b.get("error_message", "skipped").strip().splitlines()[0]
            skipped[name] = msg if len(msg) <= 70 else msg[:67] + "..."
            continue
        agg = b.get("aggregate_name")
        if agg not in (None, "", "median"):
            continue
        if agg is None and name in med:  # single runs: keep the first
            continue
        ns = b["cpu_time"] * UNIT_NS[b.get("time_unit", "ns")]
        med[name] = dict(b, ns=ns)
        if b.get("label"):
            labels[name] = b["label"]
    return med, skipped, labels


def fmt_time(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return "%.3g %s" % (ns / scale, unit)
    return "%.3g ns" % ns


def paired(per):
    """per = {"base": {round: x}, "cur": {round: x}}: the median of the per-round ratios
    base/cur (each round measured the two builds back to back, so a change of the machine's
    load between rounds cancels out), the medians of each side, and the ratios by round."""
    import statistics
    rounds = sorted(set(per["base"]) & set(per["cur"]))
    ratios = [per["base"][k] / per["cur"][k] for k in rounds]
    return (statistics.median(ratios), statistics.median(per["base"][k] for k in rounds),
            statistics.median(per["cur"][k] for k in rounds), ratios)


def baseline_rows(folder, spread):
    """Rows comparing this build with the pinned baseline build, run in turns (run_benchmarks.sh).
    Appends to `spread` a line per row: its ratio in each round."""
    import glob
    import os
    rows = []
    try:
        rev = open(os.path.join(folder, "rev")).read().strip()[:10]
    except OSError:
        return [("speed-up over the baseline build", "-", "-", "-", "", "skipped: no baseline run")]
    times = {"base": {}, "cur": {}}  # side -> name -> {round: ns}
    for path in sorted(glob.glob(os.path.join(folder, "runs", "*.json"))):
        side, k = os.path.basename(path)[:-len(".json")].split("-")
        med, _, _ = load(path)
        for name, b in med.items():
            times[side].setdefault(name, {})[int(k)] = b["ns"]

    def note(row, ratios, invert=False):
        rows.append(row)
        label = row[0].split(" (")[0].split(": this build")[0]
        spread.append("  %-50s %s" % (label, " ".join("%.2fx" % (1 / r if invert else r) for r in ratios)))
    targets = {"stars_and_bars": 10.0, "chattanooga": 10.0}
    for kind, title in (("BM_RandomGame", "uniform random games"), ("BM_FastRandomGame", "FastRandomPlayer games")):
        for r in RULESETS:
            n = "%s/%s" % (kind, r)
            b, c = times["base"].get(n), times["cur"].get(n)
            if not b or not c or not set(b) & set(c):
                continue
            ratio, bm, cm, ratios = paired({"base": b, "cur": c})
            t = targets.get(r) if kind == "BM_RandomGame" else None
            note(("%s, %s: this build vs %s (%.0f vs %.0f games/s)" % (title, r, rev, 8e9 / cm, 8e9 / bm),
                  fmt_time(cm / 8), fmt_time(bm / 8), "%.2fx" % ratio,
                  ">= %gx faster" % t if t else "(report)",
                  "-" if t is None else ("MET" if ratio >= t else "NOT MET")), ratios)
    ai = {}  # spec -> {"base": {round: x}, "cur": {round: x}}: actions per CPU second
    try:
        for line in open(os.path.join(folder, "ai.txt")):
            kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
            m = re.search(r"mean_([0-9.]+)_actions", kv.get("match", ""))
            if m and float(kv["cpu"]) > 0:
                per = ai.setdefault(kv.get("spec", "stars_and_bars"), {"base": {}, "cur": {}})
                per[kv["side"]][int(kv.get("round", 0))] = float(m.group(1)) * float(kv.get("games", 1)) / float(kv["cpu"])
    except OSError:
        pass
    tab = {"base": {}, "cur": {}}  # CPU seconds per game, by round
    try:
        for line in open(os.path.join(folder, "tabletop.txt")):
            kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
            if kv.get("exit") == "0" and float(kv["cpu"]) > 0:
                tab[kv["side"]][int(kv.get("round", 0))] = float(kv["cpu"]) / float(kv.get("games", 1))
    except OSError:
        pass
    if set(tab["base"]) & set(tab["cur"]):
        ratio, b, c, ratios = paired(tab)
        note(("uniform random games, civil_war_miniatures (wargame simulate): this build vs %s" % rev,
              "%.3g ms" % (c * 1e3), "%.3g ms" % (b * 1e3), "%.2fx" % ratio, ">= 5x faster",
              "MET" if ratio >= 5 else "NOT MET"), ratios)
    for spec, per in ai.items():
        if not set(per["base"]) & set(per["cur"]):
            continue
        # Decisions per second: higher is better, so the ratio is cur/base (paired() gives base/cur).
        inv, b, c, ratios = paired(per)
        name = re.sub(r"blue_and_gray\(scenario=(\w+)\)", r"\1", spec)
        note(("AI decisions per CPU second, %s ai,ai: this build vs %s" % (name, rev),
              "%.0f/s" % c, "%.0f/s" % b, "%.2fx" % (1 / inv), ">= 3x", "MET" if 1 / inv >= 3 else "NOT MET"),
             ratios, invert=True)
    return rows


def main():
    med, skipped, labels = load(sys.argv[1])
    rows = []

    def get(name):
        return med.get(name, {}).get("ns")

    def why_missing(*names):
        for n in names:
            if n in skipped:
                return "skipped: " + skipped[n]
        return "not run"

    def ratio_row(metric, fast, base, target_text, target, higher_is_better=True):
        f, b = get(fast), get(base)
        if f is None or b is None:
            rows.append((metric, "-", "-", "-", target_text, why_missing(fast, base)))
            return
        if higher_is_better:  # baseline / engine, e.g. "20x faster"
            r = b / f
            ok = target is not None and r >= target
        else:  # engine / baseline, e.g. "within 1.5x"
            r = f / b
            ok = target is not None and r <= target
        met = "-" if target is None else ("MET" if ok else "NOT MET")
        rows.append((metric, fmt_time(f), fmt_time(b), "%.2fx" % r, target_text, met))

    for ma in (4, 6, 8):
        ratio_row("reachable set MA %d, Perryville (Dial vs BGL stopped at the bound)" % ma,
                  "BM_PerryReachableFast/%d" % ma, "BM_PerryReachableBoostBounded/%d" % ma, "(report)", None)
    for ma in (4, 6, 8):
        ratio_row("reachable set MA %d, Perryville (Dial vs BGL run to the map's end)" % ma,
                  "BM_PerryReachableFast/%d" % ma, "BM_PerryReachableBoost/%d" % ma, "(report)", None)
    ratio_row("full-map cost field, Perryville", "BM_PerryCostFieldFast", "BM_PerryCostFieldBoost",
              ">= 2x faster", 2.0)
    for rng in (3, 20):
        f, b = get("BM_LosFast/%d" % rng), get("BM_LosBaseline/%d" % rng)
        if f is None or b is None:
            rows.append(("line of sight, range %d" % rng, "-", "-", "-", "", why_missing("BM_LosFast/%d" % rng)))
        else:
            target = "< 50 ns" if rng == 20 else "(report)"
            met = ("MET" if f < 50 else "NOT MET") if rng == 20 else "-"
            rows.append(("line of sight, range %d" % rng, fmt_time(f), fmt_time(b), "%.2fx" % (b / f), target, met))
    for r in RULESETS:
        ratio_row("all legal moves of a side, %s" % r, "BM_LegalMoves/%s" % r,
                  "BM_LegalMovesQueries/%s" % r, "<= 1.5x the queries", 1.5, higher_is_better=False)
    f, b = get("BM_StateCopy/skirmish"), get("BM_StateMemcpy/skirmish")
    if f is not None and b is not None:
        size = med["BM_StateCopy/skirmish"].get("state_bytes", 0)
        ok = f / b <= 2.0 and size < 8192
        rows.append(("copy of a mid-game State (%d bytes)" % size, fmt_time(f), fmt_time(b), "%.2fx" % (f / b),
                     "<= 2x memcpy, < 8 KB", "MET" if ok else "NOT MET"))
    else:
        rows.append(("copy of a mid-game State", "-", "-", "-", "<= 2x memcpy, < 8 KB", why_missing("BM_StateCopy/skirmish")))
    for r in RULESETS:
        g, q = "BM_RandomGame/%s" % r, "BM_RandomGameQueries/%s" % r
        if get(g) is None:
            rows.append(("random-play game, %s" % r, "-", "-", "-", ">= 300 games/s" if r == "stars_and_bars" else "(report)",
                         why_missing(g)))
            continue
        per_game = get(g) / 8.0  # each iteration plays 8 games
        games_s = 1e9 / per_game
        base = get(q) / 8.0 if get(q) is not None else None
        share = "" if base is None else ", %.0f%% outside movement search" % (100.0 * max(0.0, 1 - base / per_game))
        actions = med[g].get("actions_per_game", 0)
        target = ">= 300 games/s" if r == "stars_and_bars" else "(report)"
        met = ("MET" if games_s >= 300 else "NOT MET") if r == "stars_and_bars" else "-"
        rows.append(("random-play game, %s (%.0f games/s, %.0f actions%s)" % (r, games_s, actions, share),
                     fmt_time(per_game), fmt_time(base), "-" if base is None else "%.2fx" % (per_game / base),
                     target, met))
    g = "BM_RandomGame/%s" % TABLETOP
    if get(g) is not None:
        per_game = get(g) / 8.0
        rows.append(("random-play game, %s farm (%.0f games/s, %.0f actions)" % (
            TABLETOP, 1e9 / per_game, med[g].get("actions_per_game", 0)), fmt_time(per_game), "-", "-", "(report)", "-"))
    for r in RULESETS:
        g, q = "BM_FastRandomGame/%s" % r, "BM_RandomGameQueries/%s" % r
        target = ">= 300 games/s" if r == "stars_and_bars" else "(report)"
        if get(g) is None:
            rows.append(("fast random playout (FastRandomPlayer), %s" % r, "-", "-", "-", target, why_missing(g)))
            continue
        per_game = get(g) / 8.0
        games_s = 1e9 / per_game
        slow = get("BM_RandomGame/%s" % r)
        vs = "" if slow is None else ", %.1fx the listing player's speed" % (slow / get(g))
        met = ("MET" if games_s >= 300 else "NOT MET") if r == "stars_and_bars" else "-"
        rows.append(("fast random playout, %s (%.0f games/s, %.0f actions%s)" % (
            r, games_s, med[g].get("actions_per_game", 0), vs), fmt_time(per_game), "-", "-", target, met))
    for r in RULESETS:
        n = "BM_LoadRuleset/%s" % r
        t = get(n)
        if t is None:
            rows.append(("load+validate+compile, %s" % r, "-", "-", "-", "< 25 ms", why_missing(n)))
        else:
            rows.append(("load+validate+compile, %s" % r, fmt_time(t), "-", "-", "< 25 ms",
                         "MET" if t < 25e6 else "NOT MET"))
    sim = {}
    if len(sys.argv) > 2:
        try:
            with open(sys.argv[2]) as f:
                for line in f:
                    kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
                    if "threads" in kv and "cpu" in kv:
                        sim.setdefault(int(kv["threads"]), []).append(kv)
                    elif "skipped" in kv:
                        sim["skipped"] = kv["skipped"]
        except OSError:
            pass
    if 1 in sim and 2 in sim:
        # Pairs of one run with each thread count (by round; an older file has one
        # pair): the median of the pairs' ratios, and the median times.
        ones, twos = sim[1], sim[2]
        pairs = list(zip(ones, twos))
        games = float(ones[0].get("games", 1))
        c1 = statistics.median(float(o["cpu"]) / games for o in ones)
        c2 = statistics.median(float(t["cpu"]) / games for t in twos)
        ratio = statistics.median(float(t["cpu"]) / float(o["cpu"]) for o, t in pairs)
        w = statistics.median(float(o["wall"]) / float(t["wall"]) for o, t in pairs)
        rows.append(("wargame simulate %s, %s: CPU per game, 2 threads vs 1 (wall %.2fx faster, %d rounds)" % (
            ones[0].get("spec", "?"), ones[0].get("players", "?"), w, len(pairs)), "%.3g ms" % (c2 * 1e3),
            "%.3g ms" % (c1 * 1e3), "%.2fx" % ratio, "<= 1.1x (no per-thread overhead)",
            "MET" if ratio <= 1.1 else "NOT MET"))
        sim_ratios = ["%.2fx" % (float(t["cpu"]) / float(o["cpu"])) for o, t in pairs]
    else:
        sim_ratios = []
        rows.append(("wargame simulate, 2 threads vs 1", "-", "-", "-", "<= 1.1x CPU per game",
                     "skipped: " + str(sim.get("skipped", "wargame simulate not available"))))
    spread = []
    if len(sys.argv) > 3:
        rows.extend(baseline_rows(sys.argv[3], spread))

    headers = ("metric", "median", "baseline", "ratio", "target", "met")
    widths = [max(len(str(x[i])) for x in rows + [headers]) for i in range(6)]
    line = "  ".join("%-*s" % (w, h) for w, h in zip(widths, headers))
    print(line)
    print("-" * len(line))
    for row in rows:
        print("  ".join("%-*s" % (w, str(c)) for w, c in zip(widths, row)))
    print()
    if spread:
        print("against the baseline, the ratio in each round (the table gives their median):")
        for line in spread:
            print(line)
        print()
    if len(sim_ratios) > 1:
        print("wargame simulate, CPU per game with 2 threads over 1, in each round: " + " ".join(sim_ratios))
        print()
    # The signatures are checked against the current values (signatures.txt, the copy
    # benchmarks/README.md quotes): a speed-only change keeps them.
    expected = {}
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "signatures.txt")) as f:
            for line in f:
                parts = line.split("#", 1)[0].split()
                if len(parts) == 2:
                    expected[parts[0]] = parts[1]
    except OSError:
        pass
    print("determinism signatures (100 seeded random games each), checked against benchmarks/signatures.txt:")
    changed = 0
    for r in RULESETS + [TABLETOP]:
        n = "BM_Signature/%s" % r
        got = labels.get(n, why_missing(n)).replace("signature=", "")
        want = expected.get(r)
        if n not in labels:
            verdict = ""
        elif want is None:
            verdict = "(no expected value)"
        elif got == want:
            verdict = "ok"
        else:
            verdict = "CHANGED (expected %s): play changed" % want
            changed += 1
        print("  %-20s %s  %s" % (r, got, verdict))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
