//! `GameState`: the engine's game, built from what an algo receives, in the algo's view
//! (player 1 is the algo at the bottom; player 2's algo already receives frames rotated).
//!
//! A state shares its game with its copies until one of them changes (copy-on-write):
//! copying for every candidate costs a reference count, and only a copy that is given
//! commands or run pays for its own game, written into the game of a dropped state when one
//! was kept (`SPARE_GAMES`).

use crate::commands::Rejection;
use crate::error::BindingError;
use crate::figures::shown;
use crate::json::{frame_object, value_of};
use crate::outcome::Outcome;
use crate::rules::{Rules, read_commands};
use crate::sim::{self, Lines};
use crate::unit::Unit;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use terminal_core::engine::frame::Phase;
use terminal_core::engine::geometry::{Edge, in_play};
use terminal_core::engine::pathing::Pathfinder;
use terminal_core::engine::snapshot::GameSnapshot;
use terminal_core::engine::{Config, Game, Player, Tile};
use terminal_core::replay::parse_frame;
use terminal_core::verify::rebuild::game_from_turn_frame;

/// Tiles in walking order, as `(x, y)`.
type TilePath = Vec<(i32, i32)>;

/// The version of the pickled form; a state pickled by another version is refused.
const PICKLE_FORMAT: u32 = 1;

pub fn player_of(n: i64) -> Result<Player, BindingError> {
    Player::from_number(n).ok_or(BindingError::Player(n))
}

fn seat_of(n: i64) -> Result<u8, BindingError> {
    match n {
        1 => Ok(1),
        2 => Ok(2),
        n => Err(BindingError::Seat(n)),
    }
}

/// A game at some point of a turn, that can be copied, given commands and simulated.
#[pyclass(module = "terminal_studio._engine", skip_from_py_object)]
#[derive(Clone)]
pub struct GameState {
    game: Arc<Game>,
}

/// The pickled form: the config as read, and the game without its caches.
#[derive(serde::Serialize, serde::Deserialize)]
struct Pickled {
    format: u32,
    config: serde_json::Value,
    game: GameSnapshot,
}

/// Games of dropped states, each held only here, kept for the next copy that is changed:
/// writing a state into a game that has its buffers already (unit list, fields, role index)
/// costs a fraction of allocating a new one, and an algo's search changes and drops a copy
/// per try. Per thread, since a state may be dropped on any thread holding the GIL.
const SPARE_GAMES_KEPT: usize = 4;

thread_local! {
    static SPARE_GAMES: RefCell<Vec<Arc<Game>>> = const { RefCell::new(Vec::new()) };
}

/// A game no state holds, to be written over, if one was kept.
fn spare_game() -> Option<Arc<Game>> {
    SPARE_GAMES.try_with(|spare| spare.borrow_mut().pop()).ok().flatten()
}

impl Drop for GameState {
    fn drop(&mut self) {
        // Kept as a second reference: once this state's own is dropped, the kept one is
        // the only one (nothing else can take a reference to a game no state holds).
        if Arc::strong_count(&self.game) == 1 && Arc::weak_count(&self.game) == 0 {
            let game = Arc::clone(&self.game);
            // During the thread's exit the list may be gone already: the game is then freed.
            let _ = SPARE_GAMES.try_with(|spare| {
                let mut spare = spare.borrow_mut();
                if spare.len() < SPARE_GAMES_KEPT {
                    spare.push(game);
                }
            });
        }
    }
}

