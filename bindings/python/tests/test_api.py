"""The module's API as an algo uses it: inputs as text or dicts, the engine's checks,
copies, partial runs, outcomes, paths and errors that name what is wrong."""

import copy
import json

import pytest
import replays
import terminal_studio as ts

def turn_frame(replay, turn):
    return next(f for f in replay.frames if f["turnInfo"][0] == 0 and f["turnInfo"][1] == turn)


def test_text_and_dicts_build_the_same_state(replay, rules):
    frame = turn_frame(replay, 10)
    from_dicts = ts.GameState(json.loads(replay.config_line), frame)
    from_text = ts.GameState(rules, json.dumps(frame))
    assert from_dicts.frame() == from_text.frame()
    assert from_dicts.turn == 10 and from_dicts.action_frame == -1
    assert rules.ruleset == "live-2022"


def test_copies_are_independent(replay, rules):
    state = ts.GameState(rules, turn_frame(replay, 10))
    before = state.frame()
    for trial in (state.copy(), copy.copy(state), copy.deepcopy(state)):
        trial.deploy([[rules.shorthand(3), 13, 0]])
        trial.run()
        assert trial.turn == 11
    assert state.frame() == before


def test_rejections_are_reported_with_reasons(rules):
    state = ts.GameState.initial(rules)
    wall = rules.shorthand(0)
    rejected = state.build([[wall, 13, 13], [wall, 13, 13], [wall, 13, 20], [wall, 50, 0]])
    assert [(r.x, r.y, r.code) for r in rejected] == [(13, 13, "occupied"), (13, 20, "enemy_half"), (50, 0, "off_board")]
    assert state.structure_at(13, 13).owner == 1
    rejected = state.deploy([[3, 13, 5]])  # a unit type number works as the shorthand
    assert rejected[0].code == "not_an_edge" and "edge" in rejected[0].reason
    # The opponent plays on the top half, in the same (the algo's) coordinates.
    assert state.build([[wall, 13, 14]], player=2) == []
    assert state.structure_at(13, 14).owner == 2


def test_cannot_afford_what_the_stats_do_not_allow(rules):
    state = ts.GameState.initial(rules)
    scout = rules.shorthand(3)
    mp = state.mp()
    count = int(mp // rules.cost(3)[1])
    rejected = state.deploy([[scout, 13, 0]] * (count + 2))
    assert [r.code for r in rejected] == ["cannot_afford", "cannot_afford"]
    assert state.mp() < rules.cost(3)[1]


def test_outcome_counts_breaches_and_losses(rules):
    state = ts.GameState.initial(rules)
    scout = rules.shorthand(3)
    state.deploy([[scout, 13, 0]] * 5)
    outcome = state.run(record_paths=True)
    assert outcome.turn_finished and not outcome.game_over
    assert outcome.p1.breaches == 5 and outcome.p1.breach_damage == 5.0
    assert sum(outcome.p1.breach_tiles.values()) == 5
    assert outcome.p2.hp == state.hp(2) == 25.0
    assert outcome.player(1).breaches == 5
    path = state.predicted_path(13, 0)
    assert all(walk == path for walk in outcome.paths.values())
    assert state.turn == 1 and state.action_frame == -1


def test_run_in_steps_equals_one_run(replay, rules):
    state = ts.GameState(rules, turn_frame(replay, 10))
    scout = rules.shorthand(3)
    state.apply_turn(deploy=[[scout, 14, 0]] * 4, opponent_deploy=[[scout, 13, 27]] * 3)
    whole = state.copy().run(record_frames=True)
    stepped = []
    while True:
        part = state.run(5, record_frames=True)
        stepped += part.frames
        if part.turn_finished:
            break
        assert part.frames_run == 5 and state.action_frame >= 0
    assert stepped == whole.frames


def test_predicted_paths_cover_free_edge_tiles(replay, rules):
    state = ts.GameState(rules, turn_frame(replay, 10))
    paths = state.predicted_paths()
    assert paths and all(start == path[0] for start, path in paths.items())
    for (x, y), path in paths.items():
        assert state.predicted_path(x, y) == path
    with pytest.raises(ValueError, match="edge"):
        state.predicted_path(13, 5)
    assert all(y >= 14 for (_, y) in state.predicted_paths(2))


def test_bad_input_raises_naming_the_field(rules):
    with pytest.raises(ValueError, match="unitInformation"):
        ts.Rules({"unitInformation": "nope"})
    with pytest.raises(ValueError, match="not valid JSON"):
        ts.Rules("{not json")
    with pytest.raises(ValueError, match="p1Stats"):
        ts.GameState(rules, {"turnInfo": [0, 1, -1, 5], "p1Stats": "x"})
    with pytest.raises(ValueError, match="turn frame"):
        ts.GameState(rules, {"turnInfo": [1, 1, 0, 5]})
    state = ts.GameState.initial(rules)
    with pytest.raises(ValueError, match=r"commands\[1\]: unknown shorthand"):
        state.build([[rules.shorthand(0), 13, 13], ["ZZ", 1, 1]])
    with pytest.raises(ValueError, match="player must be 1"):
        state.hp(3)


def test_2018_rules_are_simulated_and_unknown_rules_refused():
    legacy = replays.replays_folder() / "legacy-2018"
    config = json.loads(replays.Replay(replays.replay_files(legacy)[-1]).config_line)
    rules = ts.Rules(config)
    assert rules.shorthand(0) == "FF"
    config["mechanics"]["meleeMultiplier"] = 0.5
    with pytest.raises(ts.UnsupportedRules, match="meleeMultiplier"):
        ts.Rules(config)
    assert issubclass(ts.UnsupportedRules, ValueError)


def test_frame_difference_names_the_field(replay):
    frame = turn_frame(replay, 10)
    assert ts.frame_difference(frame, frame) is None
    changed = json.loads(json.dumps(frame))
    changed["p1Stats"][0] += 1
    assert "stats" in ts.frame_difference(frame, changed).lower()
