//! What-if: the state at the start of a turn (a replay's turn frame or an editor layout),
//! with edited structures and commands for either player, simulated through the turn and
//! summarised so that several tries of the same turn compare in a table.

use super::debug::{self, FrameDebug};
use super::history::frame_bytes;
use crate::engine::frame::{Frame, Stats};
use crate::engine::unit::Unit;
use crate::engine::{Command, CommandKind, Config, Game, Player, Tile};
use crate::verify::TurnInputs;
use crate::verify::rebuild::RebuildError;
use std::collections::HashMap;
use std::sync::Arc;

/// Safety bound on action frames per simulated turn.
const MAX_FRAMES: usize = 2000;

/// A structure edit applied to the board before the turn's commands (free of charge).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StructureEdit {
    Add { tile: Tile, unit_type: u8, upgraded: bool },
    Remove { tile: Tile },
    Upgrade { tile: Tile },
}

/// A structure of an editor layout, in player 1's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedStructure {
    pub tile: Tile,
    pub unit_type: u8,
    pub upgraded: bool,
}

/// The edits of one try.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WhatIfSpec {
    pub structures: [Vec<StructureEdit>; 2],
    /// Per player: the commands of the turn; `None` keeps what the replay did (nothing for a layout).
    pub commands: [Option<Vec<Command>>; 2],
    /// Per player whose `commands` are `None`: the turn's deploy line in place of the recorded
    /// one, the recorded builds kept (the attack planner's candidates are tried this way).
    pub deploys: [Option<Vec<Command>>; 2],
}

/// Outcome of a try; index = player. Damage and destruction are what the player dealt.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WhatIfSummary {
    pub breaches: [u32; 2],
    pub hp_damage: [f32; 2],
    pub structure_damage: [f32; 2],
    pub unit_damage: [f32; 2],
    /// The opponent's structures this player destroyed.
    pub structures_destroyed: [u32; 2],
    /// SP invested in the opponent's structures this player destroyed.
    pub sp_destroyed: [f32; 2],
    /// MP value of this player's own mobile units that died without breaching.
    pub mp_lost: [f32; 2],
    pub action_frames: usize,
    /// Commands the engine rejected, per player.
    pub rejected: [usize; 2],
}

#[derive(Debug, Clone)]
pub struct WhatIfTry {
    pub label: String,
    pub turn: i32,
    pub spec: WhatIfSpec,
    pub summary: WhatIfSummary,
    pub final_frame: Frame,
    /// Every frame of the try, to watch it like a replay's turn: the deploy frame after the
    /// commands, each action frame, then the end-of-turn frame (the next turn's turn frame,
    /// absent when the game ended). Shared, so that the UI's copy costs nothing.
    pub frames: Arc<Vec<Frame>>,
    /// The debugger data of each of `frames` (paths, targets, shields, markers).
    pub debug: Arc<Vec<FrameDebug>>,
    pub config: Arc<Config>,
    /// The rules of the early-2020 engine build applied.
    pub early_2020: bool,
}

impl WhatIfTry {
    /// Approximate heap bytes of the kept frames and their debugger data.
    pub fn approx_bytes(&self) -> usize {
        self.frames.iter().map(frame_bytes).sum::<usize>()
            + self.frames.capacity() * std::mem::size_of::<Frame>()
            + self.debug.iter().map(debug::approx_bytes).sum::<usize>()
            + self.debug.capacity() * std::mem::size_of::<FrameDebug>()
    }
}

/// Why a what-if could not be run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WhatIfError {
    #[error("{tile} is not on player {}'s half", player.number())]
    NotYourHalf { player: Player, tile: Tile },
    #[error("unit type {0} is not a structure")]
    NotAStructure(u8),
    #[error("{0} already holds a structure")]
    Occupied(Tile),
    #[error("no own structure on {0}")]
    NoOwnStructure(Tile),
    #[error("{0}: this structure has no upgrade")]
    NoUpgrade(Tile),
    #[error("no replay loaded")]
    NoReplay,
    #[error("the replay has no turn {0}")]
    NoSuchTurn(i32),
    #[error(transparent)]
    Rebuild(#[from] RebuildError),
}

