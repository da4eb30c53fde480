//! `Unit`: one structure or mobile unit of a state, as a read-only snapshot.

use crate::figures::shown;
use pyo3::prelude::*;
use terminal_core::engine::Config;
use terminal_core::engine::unit::Unit as EngineUnit;

/// A structure or mobile unit on the board (a snapshot: it does not follow the state).
#[pyclass(module = "terminal_studio._engine", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct Unit {
    /// Unit type 0–5 (an upgraded structure keeps its base type).
    #[pyo3(get)]
    pub unit_type: u8,
    shorthand: Shorthand,
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

/// A unit type's shorthand, kept inline: `units()` builds a `Unit` for every unit of a
/// state, and a `String` each was an allocation and a free per unit (a tenth of a single
/// simulate-and-read call). Configs spell them in two letters; a longer one is kept whole.
#[derive(Debug, Clone)]
enum Shorthand {
    Inline { bytes: [u8; 14], len: u8 },
    Long(String),
}

impl Shorthand {
    fn new(s: &str) -> Shorthand {
        let mut bytes = [0u8; 14];
        match bytes.get_mut(..s.len()) {
            Some(prefix) => {
                prefix.copy_from_slice(s.as_bytes());
                Shorthand::Inline { bytes, len: s.len() as u8 }
            }
            None => Shorthand::Long(s.to_string()),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            // The bytes of a whole `str`: always UTF-8.
            Shorthand::Inline { bytes, len } => std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default(),
            Shorthand::Long(s) => s,
        }
    }
}

impl Unit {
    pub fn new(config: &Config, u: &EngineUnit) -> Unit {
        Unit {
            unit_type: u.unit_type,
            shorthand: Shorthand::new(&config.unit(u.unit_type as usize).shorthand),
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
        self.shorthand.as_str()
    }

    fn __repr__(&self) -> String {
        let upgraded = if self.upgraded { ", upgraded" } else { "" };
        format!(
            "Unit({:?} #{} of player {} at ({}, {}), health {}{upgraded})",
            self.shorthand.as_str(),
            self.id,
            self.owner,
            self.x,
            self.y,
            self.health
        )
    }
}
