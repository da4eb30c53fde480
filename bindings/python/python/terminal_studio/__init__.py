"""Terminal Studio's engine inside an algo: build the state an algo sees from the config
line and the turn frame it received, copy it, give both players commands, simulate the
action phase and read the outcome — with the same results as the official engine.

Everything is in the algo's own view: player 1 is the algo (bottom half, y <= 13),
player 2 the opponent. See docs/python.md.

    import terminal_studio as ts
    rules = ts.Rules(config_line)
    state = ts.GameState(rules, turn_frame)
    trial = state.copy()
    trial.deploy([["PI", 13, 0]] * 5)
    outcome = trial.run()
    print(outcome.p1.breaches, outcome.p1.breach_damage)
"""

from ._engine import (
    Commands,
    GameState,
    Match,
    Outcome,
    PlayerOutcome,
    Rejection,
    Rules,
    Unit,
    UnsupportedRules,
    best_attacks,
    frame_difference,
)

__all__ = [
    "Commands",
    "GameState",
    "Match",
    "Outcome",
    "PlayerOutcome",
    "Rejection",
    "Rules",
    "Unit",
    "UnsupportedRules",
    "best_attacks",
    "frame_difference",
]