/// A game in the deploy phase of `turn` with the given structures (player 1's view) and stats.
pub fn game_from_structures(
    config: Arc<Config>,
    turn: i32,
    structures: &[Vec<PlacedStructure>; 2],
    stats: [Stats; 2],
) -> Result<Game, WhatIfError> {
    let mut game = Game::new(config);
    game.turn = turn;
    for p in Player::both() {
        game.player_mut(p).stats = stats[p.index()];
    }
    for p in Player::both() {
        let edits: Vec<StructureEdit> = structures[p.index()]
            .iter()
            .map(|s| StructureEdit::Add { tile: s.tile, unit_type: s.unit_type, upgraded: s.upgraded })
            .collect();
        game = apply_edits(&game, p, &edits)?;
    }
    Ok(game)
}

/// A copy of `game` (in its deploy phase) with one player's structure edits applied.
pub(crate) fn apply_edits(game: &Game, p: Player, edits: &[StructureEdit]) -> Result<Game, WhatIfError> {
    let config = Arc::clone(&game.config);
    let mut units: Vec<Unit> = game.units.clone();
    let mut next_id = game.next_id;
    for &e in edits {
        let tile = match e {
            StructureEdit::Add { tile, .. } | StructureEdit::Remove { tile } | StructureEdit::Upgrade { tile } => tile,
        };
        if !p.owns(tile) {
            return Err(WhatIfError::NotYourHalf { player: p, tile });
        }
        let at = units.iter().position(|u| u.is_structure && u.tile == tile);
        match e {
            StructureEdit::Add { unit_type, upgraded, .. } => {
                let stats = config.units.get(unit_type as usize).filter(|s| s.is_structure);
                if stats.is_none() {
                    return Err(WhatIfError::NotAStructure(unit_type));
                }
                if at.is_some() {
                    return Err(WhatIfError::Occupied(tile));
                }
                let health = config.form(unit_type as usize, upgraded).start_health;
                let mut u = Unit::new_structure(next_id, unit_type, p, tile, health);
                u.upgraded = upgraded;
                next_id += 1;
                units.push(u);
            }
            StructureEdit::Remove { .. } => {
                let i = at.filter(|&i| units[i].owner == p).ok_or(WhatIfError::NoOwnStructure(tile))?;
                units.remove(i);
            }
            StructureEdit::Upgrade { .. } => {
                let i = at.filter(|&i| units[i].owner == p).ok_or(WhatIfError::NoOwnStructure(tile))?;
                let u = &mut units[i];
                let base = config.unit(u.unit_type as usize);
                let up = base.upgrade.as_deref().ok_or(WhatIfError::NoUpgrade(tile))?;
                if !u.upgraded {
                    u.upgraded = true;
                    u.base_health = (u.base_health + up.start_health - base.start_health).min(up.start_health);
                    u.refresh_health();
                }
            }
        }
    }
    let mut out = Game::new(config);
    out.turn = game.turn;
    out.action_frame = game.action_frame;
    out.frames_sent = game.frames_sent;
    out.action_frames_sent = game.action_frames_sent;
    out.players = game.players.clone();
    out.early_2020 = game.early_2020;
    out.next_id = next_id;
    for u in units {
        out.insert_unit(u);
    }
    Ok(out)
}

/// Splits a command list into a build line (structures, upgrades, removals) and a deploy line.
fn split_lines(config: &Config, commands: &[Command]) -> (Vec<Command>, Vec<Command>) {
    commands.iter().partition(|c| match c.kind {
        CommandKind::Spawn(t) => config.units.get(t as usize).is_some_and(|u| u.is_structure),
        _ => true,
    })
}

