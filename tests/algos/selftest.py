#!/usr/bin/env python3
"""Pipe a hand-made session into each algo and check its stdout line count and exit.

Usage: python3 tests/algos/selftest.py [algo-dir ...]   (default: all py-* algos)
Session: config line, turn 0, action frame, turn 1, action frame, turn 2,
action frame, end frame.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The shared configs sit beside the repository (../shared); TERMINAL_SHARED names them elsewhere.
SHARED = os.environ.get("TERMINAL_SHARED", os.path.join(HERE, "..", "..", "..", "shared"))
CONFIG = os.path.join(SHARED, "configs", "special-2025.json")
if not os.path.exists(CONFIG):
    sys.exit(f"selftest: no config at {CONFIG}: put the shared folder beside the repository "
             "or set TERMINAL_SHARED")

EVENTS = {k: [] for k in ("selfDestruct", "breach", "damage", "shield", "move",
                           "spawn", "death", "attack", "melee")}


def frame(phase, turn, af, total, sp=40.0, mp=5.0, p1units=None, p2units=None, extra=None):
    f = {"p2Units": p2units or [[] for _ in range(8)], "turnInfo": [phase, turn, af, total],
         "p1Stats": [30.0, sp, mp, 0], "p1Units": p1units or [[] for _ in range(8)],
         "p2Stats": [30.0, 40.0, 5.0, 0], "events": EVENTS}
    if extra:
        f.update(extra)
    return json.dumps(f, separators=(",", ":"))


def session():
    cfg = json.dumps(json.load(open(CONFIG)), separators=(",", ":"))
    p1 = [[[13, 0, 60.0, "1"], [5, 10, 60.0, "2"]], [], [[3, 12, 75.0, "3"]], [], [], [], [],
          [[3, 12, 0.0, "4"]]]
    p2 = [[[13, 14, 60.0, "5"]], [], [[20, 15, 75.0, "6"]], [], [], [], [], []]
    return [cfg,
            frame(0, 0, -1, 0),
            frame(1, 0, 0, 1),
            frame(0, 1, -1, 2, sp=12.5, mp=8.3, p1units=p1, p2units=p2),
            frame(1, 1, 0, 3, p1units=p1, p2units=p2),
            frame(1, 1, 1, 4, p1units=p1, p2units=p2),
            frame(0, 2, -1, 5, sp=30.0, mp=12.0, p1units=p1, p2units=p2),
            frame(1, 2, 0, 6),
            frame(2, 2, 0, 6, extra={"endStats": {"winner": 1}})]


# name -> (expected stdout lines, expected exit status or None if killed on timeout, env)
EXPECT = {
    "py-builder": (6, 0, {}), "py-idle": (6, 0, {}), "py-random": (6, 0, {}),
    "py-crash": (4, 3, {}), "py-hang": (2, None, {}), "py-garbage": (6, 0, {}),
    "py-stray": (6 + 4, 0, {}), "py-illegal": (6, 0, {}), "py-slow": (6, 0, {"SLOW_SECONDS": "0.5"}),
    "py-stderr-flood": (6, 0, {"STDERR_MB": "5"}), "py-annotate": (6, 0, {}),
    "rust-scout": (6, 0, {}),
    # The banner's two lines come before the six replies.
    "py-banner": (2 + 6, 0, {}), "py-stderr-turns": (6, 0, {}),
    # The banner has no newline: it starts the first reply line.
    "py-banner-no-newline": (6, 0, {}),
    # Turn 1's stderr, then the exception at turn 2 (exit status 1 after turns 0 and 1).
    "py-stderr-crash": (4, 1, {"LINE_MB": "1", "FLOOD_MB": "0.1"}),
}


def check(name):
    want_lines, want_rc, env_extra = EXPECT.get(name, (6, 0, {}))
    env = dict(os.environ, **env_extra)
    run = os.path.join(HERE, name, "run.sh")
    t0 = time.time()
    p = subprocess.Popen([run], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd="/", env=env, start_new_session=True)
    try:
        out, err = p.communicate(("\n".join(session()) + "\n").encode(),
                                 timeout=3 if want_rc is None else 120)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, err = p.communicate()
        rc = None
    lines = out.decode(errors="replace").splitlines()
    ok = len(lines) == want_lines and rc == want_rc
    print("%-16s %s lines=%d (want %d) rc=%s (want %s) stderr=%d B %.1fs"
          % (name, "OK  " if ok else "FAIL", len(lines), want_lines, rc, want_rc,
             len(err), time.time() - t0))
    for line in lines:
        print("    | " + (line if len(line) < 300 else line[:300] + "..."))
    return ok


def main():
    names = sys.argv[1:] or sorted(d for d in os.listdir(HERE) if d.startswith("py-"))
    results = [check(os.path.basename(n.rstrip("/"))) for n in names]
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
