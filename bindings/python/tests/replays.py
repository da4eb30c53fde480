"""Reading the real replays of ../shared/replays and replaying their turns through the
module's API, as an algo would: a state from the turn frame, the turn's commands (read back
from the spawn events of action frame 0), the action phase, compared frame by frame."""

import gzip
import json
import os
from pathlib import Path

import terminal_studio as ts

REMOVE, UPGRADE = 6, 7
# The order the engine applies reply lines in: (player, deploy line?).
LINE_ORDER = [(1, False), (2, False), (1, True), (2, True)]


def workspace_root():
    here = Path(__file__).resolve()
    for folder in here.parents:
        if (folder / "tests" / "algos").is_dir():
            return folder
    raise AssertionError("no tests/algos folder above %s: the workspace is incomplete" % here)


def studio_binary():
    """The `terminal-studio` binary: $TERMINAL_STUDIO_BIN, else the workspace's debug build."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", workspace_root() / "target"))
    path = Path(os.environ.get("TERMINAL_STUDIO_BIN", target / "debug" / "terminal-studio"))
    assert path.exists(), "%s is missing: build it (cargo build) or set TERMINAL_STUDIO_BIN" % path
    return path


def replays_folder():
    folder = workspace_root().parent / "shared" / "replays"
    assert folder.is_dir(), "%s is missing: the tests need ../shared beside the clone" % folder
    return folder


def ruleset_folders():
    return sorted(p for p in replays_folder().iterdir() if p.is_dir())


def replay_files(folder):
    return sorted(p for p in folder.iterdir() if p.name.endswith((".replay", ".replay.gz")))


def sample(folder, count, min_turns=3, exclude=()):
    """The first `count` replays of a folder (by name, those in `exclude` left out) that
    last at least `min_turns` turns, or the first ones if too few do: a few real games of
    every ruleset."""
    files = [p for p in replay_files(folder) if p.name not in exclude]
    picked = []
    for path in files:
        if len(picked) == count:
            break
        replay = Replay(path)
        if sum(1 for i in range(len(replay.frames)) if replay.phase(i) == 0) >= min_turns:
            picked.append(path)
    return picked or files[:count]


def config_line(path):
    """The first line of a replay (its config), without reading its frames."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                return line.strip()
    raise AssertionError("%s holds no config line" % path)


class Replay:
    """A replay file: its config line and its frames, as text and parsed."""

    def __init__(self, path):
        opener = gzip.open if path.name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            lines = [line for line in f.read().splitlines() if line.strip()]
        self.path = path
        self.config_line = lines[0]
        self.lines = []
        self.frames = []
        for line in lines[1:]:
            try:
                frame = json.loads(line)
            except ValueError:
                break  # a match killed while writing its last line
            self.lines.append(line)
            self.frames.append(frame)

    def phase(self, i):
        return self.frames[i]["turnInfo"][0]

    def end_stats(self):
        return self.frames[-1].get("endStats") if self.frames else None


def frame_ids(frame):
    ids = [int(u[3]) for key in ("p1Units", "p2Units") for units in frame.get(key, []) for u in units]
    ids += [int(s[2]) for s in frame.get("events", {}).get("spawn", [])]
    return ids


def structure_owners(rules, frame):
    owners = {}
    for player, key in ((1, "p1Units"), (2, "p2Units")):
        for unit_type, units in enumerate(frame.get(key, [])[:6]):
            if rules.is_structure(unit_type):
                for u in units:
                    owners[(u[0], u[1])] = player
    return owners


