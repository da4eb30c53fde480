"""Hostile: starts a child meant to outlive it: forked twice (its parent gone), in a session
of its own (out of the algo's process group) and with an empty environment (no mark for
the end-of-match sweep). The child is sleep HOSTILE_SLEEP seconds (default 600); its pid
goes to stderr and HOSTILE_REPORT. Then the algo plays on."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import hostile  # noqa: E402



def act():
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.write(w, str(os.getpid()).encode())
            os.close(w)
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.execve("/bin/sleep", ["sleep", os.environ.get("HOSTILE_SLEEP", "600")], {})
        os._exit(0)
    os.close(w)
    child = os.read(r, 32).decode()
    os.close(r)
    hostile.report("orphan pid " + child)


if __name__ == "__main__":
    hostile.run(act)
