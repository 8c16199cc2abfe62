#!/usr/bin/env python3
"""Runs a command and prints its whole-process CPU time (user + sys of it and its
children) and wall time, then the last line of its output that matches a key.

usage: timecmd.py [--grep REGEX] -- COMMAND [ARG ...]
prints: cpu=SECONDS wall=SECONDS [match=LINE]
"""
import re
import resource
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    pattern = None
    if args[:1] == ["--grep"]:
        pattern, args = re.compile(args[1]), args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = "cpu=%.4f wall=%.4f exit=%d" % (cpu, wall, proc.returncode)
    if pattern:
        hits = [l for l in proc.stdout.splitlines() if pattern.search(l)]
        if hits:
            line += " match=" + hits[-1].strip().replace(" ", "_")
    print(line)
    return 0 if proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
