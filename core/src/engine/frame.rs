//! What the engine sends each turn and tick: frames, stats, unit lists and events
//! (docs/protocol.md, Frames; docs/replay-format.md). The replay reader and writer use the same types.

use super::geometry::{Player, Tile};
use serde::{Deserialize, Serialize};

/// `turnInfo`: `[phase, turn, actionFrame, totalFrame]` (legacy: no `totalFrame`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TurnInfo {
    pub phase: Phase,
    pub turn: i32,
    pub action_frame: i32,
    pub total_frame: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phase {
    /// Turn frame (deploy phase): algos answer with two lines.
    #[default]
    Deploy,
    /// One action-phase tick.
    Action,
    /// End of game.
    End,
}

impl Phase {
    pub fn number(self) -> i64 {
        match self {
            Phase::Deploy => 0,
            Phase::Action => 1,
            Phase::End => 2,
        }
    }

    pub fn from_number(n: i64) -> Option<Phase> {
        match n {
            0 => Some(Phase::Deploy),
            1 => Some(Phase::Action),
            2 => Some(Phase::End),
            _ => None,
        }
    }
}

/// `p1Stats` / `p2Stats`: `[HP, SP, MP, timeMs]`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Stats {
    pub hp: f32,
    pub sp: f32,
    pub mp: f32,
    pub time_ms: i64,
}

/// One unit in a frame's unit list: `[x, y, health, "id"]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitEntry {
    pub tile: Tile,
    /// Health including shields; `turnsLeft` in the REMOVE list; 0 in the UPGRADE list.
    pub health: f32,
    pub id: u32,
}

/// Number of unit lists per player in the current format (6 types + REMOVE + UPGRADE).
pub(crate) const UNIT_LISTS: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpawnEvent {
    pub tile: Tile,
    pub unit_type: u8,
    pub id: u32,
    pub owner: Player,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveEvent {
    pub from: Tile,
    pub to: Tile,
    pub unit_type: u8,
    pub id: u32,
    pub owner: Player,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackEvent {
    pub from: Tile,
    pub to: Tile,
    pub damage: f32,
    pub attacker_type: u8,
    pub attacker_id: u32,
    pub target_id: u32,
    pub owner: Player,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DamageEvent {
    pub tile: Tile,
    pub damage: f32,
    pub unit_type: u8,
    pub id: u32,
    pub owner: Player,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeathEvent {
    pub tile: Tile,
    pub unit_type: u8,
    pub id: u32,
    pub owner: Player,
    /// True when the owner removed the structure (only in turn frames).
    pub removed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShieldEvent {
    pub from: Tile,
    pub to: Tile,
    pub amount: f32,
    pub support_type: u8,
    pub support_id: u32,
    pub target_id: u32,
    pub owner: Player,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreachEvent {
    pub tile: Tile,
    pub damage: f32,
    pub unit_type: u8,
    pub id: u32,
    pub owner: Player,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelfDestructEvent {
    pub tile: Tile,
    pub victims: Vec<Tile>,
    pub damage: f32,
    pub unit_type: u8,
    pub id: u32,
    pub owner: Player,
}

/// Legacy (2018) melee event; never produced by the current engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeEvent {
    pub from: Tile,
    pub to: Tile,
    pub damage: f32,
    pub unit_type: u8,
    pub id: u32,
    pub owner: Player,
}

/// The nine event lists of a frame.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Events {
    pub self_destruct: Vec<SelfDestructEvent>,
    pub breach: Vec<BreachEvent>,
    pub damage: Vec<DamageEvent>,
    pub shield: Vec<ShieldEvent>,
    pub moves: Vec<MoveEvent>,
    pub spawn: Vec<SpawnEvent>,
    pub death: Vec<DeathEvent>,
    pub attack: Vec<AttackEvent>,
    pub melee: Vec<MeleeEvent>,
}

impl Events {
    pub fn is_empty(&self) -> bool {
        self.self_destruct.is_empty()
            && self.breach.is_empty()
            && self.damage.is_empty()
            && self.shield.is_empty()
            && self.moves.is_empty()
            && self.spawn.is_empty()
            && self.death.is_empty()
            && self.attack.is_empty()
            && self.melee.is_empty()
    }

    /// Empties every list, keeping the allocations for the next frame.
    pub fn clear(&mut self) {
        self.self_destruct.clear();
        self.breach.clear();
        self.damage.clear();
        self.shield.clear();
        self.moves.clear();
        self.spawn.clear();
        self.death.clear();
        self.attack.clear();
        self.melee.clear();
    }
}

/// Per-player totals of `endStats` (docs/replay-format.md, `endStats`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlayerEndStats {
    pub points_scored: f32,
    pub dynamic_resource_spent: f32,
    pub dynamic_resource_destroyed: f32,
    pub dynamic_resource_spoiled: f32,
    pub stationary_resource_spent: f32,
    pub stationary_resource_left_on_board: f32,
    pub crashed: bool,
    pub timeout_death: bool,
    pub time_damage_taken: i64,
    pub total_computation_time: i64,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct EndStats {
    pub duration: i64,
    pub winner: u8,
    pub turns: i32,
    pub frames: i64,
    pub players: [PlayerEndStats; 2],
}

/// One frame, in player 1's view.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    pub turn_info: TurnInfo,
    pub stats: [Stats; 2],
    /// Per player, 8 lists (7 in legacy frames): list i holds units of type i.
    pub units: [Vec<Vec<UnitEntry>>; 2],
    pub events: Events,
    pub end_stats: Option<EndStats>,
}

impl Frame {
    pub fn stats_of(&self, p: Player) -> &Stats {
        &self.stats[p.index()]
    }

    pub fn units_of(&self, p: Player) -> &[Vec<UnitEntry>] {
        &self.units[p.index()]
    }

    /// All entries of real unit types (0–5) of one player.
    pub fn real_units(&self, p: Player) -> impl Iterator<Item = (usize, &UnitEntry)> {
        self.units[p.index()].iter().take(6).enumerate().flat_map(|(t, l)| l.iter().map(move |u| (t, u)))
    }
}

/// Which kinds of event a tick records. A frame needs them all; a search that tallies
/// outcomes reads a few (recording every `move`, `shield` and `attack` was a share of
/// each of its ticks). The state changes the same whatever is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recording {
    pub moves: bool,
    pub shields: bool,
    pub attacks: bool,
    /// `breach`, `damage`, `death` and `self_destruct`: what a tick did to each player.
    pub outcomes: bool,
}

impl Recording {
    pub const ALL: Recording = Recording { moves: true, shields: true, attacks: true, outcomes: true };
    pub const NONE: Recording = Recording { moves: false, shields: false, attacks: false, outcomes: false };
    /// Breaches, damage, deaths and self-destructs only.
    pub const OUTCOMES: Recording = Recording { outcomes: true, ..Recording::NONE };

    /// The same, with the `move` events too if `moves`.
    pub fn with_moves(self, moves: bool) -> Recording {
        Recording { moves: self.moves || moves, ..self }
    }
}
