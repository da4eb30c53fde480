//! What the viewer needs once per replay: names, turns and frames, and per-turn series for
//! the plots (HP, SP, MP, structure value per player, compute time per turn).

use super::history::History;
use crate::engine::config::{UNIT_TYPES, UPGRADE};
use crate::engine::frame::{Frame, Phase};
use crate::engine::{Config, Player};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

/// One turn's point of every plot, read at its turn frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TurnStats {
    pub turn: i32,
    /// Index of the turn frame in the replay, and frames in the turn (turn frame included).
    pub start: usize,
    pub frames: usize,
    pub hp: [f32; 2],
    pub sp: [f32; 2],
    pub mp: [f32; 2],
    /// SP invested in the structures on the board.
    pub structure_value: [f32; 2],
    /// Milliseconds each algo took to answer this turn (0 where not recorded).
    pub time_ms: [i64; 2],
}

#[derive(Debug, Clone)]
pub struct ReplaySummary {
    pub path: PathBuf,
    pub legacy: bool,
    pub names: [String; 2],
    pub frames: usize,
    pub turns: Vec<TurnStats>,
    /// 1 or 2, from the end frame.
    pub winner: Option<u8>,
    pub early_2020: bool,
    /// Bytes the frame history holds (`History::approx_bytes`).
    pub history_bytes: usize,
    /// The replay's ruleset (detected by the history): health bars and what-if layouts use it.
    pub config: Arc<Config>,
    /// The end frame's stats and structures (HP, SP, structure value), if the replay has one:
    /// the game's true end (the last turn frame is before the last turn's damage).
    pub end: Option<EndState>,
    /// The file ends in an incomplete line at this line number (a match killed mid-write).
    pub truncated_at: Option<usize>,
}

/// The players' state in the end frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct EndState {
    pub hp: [f32; 2],
    pub sp: [f32; 2],
    pub structure_value: [f32; 2],
}

/// SP invested in a player's structures listed in a frame.
pub fn structure_value(config: &Config, frame: &Frame, p: Player) -> f32 {
    let lists = frame.units_of(p);
    let upgraded: HashSet<u32> = lists.get(UPGRADE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
    let mut total = 0.0;
    for (t, list) in lists.iter().take(UNIT_TYPES).enumerate() {
        if config.units.get(t).is_none_or(|u| !u.is_structure) {
            continue;
        }
        total += list.iter().map(|u| config.invested_sp(t, upgraded.contains(&u.id))).sum::<f32>();
    }
    total
}

pub fn summarize(history: &History) -> ReplaySummary {
    let replay = &history.replay;
    let end = replay.end_frame().and_then(|f| f.end_stats.as_ref());
    let mut names = match (end, &history.live_names) {
        (Some(e), _) => [e.players[0].name.clone(), e.players[1].name.clone()],
        (None, Some(names)) => names.clone(),
        // A match stopped before its end frame: the names its file was given.
        (None, None) => crate::runner::names_in_replay_path(&history.replay.source)
            .unwrap_or_else(|| [String::new(), String::new()]),
    };
    // Some engine builds wrote end stats without names (the August 2018 one).
    for (name, fallback) in names.iter_mut().zip(["Player 1", "Player 2"]) {
        if name.trim().is_empty() {
            *name = fallback.into();
        }
    }
    let turns = history
        .turns
        .iter()
        .map(|span| {
            let f = &replay.frames[span.start];
            let time_frame = replay.frames.get(span.start + 1).filter(|g| g.turn_info.phase == Phase::Action);
            let mut s = TurnStats { turn: span.turn, start: span.start, frames: span.len, ..TurnStats::default() };
            for p in Player::both() {
                let i = p.index();
                s.hp[i] = f.stats[i].hp;
                s.sp[i] = f.stats[i].sp;
                s.mp[i] = f.stats[i].mp;
                s.structure_value[i] = structure_value(&history.config, f, p);
                s.time_ms[i] = time_frame.map_or(0, |g| g.stats[i].time_ms);
            }
            s
        })
        .collect();
    ReplaySummary {
        path: replay.source.clone(),
        legacy: replay.legacy,
        names,
        frames: replay.frames.len(),
        turns,
        winner: end.map(|e| e.winner),
        early_2020: history.early_2020,
        history_bytes: history.approx_bytes(),
        config: Arc::clone(&history.config),
        truncated_at: replay.truncated_at,
        end: replay.end_frame().map(|f| EndState {
            hp: [f.stats[0].hp, f.stats[1].hp],
            sp: [f.stats[0].sp, f.stats[1].sp],
            structure_value: Player::both().map(|p| structure_value(&history.config, f, p)),
        }),
    }
}

/// `[type][upgraded]` full health of the three structure types under `config`.
pub fn structure_max_health(config: &Config) -> [[f32; 2]; 3] {
    let full = |t: usize, up: bool| if t < config.units.len() { config.form(t, up).start_health } else { 0.0 };
    [0, 1, 2].map(|t| [full(t, false), full(t, true)])
}
