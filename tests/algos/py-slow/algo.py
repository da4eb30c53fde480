"""Builder play, but sleeps SLOW_SECONDS (env, default 2.5) before answering turn 1 only."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

import time  # noqa: E402

from strategies import builder_turn  # noqa: E402

SLOW_SECONDS = float(os.environ.get("SLOW_SECONDS", "2.5"))


def on_turn(state):
    if state.turn == 1:
        ta.debug("py-slow: sleeping %.3f s" % SLOW_SECONDS)
        time.sleep(SLOW_SECONDS)
    return builder_turn(state)


if __name__ == "__main__":
    ta.run(on_turn)
