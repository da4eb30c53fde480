"""Hostile: reads a file in the user's home folder, HOME/HOSTILE_SECRET (default
secret.txt), and reports what it read."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import hostile  # noqa: E402


def act():
    path = os.path.join(os.environ["HOME"], os.environ.get("HOSTILE_SECRET", "secret.txt"))
    with open(path) as f:
        hostile.report("read: " + f.read().strip())


if __name__ == "__main__":
    hostile.run(act)
