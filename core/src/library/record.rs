//! What the library keeps of one game, read from its replay: who played, who won and how, and
//! per turn the players' state, where mobile units were spawned and where they breached.

use crate::engine::frame::{Frame, Phase};
use crate::engine::{Config, Player};
use crate::replay::Replay;
use crate::session::summary::structure_value;
use serde::{Deserialize, Serialize};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EndKind {
    /// A player's HP reached 0.
    Hp,
    /// The turn limit came first.
    Turns,
    /// An algo crashed.
    Crash,
    /// An algo ran out of time.
    Timeout,
    /// The replay has no end frame (a match stopped or killed while it was written).
    Unfinished,
}

impl EndKind {
    pub const ALL: [EndKind; 5] = [EndKind::Hp, EndKind::Turns, EndKind::Crash, EndKind::Timeout, EndKind::Unfinished];

    /// The name stored in the index and used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EndKind::Hp => "hp",
            EndKind::Turns => "turns",
            EndKind::Crash => "crash",
            EndKind::Timeout => "timeout",
            EndKind::Unfinished => "unfinished",
        }
    }

    pub fn from_name(name: &str) -> Option<EndKind> {
        EndKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One player's state at the start of a turn (its deploy frame).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TurnState {
    pub turn: i32,
    /// 0 for player 1, 1 for player 2.
    pub player: u8,
    pub hp: f32,
    pub sp: f32,
    pub mp: f32,
    /// SP invested in the player's structures on the board.
    pub structure_value: f32,
}

/// Mobile units of one type a player spawned on one tile in one turn.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SpawnCount {
    pub turn: i32,
    pub player: u8,
    pub unit_type: u8,
    pub x: i32,
    pub y: i32,
    pub count: u32,
}

/// Breaches one player scored on one tile in one turn: their number and the HP they took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BreachTotal {
    pub turn: i32,
    /// The player whose units scored (0 or 1): the other one lost the HP.
    pub player: u8,
    pub x: i32,
    pub y: i32,
    pub damage: f32,
    pub count: u32,
}

/// What the library keeps of one game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameRecord {
    /// `verify::ruleset_name` of the replay's config.
    pub ruleset: String,
    /// The players' names as the replay records them (empty where it records none).
    pub players: [String; 2],
    /// 1 or 2; `None` for an unfinished game.
    pub winner: Option<u8>,
    pub end: EndKind,
    /// Turns played (the end frame's count, else the last turn seen).
    pub turns: i32,
    /// HP at the start of the game and at its end (the last frame when there is no end frame).
    pub start_hp: [f32; 2],
    pub final_hp: [f32; 2],
    /// The engine's recorded game length in milliseconds (0 without an end frame).
    pub duration_ms: i64,
    pub turn_states: Vec<TurnState>,
    pub spawns: Vec<SpawnCount>,
    pub breaches: Vec<BreachTotal>,
}

impl GameRecord {
    /// The record of a replay read in full or as a summary (action frames' unit lists are
    /// not used).
    pub fn of_replay(replay: &Replay) -> GameRecord {
        let end = replay.end_frame().and_then(|f| f.end_stats.as_ref());
        let players = match end {
            Some(e) => [e.players[0].name.clone(), e.players[1].name.clone()],
            None => crate::runner::names_in_replay_path(&replay.source).unwrap_or_default(),
        };
        let end_kind = match end {
            None => EndKind::Unfinished,
            Some(e) if e.players.iter().any(|p| p.crashed) => EndKind::Crash,
            Some(e) if e.players.iter().any(|p| p.timeout_death) => EndKind::Timeout,
            Some(_) => {
                let last = replay.frames.last().map(|f| f.stats.map(|s| s.hp)).unwrap_or_default();
                if last.iter().any(|hp| *hp <= 0.0) { EndKind::Hp } else { EndKind::Turns }
            }
        };
        let hp_of = |f: Option<&Frame>| f.map(|f| [f.stats[0].hp, f.stats[1].hp]).unwrap_or_default();
        GameRecord {
            ruleset: crate::verify::ruleset_name(&replay.config),
            players,
            winner: end.map(|e| e.winner).filter(|w| matches!(w, 1 | 2)),
            end: end_kind,
            turns: end.map(|e| e.turns).unwrap_or_else(|| replay.frames.last().map_or(0, |f| f.turn_info.turn)),
            start_hp: hp_of(replay.frames.first()),
            final_hp: hp_of(replay.frames.last()),
            duration_ms: end.map_or(0, |e| e.duration),
            turn_states: turn_states(&replay.config, &replay.frames),
            spawns: spawns(&replay.config, &replay.frames),
            breaches: breaches(&replay.frames),
        }
    }

    /// The player (0 or 1) named `name`, if one of the two is.
    pub fn seat_of(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p == name)
    }
}

fn turn_states(config: &Config, frames: &[Frame]) -> Vec<TurnState> {
    let mut out = Vec::new();
    for f in frames.iter().filter(|f| f.turn_info.phase == Phase::Deploy) {
        for p in Player::both() {
            let s = f.stats_of(p);
            out.push(TurnState {
                turn: f.turn_info.turn,
                player: p.index() as u8,
                hp: s.hp,
                sp: s.sp,
                mp: s.mp,
                structure_value: structure_value(config, f, p),
            });
        }
    }
    out
}

fn spawns(config: &Config, frames: &[Frame]) -> Vec<SpawnCount> {
    let mut out: Vec<SpawnCount> = Vec::new();
    for f in frames {
        for s in &f.events.spawn {
            let mobile = config.units.get(usize::from(s.unit_type)).is_some_and(|u| !u.is_structure);
            if !mobile {
                continue;
            }
            let key = (f.turn_info.turn, s.owner.index() as u8, s.unit_type, s.tile.x, s.tile.y);
            match out.iter_mut().rev().find(|c| (c.turn, c.player, c.unit_type, c.x, c.y) == key) {
                Some(c) => c.count += 1,
                None => {
                    out.push(SpawnCount { turn: key.0, player: key.1, unit_type: key.2, x: key.3, y: key.4, count: 1 })
                }
            }
        }
    }
    out
}

fn breaches(frames: &[Frame]) -> Vec<BreachTotal> {
    let mut out: Vec<BreachTotal> = Vec::new();
    for f in frames {
        for b in &f.events.breach {
            let key = (f.turn_info.turn, b.owner.index() as u8, b.tile.x, b.tile.y);
            match out.iter_mut().rev().find(|c| (c.turn, c.player, c.x, c.y) == key) {
                Some(c) => {
                    c.damage += b.damage;
                    c.count += 1;
                }
                None => {
                    out.push(BreachTotal { turn: key.0, player: key.1, x: key.2, y: key.3, damage: b.damage, count: 1 })
                }
            }
        }
    }
    out
}
