"""Plays idle; at turn 1 writes one stderr line of LINE_MB (env, default 100) MB and then
FLOOD_MB (env, default 3) MB of short lines; at turn 2 raises an exception, so Python
prints its traceback to stderr last and exits: the part of the log a player needs."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

LINE_MB = float(os.environ.get("LINE_MB", "100"))
FLOOD_MB = float(os.environ.get("FLOOD_MB", "3"))
SHORT = "flood " + "x" * 93 + "\n"  # 100 bytes


def write_long_line(err, size):
    chunk = "z" * (1 << 20)
    while size >= len(chunk):
        err.write(chunk)
        size -= len(chunk)
    err.write("z" * size + "\n")


def on_turn(state):
    err = sys.stderr
    if state.turn == 1:
        write_long_line(err, int(LINE_MB * 1_000_000))
        n = int(FLOOD_MB * 1_000_000) // len(SHORT)
        while n > 0:
            k = min(n, 1000)
            err.write(SHORT * k)
            n -= k
        err.flush()
    if state.turn == 2:
        raise RuntimeError("py-stderr-crash: the end of the log is what a player needs")
    return [], []


if __name__ == "__main__":
    ta.run(on_turn)
