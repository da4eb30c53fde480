"""Sends illegal commands every turn, plus one legal wall so something happens.

Build line: one legal wall (first free tile, own edges first), then off-board,
enemy-half, occupied, unknown-shorthand and malformed entries, UP/RM on empty
or enemy tiles. Deploy line: mobiles off the edges, on the enemy's edges, on a
tile occupied by our own structure, unknown shorthand, malformed entries, and
finally 100 Demolishers on a free edge tile (unaffordable amount: only the
affordable prefix can be accepted).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402


def on_turn(state):
    sh = state.sh
    wall, turret, scout, demo = sh.wall, sh.turret, sh.scout, sh.demolisher
    build, deploy = [], []

    # The one legal wall: first free own-edge tile, else first free own-half tile.
    candidates = [t for t in ta.own_edge_tiles() if not state.occupied(*t)]
    candidates += [t for t in state.free_own_half_tiles() if t not in candidates]
    legal = candidates[0] if candidates else None
    if legal is not None:
        build.append([wall, legal[0], legal[1]])
        build.append([wall, legal[0], legal[1]])      # occupied (earlier in same line)
        build.append([turret, legal[0], legal[1]])    # occupied, other type
    for u in state.me.structures()[:3]:
        build.append([turret, u.x, u.y])               # occupied by our structure
    for u in state.enemy.structures()[:2]:
        build.append([wall, u.x, u.y])                 # enemy structure, enemy half
        build.append([sh.remove, u.x, u.y])            # RM of an enemy structure
        if sh.upgrade:
            build.append([sh.upgrade, u.x, u.y])       # UP of an enemy structure
    build += [
        [wall, 0, 0], [wall, -1, 5], [wall, 28, 13], [wall, 30, 30],   # off board
        [wall, 27, 0], [turret, 0, 12], [turret, 1000000, -1000000],   # off board
        [wall, 13, 14], [turret, 10, 20], [wall, 14, 27],              # enemy half
        ["ZZ", 13, 10], ["", 12, 10], ["zz", 12, 9],                   # unknown shorthand
        [scout, 13, 12],                                               # mobile in build line, not on edge
        [wall], [wall, "a", 3], [wall, 3], [], [wall, None, None],     # malformed
        [1, 2, 3], wall, 17, None, {wall: [13, 12]}, [wall, [13], [12]],
        [sh.remove, 13, 6], [sh.remove, -3, -3],                       # RM on empty / off board
    ]
    if sh.upgrade:
        build += [[sh.upgrade, 12, 6], [sh.upgrade, 99, 99]]           # UP on empty / off board

    if legal is not None and legal in ta.own_edge_tiles():
        deploy.append([scout, legal[0], legal[1]])     # edge tile occupied by our wall
    deploy += [
        [scout, 13, 5], [scout, 10, 10], [scout, 13, 13],              # own half, not an edge
        [scout, 13, 27], [scout, 14, 27], [scout, 0, 14], [scout, 27, 14],  # enemy edges
        [scout, 0, 0], [scout, -1, 14], [scout, 28, 0],                # off board
        ["ZZ", 13, 0], ["ZZ", 14, 0],                                  # unknown shorthand
        [scout], [scout, "a", 3], [scout, 14], [], scout, 3.5, None,     # malformed
    ]
    free_edges = [t for t in ta.own_edge_tiles() if not state.occupied(*t) and t != legal]
    dx, dy = free_edges[-1] if free_edges else (14, 0)
    deploy += [[demo, dx, dy]] * 100                   # unaffordable amount
    return build, deploy


if __name__ == "__main__":
    ta.run(on_turn)
