"""Simulations per second from Python: one mid-game turn of a real replay (about 20 mobile
units deployed), re-simulated from a copy of its state, Python-side overhead included;
and full state copies per second.

    python3 bindings/python/bench/bench_sim.py [--replay PATH] [--turn N] [--seconds S]

Without --turn, the turn whose deploy is closest to 20 mobile units is taken. Build the
module with `maturin develop --release` for figures comparable with `terminal-studio bench`.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import replays  # noqa: E402
import terminal_studio as ts  # noqa: E402

DEFAULT_REPLAY = "live-2022/Acceleraizer__c1terminal-algo__1011.replay.gz"
TARGET_MOBILES = 20


def mobile_spawns(frame):
    return sum(1 for s in frame.get("events", {}).get("spawn", []) if s[1] in (3, 4, 5))


def pick_turn(replay):
    """The turn frame index whose action frame 0 deploys closest to 20 mobile units."""
    starts = [i for i in range(len(replay.frames) - 1) if replay.phase(i) == 0 and replay.phase(i + 1) == 1]
    return min(starts, key=lambda i: abs(mobile_spawns(replay.frames[i + 1]) - TARGET_MOBILES))


def rate(action, seconds, batches=7):
    """Median calls per second of `action` over `batches` timed batches."""
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
    rates = []
    for _ in range(batches):
        began = time.perf_counter()
        for _ in range(count):
            action()
        rates.append(count / (time.perf_counter() - began))
    return statistics.median(rates)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replay", default=str(replays.replays_folder() / DEFAULT_REPLAY))
    parser.add_argument("--turn", type=int, help="turn number (default: about 20 mobile units)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measure")
    args = parser.parse_args()

    replay = replays.Replay(Path(args.replay))
    rules = ts.Rules(replay.config_line)
    if args.turn is None:
        start = pick_turn(replay)
    else:
        start = next(i for i, f in enumerate(replay.frames) if f["turnInfo"][:2] == [0, args.turn])
    lines, early_2020 = replays.turn_lines(rules, replay.frames[start], replay.frames[start + 1])
    state = ts.GameState(rules, replay.lines[start], early_2020_build=early_2020)

    def simulate():
        trial = state.copy()
        trial.apply_turn(lines[1][0], lines[1][1], lines[2][0], lines[2][1])
        return trial.run()

    outcome = simulate()
    units = len(state.units())
    print("replay: %s" % Path(args.replay).name)
    print(
        "turn %d: %d units on the board, %d mobile units deployed, %d action frames"
        % (state.turn, units, mobile_spawns(replay.frames[start + 1]), outcome.frames_run)
    )
    sims = rate(simulate, args.seconds)
    copies = rate(state.copy, args.seconds)
    print("simulations/s (copy + commands + whole turn + outcome): %.0f  (%.1f µs each)" % (sims, 1e6 / sims))
    print("action frames/s within them: %.0f" % (sims * outcome.frames_run))
    print("state copies/s: %.0f  (%.2f µs each)" % (copies, 1e6 / copies))


if __name__ == "__main__":
    main()
