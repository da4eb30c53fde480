"""Hostile: writes a file outside its folder, at HOSTILE_TARGET."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import hostile  # noqa: E402


def act():
    with open(os.environ["HOSTILE_TARGET"], "w") as f:
        f.write("written by py-hostile-write\n")
    hostile.report("wrote " + os.environ["HOSTILE_TARGET"])


if __name__ == "__main__":
    hostile.run(act)
