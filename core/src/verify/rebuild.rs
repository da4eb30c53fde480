//! Rebuilding the engine state from a replay's turn frame, and the turn's inputs (commands
//! from the spawn events, compute times, crashes) that a replay records.

use crate::engine::commands::{Command, CommandKind};
use crate::engine::config::{Config, REMOVE, UPGRADE};
use crate::engine::frame::{Frame, Phase};
use crate::engine::frame_check::{FrameError, MAX_ID, check_frame};
use crate::engine::game::{Game, PlayerState};
use crate::engine::geometry::{Edge, Player};
use crate::engine::unit::Unit;
use crate::replay::Replay;
use std::sync::Arc;

/// For each frame, the highest unit id seen in the replay up to and including it.
pub fn running_max_ids(frames: &[Frame]) -> Vec<u32> {
    let mut max = 0u32;
    frames
        .iter()
        .map(|f| {
            max = max.max(max_id_in(f));
            max
        })
        .collect()
}

/// The highest unit id a frame names, in its unit lists or its spawn events (0 if none).
pub(crate) fn max_id_in(f: &Frame) -> u32 {
    let listed = f.units.iter().flatten().flatten().map(|u| u.id);
    listed.chain(f.events.spawn.iter().map(|s| s.id)).max().unwrap_or(0)
}

/// What a replay tells about one turn's inputs.
#[derive(Debug, Clone, Default)]
pub struct TurnInputs {
    /// Per player: (build line, deploy line), reconstructed from the spawn events.
    pub lines: [(Vec<Command>, Vec<Command>); 2],
    pub time_ms: [i64; 2],
    pub crashed: [bool; 2],
    /// Computation time `endStats` counts that no frame records, added at the last turn:
    /// the August 2018 build writes 0 as every frame's time (its five kit runs: 172 ms
    /// counted, 0 recorded), while every turn's time is in the frames of the 417 other
    /// replays with an end frame.
    pub unrecorded_ms: [i64; 2],
    pub penalised: [bool; 2],
    /// The replay echoes upgrades as base-type spawns (the early-2020 engine).
    pub early_2020: bool,
}

impl TurnInputs {
    /// Charges time (or the crash penalty) and applies the commands.
    pub fn apply(&self, game: &mut Game) {
        game.early_2020 = self.early_2020;
        for p in Player::both() {
            let i = p.index();
            game.player_mut(p).total_computation_time += self.unrecorded_ms[i];
            if self.crashed[i] {
                game.player_mut(p).stats.time_ms = self.time_ms[i];
                game.player_mut(p).total_computation_time += self.time_ms[i];
                game.crash(p);
            } else {
                game.charge_time(p, self.time_ms[i], self.penalised[i]);
            }
        }
        let [(b1, d1), (b2, d2)] = &self.lines;
        game.apply_turn_commands([(b1, d1), (b2, d2)]);
    }
}

/// Reconstructs the commands of a turn from action frame 0's spawn events: per player the
/// entries before that player's first mobile unit form the build line, the rest the deploy
/// line. A structure spawn on a tile already holding the same player's structure is an
/// upgrade (the early-2020 convention, docs/replay-format.md, Eras).
pub fn turn_inputs(replay: &Replay, game: &Game, turn_frame: usize) -> TurnInputs {
    let mut inputs = TurnInputs::default();
    let Some(frame0) = replay.frames.get(turn_frame + 1).filter(|f| f.turn_info.phase == Phase::Action) else {
        return inputs;
    };
    let config = &game.config;
    let mut occupied: std::collections::HashMap<crate::engine::Tile, Player> =
        game.units.iter().filter(|u| u.is_structure).map(|u| (u.tile, u.owner)).collect();
    // Segments in application order: P1 build, P2 build, P1 deploy, P2 deploy. Each entry
    // goes to the earliest segment at or after the current one that can hold it.
    const SEGMENTS: [(usize, bool); 4] = [(0, false), (1, false), (0, true), (1, true)];
    let mut segment = 0usize;
    for s in &frame0.events.spawn {
        let i = s.owner.index();
        let t = s.unit_type as usize;
        let kind = match t {
            REMOVE => CommandKind::Remove,
            UPGRADE => CommandKind::Upgrade,
            t if t < config.units.len() && config.unit(t).is_structure && occupied.get(&s.tile) == Some(&s.owner) => {
                inputs.early_2020 = true;
                CommandKind::Upgrade
            }
            t => CommandKind::Spawn(t as u8),
        };
        let mobile =
            matches!(kind, CommandKind::Spawn(t) if config.units.get(t as usize).is_some_and(|u| !u.is_structure));
        if matches!(kind, CommandKind::Spawn(_)) && !mobile {
            occupied.insert(s.tile, s.owner);
        }
        segment = (segment..4).find(|&k| SEGMENTS[k].0 == i && (SEGMENTS[k].1 || !mobile)).unwrap_or(3);
        let c = Command { kind, tile: s.tile };
        if SEGMENTS[segment].1 { inputs.lines[i].1.push(c) } else { inputs.lines[i].0.push(c) }
    }
    let end = replay.end_frame().and_then(|f| f.end_stats.as_ref());
    let is_last_turn = replay.frames.iter().skip(turn_frame + 1).all(|f| f.turn_info.phase != Phase::Deploy);
    for p in Player::both() {
        let i = p.index();
        inputs.time_ms[i] = frame0.stats[i].time_ms;
        let ps = end.map(|e| &e.players[i]);
        inputs.penalised[i] = ps.is_none_or(|ps| ps.name != "ByHand");
        // A crash costs startingHP + 1 at the last turn; a fatal hard timeout is charged as time.
        inputs.crashed[i] = is_last_turn && ps.is_some_and(|ps| ps.crashed && !ps.timeout_death);
        if is_last_turn && let Some(ps) = ps {
            let recorded: i64 = replay
                .frames
                .iter()
                .filter(|f| f.turn_info.phase == Phase::Action && f.turn_info.action_frame == 0)
                .map(|f| f.stats[i].time_ms)
                .sum();
            inputs.unrecorded_ms[i] = (ps.total_computation_time - recorded).max(0);
        }
    }
    inputs
}

