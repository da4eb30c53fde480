"""Simulations per second from Python on real turns of a replay, Python-side costs
included: single calls (state copy + both players' commands + the whole action phase +
the outcome read), the batch call (`simulate_many`, Rust threads), and state copies.

    python3 bindings/python/bench/bench_sim.py [--replay PATH] [--turns 10,16] [--seconds S] [--threads N]

Each workload is a turn of the replay re-simulated from its turn frame with the commands
its players gave (read back from action frame 0), and all the replay's turns in a row.
Figures are medians of 7 timed batches. Build the module with `maturin develop --release`
for figures comparable with `terminal-studio bench`.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import replays  # noqa: E402
import terminal_studio as ts  # noqa: E402

DEFAULT_REPLAY = "live-2022/Acceleraizer__c1terminal-algo__1011.replay.gz"
# Candidates per batch call: what an algo tries from one state in a turn.
BATCH = 64


def rate(action, seconds, per_call=1, batches=7):
    """Median items per second of `action` (each call does `per_call` items): per second of
    wall-clock time, and per second of this process's CPU time (all its threads), which a
    busy shared machine disturbs much less."""
    per_batch = seconds / batches
    count = 1
    while True:  # a batch size that takes about per_batch seconds
        began = time.perf_counter()
        for _ in range(count):
            action()
        spent = time.perf_counter() - began
        if spent >= per_batch / 4:
            break
        count *= 2
    count = max(1, int(count * per_batch / spent))
    wall, cpu = [], []
    for _ in range(batches):
        began, used = time.perf_counter(), time.process_time()
        for _ in range(count):
            action()
        wall.append(count * per_call / (time.perf_counter() - began))
        cpu.append(count * per_call / max(time.process_time() - used, 1e-9))
    return statistics.median(wall), statistics.median(cpu)


class Turn:
    """One turn of the replay: its state at the turn frame and both players' lines."""

    def __init__(self, replay, rules, start):
        lines, early_2020 = replays.turn_lines(rules, replay.frames[start], replay.frames[start + 1])
        self.state = ts.GameState(rules, replay.lines[start], early_2020_build=early_2020)
        self.number = self.state.turn
        self.lists = [lines[1][0], lines[1][1], lines[2][0], lines[2][1]]
        self.typed = [rules.commands(line) for line in self.lists]
        self.candidate = dict(zip(("build", "deploy", "opponent_build", "opponent_deploy"), self.typed))
        self.mobiles = sum(1 for s in replay.frames[start + 1].get("events", {}).get("spawn", []) if s[1] in (3, 4, 5))

    def simulate(self, lines):
        trial = self.state.copy()
        trial.apply_turn(*lines)
        return trial.run().p1

    def batch(self, threads):
        return self.state.simulate_many([self.candidate] * BATCH, threads=threads)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replay", help="replay file (default: %s in ../shared/replays)" % DEFAULT_REPLAY)
    parser.add_argument("--turns", default="10,16", help="turn numbers measured one by one (default: 10,16)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measure")
    parser.add_argument("--threads", type=int, help="batch threads (default: one per core)")
    args = parser.parse_args()
    # The default replay is looked up only when no --replay is given.
    path = Path(args.replay) if args.replay else replays.replays_folder() / DEFAULT_REPLAY

    replay = replays.Replay(path)
    rules = ts.Rules(replay.config_line)
    starts = [i for i in range(len(replay.frames) - 1) if replay.phase(i) == 0 and replay.phase(i + 1) == 1]
    turns = [Turn(replay, rules, s) for s in starts]
    by_number = {t.number: t for t in turns}
    wanted = [int(n) for n in args.turns.split(",") if n.strip()]
    missing = [n for n in wanted if n not in by_number]
    if missing:
        sys.exit("turns %s are not in %s (it has %d-%d)" % (missing, path.name, turns[0].number, turns[-1].number))

    print("replay: %s (%d turns)" % (path.name, len(turns)))
    print("sims/s, wall clock (per CPU-second of this process in brackets)")
    print("%-48s %17s %17s %17s" % ("workload", "lists", "Commands", "batch of %d" % BATCH))
    workloads = [("turn %d" % n, [by_number[n]]) for n in wanted] + [("all %d turns" % len(turns), turns)]
    for name, group in workloads:
        frames = sum(t.state.copy().simulate_many([t.candidate])[0].frames_run for t in group)
        if len(group) == 1:
            t = group[0]
            name = "%s: %d units, %d mobile deployed, %d frames" % (name, len(t.state.units()), t.mobiles, frames)
        figures = [
            rate(lambda: [t.simulate(t.lists) for t in group], args.seconds, len(group)),
            rate(lambda: [t.simulate(t.typed) for t in group], args.seconds, len(group)),
            rate(lambda: [t.batch(args.threads) for t in group], args.seconds, len(group) * BATCH),
        ]
        print("%-48s %s" % (name, " ".join("%8.0f (%6.0f)" % f for f in figures)))
    state = by_number[wanted[0]].state if wanted else turns[0].state
    copies, copies_cpu = rate(state.copy, args.seconds)
    print("state copies/s: %.0f (%.0f)  %.2f µs each" % (copies, copies_cpu, 1e6 / copies))
    print("single calls: copy + both players' commands + the whole action phase + the outcome read")
    print("lists: commands as Python lists; Commands: parsed once; batch: simulate_many, %s threads"
          % (args.threads or os.cpu_count()))

if __name__ == "__main__":
    main()
