//! `GameState`: the engine's game, built from what an algo receives, in the algo's view
//! (player 1 is the algo at the bottom; player 2's algo already receives frames rotated).

use crate::commands::{Rejection, parse_commands};
use crate::error::BindingError;
use crate::json::{to_python, value_of};
use crate::outcome::{Outcome, PathLog, Tally};
use crate::rules::Rules;
use crate::unit::Unit;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use terminal_core::engine::frame::{Frame, Phase};
use terminal_core::engine::geometry::{Edge, in_play};
use terminal_core::engine::{Command, Game, Player, Tile};
use terminal_core::replay::{frame_to_json, parse_frame};
use terminal_core::verify::rebuild::game_from_turn_frame;

/// Tiles in walking order, as `(x, y)`.
type TilePath = Vec<(i32, i32)>;

fn player_of(n: i64) -> Result<Player, BindingError> {
    Player::from_number(n).ok_or(BindingError::Player(n))
}

/// A game at some point of a turn, that can be copied, given commands and simulated.
#[pyclass(module = "terminal_studio._engine", skip_from_py_object)]
#[derive(Clone)]
pub struct GameState {
    game: Game,
}

impl GameState {
    fn frame_dict(&self, py: Python<'_>, frame: &Frame) -> PyResult<Py<PyAny>> {
        let config = &self.game.config;
        to_python(py, &frame_to_json(frame, config.legacy, config.timing.store_bot_times))
    }