/// Runs one try from a deploy-phase `game`; `replay_inputs` supplies the commands of players
/// whose commands the spec keeps.
pub fn run(
    game: &Game,
    replay_inputs: Option<&TurnInputs>,
    spec: &WhatIfSpec,
    label: &str,
) -> Result<WhatIfTry, WhatIfError> {
    let mut g = game.clone();
    for p in Player::both() {
        g = apply_edits(&g, p, &spec.structures[p.index()])?;
    }
    let config = Arc::clone(&g.config);
    let lines: [(Vec<Command>, Vec<Command>); 2] = Player::both().map(|p| match &spec.commands[p.index()] {
        Some(list) => split_lines(&config, list),
        None => {
            let (builds, recorded) = replay_inputs.map(|i| i.lines[p.index()].clone()).unwrap_or_default();
            (builds, spec.deploys[p.index()].clone().unwrap_or(recorded))
        }
    });
    if let Some(inputs) = replay_inputs {
        g.early_2020 = inputs.early_2020;
    }
    let [(b1, d1), (b2, d2)] = &lines;
    let rejected = g.apply_turn_commands([(b1, d1), (b2, d2)]);
    let mut summary = WhatIfSummary { rejected: rejected.map(|r| r.len()), ..WhatIfSummary::default() };
    let upgraded: HashMap<u32, bool> = g.units.iter().map(|u| (u.id, u.upgraded)).collect();
    let turn = g.turn;
    let mut shields = HashMap::new();
    // The turn frame was counted when the turn began; this is the same frame after the
    // commands, so it keeps that number and the action frames keep the replay's.
    let counted = g.frames_sent;
    let mut deploy = g.turn_frame();
    g.frames_sent = counted;
    deploy.turn_info.total_frame = Some((counted - 1).max(0));
    // The commands' events (spawns) belong to the first action frame, as in a replay.
    g.events = std::mem::take(&mut deploy.events);
    let mut debug = vec![debug::frame_debug(&mut g, &deploy.events, &[], &shields)];
    let mut frames = vec![deploy];
    g.target_log = Some(Vec::new());
    while !g.action_phase_done() && summary.action_frames < MAX_FRAMES {
        let f = g.action_frame();
        let log = g.target_log.replace(Vec::new()).unwrap_or_default();
        debug::record_shields(&mut shields, &f.events);
        debug.push(debug::frame_debug(&mut g, &f.events, &log, &shields));
        tally(&config, &f, &upgraded, &mut summary);
        summary.action_frames += 1;
        frames.push(f);
    }
    g.target_log = None;
    let final_frame = frames.last().cloned().unwrap_or_default();
    g.end_turn();
    if !g.over {
        let end = g.turn_frame();
        debug.push(debug::frame_debug(&mut g, &end.events, &[], &HashMap::new()));
        frames.push(end);
    }
    frames.shrink_to_fit();
    debug.shrink_to_fit();
    Ok(WhatIfTry {
        label: label.to_string(),
        turn,
        spec: spec.clone(),
        summary,
        final_frame,
        frames: Arc::new(frames),
        debug: Arc::new(debug),
        config,
        early_2020: g.early_2020,
    })
}

fn tally(config: &Config, f: &Frame, upgraded: &HashMap<u32, bool>, s: &mut WhatIfSummary) {
    let is_structure = |t: u8| config.units.get(t as usize).is_some_and(|u| u.is_structure);
    for b in &f.events.breach {
        let i = b.owner.index();
        s.breaches[i] += 1;
        s.hp_damage[i] += b.damage;
    }
    for d in &f.events.damage {
        let dealer = d.owner.opponent().index();
        if is_structure(d.unit_type) {
            s.structure_damage[dealer] += d.damage;
        } else {
            s.unit_damage[dealer] += d.damage;
        }
    }
    let breached: Vec<u32> = f.events.breach.iter().map(|b| b.id).collect();
    let mut seen: Vec<u32> = Vec::new();
    for d in &f.events.death {
        if d.removed || breached.contains(&d.id) || seen.contains(&d.id) {
            continue;
        }
        seen.push(d.id);
        if is_structure(d.unit_type) {
            let up = upgraded.get(&d.id).copied().unwrap_or(false);
            s.structures_destroyed[d.owner.opponent().index()] += 1;
            s.sp_destroyed[d.owner.opponent().index()] += config.invested_sp(d.unit_type as usize, up);
        } else if let Some(u) = config.units.get(d.unit_type as usize) {
            s.mp_lost[d.owner.index()] += u.cost_mp;
        }
    }
}
