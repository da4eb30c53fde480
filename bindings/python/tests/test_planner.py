"""The attack planner from Python: best_attacks on a real turn, each of its best deploys
played through the engine on a copy of the state ends as the planner said."""

import pytest
import terminal_studio as ts
from test_simulate import turn


def test_best_attacks_play_back_as_predicted(replay, rules):
    state, lines = turn(replay, rules, 12)
    # The defence as it stands after the turn's builds: both players' recorded builds.
    state.build(lines[0], 1)
    state.build(lines[2], 2)
    best = ts.best_attacks(state, 1, top=3)
    assert len(best) == 3 and [c["rank"] for c in best] == [1, 2, 3]
    keys = [(c["damage"], c["sp_destroyed"], -c["mp_spent"]) for c in best]
    assert keys == sorted(keys, reverse=True), "best first"
    for c in best:
        assert c["mp_spent"] <= state.mp(1)
        assert sum(g["count"] for g in c["groups"]) == len(c["deploy"])
        trial = state.copy()
        assert trial.deploy(c["deploy"], 1) == []
        outcome = trial.run()
        if c["damage"] >= state.hp(2):
            continue  # The game ends mid-attack; the planner counts every breach.
        assert (outcome.p1.breaches, outcome.p1.breach_damage) == (c["breaches"], c["damage"])
        assert outcome.p1.sp_destroyed == pytest.approx(c["sp_destroyed"])


def test_best_attacks_are_distinct_rows(replay, rules):
    state, lines = turn(replay, rules, 12)
    state.build(lines[0], 1)
    state.build(lines[2], 2)
    rows = ts.best_attacks(state, 1, top=10)
    every = ts.best_attacks(state, 1, top=10, distinct=False)
    assert 1 <= len(rows) <= 10 and [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    # The best row is the best deploy; the rows stand for more deploys than they list.
    assert rows[0]["deploy"] == every[0]["deploy"]
    assert len(rows) + sum(r["alike"] for r in rows) >= len(every)
    for r in rows:
        assert r["recorded"] is False, "a state has no recorded deploy"
        assert r["summary"] and r["start_tiles"]
        assert r["damage_per_mp"] == pytest.approx(r["damage"] / r["mp_spent"], rel=1e-5)
    assert all("alike" not in c for c in every)


def test_best_attacks_takes_mp_and_player(replay, rules):
    state, _ = turn(replay, rules, 12)
    assert all(c["mp_spent"] <= 3 for c in ts.best_attacks(state, 2, top=5, mp=3, groups=1))
    assert ts.best_attacks(state, 1, mp=0) == []
    with pytest.raises(ValueError, match="player must be 1"):
        ts.best_attacks(state, 3)
