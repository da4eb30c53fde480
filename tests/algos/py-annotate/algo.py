"""Builder play plus one set of '#draw {json}' annotation lines on stderr per turn (see ../ANNOTATIONS.md)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

import json  # noqa: E402

from strategies import BUILDER_SCOUT_TILE, BUILDER_TURRETS, builder_turn  # noqa: E402


def draw(obj):
    sys.stderr.write("#draw " + json.dumps(obj, separators=(",", ":")) + "\n")


def on_turn(state):
    build, deploy = builder_turn(state)
    t = state.turn
    draw({"turn": t, "kind": "tile", "x": 13, "y": 5, "color": "#ff0000", "label": "hole"})
    for x, y in BUILDER_TURRETS:
        draw({"turn": t, "kind": "tile", "x": x, "y": y, "color": "#ffaa00", "label": "turret"})
    sx, sy = BUILDER_SCOUT_TILE
    draw({"turn": t, "kind": "line", "from": [sx, sy], "to": [27 - sx, 27 - sy], "color": "#00ff00"})
    draw({"turn": t, "kind": "text", "x": 13, "y": 2,
          "text": "turn %d: SP %.1f MP %.1f, %d builds, %d scouts"
                  % (t, state.me.sp, state.me.mp, len(build), len(deploy))})
    sys.stderr.write("plain debug line, not an annotation\n")
    sys.stderr.flush()
    return build, deploy


if __name__ == "__main__":
    ta.run(on_turn)
