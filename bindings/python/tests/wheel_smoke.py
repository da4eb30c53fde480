"""Run by CI with the Python of a clean venv into which only the built wheel was installed:
the module imports from there (not from the source tree) and plays, simulates and
pickles. Not a pytest module: it needs that venv.

    python wheel_smoke.py CONFIG_JSON
"""

import pickle
import sys
from pathlib import Path

import terminal_studio as ts


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wheel_smoke.py CONFIG_JSON")
    source_tree = Path(__file__).resolve().parents[1]
    installed = Path(ts._engine.__file__).resolve()
    assert source_tree not in installed.parents, "imported from the source tree: %s" % installed
    rules = ts.Rules(Path(sys.argv[1]).read_text())
    scout = rules.shorthand(3)

    match = ts.Match(rules)
    while not match.game_over:
        state = match.state(1)
        starts = sorted(state.predicted_paths())
        outcomes = state.simulate_many([[[scout, x, y]] * int(state.mp()) for x, y in starts])
        best = max(range(len(starts)), key=lambda i: outcomes[i].p1.breach_damage)
        x, y = starts[best]
        match.play(None, [[scout, x, y]] * int(state.mp()), None, None)
    assert match.winner == 1, "seat 1 attacks an empty board: it wins (%r)" % match

    state = ts.GameState.initial(rules)
    state.deploy([[scout, 13, 0]] * 5)
    state.run(3)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.run().p1.breaches == state.run().p1.breaches == 5
    print("wheel OK: %s; a match of %d turns, won by seat %d" % (installed, match.turn, match.winner))


if __name__ == "__main__":
    main()
