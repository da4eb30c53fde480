//! Commands as algos write them (`[shorthand, x, y]` entries, as a list or a JSON line) and
//! the engine's verdict on each.

use crate::error::BindingError;
use pyo3::prelude::*;
use serde_json::Value;
use terminal_core::engine::config::{REMOVE, UPGRADE};
use terminal_core::engine::game::Rejection as EngineRejection;
use terminal_core::engine::{Command, CommandKind, Config, Player, Tile};

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
        .map(|(entry, e)| parse_entry(config, e).map_err(|message| BindingError::Command { entry, message }))
        .collect()
}

fn parse_entry(config: &Config, entry: &Value) -> Result<Command, String> {
    let fields = entry
        .as_array()
        .filter(|f| f.len() >= 3)
        .ok_or_else(|| format!("expected [shorthand, x, y], found {entry}"))?;
    let index = match &fields[0] {
        Value::String(token) => {
            config.resolve_shorthand(token).ok_or_else(|| format!("unknown shorthand {token:?}"))?
        }
        Value::Number(n) => n
            .as_u64()
            .map(|t| t as usize)
            .filter(|&t| t <= UPGRADE)
            .ok_or_else(|| format!("unit type {n} out of range 0–7"))?,
        other => return Err(format!("the shorthand must be a string or a unit type number, found {other}")),
    };
    let coordinate = |i: usize, name: &str| {
        fields[i]
            .as_f64()
            .map(|v| v.trunc() as i32)
            .ok_or_else(|| format!("{name} must be a number, found {}", fields[i]))
    };
    let tile = Tile::new(coordinate(1, "x")?, coordinate(2, "y")?);
    let kind = match index {
        REMOVE => CommandKind::Remove,
        UPGRADE => CommandKind::Upgrade,
        t => CommandKind::Spawn(t as u8),
    };
    Ok(Command { kind, tile })
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
