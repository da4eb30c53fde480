"""Hostile, bounded: allocates 64 MiB at a time until HOSTILE_MB (default 3072, never more
than 4096) and reports how much it holds. The memory is allocated, not touched (zeroed
pages the kernel has not handed out), so even unconfined it costs the machine little."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import hostile  # noqa: E402


CHUNK_MB = 64
HELD = []


def act():
    want = min(int(os.environ.get("HOSTILE_MB", "3072")), 4096)
    while len(HELD) * CHUNK_MB < want:
        HELD.append(bytearray(CHUNK_MB << 20))
    hostile.report("allocated %d MiB" % (len(HELD) * CHUNK_MB))


if __name__ == "__main__":
    hostile.run(act)
