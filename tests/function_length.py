#!/usr/bin/env python3
"""Functions stay small (issue 11): no function in libwargame/ or rulesets/
(headers and sources) is longer than MAX_LINES lines, from its signature to
its closing brace. Function extents come from Universal Ctags (Debian package
universal-ctags), which matches braces with comments, strings and the
preprocessor understood; lambdas count as part of the function around them.

  function_length.py ROOT          check the tree at ROOT (exit 1 naming each long function)
  function_length.py --self-test   check that the check finds a long function
Exit 77 (a skipped test for ctest) when ctags is not installed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

MAX_LINES = 120
SCANNED = ["libwargame", "rulesets"]

# Files not checked yet (none: the step-stack change has landed and every file is checked).
PENDING_STEP_STACK = []


def ctags():
    exe = shutil.which("ctags")
    if not exe:
        return None
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    return exe if "Universal Ctags" in out else None


def functions(exe, files):
    """(file, first line, last line, name) of every function definition."""
    if not files:
        return []
    cmd = [exe, "-x", "--languages=C++", "--language-force=C++", "--kinds-C++=f", "--fields=+ne",
           "--_xformat=%{input}\t%n\t%{end}\t%{scope}\t%N"] + files
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 5 or not parts[2]:
            continue
        scope = parts[3].split(":")[-1]
        name = (scope + "::" if scope and not scope.startswith("__anon") else "") + parts[4]
        result.append((parts[0], int(parts[1]), int(parts[2]), name))
    return result


def long_functions(exe, root, excluded):
    files = []
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if not n.endswith((".cc", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, n), root)
                if rel not in excluded:
                    files.append(rel)
    found = []
    for f, first, last, name in functions(exe, [os.path.join(root, f) for f in sorted(files)]):
        n = last - first + 1
        if n > MAX_LINES:
            rel = os.path.relpath(f, root)
            found.append("%s:%d: %s is %d lines (at most %d)" % (rel, first, name, n, MAX_LINES))
    return files, found


def check(root):
    exe = ctags()
    if not exe:
        print("universal-ctags is not installed (apt-get install universal-ctags): check skipped")
        return 77
    os.chdir(root)
    for f in PENDING_STEP_STACK:
        if not os.path.exists(f):
            print("%s: in the pending list but does not exist (remove it from the list)" % f)
            return 1
    files, found = long_functions(exe, ".", set(PENDING_STEP_STACK))
    if len(files) < 20:
        print("only %d files found under %s" % (len(files), root))
        return 1
    for line in found:
        print(line)
    if found:
        print("%d functions longer than %d lines: split them (one step per function)" % (len(found), MAX_LINES))
        return 1
    print("%d files, every function at most %d lines" % (len(files), MAX_LINES))
    return 0


def self_test():
    exe = ctags()
    if not exe:
        print("universal-ctags is not installed: self-test skipped")
        return 77
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "libwargame"))
        body = "".join("  x += %d;  // {\n" % i for i in range(MAX_LINES))
        with open(os.path.join(d, "libwargame", "a.cc"), "w") as f:
            f.write("namespace wg {\nint Short(int x) {\n  return x;\n}\n"
                    "int Long(int x) {\n" + body + "  auto l = [](int y) { return y; };\n  return l(x);\n}\n"
                    "int Exact(int x) {\n" + "".join("  ++x;\n" for _ in range(MAX_LINES - 3)) +
                    "  return x;\n}\n}  // namespace wg\n")
        _, found = long_functions(exe, d, set())
        _, excluded = long_functions(exe, d, {"libwargame/a.cc"})
    ok = len(found) == 1 and "Long is %d lines" % (MAX_LINES + 4) in found[0] and not excluded
    print("\n".join(found) or "nothing found")
    print("self-test " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(check(sys.argv[1]))
