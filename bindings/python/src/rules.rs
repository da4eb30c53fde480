//! What is parsed once and then shared: `Rules` (a game config, for every state built from
//! it) and `Commands` (a command line, for every state it is tried from).

use crate::commands::{describe, entry_of, parse_commands};
use crate::error::BindingError;
use crate::figures::shown;
use crate::json::value_of;
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;
use std::sync::Arc;
use terminal_core::engine::config::{REMOVE, UNIT_TYPES, UPGRADE};
use terminal_core::engine::{Command, CommandKind, Config};

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

/// A command line parsed once against a config: a simulation given it reads no Python list
/// and no JSON, so a candidate tried from many states costs nothing to pass again.
#[pyclass(module = "terminal_studio._engine", frozen, skip_from_py_object)]
#[derive(Clone)]
pub struct Commands {
    pub list: Arc<[Command]>,
}

#[pymethods]
impl Commands {
    /// Parses `entries` (`[[shorthand, x, y], ...]`, its JSON text, or unit type numbers in
    /// place of shorthands) under `rules` (a `Rules` or a config). Raises `ValueError`
    /// naming a malformed entry.
    #[new]
    fn new(rules: &Bound<'_, PyAny>, entries: &Bound<'_, PyAny>) -> PyResult<Commands> {
        let config = Rules::config_of(rules)?;
        Ok(Commands { list: read_commands(&config, Some(entries))? })
    }

    fn __len__(&self) -> usize {
        self.list.len()
    }

    /// The entries back as `[unit type, x, y]` lists (6 = removal, 7 = upgrade).
    fn entries(&self) -> Vec<(usize, i32, i32)> {
        self.list.iter().map(|c| (type_number(c.kind), c.tile.x, c.tile.y)).collect()
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self.entries().iter().map(|(t, x, y)| format!("[{t}, {x}, {y}]")).collect();
        format!("Commands([{}])", shown.join(", "))
    }
}

fn type_number(kind: CommandKind) -> usize {
    match kind {
        CommandKind::Spawn(t) => t as usize,
        CommandKind::Upgrade => UPGRADE,
        CommandKind::Remove => REMOVE,
    }
}

/// The commands `obj` holds: nothing for `None`, a `Commands` as it is, a JSON line parsed,
/// a list of entries read straight from its Python values.
pub fn read_commands(config: &Config, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<[Command]>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(Arc::from([])) };
    if let Ok(parsed) = obj.cast::<Commands>() {
        return Ok(Arc::clone(&parsed.get().list));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let value: Value =
            serde_json::from_str(&text.to_cow()?).map_err(|source| BindingError::Json { what: "commands", source })?;
        return Ok(parse_commands(config, &value)?.into());
    }
    let entries = obj.try_iter().map_err(|_| {
        BindingError::Commands(format!("expected a list of [shorthand, x, y], found {}", describe(obj)))
    })?;
    let mut list = Vec::with_capacity(obj.len().unwrap_or(0));
    for (entry, item) in entries.enumerate() {
        let item = item?;
        let command = entry_of(config, &item).map_err(|problem| BindingError::Command { entry, problem })?;
        list.push(command);
    }
    Ok(list.into())
}