def turn_lines(rules, turn_frame, frame0):
    """Each player's (build, deploy) lines, read back from action frame 0's spawn events:
    a player's entries up to its first mobile unit are its build line. A structure spawned
    on a tile its owner already holds is an upgrade (the early-2020 build's echo)."""
    lines = {1: ([], []), 2: ([], [])}
    owners = structure_owners(rules, turn_frame)
    early_2020 = False
    segment = 0
    for (x, y), unit_type, _id, owner in frame0.get("events", {}).get("spawn", []):
        kind = unit_type
        structure = unit_type < 6 and rules.is_structure(unit_type)
        if structure and owners.get((x, y)) == owner:
            kind, early_2020 = UPGRADE, True
        elif structure:
            owners[(x, y)] = owner
        mobile = unit_type < 6 and not structure
        segment = next(
            (k for k in range(segment, 4) if LINE_ORDER[k][0] == owner and (LINE_ORDER[k][1] or not mobile)), 3
        )
        lines[owner][LINE_ORDER[segment][1]].append([kind, x, y])
    return lines, early_2020


def is_early_2020(rules, replay):
    starts = [i for i in range(len(replay.frames) - 1) if replay.phase(i) == 0 and replay.phase(i + 1) == 1]
    return any(turn_lines(rules, replay.frames[i], replay.frames[i + 1])[1] for i in starts)


class Verdict:
    def __init__(self, path):
        self.path = path
        self.unsupported = None
        self.frames_checked = 0
        self.first_difference = None

    def differ(self, what):
        if self.first_difference is None:
            self.first_difference = what


def resimulate(path):
    """Re-simulates every turn of a replay through the API; returns a Verdict."""
    verdict = Verdict(path)
    replay = Replay(path)
    try:
        rules = ts.Rules(replay.config_line)
    except ts.UnsupportedRules as e:
        verdict.unsupported = str(e)
        return verdict
    early_2020 = is_early_2020(rules, replay)
    end = replay.end_stats()
    # The 2018 starter-kit replays' endStats lack `name` and `timeout_death`: read as the
    # engine's replay reader does (empty name, not a timeout death).
    seats = [end.get(k, {}) if end else {} for k in ("player1", "player2")]
    names = [seat.get("name", "") for seat in seats]
    crashed = [bool(seat.get("crashed", False) and not seat.get("timeout_death", False)) for seat in seats]
    frames = replay.frames
    highest_id, seen = 0, 0
    turn_starts = [i for i in range(len(frames)) if replay.phase(i) == 0]
    for start in turn_starts:
        # The highest id so far: new units of the turn are numbered from it.
        highest_id = max([highest_id] + [i for f in frames[seen : start + 1] for i in frame_ids(f)])
        seen = start + 1
        if start + 1 >= len(frames) or replay.phase(start + 1) != 1:
            continue
        state = ts.GameState(rules, replay.lines[start], next_id=highest_id + 1, early_2020_build=early_2020)
        frame0 = frames[start + 1]
        last_turn = start == turn_starts[-1]
        for player, key in ((1, "p1Stats"), (2, "p2Stats")):
            ms = frame0[key][3]
            if last_turn and crashed[player - 1]:
                state.crash(player, ms)
            else:
                state.charge_time(ms, player, penalise=names[player - 1] != "ByHand")
        lines, _ = turn_lines(rules, frames[start], frame0)
        state.apply_turn(lines[1][0], lines[1][1], lines[2][0], lines[2][1])
        ours = state.run(record_frames=True).frames
        k = start + 1
        theirs = []
        while k < len(frames) and replay.phase(k) == 1:
            theirs.append(k)
            k += 1
        if k < len(frames) and replay.phase(k) == 0:
            theirs.append(k)
        for n, index in enumerate(theirs):
            where = "turn %d, frame %d of the replay" % (frames[start]["turnInfo"][1], index)
            if n >= len(ours):
                verdict.differ("%s: the module ended the turn earlier" % where)
                break
            difference = ts.frame_difference(replay.lines[index], ours[n])
            if difference:
                verdict.differ("%s: %s" % (where, difference))
            verdict.frames_checked += 1
        if len(ours) > len(theirs) and (k >= len(frames) or replay.phase(k) == 0):
            turn = frames[start]["turnInfo"][1]
            verdict.differ("turn %d: the module made %d frames, the replay %d" % (turn, len(ours), len(theirs)))
    return verdict
