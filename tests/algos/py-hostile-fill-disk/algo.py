"""Hostile, bounded: writes a log of HOSTILE_MB MiB (default 200, never more than 256) in
its temp folder (TMPDIR), 1 MiB at a time, and reports its size."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import hostile  # noqa: E402



def act():
    want = min(int(os.environ.get("HOSTILE_MB", "200")), 256)
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "py-hostile-fill-disk.log")
    block = b"x" * (1 << 20)
    with open(path, "wb") as f:
        for _ in range(want):
            f.write(block)
            f.flush()
    hostile.report("wrote %d MiB to %s" % (os.path.getsize(path) >> 20, path))


if __name__ == "__main__":
    hostile.run(act)
