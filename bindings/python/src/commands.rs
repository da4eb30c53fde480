//! Commands as algos write them (`[shorthand, x, y]` entries, as Python values or JSON) and
//! the engine's verdict on each.

use crate::error::{BindingError, EntryError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use serde_json::Value;
use terminal_core::engine::config::{REMOVE, UPGRADE};
use terminal_core::engine::game::Rejection as EngineRejection;
use terminal_core::engine::{Command, CommandKind, Config, Player, Tile};

/// What a Python value is, for an error message.
pub(crate) fn describe(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "an object without repr".into())
}

/// One `[shorthand, x, y]` entry read from a Python list or tuple.
pub(crate) fn entry_of<'py>(config: &Config, entry: &Bound<'py, PyAny>) -> Result<Command, EntryError> {
    let item = |i: usize, got: PyResult<Bound<'py, PyAny>>| {
        got.map_err(|e| EntryError::Field { field: i, message: e.to_string() })
    };
    let (kind, x, y) = if let Ok(list) = entry.cast::<PyList>()
        && list.len() >= 3
    {
        (item(0, list.get_item(0))?, item(1, list.get_item(1))?, item(2, list.get_item(2))?)
    } else if let Ok(tuple) = entry.cast::<PyTuple>()
        && tuple.len() >= 3
    {
        (item(0, tuple.get_item(0))?, item(1, tuple.get_item(1))?, item(2, tuple.get_item(2))?)
    } else {
        return Err(EntryError::Shape(describe(entry)));
    };
    let index = if let Ok(token) = kind.cast::<PyString>() {
        let token = token.to_cow().map_err(|e| EntryError::Field { field: 0, message: e.to_string() })?;
        config.resolve_shorthand(&token).ok_or_else(|| EntryError::UnknownShorthand(token.to_string()))?
    } else if let Ok(number) = kind.extract::<i64>() {
        usize::try_from(number)
            .ok()
            .filter(|&t| t <= UPGRADE)
            .ok_or_else(|| EntryError::UnitType(number.to_string()))?
    } else {
        return Err(EntryError::ShorthandType(describe(&kind)));
    };
    let coordinate = |value: &Bound<'_, PyAny>, name: &'static str| {
        value
            .extract::<f64>()
            .map(|v| v.trunc() as i32)
            .map_err(|_| EntryError::Coordinate { name, found: describe(value) })
    };
    Ok(Command { kind: kind_of(index), tile: Tile::new(coordinate(&x, "x")?, coordinate(&y, "y")?) })
}

fn kind_of(index: usize) -> CommandKind {
    match index {
        REMOVE => CommandKind::Remove,
        UPGRADE => CommandKind::Upgrade,
        t => CommandKind::Spawn(t as u8),
    }
}

/// Reads a list of `[shorthand, x, y]` entries strictly: unlike the engine reading a reply
/// line, a malformed entry is a programming error of the algo and raises, naming the entry.
/// The shorthand may also be a unit type number (0–5, 6 removal, 7 upgrade).
pub fn parse_commands(config: &Config, value: &Value) -> Result<Vec<Command>, BindingError> {
    let entries = match value {
        Value::Null => return Ok(Vec::new()),
        Value::Array(entries) => entries,
        other => return Err(BindingError::Commands(format!("expected a list of [shorthand, x, y], found {other}"))),
    };
    entries
        .iter()
        .enumerate()
        .map(|(entry, e)| parse_entry(config, e).map_err(|problem| BindingError::Command { entry, problem }))
        .collect()
}

fn parse_entry(config: &Config, entry: &Value) -> Result<Command, EntryError> {
    let fields = entry.as_array().filter(|f| f.len() >= 3).ok_or_else(|| EntryError::Shape(entry.to_string()))?;
    let index = match &fields[0] {
        Value::String(token) => {
            config.resolve_shorthand(token).ok_or_else(|| EntryError::UnknownShorthand(token.clone()))?
        }
        Value::Number(n) => n
            .as_u64()
            .map(|t| t as usize)
            .filter(|&t| t <= UPGRADE)
            .ok_or_else(|| EntryError::UnitType(n.to_string()))?,
        other => return Err(EntryError::ShorthandType(other.to_string())),
    };
    let coordinate = |i: usize, name: &'static str| {
        fields[i]
            .as_f64()
            .map(|v| v.trunc() as i32)
            .ok_or_else(|| EntryError::Coordinate { name, found: fields[i].to_string() })
    };
    Ok(Command { kind: kind_of(index), tile: Tile::new(coordinate(1, "x")?, coordinate(2, "y")?) })
}

/// A command the engine refused, and why.
#[pyclass(module = "terminal_studio._engine", frozen, get_all, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct Rejection {
    /// 1 (the algo) or 2 (the opponent).
    pub player: u8,
    /// The command's shorthand as the config spells it.
    pub shorthand: String,
    pub x: i32,
    pub y: i32,
    /// Why, in words (`"not enough resources"`, …).
    pub reason: String,
    /// Why, as a stable code (`"cannot_afford"`, `"occupied"`, …).
    pub code: &'static str,
}

impl Rejection {
    pub fn new(config: &Config, player: Player, command: Command, why: EngineRejection) -> Rejection {
        let shorthand = match command.kind {
            CommandKind::Spawn(t) => config.unit(t as usize).shorthand.clone(),
            CommandKind::Upgrade => config.upgrade_shorthand.clone(),
            CommandKind::Remove => config.remove_shorthand.clone(),
        };
        Rejection {
            player: player.number(),
            shorthand,
            x: command.tile.x,
            y: command.tile.y,
            reason: why.to_string(),
            code: code_of(why),
        }
    }
}

fn code_of(why: EngineRejection) -> &'static str {
    match why {
        EngineRejection::OffBoard => "off_board",
        EngineRejection::EnemyHalf => "enemy_half",
        EngineRejection::Occupied => "occupied",
        EngineRejection::NotAnEdge => "not_an_edge",
        EngineRejection::CannotAfford => "cannot_afford",
        EngineRejection::NoOwnStructure => "no_own_structure",
        EngineRejection::AlreadyUpgraded => "already_upgraded",
        EngineRejection::NotUpgradable => "not_upgradable",
        EngineRejection::AlreadyMarked => "already_marked",
        EngineRejection::RemovalsDisabled => "removals_disabled",
        EngineRejection::WrongLine => "wrong_line",
        EngineRejection::UnknownUnitType => "unknown_unit_type",
    }
}

#[pymethods]
impl Rejection {
    fn __repr__(&self) -> String {
        format!("Rejection(player={}, [{:?}, {}, {}]: {})", self.player, self.shorthand, self.x, self.y, self.reason)
    }
}
