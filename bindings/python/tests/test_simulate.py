"""What a search uses: commands parsed once, figures as the frames print them, the batch
call, pickled states (mid-turn too) and runs that leave the GIL to other threads."""

import pickle
import sys
import threading

import pytest
import replays
import terminal_studio as ts


def turn(replay, rules, number):
    """A real turn: the state at its turn frame and both players' four lines."""
    start = next(i for i, f in enumerate(replay.frames) if f["turnInfo"][:2] == [0, number])
    lines, early_2020 = replays.turn_lines(rules, replay.frames[start], replay.frames[start + 1])
    state = ts.GameState(rules, replay.lines[start], early_2020_build=early_2020)
    return state, [lines[1][0], lines[1][1], lines[2][0], lines[2][1]]


def summary(outcome):
    p1, p2 = outcome.p1, outcome.p2
    return (outcome.frames_run, p1.breaches, p1.breach_damage, p1.sp_destroyed, p2.breaches, p2.mp_lost, p1.hp, p2.hp)


def test_commands_parsed_once_act_as_the_lists(replay, rules):
    state, lines = turn(replay, rules, 16)
    typed = [ts.Commands(rules, line) for line in lines]
    assert len(typed[1]) == len(lines[1]) and typed[1].entries()[0][0] == lines[1][0][0]
    from_lists, from_typed = state.copy(), state.copy()
    from_lists.apply_turn(*lines)
    from_typed.apply_turn(*typed)
    assert from_lists.frame() == from_typed.frame()
    assert summary(from_lists.run()) == summary(from_typed.run())
    assert rules.commands([["PI", 13, 0]]).entries() == [(3, 13, 0)]
    with pytest.raises(ValueError, match=r"commands\[0\]: unknown shorthand"):
        ts.Commands(rules, [["ZZ", 1, 1]])
    with pytest.raises(ValueError, match=r"commands\[1\]: expected \[shorthand, x, y\]"):
        rules.commands([["PI", 13, 0], ["PI", 13]])


def test_figures_read_as_the_frames_print_them(replay, rules):
    state, lines = turn(replay, rules, 16)
    state.apply_turn(*lines)
    state.run()
    frame = state.frame()
    # After the restore MP is a decimal; the frame prints it as such (e.g. 5.7 not 5.69999…).
    assert (state.hp(1), state.sp(1), state.mp(1)) == tuple(frame["p1Stats"][:3])
    assert (state.hp(2), state.sp(2), state.mp(2)) == tuple(frame["p2Stats"][:3])
    listed = {u[3]: u[2] for key in ("p1Units", "p2Units") for units in frame[key][:6] for u in units}
    assert all(u.health == listed[str(u.id)] for u in state.units())
    figures = [state.mp(1), state.mp(2)] + [u.health for u in state.units()]
    assert any(v != int(v) for v in figures), "a fractional figure to check"


def test_simulate_many_equals_one_run_each_and_leaves_the_state(replay, rules):
    state, lines = turn(replay, rules, 16)
    before = state.frame()
    scout = rules.shorthand(3)
    candidates = [
        {"build": lines[0], "deploy": lines[1], "opponent_build": lines[2], "opponent_deploy": lines[3]},
        [[scout, 13, 0]] * 5,
        [[scout, 14, 0]] * 5,
        {"deploy": ts.Commands(rules, [[scout, 3, 10]] * 5)},
    ]
    outcomes = state.simulate_many(candidates, opponent_deploy=lines[3], threads=2)
    singles = []
    for candidate in candidates:
        trial = state.copy()
        if isinstance(candidate, dict):
            given = {"opponent_deploy": lines[3], **candidate}
            trial.apply_turn(**given)
        else:
            trial.apply_turn(deploy=candidate, opponent_deploy=lines[3])
        singles.append(summary(trial.run()))
    assert [summary(o) for o in outcomes] == singles
    assert state.frame() == before
    assert all(o.turn_finished for o in outcomes)
    # A candidate the engine partly refuses says so.
    refused = state.simulate_many([[[scout, 13, 5]]])[0].rejected
    assert [r.code for r in refused] == ["not_an_edge"]
    with pytest.raises(ValueError, match=r"candidates\[0\]: unknown key"):
        state.simulate_many([{"deplyo": []}])


