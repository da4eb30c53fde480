//! `Match`: a whole match in-process, both seats driven from Python turn by turn, played by
//! the runner's in-process match (the official turn order, resources, HP, end of game) and
//! written as a replay the verifier re-simulates.

use crate::commands::Rejection;
use crate::error::BindingError;
use crate::figures::shown;
use crate::json::frame_object;
use crate::rules::{Rules, read_commands};
use crate::state::{GameState, player_of};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::engine::frame::Phase;
use terminal_core::engine::{Command, Player};
use terminal_core::replay::frame_to_json;
use terminal_core::runner::{InProcessMatch, SeatReply};
use terminal_core::verify::rebuild::game_from_turn_frame;

/// A match between two seats that Python plays turn by turn, with no process.
///
/// Each turn: read each seat's frame (`frame(seat)`, in that seat's own view, as its algo
/// would receive it) or state (`state(seat)`), give both seats' lines in their own views
/// (`play`, or `submit` for each seat then `step`), and the turn is played.
#[pyclass(module = "terminal_studio._engine", name = "Match")]
pub struct Match {
    inner: InProcessMatch,
    /// Lines submitted for the coming turn, per seat.
    pending: [SeatReply; 2],
}

impl Match {
    fn seat(n: i64) -> Result<Player, BindingError> {
        player_of(n).map_err(|_| BindingError::Seat(n))
    }

    fn reply(
        &self,
        build: Option<&Bound<'_, PyAny>>,
        deploy: Option<&Bound<'_, PyAny>>,
        time_ms: i64,
    ) -> PyResult<SeatReply> {
        let config = &self.inner.game().config;
        Ok(SeatReply {
            build: read_commands(config, build)?.to_vec(),
            deploy: read_commands(config, deploy)?.to_vec(),
            time_ms,
        })
    }

    fn play_pending(&mut self, py: Python<'_>) -> PyResult<(Vec<Rejection>, Vec<Rejection>)> {
        if self.inner.is_over() {
            return Err(BindingError::MatchOver.into());
        }
        let replies = std::mem::take(&mut self.pending);
        let inner = &mut self.inner;
        let [one, two] = py.detach(|| inner.play_turn(replies));
        let config = Arc::clone(&self.inner.game().config);
        let name = |p: Player, list: Vec<(Command, _)>| -> Vec<Rejection> {
            list.into_iter().map(|(c, why)| Rejection::new(&config, p, c, why)).collect()
        };
        Ok((name(Player::One, one), name(Player::Two, two)))
    }
}

#[pymethods]
impl Match {
    /// A new match at turn 0 under `rules` (a `Rules` or a config). `names` are written in
    /// the replay. `record` keeps every frame for `write_replay`; `action_frames` keeps each
    /// turn's action frames for `action_frames(seat)`. Without either, no frame is built
    /// during the action phase (fastest).
    #[new]
    #[pyo3(signature = (rules, *, names=("seat-1".to_string(), "seat-2".to_string()), record=true, action_frames=false))]
    fn new(rules: &Bound<'_, PyAny>, names: (String, String), record: bool, action_frames: bool) -> PyResult<Match> {
        let config = Rules::config_of(rules)?;
        let inner =
            InProcessMatch::new(config, [names.0, names.1], record, action_frames).map_err(BindingError::from)?;
        Ok(Match { inner, pending: Default::default() })
    }

    /// The rules of the match.
    #[getter]
    fn rules(&self) -> Rules {
        Rules { config: Arc::clone(&self.inner.game().config) }
    }

    /// The turn to be played next (the last turn once the match is over).
    #[getter]
    fn turn(&self) -> i32 {
        self.inner.game().turn
    }

