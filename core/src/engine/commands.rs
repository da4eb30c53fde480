//! Player commands: parsing the two reply lines and the command kinds (docs/protocol.md:
//! The reply, Reading the reply, Applying commands).

use super::config::{Config, REMOVE, UPGRADE};
use super::geometry::Tile;
use serde_json::Value;

/// What one entry of a reply line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandKind {
    /// Place a structure or deploy a mobile unit of this type (0–5).
    Spawn(u8),
    Upgrade,
    Remove,
}

/// One entry `[shorthand, x, y]`, in the true (player 1) coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Command {
    pub kind: CommandKind,
    pub tile: Tile,
}

impl Command {
    pub fn spawn(unit_type: usize, x: i32, y: i32) -> Command {
        Command { kind: CommandKind::Spawn(unit_type as u8), tile: Tile::new(x, y) }
    }
    pub fn upgrade(x: i32, y: i32) -> Command {
        Command { kind: CommandKind::Upgrade, tile: Tile::new(x, y) }
    }
    pub fn remove(x: i32, y: i32) -> Command {
        Command { kind: CommandKind::Remove, tile: Tile::new(x, y) }
    }
}

/// What was wrong with a reply line or one of its entries (for the match log).
#[derive(Debug, Clone, PartialEq)]
pub struct LineProblem {
    pub entry: Option<usize>,
    pub message: String,
}

/// Parses one reply line leniently (docs/protocol.md, Reading the reply): a line that is
/// not a JSON list of lists yields no commands; a malformed entry is skipped; coordinates
/// are truncated to integers; the shorthand is matched by substring. Returns the commands and the problems found.
pub fn parse_line(config: &Config, line: &str) -> (Vec<Command>, Vec<LineProblem>) {
    let mut commands = Vec::new();
    let mut problems = Vec::new();
    let value: Value = match serde_json::from_str(line.trim()) {
        Ok(v) => v,
        Err(e) => {
            problems.push(LineProblem { entry: None, message: format!("not JSON ({e}); line ignored") });
            return (commands, problems);
        }
    };
    let Some(entries) = value.as_array() else {
        problems.push(LineProblem { entry: None, message: "not a JSON list; line ignored".into() });
        return (commands, problems);
    };
    for (i, entry) in entries.iter().enumerate() {
        let bad = |m: &str| LineProblem { entry: Some(i), message: format!("entry {entry}: {m}") };
        let Some(fields) = entry.as_array() else {
            problems.push(bad("not a list"));
            continue;
        };
        if fields.len() < 3 {
            problems.push(bad("expected [shorthand, x, y]"));
            continue;
        }
        let Some(token) = fields[0].as_str() else {
            problems.push(bad("shorthand is not a string"));
            continue;
        };
        let (Some(x), Some(y)) = (fields[1].as_f64(), fields[2].as_f64()) else {
            problems.push(bad("x or y is not a number"));
            continue;
        };
        let Some(index) = config.resolve_shorthand(token) else {
            problems.push(bad("unknown shorthand"));
            continue;
        };
        let kind = match index {
            REMOVE => CommandKind::Remove,
            UPGRADE => CommandKind::Upgrade,
            t => CommandKind::Spawn(t as u8),
        };
        commands.push(Command { kind, tile: Tile::new(x.trunc() as i32, y.trunc() as i32) });
    }
    (commands, problems)
}

/// Serialises commands as a reply line in the given view (shorthands from the config).
pub fn to_line(config: &Config, commands: &[Command]) -> String {
    let entries: Vec<Value> = commands
        .iter()
        .map(|c| {
            let token = match c.kind {
                CommandKind::Spawn(t) => config.unit(t as usize).shorthand.clone(),
                CommandKind::Upgrade => config.upgrade_shorthand.clone(),
                CommandKind::Remove => config.remove_shorthand.clone(),
            };
            Value::Array(vec![Value::from(token), Value::from(c.tile.x), Value::from(c.tile.y)])
        })
        .collect();
    Value::Array(entries).to_string()
}