def test_a_state_pickled_mid_turn_plays_on_exactly(replay, rules):
    state, lines = turn(replay, rules, 16)
    state.apply_turn(*lines)
    # Between the commands and the run: the spawn events are still pending.
    assert summary(pickle.loads(pickle.dumps(state)).copy().run()) == summary(state.copy().run())
    first = state.run(7)
    assert not first.turn_finished and state.action_frame == 6
    restored = pickle.loads(pickle.dumps(state))
    assert restored.frame() == state.frame()
    assert [(u.id, u.x, u.y, u.health) for u in restored.units()] == [(u.id, u.x, u.y, u.health) for u in state.units()]
    ours = restored.run(record_frames=True)
    theirs = state.run(record_frames=True)
    assert ours.frames == theirs.frames and summary(ours) == summary(theirs)
    assert restored.turn == state.turn == 17


def test_runs_release_the_gil(replay, rules):
    """The main thread keeps running Python while another thread's batch is in the engine.
    With a tiny switch interval, a call that held the GIL would leave it a handful of turns;
    a released GIL leaves it the whole batch."""
    state, lines = turn(replay, rules, 10)
    candidate = dict(zip(("build", "deploy", "opponent_build", "opponent_deploy"), lines))
    worker = threading.Thread(target=state.simulate_many, args=([candidate] * 400,), kwargs={"threads": 1})
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    spins = 0
    try:
        worker.start()
        while worker.is_alive():
            spins += 1
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert spins > 1000, "the main thread ran only %d times during the batch" % spins


def test_a_changed_copy_plays_as_a_state_of_its_own_whatever_game_it_reuses(replay, rules):
    # A copy given commands is written into the game of a state dropped before (any turn,
    # cut mid-phase or played out); it must play as a state that never shared its game.
    starts = [i for i, f in enumerate(replay.frames) if f["turnInfo"][0] == 0 and i + 1 < len(replay.frames)]
    numbers = [replay.frames[i]["turnInfo"][1] for i in starts]
    assert len(numbers) > 20, "the replay should have more than 20 turns"
    order = numbers[::-1] + numbers[::3] + numbers[1::2]
    for k, number in enumerate(order):
        state, lines = turn(replay, rules, number)
        alone = pickle.loads(pickle.dumps(state))  # a game no other state shares
        alone.apply_turn(*lines)
        expected = (summary(alone.run(record_frames=True)), alone.frame(), [(u.id, u.x, u.y, u.health) for u in alone.units()])
        trial = state.copy()
        trial.apply_turn(*lines)
        outcome = trial.run(record_frames=True)
        got = (summary(outcome), trial.frame(), [(u.id, u.x, u.y, u.health) for u in trial.units()])
        assert got == expected, "turn %d (try %d)" % (number, k)
        # Dropped in different states: cut after a few frames, or played out.
        cut = state.copy()
        cut.apply_turn(*lines)
        cut.run(k % 9)
        del trial, cut, alone


def test_destroyed_structures_count_what_they_cost_upgrades_included(rules):
    # A row of walls, every other one upgraded, that the opponent's Demolishers must break.
    state = ts.GameState.initial(rules)
    wall, upgrade, demolisher = rules.shorthand(0), rules.shorthand(7), rules.shorthand(4)
    state.apply_turn(
        opponent_build=[[wall, x, 14] for x in range(28)] + [[upgrade, x, 14] for x in range(0, 28, 2)]
    )
    state.run()
    price = {False: rules.cost(0)[0], True: rules.cost(0)[0] + rules.upgrade_cost(0)[0]}
    upgraded_seen = plain_seen = 0
    for _ in range(4):
        before = {u.id: u for u in state.units(2) if u.is_structure}
        state.apply_turn(deploy=[[demolisher, 13, 0]] * int(state.mp(1) // rules.cost(4)[1]))
        outcome = state.run()
        left = {u.id for u in state.units(2)}
        gone = [u for i, u in before.items() if i not in left]
        assert outcome.p1.structures_destroyed == len(gone)
        assert outcome.p1.sp_destroyed == pytest.approx(sum(price[u.upgraded] for u in gone))
        upgraded_seen += sum(u.upgraded for u in gone)
        plain_seen += sum(not u.upgraded for u in gone)
    assert upgraded_seen and plain_seen, "both kinds of wall should have been destroyed"
