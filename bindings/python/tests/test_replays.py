"""Real replays of every ruleset folder of ../shared/replays, re-simulated turn by turn
through the module's API, must match the replays' frames exactly. Replays whose rules the
engine reports as unsupported (UnsupportedRules) are skipped and listed; once the engine
supports an era, its folder is checked without any change here."""

import pytest
import replays
import terminal_studio as ts

REPLAYS_PER_RULESET = 2
# The February-2020 live games were written by an engine build that echoes upgrades as
# base-type spawns (docs/fidelity.md): one of them, to check `early_2020_build`.
EARLY_2020 = "live-2022/archen2019__terminal-ai__p1-29-02-2020-10-38-10-1582990690820-1237776761.replay.gz"

FOLDERS = replays.ruleset_folders()


def check(paths):
    verdicts = [replays.resimulate(p) for p in paths]
    simulated = [v for v in verdicts if v.unsupported is None]
    diverged = ["%s: %s" % (v.path.name, v.first_difference) for v in simulated if v.first_difference]
    assert not diverged, "diverged:\n" + "\n".join(diverged)
    skipped = ["%s (%s)" % (v.path.name, v.unsupported) for v in verdicts if v.unsupported is not None]
    if skipped:
        print("skipped, unsupported rules:\n  " + "\n  ".join(skipped))
    if not simulated:
        names = ", ".join(v.path.name for v in verdicts)
        pytest.skip("the engine does not simulate these rules (yet): " + names)
    assert sum(v.frames_checked for v in simulated) > 0


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_ruleset_replays_match_frame_by_frame(folder):
    check(replays.sample(folder, REPLAYS_PER_RULESET))


def test_early_2020_build_replay_matches():
    path = replays.replays_folder() / EARLY_2020
    assert path.exists(), "%s is missing" % path
    verdict = replays.resimulate(path)
    assert verdict.unsupported is None
    assert verdict.first_difference is None, verdict.first_difference
    assert verdict.frames_checked > 100


def test_every_current_ruleset_is_simulated():
    """The skip above never hides a folder the engine supports."""
    current = {"base-s6", "citadel-2026", "live-2022", "s7-2020", "s8-2021a", "s8-2021b"}
    current |= {"special-2024", "special-2025", "special-2026"}
    names = {f.name for f in FOLDERS}
    assert current <= names, "missing ruleset folders: %s" % sorted(current - names)
    for folder in FOLDERS:
        if folder.name in current:
            config = replays.Replay(replays.replay_files(folder)[0]).config_line
            ts.Rules(config)  # raises UnsupportedRules if the engine refused these rules
