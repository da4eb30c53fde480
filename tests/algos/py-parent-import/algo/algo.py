"""Plays idle with a module of its parent folder (`../shared_moves.py`): confined, the
import fails (ModuleNotFoundError); with --no-confine it plays."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import shared_moves  # noqa: E402

if __name__ == "__main__":
    shared_moves.ta.run(shared_moves.on_turn)
