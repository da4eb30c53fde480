"""Plays idle but floods stderr: STDERR_MB (env, default 50) MB spread over the first FLOOD_TURNS (env, default 10) turns, plus one 10,000-char line per turn."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

STDERR_MB = float(os.environ.get("STDERR_MB", "50"))
FLOOD_TURNS = max(1, int(os.environ.get("FLOOD_TURNS", "10")))
LINE = ("flood " + "x" * 93 + "\n")  # 100 bytes per line
PER_TURN = int(STDERR_MB * 1024 * 1024 / FLOOD_TURNS)


def on_turn(state):
    err = sys.stderr
    err.write("long line " + "y" * 10000 + "\n")
    if state.turn < FLOOD_TURNS:
        n = PER_TURN // len(LINE)
        chunk = LINE * 1000
        while n >= 1000:
            err.write(chunk)
            n -= 1000
        err.write(LINE * n)
    err.flush()
    return [], []


if __name__ == "__main__":
    ta.run(on_turn)
