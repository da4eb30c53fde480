"""Does nothing: [] and [] every turn."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402


def on_turn(state):
    return [], []


if __name__ == "__main__":
    ta.run(on_turn)
