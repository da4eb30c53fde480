//! `Unit`: one structure or mobile unit of a state, as a read-only snapshot.

use crate::figures::shown;
use pyo3::prelude::*;
use terminal_core::engine::Config;
use terminal_core::engine::unit::Unit as EngineUnit;

/// A structure or mobile unit on the board (a snapshot: it does not follow the state).
#[pyclass(module = "terminal_studio._engine", frozen, get_all, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct Unit {
    /// Unit type 0–5 (an upgraded structure keeps its base type).
    pub unit_type: u8,
    pub shorthand: String,
    /// 1 (the algo) or 2 (the opponent).
    pub owner: u8,
    pub x: i32,
    pub y: i32,
    /// Health including shields, as the frames print it.
    pub health: f64,
    /// The engine's id (ids grow with creation: higher ids act later).
    pub id: u32,
    pub is_structure: bool,
    pub upgraded: bool,
    /// A structure marked for removal (it leaves the board at a coming turn start).
    pub removal_pending: bool,
}

impl Unit {
    pub fn new(config: &Config, u: &EngineUnit) -> Unit {
        Unit {
            unit_type: u.unit_type,
            shorthand: config.unit(u.unit_type as usize).shorthand.clone(),
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
    fn __repr__(&self) -> String {
        let upgraded = if self.upgraded { ", upgraded" } else { "" };
        format!(
            "Unit({:?} #{} of player {} at ({}, {}), health {}{upgraded})",
            self.shorthand, self.id, self.owner, self.x, self.y, self.health
        )
    }
}