    fn commands(&self, commands: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Command>> {
        match commands {
            None => Ok(Vec::new()),
            Some(c) => Ok(parse_commands(&self.game.config, &value_of(c, "commands")?)?),
        }
    }

    /// The action phase has run and is over, or the game has ended.
    fn action_phase_over(&self) -> bool {
        self.game.over || (self.game.action_frame >= 0 && self.game.action_phase_done())
    }

    fn ensure_deploy_phase(&self) -> Result<(), BindingError> {
        if self.game.action_frame >= 0 { Err(BindingError::NotDeployPhase(self.game.action_frame)) } else { Ok(()) }
    }

    fn apply_line(&mut self, player: Player, line: &[Command]) -> Vec<Rejection> {
        let config = Arc::clone(&self.game.config);
        let rejected = self.game.apply_line(player, line);
        rejected.into_iter().map(|(c, why)| Rejection::new(&config, player, c, why)).collect()
    }

    fn give(&mut self, commands: &Bound<'_, PyAny>, player: i64) -> PyResult<Vec<Rejection>> {
        let player = player_of(player)?;
        self.ensure_deploy_phase()?;
        let line = self.commands(Some(commands))?;
        Ok(self.apply_line(player, &line))
    }

    fn stats(&self, player: i64) -> PyResult<terminal_core::engine::frame::Stats> {
        Ok(self.game.player(player_of(player)?).stats)
    }

    /// The end of the turn after its action phase: restore, then the next turn frame (which
    /// carries the turn start's removals), kept as a dict or dropped.
    fn finish_turn(&mut self, py: Python<'_>, frames: &mut Option<Vec<Py<PyAny>>>) -> PyResult<()> {
        self.game.end_turn();
        if self.game.over {
            return Ok(());
        }
        match frames {
            Some(list) => {
                let turn_frame = self.game.turn_frame();
                list.push(self.frame_dict(py, &turn_frame)?);
            }
            None => {
                self.game.events.clear();
                self.game.frames_sent += 1;
            }
        }
        Ok(())
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
        Ok(GameState { game })
    }

    /// The state at the start of a match (turn 0, empty board), under `rules`.
    #[staticmethod]
    fn initial(rules: &Bound<'_, PyAny>) -> PyResult<GameState> {
        let mut game = Game::new(Rules::config_of(rules)?);
        // Turn 0's frame is counted as sent, as the algo received it.
        game.turn_frame();
        Ok(GameState { game })
    }

    /// An independent copy (cheap: the config is shared).
    fn copy(&self) -> GameState {
        self.clone()
    }

    fn __copy__(&self) -> GameState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> GameState {
        self.clone()
    }

    /// The rules this state plays under.
    #[getter]
    fn rules(&self) -> Rules {
        Rules { config: Arc::clone(&self.game.config) }
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

    /// A player's HP (1 = the algo, 2 = the opponent).
    #[pyo3(signature = (player=1))]
    fn hp(&self, player: i64) -> PyResult<f32> {
        Ok(self.stats(player)?.hp)
    }

    /// A player's SP (structure points).
    #[pyo3(signature = (player=1))]
    fn sp(&self, player: i64) -> PyResult<f32> {
        Ok(self.stats(player)?.sp)
    }

    /// A player's MP (mobile points).
    #[pyo3(signature = (player=1))]
    fn mp(&self, player: i64) -> PyResult<f32> {
        Ok(self.stats(player)?.mp)
    }

    /// The units on the board, in ascending id; only `player`'s if given.
    #[pyo3(signature = (player=None))]
    fn units(&self, player: Option<i64>) -> PyResult<Vec<Unit>> {
        let owner = player.map(player_of).transpose()?;
        let config = &self.game.config;
        Ok(self
            .game
            .units
            .iter()
            .filter(|u| owner.is_none_or(|p| u.owner == p))
            .map(|u| Unit::new(config, u))
            .collect())
    }

    /// The structure on a tile, or `None`.
    fn structure_at(&self, x: i32, y: i32) -> Option<Unit> {
        self.game.structure_on(Tile::new(x, y)).map(|u| Unit::new(&self.game.config, u))
    }

    /// Applies a build line (`[[shorthand, x, y], ...]` or its JSON text) for `player`, with
    /// the engine's checks; removals go after the other entries, as the engine does.
    /// Returns the rejected entries.
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
        let ours = (self.commands(build)?, self.commands(deploy)?);
        let theirs = (self.commands(opponent_build)?, self.commands(opponent_deploy)?);
        let order = match seat {
            1 => [(Player::One, &ours.0), (Player::Two, &theirs.0), (Player::One, &ours.1), (Player::Two, &theirs.1)],
            2 => [(Player::Two, &theirs.0), (Player::One, &ours.0), (Player::Two, &theirs.1), (Player::One, &ours.1)],
            n => return Err(BindingError::Seat(n).into()),
        };
        let mut rejected = Vec::new();
        for (player, line) in order {
            rejected.extend(self.apply_line(player, line));
        }
        Ok(rejected)
    }

    /// Simulates the action phase: all of it, or at most `frames` action frames. When the
    /// phase ends, the end-of-turn restore runs too and the state is at the next turn's
    /// deploy phase. `record_frames` keeps every frame (action frames, then the next turn
    /// frame) as dicts; `record_paths` keeps each mobile unit's tiles.
    #[pyo3(signature = (frames=None, *, record_frames=false, record_paths=false))]
    fn run(
        &mut self,
        py: Python<'_>,
        frames: Option<usize>,
        record_frames: bool,
        record_paths: bool,
    ) -> PyResult<Outcome> {
        let config = Arc::clone(&self.game.config);
        let mut tally = Tally::new(&self.game);
        let mut paths = record_paths.then(PathLog::default);
        let mut kept: Option<Vec<Py<PyAny>>> = record_frames.then(Vec::new);
        let mut frames_run = 0usize;
        // The engine always plays action frame 0, even with no mobile unit on the board.
        while !self.action_phase_over() && frames.is_none_or(|limit| frames_run < limit) {
            match kept.as_mut() {
                Some(list) => {
                    let frame = self.game.action_frame();
                    tally.add(&config, &frame.events);
                    if let Some(p) = paths.as_mut() {
                        p.add(&config, &frame.events);
                    }
                    list.push(self.frame_dict(py, &frame)?);
                }
                None => self.game.action_tick_inspect(|events| {
                    tally.add(&config, events);
                    if let Some(p) = paths.as_mut() {
                        p.add(&config, events);
                    }
                }),
            }
            frames_run += 1;
        }
        let turn_finished = !self.game.over && self.action_phase_over();
        if turn_finished {
            self.finish_turn(py, &mut kept)?;
        }
        let stats = [Player::One, Player::Two].map(|p| {
            let s = self.game.player(p).stats;
            (s.hp, s.sp, s.mp)
        });
        let [p1, p2] = tally.finish(stats);
        Ok(Outcome {
            p1: Py::new(py, p1)?,
            p2: Py::new(py, p2)?,
            frames_run,
            turn_finished,
            game_over: self.game.over,
            frames: kept,
            paths: paths.map(|p| p.0),
        })
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
        let path = self.game.pathfinder().predicted_path(start, edge.opposite());
        Ok(path.into_iter().map(|t| (t.x, t.y)).collect())
    }

    /// `predicted_path` from every free tile of `player`'s two edges: `{(x, y): path}`.
    #[pyo3(signature = (player=1))]
    fn predicted_paths(&mut self, player: i64) -> PyResult<HashMap<(i32, i32), TilePath>> {
        let player = player_of(player)?;
        let edges = match player {
            Player::One => [Edge::BottomLeft, Edge::BottomRight],
            Player::Two => [Edge::TopLeft, Edge::TopRight],
        };
        let mut out = HashMap::new();
        for edge in edges {
            for start in edge.tiles() {
                if self.game.structure_on(start).is_none() {
                    let path = self.game.pathfinder().predicted_path(start, edge.opposite());
                    out.insert((start.x, start.y), path.into_iter().map(|t| (t.x, t.y)).collect());
                }
            }
        }
        Ok(out)
    }

    /// The board as a frame dict (units, stats, `turnInfo`; no events).
    fn frame(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut copy = self.game.clone();
        let phase = if copy.action_frame >= 0 { Phase::Action } else { Phase::Deploy };
        let mut frame = copy.turn_frame();
        frame.turn_info.phase = phase;
        frame.turn_info.action_frame = self.game.action_frame;
        frame.turn_info.total_frame = Some((self.game.frames_sent - 1).max(0));
        frame.events = Default::default();
        self.frame_dict(py, &frame)
    }

    /// Records a player's reply time for this turn and charges the slow-reply penalty (1 HP
    /// per whole second over the soft limit) when `penalise`. For re-simulating recorded
    /// matches; returns the HP lost.
    #[pyo3(signature = (milliseconds, player=1, penalise=true))]
    fn charge_time(&mut self, milliseconds: i64, player: i64, penalise: bool) -> PyResult<i64> {
        Ok(self.game.charge_time(player_of(player)?, milliseconds, penalise))
    }

    /// A player's algo crashed this turn (it loses startingHP + 1 HP). For re-simulating
    /// recorded matches.
    #[pyo3(signature = (player, milliseconds=0))]
    fn crash(&mut self, player: i64, milliseconds: i64) -> PyResult<()> {
        let player = player_of(player)?;
        let p = self.game.player_mut(player);
        p.stats.time_ms = milliseconds;
        p.total_computation_time += milliseconds;
        self.game.crash(player);
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
