"""Builder play that names on stderr the turn it is playing: a line while thinking (before
its reply, after THINK_MS ms) on turns with turn % 3 != 2, and a line while reading action
frame 0 (after its reply) on turns with turn % 3 == 0. Turns with turn % 3 == 2 write
nothing at all."""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

from strategies import builder_turn  # noqa: E402

THINK_MS = float(os.environ.get("THINK_MS", "0"))


def on_turn(state):
    if state.turn % 3 != 2:
        time.sleep(THINK_MS / 1000)
        ta.debug("turn %d: thinking" % state.turn)
    return builder_turn(state)


def on_action_frame(state):
    if state.turn % 3 == 0 and state.action_frame == 0:
        ta.debug("turn %d: after the reply, action frame 0" % state.turn)


if __name__ == "__main__":
    ta.run(on_turn, on_action_frame=on_action_frame)
