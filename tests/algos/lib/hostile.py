"""Shared by the py-hostile-* algos: play idle, and at turn HOSTILE_TURN (env, default 1)
do the one hostile thing the algo is named for, before answering. Every target comes from
the environment the test sets (HOSTILE_TARGET and kin), pointing into a folder the test
owns, and every act is bounded, so that nothing real is harmed even when the algo runs
unconfined. What the act achieved is written to HOSTILE_REPORT (a file the test owns)
when the act was not stopped; a confined algo that is refused raises, and so crashes at
that turn, its traceback last on stderr. Without HOSTILE_REPORT the algo only plays idle
(selftest.py, or a stray run, does nothing hostile)."""

import os
import sys

import terminal_algo as ta

TURN = int(os.environ.get("HOSTILE_TURN", "1"))


def report(text):
    """Says what the act achieved on stderr, and writes it where the test looks if it may
    (a confined algo may not write there; the stderr line is then the only report)."""
    ta.debug("hostile: " + text)
    path = os.environ.get("HOSTILE_REPORT")
    if path:
        try:
            with open(path, "w") as f:
                f.write(text)
        except OSError as e:
            ta.debug("hostile: no report file: %s" % e)


def run(act):
    """Plays idle; runs `act()` once, at turn TURN, before answering, if a test asked for it."""
    done = [] if os.environ.get("HOSTILE_REPORT") else [False]
    if done:
        ta.debug("hostile: HOSTILE_REPORT not set: playing idle, doing nothing hostile")

    def on_turn(state):
        if state.turn >= TURN and not done:
            done.append(True)
            act()
            sys.stderr.flush()
        return [], []

    ta.run(on_turn)
