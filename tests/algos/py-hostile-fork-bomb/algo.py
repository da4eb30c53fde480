"""Hostile, bounded: forks HOSTILE_FORKS children (default 200, never more than 300) that
each sleep, then reports how many it got. Each child sleeps at most 10 minutes and is in
the algo's process group, so the match's end kills them all even unconfined."""

import time

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import hostile  # noqa: E402


MAX_FORKS = 300


def act():
    n = min(int(os.environ.get("HOSTILE_FORKS", "200")), MAX_FORKS)
    got = 0
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        got += 1
    # Stay in this turn a moment with the whole tree alive: the confinement's watcher looks
    # every 100 ms, and on a loaded machine it may run late; the test expects the stop in
    # this turn, not a few quick turns after it.
    time.sleep(2)
    hostile.report("forked %d" % got)


if __name__ == "__main__":
    hostile.run(act)
