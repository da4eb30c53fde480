"""Answers every turn frame with two lines that are not valid command lists."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

GARBAGE = [
    ("hello world", "{not json"),
    ("{\"a\": 1}", "[\"FF\", 13, 13"),
    ("42", "null"),
    ("[", "   x"),
    ("[[\"FF\", 13, 13]] trailing", "garbage \u00e9\u00e8"),
]


def on_turn(state):
    return GARBAGE[state.turn % len(GARBAGE)]


if __name__ == "__main__":
    ta.run(on_turn, raw_reply=True)
