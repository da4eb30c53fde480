"""py-builder's play, changed from a turn set below: two versions of one algo that play the
same game up to a known turn (the regression tests edit the two settings in a copy)."""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# In tests/algos the helpers are in ../lib; a saved copy carries them beside this file.
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
import terminal_algo as ta  # noqa: E402

from strategies import builder_defence, builder_turn  # noqa: E402

# None: py-builder's play. K: from turn K on, every own structure is marked for removal and
# nothing is sent.
CHANGE_FROM_TURN = None
# True: the scouts leave from an edge tile drawn by an unseeded random number every turn.
NOISY = False

noise = random.Random()


def on_turn(state):
    if CHANGE_FROM_TURN is not None and state.turn >= CHANGE_FROM_TURN:
        p = ta.Planner(state)
        for x, y in sorted(p.mine):
            p.build.append([state.sh.remove, x, y])
        return p.result()
    if NOISY:
        p = builder_defence(state)
        p.spawn_max(ta.SCOUT, *noise.choice(state.free_own_edge_tiles()))
        return p.result()
    return builder_turn(state)


if __name__ == "__main__":
    ta.run(on_turn)
