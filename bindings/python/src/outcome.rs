//! What a simulated action phase did, per player, as Python reads it.

use crate::commands::Rejection;
use crate::figures::shown;
use crate::json::frame_object;
use crate::sim::Run;
use crate::tally::{EndStats, PlayerTally, Tally};
use pyo3::prelude::*;
use std::collections::HashMap;
use terminal_core::engine::Config;

/// What one player's units did in a run, and what it lost. Values are the config's prices,
/// as the frames print them.
#[pyclass(module = "terminal_studio._engine", frozen, get_all, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct PlayerOutcome {
    /// This player's units that reached the opponent's edge.
    pub breaches: u32,
    /// HP those breaches took from the opponent.
    pub breach_damage: f64,
    /// Where they breached: `{(x, y): count}`.
    pub breach_tiles: HashMap<(i32, i32), u32>,
    /// Damage dealt to the opponent's structures (attacks and self-destructs).
    pub structure_damage: f64,
    /// Damage dealt to the opponent's mobile units.
    pub unit_damage: f64,
    /// Opponent structures destroyed, and the SP invested in them (upgrades included).
    pub structures_destroyed: u32,
    pub sp_destroyed: f64,
    /// Opponent mobile units that died without breaching (killed or self-destructed), and their MP price.
    pub units_destroyed: u32,
    pub mp_destroyed: f64,
    /// The same, for this player's own structures and mobile units.
    pub structures_lost: u32,
    pub sp_lost: f64,
    pub units_lost: u32,
    pub mp_lost: f64,
    /// HP, SP and MP when the run stopped (after the end-of-turn restore if the turn ended).
    pub hp: f64,
    pub sp: f64,
    pub mp: f64,
}

impl PlayerOutcome {
    fn new(own: &PlayerTally, opponent: &PlayerTally, (hp, sp, mp): (f32, f32, f32)) -> PlayerOutcome {
        PlayerOutcome {
            breaches: own.breaches,
            breach_damage: shown(own.breach_damage),
            breach_tiles: own.breach_tiles.clone(),
            structure_damage: shown(own.structure_damage),
            unit_damage: shown(own.unit_damage),
            structures_destroyed: opponent.structures_lost,
            sp_destroyed: shown(opponent.sp_lost),
            units_destroyed: opponent.units_lost,
            mp_destroyed: shown(opponent.mp_lost),
            structures_lost: own.structures_lost,
            sp_lost: shown(own.sp_lost),
            units_lost: own.units_lost,
            mp_lost: shown(own.mp_lost),
            hp: shown(hp),
            sp: shown(sp),
            mp: shown(mp),
        }
    }
}

#[pymethods]
impl PlayerOutcome {
    fn __repr__(&self) -> String {
        format!(
            "PlayerOutcome(breaches={}, breach_damage={}, structure_damage={}, unit_damage={}, sp_destroyed={}, mp_lost={}, hp={}, sp={}, mp={})",
            self.breaches,
            self.breach_damage,
            self.structure_damage,
            self.unit_damage,
            self.sp_destroyed,
            self.mp_lost,
            self.hp,
            self.sp,
            self.mp
        )
    }
}

/// The result of `GameState.run`: the tallies are kept as the run left them, and each
/// player's figures are made when asked for (most candidates are judged on one or two).
#[pyclass(module = "terminal_studio._engine", frozen, skip_from_py_object)]
pub struct Outcome {
    pub tally: Tally,
    pub stats: EndStats,
    pub frames_run: usize,
    pub turn_finished: bool,
    pub game_over: bool,
    pub frames: Option<Vec<Py<PyAny>>>,
    pub paths: Option<HashMap<u32, Vec<(i32, i32)>>>,
    pub rejected: Vec<Rejection>,
}

impl Outcome {
    /// The Python outcome of a run (frames turned into dicts here, with the GIL held).
    pub fn from_run(py: Python<'_>, config: &Config, run: Run, rejected: Vec<Rejection>) -> PyResult<Outcome> {
        let frames = match run.frames {
            Some(list) => Some(list.iter().map(|f| frame_object(py, config, f)).collect::<PyResult<Vec<_>>>()?),
            None => None,
        };
        Ok(Outcome {
            tally: run.tally,
            stats: run.stats,
            frames_run: run.frames_run,
            turn_finished: run.turn_finished,
            game_over: run.game_over,
            frames,
            paths: run.paths.map(|p| p.0),
            rejected,
        })
    }

    fn of(&self, player: usize) -> PlayerOutcome {
        let [a, b] = &self.tally.players;
        if player == 0 { PlayerOutcome::new(a, b, self.stats[0]) } else { PlayerOutcome::new(b, a, self.stats[1]) }
    }
}

#[pymethods]
impl Outcome {
    /// The algo (player 1, at the bottom).
    #[getter]
    fn p1(&self) -> PlayerOutcome {
        self.of(0)
    }

    /// The opponent (player 2).
    #[getter]
    fn p2(&self) -> PlayerOutcome {
        self.of(1)
    }

    /// `p1` for player 1, `p2` for player 2.
    fn player(&self, player: i64) -> PyResult<PlayerOutcome> {
        match player {
            1 => Ok(self.of(0)),
            2 => Ok(self.of(1)),
            n => Err(crate::error::BindingError::Player(n).into()),
        }
    }

    /// Action frames simulated by this run.
    #[getter]
    fn frames_run(&self) -> usize {
        self.frames_run
    }

    /// The action phase ended and the end-of-turn restore ran: the state is at the next turn.
    #[getter]
    fn turn_finished(&self) -> bool {
        self.turn_finished
    }

    /// A player's HP reached 0, or the turn limit was reached.
    #[getter]
    fn game_over(&self) -> bool {
        self.game_over
    }

    /// With `record_frames`: every action frame, then the next turn frame, as dicts.
    #[getter]
    fn frames(&self, py: Python<'_>) -> Option<Vec<Py<PyAny>>> {
        self.frames.as_ref().map(|list| list.iter().map(|f| f.clone_ref(py)).collect())
    }

    /// The commands the engine refused (`simulate_many`; `run` leaves them to `apply_turn`).
    #[getter]
    fn rejected(&self) -> Vec<Rejection> {
        self.rejected.clone()
    }

    /// With `record_paths`: each mobile unit's tiles, `{id: [(x, y), ...]}`, spawn tile first.
    #[getter]
    fn paths(&self) -> Option<HashMap<u32, Vec<(i32, i32)>>> {
        self.paths.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(frames_run={}, turn_finished={}, game_over={}, p1={}, p2={})",
            self.frames_run,
            self.turn_finished,
            self.game_over,
            self.of(0).__repr__(),
            self.of(1).__repr__()
        )
    }
}
