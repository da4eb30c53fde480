"""Random but legal play, reproducible: seeded from env ALGO_SEED (default 1)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

import random  # noqa: E402

rng = random.Random(int(os.environ.get("ALGO_SEED", "1")))


def on_turn(state):
    p = ta.Planner(state)
    # Occasionally mark one of our structures for removal (legal, free).
    mine = sorted(p.mine)
    if mine and rng.random() < 0.1:
        x, y = rng.choice(mine)
        p.build.append([state.sh.remove, x, y])
    # Random structures on free own-half tiles while SP lasts.
    free = state.free_own_half_tiles()
    rng.shuffle(free)
    for _ in range(rng.randint(0, 12)):
        if not free:
            break
        x, y = free.pop()
        p.place(rng.choice(ta.STRUCTURE_TYPES), x, y)
    # Random upgrades of our structures.
    for x, y in sorted(p.mine):
        if rng.random() < 0.2:
            p.upgrade(x, y)
    # Random mobiles on free own-edge tiles while MP lasts.
    edges = [t for t in ta.own_edge_tiles() if t not in p.taken]
    for _ in range(rng.randint(0, 20)):
        if not edges:
            break
        x, y = rng.choice(edges)
        p.spawn(rng.choice(ta.MOBILE_TYPES), x, y)
    return p.result()


if __name__ == "__main__":
    ta.run(on_turn)
