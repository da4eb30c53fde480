"""Minimal stdlib-only helper library for Terminal test algos (written from
docs/protocol.md and docs/mechanics.md; no third-party code).

Usage from an algo file:

    import os, sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    import terminal_algo as ta

    def on_turn(state):
        return [[state.sh.wall, 13, 13]], [[state.sh.scout, 13, 0]]

    ta.run(on_turn)

Protocol recap: one config line (contains "replaySave"), then frames. For each
turn frame (turnInfo[0] == 0) we print exactly two lines (build, deploy) and
flush. Action frames (phase 1) get no answer; the end frame (phase 2) or EOF
ends the program. Everything for humans goes to stderr (debug()).
"""

import json
import sys

# Unit type indices (docs/config.md, Unit types).
WALL, SUPPORT, TURRET, SCOUT, DEMOLISHER, INTERCEPTOR, REMOVE, UPGRADE = range(8)
STRUCTURE_TYPES = (WALL, SUPPORT, TURRET)
MOBILE_TYPES = (SCOUT, DEMOLISHER, INTERCEPTOR)

ARENA_SIZE = 28
HALF = 14


def debug(*args):
    """Debug output: stderr only (stdout is the command channel)."""
    print(*args, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- board

def in_arena(x, y):
    """Tile (x, y) is in play (docs/mechanics.md, Board)."""
    if not (isinstance(x, int) and isinstance(y, int)):
        return False
    if y < 0 or y > 27:
        return False
    if y <= 13:
        return 13 - y <= x <= 14 + y
    return y - 14 <= x <= 41 - y


def on_own_half(x, y):
    return in_arena(x, y) and y <= 13


def own_half_tiles():
    return [(x, y) for y in range(HALF) for x in range(ARENA_SIZE) if in_arena(x, y)]


def bottom_left_edge():
    """Own edge x + y = 13: (13 - i, i)."""
    return [(13 - i, i) for i in range(HALF)]


def bottom_right_edge():
    """Own edge x - y = 14: (14 + i, i)."""
    return [(14 + i, i) for i in range(HALF)]


def own_edge_tiles():
    return bottom_left_edge() + bottom_right_edge()


# ---------------------------------------------------------------- config

class Shorthands:
    """Shorthands by role, read from config unitInformation[i]["shorthand"]."""

    def __init__(self, unit_info):
        names = [u.get("shorthand") for u in unit_info]
        self.by_index = names

        def get(i):
            return names[i] if i < len(names) else None

        self.wall = get(WALL)
        self.support = get(SUPPORT)
        self.turret = get(TURRET)
        self.scout = get(SCOUT)
        self.demolisher = get(DEMOLISHER)
        self.interceptor = get(INTERCEPTOR)
        self.remove = get(REMOVE)
        self.upgrade = get(UPGRADE)  # None in the legacy (7-type) format

    def index_of(self, shorthand):
        try:
            return self.by_index.index(shorthand)
        except ValueError:
            return None


class Config:
    def __init__(self, raw):
        self.raw = raw
        self.unit_info = raw.get("unitInformation", [])
        self.sh = Shorthands(self.unit_info)
        self.resources = raw.get("resources", {})

    def unit(self, type_index):
        if 0 <= type_index < len(self.unit_info):
            return self.unit_info[type_index]
        return {}

    def is_structure(self, type_index):
        cat = self.unit(type_index).get("unitCategory")
        if cat is not None:
            return cat == 0
        return type_index in STRUCTURE_TYPES

    def is_mobile(self, type_index):
        cat = self.unit(type_index).get("unitCategory")
        if cat is not None:
            return cat == 1
        return type_index in MOBILE_TYPES

    def cost(self, type_index):
        """(SP, MP) price of a unit: cost1 = SP, cost2 = MP (absent = 0)."""
        u = self.unit(type_index)
        if "cost1" not in u and "cost2" not in u and "cost" in u:
            # Legacy format (docs/config.md, The 2018–2019 format): one `cost`, SP for structures, MP for mobiles.
            c = float(u["cost"])
            return (0.0, c) if self.is_mobile(type_index) else (c, 0.0)
        return float(u.get("cost1", 0.0)), float(u.get("cost2", 0.0))

    def can_upgrade(self, type_index):
        return isinstance(self.unit(type_index).get("upgrade"), dict)

    def upgrade_cost(self, type_index):
        """Upgrade price, copy-then-patch: upgrade.cost1 if present else base cost1
        (same for cost2). None if the type has no upgrade section."""
        u = self.unit(type_index)
        up = u.get("upgrade")
        if not isinstance(up, dict):
            return None
        sp = up.get("cost1", u.get("cost1", 0.0))
        mp = up.get("cost2", u.get("cost2", 0.0))
        return float(sp), float(mp)

    def cost_of(self, shorthand):
        i = self.sh.index_of(shorthand)
        return None if i is None else self.cost(i)


# ---------------------------------------------------------------- state

class Unit:
    __slots__ = ("type", "x", "y", "health", "id")

    def __init__(self, type_index, entry):
        self.type = type_index
        self.x = int(entry[0])
        self.y = int(entry[1])
        self.health = float(entry[2]) if len(entry) > 2 else 0.0
        self.id = str(entry[3]) if len(entry) > 3 else ""

    def __repr__(self):
        return "Unit(t=%d,(%d,%d),hp=%s,id=%s)" % (self.type, self.x, self.y, self.health, self.id)


class PlayerState:
    def __init__(self, stats, units):
        stats = list(stats or []) + [0, 0, 0, 0]
        self.hp = float(stats[0])
        self.sp = float(stats[1])
        self.mp = float(stats[2])
        self.time_ms = int(stats[3] or 0)
        # units[i] = list of Unit of type i (list 6 = removal marks, 7 = upgrades)
        self.units = [[Unit(i, e) for e in (lst or [])] for i, lst in enumerate(units or [])]

    def of_type(self, type_index):
        return self.units[type_index] if type_index < len(self.units) else []

    def structures(self):
        return [u for t in STRUCTURE_TYPES for u in self.of_type(t)]

    def upgraded_tiles(self):
        return {(u.x, u.y) for u in self.of_type(UPGRADE)}


class GameState:
    def __init__(self, config, frame):
        self.config = config
        self.sh = config.sh
        self.frame = frame
        ti = frame.get("turnInfo", [0, 0, -1, 0])
        self.phase = int(ti[0])
        self.turn = int(ti[1]) if len(ti) > 1 else 0
        self.action_frame = int(ti[2]) if len(ti) > 2 else -1
        self.total_frame = int(ti[3]) if len(ti) > 3 else None
        self.me = PlayerState(frame.get("p1Stats"), frame.get("p1Units"))
        self.enemy = PlayerState(frame.get("p2Stats"), frame.get("p2Units"))
        self.events = frame.get("events", {})
        # Occupied tiles (structures of either player; mobiles never block).
        self.structure_at = {}
        for p in (self.me, self.enemy):
            for u in p.structures():
                self.structure_at[(u.x, u.y)] = u

    def occupied(self, x, y):
        return (x, y) in self.structure_at

    def free_own_half_tiles(self):
        return [t for t in own_half_tiles() if t not in self.structure_at]

    def free_own_edge_tiles(self):
        return [t for t in own_edge_tiles() if t not in self.structure_at]


class Planner:
    """Helps a strategy build legal command lists within its budget."""

    def __init__(self, state):
        self.state = state
        self.config = state.config
        self.sp = state.me.sp
        self.mp = state.me.mp
        self.build = []
        self.deploy = []
        self.taken = set(state.structure_at)
        self.upgraded = set(state.me.upgraded_tiles())
        self.mine = {(u.x, u.y): u.type for u in state.me.structures()}

    def _pay(self, sp, mp):
        if sp > self.sp + 1e-9 or mp > self.mp + 1e-9:
            return False
        self.sp = round(self.sp - sp, 1)
        self.mp = round(self.mp - mp, 1)
        return True

    def place(self, type_index, x, y):
        if not on_own_half(x, y) or (x, y) in self.taken:
            return False
        if not self._pay(*self.config.cost(type_index)):
            return False
        self.taken.add((x, y))
        self.mine[(x, y)] = type_index
        self.build.append([self.config.sh.by_index[type_index], x, y])
        return True

    def upgrade(self, x, y):
        t = self.mine.get((x, y))
        if t is None or (x, y) in self.upgraded or self.config.sh.upgrade is None:
            return False
        c = self.config.upgrade_cost(t)
        if c is None or not self._pay(*c):
            return False
        self.upgraded.add((x, y))
        self.build.append([self.config.sh.upgrade, x, y])
        return True

    def spawn(self, type_index, x, y, count=1):
        if (x, y) not in own_edge_tiles() or (x, y) in self.taken:
            return 0
        cost = self.config.cost(type_index)
        if cost == (0.0, 0.0):
            count = min(count, 1)  # free unit (odd config): never loop forever
        n = 0
        while n < count and self._pay(*cost):
            self.deploy.append([self.config.sh.by_index[type_index], x, y])
            n += 1
        return n

    def spawn_max(self, type_index, x, y):
        return self.spawn(type_index, x, y, count=10 ** 4)

    def result(self):
        return self.build, self.deploy


# ---------------------------------------------------------------- main loop

def send_lines(*lines):
    """Write raw lines to stdout and flush (the engine reads them as commands)."""
    out = sys.stdout
    for line in lines:
        out.write(line + "\n")
    out.flush()


def send_reply(build, deploy):
    send_lines(json.dumps(list(build or [])), json.dumps(list(deploy or [])))


def run(on_turn, on_action_frame=None, on_config=None, on_end=None, raw_reply=False):
    """Main loop.

    on_turn(state) -> (build_entries, deploy_entries); called on every phase-0
    frame. If raw_reply is True, on_turn instead returns two strings printed
    verbatim (for misbehaving test algos), or None to print nothing itself.
    on_action_frame(state), on_config(config), on_end(state) are optional.
    """
    config = None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if config is None and "replaySave" in line:
            try:
                config = Config(json.loads(line))
            except ValueError as e:
                debug("bad config line:", e)
                config = Config({})
            if on_config:
                on_config(config)
            continue
        try:
            frame = json.loads(line)
        except ValueError as e:
            debug("bad frame line:", e)
            continue
        if not isinstance(frame, dict):
            continue
        if config is None:
            debug("frame before config; using empty config")
            config = Config({})
        state = GameState(config, frame)
        if state.phase == 0:
            result = on_turn(state)
            if raw_reply:
                if result is not None:
                    send_lines(*result)
            else:
                build, deploy = result if result is not None else ([], [])
                send_reply(build, deploy)
        elif state.phase == 1:
            if on_action_frame:
                on_action_frame(state)
        elif state.phase == 2:
            if on_end:
                on_end(state)
            break
    sys.stdout.flush()
