//! `Unit`: one structure or mobile unit of a state, as a read-only snapshot.

use crate::figures::shown;
use pyo3::prelude::*;
use std::sync::Arc;
use terminal_core::engine::Config;
use terminal_core::engine::unit::Unit as EngineUnit;

/// A structure or mobile unit on the board (a snapshot: it does not follow the state).
#[pyclass(module = "terminal_studio._engine", frozen, skip_from_py_object)]
#[derive(Clone)]
pub struct Unit {
    /// Unit type 0–5 (an upgraded structure keeps its base type).
    #[pyo3(get)]
    pub unit_type: u8,
    /// Its shorthand is read from the config when asked (a copy per unit was an allocation
    /// and a free for each unit `units()` returns).
    config: Arc<Config>,
    /// 1 (the algo) or 2 (the opponent).
    #[pyo3(get)]
    pub owner: u8,
    #[pyo3(get)]
    pub x: i32,
    #[pyo3(get)]
    pub y: i32,
    /// Health including shields, as the frames print it.
    #[pyo3(get)]
    pub health: f64,
    /// The engine's id (ids grow with creation: higher ids act later).
    #[pyo3(get)]
    pub id: u32,
    #[pyo3(get)]
    pub is_structure: bool,
    #[pyo3(get)]
    pub upgraded: bool,
    /// A structure marked for removal (it leaves the board at a coming turn start).
    #[pyo3(get)]
    pub removal_pending: bool,
}

impl Unit {
    pub fn new(config: &Arc<Config>, u: &EngineUnit) -> Unit {
        Unit {
            unit_type: u.unit_type,
            config: Arc::clone(config),
            owner: u.owner.number(),
            x: u.tile.x,
            y: u.tile.y,
            health: shown(u.health),
            id: u.id,
            is_structure: u.is_structure,
            upgraded: u.upgraded,
            removal_pending: u.marked_turn.is_some(),
        }
    }
}

#[pymethods]
impl Unit {
    /// The unit type's shorthand as the config spells it ("FF", "PI", …).
    #[getter]
    fn shorthand(&self) -> &str {
        &self.config.unit(self.unit_type as usize).shorthand
    }

    fn __repr__(&self) -> String {
        let upgraded = if self.upgraded { ", upgraded" } else { "" };
        format!(
            "Unit({:?} #{} of player {} at ({}, {}), health {}{upgraded})",
            self.shorthand(),
            self.id,
            self.owner,
            self.x,
            self.y,
            self.health
        )
    }
}
