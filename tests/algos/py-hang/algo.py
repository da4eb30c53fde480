"""Answers turn 0 normally (idle), then at turn 1 sleeps forever without answering."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

import time  # noqa: E402


def on_turn(state):
    if state.turn >= 1:
        ta.debug("py-hang: hanging forever at turn %d" % state.turn)
        while True:
            time.sleep(3600)
    return [], []


if __name__ == "__main__":
    ta.run(on_turn)
