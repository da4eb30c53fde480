//! Per-frame debugger data, computed by re-simulating a turn with the engine (frame-exact on
//! real replays): each mobile unit's predicted remaining path, the tile it moved from, its
//! steps, the shields it received and its target with the deciding criterion; attack lines;
//! deaths, breaches and self-destructs (with blast area) as markers.

use super::history::History;
use crate::engine::config::form_index;
use crate::engine::frame::{Events, Frame};
use crate::engine::geometry::{CELLS, all_tiles};
use crate::engine::target_log::{Criterion, TargetChoice};
use crate::engine::unit::Axis;
use crate::engine::{Command, Config, Game, Player, Tile};
use crate::verify::{compare_frames, game_at_turn_frame};
use std::collections::HashMap;
use std::sync::Arc;

/// A shield a unit received from a Support this turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ShieldGrant {
    pub support_id: u32,
    pub support_tile: Tile,
    pub amount: f32,
}

/// How a predicted path ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathEnd {
    Breach,
    SelfDestruct,
}

/// What a unit is shooting at this frame and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetInfo {
    pub target_id: u32,
    pub target_tile: Tile,
    pub criterion: Criterion,
}

/// A mobile unit as the inspector shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitDebug {
    pub id: u32,
    pub unit_type: u8,
    pub owner: Player,
    pub tile: Tile,
    pub health: f32,
    /// Part of `health` that is shield.
    pub shield: f32,
    pub steps: u32,
    /// Where it stood before this frame's move, if it moved.
    pub moved_from: Option<Tile>,
    /// From its current tile to where it will breach or self-destruct, current tile first.
    pub path: Vec<Tile>,
    pub path_end: PathEnd,
    pub shields: Vec<ShieldGrant>,
    pub target: Option<TargetInfo>,
}

/// An attack line.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackView {
    pub attacker_id: u32,
    pub from: Tile,
    pub to: Tile,
    pub target_id: u32,
    pub damage: f32,
    /// Known when the frame was simulated.
    pub criterion: Option<Criterion>,
}

/// Event markers (the GUI fades them over a few frames).
#[derive(Debug, Clone, PartialEq)]
pub enum Marker {
    Death { tile: Tile, id: u32, unit_type: u8, owner: Player, removed: bool },
    Breach { tile: Tile, id: u32, owner: Player, damage: f32 },
    SelfDestruct { tile: Tile, id: u32, owner: Player, damage: f32, blast: Vec<Tile> },
}

/// Everything the debugger draws for one frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FrameDebug {
    /// True when the data came from the engine (false for legacy replays and frames the
    /// engine did not reproduce, where only the replay's events are shown).
    pub simulated: bool,
    /// The engine's frame equals the replay's.
    pub engine_matches: bool,
    pub mobiles: Vec<UnitDebug>,
    pub attacks: Vec<AttackView>,
    pub markers: Vec<Marker>,
}

/// The debugger data of every frame of one turn.
#[derive(Debug, Clone, Default)]
pub struct TurnDebug {
    pub turn: i32,
    pub frames: Vec<FrameDebug>,
    /// The commands the players gave this turn, read from the replay's spawn events (empty
    /// when the turn frame could not be rebuilt).
    pub played: Arc<PlayedCommands>,
}

/// Per player, the (build line, deploy line) of one turn, in true-board coordinates.
pub type PlayedCommands = [(Vec<Command>, Vec<Command>); 2];

/// The tiles a self-destruct of a unit of this type at `tile` reaches (the largest reach
/// over target forms, i.e. `selfDestructRange` plus the largest hit radius).
pub(crate) fn blast_area(config: &Config, unit_type: u8, tile: Tile) -> Vec<Tile> {
    let form = form_index(unit_type as usize, false);
    let Some(row) = config.reach.self_destruct.get(form) else { return Vec::new() };
    let r2 = row.iter().copied().max().unwrap_or(-1);
    if r2 < 0 {
        return Vec::new();
    }
    all_tiles().filter(|t| t.dist2(tile) <= r2).collect()
}

/// Markers and attack lines read from a frame's events (no engine needed).
pub(crate) fn from_events(config: &Config, events: &Events) -> FrameDebug {
    let mut d = FrameDebug::default();
    for e in &events.death {
        d.markers.push(Marker::Death {
            tile: e.tile,
            id: e.id,
            unit_type: e.unit_type,
            owner: e.owner,
            removed: e.removed,
        });
    }
    for e in &events.breach {
        d.markers.push(Marker::Breach { tile: e.tile, id: e.id, owner: e.owner, damage: e.damage });
    }
    for e in &events.self_destruct {
        if d.markers.iter().any(|m| matches!(m, Marker::SelfDestruct { id, .. } if *id == e.id)) {
            continue;
        }
        d.markers.push(Marker::SelfDestruct {
            tile: e.tile,
            id: e.id,
            owner: e.owner,
            damage: e.damage,
            blast: blast_area(config, e.unit_type, e.tile),
        });
    }
    for a in &events.attack {
        d.attacks.push(AttackView {
            attacker_id: a.attacker_id,
            from: a.from,
            to: a.to,
            target_id: a.target_id,
            damage: a.damage,
            criterion: None,
        });
    }
    d
}

/// The remaining path of a unit at `from` bound for `edge` whose last step was on `axis`.
pub(crate) fn remaining_path(
    game: &mut Game,
    from: Tile,
    edge: crate::engine::Edge,
    axis: Axis,
) -> (Vec<Tile>, PathEnd) {
    let mut path = vec![from];
    let (mut cur, mut axis) = (from, axis);
    let pathfinder = game.pathfinder();
    while let Some(next) = pathfinder.next_step(cur, edge, axis) {
        axis = if next.y == cur.y { Axis::Horizontal } else { Axis::Vertical };
        cur = next;
        path.push(cur);
        if path.len() > CELLS {
            break;
        }
    }
    let end = if edge.contains(cur) { PathEnd::Breach } else { PathEnd::SelfDestruct };
    (path, end)
}