    #[getter]
    fn game_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The winning seat (1 or 2) once the match is over, else `None`.
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.inner.is_over().then(|| self.inner.game().winner().number())
    }

    /// A seat's HP, SP and MP, as the frames print them.
    #[pyo3(signature = (seat=1))]
    fn hp(&self, seat: i64) -> PyResult<f64> {
        Ok(shown(self.inner.game().player(Match::seat(seat)?).stats.hp))
    }

    #[pyo3(signature = (seat=1))]
    fn sp(&self, seat: i64) -> PyResult<f64> {
        Ok(shown(self.inner.game().player(Match::seat(seat)?).stats.sp))
    }

    #[pyo3(signature = (seat=1))]
    fn mp(&self, seat: i64) -> PyResult<f64> {
        Ok(shown(self.inner.game().player(Match::seat(seat)?).stats.mp))
    }

    /// The frame `seat` answers next, in its own view, as the dict its algo would parse:
    /// the turn frame, or the end frame (with `endStats`) once the match is over.
    #[pyo3(signature = (seat=1))]
    fn frame(&self, py: Python<'_>, seat: i64) -> PyResult<Py<PyAny>> {
        let frame = self.inner.frame_for(Match::seat(seat)?);
        frame_object(py, &self.inner.game().config, &frame)
    }

    /// The same frame as the JSON line an algo reads.
    #[pyo3(signature = (seat=1))]
    fn frame_line(&self, seat: i64) -> PyResult<String> {
        let frame = self.inner.frame_for(Match::seat(seat)?);
        let config = &self.inner.game().config;
        Ok(frame_to_json(&frame, config.legacy, config.timing.store_bot_times))
    }

    /// The state `seat` sees at this turn frame, in its own view (it is player 1 there), to
    /// simulate candidates from; new units take the ids the match will give them.
    #[pyo3(signature = (seat=1))]
    fn state(&self, seat: i64) -> PyResult<GameState> {
        let player = Match::seat(seat)?;
        if self.inner.is_over() {
            return Err(BindingError::MatchOver.into());
        }
        let game = self.inner.game();
        if player == Player::One {
            return Ok(GameState::from_game(game.clone()));
        }
        let frame = self.inner.frame_for(player);
        debug_assert_eq!(frame.turn_info.phase, Phase::Deploy);
        let below = game.next_id.saturating_sub(1);
        let mut own = game_from_turn_frame(&game.config, &frame, below).map_err(BindingError::from)?;
        own.early_2020 = game.early_2020;
        Ok(GameState::from_game(own))
    }

    /// The last turn's action frames in `seat`'s view, as dicts (kept with `action_frames=True`).
    #[pyo3(signature = (seat=1))]
    fn action_frames(&self, py: Python<'_>, seat: i64) -> PyResult<Vec<Py<PyAny>>> {
        let config = &self.inner.game().config;
        self.inner.action_frames_for(Match::seat(seat)?).iter().map(|f| frame_object(py, config, f)).collect()
    }

    /// Gives `seat`'s lines for the coming turn, in its own view (lists, JSON text or
    /// `Commands`); `time_ms` is the reply time charged (past the config's soft limit it
    /// costs HP). A seat that submits nothing plays an empty turn.
    #[pyo3(signature = (seat, build=None, deploy=None, *, time_ms=0))]
    fn submit(
        &mut self,
        seat: i64,
        build: Option<&Bound<'_, PyAny>>,
        deploy: Option<&Bound<'_, PyAny>>,
        time_ms: i64,
    ) -> PyResult<()> {
        let player = Match::seat(seat)?;
        self.pending[player.index()] = self.reply(build, deploy, time_ms)?;
        Ok(())
    }

    /// Plays the turn with the submitted lines: both seats' commands in the official order,
    /// the action phase, the restore, then the next turn frame (or the end frame). Returns
    /// each seat's rejected commands, in its own view. The GIL is released meanwhile.
    fn step(&mut self, py: Python<'_>) -> PyResult<(Vec<Rejection>, Vec<Rejection>)> {
        self.play_pending(py)
    }

    /// `submit` for both seats, then `step`.
    #[pyo3(signature = (build_1=None, deploy_1=None, build_2=None, deploy_2=None, *, time_ms=(0, 0)))]
    fn play(
        &mut self,
        py: Python<'_>,
        build_1: Option<&Bound<'_, PyAny>>,
        deploy_1: Option<&Bound<'_, PyAny>>,
        build_2: Option<&Bound<'_, PyAny>>,
        deploy_2: Option<&Bound<'_, PyAny>>,
        time_ms: (i64, i64),
    ) -> PyResult<(Vec<Rejection>, Vec<Rejection>)> {
        self.pending = [self.reply(build_1, deploy_1, time_ms.0)?, self.reply(build_2, deploy_2, time_ms.1)?];
        self.play_pending(py)
    }

    /// Writes the replay so far (the whole match once it is over) to `path`, atomically:
    /// `terminal-studio verify` re-simulates it.
    fn write_replay(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let inner = &self.inner;
        py.detach(|| inner.write_replay(&path))
            .map_err(|source| BindingError::ReplayWrite { path: path.display().to_string(), source }.into())
    }

    fn __repr__(&self) -> String {
        let game = self.inner.game();
        let [a, b] = [Player::One, Player::Two].map(|p| game.player(p).stats);
        let state = if game.over { format!("over, seat {} won", game.winner().number()) } else { "playing".into() };
        format!("Match(turn {}, {state}; seat 1 HP {}, seat 2 HP {})", game.turn, a.hp, b.hp)
    }
}
