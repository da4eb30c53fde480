"""Plays idle, then exits with status 3 at turn CRASH_TURN (env, default 2) before answering."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

CRASH_TURN = int(os.environ.get("CRASH_TURN", "2"))


def on_turn(state):
    if state.turn >= CRASH_TURN:
        ta.debug("py-crash: crashing on purpose at turn %d" % state.turn)
        sys.stdout.flush()
        os._exit(3)
    return [], []


if __name__ == "__main__":
    ta.run(on_turn)
