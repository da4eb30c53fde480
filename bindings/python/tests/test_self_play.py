"""A whole match in-process: two Python policies, each reading its own view and answering
in it, played to the end; the verifier re-simulates the replay the match writes."""

import json
import subprocess

import pytest
import replays
import terminal_studio as ts
from replays import studio_binary

RULESETS = ["live-2022", "citadel-2026"]


def rules_of(ruleset):
    folder = replays.replays_folder() / ruleset
    files = replays.replay_files(folder)
    assert files, "no replay in %s to take the config from" % folder
    return ts.Rules(replays.config_line(files[0]))


def wall_builder(rules, frame, turn):
    """Walls and turrets on its own half, scouts every other turn from one corner."""
    wall, turret, scout = rules.shorthand(0), rules.shorthand(2), rules.shorthand(3)
    build = [[turret, x, 12] for x in (3, 24, 10, 17)] + [[wall, x, 13] for x in range(4, 24, 3)]
    mp = frame["p1Stats"][2]
    deploy = [[scout, 13, 0]] * int(mp) if turn % 2 else []
    return build, deploy


def searcher(rules, state):
    """Tries every free edge tile for all its MP in scouts (one batch call) and keeps the
    tile whose scouts do the most breach damage; builds turrets in the middle."""
    turret, scout = rules.shorthand(2), rules.shorthand(3)
    build = [[turret, x, 11] for x in (12, 15, 9, 18)]
    count = int(state.mp())
    starts = sorted(state.predicted_paths())
    if not count or not starts:
        return build, []
    candidates = [{"build": build, "deploy": [[scout, x, y]] * count} for x, y in starts]
    outcomes = state.simulate_many(candidates)
    best = max(range(len(starts)), key=lambda i: (outcomes[i].p1.breach_damage, -i))
    x, y = starts[best]
    return build, [[scout, x, y]] * count


def verify(path):
    run = subprocess.run([str(studio_binary()), "verify", "--json", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout.splitlines()[0])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_match_of_two_python_policies_writes_a_replay_verify_finds_exact(ruleset, tmp_path):
    rules = rules_of(ruleset)
    match = ts.Match(rules, names=("builder", "searcher"))
    turns = 0
    while not match.game_over:
        one, two = match.frame(1), match.frame(2)
        # Each seat sees itself as player 1, at the bottom.
        assert one["p1Stats"][0] == match.hp(1) and two["p1Stats"][0] == match.hp(2)
        assert one["turnInfo"][:2] == two["turnInfo"][:2] == [0, match.turn]
        build_1, deploy_1 = wall_builder(rules, one, match.turn)
        state = match.state(2)
        assert state.mp() == match.mp(2) and state.turn == match.turn
        build_2, deploy_2 = searcher(rules, state)
        rejected_1, rejected_2 = match.play(build_1, deploy_1, build_2, deploy_2)
        # Each seat's rejections are in its own view (its half is y <= 13).
        assert all(r.player == 1 and r.y <= 13 for r in rejected_1)
        assert all(r.player == 2 and r.y <= 13 for r in rejected_2)
        turns += 1
        assert turns <= 100, "the turn limit ends every match"
    end = match.frame(1)
    assert end["turnInfo"][0] == 2 and end["endStats"]["winner"] == match.winner
    assert match.frame(2)["endStats"]["winner"] == 3 - match.winner
    assert min(match.hp(1), match.hp(2)) <= 0 or match.turn == 100
    path = tmp_path / "self-play.replay"
    match.write_replay(path)
    report = verify(path)
    assert report["status"] == "exact", report
    assert report["frames_total"] > 2 * turns and report["frames_exact"] == report["frames_total"]


def test_submit_and_step_equal_play_and_seats_see_their_action_frames():
    rules = rules_of("live-2022")
    scout = rules.shorthand(3)
    played = ts.Match(rules)
    stepped = ts.Match(rules, record=False, action_frames=True)
    for match in (played, stepped):
        for _ in range(3):
            if match is played:
                match.play(None, [[scout, 13, 0]] * 5, None, [[scout, 14, 0]] * 5)
            else:
                match.submit(1, deploy=[[scout, 13, 0]] * 5)
                match.submit(2, deploy=rules.commands([[scout, 14, 0]] * 5))
                match.step()
    assert played.frame(1) == stepped.frame(1) and played.frame(2) == stepped.frame(2)
    frames = stepped.action_frames(2)
    assert frames and all(f["turnInfo"][0] == 1 for f in frames)
    # Seat 2's scouts spawn at its own (14, 0).
    spawns = [s for s in frames[0]["events"]["spawn"] if s[3] == 1]
    assert spawns and all(s[0] == [14, 0] for s in spawns)
    with pytest.raises(ValueError, match="without recording"):
        stepped.write_replay("never.replay")
    with pytest.raises(ValueError, match="seat must be 1 or 2"):
        stepped.frame(3)
