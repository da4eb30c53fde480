"""Type stubs of terminal_studio: the Terminal engine for algos, in the algo's own view
(player 1 = the algo at the bottom, player 2 = the opponent)."""

import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

JsonText = str
Json = Union[JsonText, Mapping[str, Any]]
"""A config or frame: the line the engine sent, or the dict `json.loads` made of it."""
Entry = Sequence[Union[str, int, float]]
"""`[shorthand, x, y]`; the shorthand may also be a unit type number (0–5, 6 remove, 7 upgrade)."""
Line = Union[JsonText, Sequence[Entry], "Commands"]
"""One command line: entries as lists or tuples, their JSON text, or a `Commands` parsed once."""
Tile = Tuple[int, int]

class UnsupportedRules(ValueError):
    """The config asks for rules the engine does not simulate: a 2018–2019 `mechanics`
    value no real replay shows, or players in different compatibility modes."""

class Rules:
    """The rules of a match: the config line, parsed once and shared by states."""

    def __init__(self, config: Json) -> None:
        """Raises ValueError naming a bad field, UnsupportedRules for rules not simulated."""
    @property
    def ruleset(self) -> str:
        """The preset these rules match (`"live-2022"`, …) or `"custom"`."""
    def shorthand(self, unit_type: int) -> str:
        """The shorthand of a unit type (0–5), of removal (6) or of upgrade (7)."""
    def unit_type(self, shorthand: str) -> Optional[int]:
        """The unit type a shorthand names (the engine's substring match), or None."""
    def cost(self, unit_type: int) -> Tuple[float, float]:
        """(SP, MP) price of a unit type 0–5."""
    def upgrade_cost(self, unit_type: int) -> Optional[Tuple[float, float]]:
        """(SP, MP) price of upgrading a structure type, None if it has no upgrade."""
    def is_structure(self, unit_type: int) -> bool:
        """True for walls, supports and turrets."""
    def commands(self, entries: Union[JsonText, Sequence[Entry]]) -> "Commands":
        """A command line parsed once under these rules."""

class Commands:
    """A command line parsed once: passing it to a state again reads no Python list and
    no JSON. Raises ValueError naming a malformed entry."""

    def __init__(self, rules: Union[Rules, Json], entries: Union[JsonText, Sequence[Entry]]) -> None: ...
    def __len__(self) -> int: ...
    def entries(self) -> List[Tuple[int, int, int]]:
        """(unit type, x, y) of each entry (6 = removal, 7 = upgrade)."""

class Unit:
    """A structure or mobile unit on the board (a snapshot)."""

    unit_type: int
    shorthand: str
    owner: int
    """1 (the algo) or 2 (the opponent)."""
    x: int
    y: int
    health: float
    """Health including shields, as the frames print it."""
    id: int
    is_structure: bool
    upgraded: bool
    removal_pending: bool

class Rejection:
    """A command the engine refused."""

    player: int
    shorthand: str
    x: int
    y: int
    reason: str
    """Why, in words (`"not enough resources"`, …)."""
    code: str
    """off_board, enemy_half, occupied, not_an_edge, cannot_afford, no_own_structure,
    already_upgraded, not_upgradable, already_marked, removals_disabled (a 2018–2019
    config with mechanics.destroyOwnUnitsEnabled false) or wrong_line."""

class PlayerOutcome:
    """What one player's units did in a run, and what it lost (prices from the config).
    Figures are floats as the frames print them (10.7, not 10.699999809265137)."""

    breaches: int
    breach_damage: float
    """HP the breaches took from the opponent."""
    breach_tiles: Dict[Tile, int]
    structure_damage: float
    """Damage dealt to the opponent's structures."""
    unit_damage: float
    """Damage dealt to the opponent's mobile units."""
    structures_destroyed: int
    sp_destroyed: float
    """SP invested in the opponent structures destroyed (upgrades included)."""
    units_destroyed: int
    mp_destroyed: float
    """MP price of the opponent mobile units that died without breaching."""
    structures_lost: int
    sp_lost: float
    units_lost: int
    mp_lost: float
    hp: float
    """HP when the run stopped (SP and MP too: after the restore if the turn ended)."""
    sp: float
    mp: float

