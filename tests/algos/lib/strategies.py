"""Shared strategies for our test algos (builds on terminal_algo)."""

import terminal_algo as ta

# Fixed defence, own coordinates (y <= 13). Order = build priority.
BUILDER_TURRETS = [(3, 12), (24, 12), (10, 11), (17, 11)]
BUILDER_WALLS = [(2, 13), (3, 13), (4, 13), (23, 13), (24, 13), (25, 13),
                 (9, 12), (10, 12), (11, 12), (16, 12), (17, 12), (18, 12)]
BUILDER_SCOUT_TILE = (14, 0)  # BOTTOM_RIGHT edge


def builder_defence(state):
    """The fixed defence, then its upgrades once it all stands: a Planner with the build line."""
    p = ta.Planner(state)
    for x, y in BUILDER_TURRETS:
        p.place(ta.TURRET, x, y)
    for x, y in BUILDER_WALLS:
        p.place(ta.WALL, x, y)
    # Upgrades only once the whole layout stands (turrets first).
    layout = BUILDER_TURRETS + BUILDER_WALLS
    if all(t in p.mine for t in layout):
        for x, y in layout:
            p.upgrade(x, y)
    return p


def builder_turn(state):
    """Fixed defence, upgrades when affordable, all MP on scouts from one tile."""
    p = builder_defence(state)
    p.spawn_max(ta.SCOUT, *BUILDER_SCOUT_TILE)
    return p.result()