/// Adds the shields of a frame's events to the grants per receiving unit.
pub(crate) fn record_shields(shields: &mut HashMap<u32, Vec<ShieldGrant>>, events: &Events) {
    for s in &events.shield {
        shields.entry(s.target_id).or_default().push(ShieldGrant {
            support_id: s.support_id,
            support_tile: s.from,
            amount: s.amount,
        });
    }
}

/// Approximate heap bytes of one frame's debugger data (element sizes × capacities).
pub fn approx_bytes(d: &FrameDebug) -> usize {
    use std::mem::size_of;
    d.mobiles.capacity() * size_of::<UnitDebug>()
        + d.mobiles
            .iter()
            .map(|m| m.path.capacity() * size_of::<Tile>() + m.shields.capacity() * size_of::<ShieldGrant>())
            .sum::<usize>()
        + d.attacks.capacity() * size_of::<AttackView>()
        + d.markers.capacity() * size_of::<Marker>()
        + d.markers
            .iter()
            .map(|m| if let Marker::SelfDestruct { blast, .. } = m { blast.capacity() * size_of::<Tile>() } else { 0 })
            .sum::<usize>()
}

/// Debugger data for the game's state after a frame whose events are `events`.
pub(crate) fn frame_debug(
    game: &mut Game,
    events: &Events,
    log: &[TargetChoice],
    shields: &HashMap<u32, Vec<ShieldGrant>>,
) -> FrameDebug {
    let mut d = from_events(&game.config, events);
    d.simulated = true;
    let by_attacker: HashMap<u32, &TargetChoice> = log.iter().map(|c| (c.attacker_id, c)).collect();
    for a in d.attacks.iter_mut() {
        a.criterion = by_attacker.get(&a.attacker_id).map(|c| c.criterion);
    }
    let mobiles: Vec<_> = game
        .units
        .iter()
        .filter(|u| !u.is_structure)
        .map(|u| (u.id, u.unit_type, u.owner, u.tile, u.health, u.base_health, u.steps, u.target_edge, u.last_axis))
        .collect();
    for (id, unit_type, owner, tile, health, base, steps, edge, axis) in mobiles {
        let (path, path_end) = remaining_path(game, tile, edge, axis);
        let moved_from = events.moves.iter().find(|m| m.id == id).map(|m| m.from);
        let target = by_attacker.get(&id).and_then(|c| {
            let to = events.attack.iter().find(|a| a.attacker_id == id).map(|a| a.to)?;
            Some(TargetInfo { target_id: c.target_id, target_tile: to, criterion: c.criterion })
        });
        d.mobiles.push(UnitDebug {
            id,
            unit_type,
            owner,
            tile,
            health,
            shield: (health - base).max(0.0),
            steps,
            moved_from,
            path,
            path_end,
            shields: shields.get(&id).cloned().unwrap_or_default(),
            target,
        });
    }
    d
}

/// Re-simulates the turn at position `pos` of the history and returns every frame's data.
/// Turns that cannot be rebuilt get the replay's events only.
pub fn simulate_turn(history: &History, pos: usize) -> TurnDebug {
    let Some(span) = history.turns.get(pos).copied() else { return TurnDebug::default() };
    let frames = &history.replay.frames;
    let fallback = |k: usize| from_events(&history.config, &frames[k].events);
    let mut out = TurnDebug { turn: span.turn, frames: Vec::with_capacity(span.len), played: Default::default() };
    let rebuilt = game_at_turn_frame(&history.replay, &history.config, span.start, &history.max_ids, None).ok();
    let Some((mut game, mut inputs)) = rebuilt else {
        out.frames.extend((span.start..span.start + span.len).map(fallback));
        return out;
    };
    inputs.early_2020 |= history.early_2020;
    out.played = Arc::new(inputs.lines.clone());
    let mut shields: HashMap<u32, Vec<ShieldGrant>> = HashMap::new();
    let mut first = frame_debug(&mut game, &frames[span.start].events, &[], &shields);
    first.engine_matches = true;
    out.frames.push(first);
    inputs.apply(&mut game);
    game.target_log = Some(Vec::new());
    let mut k = span.start + 1;
    while k < span.start + span.len && !game.action_phase_done() {
        let ours = game.action_frame();
        let log = game.target_log.replace(Vec::new()).unwrap_or_default();
        record_shields(&mut shields, &ours.events);
        let mut d = frame_debug(&mut game, &ours.events, &log, &shields);
        d.engine_matches = compare_frames(&frames[k], &ours).is_ok();
        out.frames.push(d);
        k += 1;
    }
    out.frames.extend((k..span.start + span.len).map(fallback));
    out
}

/// The simulated action frames of a turn with the engine's target log, for tests and tools:
/// `(engine frame, attacks with explanation)` per action frame.
pub fn simulate_turn_frames(history: &History, pos: usize) -> Vec<(Frame, Vec<TargetChoice>)> {
    let Some(span) = history.turns.get(pos).copied() else { return Vec::new() };
    let Ok((mut game, mut inputs)) =
        game_at_turn_frame(&history.replay, &history.config, span.start, &history.max_ids, None)
    else {
        return Vec::new();
    };
    inputs.early_2020 |= history.early_2020;
    inputs.apply(&mut game);
    game.target_log = Some(Vec::new());
    let mut out = Vec::new();
    for _ in 1..span.len {
        if game.action_phase_done() {
            break;
        }
        let f = game.action_frame();
        out.push((f, game.target_log.replace(Vec::new()).unwrap_or_default()));
    }
    out
}