class Outcome:
    """The result of GameState.run or of one candidate of simulate_many; each player's
    figures are made when read."""

    p1: PlayerOutcome
    """The algo."""
    p2: PlayerOutcome
    """The opponent."""
    rejected: List[Rejection]
    """simulate_many: the candidate's commands the engine refused (run: always empty)."""
    frames_run: int
    turn_finished: bool
    """The action phase ended; the state is at the next turn's deploy phase."""
    game_over: bool
    frames: Optional[List[Dict[str, Any]]]
    """With record_frames: each action frame, then the next turn frame."""
    paths: Optional[Dict[int, List[Tile]]]
    """With record_paths: each mobile unit's tiles by id, spawn tile first."""
    def player(self, player: int) -> PlayerOutcome:
        """p1 for 1, p2 for 2."""

class GameState:
    """A game at some point of a turn: copy it, give commands, simulate."""

    def __init__(
        self, rules: Union[Rules, Json], frame: Json, *, next_id: Optional[int] = None, early_2020_build: bool = False
    ) -> None:
        """The state at a turn frame (turnInfo[0] == 0) the algo received. `next_id` is the
        lowest id new units may take (default: above the frame's highest); `early_2020_build`
        reproduces the engine build of the February-2020 replays."""
    @staticmethod
    def initial(rules: Union[Rules, Json]) -> "GameState":
        """Turn 0 of a match: empty board, starting resources."""
    def copy(self) -> "GameState":
        """An independent copy: it shares the game until either changes (copy-on-write)."""
    def __copy__(self) -> "GameState": ...
    def __deepcopy__(self, memo: Any) -> "GameState": ...
    def __reduce__(self) -> Any:
        """Pickling, at any point of a turn (mid action phase too)."""
    @property
    def rules(self) -> Rules: ...
    @property
    def turn(self) -> int: ...
    @property
    def action_frame(self) -> int:
        """-1 in the deploy phase, else the last action frame simulated."""
    @property
    def game_over(self) -> bool: ...
    @property
    def next_id(self) -> int: ...
    def hp(self, player: int = 1) -> float:
        """HP as the frames print it (so are sp and mp: 10.7, not 10.699999809265137)."""
    def sp(self, player: int = 1) -> float: ...
    def mp(self, player: int = 1) -> float: ...
    def units(self, player: Optional[int] = None) -> List[Unit]:
        """Units on the board, ascending id; only `player`'s if given."""
    def structure_at(self, x: int, y: int) -> Optional[Unit]: ...
    def build(self, commands: Line, player: int = 1) -> List[Rejection]:
        """Applies a build line with the engine's checks; returns the rejected entries."""
    def deploy(self, commands: Line, player: int = 1) -> List[Rejection]:
        """Applies a deploy line with the engine's checks; returns the rejected entries."""
    def apply_turn(
        self,
        build: Optional[Line] = None,
        deploy: Optional[Line] = None,
        opponent_build: Optional[Line] = None,
        opponent_deploy: Optional[Line] = None,
        *,
        seat: int = 1,
    ) -> List[Rejection]:
        """Both players' lines in the official order (seat=2: the opponent's first)."""
    def run(
        self, frames: Optional[int] = None, *, record_frames: bool = False, record_paths: bool = False
    ) -> Outcome:
        """Simulates the action phase (or at most `frames` frames), then the end of turn.
        The GIL is released while the engine runs."""
    def simulate_many(
        self,
        candidates: Iterable[Union[Line, Mapping[str, Line]]],
        *,
        build: Optional[Line] = None,
        deploy: Optional[Line] = None,
        opponent_build: Optional[Line] = None,
        opponent_deploy: Optional[Line] = None,
        seat: int = 1,
        threads: Optional[int] = None,
        frames: Optional[int] = None,
    ) -> List[Outcome]:
        """Simulates every candidate turn from this state (left as it is) on Rust threads,
        the GIL released; one Outcome per candidate, in order. A candidate is the algo's
        deploy line, or a dict of any of build / deploy / opponent_build / opponent_deploy;
        the lines it does not give are the keyword arguments'. threads: default one per core."""
    def predicted_path(self, x: int, y: int, player: int = 1) -> List[Tile]:
        """The tiles a unit deployed now at (x, y) would walk on this board."""
    def predicted_paths(self, player: int = 1) -> Dict[Tile, List[Tile]]:
        """predicted_path from every free tile of the player's edges."""
    def frame(self) -> Dict[str, Any]:
        """The board as a frame dict (no events)."""
    def charge_time(self, milliseconds: int, player: int = 1, penalise: bool = True) -> int:
        """Records a reply time and its slow-reply HP penalty (re-simulating recorded matches)."""
    def crash(self, player: int, milliseconds: int = 0) -> None:
        """A player's algo crashed this turn (re-simulating recorded matches)."""