/// Why a replay's turn frame does not describe a game that can be simulated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RebuildError {
    #[error("turn {turn}: removal mark for unknown structure {id}")]
    UnknownRemovalMark { turn: i32, id: u32 },
    /// The frame lies about the board (a tile off it, a figure not finite…).
    #[error(transparent)]
    InvalidFrame(#[from] FrameError),
    /// The frame at `index` of a replay is not a turn frame.
    #[error("frame {index} is not a turn frame")]
    NotATurnFrame { index: usize },
}

/// The game as it stands at a replay's turn frame (index `start`), plus that turn's inputs.
/// `carry` brings the end-of-game totals over from the previous simulated turn.
pub fn game_at_turn_frame(
    replay: &Replay,
    config: &Arc<Config>,
    start: usize,
    max_ids: &[u32],
    carry: Option<[PlayerState; 2]>,
) -> Result<(Game, TurnInputs), RebuildError> {
    let frame = replay
        .frames
        .get(start)
        .filter(|f| f.turn_info.phase == Phase::Deploy)
        .ok_or(RebuildError::NotATurnFrame { index: start })?;
    // The turn's inputs are read from the action frame after it: checked as well.
    if let Some(next) = replay.frames.get(start + 1) {
        check_frame(config, next)?;
    }
    let mut game = game_from_turn_frame(config, frame, max_ids.get(start).copied().unwrap_or(0))?;
    if let Some(players) = carry {
        for (p, carried) in game.players.iter_mut().zip(players) {
            let stats = p.stats;
            *p = carried;
            p.stats = stats;
        }
    }
    game.frames_sent = frame.turn_info.total_frame.unwrap_or(start as i64) + 1;
    game.action_frames_sent =
        replay.frames[..start].iter().filter(|f| f.turn_info.phase == Phase::Action).count() as i64;
    for p in Player::both() {
        if let Some(end) = replay.end_frame().and_then(|f| f.end_stats.as_ref()) {
            game.players[p.index()].name = end.players[p.index()].name.clone();
        }
    }
    let inputs = turn_inputs(replay, &game, start);
    Ok((game, inputs))
}

/// The game as one turn frame shows it: its structures and mobile units (ids, health,
/// upgrades, removal marks) and both players' stats, in its deploy phase. New units get
/// ids above `max_id`. What the frame does not show (frame counters, names, totals of the
/// turns before) starts from zero. The frame is checked first (`check_frame`): the engine
/// trusts every tile and figure it is given.
pub fn game_from_turn_frame(config: &Arc<Config>, frame: &Frame, max_id: u32) -> Result<Game, RebuildError> {
    check_frame(config, frame)?;
    let mut game = Game::new(Arc::clone(config));
    let turn = frame.turn_info.turn;
    game.turn = turn;
    game.action_frame = -1;
    game.frames_sent = frame.turn_info.total_frame.unwrap_or(0) + 1;
    game.next_id = max_id.min(MAX_ID) + 1;
    for p in Player::both() {
        let i = p.index();
        game.players[i].stats = frame.stats[i];
        let lists = &frame.units[i];
        let upgraded: std::collections::HashSet<u32> =
            lists.get(UPGRADE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
        for (t, list) in lists.iter().take(6).enumerate() {
            for e in list {
                let stats = config.unit(t);
                let unit = if stats.is_structure {
                    let mut u = Unit::new_structure(e.id, t as u8, p, e.tile, e.health);
                    u.upgraded = upgraded.contains(&e.id);
                    u
                } else {
                    let edge = Edge::deploy_edge_of(p, e.tile).map(Edge::opposite).unwrap_or(Edge::TopRight);
                    Unit::new_mobile(e.id, t as u8, p, e.tile, e.health, edge)
                };
                game.next_id = game.next_id.max(e.id + 1);
                game.insert_unit(unit);
            }
        }
        if let Some(marks) = lists.get(REMOVE) {
            for m in marks {
                // A 2018–2019 mark is a unit of its own on the structure's tile, health 0.
                let found = if config.legacy {
                    game.structure_on(m.tile).filter(|u| u.owner == p).map(|u| u.id).and_then(|id| game.unit_index(id))
                } else {
                    game.unit_index(m.id)
                };
                let Some(index) = found else {
                    return Err(RebuildError::UnknownRemovalMark { turn, id: m.id });
                };
                let u = &game.units[index];
                let delay = config.form(u.unit_type as usize, u.upgraded).turns_to_remove;
                // A legacy mark does not tell the turns left: taken as due at the next turn.
                let left = if config.legacy { 1 } else { m.health.round() as i32 };
                if config.legacy {
                    game.legacy_marks.push((u.id, m.id));
                }
                game.units[index].marked_turn = Some(turn - (delay - left));
            }
        }
    }
    Ok(game)
}

/// True if any turn of the replay echoes an upgrade as a base-type spawn (early 2020).
pub fn is_early_2020(replay: &Replay, config: &Arc<Config>, max_ids: &[u32]) -> bool {
    replay
        .turn_starts()
        .into_iter()
        .any(|s| game_at_turn_frame(replay, config, s, max_ids, None).is_ok_and(|(_, i)| i.early_2020))
}
