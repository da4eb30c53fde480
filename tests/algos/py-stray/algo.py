"""Valid builder replies, but prints a stray debug line to stdout on every action frame (the classic bug)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

from strategies import builder_turn  # noqa: E402


def on_action_frame(state):
    # The bug: a debug print to stdout instead of stderr.
    ta.send_lines("debug: turn %d action frame %d" % (state.turn, state.action_frame))


if __name__ == "__main__":
    ta.run(builder_turn, on_action_frame=on_action_frame)