class Match:
    """A whole match in-process, both seats driven from Python turn by turn: each seat reads
    its frame in its own view (it is player 1 there) and answers in it; the turn is played
    as the runner plays it (official order, action phase, restore, end of game)."""

    def __init__(
        self,
        rules: Union[Rules, Json],
        *,
        names: Tuple[str, str] = ("seat-1", "seat-2"),
        record: bool = True,
        action_frames: bool = False,
    ) -> None:
        """record: keep every frame for write_replay; action_frames: keep each turn's action
        frames for action_frames(seat). Without either, ticks build no frames (fastest)."""
    @property
    def rules(self) -> Rules: ...
    @property
    def turn(self) -> int:
        """The turn to be played next (the last one once the match is over)."""
    @property
    def game_over(self) -> bool: ...
    @property
    def winner(self) -> Optional[int]:
        """1 or 2 once the match is over, else None."""
    def hp(self, seat: int = 1) -> float: ...
    def sp(self, seat: int = 1) -> float: ...
    def mp(self, seat: int = 1) -> float: ...
    def frame(self, seat: int = 1) -> Dict[str, Any]:
        """The turn frame the seat answers (the end frame once over), in its own view."""
    def frame_line(self, seat: int = 1) -> str:
        """The same frame as the JSON line an algo reads."""
    def state(self, seat: int = 1) -> GameState:
        """The seat's state at this turn frame, in its own view, to simulate from."""
    def action_frames(self, seat: int = 1) -> List[Dict[str, Any]]:
        """The last turn's action frames in the seat's view (with action_frames=True)."""
    def submit(self, seat: int, build: Optional[Line] = None, deploy: Optional[Line] = None, *, time_ms: int = 0) -> None:
        """The seat's lines for the coming turn, in its own view; time_ms is the reply time
        charged (past the soft limit it costs HP)."""
    def step(self) -> Tuple[List[Rejection], List[Rejection]]:
        """Plays the turn with the submitted lines; each seat's rejections, in its own view."""
    def play(
        self,
        build_1: Optional[Line] = None,
        deploy_1: Optional[Line] = None,
        build_2: Optional[Line] = None,
        deploy_2: Optional[Line] = None,
        *,
        time_ms: Tuple[int, int] = (0, 0),
    ) -> Tuple[List[Rejection], List[Rejection]]:
        """submit for both seats, then step."""
    def write_replay(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the replay (atomically); `terminal-studio verify` re-simulates it."""

def frame_difference(expected: Json, actual: Json) -> Optional[str]:
    """How `actual` differs from `expected` under the replay format's rules, or None."""

def best_attacks(
    state: GameState,
    player: int = 1,
    top: int = 10,
    *,
    mp: Optional[float] = None,
    groups: int = 3,
    threads: Optional[int] = None,
    distinct: bool = True,
) -> List[Dict[str, Any]]:
    """The attack planner (docs/planner.md): the `top` best attacks for `player` against the
    other player's structures in `state` (deploy phase), best first — HP damage, then SP
    destroyed, then MP kept. Each a dict: `rank`, `deploy` (`[shorthand, x, y]` entries, in
    the state's view), `groups` (`unit`, `x`, `y`, `count`), `damage`, `breaches`,
    `structures_destroyed`, `sp_destroyed`, `mp_spent`, `units_destroyed`, `damage_per_mp`.
    With `distinct` (the default) deploys whose units walk the same paths to the same outcome
    are one row, its best deploy given, plus `alike` (how many other deploys it stands for),
    `start_tiles`, `summary` (the row in words) and `recorded` (always False for a state);
    `distinct=False` lists every deploy. `mp` defaults to what `player` has in `state`. The
    opponent's mobile units of the turn are not modelled."""
