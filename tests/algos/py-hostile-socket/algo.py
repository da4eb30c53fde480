"""Hostile: opens a TCP connection to 127.0.0.1:HOSTILE_PORT and sends a line."""

import socket

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import hostile  # noqa: E402


def act():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(("127.0.0.1", int(os.environ["HOSTILE_PORT"])))
    s.sendall(b"py-hostile-socket was here\n")
    s.close()
    hostile.report("connected")


if __name__ == "__main__":
    hostile.run(act)
