//! `Rules`: a parsed game config, shared by every state built from it.

use crate::commands::{Commands, read_commands};
use crate::error::BindingError;
use crate::figures::shown;
use crate::json::value_of;
use pyo3::prelude::*;
use std::sync::Arc;
use terminal_core::engine::Config;
use terminal_core::engine::config::{REMOVE, UNIT_TYPES, UPGRADE};

/// The rules of a match: the config line the algo received first, parsed once.
///
/// Building a state from a `Rules` object skips re-reading the config every turn.
#[pyclass(module = "terminal_studio._engine", frozen)]
pub struct Rules {
    pub config: Arc<Config>,
}

impl Rules {
    /// The config behind `obj`: a `Rules`, or a config as JSON text or dict.
    pub fn config_of(obj: &Bound<'_, PyAny>) -> PyResult<Arc<Config>> {
        if let Ok(rules) = obj.cast::<Rules>() {
            return Ok(Arc::clone(&rules.get().config));
        }
        Ok(Rules::parse(obj)?.config)
    }

    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
        let value = value_of(obj, "config")?;
        let config = Config::from_value(value).map_err(BindingError::from)?;
        config.check_simulated().map_err(BindingError::from)?;
        Ok(Rules { config: Arc::new(config) })
    }

    fn stats(&self, unit_type: i64) -> PyResult<&terminal_core::engine::config::UnitStats> {
        usize::try_from(unit_type)
            .ok()
            .filter(|&t| t < UNIT_TYPES)
            .map(|t| self.config.unit(t))
            .ok_or_else(|| BindingError::UnitType(unit_type).into())
    }
}

#[pymethods]
impl Rules {
    /// Parses a config (the first line an algo receives: JSON text or its dict).
    ///
    /// Raises `ValueError` naming the bad field, or `UnsupportedRules` for rules the engine
    /// does not simulate (the 2018–2019 format, a `mechanics` block, another compatibility
    /// mode).
    #[new]
    fn new(config: &Bound<'_, PyAny>) -> PyResult<Rules> {
        Rules::parse(config)
    }

    /// The preset these rules match (`"live-2022"`, `"citadel-2026"`, …) or `"custom"`.
    #[getter]
    fn ruleset(&self) -> String {
        terminal_core::verify::ruleset_name(&self.config)
    }

    /// The shorthand of a unit type (0–5), of removal (6) or of upgrade (7).
    fn shorthand(&self, unit_type: i64) -> PyResult<String> {
        match usize::try_from(unit_type) {
            Ok(REMOVE) => Ok(self.config.remove_shorthand.clone()),
            Ok(UPGRADE) => Ok(self.config.upgrade_shorthand.clone()),
            _ => Ok(self.stats(unit_type)?.shorthand.clone()),
        }
    }

    /// The unit type a shorthand names (the engine's substring match), or `None`.
    fn unit_type(&self, shorthand: &str) -> Option<usize> {
        self.config.resolve_shorthand(shorthand)
    }

    /// `(SP, MP)` price of a unit type 0–5.
    fn cost(&self, unit_type: i64) -> PyResult<(f64, f64)> {
        let s = self.stats(unit_type)?;
        Ok((shown(s.cost_sp), shown(s.cost_mp)))
    }

    /// `(SP, MP)` price of upgrading a structure type, or `None` if it has no upgrade.
    fn upgrade_cost(&self, unit_type: i64) -> PyResult<Option<(f64, f64)>> {
        Ok(self.stats(unit_type)?.upgrade.as_deref().map(|u| (shown(u.cost_sp), shown(u.cost_mp))))
    }

    /// True for structure types (walls, supports, turrets), false for mobile units.
    fn is_structure(&self, unit_type: i64) -> PyResult<bool> {
        Ok(self.stats(unit_type)?.is_structure)
    }

    /// A command line parsed once under these rules (see `Commands`).
    fn commands(&self, entries: &Bound<'_, PyAny>) -> PyResult<Commands> {
        Ok(Commands { list: read_commands(&self.config, Some(entries))? })
    }

    fn __repr__(&self) -> String {
        format!("Rules({})", self.ruleset())
    }
}