impl GameState {
    pub fn from_game(mut game: Game) -> GameState {
        // Its role index and board built now, once: every copy of the state (an algo's
        // search copies it for each try) then carries them instead of building its own.
        game.prepare_for_copies();
        GameState { game: Arc::new(game) }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, to change: copied first if another state still shares it, into a kept
    /// game when there is one.
    fn game_mut(&mut self) -> &mut Game {
        if Arc::get_mut(&mut self.game).is_none()
            && let Some(mut spare) = spare_game()
            && let Some(game) = Arc::get_mut(&mut spare)
        {
            game.assign_from(&self.game);
            self.game = spare;
        }
        Arc::make_mut(&mut self.game)
    }

    fn config(&self) -> &Arc<Config> {
        &self.game.config
    }

    fn ensure_deploy_phase(&self) -> Result<(), BindingError> {
        if self.game.action_frame >= 0 { Err(BindingError::NotDeployPhase(self.game.action_frame)) } else { Ok(()) }
    }

    fn give(&mut self, commands: &Bound<'_, PyAny>, player: i64) -> PyResult<Vec<Rejection>> {
        let player = player_of(player)?;
        self.ensure_deploy_phase()?;
        let line = read_commands(self.config(), Some(commands))?;
        let game = self.game_mut();
        let config = Arc::clone(&game.config);
        let rejected = game.apply_line(player, &line);
        Ok(rejected.into_iter().map(|(c, why)| Rejection::new(&config, player, c, why)).collect())
    }

    fn stats(&self, player: i64) -> PyResult<terminal_core::engine::frame::Stats> {
        Ok(self.game.player(player_of(player)?).stats)
    }

    /// The four lines of a turn, read from Python values.
    fn lines(&self, lines: [Option<&Bound<'_, PyAny>>; 4]) -> PyResult<Lines> {
        let config = self.config();
        let [a, b, c, d] = lines;
        Ok([read_commands(config, a)?, read_commands(config, b)?, read_commands(config, c)?, read_commands(config, d)?])
    }

    /// The predicted path from `start` toward `edge`'s opposite, with this state's
    /// pathfinder when no copy shares the game (its distance fields stay for the run), else
    /// with one of its own.
    fn path_from(&mut self, start: Tile, edge: Edge, own: &mut Option<Pathfinder>) -> TilePath {
        let path = match Arc::get_mut(&mut self.game) {
            Some(game) => game.pathfinder().predicted_path(start, edge.opposite()),
            None => {
                own.get_or_insert_with(|| Pathfinder::new(self.game.blockers())).predicted_path(start, edge.opposite())
            }
        };
        path.into_iter().map(|t| (t.x, t.y)).collect()
    }
}

#[pymethods]
impl GameState {
    /// The state an algo sees at the start of a turn.
    ///
    /// `rules`: a `Rules`, or the config line (JSON text or dict). `frame`: a turn frame
    /// (`turnInfo[0] == 0`) as JSON text or dict, in the algo's own view. `next_id`: the
    /// lowest id new units may take (default: one above the frame's highest id; only the
    /// labels of new units depend on it, never the outcome). `early_2020_build`: reproduce
    /// the engine build that wrote the February-2020 replays (docs/fidelity.md); never
    /// needed on today's servers.
    #[new]
    #[pyo3(signature = (rules, frame, *, next_id=None, early_2020_build=false))]
    fn new(
        rules: &Bound<'_, PyAny>,
        frame: &Bound<'_, PyAny>,
        next_id: Option<u32>,
        early_2020_build: bool,
    ) -> PyResult<GameState> {
        let config = Rules::config_of(rules)?;
        let value = value_of(frame, "frame")?;
        let frame = parse_frame(&value).map_err(|(field, message)| BindingError::Frame { field, message })?;
        if frame.turn_info.phase != Phase::Deploy {
            return Err(BindingError::NotATurnFrame { phase: frame.turn_info.phase.number() }.into());
        }
        let below = next_id.map_or(0, |n| n.saturating_sub(1));
        let mut game = game_from_turn_frame(&config, &frame, below).map_err(BindingError::from)?;
        game.early_2020 = early_2020_build;
        Ok(GameState::from_game(game))
    }

    /// The state at the start of a match (turn 0, empty board), under `rules`.
    #[staticmethod]
    fn initial(rules: &Bound<'_, PyAny>) -> PyResult<GameState> {
        let mut game = Game::new(Rules::config_of(rules)?);
        // Turn 0's frame is counted as sent, as the algo received it.
        game.turn_frame();
        Ok(GameState::from_game(game))
    }

    /// An independent copy. It shares the game with this state until either changes, so
    /// a copy costs next to nothing and a changed copy pays for its own game once.
    fn copy(&self) -> GameState {
        self.clone()
    }

    fn __copy__(&self) -> GameState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> GameState {
        self.clone()
    }

    /// Pickling: the config and every field of the game that decides what happens next
    /// (mid action phase too: shields, step counters, pending events).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let state = slf.borrow();
        let pickled =
            Pickled { format: PICKLE_FORMAT, config: state.config().raw.clone(), game: state.game.snapshot() };
        let bytes = serde_json::to_vec(&pickled).map_err(|source| BindingError::Json { what: "state", source })?;
        let restore = slf.get_type().getattr("_restore")?;
        Ok((restore, (PyBytes::new(py, &bytes),)))
    }

    /// The state a pickle holds (`__reduce__`'s other half).
    #[classmethod]
    fn _restore(_cls: &Bound<'_, PyType>, data: &[u8]) -> PyResult<GameState> {
        let pickled: Pickled =
            serde_json::from_slice(data).map_err(|source| BindingError::Json { what: "pickled state", source })?;
        if pickled.format != PICKLE_FORMAT {
            return Err(BindingError::PickleFormat { found: pickled.format, expected: PICKLE_FORMAT }.into());
        }
        let config = terminal_core::engine::Config::from_value(pickled.config).map_err(BindingError::from)?;
        config.check_simulated().map_err(BindingError::from)?;
        let game = Game::from_snapshot(Arc::new(config), pickled.game).map_err(BindingError::from)?;
        Ok(GameState::from_game(game))
    }

    /// The rules this state plays under.
    #[getter]
    fn rules(&self) -> Rules {
        Rules { config: Arc::clone(self.config()) }
    }

    #[getter]
    fn turn(&self) -> i32 {
        self.game.turn
    }

    /// −1 in the deploy phase, else the last action frame simulated.
    #[getter]
    fn action_frame(&self) -> i32 {
        self.game.action_frame
    }

    #[getter]
    fn game_over(&self) -> bool {
        self.game.over
    }

    /// The id the next new unit will take.
    #[getter]
    fn next_id(&self) -> u32 {
        self.game.next_id
    }

    /// A player's HP (1 = the algo, 2 = the opponent), as the frames print it.
    #[pyo3(signature = (player=1))]
    fn hp(&self, player: i64) -> PyResult<f64> {
        Ok(shown(self.stats(player)?.hp))
    }

    /// A player's SP (structure points), as the frames print it.
    #[pyo3(signature = (player=1))]
    fn sp(&self, player: i64) -> PyResult<f64> {
        Ok(shown(self.stats(player)?.sp))
    }

    /// A player's MP (mobile points), as the frames print it.
    #[pyo3(signature = (player=1))]
    fn mp(&self, player: i64) -> PyResult<f64> {
        Ok(shown(self.stats(player)?.mp))
    }

    /// The units on the board, in ascending id; only `player`'s if given.
    #[pyo3(signature = (player=None))]
    fn units<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyList>> {
        let owner = player.map(player_of).transpose()?;
        let config = self.config();
        let units = &self.game.units;
        // Made straight into a list of its exact length: no list of `Unit`s first, and no
        // growing.
        match owner {
            None => PyList::new(py, units.iter().map(|u| Unit::new(config, u))),
            Some(p) => {
                let chosen: Vec<_> = units.iter().filter(|u| u.owner == p).collect();
                PyList::new(py, chosen.into_iter().map(|u| Unit::new(config, u)))
            }
        }
    }

    /// The structure on a tile, or `None`.
    fn structure_at(&self, x: i32, y: i32) -> Option<Unit> {
        self.game.structure_on(Tile::new(x, y)).map(|u| Unit::new(self.config(), u))
    }

    /// Applies a build line (`[[shorthand, x, y], ...]`, its JSON text or a `Commands`) for
    /// `player`, with the engine's checks; removals go after the other entries, as the
    /// engine does. Returns the rejected entries.
    #[pyo3(signature = (commands, player=1))]
    fn build(&mut self, commands: &Bound<'_, PyAny>, player: i64) -> PyResult<Vec<Rejection>> {
        self.give(commands, player)
    }

    /// Applies a deploy line for `player` (same rules as `build`). Returns the rejected entries.
    #[pyo3(signature = (commands, player=1))]
    fn deploy(&mut self, commands: &Bound<'_, PyAny>, player: i64) -> PyResult<Vec<Rejection>> {
        self.give(commands, player)
    }

    /// Applies a whole turn's commands in the official order: player 1's build line, player
    /// 2's, player 1's deploy line, player 2's. The order decides the new units' ids, and
    /// ids break targeting ties; `seat=2` applies them in the order of a match in which the
    /// algo is the second player (the opponent's lines first). Returns the rejected entries.
    #[pyo3(signature = (build=None, deploy=None, opponent_build=None, opponent_deploy=None, *, seat=1))]
    fn apply_turn(
        &mut self,
        build: Option<&Bound<'_, PyAny>>,
        deploy: Option<&Bound<'_, PyAny>>,
        opponent_build: Option<&Bound<'_, PyAny>>,
        opponent_deploy: Option<&Bound<'_, PyAny>>,
        seat: i64,
    ) -> PyResult<Vec<Rejection>> {
        self.ensure_deploy_phase()?;
        let seat = seat_of(seat)?;
        let lines = self.lines([build, deploy, opponent_build, opponent_deploy])?;
        Ok(sim::apply_lines(self.game_mut(), &lines, seat))
    }

    /// Simulates the action phase: all of it, or at most `frames` action frames. When the
    /// phase ends, the end-of-turn restore runs too and the state is at the next turn's
    /// deploy phase. `record_frames` keeps every frame (action frames, then the next turn
    /// frame) as dicts; `record_paths` keeps each mobile unit's tiles. The GIL is released
    /// while the engine runs.
    #[pyo3(signature = (frames=None, *, record_frames=false, record_paths=false))]
    fn run(
        &mut self,
        py: Python<'_>,
        frames: Option<usize>,
        record_frames: bool,
        record_paths: bool,
    ) -> PyResult<Outcome> {
        let game = self.game_mut();
        let run = py.detach(|| sim::run(game, frames, record_frames, record_paths));
        Outcome::from_run(py, self.config(), run, Vec::new())
    }

    /// Simulates many candidate turns from this state, which is left as it is, on Rust
    /// threads with the GIL released; returns one `Outcome` per candidate, in order (its
    /// `rejected` lists the commands the engine refused).
    ///
    /// A candidate is a command line (the algo's deploy line), or a dict with any of
    /// `build`, `deploy`, `opponent_build`, `opponent_deploy`; lines a candidate does not
    /// give are the keyword arguments'. Lines are lists, JSON text or `Commands`. `seat`
    /// as in `apply_turn`; `threads`: at most this many (default: one per core); `frames`:
    /// at most this many action frames each.
    #[pyo3(signature = (candidates, *, build=None, deploy=None, opponent_build=None, opponent_deploy=None, seat=1, threads=None, frames=None))]
    #[allow(clippy::too_many_arguments)]
    fn simulate_many(
        &self,
        py: Python<'_>,
        candidates: &Bound<'_, PyAny>,
        build: Option<&Bound<'_, PyAny>>,
        deploy: Option<&Bound<'_, PyAny>>,
        opponent_build: Option<&Bound<'_, PyAny>>,
        opponent_deploy: Option<&Bound<'_, PyAny>>,
        seat: i64,
        threads: Option<usize>,
        frames: Option<usize>,
    ) -> PyResult<Vec<Outcome>> {
        self.ensure_deploy_phase()?;
        let seat = seat_of(seat)?;
        let defaults = self.lines([build, deploy, opponent_build, opponent_deploy])?;
        // Python strings made once: a `&str` key makes a new string at each comparison.
        let keys = ["build", "deploy", "opponent_build", "opponent_deploy"].map(|k| PyString::intern(py, k));
        let mut all = Vec::new();
        for (i, candidate) in candidates.try_iter()?.enumerate() {
            let candidate = candidate?;
            let lines = match candidate.cast::<PyDict>() {
                Ok(dict) => {
                    if let Some(key) = dict.keys().iter().find(|k| !keys.iter().any(|w| k.eq(w).unwrap_or(false))) {
                        return Err(BindingError::CandidateKey { candidate: i, key: key.to_string() }.into());
                    }
                    let mut lines = defaults.clone();
                    for (line, key) in lines.iter_mut().zip(&keys) {
                        if let Some(given) = dict.get_item(key)? {
                            *line = read_commands(self.config(), Some(&given))
                                .map_err(|e| BindingError::Candidate { candidate: i, message: e.to_string() })?;
                        }
                    }
                    lines
                }
                Err(_) => {
                    let mut lines = defaults.clone();
                    lines[1] = read_commands(self.config(), Some(&candidate))
                        .map_err(|e| BindingError::Candidate { candidate: i, message: e.to_string() })?;
                    lines
                }
            };
            all.push(lines);
        }
        let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let base = &self.game;
        let runs = py.detach(|| sim::simulate_many(base, &all, seat, threads, frames));
        runs.into_iter().map(|(run, rejected)| Outcome::from_run(py, self.config(), run, rejected)).collect()
    }

    /// The tiles a mobile unit deployed now at (x, y) by `player` would walk on this board
    /// (structures as they stand; the start tile first, the last is where it breaches or
    /// self-destructs). Raises `ValueError` if (x, y) is not on that player's edges.
    #[pyo3(signature = (x, y, player=1))]
    fn predicted_path(&mut self, x: i32, y: i32, player: i64) -> PyResult<TilePath> {
        let player = player_of(player)?;
        let start = Tile::new(x, y);
        let edge = Edge::deploy_edge_of(player, start).filter(|_| in_play(x, y)).ok_or(BindingError::NotAnEdge {
            x,
            y,
            player: player.number(),
        })?;
        if self.game.structure_on(start).is_some() {
            return Err(BindingError::EdgeOccupied { x, y }.into());
        }
        Ok(self.path_from(start, edge, &mut None))
    }

    /// `predicted_path` from every free tile of `player`'s two edges: `{(x, y): path}`.
    #[pyo3(signature = (player=1))]
    fn predicted_paths(&mut self, player: i64) -> PyResult<HashMap<(i32, i32), TilePath>> {
        let player = player_of(player)?;
        let edges = match player {
            Player::One => [Edge::BottomLeft, Edge::BottomRight],
            Player::Two => [Edge::TopLeft, Edge::TopRight],
        };
        let mut own = None;
        let mut out = HashMap::new();
        for edge in edges {
            for start in edge.tiles() {
                if self.game.structure_on(start).is_none() {
                    out.insert((start.x, start.y), self.path_from(start, edge, &mut own));
                }
            }
        }
        Ok(out)
    }

    /// The board as a frame dict (units, stats, `turnInfo`; no events).
    fn frame(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut copy = (*self.game).clone();
        let phase = if copy.action_frame >= 0 { Phase::Action } else { Phase::Deploy };
        let mut frame = copy.turn_frame();
        frame.turn_info.phase = phase;
        frame.turn_info.action_frame = self.game.action_frame;
        frame.turn_info.total_frame = Some((self.game.frames_sent - 1).max(0));
        frame.events = Default::default();
        frame_object(py, self.config(), &frame)
    }

    /// Records a player's reply time for this turn and charges the slow-reply penalty (1 HP
    /// per whole second over the soft limit) when `penalise`. For re-simulating recorded
    /// matches; returns the HP lost.
    #[pyo3(signature = (milliseconds, player=1, penalise=true))]
    fn charge_time(&mut self, milliseconds: i64, player: i64, penalise: bool) -> PyResult<i64> {
        let player = player_of(player)?;
        Ok(self.game_mut().charge_time(player, milliseconds, penalise))
    }

    /// A player's algo crashed this turn (it loses startingHP + 1 HP). For re-simulating
    /// recorded matches.
    #[pyo3(signature = (player, milliseconds=0))]
    fn crash(&mut self, player: i64, milliseconds: i64) -> PyResult<()> {
        let player = player_of(player)?;
        let game = self.game_mut();
        let p = game.player_mut(player);
        p.stats.time_ms = milliseconds;
        p.total_computation_time += milliseconds;
        game.crash(player);
        Ok(())
    }

    fn __repr__(&self) -> String {
        let [a, b] = [Player::One, Player::Two].map(|p| self.game.player(p).stats);
        format!(
            "GameState(turn {}, action frame {}, {} units; p1 HP {} SP {} MP {}; p2 HP {} SP {} MP {})",
            self.game.turn,
            self.game.action_frame,
            self.game.units.len(),
            a.hp,
            a.sp,
            a.mp,
            b.hp,
            b.sp,
            b.mp
        )
    }
}
